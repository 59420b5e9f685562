#pragma once
// Simulated annealing (sa) and hill climbing (hc) on the island engine: every individual of an
// island is an independent chain that makes moves (operators.hpp: propose_move, the GA's
// mutation) scored by their fitness change (operators.hpp: UnitCounts, the units counted once a
// sweep), accepted by the Metropolis rule in integer arithmetic (below). A generation is a sweep: each chain proposes as many moves as the puzzle has free
// cells. hc accepts a move that does not make the grid worse and restarts a climb that has not
// got better for --restart-after sweeps; sa accepts a worsening d with probability exp(-d / T),
// cools T geometrically every chain length, and reheats a chain to the initial temperature after
// --reheat-after temperatures without a new best. Each chain keeps its best grid (side 1 of the
// island's record).
//
// A chain's moves depend only on (island seed, sweep, chain index), and a chain that reaches
// fitness 0 stops; the island's best is the first chain to reach the lowest fitness (ties: the
// lower index). So the island's figures do not depend on where segments end. Chains do not
// migrate; a solved island runs on to its run's halt check with the rest. Their segment step is
// the engine's (island_steps.hpp) over ChainSegment below.
#include <cmath>
#include <cstdint>

#include "gpuga/device/island_steps.hpp"

namespace gpuga {

// exp(-x) for x >= 0 in 32.32 fixed point, as a 32.32 fixed-point number: exp(-x / 4096) by its
// Taylor series to the fourth power (error below 1e-16), squared twelve times, all in 2.62
// fixed point. Integers only, so host and device compute the same bits.
GPUGA_HD_INLINE std::uint64_t exp_neg_fixed(std::uint64_t x) {
  constexpr std::uint64_t kOne = std::uint64_t(1) << 62;
  if (x >= std::uint64_t(23) << 32) return 0;  // exp(-23) * 2^32 < 1
  const std::uint64_t z = x << 18;             // x / 4096 in 2.62 (x < 2^37)
  auto mul = [](std::uint64_t a, std::uint64_t b) { return mul_hi_64(a, b) << 2; };
  const std::uint64_t z2 = mul(z, z), z3 = mul(z2, z), z4 = mul(z3, z);
  std::uint64_t y = kOne - z + z2 / 2 - z3 / 6 + z4 / 24;
  for (int k = 0; k < 12; ++k) y = mul(y, y);
  return y >> 30;
}

// The acceptance threshold of a worsening by d >= 1 at inverse temperature beta (32.32): a 32-bit
// draw below it accepts, which happens with probability exp(-d * beta). `accept1` is
// exp_neg_fixed(beta), that of d = 1; exp(-d beta) = exp(-beta)^d.
GPUGA_HD_INLINE std::uint64_t accept_threshold(std::uint64_t accept1, int d) {
  std::uint64_t t = accept1;
  for (int k = 1; k < d && t; ++k) t = (t * accept1) >> 32;
  return t;
}

// beta after one cooling step (temperature times `cooling`), saturated where no worsening is
// accepted any more (exp(-2^8) = 0 in 32 bits).
inline constexpr std::uint64_t kFrozenBeta = std::uint64_t(1) << 40;

GPUGA_HD_INLINE std::uint64_t cool(std::uint64_t beta, std::uint64_t cooling_step) {
  const std::uint64_t next = beta + (mul_hi_64(beta, cooling_step) << 1);
  return next < kFrozenBeta ? next : kFrozenBeta;
}

GPUGA_HD_INLINE std::uint32_t accept1_of(std::uint64_t beta) {
  const std::uint64_t a = exp_neg_fixed(beta);
  return a < 0xFFFFFFFFu ? static_cast<std::uint32_t>(a) : 0xFFFFFFFFu;
}

// The moves of a random walk from a random grid whose costs set the initial temperature.
inline constexpr int kTemperatureSample = 200;

// Host only. The initial temperature of sa on a puzzle: the standard deviation of the cost along
// kTemperatureSample random moves from a random grid (as Lewis, 2007), at least 1/16.
template <int B>
inline double initial_temperature(const PuzzleInfo<B>& info, const GaParams& ga, std::uint64_t seed) {
  Rng rng(seed, 0, 0, kPurposeTemperature);
  std::uint8_t grid[Shape<B>::kGenomeBytes] = {};
  init_individual<B>(grid, info, ga.encoding, ga.given_aware, rng);
  double cost = fitness<B>(grid, ga.encoding, ga.fitness), sum = 0, squares = 0;
  for (int k = 0; k < kTemperatureSample; ++k) {
    const Move move = propose_move<B>(grid, info, ga.encoding, ga.given_aware, rng);
    cost += move_delta<B>(grid, move, ga.encoding, ga.fitness);
    apply_move(grid, move);
    sum += cost;
    squares += cost * cost;
  }
  const double mean = sum / kTemperatureSample;
  const double spread = std::sqrt(std::fmax(squares / kTemperatureSample - mean * mean, 0.0));
  return std::fmax(spread, 1.0 / 16);
}

// Host only. What every island of a run needs to know: the puzzle, and for chains the moves per
// sweep (the free cells), the chain length (by default a sweep: one temperature a generation)
// and the initial inverse temperature.
template <int B>
inline RunInfo<B> make_run_info(const std::uint8_t* puzzle, const IslandParams& params,
                                std::uint64_t seed, SlotOrder slots = SlotOrder::Banks) {
  RunInfo<B> run;
  run.info = make_puzzle_info<B>(puzzle, params.ga.encoding, slots);
  run.seed = seed;
  run.ring_islands = params.islands;
  const std::uint32_t free = run.info.n_free;
  run.sweep = free ? free : 1;
  run.chain_length = params.anneal.chain_length ? params.anneal.chain_length : run.sweep;
  if (params.ga.algorithm == Algorithm::Sa) {
    const double beta = 4294967296.0 / initial_temperature<B>(run.info, params.ga, seed);
    run.beta0 = beta < double(kFrozenBeta) ? static_cast<std::uint64_t>(beta) : kFrozenBeta;
  }
  return run;
}

// One island's chains: its record (work or home) seen through Island's accessors, over a Team
// (island.hpp); each chain belongs to the thread whose share (island.hpp) holds it.
template <class Team, int B>
struct Chains {
  Island<Team, B> isl;    // the record: side 0 the current grids and fitness, side 1 the bests
  const RunInfo<B>& run;  // beta0, chain_length, sweep

