#pragma once
// Plans for tests, on targets made up rather than probed: no device is asked, so that the
// defaults a GPU would get are checked anywhere (gpuga/run_plan.hpp).
#include "gpuga/run_plan.hpp"

// `backend` for puzzles of box size `box` (many at once when `many`): `units` threads or
// multiprocessors, each running `at_once` islands at once.
inline gpuga::Target made_target(gpuga::Backend backend, int box = 3, bool many = false,
                                 std::uint32_t units = 2, std::uint32_t at_once = 1) {
  gpuga::Target t;
  t.backend = backend;
  t.box = box;
  t.many = many;
  t.units = units;
  t.unit.blocks = at_once;  // its other limits unbounded: `at_once` islands of any layout
  return t;
}

// The plan of `o` (seed 1 when it gives none) on made_target(...).
inline gpuga::RunPlan plan_on(gpuga::RunOptions o, gpuga::Backend backend = gpuga::Backend::Cpu,
                              int box = 3, bool many = false, std::uint32_t units = 2,
                              std::uint32_t at_once = 1) {
  if (!o.seed) o.seed = 1;
  return gpuga::plan(o, made_target(backend, box, many, units, at_once));
}
