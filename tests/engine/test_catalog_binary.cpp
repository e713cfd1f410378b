// engine/catalog/catalog_binary.cpp: the web page's catalog.bin read back equals the JSON read by parse_catalog, field
// for field (the whole catalog; in the web build, the very bytes the page embeds), and a truncated, corrupt or stale
// file is refused with a message and changes nothing.
#include <catch2/catch.hpp>

#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "catalog/catalog.h"
#include "catalog/catalog_binary.h"

#include "binary_damage.h"

using namespace llmsim;

namespace {

std::string read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// parse_catalog over DIR/models.json, hardware.json, quants.json
Catalog parse_dir(const std::string& dir) {
    Catalog c;
    std::string err;
    const std::string m = read_file(dir + "/models.json"), h = read_file(dir + "/hardware.json"),
                      q = read_file(dir + "/quants.json");
    REQUIRE(!m.empty());
    INFO(err);
    REQUIRE(parse_catalog(m, h, q, c, err));
    return c;
}

// the first line where two field dumps differ ("" when equal), so a failure names the field
std::string first_difference(const std::string& a, const std::string& b) {
    std::istringstream sa(a), sb(b);
    std::string la, lb;
    while (true) {
        const bool ga = (bool)std::getline(sa, la), gb = (bool)std::getline(sb, lb);
        if (!ga && !gb) return "";
        if (ga != gb || la != lb) return "JSON: " + (ga ? la : "(end)") + "\nbinary: " + (gb ? lb : "(end)");
    }
}


Catalog sentinel() {
    Catalog c;
    c.models.emplace_back();
    c.models.back().id = "sentinel";
    return c;
}

}  // namespace

TEST_CASE("catalog binary: the whole catalog reads back field for field", "[catalog][catalog_binary]") {
    const Catalog json = parse_dir(std::string(LLMSIM_SOURCE_DIR) + "/assets/catalog");
    REQUIRE(json.models.size() > 50);
    REQUIRE(json.hardware.size() > 100);
    const std::string bin = catalog_to_binary(json);
    Catalog back;
    std::string err;
    INFO(err);
    REQUIRE(catalog_from_binary(bin, back, err));
    const std::string a = catalog_fields_text(json), b = catalog_fields_text(back);
    CHECK(std::count(a.begin(), a.end(), '\n') > 20000);   // every field of ~100 models and ~150 devices, one line each
    CHECK(first_difference(a, b) == "");
    CHECK(back.combinations.size() == json.combinations.size());
    CHECK(back.find_hardware("2x-rtx-3090") != nullptr);
    CHECK(catalog_to_binary(back) == bin);
}

#ifdef LLMSIM_PAGE_CATALOG_DIR
// the web build: the catalog this program embeds is catalog.bin; it must be what parse_catalog reads from the JSON
// projection it was written from
TEST_CASE("catalog binary: the page's embedded catalog equals its JSON", "[catalog][catalog_binary]") {
    const Catalog json = parse_dir(LLMSIM_PAGE_CATALOG_DIR);
    std::string err;
    const Catalog* embedded = embedded_catalog(&err);
    INFO(err);
    REQUIRE(embedded != nullptr);
    CHECK(first_difference(catalog_fields_text(json), catalog_fields_text(*embedded)) == "");
}
#endif

TEST_CASE("catalog binary: doubles come back bit for bit", "[catalog_binary]") {
    Catalog c;
    const double values[] = {0.0, -0.0, 0.1, 82.58, -1, 1.0 / 3.0, 1e-300, 1e300, 4.9e-324, 9007199254740993.0,
                             123456.789012345, 0.30000000000000004, 2.5e-7};
    for (double v : values) {
        c.hardware.emplace_back();
        c.hardware.back().id = "d" + std::to_string(c.hardware.size());
        c.hardware.back().bandwidth_gbs = v;
    }
    Catalog back;
    std::string err;
    REQUIRE(catalog_from_binary(catalog_to_binary(c), back, err));
    REQUIRE(back.hardware.size() == c.hardware.size());
    for (size_t i = 0; i < c.hardware.size(); ++i) {
        INFO(values[i]);
        CHECK(std::memcmp(&back.hardware[i].bandwidth_gbs, &values[i], sizeof(double)) == 0);
    }
}

TEST_CASE("catalog binary: truncated, corrupt or stale files are refused and change nothing", "[catalog_binary]") {
    const Catalog json = parse_dir(std::string(LLMSIM_SOURCE_DIR) + "/assets/catalog");
    const std::string bin = catalog_to_binary(json);
    auto refused = [](const std::string& file, const char* says) {
        Catalog out = sentinel();
        std::string err;
        const bool ok = catalog_from_binary(file, out, err);
        INFO(err);
        CHECK(!ok);
        CHECK(err.rfind("catalog.bin: ", 0) == 0);
        CHECK(err.find(says) != std::string::npos);
        CHECK(out.models.size() == 1);
        CHECK(out.models[0].id == "sentinel");
    };
    refused("", "not a binary catalog");
    refused("{\"schema\": \"llmsim-models/1\"}", "not a binary catalog");
    // the first number is the model count: 9 bytes of 0xff make it longer than 64 bits
    binary_damage::check_damage_refused(bin, {"another version of the catalog's field list", 4999, 9}, refused);
}

TEST_CASE("catalog binary: forged payloads never crash the reader", "[catalog_binary]") {
    const Catalog json = parse_dir(std::string(LLMSIM_SOURCE_DIR) + "/assets/catalog");
    const std::string bin = catalog_to_binary(json);
    uint32_t seed = 12345;
    int refused = 0;
    for (int i = 0; i < 300; ++i) {
        std::string f = bin;
        for (int k = 0; k < 4; ++k) {
            seed = seed * 1664525u + 1013904223u;
            f[32 + seed % (f.size() - 32)] = (char)(seed >> 24);
        }
        binary_damage::set_checksum(f);
        Catalog out;
        std::string err;
        if (!catalog_from_binary(f, out, err)) {
            ++refused;
            CHECK(err.rfind("catalog.bin: corrupt: it ", 0) == 0);
        }
    }
    CHECK(refused > 0);   // most random bytes land in strings (still a valid file); some break the layout
}
