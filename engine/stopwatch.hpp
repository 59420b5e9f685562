#pragma once
// Adds the wall time of a scope to a phase's total (seconds): the CPU backend's phase timer, and
// the device engine's when it runs on Thrust's host systems.
#include <chrono>

namespace gpuga {

class Stopwatch {
 public:
  explicit Stopwatch(double& into) : into_(into), t0_(std::chrono::steady_clock::now()) {}
  ~Stopwatch() {
    into_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }
  Stopwatch(const Stopwatch&) = delete;
  Stopwatch& operator=(const Stopwatch&) = delete;

 private:
  double& into_;
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace gpuga
