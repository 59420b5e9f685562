#!/usr/bin/env python3
"""The GPU's time to a solution from generations, and its predictions from CPU runs.

The CPU backend computes the GPU's bytes, so a configuration's generations to a solution can be
measured on the CPU; time on the GPU is then, to a good approximation,

    seconds = a + generations * (c0 + c1 * local_search)

for one device, box size and island shape (a generation of islands that all run at once costs
about its local-search depth: each thread runs its child's moves in sequence).

  fit SWEEP.md [CONFIG=LS ...]   fits a, c0, c1 to a dev-sets sweep table (the rows of the
                                 configurations named, each with its local search), printing the
                                 fit and its error on every row
  predict A C0 C1 LS JSON...     each solve --json file's (a set's) predicted median and p95 in ms,
                                 from each result's generations (a run whose islands grew: in
                                 generations of its first stage's islands; one propagation
                                 completed: 0 ms, as no engine is made)
  throughput GEN_MS SLOTS [--threads T | --weights W1,W2] [--joined R] JSON...
                                 puzzles a second when SLOTS runs share the device, each file's
                                 runs taking their generations in file order, a generation of the
                                 full device costing GEN_MS: the driver's epochs simulated, with
                                 epochs no longer than the first free slot needed while runs wait
                                 (the driver now) and without (epochs of about 0.1 s, as before).
                                 A grown run's generations count by its islands' size, or with
                                 --threads T by its children a thread on teams of T (a thread
                                 runs its children in sequence: islands of 128 and 256 cost the
                                 same on 256 threads, 512 twice), or with --weights by the
                                 given costs of a generation of the second and third stages
                                 over the first's (1.37,2.86 from the H100's sweep,
                                 docs/benchmarks.md); with --joined R, the
                                 files' runs as one file, in the order given, R times over (a
                                 long file: each run is a function of its puzzle, configuration
                                 and seed)

  room GEN_MS ROOM JSON...       puzzles a second when runs share a device that holds ROOM
                                 islands of the files' first stage at once (an H100: 1056 of 128,
                                 3696 of 32), each run taking its islands' room from its first
                                 generation, in file order while they fit, and a grown stage
                                 twice its stage before's (islands twice the size); a generation
                                 costs GEN_MS times the more of its slowest island's children a
                                 thread (256 threads a block) and the room asked over ROOM, and
                                 the host's look 0.05 ms (epochs of a generation, as the driver
                                 holds them while runs wait)

docs/benchmarks.md, "The defaults, by backend and size", has the commands and their output.
"""
import json
import math
import statistics
import sys


def quantile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def fit(path, configs):
    import numpy as np  # Debian's python3-numpy (scripts/setup)

    rows, X, y = [], [], []
    for line in open(path):
        cells = [c.strip() for c in line.split("|")[1:-1]]
        if len(cells) < 7 or cells[0] not in configs:
            continue
        ls, g, ms = configs[cells[0]], float(cells[6]), float(cells[3])
        rows.append((cells[0], cells[1], g, ms))
        X.append([1.0, g, g * ls])
        y.append(ms)
    coef = np.linalg.lstsq(np.array(X), np.array(y), rcond=None)[0]
    pred = np.array(X) @ coef
    err = np.abs(pred - y) / np.array(y)
    print(f"a = {coef[0]:.3f} ms, c0 = {coef[1]:.4f} ms, c1 = {coef[2]:.6f} ms per move "
          f"(rows {len(y)}, median error {np.median(err):.0%}, max {err.max():.0%})")
    for (config, file, g, ms), p in zip(rows, pred):
        print(f"  {config:18} {file:36} generations {g:4g}  {ms:6.2f} ms  model {p:6.2f}")


def by_island_size(k):
    """Stage k's cost over the first's by its islands' size: 2^k."""
    return 1 << k


def first_stage_generations(result, stage_length, weight=by_island_size):
    """A run's work in generations of its first stage's islands: its generations, or, where its
    islands grew (--grow-after: `stage_length`, as the JSON records it), each stage's generations
    weighted by weight(k)."""
    grown = result.get("growths", 0)
    if grown == 0:
        return result["generations"]
    last = result["generations"] - grown * stage_length
    return sum(stage_length * weight(k) for k in range(grown)) + last * weight(grown)


def given_weights(text):
    """Stage k's cost over the first's from "W1,W2,...": stage 0 costs 1."""
    weights = [1.0] + [float(w) for w in text.split(",")]
    return lambda k: weights[k]


