"""The review schedule: every card on FSRS, the scheduler Anki adopted (the ``fsrs`` package).

A card is one thing that comes back: a quiz question, a drill position, a personal position
made from a mistake. Every answer reviews its own card, rated from its grade
(:func:`rating_for`), and FSRS says when it is due again. The scheduler is fsrs's own, with its
default parameters and no fuzz, so the same answers at the same times give the same schedule on
every machine, in every process, and in the migration that replays the answers of an older
file. Its learning and relearning steps take no time (fsrs's take 1 and 10 minutes, and 10): a
card answered wrong is due again at once, as the Leitner boxes before it had it, so the next
session asks it however soon it starts; a card answered right goes days out.

What a rating is worth belongs to the stored data, as the Leitner boxes did before it: the
``items`` table keeps the schedule these functions made, so changing them changes what
existing files mean.
"""

from __future__ import annotations

import math
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import TYPE_CHECKING, Any

from farkle_trainer.engine.grading import Grade
from farkle_trainer.store.encoding import load, maybe_time, parse_time, stamp, time_or_long_ago
from farkle_trainer.store.errors import StoreError

if TYPE_CHECKING:
    from fsrs import Card, Rating, Scheduler

#: The kind of a personal position's card: a decision graded an inaccuracy or worse, anywhere,
#: that comes back as a drill (``decide --mistakes``, whose answers review it).
MISTAKES = "mistakes"
#: The kind of a drill position's card (``decide``). A position missed is a personal position:
#: its drill card becomes that card (:func:`fold`), so each position is one card.
DRILLS = "decide"

#: fsrs's card states, as the ``state`` column keeps them.
LEARNING, REVIEW, RELEARNING = 1, 2, 3


#: The learning step of a new card and the relearning step of a card missed once known: one
#: each, taking no time (see the module's docstring).
STEPS = (timedelta(0),)


@cache
def scheduler() -> Scheduler:
    """fsrs's scheduler with its defaults but for the steps, without fuzz: the same answers, the
    same due dates."""
    from fsrs import Scheduler

    return Scheduler(learning_steps=STEPS, relearning_steps=STEPS, enable_fuzzing=False)


def rating_for(grade: str, correct: bool) -> Rating:
    """The FSRS rating of an answer: wrong (a decision graded an inaccuracy or worse) is Again, a
    fine decision (right, a little given up) Hard, and any other right answer (a best decision, a
    right quiz answer) Good. Easy is never given: no answer says a card was too easy."""
    from fsrs import Rating

    if not correct:
        return Rating.Again
    return Rating.Hard if grade == Grade.FINE else Rating.Good


@dataclass(frozen=True)
class CardState:
    """A card's place in the schedule, as its columns keep it (see :class:`fsrs.Card`).

    ``reviewed_at`` is None for a card never reviewed yet (a card of an older file that no
    answer was left for).
    """

    state: int
    step: int | None
    stability: float | None
    difficulty: float | None
    due_at: datetime
    reviewed_at: datetime | None

    @classmethod
    def new(cls, at: datetime) -> CardState:
        """A card never reviewed, due at ``at``."""
        return cls(LEARNING, 0, None, None, exact(at), None)

    def card(self) -> Card:
        from fsrs import Card, State

        return Card(
            card_id=0,
            state=State(self.state),
            step=self.step,
            stability=self.stability,
            difficulty=self.difficulty,
            due=self.due_at,
            last_review=self.reviewed_at,
        )

    @classmethod
    def of(cls, card: Card) -> CardState:
        return cls(card.state.value, card.step, card.stability, card.difficulty, card.due, card.last_review)

    def reviewed(self, rating: Rating, at: datetime) -> CardState:
        """The card after an answer rated ``rating`` at ``at``, as fsrs schedules it."""
        card, _ = scheduler().review_card(self.card(), rating, exact(at))
        return CardState.of(card)


def exact(moment: datetime) -> datetime:
    """A moment as the store keeps it (UTC, to the second), so what fsrs is given is what it reads back."""
    return parse_time(stamp(moment))


def _number(value: Any, low: float, high: float) -> bool:
    return isinstance(value, int | float) and math.isfinite(value) and low <= value <= high


def card_from_row(row: sqlite3.Row) -> CardState:
    """A card as its row keeps it; a row no fsrs card could have (a file edited by hand) starts
    the card again, due at once, rather than feed the scheduler what it cannot compute on.

    The answers that made it are never touched: only the schedule starts again.
    """
    due = time_or_long_ago(row["due_at"])
    reviewed = _reviewed_or_none(row)
    state, step, stability, difficulty = row["state"], row["step"], row["stability"], row["difficulty"]
    learning = state in (LEARNING, RELEARNING) and isinstance(step, int) and 0 <= step < 100
    reviewing = state == REVIEW and step is None
    known = (
        reviewed is not None
        and _number(stability, 0.0001, 1e6)
        and _number(difficulty, 1.0, 10.0)
        and (learning or reviewing)
    )
    if not known:
        return CardState.new(due)
    return CardState(state, step, float(stability), float(difficulty), due, reviewed)


@dataclass(frozen=True)
class Note:
    """What a card shows and keeps besides its schedule: the question as last asked, its right
    answer and whatever is needed to ask it again (``extra``, JSON text)."""

    topic: str
    question: str
    correct_answer: str
    extra: str | None


