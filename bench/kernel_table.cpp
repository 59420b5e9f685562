// gpuga_kernel_table: what ptxas reported of every island kernel (registers, stack frame, spills;
// cmake/ptxas-log.sh keeps it beside each object of gpuga_cuda) and the occupancy that allows,
// computed for the defaults table's islands (gpuga/defaults.hpp: the repaired GA's rows for its
// step and the defaults' boundary and summary steps, the plain GA's for the GA's and the chains'
// steps) and the architecture's limits,
// as a Markdown table; no GPU needed.
//
//   gpuga_kernel_table FILE.ptxas...                  the table (bench/ptxas-table.sh)
//   gpuga_kernel_table --check BASELINE FILE.ptxas... also fails (exit 1), saying where, on
//       more registers, more spills or a larger stack frame than BASELINE's, fewer islands per
//       multiprocessor, a kernel it lacks for an architecture it holds, or a repaired GA's
//       kernel below its targets (target_breaches)
//   gpuga_kernel_table --baseline FILE.ptxas...       BASELINE's lines for this build
//
// The GA's island kernels appear again, named KERNEL@N, for each other island size N that their
// rows of the defaults table start runs on (many puzzles at once): the same ptxas figures, the
// occupancy of those islands.
//
// FILE names its box size (engine_cuda_9x9.cu.o.ptxas); BASELINE has one line per kernel: box,
// architecture, kernel, registers (rounded up to the 8 a thread is allocated at a time: a change
// within them moves no occupancy), stack bytes, spill bytes (stores and loads), islands per
// multiprocessor.
#include <cxxabi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "gpuga/defaults.hpp"
#include "gpuga/device/island.hpp"
#include "gpuga/engine.hpp"
#include "gpuga/launch_policy.hpp"
#include "gpuga/run_plan.hpp"

namespace {

using namespace gpuga;

// Per multiprocessor, from the CUDA programming guide's table of compute capabilities. Shared
// bytes: per multiprocessor and the most one block may opt in to; each block also reserves 1 KiB.
struct Arch {
  int sm;
  std::uint64_t shared_per_sm, shared_per_block;
  int threads, blocks;
};
constexpr Arch kArchs[] = {{70, 98304, 98304, 2048, 32},   {75, 65536, 65536, 1024, 16},
                           {80, 167936, 166912, 2048, 32}, {86, 102400, 101376, 1536, 16},
                           {89, 102400, 101376, 1536, 24}, {90, 233472, 232448, 2048, 32}};
constexpr std::uint64_t kRegistersPerSm = 65536, kReservedShared = 1024;
constexpr int kRegisterUnit = 256, kWarp = 32;  // registers go to a warp 256 at a time
constexpr int kTeamThreads = 256;  // cuda/device_system.hpp: a block's most threads

struct Kernel {
  std::string box, arch, name;
  int registers = 0, stack = 0, spill_stores = 0, spill_loads = 0;
  std::uint64_t staged = 0;  // shared bytes of a default island (segment step, when it fits)
  std::uint64_t scratch = 0;   // shared bytes of the repair's tiles (the repaired GA's step)
  int threads = kTeamThreads;  // a block's: the default island's team (team_threads), a grid's most
  int per_sm = 0;            // blocks (islands) at once per multiprocessor; 0: limits unknown
};

std::string demangled(const std::string& mangled) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), std::free);
  std::string s = status == 0 ? out.get() : mangled;
  for (const std::string cut : {"gpuga::device_system::thrust_cuda::", "gpuga::device_system::",
                                "gpuga::", "void "})
    for (std::size_t at; (at = s.find(cut)) != std::string::npos;) s.erase(at, cut.size());
  if (const std::size_t paren = s.find('('); paren != std::string::npos) s.erase(paren);
  s.erase(std::remove(s.begin(), s.end(), ' '), s.end());  // "<x<3> >": one word
  return s;
}

int number_before(const std::string& line, const std::string& word) {
  const std::size_t at = line.find(word);
  if (at == std::string::npos) return 0;
  std::size_t from = line.find_last_not_of(' ', at - 1);
  const std::size_t start = line.find_last_of(' ', from) + 1;
  return std::atoi(line.substr(start, from - start + 1).c_str());
}

// The limits of architecture "90", say, or null when the table lacks them.
const Arch* arch_of(const std::string& arch) {
  const int sm = std::atoi(arch.c_str());
  const auto it = std::find_if(std::begin(kArchs), std::end(kArchs), [&](const Arch& a) { return a.sm == sm; });
  return it == std::end(kArchs) ? nullptr : it;
}

UnitLimits multiprocessor_of(const Arch& arch) {
  return cuda_multiprocessor(arch.sm / 10, arch.blocks, arch.threads, kRegistersPerSm, arch.shared_per_sm,
                             kReservedShared);
}

