"""bench/plot.py on a small batch CSV and traces writes the four non-empty PNGs."""
import csv
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import plot  # noqa: E402

COLUMNS = ["puzzle_id", "solved", "final_fitness", "time_seconds", "generations_run",
           "population_size", "mutation_rate", "restart_after_n_stagnant", "puzzle", "run",
           "seed", "restarts", "evaluations", "encoding", "fitness", "selection",
           "selection_param", "crossover", "crossover_rate", "elite", "given_aware",
           "keep_on_restart", "max_generations", "time_limit", "backend", "device",
           "gpuga_version", "grid", "stop", "config_id"]


def write_batch(folder):
    rows, traces = [], []
    for pop in (100, 1000):
        for run in range(4):
            solved = run != 3 or pop == 1000
            gens = 10 + 5 * run
            rows.append({**{c: "" for c in COLUMNS}, "puzzle_id": f"sets/a.txt#{run}",
                         "solved": "1" if solved else "0", "final_fitness": "0" if solved else "2",
                         "time_seconds": str(0.01 * (run + 1) * (pop / 100)),
                         "generations_run": str(gens), "population_size": str(pop),
                         "mutation_rate": "0.8", "restart_after_n_stagnant": "30",
                         "encoding": "box", "fitness": "conflicts", "selection": "tournament",
                         "selection_param": "tournament_size=3", "crossover": "bands",
                         "crossover_rate": "1", "elite": "1", "given_aware": "true",
                         "keep_on_restart": "0", "max_generations": "100", "time_limit": "0",
                         "run": str(run), "config_id": f"c{pop}"})
            for g in range(gens + 1):
                traces.append([f"c{pop}", f"sets/a.txt#{run}", str(run), "1", str(g),
                               str(max(0, 20 - g)), "30", "40", "10", "0", "0.1"])
    with open(folder / "runs.csv", "w", newline="") as f:
        w = csv.DictWriter(f, COLUMNS)
        w.writeheader()
        w.writerows(rows)
    (folder / "traces").mkdir()
    with open(folder / "traces" / "traces.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["config_id", "puzzle_id", "run", "seed", "generation", "best", "mean",
                    "worst", "diversity", "restarts", "elapsed"])
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
    def test_writes_the_four_plots(self):
        with tempfile.TemporaryDirectory() as d:
            folder = Path(d)
            write_batch(folder)
            plot.main([str(folder / "runs.csv"), "--traces", str(folder / "traces"),
                       "--out", str(folder / "png")])
            for name in ("convergence.png", "solved.png", "time_cdf.png", "parameters.png"):
                data = (folder / "png" / name).read_bytes()
                self.assertGreater(len(data), 2000, name)
                self.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n", name)

    def test_the_swept_parameter_is_found(self):
        with tempfile.TemporaryDirectory() as d:
            write_batch(Path(d))
            rows = plot.read_rows([Path(d) / "runs.csv"])
            self.assertEqual(plot.swept(rows), ["pop"])  # read by its name now

    def test_an_option_plot_py_never_heard_of_is_a_configuration_column(self):
        # Columns that later versions record (tabu, or any new option) need no list here.
        with tempfile.TemporaryDirectory() as d:
            folder = Path(d)
            write_batch(folder)
            newer = with_column(folder, "newer.csv", "tabu", ("0", "100"))
            self.assertEqual(plot.swept(plot.read_rows([newer])), ["tabu"])
            # Beside a CSV written before the column existed, it is left out, not guessed.
            self.assertEqual(plot.swept(plot.read_rows([newer, folder / "runs.csv"])), ["pop"])

    def test_sizes_are_compared_in_numeric_order(self):
        with tempfile.TemporaryDirectory() as d:
            folder = Path(d)
            write_batch(folder)
            sized = with_column(folder, "sized.csv", "size", ("16x16", "9x9", "25x25", "4x4"))
            rows = plot.read_rows([sized])
            self.assertEqual(plot.swept(rows), ["size"])
            labels = sorted({plot.config_label(r, ["size"]) for r in rows}, key=plot.sort_key)
            self.assertEqual(labels, ["size=4x4", "size=9x9", "size=16x16", "size=25x25"])
            plot.main([str(sized), "--out", str(folder / "png")])
            self.assertGreater((folder / "png" / "parameters.png").stat().st_size, 2000)

    def test_a_csv_without_the_columns_is_refused(self):
        with tempfile.TemporaryDirectory() as d:
            bad = Path(d) / "bad.csv"
            bad.write_text("a,b\n1,2\n")
            with self.assertRaises(SystemExit) as e:
                plot.read_rows([bad])
            self.assertIn("missing columns", str(e.exception.code))


if __name__ == "__main__":
    unittest.main()
