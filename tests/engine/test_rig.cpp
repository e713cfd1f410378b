// The user's own machine (engine/rig): mixed-GPU rigs and RPC hosts under llama.cpp's split rules, the layer-split
// pipeline speed, host-RAM bandwidth, the command line, and detection (tool output parsers, GPU-name matcher).
//
// The split rules each test follows are named in the test (llama.cpp src/llama.cpp, src/llama-model.cpp,
// ggml/src/ggml-cuda/ggml-cuda.cu). Expected layer counts are worked here from the catalog's memory figures with
// llama.cpp's own float loop, written out in the test (split_layers_like_llama_cpp), not taken from the engine.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/api.h"
#include "catalog/catalog.h"
#include "memory/memory.h"
#include "rig/detect.h"
#include "rig/resolve_device.h"
#include "rig/rig.h"
#include "rig/rig_speed.h"
#include "runtime/command.h"
#include "sim/simulate.h"
#include "runtime/speed_glue.h"
#include "test_support.h"

using namespace llmsim;

namespace {

const Model& model(const char* id) {
    const Model* m = cat().find_model(id);
    REQUIRE(m != nullptr);
    return *m;
}

MemoryBreakdown place(const char* model_id, const char* hw_id, MemoryRequest r = MemoryRequest()) {
    r.hardware = resolve_device(cat(), hw_id);
    REQUIRE(r.hardware != nullptr);
    MemoryBreakdown mb;
    std::string err;
    REQUIRE(estimate_memory(cat(), model(model_id), r, mb, err));
    return mb;
}

// llama_model::load_tensors (src/llama-model.cpp), written out: splits[i] = running float sum / total, layer il of
// n_layer + 1 (the output "layer" last) goes to upper_bound(splits, float(il)/act) - all layers on GPU (-ngl 99)
std::vector<int> split_layers_like_llama_cpp(std::vector<float> splits, int n_layer, int& output_device) {
    float sum = 0.0f;
    for (float& s : splits) { sum += s; s = sum; }
    for (float& s : splits) s /= sum;
    std::vector<int> layers(splits.size(), 0);
    const int act = n_layer + 1;
    for (int il = 0; il <= n_layer; ++il) {
        const int dev = (int)(std::upper_bound(splits.begin(), splits.end(), float(il) / act) - splits.begin());
        if (il < n_layer) ++layers[(size_t)dev]; else output_device = dev;
    }
    return layers;
}

// free memory at load as llmsim models it for a discrete CUDA card: total - 1 GiB desktop reserve - CUDA runtime
float free_mib_cuda_desktop(double total_mib) { return (float)(total_mib - 1024.0 - 400.0); }

std::string read_corpus(const std::string& rel) {
    std::ifstream f(std::string(LLMSIM_SOURCE_DIR) + "/tests/corpus/detect/" + rel, std::ios::binary);
    REQUIRE(f.good());
    std::ostringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

}  // namespace

// [SECTION] Rig ids

TEST_CASE("rig ids: llama.cpp's device order (RPC servers first), names, canonical ids and errors", "[rig]") {
    const Hardware* a = resolve_device(cat(), "2x rtx-3090 + rtx-3060-12gb");
    REQUIRE(a != nullptr);
    CHECK(a->id == "2x-rtx-3090+rtx-3060-12gb");
    CHECK(resolve_device(cat(), "2x-rtx-3090+rtx-3060-12gb") == a);   // one entry per rig, whatever the spelling
    CHECK(cat().find_hardware("2x-rtx-3090+rtx-3060-12gb") == nullptr);   // the catalog holds rows; rigs are built above it
    std::string rig_err;
    CHECK(resolve_device(cat(), "rtx-4090+no-such-gpu", rig_err) == nullptr);
    CHECK(rig_err.find("no-such-gpu") != std::string::npos);   // the message names the wrong part
    REQUIRE(a->rig.size() == 3);
    CHECK(a->rig[0].llama_name == "CUDA0");
    CHECK(a->rig[2].llama_name == "CUDA2");
    CHECK(a->rig[2].hw.id == "rtx-3060-12gb");
    CHECK(a->gpu_count == 3);
    CHECK(a->memory_bytes * 3 == (24576 + 24576 + 12288) * (int64_t)kMiB);   // the mean x count is the total

    // src/llama.cpp llama_model_load_from_file_impl: "add RPC servers at the front of the list to minimize network
    // transfers" — the RPC device is device 0 of -ts even though it is written last
    const Hardware* r = resolve_device(cat(), "rtx-4090+m2-ultra-192@10gbe");
    REQUIRE(r != nullptr);
    REQUIRE(r->rig.size() == 2);
    CHECK(r->rig[0].llama_name == "RPC0");
    CHECK(r->rig[0].host == 1);
    CHECK(r->rig[0].hw.id == "m2-ultra-192");
    CHECK(r->rig[1].llama_name == "CUDA0");
    CHECK(rig_host_count(*r) == 2);
    CHECK(rpc_endpoints(*r) == "192.168.1.11:50052");

    // mixed vendors in one process meet in Vulkan
    const Hardware* v = resolve_device(cat(), "rtx-4090+rx-7900-xtx");
    REQUIRE(v != nullptr);
    CHECK(v->backends.front() == Backend::Vulkan);
    CHECK(v->rig[1].llama_name == "Vulkan1");

    Hardware h;
    std::string err;
    CHECK_FALSE(build_rig(cat(), "rtx-4090+nope", h, err));
    CHECK(err == "rig 'rtx-4090+nope': 'nope': unknown device 'nope' (llmsim-cli catalog --hardware lists them)");
    CHECK_FALSE(build_rig(cat(), "rtx-4090@10gbe", h, err));
    CHECK(err == "rig 'rtx-4090@10gbe': no local device: the first machine runs llama-server (write its GPU without '@')");
    CHECK_FALSE(build_rig(cat(), "9x rtx-4090+8x rtx-3090", h, err));
    CHECK(err == "rig '9x rtx-4090+8x rtx-3090': 17 devices; llama.cpp takes at most 16");
    CHECK(resolve_device(cat(), "rtx-4090++rtx-3090") == nullptr);
    CHECK(cat().find_hardware("rtx-4090") == cat().find_hardware("rtx-4090"));   // plain ids untouched
}

// [SECTION] Memory per device

TEST_CASE("mixed rig default split: proportional to free memory, float cumulative splits, upper_bound (llama_model::load_tensors)", "[rig]") {
    // Qwen2.5-32B: 64 layers. RTX 3090 24576 MiB + RTX 3060 12 GB 12288 MiB (catalog, nvidia-smi totals)
    int out_dev = -1;
    const std::vector<int> want = split_layers_like_llama_cpp({free_mib_cuda_desktop(24576), free_mib_cuda_desktop(12288)}, 64, out_dev);
    CHECK(want == std::vector<int>{45, 19});   // 23152 / 34016 = 0.6806 of 65 -> layers 0..44 on CUDA0
    CHECK(out_dev == 1);                       // the output layer follows the last split (CUDA1)
    MemoryRequest r;
    r.n_ctx = 8192;
    const MemoryBreakdown mb = place("Qwen/Qwen2.5-32B-Instruct", "rtx-3090+rtx-3060-12gb", r);
    REQUIRE(mb.devices.size() == 3);
    CHECK(mb.devices[0].n_layers == want[0]);
    CHECK(mb.devices[1].n_layers == want[1]);
    CHECK(mb.devices[0].hardware_id == "rtx-3090");
    CHECK(mb.devices[1].hardware_id == "rtx-3060-12gb");
    // each device against its own limit: total - 1 GiB reserve (usable_gpu_bytes)
    CHECK(mb.devices[0].usable_bytes == (24576 - 1024) * kMiB);
    CHECK(mb.devices[1].usable_bytes == (12288 - 1024) * kMiB);
    CHECK(mb.usable_bytes == (24576 - 1024 + 12288 - 1024) * kMiB);
    // KV cache follows the layers (64 full-attention layers share it 45 : 19)
    CHECK(mb.devices[0].kv_cache_bytes * 19 == mb.devices[1].kv_cache_bytes * 45);
}

TEST_CASE("mixed rig -ts: the given proportions replace free memory (llama_model::load_tensors, tensor_split)", "[rig]") {
    for (const auto& c : std::vector<std::pair<std::vector<double>, std::vector<int>>>{{{1, 1}, {33, 31}}, {{3, 1}, {49, 15}}, {{0, 1}, {0, 64}}}) {
        int out_dev = -1;
        const std::vector<int> want = split_layers_like_llama_cpp({(float)c.first[0], (float)c.first[1]}, 64, out_dev);
        CHECK(want == c.second);
        MemoryRequest r;
        r.n_ctx = 4096;
        r.n_gpu_layers = 65;   // all layers + output, as -ngl 99 (no auto fit: {0, 1} does not fit on the 12 GB card)
        r.tensor_split = c.first;
        const MemoryBreakdown mb = place("Qwen/Qwen2.5-32B-Instruct", "rtx-3090+rtx-3060-12gb", r);
        CHECK(mb.devices[0].n_layers == want[0]);
        CHECK(mb.devices[1].n_layers == want[1]);
    }
}

TEST_CASE("-sm none keeps only devices[main_gpu] (llama_model_load_from_file_impl, LLAMA_SPLIT_MODE_NONE)", "[rig]") {
    MemoryRequest r;
    r.n_ctx = 4096;
    r.split_mode = SplitMode::None;
    r.main_gpu = 1;
    const MemoryBreakdown mb = place("Qwen/Qwen2.5-7B-Instruct", "rtx-3090+rtx-3060-12gb", r);
    REQUIRE(mb.devices.size() == 2);   // CUDA1 + host
    CHECK(mb.devices[0].name == "CUDA1");
    CHECK(mb.devices[0].hardware_id == "rtx-3060-12gb");
    CHECK(mb.devices[0].n_layers == 28);
    CHECK(mb.devices[0].usable_bytes == (12288 - 1024) * kMiB);
    r.main_gpu = 2;
    MemoryBreakdown bad;
    std::string err;
    r.hardware = resolve_device(cat(), "rtx-3090+rtx-3060-12gb");
    CHECK_FALSE(estimate_memory(cat(), model("Qwen/Qwen2.5-7B-Instruct"), r, bad, err));
    CHECK(err == "--main-gpu 2 is out of range: the hardware has 2 GPUs (0 to 1)");
}

TEST_CASE("-sm row: matrices cut by rows in proportion to total memory, KV with the layer split (make_gpu_buft_list, ggml_backend_cuda_split_buffer_type)", "[rig]") {
    MemoryRequest layer, row;
    layer.n_ctx = row.n_ctx = 8192;
    row.split_mode = SplitMode::Row;
    const MemoryBreakdown ml = place("Qwen/Qwen2.5-32B-Instruct", "rtx-3090+rtx-3060-12gb", layer);
    const MemoryBreakdown mr = place("Qwen/Qwen2.5-32B-Instruct", "rtx-3090+rtx-3060-12gb", row);
    // ggml-cuda's default_tensor_split is by totalGlobalMem: 24576 : 12288 = 2 : 1 of every matrix
    const double w0 = (double)mr.devices[0].weights_bytes, w1 = (double)mr.devices[1].weights_bytes;
    CHECK(w0 / (w0 + w1) == Approx(2.0 / 3.0).epsilon(0.002));
    CHECK(mr.devices[0].weights_bytes + mr.devices[1].weights_bytes == Approx((double)(ml.devices[0].weights_bytes + ml.devices[1].weights_bytes)).epsilon(1e-6));
    // the layers (and so the KV cache) are still assigned by the free-memory split
    CHECK(mr.devices[0].n_layers == ml.devices[0].n_layers);
    CHECK(mr.devices[0].kv_cache_bytes == ml.devices[0].kv_cache_bytes);
    // Metal has no split buffer type: -sm row places like -sm layer there
    const MemoryBreakdown mm = place("Qwen/Qwen2.5-7B-Instruct", "m2-ultra-192+m2-ultra-192@10gbe", row);
    const MemoryBreakdown mml = place("Qwen/Qwen2.5-7B-Instruct", "m2-ultra-192+m2-ultra-192@10gbe", MemoryRequest());
    CHECK(mm.devices[0].weights_bytes == mml.devices[0].weights_bytes);
}

TEST_CASE("two identical cards as a rig place exactly like the 2x combination", "[rig]") {
    MemoryRequest r;
    r.n_ctx = 16384;
    const MemoryBreakdown a = place("Qwen/Qwen2.5-32B-Instruct", "rtx-3090+rtx-3090", r);
    const MemoryBreakdown b = place("Qwen/Qwen2.5-32B-Instruct", "2x-rtx-3090", r);
    REQUIRE(a.devices.size() == b.devices.size());
    for (size_t i = 0; i < a.devices.size(); ++i) {
        CHECK(a.devices[i].name == b.devices[i].name);
        CHECK(a.devices[i].total_bytes == b.devices[i].total_bytes);
    }
    CHECK(a.status == b.status);
    CHECK(a.max_context == b.max_context);
}

TEST_CASE("RPC: each host's device against its own limit; the Mac's working set (ggml_backend_dev_memory via rpc-server)", "[rig]") {
    MemoryRequest r;
    r.n_ctx = 16384;
    r.file_type = "Q8_0";
    const MemoryBreakdown mb = place("Qwen/Qwen2.5-72B-Instruct", "m2-ultra-192+m2-ultra-192@10gbe", r);
    REQUIRE(mb.devices.size() == 3);
    CHECK(mb.devices[0].name == "RPC0");
    CHECK(mb.devices[0].host == 1);
    CHECK(mb.devices[1].name == "Metal");
    CHECK(mb.devices[1].host == 0);
    // equal free memory -> 40.5 : 40.5 of 81 (80 layers + output): layers 0..40 on RPC0
    int out_dev = -1;
    const std::vector<int> want = split_layers_like_llama_cpp({147456.0f - 150, 147456.0f - 150}, 80, out_dev);
    CHECK(mb.devices[0].n_layers == want[0]);
    CHECK(mb.devices[1].n_layers == want[1]);
    CHECK(mb.devices[0].usable_bytes == 147456 * kMiB);   // catalog gpu_limit_default_mib (recommendedMaxWorkingSetSize)
    CHECK(mb.status == FitStatus::Comfortable);
    // against one Mac Studio alone, each machine holds about half
    const MemoryBreakdown one = place("Qwen/Qwen2.5-72B-Instruct", "m2-ultra-192", r);
    CHECK(mb.devices[1].total_bytes < one.devices[0].total_bytes / 2 + kGiB);
}

// [SECTION] Speed

SpeedView speed_of(const char* model_id, const char* hw_id, MemoryRequest r = MemoryRequest()) {
    SimRequest sr;
    sr.memory = r;
    sr.memory.hardware = resolve_device(cat(), hw_id);
    REQUIRE(sr.memory.hardware != nullptr);
    sr.with_explain = true;
    Evaluation ev;
    std::string err;
    REQUIRE(evaluate(cat(), model(model_id), sr, ev, err));
    return ev.speed;
}

TEST_CASE("rig speed: the layer-split pipeline sums each device's time; two identical cards match the 2x model", "[rig][speed]") {
    MemoryRequest r;
    r.n_ctx = 8192;
    const SpeedView pair = speed_of("Qwen/Qwen2.5-32B-Instruct", "rtx-3090+rtx-3090", r);
    const SpeedView combo = speed_of("Qwen/Qwen2.5-32B-Instruct", "2x-rtx-3090", r);
    REQUIRE(pair.ok);
    REQUIRE(combo.ok);
    // the rig path adds only the activations over PCIe (8 KiB per token here) to the calibrated hand-off
    CHECK(pair.decode_tps == Approx(combo.decode_tps).epsilon(0.02));
    CHECK(pair.explain.find("rig (layer split, devices in turn)") != std::string::npos);
    // a slower second card: slower than two fast ones, faster than two slow ones
    const SpeedView mixed = speed_of("Qwen/Qwen2.5-32B-Instruct", "rtx-3090+rtx-3060-12gb", r);
    const SpeedView slow = speed_of("Qwen/Qwen2.5-14B-Instruct", "rtx-3060-12gb+rtx-3060-12gb", r);
    REQUIRE(mixed.ok);
    CHECK(mixed.decode_tps < pair.decode_tps);
    (void)slow;
}

TEST_CASE("RPC speed: the network term is the hidden state in and out, the mask and one round trip per token (ggml-rpc)", "[rig][speed]") {
    const Model& m = model("Qwen/Qwen2.5-72B-Instruct");
    MemoryRequest r;
    r.n_ctx = 8192;
    r.file_type = "Q8_0";
    auto decode = [&](const char* id, RigSpeedTerms& t) {
        SimRequest sr;
        sr.memory = r;
        sr.memory.hardware = resolve_device(cat(), id);
        REQUIRE(sr.memory.hardware != nullptr);
        sr.with_speed = false;
        Evaluation ev;
        std::string err;
        REQUIRE(evaluate(cat(), m, sr, ev, err));
        SpeedScenario s;
        REQUIRE(build_speed_scenario(m, sr, ev, s, err));
        const SpeedResult res = estimate_rig_decode(s, default_speed_params(), *sr.memory.hardware, ev.memory, m.hidden_size, 0, 1, &t);
        REQUIRE(res.ok);
        return res;
    };
    RigSpeedTerms t1, t10;
    const SpeedResult slow = decode("m2-ultra-192+m2-ultra-192@1gbe", t1);
    const SpeedResult fast = decode("m2-ultra-192+m2-ultra-192@10gbe", t10);
    // per token: 2 x 8192 x 4 B hidden state + 256 cells x 2 B f16 mask + 4 B position, plus one round trip;
    // 1 GbE payload 0.125 GB/s x 1448/1538, 10 GbE ten times that; round trips 150 us and 60 us (rig.cpp, estimates)
    const double bytes = 2.0 * 8192 * 4 + 256 * 2 + 4;
    const double gbe1 = 0.125e9 * 1448.0 / 1538.0, gbe10 = 1.25e9 * 1448.0 / 1538.0;
    CHECK(t1.network_s == Approx(bytes / gbe1 + 150e-6).epsilon(1e-9));
    CHECK(t10.network_s == Approx(bytes / gbe10 + 60e-6).epsilon(1e-9));
    CHECK(t1.devices_s == Approx(t10.devices_s).epsilon(1e-12));
    CHECK(1.0 / slow.tokens_per_s - 1.0 / fast.tokens_per_s == Approx(t1.network_s - t10.network_s).epsilon(1e-9));
}

TEST_CASE("host RAM bandwidth: DDR spec arithmetic and its use for offloaded layers (speed_glue, not the fixed 60 GB/s)", "[rig][speed]") {
    double gbs = 0;
    std::string err;
    REQUIRE(parse_host_memory("ddr5-6000x2", gbs, err));
    CHECK(gbs == Approx(96.0));        // 6000 MT/s x 8 B x 2 channels
    REQUIRE(parse_host_memory("DDR4-3200x2", gbs, err));
    CHECK(gbs == Approx(51.2));
    REQUIRE(parse_host_memory("ddr5-4800x12", gbs, err));
    CHECK(gbs == Approx(460.8));       // a 12-channel EPYC 9004
    CHECK_FALSE(parse_host_memory("ddr5-2000x2", gbs, err));
    CHECK(err == "host memory 'ddr5-2000x2': ddr5 runs at 3200 to 9600 MT/s (got 2000)");
    CHECK_FALSE(parse_host_memory("6000", gbs, err));
    CHECK(err == "host memory '6000': write TYPE-MTSxCHANNELS, e.g. ddr5-6000x2 (two 64-bit channels of DDR5-6000) or ddr4-3200x8");

    const Model& m = model("Qwen/Qwen2.5-72B-Instruct");
    auto host_bw = [&](const char* hw, double request_gbs, double& decode_tps) {
        SimRequest sr;
        sr.memory.n_ctx = 8192;
        sr.memory.hardware = resolve_device(cat(), hw);
        sr.memory.host_ram_bytes = 128 * kGiB;   // --host-ram-gib 128 (the Tesla P40 entry lists no host)
        if (request_gbs > 0) sr.memory.host_ram_bandwidth_gbs = request_gbs;   // 0 here: not set (the optional rule)
        Evaluation ev;
        std::string e;
        REQUIRE(evaluate(cat(), m, sr, ev, e));
        REQUIRE(ev.memory.status == FitStatus::PartialOffload);
        REQUIRE(ev.speed.ok);
        decode_tps = ev.speed.decode_tps;
        SpeedScenario s;
        REQUIRE(build_speed_scenario(m, sr, ev, s, e));
        return s.host_bandwidth_gbs;
    };
    double fast = 0, catalog = 0, fallback = 0, fallback_fast = 0;
    CHECK(host_bw("rtx-4090", 96, fast) == 96);          // --host-mem ddr5-6000x2
    CHECK(host_bw("rtx-4090", 0, catalog) == 89.6);      // the catalog's host (DDR5-5600 dual channel)
    CHECK(fast > catalog);
    CHECK(host_bw("tesla-p40", 0, fallback) == 60);      // no host in the catalog: the named 60 GB/s default
    CHECK(host_bw("tesla-p40", 120, fallback_fast) == 120);
    CHECK(fallback_fast > fallback);
}

// [SECTION] Command

TEST_CASE("the llama-server command reflects the rig: -ts, -sm, -mg, --rpc", "[rig][command]") {
    const Model& m = model("Qwen/Qwen2.5-32B-Instruct");
    SimRequest sr;
    sr.memory.n_ctx = 8192;
    sr.memory.hardware = resolve_device(cat(), "rtx-3090+rtx-3060-12gb");
    // the free memory the split used, GiB with one decimal: (24576 - 1424) / 1024 = 22.6, (12288 - 1424) / 1024 = 10.6
    CHECK(llama_server_command(cat(), m, sr) ==
          "llama-server -m Qwen2.5-32B-Instruct-Q4_K_M.gguf -c 8192 -ngl 99 -fa on -ts 22.6,10.6 --port 8080");
    sr.memory.tensor_split = {3, 1};
    sr.memory.split_mode = SplitMode::Row;
    sr.memory.main_gpu = 1;
    CHECK(llama_server_command(cat(), m, sr) ==
          "llama-server -m Qwen2.5-32B-Instruct-Q4_K_M.gguf -c 8192 -ngl 99 -fa on -ts 3,1 -sm row -mg 1 --port 8080");
    SimRequest rpc;
    rpc.memory.n_ctx = 8192;
    rpc.memory.hardware = resolve_device(cat(), "rtx-4090+m2-ultra-192@10gbe");
    CHECK(llama_server_command(cat(), m, rpc) ==
          "# on RPC host 1 (m2-ultra-192@10gbe, 192.168.1.11): rpc-server -H 0.0.0.0 -p 50052\n"
          "llama-server -m Qwen2.5-32B-Instruct-Q4_K_M.gguf -c 8192 -ngl 99 -fa on -ts 143.9,22.6 --rpc 192.168.1.11:50052 --port 8080");
}

// [SECTION] Detection

TEST_CASE("detection parsers read the recorded outputs (tests/corpus/detect)", "[rig][detect]") {
    std::vector<DetectedGpu> g;
    std::string err;
    REQUIRE(parse_nvidia_smi_csv(read_corpus("mixed-nvidia/nvidia-smi.csv"), g, err));
    REQUIRE(g.size() == 3);
    CHECK(g[0].name == "NVIDIA GeForce RTX 3090");
    CHECK(g[0].memory_bytes == 24576 * kMiB);
    CHECK(g[2].free_bytes == 12036 * kMiB);
    std::vector<HardwareMatch> matches;
    CHECK(rig_id_for(cat(), g, matches, err) == "2x-rtx-3090+rtx-3060-12gb");
    CHECK(matches[2].confidence == Approx(0.95));   // "NVIDIA GeForce RTX 3060" + 12288 MiB = the 12 GB card

    REQUIRE(parse_nvidia_smi_csv(read_corpus("nvidia-smi-unknown.csv"), g, err));
    CHECK(rig_id_for(cat(), g, matches, err).empty());
    CHECK(err == "nvidia-smi GPU 'GeForce RTX 2080': 'GeForce RTX 2080' is not a catalog device; pick the closest one, or enter its memory and bandwidth");
    CHECK_FALSE(parse_nvidia_smi_csv("NVIDIA GeForce RTX 3090, lots\n", g, err));
    CHECK(err == "nvidia-smi line 1: expected 'NAME, TOTAL_MIB[, FREE_MIB]' (got 'NVIDIA GeForce RTX 3090, lots')");

    REQUIRE(parse_rocm_smi_json(read_corpus("amd/rocm-smi.json"), g, err));
    REQUIRE(g.size() == 1);
    CHECK(g[0].name == "Radeon RX 7900 XT");
    CHECK(g[0].memory_bytes == 21458059264ull);
    CHECK(rig_id_for(cat(), g, matches, err) == "rx-7900-xt");
    CHECK_FALSE(parse_rocm_smi_json("WARNING: no AMD GPU", g, err));

    uint64_t ram = 0, wired = 0;
    REQUIRE(parse_proc_meminfo(read_corpus("mixed-nvidia/meminfo"), ram, err));
    CHECK(ram == 131826832ull * 1024);
    std::string chip;
    REQUIRE(parse_macos_sysctl(read_corpus("mac/sysctl.txt"), ram, chip, wired, err));
    CHECK(ram == 96 * kGiB);
    CHECK(chip == "Apple M2 Max");
    CHECK(wired == 0);
    const HardwareMatch mac = match_gpu_name(cat(), chip, ram);
    REQUIRE(mac.hardware != nullptr);
    CHECK(mac.hardware->id == "m2-max-96");
}

TEST_CASE("GPU-name matcher: real WebGL / WebGPU / GL / driver strings to catalog devices with a confidence", "[rig][detect]") {
    struct Row {
        const char* string;   // as a browser or tool reported it
        const char* source;   // where that string was recorded
        const char* want;     // catalog id, "" = none
        bool hidden;          // the source hides the GPU
    };
    const Row rows[] = {
        {"ANGLE (Apple, ANGLE Metal Renderer: Apple M2, Unspecified Version)", "CloakHQ/CloakBrowser#236 (Chrome, macOS)", "m2-24", false},
        {"Apple GPU", "microsoft/playwright#2864 (WebKit / Safari)", "", true},
        {"WebKit WebGL", "brave/brave-browser#55445 (masked GL_RENDERER)", "", true},
        {"Google SwiftShader", "microsoft/playwright#2864 (headless Chromium)", "", true},
        {"ANGLE (Software Adapter Direct3D11 vs_4_1 ps_4_1)", "kkapsner/CanvasBlocker#375 (Windows VM)", "", true},
        {"ANGLE (NVIDIA GeForce GTX 750 Direct3D11 vs_5_0 ps_5_0)", "kkapsner/CanvasBlocker#48 (Firefox, older ANGLE format)", "", false},
        {"Adreno (TM) 330", "CesiumGS/webglreport#38 (codeflow.org survey, Android)", "", false},
        {"NVIDIA GeForce RTX 4080/PCIe/SSE2", "gfx-rs/wgpu-native#444 (OpenGL GL_RENDERER)", "rtx-4080", false},
        {"NVIDIA GeForce RTX 4080", "gfx-rs/wgpu-native#444 (adapter device name)", "rtx-4080", false},
        {"ANGLE (NVIDIA, NVIDIA GeForce RTX 4090 Direct3D11 vs_5_0 ps_5_0, D3D11)", "issue 13 (Chrome on Windows format)", "rtx-4090", false},
        {"Quadro RTX 4000", "akash-network/provider-configs#12 (nvidia-smi -L)", "", false},   // not the RTX 4000 Ada
        {"GeForce RTX 2080", "Ricks-Lab/gpu-utils#83 (nvidia-smi)", "", false},                 // not the 2080 Ti
        {"Radeon RX 7900 XT", "marimo-team/marimo#9237 (rocm-smi)", "rx-7900-xt", false},
    };
    for (const Row& r : rows) {
        INFO(r.string << "  [" << r.source << "]");
        BrowserGpuInfo info;
        info.webgl_renderer = r.string;
        const HardwareMatch m = match_browser_gpu(cat(), info);
        CHECK(m.gpu_hidden == r.hidden);
        CHECK((m.hardware ? m.hardware->id : std::string()) == r.want);
        if (m.hardware) CHECK(m.confidence >= 0.5);
        else CHECK(m.confidence < 0.5);
        CHECK_FALSE(m.reason.empty());
    }
    // Apple: the chip is named but never its memory (navigator.deviceMemory stops at 8): ask for it
    BrowserGpuInfo apple;
    apple.webgl_renderer = "ANGLE (Apple, ANGLE Metal Renderer: Apple M2, Unspecified Version)";
    apple.device_memory_gib = 8;
    HardwareMatch am = match_browser_gpu(cat(), apple);
    CHECK(am.ask_memory);
    CHECK(am.confidence <= 0.6);
    // a family with members (rocm-smi "Device Name", jurkovic-nikola/OpenLinkHub#27): memory picks the member
    const HardwareMatch navi = match_gpu_name(cat(), "Navi 31 [Radeon RX 7900 XT/7900 XTX/7900 GRE/7900M]", 24560 * kMiB);
    REQUIRE(navi.hardware != nullptr);
    CHECK(navi.hardware->id == "rx-7900-xtx");
    const HardwareMatch navi_unsized = match_gpu_name(cat(), "Navi 31 [Radeon RX 7900 XT/7900 XTX/7900 GRE/7900M]");
    CHECK(navi_unsized.ask_memory);
    CHECK(navi_unsized.confidence <= 0.5);
    // the WebGPU description wins over WebGL when both are present
    BrowserGpuInfo both;
    both.webgpu_description = "NVIDIA GeForce RTX 4080";
    both.webgl_renderer = "WebKit WebGL";
    CHECK(match_browser_gpu(cat(), both).hardware == cat().find_hardware("rtx-4080"));
}

TEST_CASE("the JSON memory API takes rig ids, rpc_hosts, tensor_split, split_mode, main_gpu, host_ram_gib", "[rig][api]") {
    const std::string ok = api_memory(cat(), R"({"model": "Qwen/Qwen2.5-7B-Instruct", "hardware": "rtx-4090", "rpc_hosts": "m2-ultra-192@10gbe",
                                               "tensor_split": [1, 3], "host_ram_gib": 64})");
    const nlohmann::json j = nlohmann::json::parse(ok);
    REQUIRE(j.contains("devices"));
    CHECK(j["devices"][0]["name"] == "RPC0");
    CHECK(j["devices"][0]["hardware"] == "m2-ultra-192");
    CHECK(j["devices"][1]["name"] == "CUDA0");
    CHECK(j["devices"][0]["n_layers"] == 8);   // -ts 1,3: il / 29 < 0.25 for layers 0..7 (llama_model::load_tensors)
    CHECK(nlohmann::json::parse(api_memory(cat(), R"({"model": "Qwen/Qwen2.5-7B-Instruct", "hardware": "rtx-4090+rtx-3090", "tensor_split": "3,1"})"))["error"] ==
          "tensor_split must be an array of 1 to 16 proportions, e.g. [3, 1]");
    CHECK(nlohmann::json::parse(api_memory(cat(), R"({"model": "Qwen/Qwen2.5-7B-Instruct", "hardware": "rtx-4090+rtx-3090", "split_mode": "rows"})"))["error"] ==
          "split_mode must be \"layer\", \"row\" or \"none\"");
    CHECK(nlohmann::json::parse(api_memory(cat(), R"({"model": "Qwen/Qwen2.5-7B-Instruct", "hardware": "rtx-4090+rtx-4090@9gbe"})"))["error"] ==
          "rig 'rtx-4090+rtx-4090@9gbe': 'rtx-4090@9gbe': unknown network link '9gbe' (one of 1gbe, 2.5gbe, 5gbe, 10gbe, 25gbe, 40gbe, 100gbe, tb3, tb4, tb5)");
}
