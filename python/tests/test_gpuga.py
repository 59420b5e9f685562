"""The Python module against the command line: the same seed and options give the same result;
every input form; batch's DataFrame is the CSV; callbacks, stops, errors and Ctrl-C."""
import csv
import json
import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pandas as pd
import pytest

import gpuga

BINARY = os.environ["GPUGA_TEST_BINARY"]
SOURCE = os.environ["GPUGA_TEST_SOURCE_DIR"]
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
HARD = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."  # AI Escargot
SMALL = dict(backend="cpu", threads=2, pop=200, island_size=100, local_search=20, repair="none")


def cli(*args):
    out = subprocess.run([BINARY, *args], capture_output=True, text=True, check=False)
    assert out.returncode in (0, 1), out.stderr
    return out


def rows_of(text):
    return [[int(ch) if ch != "." else 0 for ch in text[r * 9:(r + 1) * 9]] for r in range(9)]


def test_solve_takes_a_string_a_list_of_lists_and_an_array_alike():
    results = [gpuga.solve(p, seed=3, **SMALL) for p in (EASY, rows_of(EASY), np.array(rows_of(EASY)))]
    assert all(r.solved for r in results)
    assert gpuga.verify(EASY, results[0].text) == (True, "")
    # The same run from each form (text follows the input's alphabet: numbers for rows).
    assert len({(r.grid.tobytes(), r.generations, r.evaluations) for r in results}) == 1
    assert results[0].text == results[1].text.replace(" ", "")
    assert results[0].grid.shape == (9, 9) and results[0].config["pop"] == 200


def test_solve_equals_the_command_line_for_a_seed(tmp_path):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(HARD + "\n")
    for seed, grow_after in ((1, 0), (2, 0), (3, 5)):  # the last grows: 25 generations, stages of 5
        out = cli("solve", "--json", "--seed", str(seed), "--max-generations", "25", "--backend", "cpu",
                  "--threads", "2", "--pop", "200", "--island-size", "100", "--local-search", "20",
                  "--repair", "none", "--grow-after", str(grow_after), str(puzzle))
        want = json.loads(out.stdout)["results"][0]
        got = gpuga.solve(HARD, seed=seed, max_generations=25, grow_after=grow_after, **SMALL)
        assert (got.text, got.generations, got.evaluations, got.restarts, got.growths, got.stop,
                got.island, got.best_fitness, got.solved) == (
            want["grid"], want["generations"], want["evaluations"], want["restarts"], want["growths"],
            want["stop"], want["island"], want["best_fitness"], want["solved"])
        if grow_after and not got.solved:
            assert got.growths == 2  # 25 generations: two stages of 5, then the last
    # The repaired GA of the defaults, in small islands.
    want = json.loads(cli("solve", "--json", "--seed", "4", "--backend", "cpu", "--pop", "32",
                          str(puzzle)).stdout)["results"][0]
    got = gpuga.solve(HARD, seed=4, backend="cpu", pop=32)
    assert got.config["repair"] == "propagate" and got.solved
    assert (got.text, got.generations, got.evaluations, got.island) == (
        want["grid"], want["generations"], want["evaluations"], want["island"])


def test_every_result_field_is_the_command_lines_and_documented(tmp_path):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(HARD + "\n")
    want = json.loads(cli("solve", "--json", "--seed", "5", "--max-generations", "10", "--backend", "cpu",
                          "--threads", "2", "--pop", "200", "--island-size", "100", "--local-search",
                          "20", "--repair", "none", str(puzzle)).stdout)["results"][0]
    got = gpuga.solve(HARD, seed=5, max_generations=10, **SMALL)
    fields = [f for f in gpuga._gpuga.result_fields() if f["python"]]
    assert len(fields) >= 10
    for f in fields:
        assert f"{f['name']}: {f['meaning']}" in gpuga.Result.__doc__, f
        if f["json"] and f["name"] not in ("seconds", "grid"):
            assert getattr(got, f["name"]) == want[f["name"]], f
    assert got.text == want["grid"] and got.grid.shape == (9, 9)


