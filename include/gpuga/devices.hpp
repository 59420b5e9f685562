#pragma once
// The CUDA devices this build and machine can use. Builds without the CUDA backend report none,
// with the reason.
#include <cstddef>
#include <string>
#include <vector>

namespace gpuga {

struct DeviceInfo {
  int index = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int multiprocessors = 0;
  std::size_t memory_bytes = 0;
  std::size_t free_bytes = 0;  // 0 when busy
  bool busy = false;           // no context could be made on it (held by another process)
  int clock_mhz = 0;
  int memory_clock_mhz = 0;
  int memory_bus_bits = 0;
  // Shared memory in bytes: per multiprocessor, the most one block may opt in to, and what the
  // system reserves per block (an island staged in shared memory needs staged bytes + reserved).
  int shared_per_multiprocessor = 0, shared_per_block = 0, shared_reserved_per_block = 0;
};

struct DeviceList {
  std::vector<DeviceInfo> devices;
  std::string reason;  // why there are none, when empty
  int driver_version = 0, runtime_version = 0;
};

DeviceList list_devices();

// The device a rank takes when --device is not given: its rank among its node's ranks, modulo
// the node's devices (round-robin), so that a node with more ranks than GPUs shares them.
inline int rank_device(int local_rank, int device_count) {
  return device_count > 0 ? local_rank % device_count : 0;
}

// The multiprocessors of `device` in `list`, or 0 where there is no such device.
inline int multiprocessors_of(const DeviceList& list, int device) {
  return device >= 0 && device < static_cast<int>(list.devices.size())
             ? list.devices[device].multiprocessors
             : 0;
}

bool cuda_backend_built();

}  // namespace gpuga
