// Formatting: units explicit, 3 significant figures, locale-independent.
#include <catch2/catch.hpp>

#include "core/format.h"
#include "core/text.h"

using namespace llmsim;

TEST_CASE("format_gib uses binary gigabytes and says so", "[format]") {
    CHECK(format_gib(1073741824.0) == "1.00 GiB");
    CHECK(format_gib(45.0 * 1073741824.0) == "45.0 GiB");
    CHECK(format_gib(138.12 * 1073741824.0) == "138.1 GiB");
    CHECK(format_gb(1e9) == "1.00 GB");
}

TEST_CASE("format_tokens speaks llama.cpp's k", "[format]") {
    CHECK(format_tokens(4096) == "4k");
    CHECK(format_tokens(131072) == "128k");
    CHECK(format_tokens(1000) == "1000");
    CHECK(format_tokens(1048576) == "1M");
}

TEST_CASE("format_sig keeps 3 significant figures and shows non-finite as a dash", "[format]") {
    CHECK(format_sig(1234.5) == "1230");
    CHECK(format_sig(27.04) == "27.0");
    CHECK(format_sig(0.01234) == "0.0123");
    CHECK(format_sig(1.0 / 0.0) == "—");
}

TEST_CASE("64-bit byte counts survive wasm32", "[format][wasm]") {
    // a 405B model at F16 is ~810 GB: beyond 32-bit size_t, must not wrap in the web build
    const uint64_t bytes = 405ull * 1000 * 1000 * 1000 * 2;
    CHECK(bytes > 4294967296ull);
    CHECK(format_gb((double)bytes) == "810.0 GB");
}

TEST_CASE("ASCII case helpers change letters only, whatever the locale", "[format]") {
    CHECK(lower_ascii(std::string("Content-Range: Q4_K_M")) == "content-range: q4_k_m");
    CHECK(upper_ascii(std::string("iq4_xs-00001")) == "IQ4_XS-00001");
    CHECK(lower_ascii(std::string("\xC3\x84")) == "\xC3\x84");   // UTF-8 bytes pass through
    CHECK(equals_ci("FP16", "fp16"));
    CHECK_FALSE(equals_ci("FP16", "fp1"));
    CHECK_FALSE(equals_ci("Q4_0", "Q4_1"));
    CHECK(ends_with_ci("Model-Q4_K_M.GGUF", ".gguf"));
    CHECK_FALSE(ends_with_ci("gguf", ".gguf"));
}