def test_batch_is_the_csv_of_the_command_line(tmp_path):
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(EASY + "\n" + HARD + "\n")
    options = ["--seed", "4", "--max-generations", "15", "--backend", "cpu", "--pop", "200",
               "--island-size", "100", "--local-search", "20", "--runs", "2"]
    cli("batch", *options, "--csv", str(tmp_path / "cli.csv"), str(puzzles))
    kept = tmp_path / "py.csv"
    frame = gpuga.batch(str(puzzles), runs=2, seed=4, max_generations=15, csv=kept,
                        backend="cpu", pop=200, island_size=100, local_search=20)
    def rows(path):
        with open(path, newline="") as f:
            return list(csv.reader(f))
    cli_rows, py_rows = rows(tmp_path / "cli.csv"), rows(kept)
    assert list(frame.columns) == cli_rows[0] == py_rows[0]
    strip = lambda rows: sorted(tuple(v for k, v in zip(cli_rows[0], r) if k != "seconds") for r in rows)
    assert strip(py_rows[1:]) == strip(cli_rows[1:]) and len(frame) == 4
    pd.testing.assert_frame_equal(frame, pd.read_csv(kept, keep_default_na=False))
    swept = gpuga.sweep({"local_search": [0, 10]}, str(puzzles), seed=4, max_generations=5,
                        backend="cpu", pop=200, island_size=100)
    assert sorted(set(swept["local_search"])) == [0, 10] and len(swept) == 4


def test_every_surface_names_a_setting_or_a_field_as_the_command_line_does(tmp_path):
    # Result.config's keys are --json's; a sweep's DataFrame groups by the option's own name;
    # the history has the traces' columns; a CSV of the former names reads with today's.
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(HARD + "\n")
    want = json.loads(cli("solve", "--json", "--seed", "2", "--backend", "cpu", "--pop", "16",
                          "--island-size", "8", "--max-generations", "3", str(puzzle)).stdout)
    got = gpuga.solve(HARD, seed=2, backend="cpu", pop=16, island_size=8, max_generations=3,
                      history=True)
    assert set(got.config) == set(want["results"][0]["config"])
    named = set(gpuga.options()) | {"islands"}
    assert set(got.config) <= named, set(got.config) - named
    frame = gpuga.sweep({"pop": [16, 32]}, str(puzzle), seed=2, backend="cpu", island_size=8,
                        max_generations=3, presolve="none", trace=tmp_path / "t")
    assert sorted(frame.groupby("pop").size().index) == [16, 32]
    fields = [f["name"] for f in gpuga._gpuga.result_fields() if f["csv"]]
    assert set(fields) <= set(frame.columns), set(fields) - set(frame.columns)
    traces = pd.read_csv(tmp_path / "t" / "traces.csv")
    ids = {"config_id", "puzzle_id", "run", "seed"}
    assert set(got.history.columns) == set(traces.columns) - ids
    old = tmp_path / "old.csv"
    frame.rename(columns={"best_fitness": "final_fitness", "seconds": "time_seconds",
                          "generations": "generations_run", "pop": "population_size",
                          "restart_after": "restart_after_n_stagnant",
                          "presolve": "propagate"}).to_csv(old, index=False)
    pd.testing.assert_frame_equal(gpuga.read_runs(old), frame)


def test_plot_draws_a_batchs_pictures_and_reads_the_former_columns_as_the_library_does(tmp_path):
    from gpuga import plots
    assert plots.FORMER_COLUMNS == gpuga._gpuga.former_columns()
    frame = gpuga.batch([EASY, HARD], runs=2, seed=1, backend="cpu", presolve="none", pop=16,
                        island_size=8, max_generations=5, trace=tmp_path / "t")
    written = gpuga.plot(frame, traces=tmp_path / "t", out=tmp_path / "png")
    assert [p.name for p in written] == ["convergence.png", "success.png", "solved.png",
                                         "parameters.png"]
    assert all(p.stat().st_size > 2000 for p in written)
    with pytest.raises(ValueError, match="nothing to draw"):
        gpuga.plot()


