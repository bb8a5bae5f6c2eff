"""Training progress: sessions and their answers, the review schedule, lessons read.

Progress and stats never mix: everything here is training (quizzes, drills, lessons,
challenges, replayed or past daily games, games that are not rated), and nothing here is
read by the stats. What the rows add up to is worked out in
:mod:`farkle_trainer.training.progress`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime, time, timedelta
from typing import Any

from farkle_trainer.store.connection import Connection
from farkle_trainer.store.encoding import columns, dump, load, maybe_time_or_long_ago, stamp, time_or_long_ago
from farkle_trainer.store.errors import StoreError
from farkle_trainer.store.rows import (
    LOSS_UNITS,
    AnswerRow,
    DueCount,
    ItemState,
    LossUnit,
    Mistake,
    ProgressRows,
    SessionLoss,
    TopicProgress,
)
from farkle_trainer.store.schedule import MISTAKES, Note, has_card, note_mistake, review

LESSON = "lesson"
#: A card's due time in SQL, in UTC as :func:`stamp` writes it, so text order is time order even
#: for an offset an edit gave; a value an edit made no time, or past the years there are in UTC,
#: sorts first, due long ago, as :func:`time_or_long_ago` reads it.
DUE_AT = "coalesce(strftime('%Y-%m-%dT%H:%M:%S+00:00', due_at), '')"

#: The answers with each loss as a number it can be: a loss is 0 or more, and none is near a
#: billion in any unit; anything else (text, infinity, a negative, a file edited by hand) reads as
#: no loss at all, so no average of them takes it in.
ANSWERS = """(SELECT id, session_id, answered_at, topic, item, question, answer, correct_answer, correct,
                     grade, unit, extra,
                     CASE WHEN typeof(points_lost) IN ('integer', 'real') AND points_lost BETWEEN 0 AND 1e9
                          THEN points_lost END AS points_lost
              FROM answers)"""


def insert_session(
    db: sqlite3.Connection,
    kind: str,
    rules: str,
    seed: int | None,
    code: str | None,
    params: dict[str, Any],
    *,
    at: datetime,
) -> int:
    """A new training session started ``at``: its answers, or a game's, will point to it."""
    cursor = db.execute(
        "INSERT INTO sessions (kind, rules, seed, code, params, started_at) VALUES (?, ?, ?, ?, ?, ?)",
        (kind, rules, seed, code, dump(params), stamp(at)),
    )
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def _item_state(r: sqlite3.Row) -> ItemState:
    # What asks a card again is a JSON object; anything else (a file edited by hand) asks nothing.
    extra = load(r["extra"])
    return ItemState(
        **columns(r, "kind", "item", "topic", "seen", "wrong", "question", "correct_answer"),
        **columns(r, "state", "step", "stability", "difficulty"),
        due_at=time_or_long_ago(r["due_at"]),
        last_seen=time_or_long_ago(r["last_seen"]),
        last_correct=bool(r["last_correct"]),
        extra=extra if isinstance(extra, dict) else None,
        reviewed_at=maybe_time_or_long_ago(r["reviewed_at"]),
    )


def _mistake_note(m: Mistake) -> Note:
    return Note(m.topic, m.question, m.correct_answer, dump(m.extra))


def _note_mistake(db: sqlite3.Connection, m: Mistake, *, at: datetime) -> None:
    note_mistake(db, m.item, _mistake_note(m), at=at, drill_item=m.drill_item)


