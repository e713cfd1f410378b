// The accuracy gate (tools/calibration/accuracy_gate.h): which changes fail, which pass with a note, the committed
// file's round trip, and the README markers. Hand-made figures; the tolerances are the file's, stated in it.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "calibration/accuracy_gate.h"
#include "test_support.h"

using namespace llmsim;

namespace {
GateFile committed() {
    GateFile g;
    g.speed_files = {"a.jsonl", "b.jsonl"};
    g.serving_file = "s.jsonl";
    g.tolerance.mdape_rise_points = 0.3;
    g.tolerance.share_fall_points = 1.0;
    g.figures = {{"speed.decode.source_out.all.rows", 433},       {"speed.decode.source_out.all.mdape", 8.2},
                 {"speed.decode.source_out.all.within25", 82.0},  {"speed.decode.source_out.all.coverage", 90.0},
                 {"serving.vllm.rows", 500},                      {"serving.vllm.out_mdape", 20.0}};
    return g;
}
std::vector<GateFigure> with(std::vector<GateFigure> f, const std::string& name, double v) {
    for (GateFigure& x : f) if (x.name == name) x.value = v;
    return f;
}
}  // namespace

TEST_CASE("accuracy gate: the same figures pass without a note", "[gate]") {
    const GateFile g = committed();
    const GateVerdict v = compare_gate(g, g.figures);
    CHECK_FALSE(v.failed());
    CHECK(v.improvements.empty());
    CHECK(v.within.empty());
}

TEST_CASE("accuracy gate: worse than tolerance fails, naming the figure, both values and the tolerance", "[gate]") {
    const GateFile g = committed();
    // MdAPE 8.2 -> 8.6: rises by 0.4 points > 0.3
    GateVerdict v = compare_gate(g, with(g.figures, "speed.decode.source_out.all.mdape", 8.6));
    REQUIRE(v.failures.size() == 1);
    CHECK(v.failures[0] == "speed.decode.source_out.all.mdape: committed 8.2000 %, now 8.6000 % (worse by 0.4000 points; "
                           "tolerance 0.30 points rise)");
    // within25 82 -> 80.5: falls by 1.5 points > 1
    v = compare_gate(g, with(g.figures, "speed.decode.source_out.all.within25", 80.5));
    CHECK(v.failures.size() == 1);
    // coverage 90 -> 89.2: falls by 0.8 points: within tolerance, a note
    v = compare_gate(g, with(g.figures, "speed.decode.source_out.all.coverage", 89.2));
    CHECK_FALSE(v.failed());
    CHECK(v.within.size() == 1);
    // serving MdAPE 20 -> 20.25: within; 20 -> 20.35: fails
    CHECK_FALSE(compare_gate(g, with(g.figures, "serving.vllm.out_mdape", 20.25)).failed());
    CHECK(compare_gate(g, with(g.figures, "serving.vllm.out_mdape", 20.35)).failed());
}

TEST_CASE("accuracy gate: better passes and asks for the file to be rewritten", "[gate]") {
    const GateFile g = committed();
    const GateVerdict v = compare_gate(g, with(g.figures, "speed.decode.source_out.all.mdape", 7.9));
    CHECK_FALSE(v.failed());
    REQUIRE(v.improvements.size() == 1);
    const std::string text = format_gate_verdict(v, "tests/accuracy_gate.json");
    CHECK(text.find("llmsim-cli accuracy --gate tests/accuracy_gate.json --write") != std::string::npos);
}

TEST_CASE("accuracy gate: a changed row count, a missing or a new figure fails", "[gate]") {
    const GateFile g = committed();
    CHECK(compare_gate(g, with(g.figures, "serving.vllm.rows", 501)).failed());
    std::vector<GateFigure> fewer(g.figures.begin(), g.figures.end() - 1);
    CHECK(compare_gate(g, fewer).failed());
    std::vector<GateFigure> more = g.figures;
    more.push_back({"serving.sglang.rows", 10});
    CHECK(compare_gate(g, more).failed());
}

TEST_CASE("accuracy gate: the committed file round trips; bad files are refused with the field named", "[gate]") {
    const GateFile g = committed();
    GateFile back;
    std::string err;
    REQUIRE(parse_gate_file(gate_file_to_json(g), back, err));
    CHECK(back.speed_files == g.speed_files);
    CHECK(back.serving_file == g.serving_file);
    REQUIRE(back.figures.size() == g.figures.size());
    for (size_t i = 0; i < g.figures.size(); ++i) {
        CHECK(back.figures[i].name == g.figures[i].name);   // order kept
        CHECK(back.figures[i].value == Approx(g.figures[i].value).margin(1e-4));
    }
    CHECK_FALSE(parse_gate_file("[]", back, err));
    CHECK_FALSE(parse_gate_file(R"({"inputs": {"speed": ["a"], "serving": "s"}, "tolerance": {"mdape_rise_points": -1,)"
                                R"( "share_fall_points": 1}, "figures": {"x.rows": 1}})", back, err));
    CHECK(err.find("mdape_rise_points") != std::string::npos);
}

TEST_CASE("accuracy gate: the committed file parses and names the three calibration files", "[gate][assets]") {
    GateFile g;
    std::string err;
    REQUIRE(parse_gate_file(read_source_file("tests/accuracy_gate.json"), g, err));
    CHECK(g.speed_files.size() == 3);
    CHECK(g.figures.size() > 40);
}

TEST_CASE("README markers: the text between them, or none", "[gate]") {
    std::string out;
    CHECK(text_between_markers("a\n<!-- b -->\n| x |\n| y |\n<!-- e -->\nz\n", "<!-- b -->", "<!-- e -->", out));
    CHECK(out == "| x |\n| y |\n");
    CHECK(text_between_markers("<!-- b -->\n<!-- e -->\n", "<!-- b -->", "<!-- e -->", out));
    CHECK(out.empty());
    CHECK_FALSE(text_between_markers("no markers\n", "<!-- b -->", "<!-- e -->", out));
}
