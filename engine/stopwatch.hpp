#pragma once
// The host's phase timer: a scope's span on the steady clock, counted on a ledger at the scope's
// end. The CPU backend's, and the device engine's when it runs on Thrust's host systems. And
// the deadlines of runs (RunTask::deadline) on the same clock.
#include <chrono>
#include <cstdint>

#include "gpuga/device/hd.hpp"
#include "gpuga/device/island_params.hpp"
#include "phase_ledger.hpp"

namespace gpuga {

// Team::past for a team of several host threads: rank 0 reads the clock for all into `seen`
// (shared by the team), since threads reading it at different instants could disagree.
template <class Team>
bool team_past(const Team& t, bool* seen, std::int64_t deadline) {
  t.sync();
  if (t.rank() == 0) *seen = deadline_passed(deadline);
  t.sync();
  return *seen;
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
