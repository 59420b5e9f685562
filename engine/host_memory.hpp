#pragma once
// How much memory a run may still take on the host, and the refusal of one that would not fit,
// made before anything is allocated (a std::bad_alloc halfway through says neither what was
// needed nor what there was).
#include <cstdint>
#include <string>

namespace gpuga {

// What a user can lower when a run's memory does not fit.
inline constexpr const char* kLowerHint =
    "lower --pop (or --concurrent, the runs held at once; truncation: --children)";

// Bytes this process can still allocate: the smaller of the system's available memory
// (MemAvailable) and what the address-space limit (ulimit -v) leaves beside what it maps now.
std::uint64_t host_memory_available();

// Throws InputError, saying what `what` needs, what there is and what to lower, when `need`
// bytes do not fit in host_memory_available().
void check_host_memory(std::uint64_t need, const std::string& what);

}  // namespace gpuga
