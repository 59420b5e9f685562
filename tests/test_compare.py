"""bench/compare.py on two sides' bench and solve JSONs: medians of the rounds and new over old."""
import contextlib
import io
import json
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import compare  # noqa: E402


def write(folder, name, doc):
    (Path(folder) / name).write_text(json.dumps(doc))


def bench(algorithm, rate):
    return {"options": {"config": {"algorithm": algorithm}},
            "results": [{"pop": 270336, "island_size": 512, "evaluations_per_s": rate}]}


def solve(seconds, whole=None):
    doc = {"results": [{"seconds": s} for s in seconds]}
    if whole is not None:
        doc["seconds"] = whole
    return doc


class Compare(unittest.TestCase):
    def test_medians_of_rounds_and_the_faster_side_above_one(self):
        with tempfile.TemporaryDirectory() as folder:
            for r, (new, old) in enumerate([(6e9, 4e9), (5e9, 4.5e9), (7e9, 4.4e9)], start=1):
                write(folder, f"new-bench-ga512-{r}.json", bench("ga", new))
                write(folder, f"old-bench-ga512-{r}.json", bench("ga", old))
                write(folder, f"new-solve-top-{r}.json", solve([0.001, 0.002, 0.009]))
                write(folder, f"old-solve-top-{r}.json", solve([0.003, 0.004, 0.001]))
                write(folder, f"new-many-forum-{r}.json", solve([0.01] * 50, 0.020 + 0.001 * r))
                write(folder, f"old-many-forum-{r}.json", solve([0.01] * 50, 0.025))
                write(folder, f"new-many-older-{r}.json", solve([0.01] * 50, 0.020))
                write(folder, f"old-many-older-{r}.json", solve([0.01] * 50))  # no "seconds" yet
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                compare.main([folder, "abc", "def"])
        rows = {line.split("|")[1].strip(): line.split("|") for line in out.getvalue().splitlines()
                if line.startswith("| bench") or line.startswith("| solve")}
        ga = rows["bench ga pop 270336 island 512"]
        self.assertTrue(ga[2].strip().startswith("6e+09"))     # median of 6, 5, 7
        self.assertTrue(ga[3].strip().startswith("4.4e+09"))   # median of 4, 4.5, 4.4
        self.assertAlmostEqual(float(ga[4]), 6 / 4.4, places=2)
        top = rows["solve top: median s a puzzle"]
        self.assertAlmostEqual(float(top[4]), 0.003 / 0.002, places=2)  # lower seconds: above 1
        forum = rows["solve forum, many at once: puzzles a second"]
        self.assertAlmostEqual(float(forum[2].split()[0]), 50 / 0.022, delta=5)  # round 2's, 3 digits
        self.assertAlmostEqual(float(forum[4]), 0.025 / 0.022, places=2)
        self.assertNotIn("solve older, many at once: puzzles a second", rows)  # the old side has none
        self.assertIn("new (abc)", out.getvalue())

    def test_a_median_of_zero_seconds_has_no_ratio(self):
        with tempfile.TemporaryDirectory() as folder:
            write(folder, "new-solve-easy-1.json", solve([0.0, 0.0, 0.001]))
            write(folder, "old-solve-easy-1.json", solve([0.002, 0.003, 0.004]))
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                compare.main([folder, "abc", "def"])
        row = [line.split("|") for line in out.getvalue().splitlines()
               if line.startswith("| solve easy")][0]
        self.assertTrue(row[2].strip().startswith("0 "))
        self.assertEqual(row[4].strip(), "-")


if __name__ == "__main__":
    unittest.main()