def per_thread_weight(island_size, threads):
    """Stage k's cost over the first's when a team of `threads` runs an island's children, each
    thread its share in sequence."""
    share = lambda k: -(-(island_size << k) // threads)
    return lambda k: share(k) / share(0)


def documents(paths):
    """Each solve --json file's name and contents."""
    for path in paths:
        with open(path) as f:
            yield path.split('/')[-1], json.load(f)


def predict(a, c0, c1, ls, paths):
    print("| set | solved | median generations | predicted median ms | predicted p95 ms |")
    print("|---|---|---:|---:|---:|")
    for name, doc in documents(paths):
        results = doc["results"]
        stage = doc["config"].get("grow_after", 0)  # files from before --grow-after lack it
        ms = [(0.0 if r["stop"] == "propagation" else
               a + first_stage_generations(r, stage) * (c0 + c1 * ls))
              if r["solved"] else float("inf") for r in results]
        gens = [r["generations"] for r in results]
        solved = sum(r["solved"] for r in results)
        print(f"| {name} | {solved}/{len(results)} | {statistics.median(gens):g} | "
              f"{statistics.median(ms):.2f} | {quantile(ms, 0.95):.2f} |")


def simulate(lengths, slots, gen_ms, shrink_when_idle):
    """Wall seconds for runs of `lengths` generations on `slots` slots, epoch by epoch."""
    queue = list(lengths)
    left = [None] * slots  # generations a slot's run still needs; None: idle
    epoch, ms, held = 1, 0.0, False
    while queue or any(x is not None for x in left):
        for l in range(slots):  # between epochs, idle slots take the next runs (generation 0)
            if left[l] is None and queue:
                left[l] = queue.pop(0)
        ran = [min(x, epoch) for x in left if x is not None]
        took = max(ran) * gen_ms + 0.05  # the longest run in the epoch, and the host's look
        ms += took
        first_free = 0  # generations into the epoch after which a slot stood idle (0: none)
        for l in range(slots):
            if left[l] is not None and left[l] <= epoch:  # its run ends in this epoch
                if left[l] < epoch and queue:
                    first_free = min(first_free or left[l], left[l])
                left[l] = None
            elif left[l] is not None:
                left[l] -= epoch
        if shrink_when_idle and first_free:
            epoch, held = min(epoch, first_free), True
        elif shrink_when_idle and held and queue:
            pass
        elif took < 50 and epoch < 1000:
            epoch *= 2
        elif took > 200 and epoch > 1:
            epoch //= 2
    return ms / 1000


def run_lengths(path, threads, weights=None):
    """Each run of a solve --json file in whole generations of its first stage's islands."""
    with open(path) as f:
        doc = json.load(f)
    stage = doc["config"].get("grow_after", 0)
    weight = (given_weights(weights) if weights else
              per_thread_weight(doc["config"]["island_size"], threads) if threads else by_island_size)
    return [max(math.ceil(first_stage_generations(r, stage, weight)), 1) for r in doc["results"]]


def throughput(gen_ms, slots, paths, threads=0, joined=0, weights=None):
    print("| set | runs | puzzles/s, epochs of 0.1 s | puzzles/s, epochs held short while runs wait |"
          " ideal (the device always full) |")
    print("|---|---:|---:|---:|---:|")
    files = [(path.split('/')[-1], run_lengths(path, threads, weights)) for path in paths]
    if joined:
        files = [(f"{len(paths)} files x {joined}", [n for _, f in files for n in f] * joined)]
    for name, lengths in files:
        ideal = sum(lengths) * gen_ms / slots / 1000
        old, new = (simulate(lengths, slots, gen_ms, shrink) for shrink in (False, True))
        print(f"| {name} | {len(lengths)} | {len(lengths) / old:.0f} | "
              f"{len(lengths) / new:.0f} | {len(lengths) / ideal:.0f} |")


def stages(result, islands, island_size, stage_length):
    """A run's stages as [room in first-stage islands, children a thread, generations]."""
    if result["stop"] == "propagation":
        return []
    grown = result.get("growths", 0)
    out = []
    for k in range(grown + 1):
        length = stage_length if k < grown else result["generations"] - grown * stage_length
        out.append([islands << k, -(-(island_size << k) // 256), length])
    return [s for s in out if s[2] > 0] or [[islands, 1, 1]]


def replay_room(runs, gen_ms, room):
    """Milliseconds for `runs` (each a list of stages) on a device of `room` first-stage islands."""
    queue, active, ms = [r for r in runs if r], [], 0.0
    while queue or active:
        used = sum(a[0][0] for a in active)
        while queue and (not active or used + queue[0][0][0] <= room):
            active.append([list(s) for s in queue.pop(0)])
            used += active[-1][0][0]
        asked = sum(a[0][0] * a[0][1] for a in active) / room
        ms += gen_ms * max(max(a[0][1] for a in active), asked) + 0.05
        for a in active:
            a[0][2] -= 1
            if a[0][2] <= 0:
                a.pop(0)
        active = [a for a in active if a]
    return ms


def room(gen_ms, room_islands, paths):
    print("| set | runs | islands a run | puzzles/s |")
    print("|---|---:|---:|---:|")
    for name, doc in documents(paths):
        c = doc["config"]
        runs = [stages(r, c["islands"], c["island_size"], c.get("grow_after", 0))
                for r in doc["results"]]
        ms = replay_room(runs, gen_ms, room_islands)
        print(f"| {name} | {len(runs)} | {c['islands']} | {len(runs) / ms * 1000:.0f} |")


def main(argv):
    if len(argv) >= 2 and argv[0] == "fit":
        configs = dict((kv.split("=")[0], float(kv.split("=")[1])) for kv in argv[2:])
        fit(argv[1], configs)
    elif len(argv) >= 6 and argv[0] == "predict":
        predict(*map(float, argv[1:5]), argv[5:])
    elif len(argv) >= 4 and argv[0] == "throughput":
        options, rest = {"--threads": 0, "--joined": 0, "--weights": None}, argv[3:]
        while len(rest) >= 2 and rest[0] in options:
            options[rest[0]], rest = (rest[1] if rest[0] == "--weights" else int(rest[1])), rest[2:]
        if not rest or (options["--threads"] and options["--weights"]):
            sys.exit(__doc__)
        throughput(float(argv[1]), int(argv[2]), rest, options["--threads"], options["--joined"],
                   options["--weights"])
    elif len(argv) >= 4 and argv[0] == "room":
        room(float(argv[1]), int(argv[2]), argv[3:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
