// Evidence that grows (evidence/contributed.h): pasted llama-bench runs exported as calibration records, read back
// as contributed runs, and the same evidence rows and the same device profile as the paste gave (compared with the
// values computed from the paste itself, through bench_samples / fit_device_profile); hostile contributed files get
// an error naming the line and change nothing; every file a pull request adds under assets/calibration/contributed/
// loads. The paste: llama.cpp's tools/llama-bench/README.md example rows (Qwen2.5-7B Q4_K_M on an RTX 4080, build
// 8cf427ff (5163), tests/corpus/bench/llama_bench.md) with the CUDA device line llama.cpp prints above the table
// (ggml-cuda.cu: "  Device %d: %s, compute capability %d.%d, VMM: %s"), plus two rows made up for this test (a llama
// 8B model, and one -ngl 10 partial-offload row): the round trip, not the numbers, is under test.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "api/bench_import.h"
#include "core/input_limits.h"
#include "evidence/contributed.h"
#include "evidence/evidence.h"
#include "runtime/speed_glue.h"
#include "test_support.h"

using namespace llmsim;

namespace {

const char* kPaste =
    "ggml_cuda_init: found 1 CUDA devices:\n"
    "  Device 0: NVIDIA GeForce RTX 4080, compute capability 8.9, VMM: yes\n"
    "| model                          |       size |     params | backend    | ngl | n_ubatch | type_k |            test |                  t/s |\n"
    "| ------------------------------ | ---------: | ---------: | ---------- | --: | -------: | -----: | --------------: | -------------------: |\n"
    "| qwen2 7B Q4_K - Medium         |   4.36 GiB |     7.62 B | CUDA       |  99 |      512 |    f16 |           pp512 |      7340.20 ± 23.45 |\n"
    "| qwen2 7B Q4_K - Medium         |   4.36 GiB |     7.62 B | CUDA       |  99 |      512 |    f16 |           tg128 |        120.60 ± 0.59 |\n"
    "| qwen2 7B Q4_K - Medium         |   4.36 GiB |     7.62 B | CUDA       |  99 |      512 |    f16 |    pp512 @ d512 |      6425.91 ± 18.88 |\n"
    "| qwen2 7B Q4_K - Medium         |   4.36 GiB |     7.62 B | CUDA       |  99 |      512 |    f16 |    tg128 @ d512 |        116.71 ± 0.60 |\n"
    "| llama 8B Q4_K - Medium         |   4.58 GiB |     8.03 B | CUDA       |  99 |     2048 |   q8_0 |           pp512 |      6100.00 ± 20.00 |\n"
    "| llama 8B Q4_K - Medium         |   4.58 GiB |     8.03 B | CUDA       |  99 |     2048 |   q8_0 |           tg128 |        104.00 ± 0.50 |\n"
    "| llama 8B Q4_K - Medium         |   4.58 GiB |     8.03 B | CUDA       |  10 |      512 |    f16 |           tg128 |         20.00 ± 0.10 |\n"
    "\n"
    "build: 8cf427ff (5163)\n";

const Hardware& rtx4080() {
    const Hardware* hw = cat().find_hardware("rtx-4080");
    REQUIRE(hw);
    return *hw;
}

BenchImport paste() {
    BenchImport imp;
    std::string err;
    REQUIRE(parse_bench_output(kPaste, imp, err));
    REQUIRE(imp.rows.size() == 7);
    return imp;
}

ContributionInfo info() {
    ContributionInfo i;
    i.note = "stock clocks, Linux 6.8, driver 550.54";
    i.date = "2026-12-07";
    return i;
}

std::string contributed_error(const std::string& text) {
    std::vector<CalibrationRow> rows(1);   // a file loaded before: a bad one must leave it alone
    rows[0].id = "kept";
    std::string err;
    CHECK_FALSE(parse_contributed_runs(text, rows, err));
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].id == "kept");
    return err;
}

}  // namespace

