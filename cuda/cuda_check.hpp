#pragma once
// Every CUDA runtime call and every launch goes through these: a failure throws RuntimeFailure
// with the error's name and text, the call, the file and the line.
#include <cuda_runtime.h>

#include <string>

#include "errors.hpp"

namespace gpuga::cuda_detail {

[[noreturn]] inline void throw_cuda_error(cudaError_t err, const char* what, const char* file,
                                          int line) {
  throw RuntimeFailure(std::string("CUDA error ") + cudaGetErrorName(err) + " (" +
                       cudaGetErrorString(err) + ") in " + what + " at " + file + ":" +
                       std::to_string(line));
}

}  // namespace gpuga::cuda_detail

#define GPUGA_CUDA_CHECK(call)                                                        \
  do {                                                                                \
    const cudaError_t gpuga_err_ = (call);                                            \
    if (gpuga_err_ != cudaSuccess)                                                    \
      ::gpuga::cuda_detail::throw_cuda_error(gpuga_err_, #call, __FILE__, __LINE__);  \
  } while (0)

// After every kernel launch: launch-configuration errors surface here, naming the kernel, not at
// a later call.
#define GPUGA_CUDA_CHECK_LAUNCH(kernel_name)                                                 \
  do {                                                                                       \
    const cudaError_t gpuga_err_ = cudaPeekAtLastError();                                    \
    if (gpuga_err_ != cudaSuccess)                                                           \
      ::gpuga::cuda_detail::throw_cuda_error(gpuga_err_, "launch of " #kernel_name, __FILE__, \
                                             __LINE__);                                      \
  } while (0)
