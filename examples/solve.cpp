// A program that uses gpuga as a library: reads the first puzzle of a file, solves it in one call
// (on the GPU when there is one) and prints the grid; a grid that gpuga::solve calls solved has
// been verified against the givens and every unit.
// Build: find_package(gpuga) and link gpuga::gpuga (examples/CMakeLists.txt).
#include <gpuga/sudoku/puzzle_io.hpp>
#include <gpuga/solve.hpp>

#include <exception>
#include <iostream>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " PUZZLE_FILE\n";
    return 2;
  }
  try {
    const gpuga::Puzzle puzzle = gpuga::read_puzzle_file(argv[1]).front();
    gpuga::RunOptions options;  // the defaults of gpuga solve, with a seed and a limit
    options.seed = 1;
    options.max_generations = 2000;
    const gpuga::RunResult result = gpuga::solve(puzzle.grid, options).result;
    std::cout << gpuga::to_pretty(result.best, puzzle.alphabet)
              << (result.solved ? "solved" : "not solved") << " after "
              << result.generations << " generations\n";
    return result.solved ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "solve: " << e.what() << '\n';
    return 2;
  }
}
