// The MLX speed lab (calibration/mlx_fit.h): its rows parse with line-numbered errors, the held-out report on the
// shipped file keeps its figures, and the shipped parameters (runtime/mlx.cpp) are the fit on every row.
#include <catch2/catch.hpp>

#include <cmath>

#include "calibration/mlx_fit.h"
#include "runtime/runtime.h"
#include "test_support.h"

using namespace llmsim;

TEST_CASE("mlx rows: a malformed line names its number", "[mlx]") {
    std::vector<MlxRow> rows;
    std::string err;
    CHECK_FALSE(parse_mlx_rows("{\"model\": \"x\"}\n", rows, err));
    CHECK(err.find("line 1") != std::string::npos);
    const std::string ok = R"({"model": "Qwen/Qwen3-8B", "quant": "mlx-4bit-g64", "hardware": "m4-max-128", "source": "s",)"
                           R"( "test": {"kind": "decode", "tokens": 128, "depth": 0}, "measured_tokens_per_s": 90})";
    CHECK(parse_mlx_rows(ok + "\n\n" + ok + "\n{\"test\": {}}\n", rows, err) == false);
    CHECK(err.find("line 4") != std::string::npos);
    REQUIRE(parse_mlx_rows(ok + "\n", rows, err));
    CHECK(rows.size() == 1);
    CHECK(rows[0].decode);
}

TEST_CASE("mlx speed: source-out accuracy on the shipped rows, and the shipped fit is current", "[mlx]") {
    const std::string text = read_source_file("assets/calibration/mlx_speed.jsonl");
    REQUIRE(!text.empty());
    std::vector<MlxRow> rows;
    std::string err;
    REQUIRE(parse_mlx_rows(text, rows, err));
    const MlxReport rep = mlx_report(cat(), rows);
    CHECK(rep.skipped == 0);
    CHECK(rep.rows == 46);
    CHECK(rep.sources == 7);
    // the held-out figures docs/mlx.md quotes (regression guard: a change that worsens them must say so)
    CHECK(rep.mdape_decode <= 5.0);
    CHECK(rep.mdape_prefill <= 6.0);
    const MlxSpeedParams shipped = mlx::shipped_speed_params();
    CHECK(std::fabs(shipped.bw_share - rep.fitted.bw_share) < 1e-9);
    CHECK(std::fabs(shipped.compute_share - rep.fitted.compute_share) < 1e-9);
    CHECK(std::fabs(shipped.per_token_ms - rep.fitted.per_token_ms) < 1e-9);
    CHECK(std::fabs(shipped.moe_layer_ms - rep.fitted.moe_layer_ms) < 1e-9);
    CHECK(std::fabs(shipped.decode_band_low - rep.band_decode_low) < 0.005);
    CHECK(std::fabs(shipped.decode_band_high - rep.band_decode_high) < 0.005);
    CHECK(std::fabs(shipped.prefill_band_low - rep.band_prefill_low) < 0.005);
    CHECK(std::fabs(shipped.prefill_band_high - rep.band_prefill_high) < 0.005);
}
