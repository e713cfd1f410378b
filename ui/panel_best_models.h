// The "Best models for this device" section's own state: the catalog models the scenario's device runs at the
// scenario's context and decode floor, ranked by the published score of a task (engine/sim/recommend_quality.h),
// recomputed only when the device, context, floor or task changes.
//   update_best_models(app);   // then app.best_models.result holds the ranking (results().best_models)
#pragma once
#include <string>

#include "section_memo.h"
#include "sim/recommend_quality.h"

struct AppState;

struct BestModelsState {
    SectionMemo memo;                      // the inputs and request the result below is from
    llmsim::QualityQuery query;
    llmsim::QualityResult result;
    std::string error;                     // no device / bad input
};

void update_best_models(AppState& app);
// results().best_models: the api/best_models.h layout (llmsim.bestModels returns the same)
std::string best_models_json(const AppState& app);
