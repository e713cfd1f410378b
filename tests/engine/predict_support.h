// The engine tests' way to run one predict line: the embedded catalog, the shipped speed parameters, the JSON out.
//   const nlohmann::json out = predict_json(R"({"model": "Qwen/Qwen2.5-7B-Instruct", ...})");
#pragma once
#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "api/predict.h"
#include "runtime/speed_glue.h"

inline nlohmann::json predict_json(const std::string& line) {
    const llmsim::Catalog* cat = llmsim::embedded_catalog();
    REQUIRE(cat);
    return nlohmann::json::parse(llmsim::predict_line(*cat, llmsim::default_speed_params(), line));
}