  GPUGA_HD ChainState* chain_states() const {
    return reinterpret_cast<ChainState*>(isl.rec + isl.layout.chain_states);
  }

  // The values the team's threads hold (each its own) combined by `op` (min, sum), known to every
  // thread; `none` is op's identity.
  template <class Op>
  GPUGA_HD std::uint64_t team_reduce(std::uint64_t mine, std::uint64_t none, const Op& op) const {
    // The ranks that own chains (keys has room for them: sort_n >= n).
    const std::uint32_t owners = isl.team.size() < isl.layout.sort_n ? isl.team.size() : isl.layout.sort_n;
    if (isl.team.rank() < owners) isl.keys()[isl.team.rank()] = mine;
    isl.team.sync();
    std::uint64_t all = none;
    for (std::uint32_t rank = 0; rank < owners; ++rank) all = op(all, isl.keys()[rank]);
    isl.team.sync();
    return all;
  }
  GPUGA_HD std::uint64_t team_min(std::uint64_t mine) const {
    return team_reduce(mine, ~std::uint64_t(0),
                       [](std::uint64_t a, std::uint64_t b) { return b < a ? b : a; });
  }
  GPUGA_HD std::uint64_t team_sum(std::uint64_t mine) const {
    return team_reduce(mine, 0, [](std::uint64_t a, std::uint64_t b) { return a + b; });
  }

  // A chain's best so far, if `cost` beats it.
  GPUGA_HD void keep_best(std::uint32_t i, int cost, std::uint32_t sweep, ChainState& chain) const {
    if (cost >= isl.fit(1)[i]) return;
    isl.fit(1)[i] = static_cast<Fitness>(cost);
    copy_genome<B>(isl.genome(1, i), isl.genome(0, i));
    chain.best_sweep = sweep;
    chain.stalled = 0;
  }

  // sa: the next temperature, or the first again when the chain has stalled too long.
  GPUGA_HD void next_temperature(ChainState& chain) const {
    chain.level_moves = 0;
    chain.beta = cool(chain.beta, isl.params.anneal.cooling_step);
    if (isl.params.anneal.reheat_after && ++chain.stalled > isl.params.anneal.reheat_after) {
      chain.beta = run.beta0;
      chain.stalled = 0;
      ++chain.restarts;
    }
    chain.accept1 = accept1_of(chain.beta);
  }

