// gpuga generate --size N --count K --seed S [--fill F] [--unique] [--rating BAND]: puzzles made
// to order, one a line, after a comment that names the generator and its arguments
// (gpuga/generate.hpp).
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>

#include "cli_run_config.hpp"
#include "commands.hpp"
#include "gpuga/deduction.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/generate.hpp"
#include "gpuga/puzzle_io.hpp"
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

// A line on stderr at most every 5 s once a run has taken 2 s: how many puzzles are made.
class GenerateProgress {
 public:
  GenerateProgress(std::uint32_t count, bool rated) : count_(count), rated_(rated) {}
  void made_one(std::uint32_t tries) {
    ++made_;
    tried_ += tries;
    const double now = seconds();
    if (now < 2 || now - said_ < 5) return;
    said_ = now;
    say(now);
  }
  // The last line, where any was said.
  void done() const {
    if (said_ > 0) say(seconds());
  }

 private:
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }
  void say(double now) const {
    if (rated_)
      std::fprintf(stderr, "generate: %u of %u puzzles made (%llu grids rated), %.0f s\n", made_, count_,
                   static_cast<unsigned long long>(tried_), now);
    else
      std::fprintf(stderr, "generate: %u of %u puzzles made, %.0f s\n", made_, count_, now);
  }
  std::uint32_t count_;
  bool rated_;
  std::uint32_t made_ = 0;
  std::uint64_t tried_ = 0;
  double said_ = 0;
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

// The puzzles, a line each; with a rating band, each after a comment with its score and its
// hardest technique (which readers skip).
void write_puzzles(const std::vector<Generated>& made, const GenerateSpec& spec) {
  for (const Generated& g : made) {
    if (spec.rating) {
      char score[16];
      std::snprintf(score, sizeof score, "%.1f", g.score);
      std::cout << "# rating " << score << " " << rating_word(g.score) << ": " << g.technique << '\n';
    }
    std::cout << generated_line(g.puzzle) << '\n';
  }
  std::cout << std::flush;
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
  std::cout << "# gpuga generate --size " << spec.box * spec.box << " --count " << spec.count
            << " --seed " << spec.seed;
  if (spec.fill) std::cout << " --fill " << *spec.fill;
  if (spec.unique) std::cout << " --unique";
  if (o.rating) std::cout << " --rating '" << *o.rating << "'";
  std::cout << "  (gpuga " << GPUGA_VERSION << ")\n";
  if ((spec.unique || spec.rating) && !spec.fill && spec.box == 5)
    std::fprintf(stderr, "generate: a minimal 25x25 puzzle takes minutes (a cell is emptied only "
                         "once no second solution is proven without it, 625 proofs, the last "
                         "ones hard); --unique --fill 0.5 makes one in a fraction of a second\n");
  GenerateProgress progress(spec.count, spec.rating.has_value());
  // In blocks, each written as soon as it is made: a refusal keeps the puzzles before it.
  constexpr std::uint32_t kBlock = 256;
  std::vector<Generated> made;
  for (std::uint32_t first = 0; first < spec.count; first += kBlock) {
    const std::uint32_t last = std::min(spec.count, first + kBlock);
    try {
      generate(spec, first, last, made, [&progress](const Generated& g) { progress.made_one(g.tries); });
    } catch (...) {
      write_puzzles(made, spec);
      throw;
    }
    write_puzzles(made, spec);
  }
  progress.done();
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
