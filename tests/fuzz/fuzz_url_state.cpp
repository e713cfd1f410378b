// libFuzzer target: the URL-hash decoder and the JSON state parser (ui/url_state.h). Whatever decodes must
// encode again, round-trip to the same hash, and serialize to JSON (getState) without throwing.
#include <cstdint>
#include <string>

#include "url_state.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    Scenario s;
    std::string err;
    if (decode_url_state(text, s, err)) {
        const std::string hash = encode_url_state(s);
        Scenario again;
        std::string err2;
        if (!decode_url_state(hash, again, err2)) __builtin_trap();       // our own output must decode
        if (encode_url_state(again) != hash) __builtin_trap();           // and round-trip
        (void)scenario_to_json(s);
    } else if (err.empty()) {
        __builtin_trap();
    }
    Scenario j;
    std::string jerr;
    if (scenario_from_json(text, j, jerr)) (void)scenario_to_json(j);
    else if (jerr.empty()) __builtin_trap();
    return 0;
}
