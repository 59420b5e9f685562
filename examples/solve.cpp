// A program that uses gpuga as a library: reads the first puzzle of a file, runs the GA on it
// (on the GPU when there is one) and prints the grid, verified against the givens and every unit.
// Build: find_package(gpuga) and link gpuga::gpuga (examples/CMakeLists.txt).
#include <gpuga/backend.hpp>
#include <gpuga/driver.hpp>
#include <gpuga/puzzle_io.hpp>
#include <gpuga/run_config.hpp>
#include <gpuga/verify.hpp>

#include <exception>
#include <iostream>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " PUZZLE_FILE\n";
    return 2;
  }
  try {
    const gpuga::Puzzle puzzle = gpuga::read_puzzle_file(argv[1]).front();
    gpuga::RunConfig config;  // the defaults of gpuga solve, with a seed and a limit
    config.seed = 1;
    config.seed_given = true;
    config.max_generations = 2000;
    const gpuga::Backend backend = gpuga::resolve_backend(config.backend, config.device);
    config.resolve(backend, puzzle.grid.box);
    auto engine = gpuga::make_engine(backend, puzzle.grid, config.islands(), config);
    gpuga::RunObserver quiet;
    const gpuga::RunResult result =
        gpuga::run_many(*engine, {{puzzle.grid, config.seed}}, config.limits(), quiet).front();
    const bool valid = gpuga::verify_solution(puzzle.grid, result.best).ok;
    std::cout << gpuga::to_pretty(result.best, puzzle.alphabet)
              << (result.solved && valid ? "solved" : "not solved") << " after "
              << result.generations << " generations\n";
    return result.solved && valid ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "solve: " << e.what() << '\n';
    return 2;
  }
}
