#pragma once
// The phases' times of the engines of one run, on one timeline. A run whose islands grow has an
// engine a stage, and on the GPU each launches on a stream of its own: their spans of device
// time overlap, and summed per engine they added up to more than the run's wall time. Here each
// instant counts once, for the span that started first (ties: the phase named first), so that
// the phases' totals never add up to more than the time from the first span's start to the last
// one's stop (test_phase_ledger.cpp; test_engine_device: PhaseTimesOfAGrowingRun...).
#include <algorithm>
#include <limits>
#include <vector>

#include "gpuga/engine.hpp"

namespace gpuga {

enum class Phase { Advance, Summary };

class PhaseLedger {
 public:
  // A span of `phase` from `start` to `stop`, in seconds on the clock of every engine that
  // counts on this ledger (the device's for CUDA engines, the host's steady clock otherwise).
  void add(Phase phase, double start, double stop) {
    pending_.push_back({start, std::max(start, stop), phase});
    // Spans are counted in the order they started, which those still pending can change; a
    // long run's spans are counted in batches, so that the ledger stays small.
    if (pending_.size() >= kBatch) count_pending();
  }

  // The totals so far: advance and summary (ring is the host's, counted apart).
  PhaseTimes totals() {
    count_pending();
    return totals_;
  }

 private:
  struct Span {
    double start, stop;
    Phase phase;
  };
  static constexpr std::size_t kBatch = 4096;

  void count_pending() {
    std::sort(pending_.begin(), pending_.end(), [](const Span& a, const Span& b) {
      return a.start != b.start ? a.start < b.start : a.phase < b.phase;
    });
    for (const Span& s : pending_) {
      const double from = std::max(s.start, counted_to_);
      if (s.stop <= from) continue;
      (s.phase == Phase::Advance ? totals_.advance : totals_.summary) += s.stop - from;
      counted_to_ = s.stop;
    }
    pending_.clear();
  }

  std::vector<Span> pending_;
  double counted_to_ = -std::numeric_limits<double>::infinity();
  PhaseTimes totals_;
};

}  // namespace gpuga
