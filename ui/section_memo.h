// What a section's results were computed from, so a frame recomputes only when its inputs moved:
//   if (!st.memo.inputs_moved(app.state_version, app.derived.version)) return;   // nothing changed this frame
//   ... build the request `key` ...
//   if (!st.memo.key_changed(key)) return;                                        // same request as last time
//   reset_section(st);                                                            // fresh results, memo kept
#pragma once
#include <cstdint>
#include <string>

struct SectionMemo {
    uint64_t state_version = UINT64_MAX;   // AppState::state_version last seen
    uint64_t derived_version = UINT64_MAX; // Derived::version last seen
    std::string key;                       // the request the results are from ("" = never computed)

    // true (and remembered) when either version moved since the last call
    bool inputs_moved(uint64_t state_v, uint64_t derived_v) {
        if (state_v == state_version && derived_v == derived_version) return false;
        state_version = state_v;
        derived_version = derived_v;
        return true;
    }
    // true (and remembered) when the request differs from the one the results are from
    bool key_changed(const std::string& k) {
        if (k == key) return false;
        key = k;
        return true;
    }
    // the next inputs_moved() says true (a panel-local choice changed what the results hold)
    void invalidate() { state_version = UINT64_MAX; }
};

// a section state back to its defaults, its memo kept
template <class State>
void reset_section(State& st) {
    const SectionMemo memo = st.memo;
    st = State();
    st.memo = memo;
}
