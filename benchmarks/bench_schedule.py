"""Time the review schedule on FSRS: an answer reviewed, an old store moved onto it, and the
commands that read it.

Run with ``python benchmarks/bench_schedule.py`` (after installing the project).
Targets on a 2-core machine: an answer kept and its card reviewed under 20 ms, a store of
20,000 answers from version 0.2.0 (Leitner boxes) moved onto FSRS under 5 s when first opened,
``farkle-train progress`` and ``farkle-train decide --mistakes`` (nothing to ask) under 0.6 s.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

ANSWERS = 20_000
QUESTIONS = 2_000
REPEATS = 7


def old_store(directory: Path) -> None:
    """A store as version 0.2.0 left it (schema 5): ``ANSWERS`` answers to ``QUESTIONS`` questions
    over a year, scheduled in Leitner boxes as it scheduled them."""
    from farkle_trainer.store import leitner
    from farkle_trainer.store.paths import FILE_NAME
    from farkle_trainer.store.schema import APPLICATION_ID, MIGRATIONS

    directory.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(directory / FILE_NAME, isolation_level=None)
    db.row_factory = sqlite3.Row
    db.execute("BEGIN")
    for step in MIGRATIONS[:5]:
        step(db)
    db.execute("PRAGMA user_version = 5")
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    start = datetime(2025, 12, 1, tzinfo=UTC)
    db.execute(
        "INSERT INTO sessions (id, kind, rules, params, started_at) VALUES (1, 'score', 'classic', '{}', ?)",
        (start.isoformat(),),
    )
    for n in range(ANSWERS):
        at = start + timedelta(minutes=26 * n)
        item, correct = f"q{n % QUESTIONS}", n % 3 != 0
        db.execute(
            """INSERT INTO answers (session_id, answered_at, topic, item, question, answer, correct_answer,
                                    correct, grade, points_lost, extra)
               VALUES (1, ?, 'worth', ?, 'q', 'a', 'a', ?, ?, NULL, NULL)""",
            (at.isoformat(), item, int(correct), "right" if correct else "wrong"),
        )
        leitner.schedule(db, "score", "worth", item, correct, at, "q", "a", None)
    db.execute("COMMIT")
    db.close()


def seconds(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def command_seconds(*args: str) -> float:
    exe = shutil.which("farkle-train") or str(Path(sys.executable).with_name("farkle-train"))

    def once() -> None:
        subprocess.run([exe, *args], check=True, capture_output=True, stdin=subprocess.DEVNULL)

    once()
    return statistics.median(seconds(once) for _ in range(REPEATS))


def main() -> int:
    from farkle_trainer.store.db import Store

    home = Path(tempfile.mkdtemp(prefix="farkle-bench-"))
    os.environ["FARKLE_TRAIN_HOME"] = str(home)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    old_store(home)
    rows: list[tuple[str, float, float]] = []

    def migrate() -> None:
        Store.open(home).close()

    rows.append((f"a 0.2.0 store of {ANSWERS:,} answers moved onto FSRS", seconds(migrate), 5.0))
    with Store.open(home) as store:
        sid = store.start_session("score", rules="classic")

        def answer() -> None:
            store.record_answer(
                sid, topic="worth", item="q7", question="q", answer="a", correct_answer="a",
                correct=True, grade="right",
            )  # fmt: skip

        rows.append(
            (
                "an answer kept and its card reviewed",
                statistics.median(seconds(answer) for _ in range(50)),
                0.02,
            )
        )
    rows.append((f"farkle-train progress ({QUESTIONS:,} cards)", command_seconds("progress", "--plain"), 0.6))
    rows.append(
        (
            "farkle-train decide --mistakes (none made)",
            command_seconds("decide", "--mistakes", "--plain"),
            0.6,
        )
    )
    shutil.rmtree(home, ignore_errors=True)

    width = max(len(r[0]) for r in rows)
    print(f"{'what':<{width}}  {'time':>9}  {'target':>7}")
    slow = 0
    for what, took, target in rows:
        mark = "ok" if took < target else "SLOW"
        slow += took >= target
        print(f"{what:<{width}}  {took * 1000:7.1f}ms  {target * 1000:5.0f}ms  {mark}")
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
