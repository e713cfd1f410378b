// Held-out folds on every core: each fold is independent (its own fit on its own copy of the training rows), so
// the lab runs them on worker threads and writes each fold's result into its own slot; the caller then reads
// the slots in fold order, so the report is the same, bit for bit, whatever the number of threads.
//
//   std::vector<SpeedParams> fits(groups.size());
//   llmsim::parallel_folds(groups.size(), [&](size_t g) { fits[g] = fit_without(groups[g]); });
//
// LLMSIM_LAB_THREADS=N sets the number of threads (1 = the calling thread only); default: the hardware threads.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <functional>
#include <thread>
#include <vector>

namespace llmsim {

// threads the lab's folds use: LLMSIM_LAB_THREADS when set to 1..256, else std::thread::hardware_concurrency()
inline unsigned lab_threads() {
    if (const char* e = std::getenv("LLMSIM_LAB_THREADS")) {
        const long n = std::strtol(e, nullptr, 10);
        if (n >= 1 && n <= 256) return (unsigned)n;
    }
    const unsigned hw = std::thread::hardware_concurrency();
    return hw > 0 ? hw : 1;
}

// run fold(0) .. fold(n - 1), each exactly once, on up to lab_threads() threads (the next free thread takes the
// next index); fold must write only its own slot. Returns when every fold has finished.
inline void parallel_folds(size_t n, const std::function<void(size_t)>& fold) {
    const size_t threads = std::min<size_t>(lab_threads(), n);
    if (threads <= 1) {
        for (size_t i = 0; i < n; ++i) fold(i);
        return;
    }
    std::atomic<size_t> next{0};
    auto work = [&] {
        for (size_t i = next++; i < n; i = next++) fold(i);
    };
    std::vector<std::thread> pool;
    for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
}

}  // namespace llmsim
