// Layer-split pipeline speed of a mixed rig / RPC setup (rig_speed.h).
#include "rig/rig_speed.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/format.h"
#include "core/input_limits.h"
#include "speed/speed_inputs.h"

namespace llmsim {

namespace {

struct DevicePart {
    const RigDevice* rd = nullptr;
    std::string name;
    SpeedScenario s;
};

const RigDevice* rig_device_named(const Hardware& rig, const std::string& name) {
    for (const RigDevice& d : rig.rig)
        if (d.llama_name == name) return &d;
    return nullptr;
}

// the scenario of one device: its share of the weights (bytes placed on it / bytes on all GPUs) and of the layers
// (KV, attention), read at its own bandwidth and compute
SpeedScenario device_scenario(const SpeedScenario& s, const Hardware& h, double wfrac, int layers) {
    SpeedScenario d = s;
    const double on_gpus = 1.0 - s.offload_fraction;            // of the bytes held
    const double read_on_gpus = 1.0 - host_read_fraction(s);     // of a token's reads (experts in host RAM: k/E)
    const double lfrac = s.n_layers > 0 ? (double)layers / (double)s.n_layers : 0.0;
    d.gpus = 1;
    d.offload_fraction = 0;
    d.offload_token_fraction = -1;
    d.weight_bytes = s.weight_bytes * on_gpus * wfrac;
    d.weight_bytes_per_token = s.weight_bytes_per_token * read_on_gpus * wfrac;
    d.active_params = s.active_params * read_on_gpus * wfrac;
    d.moe_expert_bytes = s.moe_expert_bytes * on_gpus * wfrac;
    d.n_layers = std::max(1, layers);
    d.full_attn_layers = (int)std::lround(s.full_attn_layers * lfrac);
    d.swa_layers = (int)std::lround(s.swa_layers * lfrac);
    d.kv_bytes_per_token_full = s.kv_bytes_per_token_full * lfrac;
    d.kv_bytes_per_token_swa = s.kv_bytes_per_token_swa * lfrac;
    d.recurrent_state_bytes = s.recurrent_state_bytes * lfrac;
    set_device_speed_inputs(d, h);   // the device's own bandwidth, FP16, class and family (speed_inputs.h)
    d.backend = h.backends.empty() ? Backend::Vulkan : h.backends.front();
    return d;
}

// the GPUs of the placement that hold weights, with their scenarios; false + err when the placement has none
bool device_parts(const SpeedScenario& s, const Hardware& rig, const MemoryBreakdown& mb, std::vector<DevicePart>& out,
                  std::string& err) {
    double gpu_weights = 0;
    for (const DeviceMemory& d : mb.devices)
        if (d.name != "host") gpu_weights += (double)d.weights_bytes;
    if (!(gpu_weights > 0)) { err = "no weights on any GPU of the rig"; return false; }
    for (const DeviceMemory& d : mb.devices) {
        if (d.name == "host" || d.weights_bytes == 0) continue;
        const RigDevice* rd = rig_device_named(rig, d.name);
        if (!rd) { err = "the placement names a device the rig does not have (" + d.name + ")"; return false; }
        DevicePart p;
        p.rd = rd;
        p.name = d.name + " (" + rd->hw.id + ")";
        p.s = device_scenario(s, rd->hw, (double)d.weights_bytes / gpu_weights, d.n_layers);
        out.push_back(p);
    }
    return true;
}

// hand-offs and network of one pass of `tokens` tokens through the devices in order, seconds
void link_costs(const std::vector<DevicePart>& parts, const Hardware& rig, const SpeedParams& p, int64_t n_embd,
                double n_kv, double tokens, double& handoff_s, double& network_s) {
    const double act = (double)n_embd * 4.0 * tokens;   // f32 hidden state
    const double local_gbs = rig.link_gbs > 0 ? rig.link_gbs : kDefaultPcieGbs;
    handoff_s = network_s = 0;
    for (size_t i = 0; i < parts.size(); ++i) {
        const RigDevice& d = *parts[i].rd;
        if (d.host != 0) {
            // every device of an RPC server gets its own copy of the graph inputs: KQ mask (f16) and positions
            network_s += (n_kv * 2.0 * tokens + 4.0 * tokens) / (d.net_gbs * 1e9);
            const bool host_starts = i == 0 || parts[i - 1].rd->host != d.host;
            if (host_starts) network_s += 2.0 * act / (d.net_gbs * 1e9) + d.net_latency_us * 1e-6;   // in + out, one round trip
        }
        if (i > 0 && (d.host == 0 || parts[i - 1].rd->host == d.host)) {
            // inside one host: the calibrated hand-off plus the activations over the GPU link
            handoff_s += p.gpu_hop_ms * 1e-3 + (d.host == 0 ? act / (local_gbs * 1e9) : 0.0);
        }
    }
}

void fill_slowest(const std::vector<DevicePart>& parts, const std::vector<double>& t, RigSpeedTerms& terms) {
    double sum = 0, worst = -1;
    for (size_t i = 0; i < t.size(); ++i) {
        sum += t[i];
        if (t[i] > worst) { worst = t[i]; terms.slowest = parts[i].name; }
    }
    terms.devices_s = sum;
    terms.slowest_share = sum > 0 ? worst / sum : 0;
}

double host_time_per_token(const SpeedScenario& s, const SpeedParams& p) {
    if (!(s.offload_fraction > 0) || !(s.host_bandwidth_gbs > 0)) return 0;
    return s.weight_bytes_per_token * host_read_fraction(s) / (s.host_bandwidth_gbs * 1e9 * p.host_share);
}

double kv_cells(int64_t depth) { return (double)((depth + 256) / 256 * 256); }   // cells in use, padded to 256

}  // namespace

SpeedResult estimate_rig_decode(const SpeedScenario& s, const SpeedParams& p, const Hardware& rig, const MemoryBreakdown& mb,
                                int64_t n_embd, int64_t depth, int64_t n_tokens, RigSpeedTerms* terms) {
    SpeedResult r;
    std::vector<DevicePart> parts;
    if (!device_parts(s, rig, mb, parts, r.error)) return r;
    const int64_t n = std::max<int64_t>(1, n_tokens);
    std::vector<double> t;
    bool est = false;
    for (const DevicePart& d : parts) {
        SpeedResult x = estimate_decode(d.s, p, depth, n);
        if (!x.ok) { r.error = d.name + ": " + x.error; return r; }
        t.push_back(x.time_s / (double)n);
        r.weight_time_s += x.weight_time_s;
        r.kv_time_s += x.kv_time_s;
        r.alu_time_s += x.alu_time_s;
        r.fixed_time_s += x.fixed_time_s;
        r.bytes_per_token += x.bytes_per_token;
        r.flops_per_token += x.flops_per_token;
        est |= x.fp16_tflops_estimated;
    }
    RigSpeedTerms tt;
    fill_slowest(parts, t, tt);
    link_costs(parts, rig, p, n_embd, kv_cells(depth + n / 2), 1.0, tt.handoff_s, tt.network_s);
    tt.host_s = host_time_per_token(s, p);
    const double per_token = tt.devices_s + tt.handoff_s + tt.network_s + tt.host_s;
    r.sync_time_s = tt.handoff_s + tt.network_s;
    r.offload_time_s = tt.host_s;
    r.time_s = per_token * (double)n;
    r.tokens_per_s = 1.0 / per_token;
    r.fp16_tflops_estimated = est;
    r.bound = r.weight_time_s + r.kv_time_s + r.offload_time_s >= r.alu_time_s ? Bound::Memory : Bound::Compute;
    r.ok = std::isfinite(r.tokens_per_s) && r.tokens_per_s > 0;
    if (!r.ok) { r.error = "speed out of the model's range for this rig"; return r; }
    apply_speed_band(r, p, SpeedTest::Decode, parts.front().s.kind);
    if (terms) *terms = tt;
    return r;
}

SpeedResult estimate_rig_prefill(const SpeedScenario& s, const SpeedParams& p, const Hardware& rig, const MemoryBreakdown& mb,
                                 int64_t n_embd, int64_t n_tokens, int64_t depth, RigSpeedTerms* terms) {
    SpeedResult r;
    std::vector<DevicePart> parts;
    if (!device_parts(s, rig, mb, parts, r.error)) return r;
    const int64_t n = std::max<int64_t>(1, n_tokens);
    std::vector<double> t;
    bool est = false, any_rpc = false;
    double worst = 0;
    for (const DevicePart& d : parts) {
        SpeedScenario one = d.s;
        one.offload_fraction = 0;
        SpeedResult x = estimate_prefill(one, p, n, depth);
        if (!x.ok) { r.error = d.name + ": " + x.error; return r; }
        t.push_back(x.time_s);
        worst = std::max(worst, x.time_s);
        r.compute_time_s += x.compute_time_s;
        r.attention_time_s += x.attention_time_s;
        r.overhead_time_s += x.overhead_time_s;
        r.flops_per_token += x.flops_per_token;
        r.bytes_per_token += x.bytes_per_token;
        est |= x.fp16_tflops_estimated;
        any_rpc |= d.rd->host != 0;
    }
    RigSpeedTerms tt;
    fill_slowest(parts, t, tt);
    // llama.cpp pipeline parallelism (llama_context: several devices, all layers offloaded, -sm layer, backends with
    // async + events): k ubatches of a batch flow through the devices as stages: (sum + (k - 1) x slowest) / k
    const int64_t ub = std::max(1, s.ubatch);
    const int64_t k = std::max<int64_t>(1, (std::min<int64_t>(std::max(s.batch, s.ubatch), n) + ub - 1) / ub);
    const bool piped = !any_rpc && parts.size() > 1 && s.offload_fraction == 0;
    const double device_total = piped ? (tt.devices_s + (double)(k - 1) * worst) / (double)k : tt.devices_s;
    const int64_t n_ub = (n + ub - 1) / ub;
    double hand = 0, net = 0;
    link_costs(parts, rig, p, n_embd, kv_cells(depth + n / 2), (double)std::min<int64_t>(ub, n), hand, net);
    tt.handoff_s = hand * (double)n_ub / (double)n;
    tt.network_s = net * (double)n_ub / (double)n;
    // host-resident weights cross the PCIe link once per ubatch (op offload), as in estimate_prefill
    const double link = s.host_link_gbs > 0 ? s.host_link_gbs : (s.link_gbs > 0 ? s.link_gbs : kDefaultPcieGbs);
    tt.host_s = s.offload_fraction > 0 ? s.weight_bytes * s.offload_fraction / (link * 1e9) * (double)n_ub / (double)n : 0;
    const double total = device_total + (tt.handoff_s + tt.network_s + tt.host_s) * (double)n;
    tt.devices_s = device_total / (double)n;
    r.sync_time_s = tt.handoff_s + tt.network_s;
    r.offload_time_s = tt.host_s;
    r.time_s = total;
    r.tokens_per_s = (double)n / total;
    r.fp16_tflops_estimated = est;
    r.bound = Bound::Compute;
    r.ok = std::isfinite(r.tokens_per_s) && r.tokens_per_s > 0;
    if (!r.ok) { r.error = "speed out of the model's range for this rig"; return r; }
    apply_speed_band(r, p, SpeedTest::Prefill, parts.front().s.kind);
    if (terms) *terms = tt;
    return r;
}

std::string explain_rig_terms(const RigSpeedTerms& t) {
    std::string s = "rig (layer split, devices in turn): " + format_sig(t.devices_s * 1e3) + " ms devices (slowest " +
                    t.slowest + ", " + format_sig(t.slowest_share * 100) + " %)";
    s += " + " + format_sig(t.handoff_s * 1e3) + " ms GPU hand-offs";
    if (t.network_s > 0) s += " + " + format_sig(t.network_s * 1e3) + " ms RPC network";
    if (t.host_s > 0) s += " + " + format_sig(t.host_s * 1e3) + " ms host-RAM layers";
    return s + " per token";
}

}  // namespace llmsim
