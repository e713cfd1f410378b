// Chip families: which silicon generation a device is, as the catalog states it (hardware.json `chip_family`).
//
// The speed model keys its per-generation facts on this enum (the FP16 TFLOPS-per-GB/s estimate, Hopper's MMA
// share, Pascal's DP4A rate, Alchemist's Vulkan rate, ggml-vulkan coopmat2, the Intel-GPU kernel shares:
// speed/speed.h ChipFamilyRates). Every catalog device names its family; a device the catalog does not know (an
// inline hardware object in `predict`) may name one, and only when it does not is guess_chip_family() asked: the
// one place in the engine that reads a family from a device name.
//
//   std::optional<llmsim::ChipFamily> f = llmsim::parse_chip_family("nvidia-hopper");
//   llmsim::ChipFamily g = llmsim::guess_chip_family("nvidia", llmsim::HardwareKind::Consumer, "NVIDIA GeForce RTX 4090");
//   // g == ChipFamily::NvidiaAdaGeforce; to_string(g) == "nvidia-ada-geforce"
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace llmsim {

enum class HardwareKind;   // catalog/catalog.h

// One enumerator per row of the speed model's family table. The generation rows come first; the vendor-and-class
// rows (NvidiaConsumer ... Intel) hold devices of a vendor whose generation the model does not single out (GTX 16,
// RX 6000, NVIDIA APUs' class rows below); the class rows hold any vendor's device of that class.
enum class ChipFamily {
    NvidiaBlackwellGeforce,   // RTX 50
    NvidiaBlackwellPro,       // RTX PRO Blackwell, B100/B200/GB200/B300
    NvidiaAdaGeforce,         // RTX 40
    NvidiaAdaPro,             // RTX Ada, L40/L40S/L4
    NvidiaHopperH20,          // H20 (export-limited tensor rate)
    NvidiaHopper,             // H100/H200/H800/GH200
    NvidiaAmpereGeforce,      // RTX 30
    NvidiaAmperePro,          // RTX A, A100/A10/A30/A40/A16/A800
    NvidiaTuring,             // RTX 20, T4, Quadro RTX, Titan RTX
    NvidiaVolta,              // V100, Titan V
    NvidiaPascalGp100,        // P100 (sm_60: no tensor cores, no DP4A)
    NvidiaPascal,             // P40, P4, P6000, GTX 10, Titan X (sm_61: DP4A)
    AmdRdna4,                 // RX 9000, Radeon AI PRO R9700
    AmdRdna3,                 // RX 7000, Radeon PRO W7000
    AmdCdna4,                 // MI350/MI355
    AmdCdna3,                 // MI300/MI325
    AmdCdna2,                 // MI210/MI250
    AmdCdna1,                 // MI100
    AmdStrixHalo,             // Ryzen AI Max (Radeon 8060S)
    IntelXe2,                 // Arc B-series (Battlemage), Arc Pro B
    IntelAlchemist,           // Arc A-series
    NvidiaConsumer,           // another NVIDIA consumer GPU (GTX 16, ...)
    NvidiaWorkstation,        // another NVIDIA workstation GPU
    NvidiaDatacenter,         // another NVIDIA datacenter GPU (L20, ...)
    AmdConsumer,              // another AMD consumer GPU (RX 6000, ...)
    AmdDatacenter,            // another AMD datacenter GPU
    AmdApu,                   // another AMD APU (Strix Point, Phoenix)
    Intel,                    // another Intel GPU (Lunar Lake's Arc 140V, ...)
    Apple,                    // Apple silicon GPU
    Consumer,                 // any other vendor's device of this class
    Workstation,
    Datacenter,
    Apu,                      // (NVIDIA DGX Spark, Jetson)
    Cpu,                      // CPU inference (any vendor)
    Count
};

// the hardware.json spelling: "nvidia-hopper", ...
const char* to_string(ChipFamily f);
// the hardware.json spelling parsed; nullopt when it names no family
std::optional<ChipFamily> parse_chip_family(std::string_view s);
// every spelling, comma-separated, for error messages
std::string chip_family_names();
// the device's vendor as its family implies it ("nvidia", "amd", "intel", "apple"; "" for the class rows)
const char* chip_family_vendor(ChipFamily f);
// the family of a device whose generation is unknown: its class row (Consumer ... Cpu; Apple for Apple)
ChipFamily class_chip_family(HardwareKind kind);
// the family read from a device's vendor, class and name, for a device the catalog does not list and whose input
// names no family (an inline predict device, a calibration row's hardware object): the first row of a token table
// whose vendor and class fit and whose lower-case name tokens occur in the name ("rtx 40", "h100|h200", ...), else
// the vendor-and-class row, else the class row. A CPU always gets Cpu (an Intel CPU given the Arc ratio came out
// 10x its FP32 peak). The one function that reads a family from a name.
ChipFamily guess_chip_family(std::string_view vendor, HardwareKind kind, std::string_view name);

}  // namespace llmsim
