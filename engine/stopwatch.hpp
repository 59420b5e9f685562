#pragma once
// The host's phase timer: a scope's span on the steady clock, counted on a ledger at the scope's
// end. The CPU backend's, and the device engine's when it runs on Thrust's host systems. And
// the deadlines of runs (RunTask::deadline) on the same clock.
#include <chrono>
#include <cstdint>

#include "gpuga/device/island_params.hpp"
#include "phase_ledger.hpp"

namespace gpuga {

// Whether the host's steady clock has passed `deadline` (RunTask::deadline: nanoseconds).
inline bool deadline_passed(std::int64_t deadline) {
  return deadline != kNoDeadline &&
         std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
                 .count() >= deadline;
}

class Stopwatch {
 public:
  Stopwatch(PhaseLedger& ledger, Phase phase)
      : ledger_(ledger), phase_(phase), start_(now()) {}
  ~Stopwatch() { ledger_.add(phase_, start_, now()); }
  Stopwatch(const Stopwatch&) = delete;
  Stopwatch& operator=(const Stopwatch&) = delete;

 private:
  static double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
  PhaseLedger& ledger_;
  Phase phase_;
  double start_;
};

}  // namespace gpuga