class ProgressQueries(Connection):
    """Sessions, answers, review items and lessons."""

    def start_session(
        self,
        kind: str,
        *,
        rules: str,
        seed: int | None = None,
        code: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> int:
        """Begin a training session (``kind`` is "score", "decide", "lesson", ...); returns its id."""
        if not kind:
            raise StoreError("a training session needs a kind")
        with self._transaction() as db:
            return insert_session(db, kind, rules, seed, code, params or {}, at=self.now())

    def record_answer(
        self,
        session_id: int,
        *,
        topic: str,
        item: str,
        question: str,
        answer: str,
        correct_answer: str,
        correct: bool,
        grade: str,
        points_lost: float | None = None,
        unit: LossUnit = "points",
        extra: dict[str, Any] | None = None,
        mistake: Mistake | None = None,
        personal: Mistake | None = None,
    ) -> ItemState:
        """Record one answer and review its card (the session's kind, ``item``); returns the card.

        ``item`` is a stable key of the question (the same question, the same key), and
        ``extra`` whatever is needed to ask it again. ``points_lost`` is the expected value
        given up, for answers graded by the solver; None for right-or-wrong questions;
        ``unit`` says whether it is expected points or percentage points of a chance.
        ``mistake``: the personal position of a decision graded an inaccuracy or worse, whose
        card is made (or reviewed as Again) in the same transaction.

        ``personal``: a drill's position as a personal position. Its card is the position's one
        card: an answer graded an inaccuracy or worse makes it (from the drill card, which it
        takes the place of) and reviews it as Again; a right answer reviews it where it is
        already made, else the drill card.
        """
        if unit not in LOSS_UNITS:
            raise StoreError(f"a loss is in {' or '.join(LOSS_UNITS)}, not {unit!r}")
        now = self.now()
        extra_text = None if extra is None else dump(extra)
        with self._transaction() as db:
            row = db.execute("SELECT kind FROM sessions WHERE id = ?", (session_id,)).fetchone()
            if row is None:
                raise StoreError(f"there is no training session {session_id}")
            kind = row["kind"]
            db.execute(
                """INSERT INTO answers (session_id, answered_at, topic, item, question, answer,
                                        correct_answer, correct, grade, points_lost, unit, extra)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                (
                    session_id,
                    stamp(now),
                    topic,
                    item,
                    question,
                    answer,
                    correct_answer,
                    int(correct),
                    grade,
                    points_lost,
                    unit,
                    extra_text,
                ),
            )
            note = Note(topic, question, correct_answer, extra_text)
            if mistake is not None:
                _note_mistake(db, mistake, at=now)
            card = (kind, item)
            if personal is not None and not correct:
                _note_mistake(db, personal, at=now)
                card = (MISTAKES, personal.item)
            elif personal is not None and has_card(db, MISTAKES, personal.item):
                card = (MISTAKES, personal.item)
                review(db, *card, _mistake_note(personal), grade=grade, correct=correct, at=now)
            else:
                review(db, kind, item, note, grade=grade, correct=correct, at=now)
            state = db.execute("SELECT * FROM items WHERE kind = ? AND item = ?", card).fetchone()
        return _item_state(state)

    def record_mistake(self, mistake: Mistake) -> None:
        """Keep a personal position made where no answer is recorded (an official game): its card
        is made, due at once, or reviewed as Again."""
        with self._transaction() as db:
            _note_mistake(db, mistake, at=self.now())

    def cards(self, kind: str, items: Sequence[str]) -> list[ItemState]:
        """The cards of ``kind`` among ``items`` (keys with no card are left out)."""
        found = []
        with self._errors():
            for item in dict.fromkeys(items):
                row = self._db.execute(
                    "SELECT * FROM items WHERE kind = ? AND item = ?", (kind, item)
                ).fetchone()
                if row is not None:
                    found.append(_item_state(row))
        return found

    def card_counts(self) -> dict[str, int]:
        """How many cards the review schedule holds, by kind (every rule set)."""
        with self._errors():
            rows = self._db.execute("SELECT kind, count(*) FROM items GROUP BY kind").fetchall()
        return {kind: n for kind, n in rows}

    def finish_session(self, session_id: int) -> None:
        """Mark a session finished (an unfinished one keeps every answer it got)."""
        with self._transaction() as db:
            db.execute(
                "UPDATE sessions SET finished_at = ? WHERE id = ? AND finished_at IS NULL",
                (stamp(self.now()), session_id),
            )

    def due_items(self, kind: str, topic: str | None = None, *, limit: int = 10) -> list[ItemState]:
        """Cards of ``kind`` due now, the longest overdue first."""
        query = f"SELECT * FROM items WHERE kind = ? AND {DUE_AT} <= ?"
        args: list[Any] = [kind, stamp(self.now())]
        if topic is not None:
            query += " AND topic = ?"
            args.append(topic)
        query += f" ORDER BY {DUE_AT}, last_seen, item LIMIT ?"
        args.append(limit)
        with self._errors():
            rows = self._db.execute(query, args).fetchall()
        return [_item_state(r) for r in rows]

    def next_due(self, kind: str) -> ItemState | None:
        """The card of ``kind`` that is due first, now or later (None without one)."""
        with self._errors():
            row = self._db.execute(
                f"SELECT * FROM items WHERE kind = ? ORDER BY {DUE_AT}, last_seen, item LIMIT 1", (kind,)
            ).fetchone()
        return None if row is None else _item_state(row)

    def recent_accuracy(self, kind: str, *, last: int) -> dict[str, float]:
        """Accuracy over each topic's ``last`` answers, for ``kind``'s topics."""
        with self._errors():
            rows = self._db.execute(
                """SELECT topic, avg(correct) FROM (
                       SELECT a.topic, a.correct,
                              row_number() OVER (PARTITION BY a.topic ORDER BY a.id DESC) AS n
                       FROM answers a JOIN sessions s ON s.id = a.session_id WHERE s.kind = ?)
                   WHERE n <= ? GROUP BY topic""",
                (kind, last),
            ).fetchall()
        return {r[0]: r[1] for r in rows}

    def record_lesson(self, number: int, slug: str, *, rules: str) -> None:
        """Remember that lesson ``number`` was read: a finished training session of kind "lesson"."""
        with self._transaction() as db:
            sid = insert_session(
                db, LESSON, rules, None, None, {"lesson": number, "slug": slug}, at=self.now()
            )
            db.execute("UPDATE sessions SET finished_at = started_at WHERE id = ?", (sid,))

    def lessons_read(self) -> set[int]:
        """The numbers of the lessons read so far."""
        with self._errors():
            rows = self._db.execute("SELECT params FROM sessions WHERE kind = ?", (LESSON,)).fetchall()
        params = (load(r[0]) for r in rows)
        return {p["lesson"] for p in params if isinstance(p, dict) and isinstance(p.get("lesson"), int)}

    def progress_rows(
        self,
        *,
        rules: str | None,
        recent: int,
        sessions: int,
        now: datetime,
        due_kinds: Sequence[str] = (),
        days: int = 0,
    ) -> ProgressRows:
        """Training totals in one read: per topic (accuracy over its last ``recent`` answers), per
        session (the last ``sessions`` with decisions), practice games, the days trained, and the
        cards of ``due_kinds`` due at ``now`` and on each day (UTC) from ``now``'s to ``days`` later.

        ``rules`` keeps only training on that rule set (by name); the cards due cover every rule set.
        """
        only = (rules, rules)
        kinds = list(due_kinds)
        marks = ", ".join("?" * len(kinds))
        today = now.astimezone(UTC).date()
        until = stamp(datetime.combine(today + timedelta(days=days + 1), time(), UTC))
        with self._transaction(write=False) as db:
            totals = db.execute(
                f"""SELECT count(*), coalesce(sum(a.correct), 0),
                          count(CASE WHEN a.unit = 'points' THEN a.points_lost END),
                          avg(CASE WHEN a.unit = 'points' THEN a.points_lost END),
                          count(DISTINCT a.session_id)
                   FROM {ANSWERS} a JOIN sessions s ON s.id = a.session_id
                   WHERE ? IS NULL OR s.rules = ?""",
                only,
            ).fetchone()
            topic_rows = db.execute(
                f"""SELECT s.kind, a.topic, count(*) AS answers, sum(a.correct) AS correct,
                          count(a.points_lost) AS decisions, avg(a.points_lost) AS lost,
                          max(CASE WHEN a.points_lost IS NOT NULL THEN a.unit END) AS unit,
                          max(a.answered_at) AS last_answered
                   FROM {ANSWERS} a JOIN sessions s ON s.id = a.session_id
                   WHERE ? IS NULL OR s.rules = ?
                   GROUP BY s.kind, a.topic""",
                only,
            ).fetchall()
            recent_accuracy = {
                (r[0], r[1]): r[2]
                for r in db.execute(
                    """SELECT kind, topic, avg(correct) FROM (
                           SELECT s.kind, a.topic, a.correct,
                                  row_number() OVER (PARTITION BY s.kind, a.topic ORDER BY a.id DESC) AS n
                           FROM answers a JOIN sessions s ON s.id = a.session_id
                           WHERE ? IS NULL OR s.rules = ?)
                       WHERE n <= ? GROUP BY kind, topic""",
                    (*only, recent),
                )
            }
            session_rows = db.execute(
                f"""SELECT s.id, s.kind, s.started_at, count(a.points_lost), avg(a.points_lost)
                   FROM sessions s JOIN {ANSWERS} a ON a.session_id = s.id
                   WHERE a.points_lost IS NOT NULL AND a.unit = 'points' AND (? IS NULL OR s.rules = ?)
                   GROUP BY s.id ORDER BY s.id DESC LIMIT ?""",
                (*only, sessions),
            ).fetchall()
            practice_games = db.execute(
                """SELECT count(*) FROM daily_attempts
                   WHERE official = 0 AND finished_at IS NOT NULL AND damage IS NULL
                         AND (? IS NULL OR rules = ?)""",
                only,
            ).fetchone()[0]
            due_now = db.execute(
                f"SELECT kind, count(*) FROM items WHERE kind IN ({marks}) AND {DUE_AT} <= ? GROUP BY kind",
                (*kinds, stamp(now)),
            ).fetchall()
            due = db.execute(
                f"""SELECT kind, max(substr({DUE_AT}, 1, 10), ?) AS day, count(*) FROM items
                    WHERE kind IN ({marks}) AND {DUE_AT} < ? GROUP BY kind, day ORDER BY day, kind""",
                (today.isoformat(), *kinds, until),
            ).fetchall()
            trained = db.execute(
                """SELECT DISTINCT substr(a.answered_at, 1, 10) AS day
                   FROM answers a JOIN sessions s ON s.id = a.session_id WHERE ? IS NULL OR s.rules = ?
                   UNION
                   SELECT substr(started_at, 1, 10) FROM sessions WHERE kind = ? AND (? IS NULL OR rules = ?)
                   ORDER BY day""",
                (*only, LESSON, *only),
            ).fetchall()
        return ProgressRows(
            answers=totals[0],
            correct=totals[1],
            sessions_count=totals[4],
            decisions=totals[2],
            average_points_lost=totals[3],
            practice_games=practice_games,
            topics=tuple(
                TopicProgress(
                    kind=r["kind"],
                    topic=r["topic"],
                    answers=r["answers"],
                    correct=r["correct"],
                    recent_accuracy=recent_accuracy[(r["kind"], r["topic"])],
                    decisions=r["decisions"],
                    average_points_lost=r["lost"],
                    last_answered=time_or_long_ago(r["last_answered"]),
                    loss_unit=r["unit"] or "points",
                )
                for r in topic_rows
            ),
            sessions=tuple(
                SessionLoss(
                    session_id=r[0],
                    kind=r[1],
                    started_at=time_or_long_ago(r[2]),
                    decisions=r[3],
                    average_points_lost=r[4],
                )
                for r in reversed(session_rows)
            ),
            due_now=tuple((r[0], r[1]) for r in due_now),
            due=tuple(DueCount(r[0], r[1], r[2]) for r in due),
            trained_days=tuple(r[0] for r in trained),
        )

    def answer_rows(self) -> list[AnswerRow]:
        """Every training answer with its session, oldest first."""
        with self._errors():
            rows = self._db.execute(
                f"""SELECT a.answered_at, s.kind, a.session_id, s.rules, a.topic, a.item, a.question,
                          a.answer, a.correct_answer, a.correct, a.grade, a.points_lost, a.unit, a.extra
                   FROM {ANSWERS} a JOIN sessions s ON s.id = a.session_id ORDER BY a.id"""
            ).fetchall()
        return [
            AnswerRow(
                time=r[0],
                kind=r[1],
                session=r[2],
                rules=r[3],
                topic=r[4],
                item=r[5],
                question=r[6],
                answer=r[7],
                correct_answer=r[8],
                correct=bool(r[9]),
                grade=r[10],
                points_lost=r[11],
                unit=r[12],
                extra=r[13],
            )
            for r in rows
        ]
