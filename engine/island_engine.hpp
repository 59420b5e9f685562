#pragma once
// The island engine, written once over a System: where its memory lives and how it launches an
// island step over every island. Three systems instantiate it:
//   engine/host_system.hpp    the CPU backend: host memory, one OpenMP thread per island, a team
//                           of one;
//   cuda/device_system.hpp  the CUDA backend: device memory, one thread block per island, the
//                           island staged in shared memory when it fits;
//                           and, compiled for Thrust's OpenMP system (tests only), a team of
//                           three OpenMP threads with real barriers per island, staged, so that
//                           CI runs the team code and its barriers without a GPU.
// How each step is launched follows from the system's limits (launch_policy.hpp): staged or not,
// a block an island or a lone island on the system's widest team (every CPU thread, or every
// block of the GPU when the island is not staged).
// A System provides: vector<T>; raw, put, get; upload (put, in the order of the launches);
// download (get, on the engine's own stream); prepare(bytes, what); limits(); launch(name,
// launch, step); search_tiles(launch, lanes) (the tiles of `lanes` a launch's teams hold at
// most, each with a tabu search's tables); time(phase, ledger) and settle_timers();
// placement(launch); device_deadline(deadline) (a RunTask's deadline on the clock its teams read).
//
// Per epoch the host uploads one task per run and launches, with no synchronisation between
// them, a segment step and a boundary step per segment; summaries are one record per island.
// On the GPU an engine's launches and uploads go to a stream of its own, so that advance()
// returns without waiting for them, and the engines of a growing run's stages overlap.
// The population never leaves the engine's memory but for tests (population, fitness).
#include <algorithm>
#include <stdexcept>
#include <string>

#include "gpuga/engine.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/device/steps.hpp"
#include "gpuga/launch_policy.hpp"
#include "phase_ledger.hpp"
#include "snapshot_bytes.hpp"

namespace gpuga {

// f.template operator()<Step>() with the segment step that islands of `ga` run (segment_step_of):
// the engine's launches and the CUDA backend's occupancy query choose it here alike.
template <int B, class F>
decltype(auto) with_segment_step(const GaParams& ga, F&& f) {
  switch (segment_step_of(ga)) {
    case SegmentStep::Chains: return f.template operator()<chain_segment_step<B>>();
    case SegmentStep::RepairedGa: return f.template operator()<repaired_ga_segment_step<B>>();
    case SegmentStep::SearchedGa: return f.template operator()<searched_ga_segment_step<B>>();
    case SegmentStep::Ga: break;
  }
  return f.template operator()<ga_segment_step<B>>();
}

// The engine for puzzles of box size B (include/gpuga/device/grid.hpp).
template <class Sys, int B>
class IslandEngine final : public Engine {
  static constexpr int kGenomeBytes = Shape<B>::kGenomeBytes, kCells = Shape<B>::kCells;

