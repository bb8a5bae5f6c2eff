"""What the compiled loop costs and buys: numba's size, its first compilation, and cold solves
with it and with numpy alone.

Run with ``python benchmarks/bench_numba.py`` (after installing the project). Every solve runs in
a new process with a fresh data directory and the shipped tables left unread; "compiled kept"
reads the machine code a first run compiled, "numpy" never loads numba; with NUMBA_DISABLE_JIT=1
(numba would run the loop as plain Python) the solver takes the numpy path too. These figures are
the ones the README gives for keeping numba a dependency.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path

# Run in the child: one cold solve, the loop compiled and kept, loaded, or left out.
_CHILD = """
import json, sys, time
mode, target, penalty = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
start = time.perf_counter()
from farkle_trainer.engine.game.runs import solve_runs
from farkle_trainer.engine.game.solve import solve_totals
from farkle_trainer.engine.rules import PRESETS
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.tables import DiskTables, cache_dir

tables = Tables(DiskTables(cache_dir(), ready=None))
loaded = time.perf_counter()
compile_seconds = None
if mode == "compile":
    tables.loop()
    compile_seconds = time.perf_counter() - loaded
    loaded = time.perf_counter()
rules = PRESETS["classic"].with_house_rules(three_farkle_penalty=penalty)
if mode == "numpy":
    # The solvers themselves, given no compiled loop.
    plain, _ = solve_totals(tables.setting(rules, target // 50, 0, 0), loop=None)
    if penalty:
        chance = float(solve_runs(tables.setting(rules, target // 50, 0, penalty // 50), plain)[0, 0, 0, 0])
    else:
        chance = float(plain[0, 0])
else:
    chance = tables.game(rules, target).first_player_chance
done = time.perf_counter()
times = {"solve": done - loaded, "total": done - start, "compile": compile_seconds}
print(json.dumps({**times, "chance": chance}))
"""


def installed_megabytes(name: str) -> float:
    """The size on disk of an installed distribution's files."""
    dist = metadata.distribution(name)
    total = 0
    for file in dist.files or ():
        path = Path(str(dist.locate_file(file)))
        if path.is_file():
            total += path.stat().st_size
    return total / 1e6


def run(mode: str, target: int, penalty: int, home: str, **more: str) -> dict[str, float]:
    # The user cache too, where the compiled loop is kept for the next run.
    env = dict(os.environ, FARKLE_TRAIN_HOME=home, XDG_CACHE_HOME=os.path.join(home, "xdg"), **more)
    env.pop("FARKLE_TRAIN_CACHE", None)
    # Each solve from nothing: the game tables go, the compiled code (if any) stays.
    for table in Path(home, "cache").glob("*.npz"):
        table.unlink()
    args = [sys.executable, "-c", _CHILD, mode, str(target), str(penalty)]
    out = subprocess.run(args, env=env, capture_output=True, text=True, check=True).stdout
    data: dict[str, float] = json.loads(out)
    return data


def main() -> int:
    for name in ("numba", "llvmlite"):
        print(f"{name} {metadata.version(name)}: {installed_megabytes(name):.0f} MB installed")
    with tempfile.TemporaryDirectory(prefix="farkle-bench-numba-") as home:
        first = run("compile", 1000, 0, home)
        print(f"first compilation of the loop: {first['compile']:.2f} s (loading numba included)")
        again = run("compile", 1000, 0, home)
        print(f"loading the kept loop:          {again['compile']:.2f} s")
        for target, penalty in ((10_000, 0), (5_000, 1000)):
            kept = run("kept", target, penalty, home)
            plain = run("numpy", target, penalty, home)
            what = f"classic to {target:,}" + (f", penalty {penalty:,}" if penalty else "")
            speed = plain["solve"] / kept["solve"]
            print(
                f"{what:<28} compiled (kept) {kept['solve']:6.1f} s   numpy {plain['solve']:6.1f} s   "
                f"{speed:4.1f} times faster   |W(0,0) difference| {abs(kept['chance'] - plain['chance']):.1e}"
            )
        # numba told to compile nothing would run the loop as plain Python: the solver uses numpy.
        off = run("kept", 2_000, 0, home, NUMBA_DISABLE_JIT="1")
        plain = run("numpy", 2_000, 0, home)
        what = "classic to 2,000, NUMBA_DISABLE_JIT=1"
        print(f"{what:<28} {off['solve']:6.1f} s   numpy alone {plain['solve']:6.1f} s")
    with tempfile.TemporaryDirectory(prefix="farkle-bench-numba-cold-") as fresh:
        cold = run("compile", 10_000, 0, fresh)
        print(f"classic to 10,000 with the first compilation: {cold['total']:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
