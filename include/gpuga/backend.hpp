#pragma once
// Choosing a backend: auto takes CUDA when this build has it and a device is present, else the
// CPU (said once on stderr); cuda without a device is refused with a hint.
#include <memory>

#include "gpuga/engine.hpp"
#include "gpuga/run_config.hpp"

namespace gpuga {

// Resolves --backend auto to cpu or cuda (throws InputError for cuda when none is usable).
Backend resolve_backend(Backend requested, int device);

std::unique_ptr<Engine> make_engine(Backend resolved, const Grid& puzzle,
                                    const EngineParams& params, const RunConfig& o,
                                    std::uint32_t slots = 1);

}  // namespace gpuga
