// gpuga generate --size N --count K --seed S [--fill F] [--unique] [--rating BAND]: puzzles made
// to order, one a line, after a comment that names the generator and its arguments
// (gpuga/sudoku/generate.hpp).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "cli_run_config.hpp"
#include "commands.hpp"
#include "gpuga/sudoku/deduction.hpp"
#include "gpuga/driver.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/sudoku/generate.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"
#include "gpuga/version.hpp"

namespace gpuga {
namespace {

struct GenerateOptions {
  std::optional<int> size, box;
  std::uint32_t count = 1;
  std::uint64_t seed = 1;
  std::optional<double> fill;
  bool unique = false;
  std::optional<std::string> rating;
};

// A line on stderr every 5 s once a run has taken 2 s, from a thread of its own so that it comes
// while a slow puzzle is being made: how many puzzles are written.
class GenerateProgress {
 public:
  GenerateProgress(std::uint32_t count, bool rated) : count_(count), rated_(rated), ticker_([this] { tick(); }) {}
  ~GenerateProgress() { finish(); }
  void wrote_one(std::uint32_t tries) {
    ++written_;
    tried_ += tries;
  }
  // The last line, where any was said.
  void finish() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (done_) return;
      done_ = true;
    }
    wake_.notify_all();
    ticker_.join();
    if (said_ && written_ != said_written_) say();
  }
  std::uint32_t written() const { return written_; }

 private:
  void tick() {
    std::unique_lock<std::mutex> lock(mutex_);
    auto next = t0_ + std::chrono::seconds(2);
    while (!wake_.wait_until(lock, next, [this] { return done_; })) {
      say();
      said_ = true;
      next += std::chrono::seconds(5);
    }
  }
  void say() {
    said_written_ = written_;
    const double now = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    if (rated_)
      std::fprintf(stderr, "generate: %u of %u puzzles written (%llu grids rated), %.0f s\n", written_.load(),
                   count_, static_cast<unsigned long long>(tried_.load()), now);
    else
      std::fprintf(stderr, "generate: %u of %u puzzles written, %.0f s\n", written_.load(), count_, now);
  }
  std::uint32_t count_;
  bool rated_;
  std::atomic<std::uint32_t> written_{0};
  std::atomic<std::uint64_t> tried_{0};
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false, said_ = false;
  std::uint32_t said_written_ = 0;  // the count the last line gave
  std::thread ticker_;
};

// The comment that heads the puzzles: the generator and its arguments.
std::string header_line(const GenerateSpec& spec, const GenerateOptions& o) {
  std::ostringstream line;
  line << "# gpuga generate --size " << spec.box * spec.box << " --count " << spec.count << " --seed "
       << spec.seed;
  if (spec.fill) line << " --fill " << *spec.fill;
  if (spec.unique) line << " --unique";
  if (o.rating) line << " --rating '" << *o.rating << "'";
  line << "  (gpuga " << GPUGA_VERSION << ")";
  return line.str();
}

// A puzzle's lines: with a rating band, a comment with its score and its hardest technique
// (which readers skip), then the puzzle.
std::string puzzle_lines(const Generated& g, const GenerateSpec& spec) {
  std::string text;
  if (spec.rating) {
    char score[16];
    std::snprintf(score, sizeof score, "%.1f", g.score);
    text = std::string("# rating ") + score + " " + rating_word(g.score) + ": " + g.technique + "\n";
  }
  return text + generated_line(g.puzzle) + "\n";
}

int run_generate(GenerateOptions& o) {
  GPUGA_INPUT_CHECK(!(o.size && o.box), "--size and --box both given; expected one of them");
  GenerateSpec spec;
  if (o.box) spec.box = *o.box;
  if (o.size) {
    spec.box = box_of_size(*o.size);
    GPUGA_INPUT_CHECK(spec.box, "--size " + std::to_string(*o.size) + ": expected 4, 9, 16, 25, 36, 49 or 64");
  }
  spec.count = o.count;
  spec.seed = o.seed;
  spec.fill = o.fill;
  spec.unique = o.unique;
  if (o.rating) spec.rating = rating_band(*o.rating, "--rating");
  check_spec(spec);
  install_interrupt_handler();
  if ((spec.unique || spec.rating) && !spec.fill && spec.box == 5)
    std::fprintf(stderr, "generate: a minimal 25x25 puzzle takes minutes (a cell is emptied only "
                         "once no second solution is proven without it, 625 proofs, the last "
                         "ones hard); --unique --fill 0.5 makes one in a fraction of a second\n");
  // Each puzzle written and flushed as soon as it and those before it are made, the header with
  // the first: a puzzle not found, or a signal, keeps every one written, and a first puzzle not
  // found leaves no output at all.
  GenerateProgress progress(spec.count, spec.rating.has_value());
  const auto write = [&](const Generated& g) {
    if (progress.written() == 0) std::cout << header_line(spec, o) << '\n';
    std::cout << puzzle_lines(g, spec) << std::flush;
    progress.wrote_one(g.tries);
  };
  generate(spec, 0, spec.count, write, [] { return g_interrupted.load(); });
  progress.finish();
  if (g_interrupted.load()) {
    std::fprintf(stderr, "generate: interrupted: %u of %u puzzles written, each whole; the same "
                 "arguments make the same puzzles again\n", progress.written(), spec.count);
    return kExitInterrupted;
  }
  return kExitOk;
}

}  // namespace

void add_generate_command(CLI::App& app, int& exit_status) {
  auto o = std::make_shared<GenerateOptions>();
  auto* cmd = app.add_subcommand(
      "generate", "Make puzzles: a grid drawn from the seed, then givens removed in a seeded "
                  "order, to a fraction of cells given (--fill) or while exactly one solution "
                  "remains (--unique), or both, or minimal puzzles of a rating (--rating); one a "
                  "line on stdout");
  cmd->add_option("--size", o->size, "Puzzle side: 4, 9, 16, 25, 36, 49 or 64 (default 9)")
      ->check(one_of({"4", "9", "16", "25", "36", "49", "64"}));
  cmd->add_option("--box", o->box, "Box side instead of --size: 2 to 8")
      ->check(whole_number_in(2, 8));
  cmd->add_option("--count", o->count, "Puzzles to make")->check(whole_number_in(1, 100000000))
      ->capture_default_str();
  cmd->add_option("--seed", o->seed, "Random seed: the same arguments give the same puzzles")
      ->check(setting_validator(*find_setting("seed")))->capture_default_str();
  cmd->add_option("--fill", o->fill, "Fraction of cells given, 0 to 1 (to within one cell)");
  cmd->add_flag("--unique", o->unique, "Givens removed only while exactly one solution remains "
                "(with --fill: down to it, else until none can go: a minimal puzzle)");
  cmd->add_option("--rating", o->rating, "Minimal puzzles (--unique) whose rating score (as gpuga "
                  "rate's, by the techniques alone) lies in LO-HI, e.g. 7-8, or in a word's band: "
                  "easy, medium, hard, 'very hard', extreme; each after a comment with its score "
                  "and hardest technique");
  cmd->callback([o, &exit_status] { exit_status = run_generate(*o); });
}

}  // namespace gpuga
