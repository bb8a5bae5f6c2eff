"""The review schedule of files before schema 6: every answer moved its question through five
Leitner boxes. Migration 2 built it from the answers of a version 1 file, and runs it still;
migration 6 replaced it with FSRS (:mod:`.schedule`).

A wrong answer sent the item to box 1, due at once; a right one moved it up a box and
pushed its next review out.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta

from farkle_trainer.store.encoding import stamp

#: How long an item rested in each Leitner box before it was due again. Migration 2 builds this
#: schedule from old answers, so it belongs to the stored data: a released step never changes.
LEITNER_DELAYS = (timedelta(0), timedelta(days=1), timedelta(days=3), timedelta(days=7), timedelta(days=21))
TOP_BOX = len(LEITNER_DELAYS)


def next_box(box: int | None, correct: bool) -> int:
    """Leitner: a wrong answer goes back to box 1; a right one moves up a box (a new item to box 2)."""
    if not correct:
        return 1
    return min((box or 1) + 1, TOP_BOX)


def schedule(
    db: sqlite3.Connection,
    kind: str,
    topic: str,
    item: str,
    correct: bool,
    at: datetime,
    question: str,
    correct_answer: str,
    extra: str | None,
) -> None:
    row = db.execute("SELECT box FROM items WHERE kind = ? AND item = ?", (kind, item)).fetchone()
    box = next_box(row[0] if row else None, correct)
    db.execute(
        """INSERT INTO items (kind, item, topic, box, due_at, last_seen, seen, wrong, last_correct,
                              question, correct_answer, extra)
           VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)
           ON CONFLICT (kind, item) DO UPDATE SET
               topic = excluded.topic, box = excluded.box, due_at = excluded.due_at,
               last_seen = excluded.last_seen, seen = items.seen + 1, wrong = items.wrong + excluded.wrong,
               last_correct = excluded.last_correct, question = excluded.question,
               correct_answer = excluded.correct_answer, extra = excluded.extra""",
        (
            kind,
            item,
            topic,
            box,
            stamp(at + LEITNER_DELAYS[box - 1]),
            stamp(at),
            int(not correct),
            int(correct),
            question,
            correct_answer,
            extra,
        ),
    )
