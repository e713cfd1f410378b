// engine/serving/serve_disagg.cpp: prefill/decode disaggregation. Expected values are worked by hand: Llama-3.1-8B
// keeps 32 layers x 8 KV heads x 128 dims x K and V x 2 bytes = 131,072 bytes of KV per token (config.json);
// InfiniBand NDR is 400 Gb/s = 50 GB/s per NIC at 0.92 of line rate (serve_network.h) with an 18 us hop; NVLink 4
// on H100 SXM 450 GB/s per direction with 6 us (serve_memory.cpp choose_links).
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>

#include "catalog/catalog.h"
#include "serving/serving.h"
#include "test_support.h"

using namespace llmsim;

namespace {
ServeRequest disagg(int p, int d, int ptp, int dtp, const std::string& link) {
    ServeRequest r;
    r.engine = "vllm"; r.model = "meta-llama/Llama-3.1-8B-Instruct"; r.hardware = "h100-sxm"; r.precision = "bf16";
    r.max_model_len = 16384;
    r.disaggregation.prefill_gpus = p; r.disaggregation.decode_gpus = d;
    r.disaggregation.prefill_tp = ptp; r.disaggregation.decode_tp = dtp; r.disaggregation.link = link;
    r.gpus = p + d; r.tp = dtp;
    r.workload.input_len = 4096; r.workload.output_len = 64; r.workload.concurrency = 4;
    r.with_single_stream = false;
    return r;
}
}  // namespace

TEST_CASE("disaggregation: the KV transfer of one prompt over the link, by hand", "[serving][disagg]") {
    std::string err, words;
    const double bytes = 131072.0 * 4096;   // 536,870,912 bytes: a 4096-token Llama-3.1-8B prompt
    // one rank each side, InfiniBand NDR with a NIC per GPU: 18 us + bytes / 46 GB/s = 11.689 ms
    double s = kv_transfer_seconds(cat(), disagg(1, 1, 1, 1, "ib-ndr"), 4096, &words, err);
    INFO(err);
    CHECK(s == Approx(18e-6 + bytes / 46e9).epsilon(1e-9));
    CHECK(words.find("InfiniBand NDR") != std::string::npos);
    // tp 2 each side: each rank sends its half of the heads at once: 18 us + bytes / 2 / 46 GB/s
    CHECK(kv_transfer_seconds(cat(), disagg(2, 2, 2, 2, "ib-ndr"), 4096, nullptr, err) == Approx(18e-6 + bytes / 2 / 46e9).epsilon(1e-9));
    // prefill tp 1 feeding decode tp 2: the one sender moves both halves
    CHECK(kv_transfer_seconds(cat(), disagg(1, 2, 1, 2, "ib-ndr"), 4096, nullptr, err) == Approx(18e-6 + bytes / 46e9).epsilon(1e-9));
    // one node, NVLink: 6 us + bytes / 450 GB/s = 1.199 ms
    CHECK(kv_transfer_seconds(cat(), disagg(1, 1, 1, 1, "nvlink"), 4096, nullptr, err) == Approx(6e-6 + bytes / 450e9).epsilon(1e-9));
    // no link named: one node -> NVLink; 100 GbE without RDMA: 72 us + bytes / (12.5 GB/s x 0.70 / 8 GPUs sharing its one NIC)
    CHECK(kv_transfer_seconds(cat(), disagg(1, 1, 1, 1, ""), 4096, nullptr, err) == Approx(6e-6 + bytes / 450e9).epsilon(1e-9));
    CHECK(kv_transfer_seconds(cat(), disagg(1, 1, 1, 1, "ethernet-100"), 4096, nullptr, err) ==
          Approx(72e-6 + bytes / (12.5e9 * 0.70 / 8)).epsilon(1e-9));
}

