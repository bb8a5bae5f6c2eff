"""Time a newcomer's first commands: a fresh data directory, nothing solved or compiled yet.

Run with ``python benchmarks/bench_first_use.py`` (after installing the project, best from a
wheel in a fresh venv: ``pip wheel . -w dist && python -m venv /tmp/v && /tmp/v/bin/pip install
dist/*.whl && /tmp/v/bin/python benchmarks/bench_first_use.py``). Each command runs in a new
process with its own new data directory and compiler cache, as on a machine that has never run
farkle-train. Target on a 2-core machine: each within 1 s (the tables they need ship ready).
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
COMMANDS: list[tuple[str, list[str], str]] = [
    ("play --vs hard, to the first prompt", ["play", "--vs", "hard"], "q\n"),
    (
        "play --vs hard with the harder rules",
        ["play", "--vs", "hard", "--opening", "500", "--penalty", "1000"],
        "q\n",
    ),
    (
        "play --vs hard with the penalty alone",
        ["play", "--vs", "hard", "--penalty", "1000"],
        "q\n",
    ),
    (
        "hint 2 4 4 4 5 5 --score 9500 --opponent 9750",
        ["hint", "2", "4", "4", "4", "5", "5", "--score", "9500", "--opponent", "9750"],
        "",
    ),
    ("strategy --game", ["strategy", "--game"], ""),
    ("decide --kind game, to the first question", ["decide", "--kind", "game", "--count", "1"], "q\n"),
    ("learn 7", ["learn", "7"], ""),
]


def command() -> list[str]:
    """The installed command, from the environment this runs in."""
    found = shutil.which("farkle-train", path=os.path.dirname(sys.executable))
    return [found] if found else [sys.executable, "-m", "farkle_trainer"]


def once(args: list[str], stdin: str) -> float:
    with tempfile.TemporaryDirectory(prefix="farkle-first-use-") as home:
        # The user cache, where the compiled loop is kept, inside it too: every run is a first.
        env = dict(os.environ, FARKLE_TRAIN_HOME=home, XDG_CACHE_HOME=os.path.join(home, "xdg"))
        env.pop("FARKLE_TRAIN_CACHE", None)
        start = time.perf_counter()
        subprocess.run([*command(), *args, "--plain"], input=stdin, env=env, capture_output=True, text=True)
        return time.perf_counter() - start


def main() -> int:
    slow = 0
    width = max(len(what) for what, _, _ in COMMANDS)
    for what, args, stdin in COMMANDS:
        times = sorted(once(args, stdin) for _ in range(RUNS))
        median = statistics.median(times)
        mark = "ok" if median < 1.0 else "SLOW"
        slow += median >= 1.0
        spread = f"(min {times[0]:.2f}, max {times[-1]:.2f})"
        print(f"{what:<{width}}  median {median:5.2f} s  {spread}  target 1  {mark}")
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