// A default island of box size `box` on a GPU, one puzzle's or (`size`) another of the table's,
// of the GA (its children repaired or not: the table's rows of each) or of chains (sa and hc
// alike, the plain rows): its staged bytes (in shared memory when they fit the architecture) and
// its team's threads, and the repair's scratch of its block and of a grid's (the repaired GA), for
// a puzzle of any free cells (an empty grid: a tile's most; launch_policy.hpp sizes it for the
// puzzles'). The segment step's kernel from device memory runs the blocks of islands that fill every
// multiprocessor (two of fewer tiles where they run more), its staged kernel an island a
// multiprocessor's (launch_policy.hpp's block_launch_of).
struct DefaultIsland {
  std::uint64_t staged;
  int threads, home_threads;  // its segment step's team, and the boundary and summary steps'
  std::uint64_t scratch, grid_scratch;
  int crowded_threads;  // the segment step's team from device memory, and its scratch
  std::uint64_t crowded_scratch;
};
DefaultIsland default_island(int box, const Arch* arch, std::uint32_t size = 0,
                             Algorithm algorithm = Algorithm::Ga, Repair repair = Repair::Propagate) {
  RunOptions o;
  o.algorithm = algorithm;
  o.repair = algorithm == Algorithm::Ga ? repair : Repair::None;
  o.pop = size ? size : size_defaults(Backend::Cuda, box, *o.repair).island_size;
  o.island_size = o.pop;
  o.seed = 1;
  Target cuda;  // no device asked: the population is given
  cuda.backend = Backend::Cuda;
  cuda.box = box;
  const GaParams ga = plan(o, cuda).engine_params().ga;
  return with_box_size(box, [&]<int B>() {
    const IslandLayout layout = make_layout<B>(ga);
    // The architecture's block: what the repair's tiles fit in (launch_policy.hpp); whether the
    // island stages there too, islands_per_sm decides.
    DeviceLimits limits{.stage_limit = UINT64_MAX, .widest_team = kTeamThreads, .lone = LoneIsland::GridWhenUnstaged};
    if (arch) {
      limits.stage_limit = arch->shared_per_block;
      limits.pair_limit = std::min(arch->shared_per_block, shared_each_of(multiprocessor_of(*arch), 2));
    }
    const Launch block = block_launch_of<B>(true, layout, 1, limits);
    const Launch crowded = block_launch_of<B>(true, layout, kIslandsFillingEveryUnit, limits);
    const Launch home = block_launch_of<B>(false, layout, 1, limits);
    const Launch grid = launch_of<B>(true, layout, 1, {0, kTeamThreads, LoneIsland::Grid});
    return DefaultIsland{staged_bytes<B>(layout), static_cast<int>(block.threads), static_cast<int>(home.threads),
                         block.scratch_bytes, grid.scratch_bytes, static_cast<int>(crowded.threads),
                         crowded.scratch_bytes};
  });
}

// As a plan counts them (launch_policy.hpp's resident_blocks), from the architecture's limits.
int islands_per_sm(const Kernel& k) {
  const Arch* arch = arch_of(k.arch);
  if (!arch) return 0;
  const UnitLimits sm = multiprocessor_of(*arch);
  const std::uint64_t staged = k.staged + k.scratch <= arch->shared_per_block ? k.staged : 0;
  return static_cast<int>(resident_blocks(sm, {std::uint64_t(k.registers), 0}, k.threads, staged + k.scratch));
}