TEST_CASE("disaggregation: bad blocks are refused with the field named", "[serving][disagg]") {
    std::string err;
    CHECK(kv_transfer_seconds(cat(), disagg(3, 2, 2, 2, "ib-ndr"), 10, nullptr, err) < 0);
    CHECK(err.find("prefill_gpus: 3 is not a whole number of prefill_tp 2") != std::string::npos);
    CHECK(kv_transfer_seconds(cat(), disagg(1, 1, 1, 1, "infiniband"), 10, nullptr, err) < 0);
    CHECK(err.find("disaggregation.link: interconnect: unknown 'infiniband'") != std::string::npos);
    CHECK(kv_transfer_seconds(cat(), disagg(8, 8, 8, 8, "nvlink"), 10, nullptr, err) < 0);
    CHECK(err.find("needs both pools in one node") != std::string::npos);
    ServeRequest r = disagg(1, 1, 1, 1, "");
    r.engine = "llamacpp"; r.precision = "Q4_K_M";
    ServeResult x = serve(cat(), r);
    CHECK_FALSE(x.ok);
    CHECK(x.error.find("disaggregation: modelled for vllm") != std::string::npos);
    // the JSON form: unknown keys and missing counts are named
    auto bad = [](const std::string& d) {
        return nlohmann::json::parse(api_serve(cat(), R"({"model": "meta-llama/Llama-3.1-8B-Instruct", "hardware": "h100-sxm", "disaggregation": )" + d + "}"))
            .value("error", std::string());
    };
    CHECK(bad(R"({"prefill_gpus": 1})") == "disaggregation: prefill_gpus and decode_gpus are required");
    CHECK(bad(R"({"prefill_gpus": 1, "decode_gpus": 1, "pd": 2})").find("disaggregation.pd: unknown key") == 0);
    CHECK(bad(R"({"prefill_gpus": 0, "decode_gpus": 1})").find("disaggregation.prefill_gpus: 0 is out of range") == 0);
    CHECK(bad("[1, 3]").find("disaggregation: must be an object") == 0);
}

TEST_CASE("disaggregation: TTFT adds prefill, transfer and the first decode step; TPOT is free of prefill", "[serving][disagg]") {
    // Long prompts, short answers: aggregated, every decode step shares the GPU with someone's 8192-token prefill
    // chunk. Disaggregated, the decode pool's steps hold decodes only.
    ServeRequest d = disagg(1, 1, 1, 1, "nvlink");
    d.workload.input_len = 8000; d.workload.output_len = 128; d.workload.concurrency = 8;
    ServeResult r = serve(cat(), d);
    INFO(r.error);
    REQUIRE(r.ok);
    REQUIRE(r.disagg.enabled);
    REQUIRE(r.disagg.have_aggregated);
    // the prompt's KV: 8000 x 131,072 B = 1.049 GB; over NVLink 6 us + 1.049e9 / 450e9 = 2.336 ms
    CHECK(r.disagg.kv_bytes_mean == Approx(8000.0 * 131072));
    CHECK(r.disagg.transfer_ms_mean == Approx((6e-6 + 8000.0 * 131072 / 450e9) * 1e3).epsilon(1e-6));
    // a prefill of 8000 tokens is at least 2 x 8.03e9 params x 8000 FLOPs at the H100's 989 TFLOPS BF16 dense: 130 ms
    CHECK(r.disagg.prefill_ttft_ms.median >= 2 * 8.03e9 * 8000 / 989e12 * 1e3);
    // TTFT median = prefill pool + transfer + the decode instance's first step (paired per request: close, not equal)
    const double parts = r.disagg.prefill_ttft_ms.median + r.disagg.transfer_ms_mean + r.disagg.decode_first_ms.median;
    CHECK(r.load.ttft_ms.median == Approx(parts).epsilon(0.25));
    // a decode step reads at least the 16.06 GB of weights at 3.35 TB/s: 4.8 ms; TPOT stays near that floor
    CHECK(r.load.tpot_ms.median >= 16.06e9 / 3.35e12 * 1e3);
    // aggregated on the same 2 GPUs (two instances), prefill chunks interleave the decodes: TPOT p90 far higher
    CHECK(r.disagg.agg_tpot_p90_ms > 1.5 * r.load.tpot_ms.p90);
    // ... while the prefill pool's one GPU queues every prompt: TTFT p90 is higher disaggregated
    CHECK(r.load.ttft_ms.p90 > r.disagg.agg_ttft_p90_ms);
    CHECK(r.disagg.lines.size() >= 6);
    CHECK(r.command.find("--kv-transfer-config '{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}'") != std::string::npos);
}

