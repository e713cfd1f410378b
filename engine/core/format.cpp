#include "core/format.h"

#include <cmath>
#include <clocale>
#include <cstdio>
#include <cstring>

namespace llmsim {

std::string format_fixed(double v, int decimals) {
    if (!std::isfinite(v)) return "—";
    // printf's %.Nf is what a stream in fixed notation prints (libc++'s num_put formats through it); a stream with
    // the classic locale imbued cost a locale set-up on every call (most of the page's first frame's formatting)
    const int p = decimals < 0 ? 0 : decimals;
    char buf[64];
    const int n = std::snprintf(buf, sizeof buf, "%.*f", p, v);
    std::string out;
    if (n < (int)sizeof buf) {
        out.assign(buf, (size_t)n);
    } else {
        out.resize((size_t)n + 1);
        std::snprintf(&out[0], out.size(), "%.*f", p, v);
        out.resize((size_t)n);
    }
    // a process whose LC_NUMERIC is not "C" writes its own decimal point: the classic '.' always, as before
    const char* point = std::localeconv()->decimal_point;
    if (point && std::strcmp(point, ".") != 0)
        if (size_t at = out.find(point); at != std::string::npos) out.replace(at, std::strlen(point), ".");
    return out;
}

std::string format_sig(double v, int n) {
    if (!std::isfinite(v)) return "—";
    if (v == 0) return "0";
    double mag = std::floor(std::log10(std::fabs(v)));
    int decimals = (int)(n - 1 - mag);
    if (decimals < 0) {
        double scale = std::pow(10.0, -decimals);
        return format_fixed(std::round(v / scale) * scale, 0);
    }
    return format_fixed(v, decimals);
}

std::string format_gib(double bytes) {
    double g = bytes / (double)kGiB;
    return (std::fabs(g) < 100 ? format_fixed(g, std::fabs(g) < 10 ? 2 : 1) : format_sig(g, 4)) + " GiB";
}

std::string format_gb(double bytes) {
    double g = bytes / 1e9;
    return (std::fabs(g) < 100 ? format_fixed(g, std::fabs(g) < 10 ? 2 : 1) : format_sig(g, 4)) + " GB";
}

std::string format_tokens(int64_t tokens) {
    if (tokens >= 1048576 && tokens % 1048576 == 0) return std::to_string(tokens / 1048576) + "M";
    if (tokens >= 1024 && tokens % 1024 == 0) return std::to_string(tokens / 1024) + "k";
    return std::to_string(tokens);
}

}  // namespace llmsim
