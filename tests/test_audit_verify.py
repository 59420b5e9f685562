"""bench/audit_verify.py, the audit's verifier: it passes true solutions in every alphabet and
names each kind of false one (a changed given, a broken unit, a value out of range, a solve
reported as unsolved)."""
import csv
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import audit_verify  # noqa: E402

SOLUTION_9 = ("534678912672195348198342567859761423426853791713924856"
              "961537284287419635345286179")
PUZZLE_9 = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
SOLUTION_4 = "1234341221434321"


def hex_zero(values):
    return "".join("0123456789abcdef"[v - 1] if v else "." for v in values)


def latin_16():
    """A valid 16x16 grid: row r, column c holds (4*(r%4) + r//4 + c) mod 16, plus 1."""
    return [(4 * (r % 4) + r // 4 + c) % 16 + 1 for r in range(16) for c in range(16)]


class AuditVerify(unittest.TestCase):
    def run_rows(self, puzzles, rows):
        """Runs the verifier on one CSV of `rows` (puzzle index, size, solved, grid, stop)."""
        with tempfile.TemporaryDirectory() as d:
            pfile = Path(d) / "p.txt"
            pfile.write_text("# puzzles\n" + "\n".join(puzzles) + "\n")
            cfile = Path(d) / "runs.csv"
            with open(cfile, "w", newline="") as f:
                w = csv.writer(f)
                w.writerow(["puzzle_id", "solved", "grid", "stop", "size"])
                for k, size, solved, grid, stop in rows:
                    w.writerow([f"{pfile}#{k}", solved, grid, stop, size])
            return audit_verify.main([str(cfile)])

    def test_true_solutions_pass(self):
        self.assertEqual(self.run_rows([PUZZLE_9], [(1, "9x9", "1", SOLUTION_9, "solved")]), 0)
        self.assertEqual(self.run_rows(["1..4..1..1....2."], [(1, "4x4", "1", SOLUTION_4, "solved")]), 0)
        grid = latin_16()
        puzzle = [v if i % 3 == 0 else 0 for i, v in enumerate(grid)]
        self.assertEqual(self.run_rows([hex_zero(puzzle)], [(1, "16x16", "1", hex_zero(grid), "solved")]), 0)

    def test_false_solutions_fail(self):
        changed_given = "4" + SOLUTION_9[1:]  # r1c1 is a given 5
        self.assertEqual(self.run_rows([PUZZLE_9], [(1, "9x9", "1", changed_given, "solved")]), 1)
        swapped = SOLUTION_9[:3] + SOLUTION_9[4] + SOLUTION_9[3] + SOLUTION_9[5:]  # r1c4, r1c5
        self.assertEqual(self.run_rows(["." * 81], [(1, "9x9", "1", swapped, "solved")]), 1)
        self.assertEqual(self.run_rows(["." * 81], [(1, "9x9", "1", SOLUTION_9[:80], "solved")]), 1)
        self.assertEqual(self.run_rows(["." * 81], [(1, "9x9", "0", SOLUTION_9, "generations")]), 1)
        grid = latin_16()
        grid[0], grid[1] = grid[1], grid[0]
        self.assertEqual(self.run_rows([hex_zero([0] * 256)], [(1, "16x16", "1", hex_zero(grid), "solved")]), 1)

    def test_an_unsolved_row_with_an_unsolved_grid_passes(self):
        self.assertEqual(self.run_rows([PUZZLE_9], [(1, "9x9", "0", SOLUTION_9[:-2] + "97", "generations")]), 0)


if __name__ == "__main__":
    unittest.main()