// The island and grid kernels a .ptxas file reports.
std::vector<Kernel> read_report(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot read it; expected a report that cmake/ptxas-log.sh wrote");
  const std::size_t at = path.find("engine_cuda_");
  const std::string box = at == std::string::npos ? "" : path.substr(at + 12, path.find(".cu", at) - at - 12);
  std::vector<Kernel> out;
  Kernel k;
  for (std::string line; std::getline(in, line);) {
    if (const std::size_t entry = line.find("Compiling entry function '"); entry != std::string::npos) {
      const std::size_t from = entry + 26, to = line.find('\'', from);
      k = Kernel{box, line.substr(line.find("'sm_") + 4, 2), demangled(line.substr(from, to - from))};
    } else if (line.find("bytes stack frame") != std::string::npos) {
      k.stack = number_before(line, "bytes stack frame");
      k.spill_stores = number_before(line, "bytes spill stores");
      k.spill_loads = number_before(line, "bytes spill loads");
    } else if (line.find("Used ") != std::string::npos && !k.name.empty()) {
      k.registers = std::atoi(line.substr(line.find("Used ") + 5).c_str());
      const bool island_kernel = k.name.rfind("island_kernel", 0) == 0 ||
                                 k.name.rfind("staged_island_kernel", 0) == 0;
      if ((island_kernel || k.name.rfind("grid_kernel", 0) == 0) && !box.empty()) {
        const int side = std::atoi(box.c_str());
        int b = 2;
        while (b * b < side) ++b;
        const Arch* arch = arch_of(k.arch);
        // Only the segment steps run staged: the GA's with the plain GA's island of the table,
        // the repaired GA's with its own, the chains' with an sa island of the table's size;
        // the others, islands too large for shared memory and the grid from device memory. Every
        // island kernel runs on its step's island's team (the boundary and summary steps on the
        // defaults' island); a grid on the widest blocks.
        const bool plain_step = k.name.find("<ga_segment_step") != std::string::npos;
        // The searched GA's step (--tabu) runs the repaired GA's islands and tiles.
        const bool repaired_step = k.name.find("<repaired_ga_segment_step") != std::string::npos ||
                                   k.name.find("<searched_ga_segment_step") != std::string::npos;
        const bool chain_step = k.name.find("<chain_segment_step") != std::string::npos;
        const Repair rows = plain_step ? Repair::None : Repair::Propagate;
        const DefaultIsland island =
            chain_step ? default_island(b, arch, 0, Algorithm::Sa)
                       : default_island(b, arch, 0, Algorithm::Ga, rows);
        const bool staged_ga = k.name.rfind("staged_island_kernel", 0) == 0 && (plain_step || repaired_step);
        if (k.name.rfind("staged_island_kernel", 0) == 0 && (staged_ga || chain_step))
          k.staged = island.staged;
        const bool home_kernel = k.name.rfind("island_kernel", 0) == 0;
        if (repaired_step)
          k.scratch = !island_kernel ? island.grid_scratch : home_kernel ? island.crowded_scratch : island.scratch;
        if (island_kernel) k.threads = plain_step || repaired_step || chain_step ? island.threads : island.home_threads;
        if (home_kernel && repaired_step) k.threads = island.crowded_threads;
        k.per_sm = islands_per_sm(k);
        out.push_back(k);
        // Other islands of the GA's rows (many puzzles at once): its staged step again, as "@size".
        const std::vector<std::uint32_t> sizes = table_island_sizes(size_defaults(Backend::Cuda, b, rows));
        for (std::size_t i = 1; staged_ga && i < sizes.size(); ++i) {
          const DefaultIsland other = default_island(b, arch, sizes[i], Algorithm::Ga, rows);
          Kernel m = k;
          m.name += "@" + std::to_string(sizes[i]);
          m.staged = other.staged;
          m.scratch = repaired_step ? other.scratch : 0;
          m.threads = other.threads;
          m.per_sm = islands_per_sm(m);
          out.push_back(m);
        }
      }
      k.name.clear();
    }
  }
  return out;
}

std::string key(const Kernel& k) { return k.box + " " + k.arch + " " + k.name; }

// Breaches of the baseline, one line each.
std::vector<std::string> check(const std::vector<Kernel>& kernels, const std::string& baseline) {
  std::ifstream in(baseline);
  if (!in) throw std::runtime_error(baseline + ": cannot read it; expected gpuga_kernel_table --baseline's lines");
  struct Allowed {
    int registers = 0, stack = 0, spills = 0, per_sm = 0;
  };
  std::map<std::string, Allowed> allowed;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream f(line);
    std::string box, arch, name;
    Allowed a;
    f >> box >> arch >> name >> a.registers >> a.stack >> a.spills >> a.per_sm;
    allowed[box + " " + arch + " " + name] = a;
  }
  std::vector<std::string> breaches;
  for (const Kernel& k : kernels) {
    const auto it = allowed.find(key(k));
    if (it == allowed.end()) {
      // An architecture the baseline does not hold (a build for sm_86, say) is only reported.
      const bool arch_known = std::any_of(allowed.begin(), allowed.end(), [&](const auto& a) {
        return a.first.rfind(k.box + " " + k.arch + " ", 0) == 0;
      });
      if (arch_known) breaches.push_back(key(k) + ": not in " + baseline + "; expected a line for every kernel");
      else std::cerr << "gpuga_kernel_table: " << key(k) << ": no baseline for sm_" << k.arch << ", not checked\n";
      continue;
    }
    const Allowed& a = it->second;
    if (k.registers > a.registers)
      breaches.push_back(key(k) + ": " + std::to_string(k.registers) + " registers; expected at most " +
                         std::to_string(a.registers));
    if (k.spill_stores + k.spill_loads > a.spills)
      breaches.push_back(key(k) + ": " + std::to_string(k.spill_stores + k.spill_loads) +
                         " bytes of spills; expected at most " + std::to_string(a.spills));
    if (k.stack > a.stack)
      breaches.push_back(key(k) + ": a stack frame of " + std::to_string(k.stack) + " bytes; expected at most " +
                         std::to_string(a.stack));
    if (k.per_sm < a.per_sm)
      breaches.push_back(key(k) + ": " + std::to_string(k.per_sm) + " islands per multiprocessor; expected at least " +
                         std::to_string(a.per_sm));
  }
  return breaches;
}

