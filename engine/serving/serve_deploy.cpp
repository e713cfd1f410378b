// A deployment file for a serve request: an NVIDIA Dynamo DynamoGraphDeployment (DGD), the custom resource the Dynamo
// operator turns into pods (kubectl apply -f). One stack, chosen because it expresses prefill/decode disaggregation
// natively (a component `type: prefill` / `type: decode`, NIXL transfer, the frontend streaming from decode); KServe's
// InferenceService has no P/D roles. The shape follows, read 2026-12-07:
//   - https://docs.nvidia.com/dynamo/dev/kubernetes/disaggregated-serving/overview ("Disaggregated Serving": a DGD
//     that splits prefill and decode into independent worker pools);
//   - the nvidia.com/v1beta1 DynamoGraphDeployment reference (spec.components[]: name, type frontend | worker |
//     prefill | decode, replicas, podTemplate.spec.containers[name: main], multinode.nodeCount: "Total GPUs used is
//     nodeCount * container GPU request");
//   - ai-dynamo/dynamo@14a3b0d9 examples/backends/vllm/deploy/v1beta1/disagg.yaml (python3 -m dynamo.vllm --model M
//     --disaggregation-mode prefill --kv-transfer-config NixlConnector, image nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.3.0,
//     resources.limits nvidia.com/gpu) and @2ac51dda examples/backends/sglang/deploy/v1beta1/disagg.yaml (python3 -m
//     dynamo.sglang --model-path M --tp N --disaggregation-mode prefill|decode --disaggregation-transfer-backend nixl
//     --disaggregation-bootstrap-port 12345, sglang-runtime:1.3.1).
// dynamo.vllm / dynamo.sglang take the engines' own arguments, so each worker's args are serve()'s command line for
// that pool without its launcher, plus Dynamo's role flags.
#include <cctype>
#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "serving/serving.h"