def review(
    db: sqlite3.Connection,
    kind: str,
    item: str,
    note: Note,
    *,
    grade: str,
    correct: bool,
    at: datetime,
) -> None:
    """Review the card (``kind``, ``item``) with one answer: a card met for the first time is
    made, then reviewed."""
    row = db.execute("SELECT * FROM items WHERE kind = ? AND item = ?", (kind, item)).fetchone()
    card = CardState.new(at) if row is None else card_from_row(row)
    _write(db, kind, item, note, card.reviewed(rating_for(grade, correct), at), correct=correct, at=at)


def note_mistake(
    db: sqlite3.Connection, item: str, note: Note, *, at: datetime, drill_item: str | None = None
) -> None:
    """A decision graded an inaccuracy or worse: its personal position's card is reviewed as
    Again (made first, the first time, from the position's drill card ``drill_item`` if it has
    one: see :func:`fold`), which makes it due at once."""
    if drill_item is not None:
        fold(db, drill_item, item, position_of(note.extra))
    review(db, MISTAKES, item, note, grade="", correct=False, at=at)


def has_card(db: sqlite3.Connection, kind: str, item: str) -> bool:
    return db.execute("SELECT 1 FROM items WHERE kind = ? AND item = ?", (kind, item)).fetchone() is not None


def position_of(extra: str | None) -> Any:
    """The position a card's note keeps (what asks it again), without its title, which only
    words it: the same position drilled and missed in a game is the same position."""
    data = load(extra)
    position = data.get("position") if isinstance(data, dict) else None
    if isinstance(position, dict):
        return {k: v for k, v in position.items() if k != "title"}
    return None


def _reviewed_or_none(row: sqlite3.Row) -> datetime | None:
    """When a card was last reviewed; None for one never reviewed, or whose time an edit has made
    unreadable (its schedule then starts again)."""
    try:
        return maybe_time(row["reviewed_at"])
    except StoreError:
        return None


def _reviewed(row: sqlite3.Row) -> datetime:
    """When a card was last reviewed; the dawn of time for one never reviewed, or whose time an
    edit has made unreadable."""
    try:
        return maybe_time(row["reviewed_at"]) or datetime.min.replace(tzinfo=UTC)
    except StoreError:
        return datetime.min.replace(tzinfo=UTC)


def fold(db: sqlite3.Connection, drill_item: str, item: str, position: Any) -> None:
    """The drill card ``drill_item`` of a position becomes its personal card ``item``: a position
    is one card, asked by ``decide`` and ``decide --mistakes`` alike.

    Only a drill card of the same ``position`` is folded. Without a personal card yet, the drill
    card is that card, its schedule and counts as they are. With one (a file from before cards
    were folded), the two are one: the schedule of the card reviewed last, and the reviews and
    misses of both counted; the personal card's note stays, with the rules it keeps. The answers
    themselves are never touched.
    """
    drill = db.execute("SELECT * FROM items WHERE kind = ? AND item = ?", (DRILLS, drill_item)).fetchone()
    if drill is None or position is None or position_of(drill["extra"]) != position:
        return
    mine = db.execute("SELECT * FROM items WHERE kind = ? AND item = ?", (MISTAKES, item)).fetchone()
    if mine is None:
        db.execute(
            "UPDATE items SET kind = ?, item = ? WHERE kind = ? AND item = ?",
            (MISTAKES, item, DRILLS, drill_item),
        )
        return
    later = drill if _reviewed(drill) > _reviewed(mine) else mine
    db.execute(
        """UPDATE items SET state = ?, step = ?, stability = ?, difficulty = ?, due_at = ?,
                  reviewed_at = ?, last_seen = max(last_seen, ?), seen = seen + ?, wrong = wrong + ?,
                  last_correct = ?
           WHERE kind = ? AND item = ?""",
        (
            later["state"],
            later["step"],
            later["stability"],
            later["difficulty"],
            later["due_at"],
            later["reviewed_at"],
            drill["last_seen"],
            drill["seen"],
            drill["wrong"],
            later["last_correct"],
            MISTAKES,
            item,
        ),
    )
    db.execute("DELETE FROM items WHERE kind = ? AND item = ?", (DRILLS, drill_item))


def _write(
    db: sqlite3.Connection, kind: str, item: str, note: Note, card: CardState, *, correct: bool, at: datetime
) -> None:
    db.execute(
        """INSERT INTO items (kind, item, topic, state, step, stability, difficulty, due_at, reviewed_at,
                              last_seen, seen, wrong, last_correct, question, correct_answer, extra)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)
           ON CONFLICT (kind, item) DO UPDATE SET
               topic = excluded.topic, state = excluded.state, step = excluded.step,
               stability = excluded.stability, difficulty = excluded.difficulty,
               due_at = excluded.due_at, reviewed_at = excluded.reviewed_at,
               last_seen = excluded.last_seen, seen = items.seen + 1, wrong = items.wrong + excluded.wrong,
               last_correct = excluded.last_correct, question = excluded.question,
               correct_answer = excluded.correct_answer, extra = excluded.extra""",
        (
            kind,
            item,
            note.topic,
            card.state,
            card.step,
            card.stability,
            card.difficulty,
            stamp(card.due_at),
            None if card.reviewed_at is None else stamp(card.reviewed_at),
            stamp(at),
            int(not correct),
            int(correct),
            note.question,
            note.correct_answer,
            note.extra,
        ),
    )
