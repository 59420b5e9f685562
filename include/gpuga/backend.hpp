#pragma once
// The backends (host/run/backend.cpp): choosing one (auto takes CUDA when this build has it and a
// device is present, else the CPU, the front end says why; cuda without a device is refused with
// a hint), probing it for a plan, and making its engine.
#include <memory>
#include <string>

#include "gpuga/engine.hpp"
#include "gpuga/run_plan.hpp"

namespace gpuga {

// The target for puzzles of box size `box`: --backend auto resolved (CUDA when a device is
// present), its units and what one holds, `ranks` processes sharing each run. One of several
// ranks on a `node` takes its share of the node's cores (--threads not given) and, unless
// --device was given or the backend is cpu, a GPU round-robin: its local rank modulo the node's
// devices (rank_device). Throws InputError for --backend cuda without a usable device.
Target probe_target(const RunOptions& options, int box, bool many = false, std::uint32_t ranks = 1,
                    NodePlace node = {});

// Where several ranks of a node share its devices round-robin, the sentence that says so for the
// front end to show once; "" otherwise.
std::string shared_devices_news(const Target& t, const NodePlace& node);

// Resolves --backend auto to cpu or cuda (throws InputError for cuda when none is usable). When
// auto falls back to the CPU, `why_cpu` (if given) says why, for the front end to show.
Backend resolve_backend(Backend requested, int device, std::string* why_cpu = nullptr);

// An engine for `slots` runs of the plan at once on its backend (a growing engine when its
// islands grow), of `here`'s islands when this process holds only some of each run's (MPI).
std::unique_ptr<Engine> make_engine(const RunPlan& plan, const Grid& puzzle, std::uint32_t slots = 1,
                                    const EngineParams* here = nullptr);

}  // namespace gpuga