namespace llmsim {

namespace {

constexpr const char* kDynamoDocs = "https://docs.nvidia.com/dynamo/dev/kubernetes/disaggregated-serving/overview";
constexpr const char* kDynamoDocsRead = "2026-12-07";
constexpr const char* kVllmImage = "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.3.0";
constexpr const char* kSglangImage = "nvcr.io/nvidia/ai-dynamo/sglang-runtime:1.3.1";

// a YAML double-quoted scalar (JSON's string escapes are a subset of YAML's)
std::string yaml_quote(const std::string& s) { return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

// a command line into its words; '...' keeps a JSON argument whole
std::vector<std::string> split_words(const std::string& cmd) {
    std::vector<std::string> out;
    std::string cur;
    bool quoted = false, any = false;
    for (char c : cmd) {
        if (c == '\'') { quoted = !quoted; any = true; continue; }
        if (!quoted && (c == ' ' || c == '\n' || c == '\t')) { if (any) out.push_back(cur); cur.clear(); any = false; continue; }
        cur += c; any = true;
    }
    if (any) out.push_back(cur);
    return out;
}

// serve()'s command for one pool as Dynamo worker args: the launcher goes ("vllm serve M" -> --model M; "python -m
// sglang.launch_server" -> nothing), a trailing "# ..." comment goes
std::vector<std::string> worker_args(const std::string& engine, const std::string& cmd) {
    std::vector<std::string> w = split_words(cmd.substr(0, cmd.find('#')));
    std::vector<std::string> a;
    size_t i = 0;
    if (engine == "vllm" && w.size() >= 3 && w[0] == "vllm" && w[1] == "serve") { a = {"--model", w[2]}; i = 3; }
    else if (engine == "sglang" && w.size() >= 3 && w[0] == "python") i = 3;
    for (; i < w.size(); ++i) a.push_back(w[i]);
    return a;
}

std::string slug(const std::string& s) {
    std::string o;
    for (char c : s) {
        char l = (char)std::tolower((unsigned char)c);
        o += std::isalnum((unsigned char)l) ? l : '-';
    }
    while (o.find("--") != std::string::npos) o.erase(o.find("--"), 1);
    while (!o.empty() && o.front() == '-') o.erase(0, 1);
    if (o.size() > 50) o.resize(50);
    while (!o.empty() && o.back() == '-') o.pop_back();
    return o.empty() ? "llmsim" : o;
}

struct Worker { std::string name, type; int replicas = 1, gpus_per_pod = 1, nodes = 1; std::vector<std::string> args; };

void emit_worker(std::ostringstream& y, const Worker& w, const std::string& engine, const char* image) {
    y << "  - name: " << w.name << "\n    type: " << w.type << "\n    replicas: " << w.replicas << "\n";
    if (w.nodes > 1) y << "    multinode:\n      nodeCount: " << w.nodes << "\n";
    y << "    podTemplate:\n      spec:\n        containers:\n        - name: main\n          image: " << image << "\n"
      << "          command: [\"python3\", \"-m\", \"dynamo." << engine << "\"]\n          args:\n";
    for (const std::string& a : w.args) y << "          - " << yaml_quote(a) << "\n";
    y << "          envFrom:\n          - secretRef:\n              name: hf-token-secret\n"
      << "          resources:\n            limits:\n              nvidia.com/gpu: \"" << w.gpus_per_pod << "\"\n";
}

// one pool's worker: its instances (replicas), its GPUs per pod (a TP group wider than a node spans nodeCount pods)
Worker pool_worker(const std::string& name, const std::string& type, int instances, int tp, int gpn, std::vector<std::string> args) {
    Worker w;
    w.name = name; w.type = type; w.replicas = instances; w.args = std::move(args);
    w.nodes = tp > gpn ? (tp + gpn - 1) / gpn : 1;
    w.gpus_per_pod = w.nodes > 1 ? gpn : tp;
    return w;
}

}  // namespace

bool serve_deploy_yaml(const Catalog& cat, const ServeRequest& req0, std::string& yaml, std::string& err) {
    if (req0.engine != "vllm" && req0.engine != "sglang") {
        err = "deploy: the Dynamo graph runs vllm (dynamo.vllm) or sglang (dynamo.sglang), not '" + req0.engine + "'";
        return false;
    }
    ServeRequest req = req0;
    req.with_single_stream = false;
    ServeResult r = serve(cat, req);
    if (!r.ok) { err = "deploy: " + r.error; return false; }
    const std::string& e = req.engine;
    const char* image = e == "vllm" ? kVllmImage : kSglangImage;
    const std::string model = req.model_override ? req.model_override->id : req.model;
    const int gpn = std::max(1, req.gpus_per_node);
    std::vector<Worker> workers;
    const ServeDisaggregation& d = req.disaggregation;
    if (d.enabled()) {
        std::vector<std::string> pa = worker_args(e, r.disagg.prefill_command), da = worker_args(e, r.disagg.decode_command);
        if (e == "vllm") {   // Dynamo's role flag; the example keeps the NIXL connector on the prefill worker
            pa.insert(pa.begin() + 2, {"--disaggregation-mode", "prefill"});
            da.insert(da.begin() + 2, {"--disaggregation-mode", "decode"});
            for (size_t i = 0; i + 1 < da.size(); ++i)
                if (da[i] == "--kv-transfer-config") { da.erase(da.begin() + (long)i, da.begin() + (long)i + 2); break; }
        } else {
            for (auto* a : {&pa, &da}) a->insert(a->end(), {"--served-model-name", model, "--disaggregation-bootstrap-port", "12345", "--host", "0.0.0.0"});
        }
        const char* pn = e == "vllm" ? "VllmPrefillWorker" : "prefill";
        const char* dn = e == "vllm" ? "VllmDecodeWorker" : "decode";
        workers.push_back(pool_worker(pn, "prefill", r.disagg.prefill_instances, d.prefill_tp, gpn, pa));
        workers.push_back(pool_worker(dn, "decode", r.disagg.decode_instances, d.decode_tp, gpn, da));
    } else {
        if (req.pp > 1) { err = "deploy: pp > 1 is not emitted (Dynamo's examples run TP instances)"; return false; }
        std::vector<std::string> a = worker_args(e, r.command);
        if (e == "sglang") a.insert(a.end(), {"--served-model-name", model, "--host", "0.0.0.0"});
        workers.push_back(pool_worker(e == "vllm" ? "VllmWorker" : "worker", "worker", std::max(1, req.gpus / std::max(1, req.tp)), req.tp, gpn, a));
    }
    std::ostringstream y;
    y << "# NVIDIA Dynamo DynamoGraphDeployment written by llmsim (serve --deploy) for " << model << " on " << req.hardware << ".\n"
      << "# Format: " << kDynamoDocs << " and the nvidia.com/v1beta1 DynamoGraphDeployment reference (read " << kDynamoDocsRead << ").\n"
      << "# Apply: kubectl create secret generic hf-token-secret --from-literal=HF_TOKEN=...; kubectl apply -f <this file>\n";
    char b[320];
    if (d.enabled())
        snprintf(b, sizeof b, "# Predicted (llmsim, %s): %.0f output tok/s, TTFT p90 %.0f ms, TPOT p90 %.1f ms; KV over %s\n", e.c_str(),
                 r.load.output_tok_s, r.load.ttft_ms.p90, r.load.tpot_ms.p90, r.disagg.link.c_str());
    else
        snprintf(b, sizeof b, "# Predicted (llmsim, %s): %.0f output tok/s, TTFT p90 %.0f ms, TPOT p90 %.1f ms\n", e.c_str(), r.load.output_tok_s,
                 r.load.ttft_ms.p90, r.load.tpot_ms.p90);
    y << b;
    y << "apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata:\n  name: " << slug("llmsim-" + model) << "\nspec:\n"
      << "  backendFramework: " << e << "\n  components:\n"
      << "  - name: Frontend\n    type: frontend\n    replicas: 1\n    podTemplate:\n      spec:\n        containers:\n        - name: main\n"
      << "          image: " << image << "\n";
    for (const Worker& w : workers) emit_worker(y, w, e, image);
    yaml = y.str();
    return true;
}

}  // namespace llmsim