 public:
  IslandEngine(const Grid& puzzle, const EngineParams& given, Sys sys,
               std::uint32_t slots)
      : params_(given), layout_(make_layout<B>(given.ga, puzzle.blanks())), sys_(std::move(sys)), slots_(slots),
        islands_(std::uint64_t(slots) * given.islands), clock_(slots, 0) {
    GPUGA_INPUT_CHECK(slots >= 1 && given.islands >= 1 && islands_ <= 0x7FFFFFFFu,
                      std::to_string(slots) + " run(s) of " + std::to_string(given.islands) +
                          " island(s); expected 1 to 2^31-1 islands in all");
    GPUGA_INPUT_CHECK(sort_length(given.ga) <= kMaxSortKeys,
                      "islands of " + std::to_string(given.ga.individuals) + " breeding " +
                          std::to_string(given.ga.children) + " children sort " +
                          std::to_string(sort_length(given.ga)) + " keys; expected at most " +
                          std::to_string(kMaxSortKeys) + " (2^30): lower --island-size" +
                          (layout_.truncation ? " or --children" : ""));
    GPUGA_INPUT_CHECK(!layout_.chains || (given.migration_interval == 0 && layout_.individuals <= kMaxChains),
                      "sa and hc: islands of " + std::to_string(layout_.individuals) + " chains migrating every " +
                          std::to_string(given.migration_interval) + " generations; expected at most " +
                          std::to_string(kMaxChains) + " chains, which never migrate");
    static_assert(kMaxFitness<5> <= 0xFFFF, "fitness_problem's bound: squared runs to 25x25");
    if (const std::string problem = fitness_problem(given.ga, B); !problem.empty()) throw InputError(problem);
    if (const std::string problem = tabu_problem(given.ga); !problem.empty()) throw InputError(problem);
    if (given.ga.repair == Repair::Propagate &&  // the repaired step evaluates no other (breed.hpp)
        (given.ga.encoding != Encoding::Cell || given.ga.fitness != FitnessKind::Conflicts))
      throw std::logic_error("a repaired GA of another encoding or fitness than the cell's conflicts");
    if (given.halt_interval != halt_interval_for(given.ga))  // plan() derives it (island_params.hpp)
      throw std::logic_error("islands halting every " + std::to_string(given.halt_interval) +
                             " generations; their configuration's halt interval is " +
                             std::to_string(halt_interval_for(given.ga)));
    [[maybe_unused]] const auto on = sys_.scope();
    const DeviceLimits limits = sys_.limits();
    check_repair_tile_fits(limits);
    slot_order_ = limits.repair_waves && layout_.repair_lanes ? SlotOrder::Banks : SlotOrder::Cells;
    sys_.prepare(bytes_needed(), "--pop " + std::to_string(std::uint64_t(given.islands) * layout_.individuals) +
                                     (slots > 1 ? " x " + std::to_string(slots) + " runs at once" : ""));
    Sys::resize(records_, islands_ * layout_.bytes);
    Sys::resize(states_, islands_);
    Sys::resize(best_, islands_ * kGenomeBytes);
    Sys::resize(outbox_, islands_ * outbox_bytes<B>(given.migrants));
    Sys::resize(summaries_, islands_);
    Sys::resize(runs_info_, slots);
    Sys::resize(tasks_, slots);
    Sys::resize(solved_, slots);
    if (given.ga.selection == Selection::Rank) {
      const auto cdf = rank_cdf(layout_.individuals, given.rank_pressure);
      Sys::resize(cdf_, cdf.size());
      Sys::put(cdf_, 0, cdf.data(), cdf.size());
    }
    // Each step's launch, sized by the system (a grid: the blocks its kernel keeps resident).
    size_segment(limits);
    const Launch home = launch_of<B>(false, layout_, islands_, limits);
    boundary_ = sys_.template sized<boundary_step<B>>(home);
    summary_ = sys_.template sized<summary_step<B>>(home);
    size_search_tables();
    set_run(0, puzzle, given.ga.seed);
  }

  // The memory goes back on the engine's own device (the members are destroyed after this body).
  ~IslandEngine() override {
    [[maybe_unused]] const auto on = sys_.scope();
    release(records_, best_, outbox_, searches_, states_, summaries_, runs_info_, tasks_, cdf_, solved_);
  }

  std::uint32_t slots() const override { return slots_; }
  const IslandParams& params() const override { return params_; }
  std::string placement() const override { return sys_.placement(segment_); }

  void set_run(std::uint32_t r, const Grid& puzzle, std::uint64_t seed) override {
    [[maybe_unused]] const auto on = sys_.scope();
    GPUGA_INPUT_CHECK(puzzle.box == B, "a puzzle of box size " + std::to_string(puzzle.box) +
                                           " for an engine of box size " + std::to_string(B) +
                                           "; expected one size per engine");
    if (layout_.repair_lanes && puzzle.blanks() > layout_.repair_cells) grow_repair_tiles(puzzle);
    RunInfo<B> info = make_run_info<B>(puzzle.cell.data(), params_, seed, slot_order_);
    info.first_island = first_island_;
    if (link_) info.ring_islands = ring_islands_;
    const std::uint64_t none = 0;
    Sys::put(runs_info_, r, &info, 1);
    Sys::put(solved_, r, &none, 1);
  }

