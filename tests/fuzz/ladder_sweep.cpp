// The rating ladder on generated puzzles of every fill, most of several solutions, under the
// sanitizers of the fuzz build: ladder_sweep COUNT_9x9 COUNT_16x16 rates COUNT_9x9 9x9 puzzles
// spread over the fills 0.2 to 0.8 and COUNT_16x16 16x16 ones, as gpuga generate --fill F
// --seed 1 makes them, each checked as ladder_checks.hpp says. Exit 1 naming the first puzzle
// that failed; a crash or undefined behaviour aborts.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gpuga/sudoku/generate.hpp"
#include "ladder_checks.hpp"

using namespace gpuga;

namespace {

constexpr double kFills[] = {0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8};

// Rates `count` puzzles of box side `box`, a seventh at each fill; whether all held.
bool sweep(int box, std::uint32_t count) {
  for (std::size_t f = 0; f < std::size(kFills); ++f) {
    GenerateSpec spec;
    spec.box = box;
    spec.seed = 1;
    spec.fill = kFills[f];
    spec.count = static_cast<std::uint32_t>(count * (f + 1) / std::size(kFills) - count * f / std::size(kFills));
    if (spec.count == 0) continue;
    for (const Generated& g : generate(spec))
      if (const std::string fault = fuzz::ladder_fault(g.puzzle); !fault.empty()) {
        std::fprintf(stderr, "ladder_sweep: %s, on %s (fill %.1f)\n", fault.c_str(),
                     generated_line(g.puzzle).c_str(), kFills[f]);
        return false;
      }
    std::printf("ladder_sweep: %ux%u fill %.1f: %u puzzles rated\n", box * box, box * box, kFills[f], spec.count);
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: ladder_sweep COUNT_9x9 COUNT_16x16\n");
    return 2;
  }
  const bool held = sweep(3, static_cast<std::uint32_t>(std::atoi(argv[1]))) &&
                    sweep(4, static_cast<std::uint32_t>(std::atoi(argv[2])));
  return held ? 0 : 1;
}
