"""The rows the store returns: plain frozen values, with no rules and no database in them.

What they add up to (progress, stats, streaks, suggestions, exports) is worked out in
:mod:`farkle_trainer.training.progress`; which daily attempt is official is decided in
:mod:`farkle_trainer.training.games.daily`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

LossUnit = Literal["points", "percentage points", "turns"]
#: Expected points of turn score, percentage points of a chance (to pass a leader, or to win
#: a game), or expected turns (solo play to a target in as few turns as possible).
LOSS_UNITS: tuple[LossUnit, ...] = ("points", "percentage points", "turns")


@dataclass(frozen=True)
class ItemState:
    """One card of the review schedule (a question, a drill position, a personal position), with
    what is needed to ask it again.

    ``state``, ``step``, ``stability``, ``difficulty`` and ``reviewed_at`` are the FSRS card's
    (see :mod:`farkle_trainer.store.schedule`); ``seen`` and ``wrong`` count the answers to it.
    """

    kind: str
    item: str
    topic: str
    due_at: datetime
    last_seen: datetime
    seen: int
    wrong: int
    last_correct: bool
    question: str
    correct_answer: str
    extra: dict[str, Any] | None
    state: int
    step: int | None
    stability: float | None
    difficulty: float | None
    reviewed_at: datetime | None


@dataclass(frozen=True)
class Mistake:
    """A personal position: a decision graded an inaccuracy or worse, as its card keeps it.

    ``item`` is the position's stable key (the same position, the same card), ``extra`` what
    is needed to ask it again. ``drill_item`` is the key of the same position's card as a drill
    of ``decide``, if it has one: the personal card takes its place, so a position is one card.
    """

    item: str
    topic: str
    question: str
    correct_answer: str
    extra: dict[str, Any]
    drill_item: str | None = None


@dataclass(frozen=True)
class DailyAttempt:
    """One play of a date's daily game; ``state`` is the game engine's last saved state.

    ``version`` counts the writes to the attempt: a terminal saves with the version it read,
    so a terminal that fell behind another can never overwrite the newer game. ``holder``
    is the terminal playing it and ``held_until`` when its hold lapses (None when nobody
    holds it). ``damage`` names what could not be read back (``state`` or ``turns``, whose
    stored text is in ``raw_state``/``raw_turns``); an attempt with damage is never played on.
    """

    id: int
    date: str
    official: bool
    rules: str
    session_id: int | None
    started_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    state: dict[str, Any] | None
    score: int | None
    perfect_score: float | None
    marks: str | None
    turns: list[Any] | None
    version: int = 0
    holder: str | None = None
    held_until: datetime | None = None
    damage: str | None = None
    raw_state: str | None = None
    raw_turns: str | None = None

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


@dataclass(frozen=True)
class GameRow:
    """One whole game (``play``): its last saved state, and once over its outcome.

    ``state`` is None when the stored text cannot be read back as a game state's JSON, and
    ``state_error`` then says why ("is not valid JSON", "is a JSON list, not an object").
    ``outcome`` is ``win``, ``loss``, ``shared`` or ``resigned`` for the person of a rated
    game, ``over`` or ``resigned`` for the others, ``damaged`` for a game closed unfinished
    because it could not be played on; None while the game goes on.
    """

    id: int
    kind: str
    level: str | None
    rated: bool
    session_id: int | None
    started_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    state: dict[str, Any] | None
    version: int
    outcome: str | None
    score: int | None
    state_error: str | None = None

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


@dataclass(frozen=True)
class TopicProgress:
    """Answers to one topic of one kind of training.

    ``recent_accuracy`` covers the last few answers (how many, the caller says);
    ``average_points_lost`` only answers graded by expected value (decisions), None when there were none.
    """

    kind: str
    topic: str
    answers: int
    correct: int
    recent_accuracy: float
    decisions: int
    average_points_lost: float | None
    last_answered: datetime
    #: What ``average_points_lost`` counts: expected points, or percentage points of a chance.
    loss_unit: LossUnit = "points"

    @property
    def accuracy(self) -> float:
        return self.correct / self.answers


@dataclass(frozen=True)
class SessionLoss:
    """Average expected points lost per decision in one session."""

    session_id: int
    kind: str
    started_at: datetime
    decisions: int
    average_points_lost: float


@dataclass(frozen=True)
class DueCount:
    """How many cards of a kind are due on a day (UTC): ``day`` is the day asked about for the
    cards due then or before, later days as they come."""

    kind: str
    day: str
    count: int


@dataclass(frozen=True)
class ProgressRows:
    """Training totals, read in one transaction. ``sessions`` is oldest first.

    ``due_now`` counts the cards due at the moment asked about, by kind; ``due`` the cards due
    by each day up to the end of the window asked about; ``trained_days`` the days (UTC,
    ``YYYY-MM-DD``, oldest first) with a training answer or a lesson read.
    """

    answers: int
    correct: int
    sessions_count: int
    decisions: int
    average_points_lost: float | None
    practice_games: int
    topics: tuple[TopicProgress, ...]
    sessions: tuple[SessionLoss, ...]
    due_now: tuple[tuple[str, int], ...] = ()
    due: tuple[DueCount, ...] = ()
    trained_days: tuple[str, ...] = ()


@dataclass(frozen=True)
class DailyResult:
    date: str
    score: int
    perfect_score: float | None
    marks: str | None
    #: The saved game (JSON text) the score came from, for checking it against its moves.
    state: str | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class AnswerRow:
    """One training answer with its session, as it is exported; ``extra`` as stored (JSON text)."""

    time: str
    kind: str
    session: int
    rules: str
    topic: str
    item: str
    question: str
    answer: str
    correct_answer: str
    correct: bool
    grade: str
    points_lost: float | None
    unit: str
    extra: str | None
