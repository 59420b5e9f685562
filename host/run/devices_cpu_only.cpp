// Device listing for builds without the CUDA backend.
#include "gpuga/devices.hpp"

namespace gpuga {

bool cuda_backend_built() { return false; }

DeviceList list_devices() {
  DeviceList out;
  out.reason = "this gpuga was built without the CUDA backend (GPUGA_CUDA=OFF or no nvcc)";
  return out;
}

}  // namespace gpuga