def test_batch_samples_and_traces_as_the_command_line_does(tmp_path):
    # sample= draws the puzzles --sample draws; trace= writes the traces --trace writes (but for
    # the clock), every trace_every-th generation.
    top = os.path.join(SOURCE, "puzzles", "norvig_top95.txt")
    options = ["--seed", "2", "--max-generations", "4", "--backend", "cpu", "--pop", "100",
               "--island-size", "50", "--repair", "none", "--local-search", "0"]
    cli("batch", *options, "--sample", "3", "--trace", str(tmp_path / "cli"), "--trace-every", "2",
        "--csv", str(tmp_path / "cli.csv"), top)
    frame = gpuga.batch(top, seed=2, max_generations=4, backend="cpu", pop=100, island_size=50,
                        repair="none", local_search=0, sample=3, trace=tmp_path / "py", trace_every=2)
    cli_frame = pd.read_csv(tmp_path / "cli.csv", keep_default_na=False)
    assert sorted(frame["puzzle_id"]) == sorted(cli_frame["puzzle_id"]) and len(frame) == 3
    traces = [pd.read_csv(tmp_path / side / "traces.csv").drop(columns="elapsed")
              .sort_values(["puzzle_id", "generation"]).reset_index(drop=True) for side in ("cli", "py")]
    pd.testing.assert_frame_equal(traces[0], traces[1])
    assert sorted(set(traces[1]["generation"])) == [0, 2, 4]


def test_a_callback_sees_every_nth_generation_and_stops_the_run():
    seen = []

    def look(report):
        seen.append(report["generation"])
        return report["generation"] < 12

    r = gpuga.solve(HARD, seed=5, callback=look, every=4, history=True, **SMALL)
    assert seen == [0, 4, 8, 12] and r.stop == "stopped"
    assert list(r.history.columns) == ["generation", "best", "best_so_far", "mean", "worst",
                                       "diversity", "temperature", "restarts", "growths",
                                       "evaluations", "elapsed"]
    assert list(r.history["generation"]) == [0, 4, 8, 12]
    # The best so far never rises, and no island now holds better than it.
    assert r.history["best_so_far"].is_monotonic_decreasing
    assert (r.history["best"] >= r.history["best_so_far"]).all()


def test_an_exception_in_the_callback_is_raised_from_solve():
    def fail(report):
        if report["generation"] == 3:
            raise RuntimeError("from the callback")
    with pytest.raises(RuntimeError, match="from the callback"):
        gpuga.solve(HARD, seed=6, callback=fail, **SMALL)


def test_bad_input_raises_value_error_with_the_command_lines_message():
    with pytest.raises(ValueError, match=r"--pop 7 is not a multiple of the island size 2"):
        gpuga.solve(EASY, pop=7, island_size=2)
    with pytest.raises(ValueError, match="--selection best: .*tournament"):
        gpuga.solve(EASY, selection="best")
    with pytest.raises(ValueError, match="unknown option 'popsize'"):
        gpuga.solve(EASY, popsize=10)
    with pytest.raises(ValueError, match="has no solution"):  # Platinum Blonde, a wrong first clue
        gpuga.solve("3......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..47...6...")
    with pytest.raises(ValueError, match="<puzzle>"):
        gpuga.solve("12345")


def test_ctrl_c_stops_the_run_and_raises_keyboard_interrupt():
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    start = time.monotonic()
    with open(os.path.join(SOURCE, "puzzles", "acs_16x16_fixed040_inst00-09.txt")) as f:
        sixteen = f.readline().strip()  # the plain GA does not solve it within a minute
    with pytest.raises(KeyboardInterrupt):
        gpuga.solve(sixteen, seed=7, backend="cpu", pop=400, island_size=100, local_search=0,
                    repair="none", time_limit=60)
    assert time.monotonic() - start < 10
    assert gpuga.solve(EASY, seed=1, **SMALL).solved  # the next run is not stopped by it


def test_the_helpers():
    assert gpuga.check(EASY) == 1 and gpuga.check("." * 81) == 2
    assert gpuga.score(gpuga.solve(EASY, seed=1, **SMALL).text) == 0
    assert gpuga.verify(EASY, "1" * 81)[0] is False
    assert gpuga.read_puzzles(os.path.join(SOURCE, "puzzles", "example.txt"))
    assert isinstance(gpuga.devices(), list)
    assert "island_size" in gpuga.options()