  void advance(const std::vector<RunTask>& tasks) override {
    [[maybe_unused]] const auto on = sys_.scope();
    const auto timer = sys_.time(Phase::Advance, *ledger_);
    std::vector<RunTask> on_device = tasks;
    for (RunTask& t : on_device) t.deadline = sys_.device_deadline(t.deadline);
    sys_.upload(tasks_, 0, on_device.data(), slots_);
    std::uint32_t launches = 0;
    for (std::uint32_t r = 0; r < slots_; ++r) launches = std::max(launches, segments(r, tasks[r]));
    const IslandsView v = view();
    for (std::uint32_t s = 0; s < launches; ++s) {
      with_segment_step<B>(params_.ga, [&]<class Step>() { sys_.launch(Step::kName, segment_, Step{{v, s}}); });
      if (link_) exchange();
      sys_.launch("boundary_step", boundary_, boundary_step<B>{v});
    }
  }

  // Run r's state (Engine::snapshot): the run's clock and solved count, then island after island
  // its state, record, best grid and emigrants, so that the islands of several engines that
  // share a ring (host/mpi) put one after another make the whole run's.
  std::vector<std::uint8_t> snapshot(std::uint32_t r) override {
    [[maybe_unused]] const auto on = sys_.scope();
    std::vector<std::uint8_t> out(kRunSnapshotHeader + params_.islands * island_snapshot_bytes());
    std::uint64_t solved = 0;
    Sys::get(&solved, solved_, r, 1);
    std::uint8_t* at = write_value(out.data(), clock_[r]);
    at = write_value(at, solved);
    const std::uint64_t ob = outbox_bytes<B>(params_.migrants);
    for (std::uint64_t i = std::uint64_t(r) * params_.islands; i < std::uint64_t(r + 1) * params_.islands; ++i) {
      IslandState state;
      Sys::get(&state, states_, i, 1);
      at = write_value(at, state);
      Sys::get(at, records_, i * layout_.bytes, layout_.bytes);
      Sys::get(at + layout_.bytes, best_, i * kGenomeBytes, kGenomeBytes);
      Sys::get(at + layout_.bytes + kGenomeBytes, outbox_, i * ob, ob);
      at += layout_.bytes + kGenomeBytes + ob;
    }
    return out;
  }

  void restore(std::uint32_t r, const std::vector<std::uint8_t>& bytes) override {
    [[maybe_unused]] const auto on = sys_.scope();
    const std::uint64_t want = kRunSnapshotHeader + params_.islands * island_snapshot_bytes();
    GPUGA_INPUT_CHECK(bytes.size() == want, "a run's state of " + std::to_string(bytes.size()) +
                                                " bytes; expected " + std::to_string(want) +
                                                " for this engine's islands");
    const std::uint64_t ob = outbox_bytes<B>(params_.migrants);
    for (const std::uint8_t* at = bytes.data() + kRunSnapshotHeader; at < bytes.data() + want;
         at += island_snapshot_bytes()) {  // every island checked before any is put back
      IslandState state;
      read_value(at, state);
      const std::uint8_t* record = at + sizeof state;
      check_restored_island(state, record, record + layout_.bytes, record + layout_.bytes + kGenomeBytes);
    }
    std::uint64_t solved = 0;
    const std::uint8_t* at = read_value(bytes.data(), clock_[r]);
    at = read_value(at, solved);
    Sys::put(solved_, r, &solved, 1);
    for (std::uint64_t i = std::uint64_t(r) * params_.islands; i < std::uint64_t(r + 1) * params_.islands; ++i) {
      IslandState state;
      at = read_value(at, state);
      Sys::put(states_, i, &state, 1);
      Sys::put(records_, i * layout_.bytes, at, layout_.bytes);
      Sys::put(best_, i * kGenomeBytes, at + layout_.bytes, kGenomeBytes);
      Sys::put(outbox_, i * ob, at + layout_.bytes + kGenomeBytes, ob);
      at += layout_.bytes + kGenomeBytes + ob;
    }
  }

