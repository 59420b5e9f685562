#include "gpuga/sudoku/exact_solver.hpp"

#include <cadical.hpp>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "gpuga/errors.hpp"
#include "search_solver.hpp"

namespace gpuga {
namespace {

using Mask = std::uint64_t;  // bit v - 1 set: value v (value_bit)

// A group of more literals than this says "at most one" by a sequential counter (Sinz 2005: a
// variable a literal, three clauses each) rather than pairwise: 36x36 and up, where a group of 64
// would take 2,016 clauses. Up to 25x25 every group is pairwise.
constexpr std::size_t kPairwiseUpTo = 25;

// The puzzle as CNF: a variable for each free cell and each value no given of its row, column
// or box holds; each cell takes exactly one of its values, each value a unit lacks goes in
// exactly one of the unit's cells. (Pairwise at-most-one: at most 300 clauses a cell or
// unit-value at 25x25, which the solver's preprocessing shrinks at once.)
class Encoding {
 public:
  explicit Encoding(const Grid& p)
      : p_(p), n_(p.side()), var_(p.cells() * (n_ + 1), 0), used_(p.units(), 0) {
    for (int u = 0; u < p.units(); ++u)
      for (int k = 0; k < n_; ++k)
        if (const int v = p.cell[p.unit_cell(u, k)]) used_[u] |= value_bit(v);
    for (int c = 0; c < p.cells(); ++c) {
      if (p.cell[c]) continue;
      const Mask taken = used_[p.row_of(c)] | used_[n_ + p.col_of(c)] | used_[2 * n_ + p.box_of(c)];
      for (int v = 1; v <= n_; ++v)
        if (!(taken & value_bit(v))) var_[c * (n_ + 1) + v] = ++vars_;
    }
  }

  // False when a free cell or a unit-value has no place left: no solution, nothing to solve.
  bool add_to(CaDiCaL::Solver& s) const {
    int next_aux = vars_;  // the sequential counters' variables follow the cells'
    std::vector<int> lits;
    for (int c = 0; c < p_.cells(); ++c) {
      if (p_.cell[c]) continue;
      lits.clear();
      for (int v = 1; v <= n_; ++v)
        if (const int x = var(c, v)) lits.push_back(x);
      if (!exactly_one(s, lits, next_aux)) return false;
    }
    for (int u = 0; u < p_.units(); ++u)
      for (int v = 1; v <= n_; ++v) {
        if (used_[u] & value_bit(v)) continue;
        lits.clear();
        for (int k = 0; k < n_; ++k)
          if (const int x = var(p_.unit_cell(u, k), v)) lits.push_back(x);
        if (!exactly_one(s, lits, next_aux)) return false;
      }
    return true;
  }

  int var(int c, int v) const { return var_[c * (n_ + 1) + v]; }

  // The model's grid, and the clause that forbids it.
  Grid grid_of(CaDiCaL::Solver& s, std::vector<int>& blocking) const {
    Grid g = p_;
    blocking.clear();
    for (int c = 0; c < p_.cells(); ++c)
      for (int v = 1; v <= n_ && !p_.cell[c]; ++v)
        if (const int x = var(c, v); x && s.val(x) > 0) {
          g.cell[c] = static_cast<std::uint8_t>(v);
          blocking.push_back(-x);
        }
    return g;
  }

 private:
  static void clause(CaDiCaL::Solver& s, int a, int b) {
    s.add(a);
    s.add(b);
    s.add(0);
  }

  static bool exactly_one(CaDiCaL::Solver& s, const std::vector<int>& lits, int& next_aux) {
    if (lits.empty()) return false;
    for (int x : lits) s.add(x);
    s.add(0);
    if (lits.size() > kPairwiseUpTo) {
      // count_i: one of lits[0..i] is true. Each literal sets its count; none may follow a count.
      int count = ++next_aux;
      clause(s, -lits[0], count);
      for (std::size_t i = 1; i < lits.size(); ++i) {
        clause(s, -lits[i], -count);
        if (i + 1 == lits.size()) break;
        const int next = ++next_aux;
        clause(s, -lits[i], next);
        clause(s, -count, next);
        count = next;
      }
      return true;
    }
    for (std::size_t i = 0; i < lits.size(); ++i)
      for (std::size_t j = i + 1; j < lits.size(); ++j) {
        s.add(-lits[i]);
        s.add(-lits[j]);
        s.add(0);
      }
    return true;
  }

