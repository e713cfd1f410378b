// The one ggml type / file type table (engine/quant/quant_types.cpp) against the catalog's assets/catalog/quants.json,
// whose rows name their upstream sources: both must say the same ids, names, block sizes, bytes and default types.
#include <catch2/catch.hpp>

#include <fstream>
#include <set>
#include <sstream>
#include <nlohmann/json.hpp>

#include "quant/quant_types.h"
#include "speed/speed.h"

using namespace llmsim;

TEST_CASE("quant types: table lookups", "[quant_types]") {
    const TensorTypeInfo& q4k = tensor_type_info(TensorType::Q4_K);
    CHECK(std::string(q4k.name) == "Q4_K");
    CHECK(q4k.block_size == 256);
    CHECK(q4k.type_size == 144);
    CHECK(tensor_type_by_id(4) == nullptr);      // Q4_2, removed from ggml
    CHECK(tensor_type_by_id(43) == nullptr);     // past the table
    REQUIRE(tensor_type_by_id(40) != nullptr);   // NVFP4: a GGUF may hold it, the quant rules predate it
    CHECK(std::string(tensor_type_by_id(40)->name) == "NVFP4");
    CHECK_FALSE(parse_tensor_type("nvfp4").has_value());
    CHECK(parse_tensor_type("q8_0") == TensorType::Q8_0);
    CHECK(parse_tensor_type("FP16") == TensorType::F16);
    CHECK(parse_llama_ftype("mxfp4") == LlamaFtype::MXFP4_MOE);
    CHECK(parse_llama_ftype("FP32") == LlamaFtype::ALL_F32);
    CHECK_FALSE(parse_llama_ftype("Q2_0").has_value());   // a file type the per-tensor rules do not cover
    REQUIRE(find_llama_ftype("Q2_0") != nullptr);
    CHECK(find_llama_ftype("MLX_4BIT") == nullptr);
    CHECK(ftype_default_type(LlamaFtype::IQ2_S) == TensorType::IQ2_XS);
    CHECK(std::string(to_string(LlamaFtype::Q4_K_M)) == "Q4_K_M");
    // the speed model's kernel class is the table's column
    CHECK(weight_class_of("Q3_K_M") == WeightClass::KQuantLow);
    CHECK(weight_class_of("IQ4_NL") == WeightClass::Legacy);
    CHECK(weight_class_of("IQ4_XS") == WeightClass::KQuant);
    CHECK(weight_class_of("TQ1_0") == WeightClass::KQuantLow);
    CHECK(weight_class_of("F32") == WeightClass::F16);
    CHECK(weight_class_of("MLX_4BIT") == WeightClass::KQuant);
}

#ifdef LLMSIM_SOURCE_DIR
namespace {
nlohmann::json load_quants_json() {
    std::ifstream f(std::string(LLMSIM_SOURCE_DIR) + "/assets/catalog/quants.json", std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return nlohmann::json::parse(s.str(), nullptr, false);
}
}  // namespace

TEST_CASE("quant types: ggml types agree with assets/catalog/quants.json", "[quant_types][assets]") {
    const auto q = load_quants_json();
    REQUIRE(q.is_object());
    REQUIRE(q.contains("ggml_types"));
    std::set<int> seen;
    for (const auto& t : q["ggml_types"]) {
        const int id = t.value("id", -1);
        INFO(t.value("name", std::string("?")) << " id " << id);
        REQUIRE(id >= 0);
        const TensorTypeInfo* ts = tensor_type_by_id((uint32_t)id);
        REQUIRE(ts != nullptr);
        CHECK((int)ts->type == id);
        CHECK(std::string(ts->name) == t.value("name", std::string()));
        CHECK(ts->block_size == t.value("block_size", 0));
        CHECK(ts->type_size == t.value("type_size", 0));
        CHECK(8.0 * ts->type_size / ts->block_size == Approx(t.value("bits_per_weight", 0.0)).epsilon(1e-12));
        seen.insert(id);
    }
    // and the table has no type the catalog lacks
    for (uint32_t id = 0; id < (uint32_t)TensorType::Count; ++id) {
        INFO("table id " << id);
        CHECK((tensor_type_by_id(id) != nullptr) == (seen.count((int)id) == 1));
    }
}

TEST_CASE("quant types: file types agree with assets/catalog/quants.json", "[quant_types][assets]") {
    const auto q = load_quants_json();
    REQUIRE(q.is_object());
    REQUIRE(q.contains("file_types"));
    std::set<int> seen;
    for (const auto& f : q["file_types"]) {
        const std::string name = f.value("name", std::string());
        INFO(name);
        const LlamaFtypeInfo* r = find_llama_ftype(name);
        if (!f.value("gguf", false)) {   // MLX, AWQ, FP8 ...: no llama.cpp file type
            CHECK(r == nullptr);
            continue;
        }
        REQUIRE(r != nullptr);
        CHECK(std::string(r->name) == name);
        CHECK((int)r->ftype == f.value("ftype_id", -1));
        REQUIRE(f["base_type"].is_string());
        CHECK(std::string(to_string(r->base)) == f["base_type"].get<std::string>());
        seen.insert((int)r->ftype);
    }
    for (int id = 0; id < (int)LlamaFtype::Count; ++id) {
        INFO("table id " << id);
        const bool named = std::string(to_string((LlamaFtype)id)) != "?";
        CHECK(named == (seen.count(id) == 1));
    }
}
#endif
