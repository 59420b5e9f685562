#pragma once
// The edges of what validation accepts (the largest island, the most children, the largest
// grid), for the engines' tests: each must either run or be refused before anything is
// allocated, with a message that says the limit; never wrap an index, a sort length or a byte
// count, hang or abort. The tests run them under an address-space limit, so that what they may
// allocate is the same on every machine.
#include <sys/resource.h>

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "gpuga/errors.hpp"
#include "paths.hpp"
#include "gpuga/device/chain.hpp"
#include "gpuga/run_config.hpp"
#include "grids.hpp"
#include "plans.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"

struct LimitCase {
  std::string name;
  gpuga::RunOptions options;
  int box = 3;
  bool fits = false;  // runs under the test's address-space limit
};

inline std::vector<LimitCase> limit_cases() {
  using namespace gpuga;
  const auto ga = [](std::uint32_t pop, std::uint32_t island) {
    RunOptions o;
    o.pop = pop;
    o.island_size = island;
    o.local_search = 2;
    o.seed = 11;
    return o;
  };
  const auto truncation = [&](std::uint32_t island, std::uint32_t children) {
    RunOptions o = ga(island, island);
    o.selection = Selection::Truncation;
    o.children = children;
    return o;
  };
  RunOptions chains = ga(95u << 21, kMaxChains);  // the most chains an island, near --pop's top
  chains.algorithm = Algorithm::Sa;
  std::vector<LimitCase> out = {
      {"the largest island", ga(200000000, 200000000)},
      {"the largest population of small islands", ga(200000000, 2)},
      {"the most children", truncation(2, 2000000000)},
      {"children past the sort's 2^30 keys (4x4)", truncation(2, 1100000000), 2},
      {"children at the sort's 2^30 keys", truncation(2, (1u << 30) - 2)},
      {"the largest grid's largest island", ga(200000000, 200000000), 5},
      {"the most chains", chains, 5},
      {"a large grid's small islands, which fit", truncation(2, 3000), 5, true},
      {"islands of a million, which fit", ga(2000000, 1000000), 2, true},
  };
  return out;
}

// A puzzle of box size `box`: 4x4, 9x9 or 25x25.
inline gpuga::Grid limit_puzzle(int box) {
  if (box == 3) return grid_of(kEasyPuzzle);
  std::istringstream in(box == 2 ? "1.3.3...2..3...1\n" : "");
  if (box == 2) return gpuga::parse_puzzles(in, "4x4")[0].grid;
  return gpuga::read_puzzle_file(source_path("puzzles/acs_25x25_fixed040_inst00-09.txt"))[0].grid;
}

// An address-space limit (ulimit -v) for a scope.
class AddressSpaceLimit {
 public:
  explicit AddressSpaceLimit(std::uint64_t bytes) {
    getrlimit(RLIMIT_AS, &saved_);
    rlimit lower = saved_;
    lower.rlim_cur = bytes;
    setrlimit(RLIMIT_AS, &lower);
  }
  ~AddressSpaceLimit() { setrlimit(RLIMIT_AS, &saved_); }
  AddressSpaceLimit(const AddressSpaceLimit&) = delete;
  AddressSpaceLimit& operator=(const AddressSpaceLimit&) = delete;

 private:
  rlimit saved_{};
};

// Walks limit_cases() on engines that `make` builds: each that fits runs two generations; each
// other is refused by validation or by the engine, with a message naming a limit.
template <class Make>
void expect_every_limit_runs_or_is_refused(const Make& make) {
  using namespace gpuga;
  const AddressSpaceLimit limit(std::uint64_t(3) << 30);
  for (const LimitCase& c : limit_cases()) {
    SCOPED_TRACE(c.name);
    try {
      const EngineParams p = plan_on(c.options, Backend::Cpu, c.box).engine_params();
      auto engine = make(limit_puzzle(c.box), p);
      engine->initialize(1);
      engine->advance_to(2);
      EXPECT_TRUE(c.fits) << "ran";
      const IslandState s = engine->summaries().front().state;
      EXPECT_TRUE(s.clock == 2 || s.solved != kNever) << "at generation " << s.clock;
      std::cout << c.name << ": ran\n";
    } catch (const InputError& e) {
      EXPECT_FALSE(c.fits) << e.what();
      const std::string m = e.what();
      std::cout << c.name << ": " << m << '\n';
      EXPECT_TRUE(m.find("MiB of host memory") != std::string::npos ||
                  m.find("expected at most") != std::string::npos)
          << m;
    }
  }
}