def test_bench_measures_the_engine_as_the_command_line_does():
    frame = gpuga.bench(backend="cpu", pop=[400, 800], island_size=200, generations=5, repeats=2,
                        warmup=2)
    assert list(frame["islands"]) == [2, 4] and (frame["evaluations_per_s"] > 0).all()
    assert all(len(times) == 2 and min(times) <= median <= max(times)
               for times, median in zip(frame["ms_per_repeat"], frame["ms_per_epoch"]))
    assert list(frame["placement"]) == ["host memory"] * 2
    with pytest.raises(ValueError, match="--algorithm best"):
        gpuga.bench(algorithm="best")
    # solve's settings shape the work: the plain GA, local search given.
    plain = gpuga.bench(backend="cpu", pop=40, island_size=20, generations=2, repeats=1, warmup=1,
                        repair="none", local_search=3)
    assert list(plain["islands"]) == [2] and (plain["evaluations_per_s"] > 0).all()
    assert (plain["tabu_moves_per_s"] == 0).all()
    searched = gpuga.bench(backend="cpu", pop=16, island_size=8, generations=2, repeats=1, warmup=1,
                           tabu=50)
    assert (searched["tabu_moves_per_s"] > 0).all()
    assert (searched["tabu_moves_per_s"] < searched["evaluations_per_s"]).all()
    with pytest.raises(ValueError, match="unknown option 'generation'"):
        gpuga.bench(generation=2)


def test_bench_runs_the_command_lines_backends_by_default():
    # "auto", as the command line: the CPU's rows, then a GPU's where there is one.
    frame = gpuga.bench(pop=16, island_size=8, generations=1, repeats=1, warmup=1)
    expected = ["cpu"] + (["cuda"] if gpuga.devices() else [])
    assert list(frame["backend"]) == expected


def test_bench_of_puzzles_is_the_command_lines(tmp_path):
    # puzzles=: gpuga bench --puzzles's row, the same puzzles solved and evaluations made (the
    # runs are seeded; only the clock differs).
    top = os.path.join(SOURCE, "puzzles", "norvig_top95.txt")
    with open(top) as f:
        first = [line for line in f if not line.startswith("#")][:4]
    (tmp_path / "four.txt").write_text("".join(first))
    cli("bench", "--backend", "cpu", "--seed", "1", "--puzzles", str(tmp_path / "four.txt"),
        "--json", str(tmp_path / "bench.json"))
    row = json.load(open(tmp_path / "bench.json"))["puzzles"][0]
    frame = gpuga.bench(backend="cpu", seed=1, puzzles=[line.strip() for line in first])
    assert list(frame["backend"]) == ["cpu"]
    assert frame["puzzles"][0] == row["puzzles"] == 4
    assert frame["solved"][0] == row["solved"] and frame["evaluations"][0] == row["evaluations"]
    assert frame["puzzles_per_s"][0] > 0


