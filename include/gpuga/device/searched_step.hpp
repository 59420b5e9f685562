#pragma once
// The repaired GA with a tabu search on every repaired grid (--tabu): the search as what follows
// the repair (TabuSearches, the Search of Island::repair), and its segment step, a kernel of its
// own so that the search's registers and tables weigh on no run without it.
#include <cstdint>

#include "gpuga/device/island_steps.hpp"
#include "gpuga/device/tabu.hpp"

namespace gpuga {

template <int B>
struct TabuSearches {
  // The repaired genomes from..to-1 of `island` each tabu-searched (tabu.hpp), a grid a tile of
  // `lanes`, on the tile's tables, those at team.search_tile(lanes) of `searches.tables` (the
  // system sizes them: search_tiles), until searches.deadline at the latest. None where a repair
  // solved the puzzle: that grid is the island's best whatever the searches find, and their
  // steps on the other grids would only delay it.
  // Every thread reads every grid, so all decide alike, and all have read before any search
  // writes one. Returns the moves of every search, which each tile counts in its tables and every
  // thread sums over the team's tiles (theirs follow one another) after the searches.
  template <class Island, class Lanes>
  GPUGA_HD static std::uint64_t after_repair(const Island& island, const Lanes& lanes, std::uint8_t* genomes,
                                             std::uint32_t from, std::uint32_t to, std::uint64_t seed,
                                             std::uint32_t generation, SearchArea searches) {
    constexpr int kGenomeBytes = Shape<B>::kGenomeBytes;
    const auto tables_of = [&](std::uint64_t tile) -> TabuScratch<B>& {
      return *reinterpret_cast<TabuScratch<B>*>(searches.tables + tile * kTabuTableBytes<B>);
    };
    const std::uint64_t mine = island.team.search_tile(lanes);
    TabuScratch<B>& tables = tables_of(mine);
    if (lanes.lane() == 0) tables.moves = 0;
    bool solved = false;
    for (std::uint32_t i = from; i < to && !solved; ++i)
      solved = island.repaired_is_solved(genomes + std::uint64_t(i) * kGenomeBytes);
    island.team.sync();
    if (solved) return 0;
    for (std::uint32_t i = from + lanes.tile(); i < to; i += lanes.tiles()) {
      const std::uint32_t moves =
          tabu_search<B>(lanes, tables, genomes + std::uint64_t(i) * kGenomeBytes, island.info, seed, generation,
                         i, island.params.ga.tabu, island.params.ga.tabu_return, searches.deadline);
      if (lanes.lane() == 0) tables.moves += moves;
    }
    island.team.sync();
    const std::uint64_t first = mine - lanes.tile();
    std::uint64_t moves = 0;
    for (std::uint32_t k = 0; k < lanes.tiles(); ++k) moves += tables_of(first + k).moves;
    return moves;
  }
};

template <int B>
struct searched_ga_segment_step : segment_step<B, GaSegment<B, true, TabuSearches<B>>> {
  static constexpr const char* kName = "searched_ga_segment_step";
};

}  // namespace gpuga
