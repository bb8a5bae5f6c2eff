"""Time the game commands end to end, as a user runs them, once the game table is at hand.

Run with ``python benchmarks/bench_game_cli.py`` (after installing the project). The table for
``classic`` to 10,000 ships with the package; the one to 9,500 does not, so it is solved first
in a fresh data directory (that cold solve is ``bench_game.py``'s to judge) and then read back
from the cache, where every read checks it (see the README, "How the game solver works"). Each
command runs in a new process, so start-up, the load from disk, the checks and the rendering
are all counted. Target: ``hint ... --score ... --opponent ...`` under 0.5 s, shipped or kept.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

RUNS = 5
HINT = ["hint", "1", "5", "2", "2", "3", "6", "--points", "300", "--score", "8200", "--opponent", "9100"]
COMMANDS: list[tuple[str, list[str], float | None]] = [
    ("hint 1 5 2 2 3 6 --points 300 --score 8200 --opponent 9100", HINT, 0.5),
    ("hint ... --json", [*HINT, "--json"], 0.5),
    ("strategy --game", ["strategy", "--game"], None),
    ("hint ... --target 9500 (a kept table, checked)", [*HINT, "--target", "9500"], 0.5),
    (
        "hint 1 5 2 2 3 6 --points 300 (expected points, for scale)",
        ["hint", "1", "5", "2", "2", "3", "6", "--points", "300"],
        None,
    ),
]


def timed(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "farkle_trainer", *args], env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> int:
    home = tempfile.mkdtemp(prefix="farkle-bench-game-cli-")
    env = dict(os.environ, FARKLE_TRAIN_HOME=home, XDG_CACHE_HOME=os.path.join(home, "xdg"))
    env.pop("FARKLE_TRAIN_CACHE", None)
    # As installed: the modules' bytecode is written once and then read, never compiled per run.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    start = time.perf_counter()
    timed(["strategy", "--game", "--json"], env)
    print(f"first use of classic to 10,000 (it ships): {time.perf_counter() - start:.1f} s")
    start = time.perf_counter()
    timed(["strategy", "--game", "--target", "9500", "--json"], env)
    print(f"first solve of classic to 9,500 (cold, once): {time.perf_counter() - start:.1f} s")
    width = max(len(c[0]) for c in COMMANDS)
    slow = 0
    try:
        for what, args, target in COMMANDS:
            timed(args, env)  # once untimed: the first run may still write a cache file
            times = [timed(args, env) for _ in range(RUNS)]
            median = statistics.median(times)
            mark = "" if target is None else "ok" if median < target else "SLOW"
            slow += mark == "SLOW"
            limit = "-" if target is None else f"{target:g}"
            spread = f"median {median:5.2f} s  best {min(times):5.2f} s"
            print(f"{what:<{width}}  {spread}  target {limit:>4}  {mark}")
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
