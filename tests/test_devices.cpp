// Devices: the round-robin a node's MPI ranks take GPUs by when --device is not given, and the
// device listing's answer in this build.
#include <gtest/gtest.h>

#include "gpuga/devices.hpp"

namespace gpuga {
namespace {

TEST(RankDevice, RanksTakeTheNodesDevicesRoundRobin) {
  // Four ranks on a one-GPU workstation all take device 0 (rank k asked for device k before).
  for (int rank = 0; rank < 4; ++rank) EXPECT_EQ(rank_device(rank, 1), 0) << "rank " << rank;
  // Five ranks over two GPUs: 0 1 0 1 0.
  const int expected[] = {0, 1, 0, 1, 0};
  for (int rank = 0; rank < 5; ++rank) EXPECT_EQ(rank_device(rank, 2), expected[rank]) << "rank " << rank;
  // As many GPUs as ranks, or more: each rank its own.
  for (int rank = 0; rank < 4; ++rank) EXPECT_EQ(rank_device(rank, 8), rank);
}

TEST(RankDevice, NoDeviceGivesDeviceZero) {
  // No GPU: the backend's choice refuses or falls back to the CPU; the index is never past 0.
  EXPECT_EQ(rank_device(3, 0), 0);
}

TEST(Devices, AnEmptyListSaysWhy) {
  const DeviceList list = list_devices();
  if (list.devices.empty()) {
    EXPECT_FALSE(list.reason.empty());
  } else {
    for (std::size_t i = 0; i < list.devices.size(); ++i) EXPECT_EQ(list.devices[i].index, int(i));
  }
}

}  // namespace
}  // namespace gpuga