  // Chain i's sweep `generation` (>= 1): an hc restart when one is due, then run.sweep moves, or fewer
  // when it reaches fitness 0 (a chain at 0 makes no more).
  GPUGA_HD void sweep(std::uint32_t i, std::uint64_t seed, std::uint32_t generation) const {
    int cost = isl.fit(0)[i];
    if (cost == 0) return;
    // The chain's state stays in the island's memory; a move reads only the locals below. Held
    // whole in registers through the moves (eight words), it made the step spill at 64 registers.
    ChainState& chain = chain_states()[i];
    const bool hc = isl.params.ga.algorithm == Algorithm::Hc;
    std::uint8_t* cur = isl.genome(0, i);
    if (hc && isl.params.restart_after && generation - chain.last_improvement > isl.params.restart_after) {
      init_genome<B>(cur, i, seed, generation, isl.params.ga, isl.info);  // chains are never repaired
      cost = evaluate<B>(cur, isl.params.ga, nullptr);
      ++chain.restarts;
      chain.last_improvement = generation;
      keep_best(i, cost, generation, chain);
    }
    // The settings in locals: stores to the grid (bytes) may alias anything, so the compiler
    // would otherwise reload them after every move.
    const Encoding encoding = isl.params.ga.encoding;
    const FitnessKind kind = isl.params.ga.fitness;
    const bool aware = isl.params.ga.given_aware;
    // Counted down, and the run's figures read again where they are needed: fewer registers.
    std::uint32_t accept1 = chain.accept1, level_left = run.chain_length - chain.level_moves;
    // The generator in registers at every size (RngFor keeps 25x25's in local memory for the
    // GA's step): the chains' staged step holds it at 64 registers without a spill, and at
    // 25x25 it took the stack frame from 120 bytes to 72, one local load a draw fewer.
    RngOf<true> rng(seed, generation, i, kPurposeMove);
    UnitCounts<B> counts;
    counts.count(cur, encoding, kind);
    for (std::uint32_t left = run.sweep; left > 0 && cost > 0; --left) {
      const Move move = propose_move<B>(cur, isl.info, encoding, aware, rng);
      const int delta = counts.delta(cur, move, encoding, kind);
      if (move.a >= 0 && (delta <= 0 || (!hc && rng.next() < accept_threshold(accept1, delta)))) {
        counts.apply(cur, move, encoding, kind);
        apply_move(cur, move);
        cost += delta;
        ++chain.accepted;
        if (delta < 0) chain.last_improvement = generation;
        keep_best(i, cost, generation, chain);
      }
      if (!hc && --level_left == 0) {
        next_temperature(chain);
        accept1 = chain.accept1;
        level_left = run.chain_length;
      }
    }
    isl.fit(0)[i] = static_cast<Fitness>(cost);
    chain.level_moves = run.chain_length - level_left;
  }

  // After the chains moved: the island's restarts (hc) or reheats (sa), and its best so far: the
  // lowest of the chains' bests, and of the chains that hold it the lowest (sweep, index) key,
  // its grid copied to `best_grid` when it is new.
  GPUGA_HD void note(IslandState& state, bool first, std::uint8_t* best_grid) const {
    std::uint64_t low = ~std::uint64_t(0), key = ~std::uint64_t(0), restarts = 0;
    for (const std::uint32_t i : share(isl.team, isl.layout.individuals)) {
      low = isl.fit(1)[i] < low ? isl.fit(1)[i] : low;
      restarts += chain_states()[i].restarts;
    }
    const Fitness best = static_cast<Fitness>(team_min(low));
    for (const std::uint32_t i : share(isl.team, isl.layout.individuals)) {
      const std::uint64_t candidate = std::uint64_t(chain_states()[i].best_sweep) << 21 | i;
      key = isl.fit(1)[i] == best && candidate < key ? candidate : key;
    }
    key = team_min(key);
    state.restarts = static_cast<std::uint32_t>(team_sum(restarts));
    if (!first && best >= state.best_ever) return;
    state.best_ever = best;
    state.last_improvement = static_cast<std::uint32_t>(key >> 21);
    if (best == 0) state.solved = state.last_improvement;
    const auto chain = static_cast<std::uint32_t>(key & (kMaxChains - 1));
    team_copy(isl.team, best_grid, isl.genome(1, chain), Shape<B>::kGenomeBytes);
  }

