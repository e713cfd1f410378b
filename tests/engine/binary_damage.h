// The damage every build-time binary asset's reader must refuse (catalog.bin: test_catalog_binary.cpp,
// speed_params.bin: test_speed_binary.cpp). Both share engine/core/binary_fields.h's layout: an 8-byte magic, the
// field list's fingerprint at byte 8, the payload length at 16, its FNV-1a 64 checksum at 24, the payload from 32.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace binary_damage {

// rewrite the header's checksum to match the payload: forges a file whose damage only the reader's layout checks catch
inline void set_checksum(std::string& file) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 32; i < file.size(); ++i) h = (h ^ (unsigned char)file[i]) * 1099511628211ull;
    for (int i = 0; i < 8; ++i) file[24 + i] = (char)(unsigned char)(h >> (8 * i));
}

// What each file format states: the message a stale fingerprint gives, the stride of truncations past the first
// 64 bytes (every length below 64), and how many 0xff bytes at the payload's start make its first number longer
// than 64 bits.
struct Format {
    const char* stale_says;
    size_t truncate_stride;
    int too_long_number_bytes;
};

// refused(file, text the error must contain) checks that the reader refuses the file and changes nothing
inline void check_damage_refused(const std::string& bin, const Format& f,
                                 const std::function<void(const std::string&, const char*)>& refused) {
    for (size_t n = 1; n < bin.size(); n += (n < 64 ? 1 : f.truncate_stride))
        refused(bin.substr(0, n), n < 32 ? "not a binary" : "truncated");
    refused(bin + "x", "truncated or padded");
    std::string stale = bin;
    stale[8] ^= 1;
    refused(stale, f.stale_says);
    for (size_t at = 32; at < bin.size(); at += bin.size() / 37) {
        std::string flipped = bin;
        flipped[at] ^= 0x20;
        refused(flipped, "checksum");
    }
    // forged: bytes changed and the checksum made to match; the reader's own checks catch what breaks the layout
    std::string forged = bin;
    forged.resize(forged.size() - 3);
    for (int i = 0; i < 8; ++i)   // its length (size_t: 32-bit in wasm)
        forged[16 + i] = (char)(unsigned char)((uint64_t)(forged.size() - 32) >> (8 * i));
    set_checksum(forged);
    refused(forged, "corrupt: it");
    std::string huge = bin;
    for (int i = 0; i < f.too_long_number_bytes; ++i) huge[32 + i] = (char)0xff;
    set_checksum(huge);
    refused(huge, "corrupt: it");
}

}  // namespace binary_damage
