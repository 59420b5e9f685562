#include "host_memory.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <sstream>

#include "gpuga/errors.hpp"

namespace gpuga {
namespace {

// A "Key:   123 kB" line of a /proc file, in bytes; `fallback` when absent.
std::uint64_t proc_kib(const char* file, const std::string& key, std::uint64_t fallback) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key + ":", 0) != 0) continue;
    std::istringstream fields(line.substr(key.size() + 1));
    std::uint64_t kib = 0;
    if (fields >> kib) return kib * 1024;
  }
  return fallback;
}

std::string mib(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

}  // namespace

std::uint64_t host_memory_available() {
  constexpr std::uint64_t kUnknown = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t available = proc_kib("/proc/meminfo", "MemAvailable", kUnknown);
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    const std::uint64_t mapped = proc_kib("/proc/self/status", "VmSize", 0);
    const std::uint64_t cap = limit.rlim_cur > mapped ? limit.rlim_cur - mapped : 0;
    available = std::min(available, cap);
  }
  return available;
}

void check_host_memory(std::uint64_t need, const std::string& what) {
  const std::uint64_t available = host_memory_available();
  GPUGA_INPUT_CHECK(need < available, what + " needs " + mib(need) + " of host memory; " +
                                          mib(available) + " is available; " + kLowerHint);
}

}  // namespace gpuga