  // A state read from a file (a checkpoint whose checksum holds may still be made up) must not
  // lead an island step past its buffers or into a fault: refused are a buffer side or halt flag
  // other than 0 or 1, a genome value past n (values index bit masks), an order entry past the
  // island, an sa chain's inverse temperature outside 1..kFrozenBeta (the summary divides by
  // it). What passes runs safely, though not necessarily as any run of gpuga would.
  void check_restored_island(const IslandState& s, const std::uint8_t* record,
                             const std::uint8_t* best, const std::uint8_t* outbox) const {
    const auto genomes_fit = [](const std::uint8_t* genomes, std::uint64_t count) {
      for (std::uint64_t j = 0; j < count; ++j)
        for (int c = 0; c < kCells; ++c)
          if (genomes[j * kGenomeBytes + c] > Shape<B>::kSide) return false;
      return true;
    };
    bool ok = s.side <= 1 && s.halted <= 1 && genomes_fit(record + layout_.genomes0, layout_.individuals) &&
              genomes_fit(record + layout_.genomes1, layout_.individuals) && genomes_fit(best, 1) &&
              genomes_fit(outbox, params_.migrants) &&
              (!layout_.truncation || genomes_fit(record + layout_.kids, layout_.children));
    for (std::uint32_t j = 0; ok && j < layout_.individuals; ++j) {
      if (!layout_.chains) {
        std::uint32_t entry;
        read_value(record + layout_.order + std::uint64_t(j) * sizeof entry, entry);
        ok = entry < layout_.individuals;
      } else if (params_.ga.algorithm == Algorithm::Sa) {  // the summary divides by beta
        ChainState chain;
        read_value(record + layout_.chain_states + std::uint64_t(j) * sizeof chain, chain);
        ok = chain.beta >= 1 && chain.beta <= kFrozenBeta;
      }
    }
    GPUGA_INPUT_CHECK(ok, "a run's state that no island could be in (a buffer side, a value or an "
                          "index out of range); expected one gpuga saved");
  }

  void link_ring(RingLink* link, std::uint32_t first_island, std::uint32_t ring_islands) override {
    GPUGA_INPUT_CHECK(slots_ == 1 && first_island + std::uint64_t(params_.islands) <= ring_islands,
                      "islands " + std::to_string(first_island) + " on of a ring of " +
                          std::to_string(ring_islands) + " for an engine of " +
                          std::to_string(slots_) + " run(s) of " + std::to_string(params_.islands) +
                          "; expected one run whose islands fit the ring");
    // A migration must fall on a halt check, where the run halts when an island has solved:
    // otherwise a solved (frozen) island on another process would still be taken from.
    GPUGA_INPUT_CHECK(params_.migration_interval % params_.halt_interval == 0,
                      "--migration-interval " + std::to_string(params_.migration_interval) +
                          ": across processes, expected a multiple of " +
                          std::to_string(params_.halt_interval) + " (this algorithm's halt interval)");
    link_ = link;
    first_island_ = first_island;
    ring_islands_ = ring_islands;
  }

  std::vector<IslandSummary> summaries() override {
    [[maybe_unused]] const auto on = sys_.scope();
    std::vector<IslandSummary> out(islands_);
    {
      const auto timer = sys_.time(Phase::Summary, *ledger_);
      sys_.launch("summary_step", summary_, summary_step<B>{view()});
      sys_.download(out.data(), summaries_, 0, islands_);
    }
    sys_.settle_timers();
    return out;
  }

  Grid best(std::uint32_t run, std::uint32_t island) override {
    [[maybe_unused]] const auto on = sys_.scope();
    std::uint8_t genome[kGenomeBytes];
    Sys::get(genome, best_, (std::uint64_t(run) * params_.islands + island) * kGenomeBytes, kGenomeBytes);
    Grid g(B);
    std::copy_n(genome, kCells, g.cell.begin());
    return g;
  }

  std::vector<std::uint8_t> population(std::uint32_t run) override {
    [[maybe_unused]] const auto on = sys_.scope();
    std::vector<std::uint8_t> out;
    for (std::uint32_t k = 0; k < params_.islands; ++k) {
      const auto genomes =
          live(run, k, layout_.genomes0, layout_.genomes1, std::uint64_t(layout_.individuals) * kGenomeBytes);
      for (std::uint32_t j = 0; j < layout_.individuals; ++j)
        out.insert(out.end(), genomes.begin() + std::uint64_t(j) * kGenomeBytes,
                   genomes.begin() + std::uint64_t(j) * kGenomeBytes + kCells);
    }
    return out;
  }