  const Grid& p_;
  int n_;
  int vars_ = 0;  // the cells' variables, 1..vars_
  std::vector<int> var_;  // cells x (n + 1): the variable of (cell, value), 0 if none
  std::vector<Mask> used_;  // per unit: the values its givens hold
};

// Counts the clauses the solver learns (CDCL learns one at each conflict) and takes none of them.
struct ConflictCounter final : CaDiCaL::Learner {
  std::uint64_t learned = 0;
  bool learning(int) override {
    ++learned;
    return false;
  }
  void learn(int) override {}
};

ExactResult solve_sat(const Grid& puzzle, int limit) {
  ExactResult r{0, Grid(puzzle.box), 0, ExactSolver::Sat};
  if (first_clash(puzzle)) return r;  // contradictory givens
  const Encoding cnf(puzzle);
  ConflictCounter counter;  // before the solver, which holds it
  CaDiCaL::Solver solver;
  solver.set("quiet", 1);  // no "c ..." lines on stdout
  if (!cnf.add_to(solver)) return r;
  solver.connect_learner(&counter);
  std::vector<int> blocking;
  while (r.solutions < limit && solver.solve() == 10) {
    const Grid g = cnf.grid_of(solver, blocking);
    if (r.solutions++ == 0) r.solution = g;
    if (blocking.empty()) break;  // no free cell: the one solution is the puzzle
    for (int x : blocking) solver.add(x);
    solver.add(0);
  }
  r.conflicts = counter.learned;
  return r;
}

// The guesses the search may make before a puzzle goes to the SAT solver instead, by box size 2
// to 8: about as long as SAT takes to set up and solve a puzzle of that size that branches
// little (docs/decisions.md has the measurements that chose them).
constexpr std::uint64_t kSearchBudget[] = {1000, 1000, 300, 100, 100, 100, 100};

std::uint64_t budget_of(const Grid& g, ExactSolver solver) {
  return solver == ExactSolver::Search ? ~std::uint64_t(0) : kSearchBudget[g.box - 2];
}

}  // namespace

const char* to_string(ExactSolver s) {
  return s == ExactSolver::Auto ? "auto" : (s == ExactSolver::Search ? "search" : "sat");
}

ExactResult solve_exact(const Grid& puzzle, int limit, ExactSolver solver) {
  if (solver != ExactSolver::Sat) {
    ExactResult r{0, Grid(puzzle.box), 0, ExactSolver::Search};
    const SearchCount n = search_solutions(puzzle, limit, budget_of(puzzle, solver), {}, &r.solution);
    r.solutions = n.solutions;
    if (n.finished) return r;
  }
  return solve_sat(puzzle, limit);
}

struct GivenRemover::Sat {
  Grid kept;  // the givens decided kept when the solver was made; each kept later is a clause
  Encoding cnf;
  CaDiCaL::Solver solver;

  // Configured to find solutions (CaDiCaL's "sat": most questions near minimality have one) and
  // to look first near the puzzle's own solution, where the other solutions of a puzzle that
  // lost a given lie.
  explicit Sat(Grid k) : kept(std::move(k)), cnf(kept) {
    solver.configure("sat");
    solver.set("quiet", 1);
  }
};

GivenRemover::GivenRemover(const Grid& solution)
    : solution_(solution), puzzle_(solution), decided_(static_cast<std::size_t>(solution.cells()), 0) {}
GivenRemover::~GivenRemover() = default;

bool GivenRemover::remove_if_unique(int c) {
  const int v = puzzle_.cell[c];
  const SearchCount n = search_solutions(puzzle_, 1, budget_of(puzzle_, ExactSolver::Auto), {c, v},
                                           nullptr, &solution_);
  const bool unique = n.finished ? n.solutions == 0 : unique_by_sat(c);
  decided_[c] = 1;
  if (unique) {
    puzzle_.cell[c] = 0;
  } else if (sat_) {
    sat_->solver.add(sat_->cnf.var(c, v));
    sat_->solver.add(0);
  }
  return unique;
}

bool GivenRemover::unique_by_sat(int c) {
  const auto undecided = [&](int u) { return puzzle_.cell[u] && !decided_[u]; };
  if (!sat_) {
    Grid kept = puzzle_;
    for (int u = 0; u < kept.cells(); ++u)
      if (undecided(u)) kept.cell[u] = 0;
    sat_ = std::make_unique<Sat>(std::move(kept));
    if (!sat_->cnf.add_to(sat_->solver))  // the puzzle, of one solution, holds these givens and more
      throw std::logic_error("given removal: a puzzle of one solution without a CNF");
    for (int u = 0; u < puzzle_.cells(); ++u)  // assumed at every question: never eliminated
      if (undecided(u)) sat_->solver.freeze(sat_->cnf.var(u, puzzle_.cell[u]));
    for (int u = 0; u < puzzle_.cells(); ++u)
      for (int v = 1; v <= puzzle_.side(); ++v)
        if (const int x = sat_->cnf.var(u, v)) sat_->solver.phase(v == solution_.cell[u] ? x : -x);
  }
  for (int u = 0; u < puzzle_.cells(); ++u)
    if (undecided(u) && u != c) sat_->solver.assume(sat_->cnf.var(u, puzzle_.cell[u]));
  sat_->solver.assume(-sat_->cnf.var(c, puzzle_.cell[c]));
  return sat_->solver.solve() == 20;  // unsatisfiable: no solution with another value at c
}

std::optional<Grid> complete_by_search(const Grid& puzzle, std::uint64_t guess_budget) {
  Grid solution(puzzle.box);
  const SearchCount n = search_solutions(puzzle, 1, guess_budget, {}, &solution);
  if (!n.finished || n.solutions == 0) return std::nullopt;
  return solution;
}

namespace {

// The guesses the search may make on a puzzle of 36x36 or more before it is run undecided: the
// exact count can take minutes there (SAT on a 36x36 at half its cells given), longer than the
// GA is given.
constexpr std::uint64_t kLargeCheckGuesses = 10000;

// Whether the puzzle has no solution: decided exactly up to 25x25; from 36x36, by the search
// within kLargeCheckGuesses, false where it ran out (the GA then stops at its limits).
bool proven_unsolvable(const Grid& g) {
  if (g.box <= 5) return solve_exact(g, 1).solutions == 0;
  const SearchCount n = search_solutions(g, 1, kLargeCheckGuesses);
  return n.finished && n.solutions == 0;
}

}  // namespace

std::vector<Puzzle> read_solvable_puzzles(const std::vector<std::string>& files,
                                          const std::function<bool()>& stop) {
  auto puzzles = read_puzzle_files(files);
  for (std::size_t k = 0; k < puzzles.size(); ++k) {
    if (stop && stop()) {
      puzzles.resize(k);
      break;
    }
    const Puzzle& p = puzzles[k];
    GPUGA_INPUT_CHECK(!proven_unsolvable(p.grid),
                      p.file + ":" + std::to_string(p.line) + ": puzzle " +
                          std::to_string(p.index) + " has no solution; expected a solvable puzzle");
  }
  return puzzles;
}

}  // namespace gpuga
