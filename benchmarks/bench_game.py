"""Time the game solver cold: each table solved from nothing in a process of its own.

Run with ``python benchmarks/bench_game.py`` (after installing the project). Every solve runs
in a new process with a fresh data directory (so a fresh compiler cache too) and the shipped
tables left unread, so the compiled loop's first compilation counts, as it does for a user's
first solve of a table that does not ship. Beside each time is what the sentence every command
says before a solve would have estimated (:func:`farkle_trainer.engine.gameplan.seconds`); the
estimate's constants are calibrated from these rows. Targets on a 2-core machine:

* classic to 10,000: within 15 s, under 200 MB;
* classic with the 1,000 three-Farkle penalty to 10,000: within 60 s, under 1 GB;
* the same to 5,000: within 15 s;
* a warm load of the 10,000 table from disk and every play of a roll ranked: under 0.5 s.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

# Run in the child: solve one game cold and report what it took.
_CHILD = """
import json, resource, sys, time
from farkle_trainer.engine.gameplan import seconds, tables_for, to_solve
from farkle_trainer.engine.keeper import install
from farkle_trainer.engine.rules import PRESETS
from farkle_trainer.store.tables import DiskTables

kind, target, opening, penalty = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
install(DiskTables(ready=None))
rules = PRESETS["classic"].with_house_rules(opening_minimum=opening, three_farkle_penalty=penalty)
estimate = seconds(to_solve(tables_for(rules, target, kinds=("solo" if kind == "solo" else "game",))))
from farkle_trainer.engine import game as gs
from farkle_trainer.engine.ranked import ranked_plays
from farkle_trainer.engine.situations import WinGame

start = time.perf_counter()
if kind == "solo":
    table = gs.solve_solo(rules, target)
    figure = table.expected_turns(0)
else:
    table = gs.solve_game(rules, target)
    figure = table.first_player_chance
took = time.perf_counter() - start
warm = None
if kind == "warm":
    gs.clear_memory()
    start = time.perf_counter()
    table = gs.solve_game(rules, target)
    ranked_plays(WinGame(rules, 300, target, 0, 7000, 9000), (1, 5, 2, 2, 3, 6))
    warm = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": took, "peak_mb": peak, "figure": figure, "warm": warm, "estimate": estimate}))
"""


def cold(kind: str, target: int, opening: int = 0, penalty: int = 0) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="farkle-bench-game-") as home:
        env = dict(os.environ, FARKLE_TRAIN_HOME=home)
        env.pop("FARKLE_TRAIN_CACHE", None)
        args = [sys.executable, "-c", _CHILD, kind, str(target), str(opening), str(penalty)]
        start = time.perf_counter()
        out = subprocess.run(args, env=env, capture_output=True, text=True, check=True).stdout
        data: dict[str, float] = json.loads(out)
        data["wall"] = time.perf_counter() - start
        return data


def main() -> int:
    rows: list[tuple[str, float, float | None, str, float | None]] = []
    plain = cold("warm", 10_000)
    rows.append(("classic to 10,000 (cold, compile included)", plain["wall"], 15.0, "s", plain["estimate"]))
    rows.append(("  peak memory", plain["peak_mb"], 200.0, "MB", None))
    rows.append(("  warm load from disk + every play ranked", plain["warm"], 0.5, "s", None))
    for target in (2_000, 5_000, 20_000):
        other = cold("game", target)
        rows.append((f"classic to {target:,} (cold)", other["wall"], None, "s", other["estimate"]))
    penalty = cold("game", 10_000, penalty=1000)
    rows.append(("classic, penalty 1,000, to 10,000 (cold)", penalty["wall"], 60.0, "s", penalty["estimate"]))
    rows.append(("  peak memory", penalty["peak_mb"], 1024.0, "MB", None))
    five = cold("game", 5_000, penalty=1000)
    rows.append(("classic, penalty 1,000, to 5,000 (cold)", five["wall"], 15.0, "s", five["estimate"]))
    two = cold("game", 2_000, penalty=1000)
    rows.append(("classic, penalty 1,000, to 2,000 (cold)", two["wall"], None, "s", two["estimate"]))
    harder = cold("game", 10_000, opening=500, penalty=1000)
    label = "classic, opening 500 and penalty 1,000, to 10,000 (cold)"
    rows.append((label, harder["wall"], 60.0, "s", harder["estimate"]))
    for target, pen in ((10_000, 0), (10_000, 1000)):
        solo = cold("solo", target, penalty=pen)
        what = f"solo{', penalty 1,000,' if pen else ''} to {target:,} (cold)"
        rows.append((what, solo["wall"], None, "s", solo["estimate"]))

    width = max(len(r[0]) for r in rows)
    slow = 0
    for what, value, target, unit, estimate in rows:
        mark = ""
        if target is not None:
            mark = "ok" if value < target else "SLOW"
            slow += value >= target
        limit = f"{target:g}" if target is not None else "-"
        said = f"said about {estimate:5.1f} s" if estimate is not None else " " * 16
        print(f"{what:<{width}}  {value:9.2f} {unit:<3} {said}  target {limit:>5}  {mark}")
    print(f"W(0, 0): {plain['figure']:.12f} plain, {penalty['figure']:.12f} with the penalty")
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
