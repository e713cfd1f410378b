// engine/serving/serve_network: the fabric between nodes and what NCCL collectives cost over it. Expected values
// are worked by hand from the rules in serve_network.h (NIC line rate x NICs x efficiency; nccl-tests' busbw
// definition; the measured 45 us small all-reduce on InfiniBand, nccl-tests#182).
#include <catch2/catch.hpp>

#include <string>

#include "catalog/catalog.h"
#include "serving/serve_network.h"
#include "serving/serving.h"
#include "test_support.h"

using namespace llmsim;
using namespace llmsim::serving;

namespace {
ServeRequest req(const std::string& model, int tp, int pp) {
    ServeRequest r;
    r.engine = "sglang"; r.model = model; r.hardware = "h100-sxm"; r.precision = "fp8";
    r.tp = tp; r.pp = pp; r.gpus = tp * pp;
    r.max_model_len = 8192;
    r.workload.input_len = 1024; r.workload.output_len = 32; r.workload.concurrency = 1; r.workload.num_prompts = 2;
    r.with_single_stream = false;
    return r;
}
}  // namespace

TEST_CASE("fabric: NICs per node set the all-reduce bus bandwidth", "[serving][network]") {
    std::string err;
    auto ib = resolve_fabric("ib-ndr", 0, 8, err);
    REQUIRE(ib);
    CHECK(ib->nics_per_node == 8);   // a NIC per GPU (HGX / DGX rails)
    NetLink l = cross_node_link(*ib, 16, 8, 450);
    CHECK(l.nodes == 2);
    CHECK(l.busbw_gbs == Approx(50.0 * 8 * 0.92));   // 400 Gb/s = 50 GB/s per NIC
    CHECK(l.allreduce_lat_us == Approx(45));
    // one all-reduce of one token's DeepSeek hidden state (7168 x 2 B) over 16 ranks: 45 us + 14336 x 30/16 / 368e9 s
    CHECK(allreduce_seconds(l, 16, 14336) == Approx(45e-6 + 26880.0 / 368e9).epsilon(1e-9));

    auto roce = resolve_fabric("roce-100", 0, 8, err);   // 100 GbE RoCE: one NIC per node by default
    REQUIRE(roce);
    CHECK(roce->nics_per_node == 1);
    CHECK(cross_node_link(*roce, 16, 8, 450).busbw_gbs == Approx(12.5 * 0.71));
    auto eth = resolve_fabric("ethernet-25-x2", 0, 8, err);
    REQUIRE(eth);
    CHECK(eth->nics_per_node == 2);
    CHECK(cross_node_link(*eth, 16, 8, 450).busbw_gbs == Approx(3.125 * 2 * 0.70));
    // the nics_per_node field wins over the suffix
    auto ib2 = resolve_fabric("ib-ndr-x4", 2, 8, err);
    REQUIRE(ib2);
    CHECK(ib2->nics_per_node == 2);
    // XDR x 8 = 736 GB/s of NICs, but the rings inside a node run on NVLink (450): the smaller one
    auto xdr = resolve_fabric("ib-xdr", 0, 8, err);
    REQUIRE(xdr);
    CHECK(cross_node_link(*xdr, 16, 8, 450).busbw_gbs == Approx(450));
}

TEST_CASE("fabric: latency grows with the tree depth across nodes", "[serving][network]") {
    std::string err;
    auto ib = resolve_fabric("ib-hdr", 0, 8, err);
    REQUIRE(ib);
    CHECK(cross_node_link(*ib, 16, 8, 300).allreduce_lat_us == Approx(45));   // 2 nodes
    CHECK(cross_node_link(*ib, 32, 8, 300).allreduce_lat_us == Approx(55));   // 4 nodes: + 2 x 5 us (NCCL tree, one more level)
    CHECK(cross_node_link(*ib, 64, 8, 300).allreduce_lat_us == Approx(65));   // 8 nodes
}

TEST_CASE("fabric: bad values give an error naming them", "[serving][network]") {
    std::string err;
    CHECK_FALSE(resolve_fabric("ib-ndr-x0", 0, 8, err));
    CHECK(err == "interconnect: 'ib-ndr-x0' has a bad NIC count (-x1 .. -x64)");
    CHECK_FALSE(resolve_fabric("infiniband", 0, 8, err));
    CHECK(err.find("interconnect: unknown 'infiniband' (nvlink, pcie, ib-xdr, ib-ndr") == 0);
    ServeRequest r = req("deepseek-ai/DeepSeek-R1", 16, 1);
    r.interconnect = "token-ring";
    ServeResult s = serve(cat(), r);
    CHECK_FALSE(s.ok);
    CHECK(s.error.find("interconnect: unknown 'token-ring'") == 0);
    r.interconnect = "ib-ndr"; r.nics_per_node = 65;
    CHECK(serve(cat(), r).error.find("nics_per_node: 65") == 0);
    r.nics_per_node = 0; r.gpus_per_node = 0;
    CHECK(serve(cat(), r).error.find("gpus_per_node: 0") == 0);
}

