"""Time the engine: a full solve per preset, and the CLI end to end.

Run with ``python benchmarks/bench_engine.py`` (after installing the project).
Targets on a 2-core machine: a full solve under 0.5 s, ``farkle-train hint``
under 0.5 s with a warm cache, ``farkle-train --help`` under 0.3 s.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPEATS = 7


def median_seconds(action: Callable[[], object], repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cold_solve(name: str) -> float:
    """Score table, roll model and solve from nothing: no memory or disk cache."""
    from farkle_trainer.engine import rules, scoring, solver
    from farkle_trainer.engine.tables import Tables
    from farkle_trainer.store.tables import disk_tables

    def once() -> None:
        scoring.score_table.cache_clear()
        solver.roll_model.cache_clear()
        keeper = disk_tables()
        for path in keeper.directory.glob("*.npy"):
            path.unlink()
        Tables(keeper).turn(rules.PRESETS[name])

    return median_seconds(once)


def command_seconds(*args: str) -> float:
    exe = shutil.which("farkle-train") or str(Path(sys.executable).with_name("farkle-train"))

    def once() -> None:
        subprocess.run([exe, *args], check=True, capture_output=True)

    once()  # warm the disk cache and the OS file cache
    return median_seconds(once)


def main() -> int:
    home = tempfile.mkdtemp(prefix="farkle-bench-")
    os.environ["FARKLE_TRAIN_HOME"] = home
    # As installed: the modules' bytecode is written once and then read, never compiled per run.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    rows: list[tuple[str, float, float]] = []
    from farkle_trainer.engine.rules import PRESETS

    for name in PRESETS:
        rows.append((f"full solve, {name} (cold)", cold_solve(name), 0.5))
    rows.append(
        (
            "farkle-train hint 1 5 2 2 3 6 --points 300",
            command_seconds("hint", "1", "5", "2", "2", "3", "6", "--points", "300"),
            0.5,
        )
    )
    rows.append(
        (
            "farkle-train strategy --rules multiplier",
            command_seconds("strategy", "--rules", "multiplier"),
            0.5,
        )
    )
    rows.append(("farkle-train --help", command_seconds("--help"), 0.3))
    shutil.rmtree(home, ignore_errors=True)

    width = max(len(r[0]) for r in rows)
    print(f"{'what':<{width}}  {'median':>9}  {'target':>7}")
    slow = 0
    for what, seconds, target in rows:
        mark = "ok" if seconds < target else "SLOW"
        slow += seconds >= target
        print(f"{what:<{width}}  {seconds * 1000:7.1f}ms  {target * 1000:5.0f}ms  {mark}")
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