  std::vector<Fitness> fitness(std::uint32_t run) override {
    [[maybe_unused]] const auto on = sys_.scope();
    std::vector<Fitness> out(std::uint64_t(layout_.individuals) * params_.islands);
    for (std::uint32_t k = 0; k < params_.islands; ++k) {
      const auto bytes = live(run, k, layout_.fit0, layout_.fit1, layout_.individuals * sizeof(Fitness));
      std::copy_n(reinterpret_cast<const Fitness*>(bytes.data()), layout_.individuals, out.begin() + k * layout_.individuals);
    }
    return out;
  }

  PhaseTimes phase_times() override {
    sys_.settle_timers();
    return ledger_->totals();
  }

  void count_phases_on(std::shared_ptr<PhaseLedger> ledger) override {
    sys_.settle_timers();  // what was timed so far counts where it was timed
    ledger_ = std::move(ledger);
  }

 private:
  template <class T>
  using vec = typename Sys::template vector<T>;

  template <class... T>
  static void release(vec<T>&... v) {
    (vec<T>().swap(v), ...);
  }

  // `bytes` of island k of `run`'s buffer at offset0 or offset1, whichever side holds it now.
  std::vector<std::uint8_t> live(std::uint32_t run, std::uint32_t k, std::uint64_t offset0,
                                 std::uint64_t offset1, std::uint64_t bytes) {
    const std::uint64_t i = std::uint64_t(run) * params_.islands + k;
    IslandState s;
    Sys::get(&s, states_, i, 1);
    std::vector<std::uint8_t> out(bytes);
    Sys::get(out.data(), records_, i * layout_.bytes + (s.side ? offset1 : offset0), bytes);
    return out;
  }

  // Launches run r needs for its task; the host follows each run's clock (a run that halts early
  // makes the later launches no-ops for its islands).
  std::uint32_t segments(std::uint32_t r, const RunTask& task) {
    if (task.action == RunAction::Idle) return 0;
    std::uint32_t n = 0;
    if (task.action == RunAction::Init) {
      clock_[r] = 0;
      n = 1;
    }
    while (clock_[r] < task.target) {
      clock_[r] = next_stop(clock_[r], task.target, params_.migration_interval, params_.halt_interval);
      ++n;
    }
    return n;
  }

  std::uint64_t island_snapshot_bytes() const {
    return sizeof(IslandState) + layout_.bytes + kGenomeBytes + outbox_bytes<B>(params_.migrants);
  }

  // A linked ring, between a segment and its boundary step: whether an island has solved
  // anywhere (the boundary step halts on it), and the emigrants of the island before this
  // engine's first in place of its last island's (sent on: they were its successor's).
  void exchange() {
    const std::uint64_t bytes = outbox_bytes<B>(params_.migrants), last = islands_ - 1;
    std::uint64_t solved = 0;
    Sys::get(&solved, solved_, 0, 1);
    std::vector<std::uint8_t> emigrants(bytes);
    if (bytes) Sys::get(emigrants.data(), outbox_, last * bytes, bytes);
    const std::uint64_t anywhere = link_->exchange(solved, emigrants);
    Sys::put(solved_, 0, &anywhere, 1);
    if (bytes) Sys::put(outbox_, last * bytes, emigrants.data(), bytes);
  }

  IslandsView<B> view() {
    return {params_, layout_, Sys::raw(records_), Sys::raw(states_), Sys::raw(best_), Sys::raw(outbox_),
            Sys::raw(runs_info_), Sys::raw(tasks_), cdf_.empty() ? nullptr : Sys::raw(cdf_),
            Sys::raw(summaries_), Sys::raw(solved_), searches_.empty() ? nullptr : Sys::raw(searches_)};
  }

  std::uint64_t bytes_needed() const {
    return islands_ * (layout_.bytes + kGenomeBytes + outbox_bytes<B>(params_.migrants) + sizeof(IslandState) +
                       sizeof(IslandSummary)) +
           std::uint64_t(slots_) * (sizeof(RunInfo<B>) + sizeof(RunTask) + sizeof(std::uint64_t)) +
           (params_.ga.selection == Selection::Rank ? std::uint64_t(layout_.individuals) * sizeof(std::uint64_t) : 0);
  }