def test_progress_without_tqdm_warns_and_the_run_goes_on(monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    with pytest.warns(UserWarning, match="tqdm is not installed"):
        r = gpuga.solve(EASY, seed=1, progress=True, **SMALL)
    assert r.solved


def test_the_package_without_its_compiled_module_says_how_to_get_it(tmp_path):
    # The source's package alone (no _gpuga beside it): a clear ImportError, not "circular import".
    source = os.path.join(SOURCE, "python")
    out = subprocess.run(["/usr/bin/python3", "-c", "import gpuga"], capture_output=True, text=True,
                         cwd=tmp_path, env={**os.environ, "PYTHONPATH": source}, check=False)
    assert out.returncode != 0
    assert "compiled module (_gpuga) is not beside" in out.stderr, out.stderr
    assert "circular import" not in out.stderr.splitlines()[-1], out.stderr


@pytest.mark.parametrize("size", ["4x4", "16x16", "25x25"])
def test_the_other_box_sizes_equal_the_command_line(tmp_path, size):
    if size == "4x4":
        puzzle = "1.3.3...2..3...1"
    else:
        name = "acs_16x16_fixed040_inst00-09.txt" if size == "16x16" else "acs_25x25_fixed040_inst00-09.txt"
        with open(os.path.join(SOURCE, "puzzles", name)) as f:
            puzzle = f.readline().strip()
    path = tmp_path / "p.txt"
    path.write_text(puzzle + "\n")
    out = cli("solve", "--json", "--seed", "3", "--max-generations", "2", "--backend", "cpu",
              "--threads", "2", "--pop", "8", "--island-size", "4", "--local-search", "30", str(path))
    want = json.loads(out.stdout)["results"][0]
    got = gpuga.solve(puzzle, seed=3, max_generations=2, backend="cpu", threads=2, pop=8,
                      island_size=4, local_search=30)
    assert (got.text, got.generations, got.evaluations, got.best_fitness, got.solved) == (
        want["grid"], want["generations"], want["evaluations"], want["best_fitness"], want["solved"])
    side = int(size.split("x")[0])
    assert got.grid.shape == (side, side)


def test_a_file_of_mixed_sizes_runs_each_sizes_plan_as_the_command_line_does(tmp_path):
    # 9x9, 4x4, 16x16 and 9x9: solve and batch give each size its own defaults (local search and
    # restart), and each puzzle the command line's result for the seed.
    path = os.path.join(SOURCE, "puzzles", "mixed_sizes.txt")
    options = dict(backend="cpu", threads=2, presolve="none", max_generations=12, time_limit=0)
    out = cli("solve", "--json", "--seed", "3", "--backend", "cpu", "--threads", "2", "--presolve",
              "none", "--max-generations", "12", "--time-limit", "0", path)
    want = json.loads(out.stdout)["results"]
    puzzles = gpuga.read_puzzles(path)
    assert len(want) == len(puzzles) == 4
    for puzzle, w in zip(puzzles, want):
        got = gpuga.solve(puzzle, seed=3, **options)
        assert (got.text, got.generations, got.evaluations) == (w["grid"], w["generations"], w["evaluations"])
        assert got.config == w["config"]
    assert len({w["config"]["local_search"] for w in want}) > 1
    frame = gpuga.batch(path, runs=1, seed=8, **options)
    by_size = frame.groupby("size")["local_search"].first().to_dict()
    assert set(by_size) == {"4x4", "9x9", "16x16"}
    assert by_size["16x16"] == next(w["config"]["local_search"] for w in want if w["size"] == "16x16")


def test_generate_and_rate_are_the_command_lines(tmp_path):
    # The same arguments make the same puzzles as gpuga generate, at the fill asked.
    out = cli("generate", "--size", "16", "--count", "4", "--seed", "9", "--fill", "0.45")
    lines = [l for l in out.stdout.splitlines() if not l.startswith("#")]
    assert gpuga.generate(16, 4, seed=9, fill=0.45) == lines
    unique = gpuga.generate(9, 3, seed=2, unique=True)
    assert all(gpuga.check(p) == 1 for p in unique)
    with pytest.raises(ValueError, match="keeps one solution down to"):
        gpuga.generate(9, 1, fill=0.05, unique=True)
    # Rated puzzles: the command's, each with its score in the band and its technique.
    out = cli("generate", "--count", "3", "--seed", "4", "--rating", "hard")
    rated = gpuga.generate(9, 3, seed=4, rating="hard")
    assert [line for line, _, _ in rated] == [l for l in out.stdout.splitlines() if not l.startswith("#")]
    assert all(4.2 <= score < 6.0 and technique for _, score, technique in rated)
    with pytest.raises(ValueError, match="no puzzle scores there"):
        gpuga.generate(9, 1, rating="12-13")
    # rate's frame holds gpuga rate's CSV, the figures numbers (NaN for none).
    path = tmp_path / "p.txt"
    path.write_text(EASY + "\n" + HARD + "\n")
    args = ["--backend", "cpu", "--threads", "2", "--pop", "200", "--island-size", "100",
            "--max-generations", "2", "--time-limit", "0", "--seed", "5", "--runs", "3"]
    want = pd.read_csv(__import__("io").StringIO(cli("rate", *args, str(path)).stdout))
    got = gpuga.rate(str(path), runs=3, seed=5, backend="cpu", threads=2, pop=200,
                     island_size=100, max_generations=2, time_limit=0)
    assert list(got.columns) == list(want.columns)
    for column in ("solved", "median_generations", "median_evaluations", "rating", "givens",
                   "deduction", "technique", "score", "score_low", "score_high"):
        pd.testing.assert_series_equal(got[column], want[column], check_dtype=False)
    assert (got["score_low"] <= got["score"]).all() and (got["score"] <= got["score_high"]).all()
    assert got["score"].between(1, 11).all() and got["technique"].str.len().gt(0).all()