  // Generation 0: a random grid per chain, its own best, at the initial temperature.
  GPUGA_HD void init(IslandState& state, std::uint64_t seed, std::uint8_t* best_grid) const {
    state = IslandState{};
    state.seed = seed;
    state.evaluations = isl.layout.individuals;
    for (const std::uint32_t i : share(isl.team, isl.layout.individuals)) {
      init_genome<B>(isl.genome(0, i), i, seed, 0, isl.params.ga, isl.info);
      isl.fit(0)[i] = isl.fit(1)[i] = evaluate<B>(isl.genome(0, i), isl.params.ga, nullptr);
      copy_genome<B>(isl.genome(1, i), isl.genome(0, i));
      ChainState fresh{};
      fresh.beta = run.beta0;
      fresh.accept1 = accept1_of(fresh.beta);
      chain_states()[i] = fresh;
    }
    isl.team.sync();
    note(state, true, best_grid);
  }

  // Sweeps from + 1 .. to of every chain (then advance, with the island's state read again).
  GPUGA_HD void sweeps(std::uint64_t seed, std::uint32_t from, std::uint32_t to) const {
    for (const std::uint32_t i : share(isl.team, isl.layout.individuals))
      for (std::uint32_t generation = from + 1; generation <= to; ++generation) sweep(i, seed, generation);
    isl.team.sync();
  }
  // After the sweeps to `to`: evaluations count every move of every chain; the island's best.
  GPUGA_HD void advance(IslandState& state, std::uint32_t to, std::uint8_t* best_grid) const {
    state.evaluations += std::uint64_t(isl.layout.individuals) * run.sweep * (to - state.clock);
    note(state, false, best_grid);
  }

  // The island now: best and worst current fitness (best_index: its chain), their sum, the
  // diversity sample's distances to the best chain, and (sa) the sum of the temperatures.
  GPUGA_HD void summarize(IslandSummary& out, const IslandState& state) const {
    std::uint64_t low = ~std::uint64_t(0), high = ~std::uint64_t(0), temperature = 0;
    for (const std::uint32_t i : share(isl.team, isl.layout.individuals)) {
      const Fitness cost = isl.fit(0)[i];
      low = (std::uint64_t(cost) << 32 | i) < low ? std::uint64_t(cost) << 32 | i : low;
      high = ~std::uint64_t(cost) < high ? ~std::uint64_t(cost) : high;
      if (isl.params.ga.algorithm == Algorithm::Sa)
        temperature += (std::uint64_t(1) << 48) / chain_states()[i].beta;  // T in 16.16
    }
    low = team_min(low);
    high = team_min(high);
    if (isl.team.rank() == 0) {
      out.state = state;
      out.best_index = static_cast<std::uint32_t>(low);
      out.best = static_cast<Fitness>(low >> 32);
      out.worst = static_cast<Fitness>(~high);
      out.fitness_sum = out.distance_sum = out.temperature_sum = 0;
    }
    isl.team.sync();
    isl.add_sums(out, 0, static_cast<std::uint32_t>(low));
    isl.team.add(&out.temperature_sum, temperature);
    isl.team.sync();
  }
};

// A chain island's segment: every chain's sweeps, then the island's restarts, reheats and best.
template <int B>
struct ChainSegment {
  static constexpr bool kRepairs = false;
  // A GPU's chains look at the deadline only between epochs: a chain's generation is one sweep,
  // and the check's barrier made the 4x4 chain step spill (kernel_resources). The CPU's look.
  template <class Team>
  static constexpr bool kChecksDeadline = Team::kCutsGenerationZero;

  template <class Team>
  GPUGA_HD_INLINE static void init(const Island<Team, B>& isl, const RunInfo<B>& run, IslandState& state,
                                   std::uint64_t seed, std::uint8_t* best, const IslandsView<B>&,
                                   std::uint32_t) {
    Chains<Team, B>{isl, run}.init(state, seed, best);
  }

  // A solved island goes on to the halt check, its chains at fitness 0 making no more moves.
  template <class Team>
  GPUGA_HD_INLINE static void advance(const Island<Team, B>& isl, const RunInfo<B>& run, IslandState& state,
                                      std::uint32_t to, std::uint8_t* best, const IslandsView<B>& view,
                                      std::uint32_t island) {
    const Chains<Team, B> chains{isl, run};
    chains.sweeps(state.seed, state.clock, to);
    state = view.states[island];  // read again rather than held through the sweeps: registers
    chains.advance(state, to, best);
    state.clock = to;
  }
};

// The chains' segment step (sa, hc): a kernel of its own (cuda/device_system.hpp, LaunchPolicy).
template <int B>
struct chain_segment_step : segment_step<B, ChainSegment<B>> {
  static constexpr const char* kName = "chain_segment_step";
};

}  // namespace gpuga
