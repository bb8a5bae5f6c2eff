"""Time the game solver: the full two-player table cold and warm, a hint, the solo table.

Run with ``python benchmarks/bench_game.py`` (after installing the project).
Targets on a 2-core machine: the classic table to 10,000 within 15 s cold and under
200 MB, a warm ``game_plays`` (load from disk included) under 0.5 s.
"""

from __future__ import annotations

import os
import resource
import shutil
import sys
import tempfile
import time


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    home = tempfile.mkdtemp(prefix="farkle-bench-game-")
    os.environ["FARKLE_TRAIN_HOME"] = home
    os.environ.pop("FARKLE_TRAIN_CACHE", None)
    from farkle_trainer.engine import game as gs
    from farkle_trainer.engine.dice import counts_of
    from farkle_trainer.engine.rules import PRESETS
    from farkle_trainer.store.tables import keep_tables_on_disk

    keep_tables_on_disk()

    classic = PRESETS["classic"]
    rows: list[tuple[str, float, float | None, str]] = []

    base = peak_mb()
    start = time.perf_counter()
    table = gs.solve_game(classic, 10_000)
    cold = time.perf_counter() - start
    rows.append(("two-player table, classic to 10,000 (cold)", cold, 15.0, "s"))
    rows.append(("  peak memory (max RSS; before the solve)", peak_mb(), 200.0, f"MB ({base:.0f})"))

    gs.clear_memory()
    start = time.perf_counter()
    table = gs.solve_game(classic, 10_000)
    plays = gs.game_plays(counts_of([1, 5, 2, 2, 3, 6]), 300, 7000, 9000, table)
    rows.append(("warm load from disk + game_plays", time.perf_counter() - start, 0.5, "s"))

    start = time.perf_counter()
    gs.game_plays(counts_of([1, 1, 5, 3, 4, 6]), 0, 2500, 6000, table)
    rows.append(("game_plays, table in memory", time.perf_counter() - start, 0.5, "s"))

    start = time.perf_counter()
    solo = gs.solve_solo(classic, 10_000)
    rows.append(("solo table, classic to 10,000 (cold)", time.perf_counter() - start, None, "s"))

    shutil.rmtree(home, ignore_errors=True)
    width = max(len(r[0]) for r in rows)
    slow = 0
    for what, value, target, unit in rows:
        mark = ""
        if target is not None:
            mark = "ok" if value < target else "SLOW"
            slow += value >= target
        limit = f"{target:g}" if target is not None else "-"
        print(f"{what:<{width}}  {value:9.2f} {unit:<10} target {limit:>5}  {mark}")
    print(f"W(0, 0) = {table.first_player_chance:.12f}; fair head start = {table.fair_head_start()}")
    print(f"best play of 1-5-2-2-3-6 at 7,000 v 9,000 with 300: keep {plays.plays[0].keep}")
    print(f"solo: expected turns from 0 = {solo.expected_turns(0):.9f}")
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
