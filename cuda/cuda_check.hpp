#pragma once
// Every CUDA runtime call and every launch goes through these: a failure throws RuntimeFailure
// with the error's name and text, the call, the file and the line, and the last kernel this
// thread launched. A fault in a kernel (an illegal address, a trap) surfaces at a later call,
// since launches do not wait; set GPUGA_SYNC_CHECKS=1 to wait after every launch, so that the
// fault is reported at the launch of the kernel that caused it.
#include <cuda_runtime.h>

#include <cstdlib>
#include <string>

#include "gpuga/errors.hpp"

namespace gpuga::cuda_detail {

// The last kernel launched on this thread (a step's name), for the message of a later failure.
inline thread_local const char* last_launch = nullptr;

// GPUGA_SYNC_CHECKS set to anything but "" or "0".
inline bool sync_checks() {
  static const bool on = [] {
    const char* v = std::getenv("GPUGA_SYNC_CHECKS");
    return v != nullptr && *v != '\0' && std::string(v) != "0";
  }();
  return on;
}

[[noreturn]] inline void throw_cuda_error(cudaError_t err, const std::string& what,
                                          const char* file, int line) {
  std::string message = std::string("CUDA error ") + cudaGetErrorName(err) + " (" +
                        cudaGetErrorString(err) + ") in " + what + " at " + file + ":" +
                        std::to_string(line);
  if (last_launch != nullptr)
    message += std::string("; the last kernel launched was ") + last_launch +
               (sync_checks() ? "" : " (GPUGA_SYNC_CHECKS=1 pins a fault to its kernel)");
  throw RuntimeFailure(message);
}

}  // namespace gpuga::cuda_detail

#define GPUGA_CUDA_CHECK(call)                                                        \
  do {                                                                                \
    const cudaError_t gpuga_err_ = (call);                                            \
    if (gpuga_err_ != cudaSuccess)                                                    \
      ::gpuga::cuda_detail::throw_cuda_error(gpuga_err_, #call, __FILE__, __LINE__);  \
  } while (0)
