"""bench/cost_model.py's replay of runs side by side: the driver's epochs, the weights of grown
runs, and files joined into one long file."""
import contextlib
import io
import json
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import cost_model  # noqa: E402


def solve_json(folder, name, generations, island_size=128, grow_after=0, islands=1):
    """A solve --json file whose runs took `generations` (an int, or (generations, growths))."""
    results = []
    for g in generations:
        g, grown = g if isinstance(g, tuple) else (g, 0)
        results.append({"solved": True, "stop": "solved", "generations": g, "growths": grown})
    path = Path(folder) / name
    path.write_text(json.dumps({"config": {"island_size": island_size, "grow_after": grow_after,
                                           "islands": islands},
                                "results": results}))
    return str(path)


def rows(argv):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        cost_model.main(argv)
    return [[c.strip() for c in line.split("|")[1:-1]]
            for line in out.getvalue().splitlines()[2:]]


class Predict(unittest.TestCase):
    def test_median_and_p95_from_generations_in_files_old_and_new(self):
        # ms = a + generations x (c0 + c1 x depth): 1 + g x (0.5 + 0.01 x 50) = 1 + g. A file from
        # before --grow-after (no grow_after in its config) reads as runs that never grew.
        with tempfile.TemporaryDirectory() as folder:
            new = solve_json(folder, "new.json", [1, 2, 3, (30, 1)], grow_after=20)
            old = Path(folder) / "old.json"
            doc = json.loads(Path(new).read_text())
            del doc["config"]["grow_after"]
            doc["results"][-1]["growths"] = 0
            old.write_text(json.dumps(doc))
            got = rows(["predict", "1", "0.5", "0.01", "50", new, str(old)])
        # grown: 20 + 10 x 2 = 40 generations of the first islands; the p95 is the largest.
        self.assertEqual(got[0], ["new.json", "4/4", "2.5", "3.50", "41.00"])
        self.assertEqual(got[1], ["old.json", "4/4", "2.5", "3.50", "31.00"])


class Throughput(unittest.TestCase):
    def test_a_file_ends_with_its_longest_run(self):
        # Two slots, runs of 10, 10 and 100 generations at 1 ms: the long one starts when a
        # slot frees, after 10 ms, and ends alone 100 ms later (with the host's looks between
        # epochs, 0.05 ms each): 3 / 0.11 s. The device always full would do 3 / ((120 / 2) ms).
        with tempfile.TemporaryDirectory() as folder:
            path = solve_json(folder, "a.json", [10, 10, 100])
            (name, runs, _, held, ideal), = rows(["throughput", "1", "2", path])
        self.assertEqual((name, runs), ("a.json", "3"))
        self.assertAlmostEqual(float(held), 3 / 0.110, delta=0.5)
        self.assertEqual(ideal, "50")

    def test_grown_runs_weigh_by_island_size_or_by_children_a_thread(self):
        # Growth after 20: one run of 50 generations that grew twice (20 + 20 + 10). By islands'
        # size 20 + 40 + 40 = 100 generations of the first's; by children a thread on 256
        # threads, islands of 128 and 256 cost alike, 512 twice: 20 + 20 + 20 = 60.
        result = {"generations": 50, "growths": 2}
        self.assertEqual(cost_model.first_stage_generations(result, 20), 100)
        weight = cost_model.per_thread_weight(128, 256)
        self.assertEqual(cost_model.first_stage_generations(result, 20, weight), 60)

    def test_given_weights_count_whole_generations(self):
        # Stages costing 1.45 and 3.05 of the first's: 20 + 20 x 1.45 + 10 x 3.05 = 79.5, a
        # slot's whole 80 generations in the replay; --threads and --weights together are refused.
        result = {"generations": 50, "growths": 2}
        weight = cost_model.given_weights("1.45,3.05")
        self.assertAlmostEqual(cost_model.first_stage_generations(result, 20, weight), 79.5)
        with tempfile.TemporaryDirectory() as folder:
            path = solve_json(folder, "a.json", [(50, 2)], grow_after=20)
            self.assertEqual(cost_model.run_lengths(path, 0, "1.45,3.05"), [80])
            (_, _, _, held, _), = rows(["throughput", "1", "1", "--weights", "1.45,3.05", path])
            with self.assertRaises(SystemExit):
                rows(["throughput", "1", "1", "--threads", "256", "--weights", "2,4", path])
        self.assertLess(float(held), 1000 / 80)

    def test_joined_files_are_one_long_file(self):
        with tempfile.TemporaryDirectory() as folder:
            a = solve_json(folder, "a.json", [10, 10, 100])
            b = solve_json(folder, "b.json", [10, 10, 10])
            alone = rows(["throughput", "1", "2", a, b])
            joined, = rows(["throughput", "1", "2", "--joined", "4", a, b])
            long_file = solve_json(folder, "long.json", [10, 10, 100, 10, 10, 10] * 4)
            (_, *expected), = rows(["throughput", "1", "2", long_file])
        self.assertEqual([r[0] for r in alone], ["a.json", "b.json"])
        self.assertEqual(joined, ["2 files x 4", *expected])
        self.assertEqual(joined[1], "24")
        # Over 24 runs the long one no longer sets the time: nearer the full device's rate.
        self.assertGreater(float(joined[3]) / float(joined[4]), float(alone[0][3]) / float(alone[0][4]))

    def test_runs_take_their_islands_room_and_grown_stages_twice_it(self):
        # A device of 4 islands, runs of 2 islands of 32 growing after 5: two runs of 10
        # generations fill it, so the third (7 generations, grown once) waits 10, then runs 5
        # at 2 islands and 2 at 4, alone: 17 generations of 1 ms, a look of 0.05 ms each.
        with tempfile.TemporaryDirectory() as folder:
            path = solve_json(folder, "a.json", [10, 10, (7, 1)], island_size=32, grow_after=5,
                              islands=2)
            (name, runs, islands, rate), = rows(["room", "1", "4", path])
            self.assertEqual((name, runs, islands), ("a.json", "3", "2"))
            self.assertAlmostEqual(float(rate), 3 / 0.01785, delta=0.5)
            # On a device of 2 islands the grown stage asks twice the room: its generations
            # cost 2 ms.
            alone = solve_json(folder, "b.json", [(7, 1)], island_size=32, grow_after=5, islands=2)
            (_, _, _, rate), = rows(["room", "1", "2", alone])
            self.assertAlmostEqual(float(rate), 1 / (5 * 0.00105 + 2 * 0.00205), delta=0.5)


if __name__ == "__main__":
    unittest.main()