TEST_CASE("contributed: the device line and build line around a llama-bench table are kept", "[contributed]") {
    const BenchImport imp = paste();
    for (const BenchRow& r : imp.rows) {
        CHECK(r.device == "NVIDIA GeForce RTX 4080");
        CHECK(r.build == "8cf427ff (5163)");
    }
    CHECK(imp.rows[4].n_ubatch == 2048);
    CHECK(imp.rows[4].type_k == "q8_0");
    CHECK(imp.rows[6].ngl == 10);
    // Vulkan and Metal name the device their own way (ggml-vulkan.cpp, ggml-metal)
    const std::string table = "| model | size | params | backend | ngl | test | t/s |\n|---|--:|--:|---|--:|--:|--:|\n"
                              "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | Vulkan | 99 | tg128 | 100.00 |\n";
    BenchImport v, m;
    std::string err;
    REQUIRE(parse_bench_output("ggml_vulkan: 0 = AMD Radeon RX 7900 XTX (AMD proprietary driver) | uma: 0 | fp16: 1\n" + table, v, err));
    CHECK(v.rows[0].device.compare(0, 22, "AMD Radeon RX 7900 XTX") == 0);   // rig's tool_device_name reads the line
    REQUIRE(parse_bench_output("ggml_metal_init: GPU name:   Apple M2 Max\n" + table, m, err));
    CHECK(m.rows[0].device == "Apple M2 Max");
    // -o json carries them per row (tests/corpus/bench/llama_bench.json)
    std::ifstream f(std::string(LLMSIM_SOURCE_DIR) + "/tests/corpus/bench/llama_bench.json", std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    BenchImport j;
    REQUIRE(parse_bench_output(ss.str(), j, err));
    CHECK(j.rows[0].device == "NVIDIA GeForce RTX 4080");
    CHECK(j.rows[0].build == "8cf427ff (5163)");
    CHECK(j.rows[0].n_batch == 2048);
    CHECK(j.rows[0].threads == 8);
    CHECK(j.rows[0].type_k == "f16");
    CHECK(j.rows[0].test_time == "2025-04-24T11:58:50Z");
}

TEST_CASE("contributed: export writes one calibration record per test", "[contributed]") {
    const BenchImport imp = paste();
    ContributedExport ex;
    std::string err;
    REQUIRE(export_contributed_runs(cat(), imp, rtx4080(), "", info(), ex, err));
    REQUIRE(ex.rows == 7);   // the partial-offload row too: the calibration data has few such rows
    std::vector<nlohmann::json> lines;
    std::istringstream in(ex.jsonl);
    for (std::string l; std::getline(in, l);) lines.push_back(nlohmann::json::parse(l));
    REQUIRE(lines.size() == 7);
    const nlohmann::json& r0 = lines[0];
    CHECK(r0["id"] == "contrib-2026-12-07-rtx-4080-1");
    CHECK(r0["hardware"] == "rtx-4080");
    CHECK(r0["device_printed"] == "NVIDIA GeForce RTX 4080");
    CHECK(r0["build"] == "8cf427ff (5163)");
    CHECK(r0["backend"] == "cuda");
    CHECK(r0["backend_printed"] == "CUDA");
    CHECK(r0["quant"] == "Q4_K_M");
    CHECK(r0["model_size_gib"].get<double>() == Approx(4.36));
    CHECK(r0["llama_bench_model"] == "qwen2 7B Q4_K - Medium");
    CHECK(r0["test"]["kind"] == "prefill");
    CHECK(r0["test"]["tokens"] == 512);
    CHECK(r0["measured_tokens_per_s"] == 7340.20);
    CHECK(r0["stddev_tokens_per_s"] == 23.45);
    CHECK(r0["flags"] == "-ngl 99 -ub 512 -ctk f16");
    CHECK(r0["contributed"] == true);
    CHECK(r0["source"] == "contributed 2026-12-07: stock clocks, Linux 6.8, driver 550.54");
    CHECK(r0["date"] == "2026-12-07");
    CHECK_FALSE(r0.contains("ngl"));   // -ngl 99: every layer on the GPU, llama-bench's default
    CHECK(lines[4]["type_k"] == "q8_0");
    CHECK(lines[4]["ubatch"] == 2048);
    CHECK(lines[6]["ngl"] == 10);
    CHECK(lines[6]["flags"] == "-ngl 10 -ub 512 -ctk f16");
    // a quantized V cache runs only with flash attention: printed without an fa column (or -fa auto), it was on
    BenchImport qv;
    REQUIRE(parse_bench_output("| model | size | params | backend | ngl | type_k | type_v | test | t/s |\n|---|--:|--:|---|--:|--:|--:|--:|--:|\n"
                               "| qwen2 7B Q4_K - Medium | 4.36 GiB | 7.62 B | CUDA | 99 | q8_0 | q8_0 | tg128 | 118.00 |\n", qv, err));
    REQUIRE(export_contributed_runs(cat(), qv, rtx4080(), "", info(), ex, err));
    const nlohmann::json q = nlohmann::json::parse(ex.jsonl);
    CHECK(q["flash_attn"] == true);
    CHECK(q["type_v"] == "q8_0");
    CHECK(q["flags"] == "-ngl 99 -ctk q8_0 -ctv q8_0");
    // a row's own llama-bench test day wins over the export's (-o json "test_time")
    std::ifstream f(std::string(LLMSIM_SOURCE_DIR) + "/tests/corpus/bench/llama_bench.json", std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    BenchImport j;
    REQUIRE(parse_bench_output(ss.str(), j, err));
    REQUIRE(export_contributed_runs(cat(), j, rtx4080(), "", info(), ex, err));
    CHECK(nlohmann::json::parse(ex.jsonl.substr(0, ex.jsonl.find('\n')))["date"] == "2025-04-24");
}

TEST_CASE("contributed: export refuses a bad note, date or device and rows it cannot match", "[contributed]") {
    const BenchImport imp = paste();
    ContributedExport ex;
    std::string err;
    ContributionInfo bad = info();
    bad.date = "7 Dec 2026";
    CHECK_FALSE(export_contributed_runs(cat(), imp, rtx4080(), "", bad, ex, err));
    CHECK(err.find("YYYY-MM-DD") != std::string::npos);
    bad = info();
    bad.note = "two\nlines";
    CHECK_FALSE(export_contributed_runs(cat(), imp, rtx4080(), "", bad, ex, err));
    CHECK(err.find("one line") != std::string::npos);
    bad.note = std::string(kContributionNoteMaxBytes + 1, 'x');
    CHECK_FALSE(export_contributed_runs(cat(), imp, rtx4080(), "", bad, ex, err));
    CHECK(err.find("note") != std::string::npos);
    Hardware custom = rtx4080();
    custom.id = "custom";
    CHECK_FALSE(export_contributed_runs(cat(), imp, custom, "", info(), ex, err));
    CHECK(err.find("catalog device") != std::string::npos);
    BenchImport server;
    REQUIRE(parse_bench_output("{\"timings\": {\"prompt_n\": 512, \"prompt_per_second\": 5000, \"predicted_n\": 128, "
                               "\"predicted_per_second\": 100}}", server, err));
    CHECK_FALSE(export_contributed_runs(cat(), server, rtx4080(), "", info(), ex, err));   // no model named
    CHECK(err.find("--model") != std::string::npos);
    CHECK(ex.skipped.size() == 2);
}

TEST_CASE("contributed: round trip gives the paste's evidence rows and profile", "[contributed]") {
    const BenchImport imp = paste();
    const Hardware& hw = rtx4080();
    // what the paste gives: each row's prediction and the profile fitted on it
    std::vector<ProfileSample> samples;
    std::vector<BenchMatch> matches;
    bench_samples(cat(), imp, hw, "", samples, matches);
    REQUIRE(samples.size() == 6);   // the -ngl 10 row is not used
    DeviceProfile from_paste;
    std::string err;
    REQUIRE(fit_device_profile(samples, default_speed_params(), hw, from_paste, err));
    REQUIRE(from_paste.decode.models == 2);

    ContributedExport ex;
    REQUIRE(export_contributed_runs(cat(), imp, hw, "", info(), ex, err));
    std::vector<CalibrationRow> rows;
    REQUIRE(parse_contributed_runs(ex.jsonl, rows, err));
    REQUIRE(rows.size() == 7);
    for (const CalibrationRow& r : rows) CHECK(r.contributed);
    CHECK(rows[6].offload);

    // the evidence rows beside the estimate: every used row of each model, measured and predicted as pasted
    for (const BenchMatch& m : matches) {
        if (!m.model) continue;
        const std::vector<EvidenceRow> ev = find_evidence(cat(), *m.model, hw, m.row->file_type, 100, &rows);
        const EvidenceRow* hit = nullptr;
        for (const EvidenceRow& e : ev)
            if (e.row->contributed && e.row->measured_tokens_per_s == m.row->tps && e.row->scenario.depth == m.row->depth &&
                e.row->scenario.test == m.row->kind)
                hit = &e;
        INFO(m.row->test_label() << " " << m.model->id);
        REQUIRE(hit);
        CHECK(hit->match == 3);   // same model and quant
        CHECK(hit->predicted == Approx(m.predicted_tps).epsilon(1e-12));
        CHECK(hit->low == Approx(m.low).epsilon(1e-12));
        CHECK(hit->high == Approx(m.high).epsilon(1e-12));
    }
    // ... and the profile, marked contributed
    DeviceProfile back;
    REQUIRE(fit_contributed_profile(cat(), rows, hw, back, err));
    CHECK(back.contributed);
    CHECK(calibrated_label(back).find("6 contributed rows") != std::string::npos);
    for (const auto& [a, b] : {std::pair<const ProfileFactor*, const ProfileFactor*>{&from_paste.decode, &back.decode},
                               {&from_paste.prefill, &back.prefill}}) {
        CHECK(a->rows == b->rows);
        CHECK(a->models == b->models);
        CHECK(b->factor == Approx(a->factor).epsilon(1e-12));
        CHECK(b->weight == Approx(a->weight).epsilon(1e-12));
        CHECK(b->raw == Approx(a->raw).epsilon(1e-12));
        CHECK(b->band_scale == Approx(a->band_scale).epsilon(1e-12));
        CHECK(b->mdape_before == Approx(a->mdape_before).epsilon(1e-12));
    }
    CHECK(back.models == from_paste.models);
    // the profile file keeps the mark; the user's own profile files do not grow the key
    DeviceProfile reread;
    REQUIRE(parse_device_profile(device_profile_to_json(back), reread, err));
    CHECK(reread.contributed);
    CHECK(device_profile_to_json(from_paste).find("contributed") == std::string::npos);
    // rows of another device calibrate nothing here
    const Hardware* other = cat().find_hardware("rtx-4090");
    REQUIRE(other);
    CHECK_FALSE(fit_contributed_profile(cat(), rows, *other, back, err));
    CHECK(err.find("RTX 4090") != std::string::npos);
}

TEST_CASE("contributed: a hostile file names the line and changes nothing", "[contributed]") {
    ContributedExport ex;
    std::string err;
    REQUIRE(export_contributed_runs(cat(), paste(), rtx4080(), "", info(), ex, err));
    const std::string good = ex.jsonl.substr(0, ex.jsonl.find('\n') + 1);
    CHECK(contributed_error(good + "{not json\n").find("contributed line 2: not a JSON object") != std::string::npos);
    std::string no_speed = good;
    no_speed.replace(no_speed.find("\"measured_tokens_per_s\""), 23, "\"measured\"");
    CHECK(contributed_error(good + "\n" + no_speed).find("contributed line 3: ") != std::string::npos);
    std::string project = good;
    project.replace(project.find("\"contributed 2026"), 13, "\"from a blog ");
    CHECK(contributed_error(project).find("line 1: \"source\" must start with \"contributed\"") != std::string::npos);
    std::string unknown = good;
    unknown.replace(unknown.find("\"rtx-4080\""), 10, "\"rtx-9999\"");
    CHECK(contributed_error(unknown).find("contributed line 1: ") != std::string::npos);
    CHECK(contributed_error("").find("no records") != std::string::npos);
    CHECK(contributed_error(std::string("a\0b", 3)).find("NUL") != std::string::npos);
    CHECK(contributed_error(std::string(kContributedMaxBytes + 1, ' ')).find("MiB") != std::string::npos);
    std::string many;
    for (int i = 0; i <= kContributedMaxRows; ++i) many += "{}\n";   // counted before any line is read
    CHECK(contributed_error(many).find("5001 records; at most 5000") != std::string::npos);
}

TEST_CASE("contributed: every file under assets/calibration/contributed/ loads", "[contributed]") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(LLMSIM_SOURCE_DIR) / "assets" / "calibration" / "contributed";
    REQUIRE(fs::is_directory(dir));
    int files = 0;
    for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
        if (e.path().extension() != ".jsonl") continue;
        INFO(e.path().filename().string());
        std::ifstream f(e.path(), std::ios::binary);
        std::stringstream ss;
        ss << f.rdbuf();
        std::vector<CalibrationRow> rows;
        std::string err;
        CHECK(parse_contributed_runs(ss.str(), rows, err));
        CHECK(err.empty());
        for (const CalibrationRow& r : rows) CHECK(cat().find_hardware(r.hardware_id));
        ++files;
    }
    SUCCEED(files << " contributed files");
}