TEST_CASE("disaggregation: the search picks it only where it wins", "[serving][disagg][search]") {
    SlaSearch space;
    space.disaggregated = true;
    space.only_hardware = "h100-sxm";
    space.engines = {"vllm"}; space.precisions = {"bf16"}; space.gpu_counts = {2};
    space.exact_top = 0;
    auto cheapest = [&](int in, int out, double tpot_ms, double ttft_ms, std::vector<SearchNote>& notes) {
        ServeRequest r = disagg(1, 1, 1, 1, "");
        r.disaggregation = ServeDisaggregation();
        r.gpus = 2; r.tp = 1;
        r.workload.input_len = in; r.workload.output_len = out; r.workload.concurrency = 8;
        r.sla.tpot_p90_ms = tpot_ms; r.sla.ttft_p90_ms = ttft_ms;
        std::vector<SlaPoint> pts = sla_search(cat(), r, space);
        notes = disagg_verdicts(pts);
        return pts;
    };
    std::vector<SearchNote> notes;
    // prefill-heavy with a tight TPOT target: aggregated steps carry 8000-token chunks and miss TPOT; 1P:1D meets it
    std::vector<SlaPoint> a = cheapest(8000, 128, 15, 0, notes);
    REQUIRE_FALSE(a.empty());
    CHECK(a[0].disagg.enabled());
    REQUIRE(notes.size() == 1);
    CHECK((notes[0].text.find("no aggregated configuration does") != std::string::npos || notes[0].text.find("disaggregation wins") != std::string::npos));
    CHECK(notes[0].kind == SearchNoteKind::Because);
    // short prompts, long answers, loose targets: a prefill GPU idles; two aggregated instances are cheaper
    std::vector<SlaPoint> b = cheapest(128, 1024, 100, 5000, notes);
    REQUIRE_FALSE(b.empty());
    CHECK_FALSE(b[0].disagg.enabled());
    REQUIRE(notes.size() == 1);
    CHECK((notes[0].text.find("does not win") != std::string::npos || notes[0].text.find("aggregated only") != std::string::npos));
    CHECK(notes[0].kind == SearchNoteKind::Against);
}

TEST_CASE("disaggregation: off by default, and the JSON round trip", "[serving][disagg]") {
    ServeRequest r;
    CHECK_FALSE(r.disaggregation.enabled());
    std::string err;
    ServeRequest q;
    REQUIRE(parse_serve_request(R"({"model": "meta-llama/Llama-3.1-8B-Instruct", "hardware": "h100-sxm", "workload": {"concurrency": 2},
        "disaggregation": {"prefill_gpus": 4, "decode_gpus": 12, "prefill_tp": 4, "decode_tp": 4, "link": "ib-ndr"}})", cat(), q, err));
    CHECK(q.gpus == 16);
    CHECK(q.tp == 4);
    CHECK(q.disaggregation.link == "ib-ndr");
    auto j = nlohmann::json::parse(serve_result_json(q, serve(cat(), q)));
    INFO(j.dump());
    REQUIRE(j["ok"] == true);
    CHECK(j["disaggregation"]["prefill_instances"] == 1);
    CHECK(j["disaggregation"]["decode_instances"] == 3);
    CHECK(j["disaggregation"].contains("aggregated"));
}