  void check_repair_tile_fits(const DeviceLimits& limits) const {
    GPUGA_INPUT_CHECK(repair_tile_fits<B>(layout_, limits),
                      "the repair of a " + std::to_string(B * B) + "x" + std::to_string(B * B) + " child with " +
                          std::to_string(layout_.repair_cells) + " free cells needs " +
                          std::to_string(repair_tile_bytes<B>(layout_.repair_cells) >> 10) +
                          " KiB of shared memory a warp; a block of this device holds " +
                          std::to_string(limits.stage_limit >> 10) +
                          " KiB; expected --repair none or --backend cpu");
  }

  // The segment step's launch for the layout's puzzles: its repair tiles' scratch is sized by
  // the most free cells of the puzzles the engine holds.
  void size_segment(const DeviceLimits& limits) {
    const Launch staged = launch_of<B>(true, layout_, islands_, limits);
    segment_ = with_segment_step<B>(params_.ga, [&]<class Step>() { return sys_.template sized<Step>(staged); });
  }

  // The tabu search's tables, one for each tile the segment's launch runs (island.hpp), kept
  // when they already cover them.
  void size_search_tables() {
    if (!params_.ga.tabu) return;
    const std::uint64_t tables = sys_.search_tiles(segment_, kRepairLanes<B>) * kTabuTableBytes<B>;
    if (tables <= searches_.size()) return;
    sys_.prepare(tables - searches_.size(), "--tabu " + std::to_string(params_.ga.tabu) + " at " +
                                                std::to_string(B * B) + "x" + std::to_string(B * B) +
                                                " (a search's tables a tile)");
    if (!searches_.empty()) {  // the launches in flight end with the tables they were given
      std::uint64_t solved = 0;
      sys_.download(&solved, solved_, 0, 1);
    }
    Sys::resize(searches_, tables);
  }

  // A run's puzzle with more free cells than the engine's others: the segment's launch gives
  // each tile more scratch, so a block may hold fewer (the same bytes: a block of fewer tiles
  // repairs its children in more turns). Runs still going on the other slots keep their bytes.
  void grow_repair_tiles(const Grid& puzzle) {
    const DeviceLimits limits = sys_.limits();
    layout_.repair_cells = puzzle.blanks();
    check_repair_tile_fits(limits);
    size_segment(limits);
    size_search_tables();
  }

  IslandParams params_;
  IslandLayout layout_;
  // Where a tile keeps a free cell's candidates: laid out for the banks where children are
  // repaired by waves of lanes (puzzle_info.hpp), cell order where none reads them.
  SlotOrder slot_order_ = SlotOrder::Cells;
  // Before sys_, whose timers still pending at the end refer to it.
  std::shared_ptr<PhaseLedger> ledger_ = std::make_shared<PhaseLedger>();
  Sys sys_;
  std::uint32_t slots_;
  std::uint64_t islands_;
  Launch segment_, boundary_, summary_;
  std::vector<std::uint32_t> clock_;
  RingLink* link_ = nullptr;
  std::uint32_t first_island_ = 0, ring_islands_ = 0;
  vec<std::uint8_t> records_, best_, outbox_;
  vec<std::uint8_t> searches_;  // --tabu: a search's tables for each tile of a segment's launch
  vec<IslandState> states_;
  vec<IslandSummary> summaries_;
  vec<RunInfo<B>> runs_info_;
  vec<RunTask> tasks_;
  vec<std::uint64_t> cdf_, solved_;
};

// An engine for the puzzle's size on `sys`.
template <class Sys>
std::unique_ptr<Engine> make_island_engine(const Grid& puzzle, const EngineParams& p,
                                           Sys sys, std::uint32_t slots) {
  return with_box_size(puzzle.box, [&]<int B>() -> std::unique_ptr<Engine> {
    return std::make_unique<IslandEngine<Sys, B>>(puzzle, p, std::move(sys), slots);
  });
}

}  // namespace gpuga
