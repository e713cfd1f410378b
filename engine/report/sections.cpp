#include "report/sections.h"

#include <algorithm>
#include <memory>

#include "core/format.h"
#include "memory/prepared_weights.h"
#include "sim/speed_labels.h"

namespace llmsim {

// [SECTION] rows ------------------------------------------------------------------------------------------------

std::vector<QuantRow> quant_rows(const Catalog& cat, const Model& model, const SimRequest& base, int64_t ctx_b_tokens,
                                 const std::map<std::string, uint64_t>* exact_tensor_bytes) {
    std::vector<QuantRow> out;
    for (const FileType& ft : cat.file_types) {
        QuantRow row;
        row.file_type = &ft;
        SimRequest r = base;
        r.with_speed = false;
        r.memory.hardware = nullptr;
        r.memory.file_type = ft.name;
        r.memory.tensor_data_bytes_exact.reset();
        if (exact_tensor_bytes) {   // a looked-up repo: its own files, nothing else
            auto it = exact_tensor_bytes->find(ft.name);
            if (it == exact_tensor_bytes->end() || it->second == 0) continue;
            r.memory.tensor_data_bytes_exact = it->second;
        }
        r.memory.n_gpu_layers = kAllGpuLayers;
        r.memory.n_cpu_moe = 0;
        Evaluation ev;
        std::string e;
        if (evaluate(cat, model, r, ev, e)) {
            row.weights_bytes = ev.memory.weights_bytes;
            row.bits_per_weight = ev.memory.bits_per_weight;
            row.total_a_bytes = ev.memory.total_bytes;
            r.memory.n_ctx = ctx_b_tokens;
            if (evaluate(cat, model, r, ev, e)) row.total_b_bytes = ev.memory.total_bytes;
            else row.error = e;
        } else {
            row.error = e;
        }
        out.push_back(row);
    }
    return out;
}

std::vector<QuantRow> common_quant_rows(const std::vector<QuantRow>& rows) {
    std::vector<QuantRow> out;
    for (const QuantRow& q : rows)
        if (q.error.empty() && q.file_type->common) out.push_back(q);
    std::stable_sort(out.begin(), out.end(), [](const QuantRow& a, const QuantRow& b) { return a.bits_per_weight > b.bits_per_weight; });
    return out;
}

std::vector<DeviceRow> device_rows(const Catalog& cat, const Model& model, const SimRequest& base) {
    // every device in one grid (simulate.h evaluate_grid: the layouts and placements shared by the devices of one
    // backend and GPU count), the weights prepared once as evaluate() prepares them
    SimRequest r = base;
    r.memory.n_gpu_layers = kAllGpuLayers;
    r.memory.n_cpu_moe = 0;
    const size_t n = cat.hardware.size();
    std::vector<const Hardware*> devices;
    for (const Hardware& hw : cat.hardware) devices.push_back(&hw);
    std::vector<Evaluation> evals(n);
    std::unique_ptr<bool[]> ok(new bool[n]);
    std::vector<std::string> errs(n);
    QuantOptions qo;
    qo.exact_tensor_data_bytes = r.memory.tensor_data_bytes_exact.value_or(0);
    std::string werr;
    const std::shared_ptr<const PreparedWeights> w = prepare_weights(
        cat, model, r.memory.file_type, werr,
        r.memory.tensor_data_bytes_exact ? 0 : r.memory.file_bytes_override.value_or(0), qo);
    if (w) evaluate_grid(cat, *w, model, r, devices.data(), (int)n, &r.memory.n_ctx, 1, evals.data(), ok.get(), errs.data());
    std::vector<DeviceRow> out;
    for (size_t d = 0; d < n; ++d) {
        const Hardware& hw = cat.hardware[d];
        DeviceRow row;
        row.hardware = &hw;
        if (!w) row.error = werr;
        else if (!ok[d]) row.error = errs[d];
        row.eval = std::move(evals[d]);
        const double price = hw.price_usd > 0 ? hw.price_usd : hw.price_used_usd;
        if (row.eval.speed.ok && row.eval.speed.decode_tps > 0 && price > 0)
            row.usd_per_decode_tps = price / row.eval.speed.decode_tps;   // rigs: the catalog prices all GPUs together
        out.push_back(row);
    }
    return out;
}

int fit_status_rank(FitStatus s) {
    switch (s) {
        case FitStatus::Comfortable: return 0;
        case FitStatus::Tight: return 1;
        case FitStatus::TunableUma: return 2;
        case FitStatus::PartialOffload: return 3;
        case FitStatus::Oom: return 4;
        default: return 5;
    }
}

std::vector<DeviceRow> seed_ordered_device_rows(const std::vector<DeviceRow>& rows) {
    std::vector<DeviceRow> out;
    for (const DeviceRow& r : rows)
        if (r.error.empty()) out.push_back(r);
    std::stable_sort(out.begin(), out.end(), [](const DeviceRow& a, const DeviceRow& b) {
        const int ra = fit_status_rank(a.eval.memory.status), rb = fit_status_rank(b.eval.memory.status);
        if (ra != rb) return ra < rb;
        const double da = a.eval.speed.ok ? a.eval.speed.decode_full_tps : 0, db = b.eval.speed.ok ? b.eval.speed.decode_full_tps : 0;
        return da != db ? da > db : a.eval.memory.usable_bytes > b.eval.memory.usable_bytes;
    });
    return out;
}

std::vector<ContextPoint> context_rows(const Catalog& cat, const Model& model, const SimRequest& base) {
    std::vector<ContextPoint> out;
    int64_t max_ctx = model.extended_context > 0 ? model.extended_context : model.native_context;
    if (max_ctx <= 0) max_ctx = 131072;
    for (int64_t c = 1024; c <= max_ctx; c *= 2) {
        for (int64_t ctx : {c, c + c / 2}) {
            if (ctx > max_ctx) continue;
            SimRequest r = base;
            r.memory.n_ctx = ctx;
            r.memory.compute_max_context = false;
            r.prompt_tokens = ctx;   // decode read-out at a full context
            Evaluation ev;
            std::string e;
            if (!evaluate(cat, model, r, ev, e)) continue;
            ContextPoint p;
            p.ctx_tokens = ctx;
            p.kv_bytes = ev.memory.kv_cache_bytes;
            p.total_bytes = ev.memory.total_bytes;
            p.status = ev.memory.status;
            p.decode_tokens_per_s = ev.speed.ok ? ev.speed.decode_tps : 0;
            out.push_back(p);
        }
    }
    return out;
}

bool is_power_of_two_context(int64_t ctx_tokens) { return ctx_tokens > 0 && (ctx_tokens & (ctx_tokens - 1)) == 0; }

// [SECTION] recommendation and cost -----------------------------------------------------------------------------

RecommendResult cheapest_usable(const Catalog& cat, const Model& model, const std::string& quant, int64_t ctx_tokens,
                                const DeviceProfile* profile) {
    RecommendQuery q;
    q.model = &model;
    q.quant = quant;
    q.ctx_tokens = ctx_tokens;
    q.device_profile = profile;
    q.min_decode_tps = kUsableMinDecodeTps;   // at the full chosen context (decode_depth -1)
    q.max_ttft_s = kUsableMaxTtftS;
    q.prompt_tokens = kUsablePromptTokens;
    q.max_price_usd = 0;
    return recommend_hardware(cat, q);
}

const Candidate* first_priced(const RecommendResult& r) {
    for (const Candidate& c : r.accepted)
        if (c.price_usd > 0) return &c;
    return nullptr;
}

CostInputs cost_inputs(const Model* model, const Hardware* hardware, const SpeedView& speed, const CostScenario& s) {
    CostInputs in;
    // tokens/month split 3:1 input:output, the usual chat/RAG ratio (editable as a total)
    in.input_mtok_per_month = s.mtok_per_month * 0.75;
    in.output_mtok_per_month = s.mtok_per_month * 0.25;
    if (speed.ok) { in.prefill_tokens_per_s = speed.prefill_tps; in.decode_tokens_per_s = speed.decode_tps; }
    if (hardware) {
        const Hardware& h = *hardware;
        in.hardware_price_usd = h.price_usd > 0 ? h.price_usd : h.price_used_usd;   // rigs: all GPUs together
        in.device_power_w = h.tdp_w * h.gpu_count;
        in.cloud_usd_per_hour = h.cloud_usd_per_hour * h.gpu_count;
    }
    if (s.price_usd >= 0) in.hardware_price_usd = s.price_usd;
    if (s.rent_usd_per_hour >= 0) in.cloud_usd_per_hour = s.rent_usd_per_hour;
    in.amortize_months = s.amortize_months;
    in.kwh_price_usd = s.kwh_price_usd;
    if (model && model->api_price_in_usd_per_mtok >= 0) in.api_in_usd_per_mtok = model->api_price_in_usd_per_mtok;
    if (model && model->api_price_out_usd_per_mtok >= 0) in.api_out_usd_per_mtok = model->api_price_out_usd_per_mtok;
    if (s.api_in_usd >= 0) in.api_in_usd_per_mtok = s.api_in_usd;
    if (s.api_out_usd >= 0) in.api_out_usd_per_mtok = s.api_out_usd;
    return in;
}

std::string cost_summary(const CostResult& r) {
    if (!r.error.empty()) return "Cost unknown: " + r.error + ".";
    std::string s = "Cheapest: " + std::string(r.cheapest == "own" ? "owning the hardware" : r.cheapest == "rent" ? "renting" : "the serverless API") + ". ";
    s += r.payback_months >= 0 ? "Buying pays back in " + format_sig(r.payback_months) + " months." : "Buying never pays back at this load.";
    if (r.devices_needed > 1) s += " The load " + capacity_note(r) + ".";
    return s;
}

}  // namespace llmsim