// Occupancy: the warps of the blocks resident at once over the most a multiprocessor holds.
int occupancy_percent(const Kernel& k) {
  const Arch* arch = arch_of(k.arch);
  return arch ? 100 * k.per_sm * (k.threads / kWarp) / (arch->threads / kWarp) : 0;
}

// The repaired GA's targets, whatever the baseline says: its staged step at its default island on
// sm_90 (the H100 and H200) at least 50 % occupancy up to 16x16 and 25 % at 25x25 (the repair's
// tiles hide the latency of its barriers and shared memory with warps of other islands; from
// 36x36 a block's tiles fill its shared memory, and the baseline holds what they reach), and no
// kernel of the step with a larger stack frame than the plain GA's of its box, architecture and
// kind: the repair keeps its state in shared memory, not in local memory.
std::vector<std::string> target_breaches(const std::vector<Kernel>& kernels) {
  std::vector<std::string> breaches;
  const std::string repaired = "repaired_ga_segment_step";
  for (const Kernel& k : kernels) {
    const std::size_t at = k.name.find(repaired);
    if (at == std::string::npos) continue;
    const int side = std::atoi(k.box.c_str()), want = side == 25 ? 25 : 50;
    if (side <= 25 && k.arch == "90" && k.name.rfind("staged_island_kernel", 0) == 0 &&
        k.name.find('@') == std::string::npos && occupancy_percent(k) < want)
      breaches.push_back(key(k) + ": " + std::to_string(occupancy_percent(k)) + " % occupancy; expected at least " +
                         std::to_string(want) + " %");
    std::string plain_name = k.name;
    plain_name.replace(at, repaired.size(), "ga_segment_step");
    const auto plain = std::find_if(kernels.begin(), kernels.end(), [&](const Kernel& p) {
      return p.box == k.box && p.arch == k.arch && p.name == plain_name;
    });
    if (plain != kernels.end() && k.stack > plain->stack)
      breaches.push_back(key(k) + ": a stack frame of " + std::to_string(k.stack) + " bytes; expected at most the plain GA's " +
                         std::to_string(plain->stack));
  }
  return breaches;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string baseline, mode;
  if (args.size() >= 2 && args[0] == "--check") baseline = args[1], args.erase(args.begin(), args.begin() + 2);
  else if (!args.empty() && args[0] == "--baseline") mode = "baseline", args.erase(args.begin());
  if (args.empty()) {
    std::cerr << "usage: gpuga_kernel_table [--check BASELINE | --baseline] FILE.ptxas...\n";
    return 2;
  }
  try {
    std::vector<Kernel> kernels;
    for (const std::string& path : args)
      for (const Kernel& k : read_report(path)) kernels.push_back(k);
    if (mode == "baseline") {
      std::cout << "# box arch kernel, then at most: registers (in 8s), stack bytes, spill bytes; at "
                   "least: islands per multiprocessor (gpuga_kernel_table --baseline)\n";
      for (const Kernel& k : kernels)
        std::cout << key(k) << ' ' << (k.registers + kRegisterUnit / kWarp - 1) / (kRegisterUnit / kWarp) * (kRegisterUnit / kWarp) << ' ' << k.stack << ' ' << k.spill_stores + k.spill_loads << ' ' << k.per_sm << '\n';
      return 0;
    }
    std::cout << "| box | arch | kernel | registers | stack (B) | spill stores (B) | spill loads (B) | "
                 "staged island (B) | repair scratch (B) | threads a block | islands per SM | occupancy |\n"
                 "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    for (const Kernel& k : kernels)
      std::cout << "| " << k.box << " | " << k.arch << " | " << k.name << " | " << k.registers << " | " << k.stack
                << " | " << k.spill_stores << " | " << k.spill_loads << " | " << (k.staged ? std::to_string(k.staged) : "-")
                << " | " << (k.scratch ? std::to_string(k.scratch) : "-") << " | " << k.threads << " | " << k.per_sm << " | "
                << (arch_of(k.arch) ? std::to_string(occupancy_percent(k)) + " %" : "-") << " |\n";
    if (baseline.empty()) return 0;
    auto breaches = check(kernels, baseline);
    for (const std::string& b : target_breaches(kernels)) breaches.push_back(b);
    for (const auto& b : breaches) std::cerr << "gpuga_kernel_table: " << b << '\n';
    if (kernels.empty()) std::cerr << "gpuga_kernel_table: no island kernel in the reports\n";
    return breaches.empty() && !kernels.empty() ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "gpuga_kernel_table: " << e.what() << '\n';
    return 2;
  }
}
