"""gpuga plot (python/gpuga/plots.py): the pictures from a small batch CSV and traces, the
convergence curves every run counts in to the end, the share solved over all runs, the refusals,
and the gpuga command running it on a solve's traces."""
import csv
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python" / "gpuga"))
import plots  # noqa: E402

# The first layout's columns, under the names of its time: they read as today's.
COLUMNS = ["puzzle_id", "solved", "final_fitness", "time_seconds", "generations_run",
           "population_size", "mutation_rate", "restart_after_n_stagnant", "puzzle", "run",
           "seed", "restarts", "evaluations", "encoding", "fitness", "selection",
           "selection_param", "crossover", "crossover_rate", "elite", "given_aware",
           "keep_on_restart", "max_generations", "time_limit", "backend", "device",
           "gpuga_version", "grid", "stop", "config_id"]


def write_batch(folder):
    """Runs of pop 100 and 1000 on four puzzles (the fourth of pop 100 unsolved), and traces;
    the first puzzle of pop 1000 solved by propagation, with no trace."""
    rows, traces = [], []
    for pop in (100, 1000):
        for run in range(4):
            solved = run != 3 or pop == 1000
            gens = 0 if (pop, run) == (1000, 0) else 10 + 5 * run
            rows.append({**{c: "" for c in COLUMNS}, "puzzle_id": f"sets/a.txt#{run}",
                         "solved": "1" if solved else "0", "final_fitness": "0" if solved else "2",
                         "time_seconds": str(0.01 * (run + 1) * (pop / 100)),
                         "evaluations": str(1000 * (run + 1) * pop),
                         "generations_run": str(gens), "population_size": str(pop),
                         "mutation_rate": "0.8", "restart_after_n_stagnant": "30",
                         "encoding": "box", "fitness": "conflicts", "selection": "tournament",
                         "selection_param": "tournament_size=3", "crossover": "bands",
                         "crossover_rate": "1", "elite": "1", "given_aware": "true",
                         "keep_on_restart": "0", "max_generations": "100", "time_limit": "0",
                         "run": "0", "config_id": f"c{pop}"})
            if gens == 0:
                continue
            for g in range(gens + 1):
                best = 0 if solved and g == gens else max(1 if solved else 2, 20 - g + 2 * (g % 3))
                traces.append([f"c{pop}", f"sets/a.txt#{run}", "0", "1", str(g), str(best),
                               "30", "40", "10", "0", "0.1"])
    with open(folder / "runs.csv", "w", newline="") as f:
        w = csv.DictWriter(f, COLUMNS)
        w.writeheader()
        w.writerows(rows)
    (folder / "traces").mkdir()
    with open(folder / "traces" / "traces.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["config_id", "puzzle_id", "run", "seed", "generation", "best", "mean",
                    "worst", "diversity", "restarts", "elapsed"])  # before best_so_far
        w.writerows(traces)


def with_column(folder, name, column, values):
    """The population-100 runs of write_batch's CSV once per value of a new column, as NAME."""
    with open(folder / "runs.csv", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["population_size"] == "100"]
    with open(folder / name, "w", newline="") as f:
        w = csv.DictWriter(f, COLUMNS + [column])
        w.writeheader()
        w.writerows({**r, column: v, "seed": f"{v}-{k}"} for v in values for k, r in enumerate(rows))
    return folder / name


