#!/usr/bin/env python3
"""Each layer includes only those below it (docs/architecture.md): every `#include "gpuga/..."`
of the product's sources and public headers, checked against the rooms in order. A public header
belongs to the room of its source file (include/gpuga/X.hpp: the room holding X.cpp or X.cu), one
under include/gpuga/sudoku/ to the puzzle library, the ground floor.
First on a small tree with an include that goes up, which must be found.
Usage: test_layers.py SOURCE_DIR"""
import os
import re
import sys
import tempfile

ROOMS = [  # bottom up
    ("puzzles", ["host/sudoku"]),  # the puzzle library: its headers are include/gpuga/sudoku/
    ("operators", ["include/gpuga/device"]),
    ("engine", ["engine"]),
    ("CUDA backend", ["cuda"]),
    ("files", ["host/io"]),
    ("the run", ["host/run"]),
    ("MPI", ["host/mpi"]),
    ("front ends", ["host/cli", "python"]),
]
# The error types, the version, and the host/device shim with the keyed random numbers, which the
# puzzle library's generation draws as the searches do.
BELOW_ALL = {"gpuga/errors.hpp", "gpuga/version.hpp", "gpuga/device/hd.hpp", "gpuga/device/rng.hpp"}
HEADER_ONLY = {"gpuga/engine.hpp": "engine", "gpuga/launch_policy.hpp": "engine",
               "gpuga/launch_limits.hpp": "engine"}  # public headers with no source file of their own
INCLUDE = re.compile(r'\s*#\s*include\s+"(gpuga/[^"]+)"')


def files_of(root, folder, endings):
    for where, _, names in os.walk(os.path.join(root, folder)):
        for name in sorted(names):
            if name.endswith(endings):
                yield os.path.join(where, name)


def violations(root):
    names = [name for name, _ in ROOMS]
    source_room = {}
    for room, (_, folders) in enumerate(ROOMS):
        for folder in folders:
            for path in files_of(root, folder, (".cpp", ".cu")):
                source_room[os.path.splitext(os.path.basename(path))[0]] = room

    def room_of(header):
        if header in BELOW_ALL:
            return -1
        if header.startswith("gpuga/sudoku/"):
            return names.index("puzzles")
        if header.startswith("gpuga/device/"):
            return names.index("operators")
        if header in HEADER_ONLY:
            return names.index(HEADER_ONLY[header])
        return source_room.get(os.path.splitext(os.path.basename(header))[0])

    found = []

    def check(path, room):
        for number, line in enumerate(open(path, encoding="utf-8"), 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            header = match.group(1)
            included = room_of(header)
            where = f"{os.path.relpath(path, root)}:{number}"
            if included is None:
                found.append(f"{where}: {header} belongs to no room")
            elif included > room:
                found.append(f"{where}: {names[room]} includes {header} ({names[included]})")

    for room, (_, folders) in enumerate(ROOMS):
        for folder in folders:
            for path in files_of(root, folder, (".hpp", ".cpp", ".cu", ".cuh")):
                check(path, room)
    for path in files_of(root, "include/gpuga", (".hpp",)):
        header = os.path.relpath(path, os.path.join(root, "include"))
        if header.startswith("gpuga/device/"):
            continue
        room = room_of(header)
        if room is None:
            found.append(f"{header} belongs to no room")
        else:
            check(path, room)
    return found


def planted_tree(top):
    files = {
        "include/gpuga/sudoku/puzzle.hpp": '#include "gpuga/runner.hpp"\n',  # goes up
        "include/gpuga/runner.hpp": '#include "gpuga/sudoku/puzzle.hpp"\n',
        "host/sudoku/puzzle.cpp": '#include "gpuga/sudoku/puzzle.hpp"\n',
        "host/run/runner.cpp": '#include "gpuga/runner.hpp"\n',
    }
    for path, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(top, path)), exist_ok=True)
        with open(os.path.join(top, path), "w", encoding="utf-8") as out:
            out.write(text)


def main():
    with tempfile.TemporaryDirectory() as top:
        planted_tree(top)
        found = violations(top)
        if found != ["include/gpuga/sudoku/puzzle.hpp:1: puzzles includes gpuga/runner.hpp (the run)"]:
            print("FAIL: the check missed a planted include that goes up:", found)
            return 1
    found = violations(sys.argv[1])
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
