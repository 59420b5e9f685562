#pragma once
// Where a repair tile keeps each free cell's candidates (PuzzleInfo::free_slot), chosen per puzzle
// so that the lone phase's reads fall in distinct shared-memory banks. find_lone has each lane of
// a warp walk a unit and read its cells' candidates in step: at the k-th read the lanes hold the
// k-th cells of 32 units (rows, columns and boxes), scattered over the slots. With slots in cell
// order, two of a request's cells often fall in one bank (different words), and the request is
// served once for each. The waves that walk the slots themselves read consecutive words, which
// any order of the slots keeps distinct; so the order is free to serve find_lone, and it changes
// no byte of a repair (the waves are reductions over the open cells, their ties broken by cell).
// tests/test_repair.cpp counts the banks each request touches.
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "gpuga/device/grid.hpp"

namespace gpuga {

// Lanes a child's repair takes on a GPU: a warp (repair.hpp).
template <int B>
inline constexpr std::uint32_t kRepairLanes = 32;

// Shared memory has 32 banks of 4 bytes, and serves a warp's request 128 bytes at a time: the
// lanes of a request are the whole warp for masks of 2 and 4 bytes, a half-warp for 8. A slot's
// bank (for 8-byte masks its pair of banks) as one of kBanks.
template <int B>
struct SlotBanks {
  static constexpr std::uint32_t kMaskBytes = sizeof(typename Shape<B>::Mask);
  static constexpr std::uint32_t kBanks = kMaskBytes == 8 ? 16 : 32;
  static constexpr std::uint32_t kRequestLanes = kMaskBytes == 8 ? 16 : 32;
  static std::uint32_t bank(std::uint32_t slot) {
    return kMaskBytes == 8 ? slot % 16 : slot * kMaskBytes / 4 % 32;
  }
};

// The cells each request of find_lone reads: pass p of the warp over the units (lane l takes unit
// l + 32 p), read k of each unit (unit_cell's k-th cell), the lanes of one request.
template <int B>
std::vector<std::vector<int>> lone_phase_requests() {
  using S = Shape<B>;
  constexpr std::uint32_t kLanes = kRepairLanes<B>, kPerRequest = SlotBanks<B>::kRequestLanes;
  std::vector<std::vector<int>> requests;
  for (std::uint32_t pass = 0; pass * kLanes < S::kUnits; ++pass)
    for (int k = 0; k < S::kSide; ++k)
      for (std::uint32_t first = 0; first < kLanes; first += kPerRequest) {
        std::vector<int> cells;
        for (std::uint32_t lane = first; lane < first + kPerRequest; ++lane)
          if (const std::uint32_t u = pass * kLanes + lane; u < S::kUnits)
            cells.push_back(S::unit_cell(static_cast<int>(u), k));
        if (!cells.empty()) requests.push_back(std::move(cells));
      }
  return requests;
}

// For each free cell (by its index in `free_cells`, cell order), the others that share a request
// of find_lone with it (givens are not read: find_lone skips them).
template <int B>
std::vector<std::vector<std::uint32_t>> cells_read_together(std::span<const typename Shape<B>::Cell> free_cells) {
  std::vector<int> index_of(Shape<B>::kCells, -1);
  for (std::size_t i = 0; i < free_cells.size(); ++i) index_of[free_cells[i]] = static_cast<int>(i);
  std::vector<std::vector<std::uint32_t>> near(free_cells.size());
  for (const auto& request : lone_phase_requests<B>())
    for (const int a : request)
      for (const int b : request)
        if (index_of[a] >= 0 && index_of[b] >= 0 && a != b)
          near[index_of[a]].push_back(static_cast<std::uint32_t>(index_of[b]));
  for (auto& cells : near) {
    std::sort(cells.begin(), cells.end());
    cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
  }
  return near;
}

// A bank for each free cell such that no two cells of a request share one, with as many cells a
// bank as there are slots of it in [0, n_free): banks as colours of the graph `near`, with
// capacities. Greedy, the cells with the most neighbours first, each to the bank with the fewest
// clashes and then the most room; then swaps of two cells' banks while one removes clashes. At
// 16x16 to 64x64 (about 45 neighbours a cell, 16 or 32 banks) it leaves a puzzle of the committed
// sets at most three requests of hundreds with a bank read twice.
template <int B>
std::vector<std::uint32_t> colour_banks(const std::vector<std::vector<std::uint32_t>>& near) {
  using Banks = SlotBanks<B>;
  constexpr std::uint32_t kNone = ~0u;
  const auto n_free = static_cast<std::uint32_t>(near.size());
  std::vector<std::uint32_t> room(Banks::kBanks, 0), bank_of(n_free, kNone), order(n_free);
  for (std::uint32_t s = 0; s < n_free; ++s) ++room[Banks::bank(s)];
  // Cell i's clashes were it in `bank`, beside every cell but `except`.
  const auto clashes = [&](std::uint32_t i, std::uint32_t bank, std::uint32_t except) {
    std::uint32_t count = 0;
    for (const std::uint32_t j : near[i]) count += j != except && bank_of[j] == bank;
    return count;
  };
  for (std::uint32_t i = 0; i < n_free; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return near[a].size() > near[b].size(); });
  for (const std::uint32_t i : order) {
    std::uint32_t best = kNone, best_clashes = kNone;
    for (std::uint32_t bank = 0; bank < Banks::kBanks; ++bank) {
      if (!room[bank]) continue;
      const std::uint32_t count = clashes(i, bank, kNone);
      if (count < best_clashes || (count == best_clashes && room[bank] > room[best])) best = bank, best_clashes = count;
    }
    bank_of[i] = best;
    --room[best];
  }
  // A swap keeps every bank's count and lowers the clashes. Two rounds: where clashes are many
  // (an empty grid) a round costs the free cells squared, and a third removed next to none.
  for (int round = 0, swapped = 1; swapped && round < 2; ++round) {
    swapped = 0;
    for (std::uint32_t i = 0; i < n_free; ++i) {
      const std::uint32_t now = clashes(i, bank_of[i], kNone);
      for (std::uint32_t j = 0; now && j < n_free; ++j) {
        if (bank_of[j] == bank_of[i]) continue;
        if (clashes(i, bank_of[j], j) + clashes(j, bank_of[i], i) < now + clashes(j, bank_of[j], kNone)) {
          std::swap(bank_of[i], bank_of[j]);
          swapped = 1;
          break;
        }
      }
    }
  }
  return bank_of;
}

// The slot of each free cell (by its index in `free_cells`, cell order): its bank's slots in
// [0, n_free) go to the bank's cells in cell order.
template <int B>
std::vector<std::uint32_t> candidate_slots(std::span<const typename Shape<B>::Cell> free_cells) {
  using Banks = SlotBanks<B>;
  constexpr std::uint32_t kNone = ~0u;
  const std::vector<std::uint32_t> bank_of = colour_banks<B>(cells_read_together<B>(free_cells));
  const auto n_free = static_cast<std::uint32_t>(free_cells.size());
  // Each bank's lowest slot not yet taken (`first`), and each slot's next of its bank.
  std::vector<std::uint32_t> first(Banks::kBanks, kNone), next(n_free), slot_of(n_free);
  for (std::uint32_t s = n_free; s-- > 0;) {
    next[s] = first[Banks::bank(s)];
    first[Banks::bank(s)] = s;
  }
  for (std::uint32_t i = 0; i < n_free; ++i) {
    slot_of[i] = first[bank_of[i]];
    first[bank_of[i]] = next[slot_of[i]];
  }
  return slot_of;
}

}  // namespace gpuga
