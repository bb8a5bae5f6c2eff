"""Time computer decisions in whole games once the game table is cached.

Run with ``python benchmarks/bench_play.py [TARGET]`` (after installing the project; the
default target is 10,000, whose table takes a while to solve the first time). Plays Hard
against Medium and Easy on several seeds and times every decision of each level (the
state in, the choice out), then the analysis of each whole game as ``play`` shows it.
Targets: each decision under 50 ms, each game's analysis under 2 s.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time

LIMIT_MS = 50.0
ANALYSIS_LIMIT_S = 2.0


def main() -> int:
    target = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    os.environ.setdefault("FARKLE_TRAIN_HOME", tempfile.mkdtemp(prefix="farkle-bench-play-"))
    from farkle_trainer.engine.plays import hint
    from farkle_trainer.engine.tables import Tables
    from farkle_trainer.store.tables import disk_tables
    from farkle_trainer.training.games import computers
    from farkle_trainer.training.games import match as m
    from farkle_trainer.training.games.analysis import analyse
    from farkle_trainer.training.games.dice import Seeded
    from farkle_trainer.training.games.setup import Level, Player, new_setup

    tables = Tables(disk_tables())
    hard = Player("Hal", Level.HARD)
    setup = new_setup((hard, Player("Med", Level.MEDIUM)), target=target)
    start = time.perf_counter()
    tables.game(setup.rules, setup.target, setup.opening)
    print(f"game table to {target:,}: {time.perf_counter() - start:.1f} s (solved or loaded once)")
    # Medium's turn table is solved once per rule set too; time decisions, not that solve.
    hint(tables, (1, 5, 2, 2, 3, 6), 0, setup.rules)

    times: dict[str, list[float]] = {level.value: [] for level in Level}
    analyses: list[float] = []
    line_ups: tuple[tuple[Player, ...], ...] = (
        (hard, Player("Med", Level.MEDIUM)),
        (Player("Eve", Level.EASY), hard),
        (hard, Player("Med", Level.MEDIUM), Player("Eve", Level.EASY)),
    )
    for seed in range(6):
        for players in line_ups:
            state = m.new_match(new_setup(players, target=target, dice=Seeded(f"bench-{seed}")))
            source = state.setup.source()
            while not state.over:
                if state.phase == "pick":
                    level = state.player.level
                    assert level is not None
                    start = time.perf_counter()
                    computers.choose(tables, state)
                    times[level.value].append(1000 * (time.perf_counter() - start))
                state = computers.step(tables, state, source)
            start = time.perf_counter()
            analyse(tables, state)
            analyses.append(time.perf_counter() - start)
    slow = 0
    for name, values in times.items():
        worst = max(values)
        mark = "ok" if worst < LIMIT_MS else "SLOW"
        slow += worst >= LIMIT_MS
        p99 = statistics.quantiles(values, n=100, method="inclusive")[98]
        print(
            f"{name:<7} {len(values):5d} decisions  median {statistics.median(values):6.2f} ms  "
            f"p99 {p99:6.2f} ms  max {worst:6.2f} ms  {mark}"
        )
    worst = max(analyses)
    slow += worst >= ANALYSIS_LIMIT_S
    print(
        f"analysis {len(analyses):4d} games      median {statistics.median(analyses):6.3f} s   "
        f"max {worst:6.3f} s  {'ok' if worst < ANALYSIS_LIMIT_S else 'SLOW'}"
    )
    return 1 if slow else 0


if __name__ == "__main__":
    raise SystemExit(main())
