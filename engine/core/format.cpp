#include "core/format.h"

#include <cmath>
#include <cstdio>
#include <locale>
#include <sstream>

namespace llmsim {

std::string format_fixed(double v, int decimals) {
    if (!std::isfinite(v)) return "—";
    std::ostringstream o;
    o.imbue(std::locale::classic());
    o.setf(std::ios::fixed);
    o.precision(decimals < 0 ? 0 : decimals);
    o << v;
    return o.str();
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