TEST_CASE("serve: TP16 over two nodes pays 2 all-reduces per layer over the fabric", "[serving][network]") {
    ServeRequest r = req("deepseek-ai/DeepSeek-R1", 16, 1);
    r.interconnect = "ib-ndr";
    ServeResult s = serve(cat(), r);
    REQUIRE(s.ok);
    REQUIRE(s.step.batch == 1);
    // 61 layers x 2 all-reduces x (45 us + 7168 x 2 B x 30/16 / 368 GB/s)
    CHECK(s.step.network_s == Approx(122 * (45e-6 + 26880.0 / 368e9)).epsilon(1e-6));
    CHECK(s.step.network_share == Approx(s.step.network_s / s.step.step_s));
    std::vector<std::string> lines; std::string err;
    REQUIRE(explain_network(cat(), r, s.step, lines, err));
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] == "network: InfiniBand NDR 400 Gb/s x 8 NICs per node, 2 nodes: all-reduce bus bandwidth 368 GB/s, "
                      "45 us per small all-reduce, hand-off 46.0 GB/s per GPU + 18 us");
    // one NIC per node and plain Ethernet: slower per step, never faster
    r.interconnect = "ib-ndr-x1";
    ServeResult one = serve(cat(), r);
    r.interconnect = "ethernet-10";
    ServeResult eth = serve(cat(), r);
    REQUIRE(one.ok); REQUIRE(eth.ok);
    CHECK(one.step.network_s > s.step.network_s);
    CHECK(eth.load.tpot_ms.median > one.load.tpot_ms.median);
    CHECK(eth.load.ttft_ms.median > s.load.ttft_ms.median);
}

TEST_CASE("serve: TP8 x PP2 keeps the all-reduce on NVLink and sends one hand-off over the fabric", "[serving][network]") {
    ServeRequest r = req("meta-llama/Llama-3.1-405B-Instruct", 8, 2);
    r.workload.concurrency = 4; r.workload.num_prompts = 8;
    ServeResult s = serve(cat(), r);
    REQUIRE(s.ok);
    // the hand-off of the step's micro-batch (batch / pp tokens): each of the 8 TP ranks sends 1/8 of 16384 x 2 B per
    // token over its own NIC (46 GB/s) + 18 us
    double mb = std::max(1.0, s.step.batch / 2.0);
    CHECK(s.step.network_s == Approx(18e-6 + mb * 16384 * 2 / 8 / 46e9).epsilon(1e-6));
    CHECK(s.step.allreduce_s - s.step.network_s > 10 * s.step.network_s);   // the in-node all-reduces dominate
}

TEST_CASE("serve: a fabric named for GPUs that fit one node changes nothing", "[serving][network]") {
    ServeRequest r = req("meta-llama/Llama-3.1-70B-Instruct", 8, 1);
    ServeResult plain = serve(cat(), r);
    r.interconnect = "ib-ndr";
    ServeResult named = serve(cat(), r);
    REQUIRE(plain.ok); REQUIRE(named.ok);
    CHECK(named.step.step_s == plain.step.step_s);
    CHECK(named.load.output_tok_s == plain.load.output_tok_s);
    CHECK(named.step.network_s == 0);
    CHECK(named.step.network_share == 0);
    // "network" (the calibration rows' word): every GPU on its own node, so TP2 on two GPUs crosses
    ServeRequest p = req("meta-llama/Llama-3.1-8B-Instruct", 2, 1);
    p.interconnect = "network";
    ServeResult pods = serve(cat(), p);
    REQUIRE(pods.ok);
    // 32 layers x 2 x (45 us + 4096 x 2 B x 1/2 x 2 / (50 GB/s x 0.92)): one NIC per single-GPU node
    CHECK(pods.step.network_s == Approx(64 * (45e-6 + 8192.0 / 46e9)).epsilon(1e-6));
}

TEST_CASE("serve JSON and predict lines carry the fabric, NIC and node sizes", "[serving][network]") {
    const std::string req_json = R"({"engine": "sglang", "model": "deepseek-ai/DeepSeek-R1", "precision": "fp8", "hardware": "h100-sxm",
        "tp": 16, "interconnect": "ib-hdr", "nics_per_node": 4, "gpus_per_node": 8, "max_model_len": 8192,
        "workload": {"input_len": 256, "output_len": 16, "concurrency": 1, "num_prompts": 2}})";
    ServeRequest r; std::string err;
    REQUIRE(parse_serve_request(req_json, cat(), r, err));
    CHECK(r.interconnect == "ib-hdr");
    CHECK(r.nics_per_node == 4);
    CHECK(r.gpus_per_node == 8);
    std::string out = api_serve(cat(), req_json);
    // HDR 200 Gb/s = 25 GB/s x 4 NICs x 0.92 = 92 GB/s of bus bandwidth
    CHECK(out.find("InfiniBand HDR 200 Gb/s x 4 NICs per node, 2 nodes: all-reduce bus bandwidth 92 GB/s") != std::string::npos);
    CHECK(out.find("\"network_s\":") != std::string::npos);
    std::string bad = api_serve(cat(), R"({"engine": "sglang", "model": "deepseek-ai/DeepSeek-R1", "hardware": "h100-sxm", "tp": 16, "nics_per_node": 99})");
    CHECK(bad.find("nics_per_node") != std::string::npos);
    std::string line = serve_predict_line(cat(), R"({"id": "x", "engine": "sglang", "model": "deepseek-ai/DeepSeek-R1", "precision": "fp8",
        "hardware": "h100-sxm", "gpus": 16, "tp": 16, "interconnect": "ethernet-25",
        "test": {"kind": "serving", "input_len": 256, "output_len": 16, "concurrency": 1, "num_prompts": 2}})");
    std::string line_ib = serve_predict_line(cat(), R"({"id": "x", "engine": "sglang", "model": "deepseek-ai/DeepSeek-R1", "precision": "fp8",
        "hardware": "h100-sxm", "gpus": 16, "tp": 16, "interconnect": "ib-ndr",
        "test": {"kind": "serving", "input_len": 256, "output_len": 16, "concurrency": 1, "num_prompts": 2}})");
    auto tpot = [](const std::string& s) { size_t at = s.find("\"tpot_ms\""); REQUIRE(at != std::string::npos); return std::stod(s.substr(s.find("\"mean\":", at) + 7)); };
    CHECK(tpot(line) > tpot(line_ib));   // 25 GbE over TCP: 4x the latency per all-reduce
}
