#pragma once
// The CUDA backend's engine (cuda/device_engine.inl) compiled for Thrust's OpenMP device system:
// the same code, run on the host, so that machines without a GPU test it against the CPU backend.
#include "engine.hpp"

namespace gpuga {

std::unique_ptr<Engine> make_device_engine_omp(const Grid& puzzle, const GaParams& params,
                                               double rank_pressure, std::uint32_t lanes = 1);

}  // namespace gpuga
