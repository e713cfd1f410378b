// Order statistics shared by the engine, the lab and the UI: one definition of "median" and "quantile".
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace llmsim {

// The median (the mean of the two middle values for an even count); 0 for no values.
inline double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The q-quantile (0..1) with linear interpolation between order statistics; 0 for no values.
inline double quantile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const double pos = q * (double)(v.size() - 1);
    const size_t i = (size_t)pos;
    const double f = pos - (double)i;
    return i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}

}  // namespace llmsim
