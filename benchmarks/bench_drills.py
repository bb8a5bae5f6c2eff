"""Time drill generation and grading: 100 drills must take under a second after the first solve.

Run with ``python benchmarks/bench_drills.py`` (after installing the project). It uses an
empty data and cache directory, solves the expected-score turn once (the first solve), then
times generating and grading 100 mixed drills, the final round's chance tables included;
then the same again with every table already solved. Exits 1 if the first timing is over
the limit.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from farkle_trainer.engine.tables import Tables

LIMIT_SECONDS = 1.0
DRILLS = 100


def drills_seconds(tables: Tables, seed: str) -> float:
    from farkle_trainer.engine.decisions import decision_for, grade
    from farkle_trainer.engine.seeded import Stream
    from farkle_trainer.store.rules import load_rules
    from farkle_trainer.training.drills.drills import Plan

    rules = load_rules("classic")
    stream = Stream(seed)
    start = time.perf_counter()
    plan = Plan(tables, rules, stream.child("plan"), DRILLS)
    picks = stream.child("picks")
    graded = 0
    for position in plan:
        choice = picks.choice(decision_for(tables, position).choices)
        grade(decision_for(tables, position), choice.keep, choice.action)
        graded += 1
    assert graded == DRILLS
    return time.perf_counter() - start


def main() -> int:
    os.environ["FARKLE_TRAIN_HOME"] = tempfile.mkdtemp(prefix="farkle-bench-drills-")
    from farkle_trainer.engine.solver import Objective
    from farkle_trainer.engine.tables import Tables
    from farkle_trainer.store.rules import load_rules
    from farkle_trainer.store.tables import disk_tables

    tables = Tables(disk_tables())
    start = time.perf_counter()
    tables.turn(load_rules("classic"), Objective.expected())
    first = time.perf_counter() - start
    after_first = drills_seconds(tables, "bench-1")
    warm = drills_seconds(tables, "bench-2")
    print(f"first solve (classic, expected score):           {first:.3f} s")
    limit = f"(limit {LIMIT_SECONDS} s)"
    print(f"{DRILLS} drills generated and graded after it:      {after_first:.3f} s {limit}")
    print(f"{DRILLS} more drills, every table already solved:  {warm:.3f} s")
    return 0 if after_first < LIMIT_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
