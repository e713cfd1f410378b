// Chip families: names, vendors and the name guess for devices outside the catalog. See chip_family.h.
#include "catalog/chip_family.h"

#include "core/text.h"
#include "catalog/catalog.h"

namespace llmsim {

namespace {

struct ChipFamilyInfo {
    ChipFamily family;
    const char* name;     // hardware.json spelling
    const char* vendor;   // "" = any vendor (class rows)
};

// clang-format off
constexpr ChipFamilyInfo kChipFamilies[] = {
    {ChipFamily::NvidiaBlackwellGeforce, "nvidia-blackwell-geforce", "nvidia"},
    {ChipFamily::NvidiaBlackwellPro,     "nvidia-blackwell-pro",     "nvidia"},
    {ChipFamily::NvidiaAdaGeforce,       "nvidia-ada-geforce",       "nvidia"},
    {ChipFamily::NvidiaAdaPro,           "nvidia-ada-pro",           "nvidia"},
    {ChipFamily::NvidiaHopperH20,        "nvidia-hopper-h20",        "nvidia"},
    {ChipFamily::NvidiaHopper,           "nvidia-hopper",            "nvidia"},
    {ChipFamily::NvidiaAmpereGeforce,    "nvidia-ampere-geforce",    "nvidia"},
    {ChipFamily::NvidiaAmperePro,        "nvidia-ampere-pro",        "nvidia"},
    {ChipFamily::NvidiaTuring,           "nvidia-turing",            "nvidia"},
    {ChipFamily::NvidiaVolta,            "nvidia-volta",             "nvidia"},
    {ChipFamily::NvidiaPascalGp100,      "nvidia-pascal-gp100",      "nvidia"},
    {ChipFamily::NvidiaPascal,           "nvidia-pascal",            "nvidia"},
    {ChipFamily::AmdRdna4,               "amd-rdna4",                "amd"},
    {ChipFamily::AmdRdna3,               "amd-rdna3",                "amd"},
    {ChipFamily::AmdCdna4,               "amd-cdna4",                "amd"},
    {ChipFamily::AmdCdna3,               "amd-cdna3",                "amd"},
    {ChipFamily::AmdCdna2,               "amd-cdna2",                "amd"},
    {ChipFamily::AmdCdna1,               "amd-cdna1",                "amd"},
    {ChipFamily::AmdStrixHalo,           "amd-strix-halo",           "amd"},
    {ChipFamily::IntelXe2,               "intel-xe2",                "intel"},
    {ChipFamily::IntelAlchemist,         "intel-alchemist",          "intel"},
    {ChipFamily::NvidiaConsumer,         "nvidia-consumer",          "nvidia"},
    {ChipFamily::NvidiaWorkstation,      "nvidia-workstation",       "nvidia"},
    {ChipFamily::NvidiaDatacenter,       "nvidia-datacenter",        "nvidia"},
    {ChipFamily::AmdConsumer,            "amd-consumer",             "amd"},
    {ChipFamily::AmdDatacenter,          "amd-datacenter",           "amd"},
    {ChipFamily::AmdApu,                 "amd-apu",                  "amd"},
    {ChipFamily::Intel,                  "intel",                    "intel"},
    {ChipFamily::Apple,                  "apple",                    "apple"},
    {ChipFamily::Consumer,               "consumer",                 ""},
    {ChipFamily::Workstation,            "workstation",              ""},
    {ChipFamily::Datacenter,             "datacenter",               ""},
    {ChipFamily::Apu,                    "apu",                      ""},
    {ChipFamily::Cpu,                    "cpu",                      ""},
};
// clang-format on
static_assert(sizeof kChipFamilies / sizeof kChipFamilies[0] == (size_t)ChipFamily::Count,
              "one kChipFamilies row per ChipFamily");
constexpr bool rows_in_enum_order() {
    for (size_t i = 0; i < sizeof kChipFamilies / sizeof kChipFamilies[0]; ++i)
        if ((size_t)kChipFamilies[i].family != i) return false;
    return true;
}
static_assert(rows_in_enum_order(), "kChipFamilies rows must follow the ChipFamily order");

// The name guess, first match wins: vendor ("" = any), class (-1 = any), '|'-separated lower-case substrings of the
// name ("$" = at the end of the name; "" = the vendor/class row). The order is the one the speed model's family
// table had when it matched names itself; every catalog device's chip_family is what this table gives its name.
struct GuessRow {
    ChipFamily family;
    const char* vendor;
    int kind;
    const char* name_tokens;
};
// clang-format off
constexpr GuessRow kGuessRows[] = {
    {ChipFamily::NvidiaBlackwellGeforce, "nvidia", 0, "rtx 50"},
    {ChipFamily::NvidiaBlackwellPro,     "nvidia", -1, "blackwell|rtx pro|b200|b100|gb200|b300"},
    {ChipFamily::NvidiaAdaGeforce,       "nvidia", 0, "rtx 40"},
    {ChipFamily::NvidiaAdaPro,           "nvidia", -1, " ada|l40|l4 |l4$"},
    {ChipFamily::NvidiaHopperH20,        "nvidia", -1, "h20 "},
    {ChipFamily::NvidiaHopper,           "nvidia", -1, "h100|h200|h800|gh200"},
    {ChipFamily::NvidiaAmpereGeforce,    "nvidia", 0, "rtx 30"},
    {ChipFamily::NvidiaAmperePro,        "nvidia", -1, "rtx a|a100|a10|a30|a40|a16|a800"},
    {ChipFamily::NvidiaTuring,           "nvidia", -1, "rtx 20|t4|quadro rtx|titan rtx"},
    {ChipFamily::NvidiaVolta,            "nvidia", -1, "v100|titan v"},
    {ChipFamily::NvidiaPascalGp100,      "nvidia", -1, "p100"},
    {ChipFamily::NvidiaPascal,           "nvidia", -1, "p40|p4 |p4$|p6000|gtx 10|titan x"},
    {ChipFamily::AmdRdna4,               "amd",    -1, "rx 90|r9700|ai pro r"},
    {ChipFamily::AmdRdna3,               "amd",    -1, "rx 7|w7"},
    {ChipFamily::AmdCdna4,               "amd",    2, "mi350|mi355"},
    {ChipFamily::AmdCdna3,               "amd",    2, "mi300|mi325"},
    {ChipFamily::AmdCdna2,               "amd",    2, "mi210|mi250"},
    {ChipFamily::AmdCdna1,               "amd",    2, "mi100"},
    {ChipFamily::AmdStrixHalo,           "amd",    4, "ai max|8060s|strix halo"},
    {ChipFamily::IntelXe2,               "intel",  -1, "b580|b570|b60|b70|b50|battlemage"},
    {ChipFamily::IntelAlchemist,         "intel",  -1, "a770|a750|a580|a380|alchemist"},
    {ChipFamily::NvidiaConsumer,         "nvidia", 0, ""},
    {ChipFamily::NvidiaWorkstation,      "nvidia", 1, ""},
    {ChipFamily::NvidiaDatacenter,       "nvidia", 2, ""},
    {ChipFamily::AmdConsumer,            "amd",    0, ""},
    {ChipFamily::AmdDatacenter,          "amd",    2, ""},
    {ChipFamily::AmdApu,                 "amd",    4, ""},
    {ChipFamily::Intel,                  "intel",  -1, ""},
    {ChipFamily::Apple,                  "apple",  3, ""},
    {ChipFamily::Consumer,               "",       0, ""},
    {ChipFamily::Workstation,            "",       1, ""},
    {ChipFamily::Datacenter,             "",       2, ""},
    {ChipFamily::Apple,                  "",       3, ""},
    {ChipFamily::Apu,                    "",       4, ""},
    {ChipFamily::Cpu,                    "",       5, ""},
};
// clang-format on

// padded = the lower-case name + " "; a token ending in '$' must end the name, others may appear anywhere
bool name_has_token(std::string_view padded, std::string_view tokens) {
    const std::string_view name_lc = padded.substr(0, padded.size() - 1);
    size_t pos = 0;
    while (pos <= tokens.size()) {
        const size_t bar = tokens.find('|', pos);
        std::string_view tok = tokens.substr(pos, bar == std::string_view::npos ? std::string_view::npos : bar - pos);
        pos = bar == std::string_view::npos ? tokens.size() + 1 : bar + 1;
        if (tok.empty()) continue;
        if (tok.back() == '$') {
            tok.remove_suffix(1);
            if (name_lc.size() >= tok.size() && name_lc.compare(name_lc.size() - tok.size(), tok.size(), tok) == 0) return true;
        } else if (padded.find(tok) != std::string_view::npos) {
            return true;
        }
    }
    return false;
}

}  // namespace

const char* to_string(ChipFamily f) {
    return (int)f >= 0 && f < ChipFamily::Count ? kChipFamilies[(int)f].name : "?";
}

std::optional<ChipFamily> parse_chip_family(std::string_view s) {
    for (const ChipFamilyInfo& i : kChipFamilies)
        if (s == i.name) return i.family;
    return std::nullopt;
}

std::string chip_family_names() {
    std::string out;
    for (const ChipFamilyInfo& i : kChipFamilies) out += (out.empty() ? "" : ", ") + std::string(i.name);
    return out;
}

const char* chip_family_vendor(ChipFamily f) {
    return (int)f >= 0 && f < ChipFamily::Count ? kChipFamilies[(int)f].vendor : "";
}

ChipFamily class_chip_family(HardwareKind kind) {
    switch (kind) {
        case HardwareKind::Consumer: return ChipFamily::Consumer;
        case HardwareKind::Workstation: return ChipFamily::Workstation;
        case HardwareKind::Datacenter: return ChipFamily::Datacenter;
        case HardwareKind::Apple: return ChipFamily::Apple;
        case HardwareKind::Apu: return ChipFamily::Apu;
        case HardwareKind::Cpu: return ChipFamily::Cpu;
    }
    return ChipFamily::Consumer;
}

ChipFamily guess_chip_family(std::string_view vendor, HardwareKind kind, std::string_view name) {
    const std::string v = lower_ascii(std::string(vendor));
    const std::string padded = lower_ascii(std::string(name)) + " ";
    for (const GuessRow& r : kGuessRows) {
        if (r.vendor[0] && v != r.vendor) continue;
        if (r.kind >= 0 && r.kind != (int)kind) continue;
        // the vendor and chip rows are GPU families: a CPU takes only the cpu class row
        if (kind == HardwareKind::Cpu && r.kind != (int)HardwareKind::Cpu) continue;
        if (r.name_tokens[0] && !name_has_token(padded, r.name_tokens)) continue;
        return r.family;
    }
    return class_chip_family(kind);   // unreachable: every class has a row
}

}  // namespace llmsim
