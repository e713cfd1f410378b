// The leaderboard panel's own state (Tracy keeps each view's state with its view): its filters, and the visible
// rows in display order, which are re-filtered and re-sorted only when an input changes, never every frame.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

struct LeaderboardState {
    int kind_filter = 0;       // 0 = all, then HardwareKind + 1
    bool fits_only = false;
    std::vector<int> order;    // visible rows in display order (indices into derived.devices)
    // what `order` was built from (the table's sort specs carry their own dirty flag)
    uint64_t order_version = UINT64_MAX;   // derived.version
    std::string order_search;
    int order_kind_filter = -1;
    bool order_fits_only = false;
};