class PlotTest(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.TemporaryDirectory()
        self.folder = Path(self.scratch.name)
        write_batch(self.folder)

    def tearDown(self):
        self.scratch.cleanup()

    def test_writes_the_four_pictures(self):
        written = plots.draw([self.folder / "runs.csv"], self.folder / "traces", self.folder / "png")
        names = ["convergence.png", "success.png", "solved.png", "parameters.png"]
        self.assertEqual([p.name for p in written], names)
        for name in names:
            data = (self.folder / "png" / name).read_bytes()
            self.assertGreater(len(data), 2000, name)
            self.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n", name)

    def test_every_run_counts_to_the_end_and_the_best_so_far_never_rises(self):
        import numpy as np
        curves = plots.convergence(plots.read_traces(self.folder / "traces"),
                                   plots.read_rows([self.folder / "runs.csv"]))
        generations, so_far, now, _ = curves["c1000"]
        self.assertEqual(len(so_far), 4)  # three traced, one solved by propagation at 0
        self.assertEqual(list(generations), list(range(26)))
        self.assertTrue((so_far[:, 1:] <= so_far[:, :-1]).all())
        median = np.median(so_far, axis=0)
        self.assertTrue((median[1:] <= median[:-1]).all())
        self.assertEqual(median[-1], 0)  # the runs that ended keep their 0
        self.assertTrue((now[:, 1:] > now[:, :-1]).any())  # the best now may rise
        # The pop-100 run left unsolved keeps its best of 2 past its last generation.
        self.assertEqual(curves["c100"][1][3, -1], 2)

    def test_the_share_solved_is_of_every_run(self):
        rows = [r for r in plots.read_rows([self.folder / "runs.csv"]) if r["pop"] == "100"]
        self.assertEqual(list(plots.share_solved(rows, "seconds", [0.015, 1.0])), [0.25, 0.75])

    def test_the_swept_setting_is_found_under_its_name_now(self):
        self.assertEqual(plots.swept(plots.read_rows([self.folder / "runs.csv"])), ["pop"])

    def test_an_option_plots_never_heard_of_is_a_configuration_column(self):
        # Columns that later versions record (tabu, or any new option) need no list here.
        newer = with_column(self.folder, "newer.csv", "tabu", ("0", "100"))
        self.assertEqual(plots.swept(plots.read_rows([newer])), ["tabu"])
        # Beside a CSV written before the column existed, it is left out, not guessed.
        self.assertEqual(plots.swept(plots.read_rows([newer, self.folder / "runs.csv"])), ["pop"])

    def test_sizes_are_compared_in_numeric_order(self):
        sized = with_column(self.folder, "sized.csv", "size", ("16x16", "9x9", "25x25", "4x4"))
        rows = plots.read_rows([sized])
        self.assertEqual(plots.swept(rows), ["size"])
        labels = sorted({plots.config_label(r, ["size"]) for r in rows}, key=plots.sort_key)
        self.assertEqual(labels, ["size=4x4", "size=9x9", "size=16x16", "size=25x25"])
        plots.draw([sized], None, self.folder / "png")
        self.assertGreater((self.folder / "png" / "parameters.png").stat().st_size, 2000)

    def test_what_is_not_gpugas_is_refused_naming_the_file(self):
        bad = self.folder / "bad.csv"
        bad.write_text("a,b\n1,2\n")
        for call, message in ((lambda: plots.draw([bad]), f"{bad}:1: missing columns"),
                              (lambda: plots.draw(traces=self.folder), "traces.csv: No such file"),
                              (lambda: plots.draw(), "nothing to draw")):
            with self.assertRaises(ValueError) as e:
                call()
            self.assertIn(message, str(e.exception))
        self.assertEqual(plots.main([str(bad), "--out", str(self.folder / "png")]), 2)
        # An output that cannot be written, once the inputs are read: a failure, exit 3.
        self.assertEqual(plots.main([str(self.folder / "runs.csv"), "--out", str(bad)]), 3)

    @unittest.skipUnless(os.environ.get("GPUGA_TEST_BINARY"), "the gpuga command's test")
    def test_the_command_draws_a_solves_convergence(self):
        gpuga = os.environ["GPUGA_TEST_BINARY"]
        puzzle = Path(__file__).resolve().parent.parent / "puzzles" / "norvig_hardest.txt"
        subprocess.run([gpuga, "solve", "--backend", "cpu", "--seed", "1", "--presolve", "none",
                        "--max-generations", "20", "--time-limit", "0", "--trace",
                        str(self.folder / "solved"), str(puzzle)], capture_output=True, check=False)
        out = subprocess.run([gpuga, "plot", "--traces", str(self.folder / "solved"), "--out",
                              str(self.folder / "pictures")], capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertGreater((self.folder / "pictures" / "convergence.png").stat().st_size, 2000)
        usage = subprocess.run([gpuga, "plot", "--help"], capture_output=True, text=True)
        self.assertIn("usage: gpuga plot", usage.stdout)
        refused = subprocess.run([gpuga, "plot", str(self.folder / "nowhere.csv"), "--out", "x"],
                                 capture_output=True, text=True)
        self.assertEqual(refused.returncode, 2)
        self.assertIn("nowhere.csv: No such file", refused.stderr)


if __name__ == "__main__":
    unittest.main()
