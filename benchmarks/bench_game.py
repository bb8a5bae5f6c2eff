"""Time the game solver cold: each table solved from nothing in a process of its own.

Run with ``python benchmarks/bench_game.py`` (after installing the project). Every solve runs
in a new process with a fresh data directory and user cache (so a fresh compiler cache too) and
the shipped tables left unread, so the compiled loop's first compilation counts, as it does for
a user's first solve of a table that does not ship. Each is shown as a command shows it (the
sentence, then a line on standard error every five seconds). Beside each time: what the sentence
estimated (:func:`farkle_trainer.engine.gameplan.seconds`; its constants are calibrated from
these rows), how long the compiler's first step took, and the longest the solve went with
nothing said (at most ``QUIET``, the compiler's step included). Targets on a 2-core machine:

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

# Run in the child: solve one game cold, as a command does (the sentence, then a line on standard
# error every few seconds), and report what it took: the compiler's first step, and the longest
# wait with nothing said from the sentence to the end.
_CHILD = """
import json, resource, sys, time
from farkle_trainer.engine.gameplan import to_solve
from farkle_trainer.engine.rules import PRESETS
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.tables import DiskTables, cache_dir
from farkle_trainer.ui.progress import busyness, solving

kind, target, opening, penalty = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
tables = Tables(DiskTables(cache_dir(), ready=None))
rules = PRESETS["classic"].with_house_rules(opening_minimum=opening, three_farkle_penalty=penalty)
needs = to_solve(tables.plan(rules, target, kinds=("solo" if kind == "solo" else "game",)))
estimate = tables.estimate(needs, busyness()).total
said, steps = [], {}


class Stamped:
    def write(self, text):
        if text.strip():
            said.append(time.perf_counter())
        return len(text)

    def flush(self):
        pass

    def isatty(self):
        return False


sys.stderr = Stamped()
with solving(None, tables, needs) as report:
    told = report.doing
    report.doing = lambda step: (steps.__setitem__(step.value, time.perf_counter()), told(step))
    from farkle_trainer.engine.ranked import ranked_plays
    from farkle_trainer.engine.situations import WinGame

    start = time.perf_counter()
    if kind == "solo":
        table = tables.solo(rules, target)
        figure = table.expected_turns(0)
    else:
        table = tables.game(rules, target)
        figure = table.first_player_chance
    took = time.perf_counter() - start
end = time.perf_counter()
sys.stderr = sys.__stderr__
silence = max(b - a for a, b in zip(said, [*said[1:], end]))
compiled = steps["solving"] - steps["compiling"] if "compiling" in steps else None
warm = None
if kind == "warm":
    warm_tables = Tables(DiskTables(cache_dir(), ready=None))
    start = time.perf_counter()
    table = warm_tables.game(rules, target)
    ranked_plays(warm_tables, WinGame(rules, 300, target, 0, 7000, 9000), (1, 5, 2, 2, 3, 6))
    warm = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({
    "seconds": took, "peak_mb": peak, "figure": figure, "warm": warm, "estimate": estimate,
    "compile": compiled, "silence": silence,
}))
"""


def cold(kind: str, target: int, opening: int = 0, penalty: int = 0) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="farkle-bench-game-") as home:
        # The user cache too, so the compiled loop is compiled afresh and nothing is left behind.
        env = dict(os.environ, FARKLE_TRAIN_HOME=home, XDG_CACHE_HOME=os.path.join(home, "xdg"))
        env.pop("FARKLE_TRAIN_CACHE", None)
        args = [sys.executable, "-c", _CHILD, kind, str(target), str(opening), str(penalty)]
        start = time.perf_counter()
        out = subprocess.run(args, env=env, capture_output=True, text=True, check=True).stdout
        data: dict[str, float] = json.loads(out)
        data["wall"] = time.perf_counter() - start
        return data


#: The longest a solve may go with nothing said on standard error: a line every five seconds.
QUIET = 5.5

Row = tuple[str, float, float | None, str, dict[str, float] | None]


def main() -> int:
    rows: list[Row] = []
    plain = cold("warm", 10_000)
    rows.append(("classic to 10,000 (cold, compile included)", plain["wall"], 15.0, "s", plain))
    rows.append(("  peak memory", plain["peak_mb"], 200.0, "MB", None))
    rows.append(("  warm load from disk + every play ranked", plain["warm"], 0.5, "s", None))
    for target in (2_000, 5_000, 20_000):
        rows.append(
            (f"classic to {target:,} (cold)", (other := cold("game", target))["wall"], None, "s", other)
        )
    penalty = cold("game", 10_000, penalty=1000)
    rows.append(("classic, penalty 1,000, to 10,000 (cold)", penalty["wall"], 60.0, "s", penalty))
    rows.append(("  peak memory", penalty["peak_mb"], 1024.0, "MB", None))
    five = cold("game", 5_000, penalty=1000)
    rows.append(("classic, penalty 1,000, to 5,000 (cold)", five["wall"], 15.0, "s", five))
    two = cold("game", 2_000, penalty=1000)
    rows.append(("classic, penalty 1,000, to 2,000 (cold)", two["wall"], None, "s", two))
    harder = cold("game", 10_000, opening=500, penalty=1000)
    rows.append(
        ("classic, opening 500 and penalty 1,000, to 10,000 (cold)", harder["wall"], 60.0, "s", harder)
    )
    for target, pen in ((10_000, 0), (10_000, 1000)):
        solo = cold("solo", target, penalty=pen)
        what = f"solo{', penalty 1,000,' if pen else ''} to {target:,} (cold)"
        rows.append((what, solo["wall"], None, "s", solo))

    width = max(len(r[0]) for r in rows)
    slow = 0
    for what, value, limit_at, unit, run in rows:
        mark = ""
        if limit_at is not None:
            mark = "ok" if value < limit_at else "SLOW"
            slow += value >= limit_at
        limit = f"{limit_at:g}" if limit_at is not None else "-"
        said = seen = ""
        if run is not None:
            said = f"said about {run['estimate']:5.1f} s"
            compiled = "-" if run["compile"] is None else f"{run['compile']:4.1f} s"
            seen = f"compiling {compiled:>6}, quiet at most {run['silence']:4.1f} s"
            if run["silence"] > QUIET:
                seen += " TOO QUIET"
                slow += 1
        print(f"{what:<{width}}  {value:9.2f} {unit:<3} {said:<16}  target {limit:>5}  {mark:<4}  {seen}")
    print(f"W(0, 0): {plain['figure']:.12f} plain, {penalty['figure']:.12f} with the penalty")
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
