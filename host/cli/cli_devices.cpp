// gpuga devices: each CUDA device this build can use, or why there is none.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "gpuga/devices.hpp"

namespace gpuga {
namespace {

struct DevicesOptions {
  bool json = false;
};

std::string version_string(int v) {
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

int run_devices(const DevicesOptions& o) {
  const DeviceList list = list_devices();
  if (o.json) {
    nlohmann::json devs = nlohmann::json::array();
    for (const auto& d : list.devices)
      devs.push_back({{"index", d.index}, {"name", d.name},
                      {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
                      {"multiprocessors", d.multiprocessors}, {"memory_bytes", d.memory_bytes},
                      {"free_bytes", d.free_bytes}, {"busy", d.busy}, {"clock_mhz", d.clock_mhz},
                      {"memory_clock_mhz", d.memory_clock_mhz}, {"memory_bus_bits", d.memory_bus_bits}});
    std::cout << nlohmann::json{{"cuda_backend_built", cuda_backend_built()},
                                {"driver_version", version_string(list.driver_version)},
                                {"runtime_version", version_string(list.runtime_version)},
                                {"devices", devs}, {"reason", list.reason}}.dump(2)
              << '\n';
    return kExitOk;
  }
  if (list.devices.empty()) {
    std::cout << "no CUDA devices: " << list.reason << '\n';
    return kExitOk;
  }
  std::cout << "CUDA driver " << version_string(list.driver_version) << ", runtime "
            << version_string(list.runtime_version) << '\n';
  for (const auto& d : list.devices) {
    char free[32] = "busy";
    if (!d.busy) std::snprintf(free, sizeof free, "%.1f free", d.free_bytes / 1073741824.0);
    char line[256];
    std::snprintf(line, sizeof line,
                  "%d: %s  cc %d.%d  %d SMs  %.1f GiB (%s)  %d MHz  memory %d MHz x %d bit\n",
                  d.index, d.name.c_str(), d.cc_major, d.cc_minor, d.multiprocessors,
                  d.memory_bytes / 1073741824.0, free, d.clock_mhz, d.memory_clock_mhz,
                  d.memory_bus_bits);
    std::cout << line;
  }
  return kExitOk;
}

}  // namespace

void add_devices_command(CLI::App& app, int& exit_status) {
  auto o = std::make_shared<DevicesOptions>();
  auto* cmd = app.add_subcommand("devices", "List the CUDA devices (name, compute capability, "
                                            "SMs, memory, clocks)");
  cmd->add_flag("--json", o->json, "Write one JSON object");
  cmd->callback([o, &exit_status] { exit_status = run_devices(*o); });
}

}  // namespace gpuga
