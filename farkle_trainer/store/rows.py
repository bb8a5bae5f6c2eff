"""What the trainer remembers, as plain values: training progress per topic, official results
and records, and the rules that turn answers into a schedule, streaks and suggestions.

The store (:mod:`farkle_trainer.store.db`) reads and writes these; nothing here touches a database.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Literal

#: How long an item rests in each Leitner box before it is due again.
LEITNER_DELAYS = (timedelta(0), timedelta(days=1), timedelta(days=3), timedelta(days=7), timedelta(days=21))
TOP_BOX = len(LEITNER_DELAYS)

#: Topics the quizzes record, in the order a learner meets them, and the command that drills each.
SCORE_TOPICS = ("worth", "valid", "farkle", "best", "combos")
DECIDE_TOPICS = ("bank-or-roll", "keep", "final-round", "opening")
PRACTICE_COMMANDS = {
    **{topic: f"farkle-train score --topic {topic}" for topic in SCORE_TOPICS},
    **{topic: f"farkle-train decide --kind {topic}" for topic in DECIDE_TOPICS},
}

#: Accuracy over a topic's last ``RECENT_ANSWERS`` answers is its mastery.
RECENT_ANSWERS = 20
#: A topic needs this many answers before it can be called weak.
MIN_ANSWERS = 3
MASTERED = 0.9
TREND_SESSIONS = 10
HISTOGRAM_WIDTH = 1000
HISTOGRAM_TOP = 10_000
RECENT_DAYS = 7

LossUnit = Literal["points", "percentage points"]
#: Expected points of turn score, or percentage points of the chance of passing a leader.
LOSS_UNITS: tuple[LossUnit, ...] = ("points", "percentage points")


# -- values


@dataclass(frozen=True)
class ItemState:
    """One question's place in the review schedule, with what is needed to ask it again."""

    kind: str
    item: str
    topic: str
    box: int
    due_at: datetime
    last_seen: datetime
    seen: int
    wrong: int
    last_correct: bool
    question: str
    correct_answer: str
    extra: dict[str, Any] | None


@dataclass(frozen=True)
class DailyAttempt:
    """One play of a date's daily game; ``state`` is the game engine's last saved state."""

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

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


@dataclass(frozen=True)
class TopicProgress:
    """Answers to one topic of one kind of training.

    ``recent_accuracy`` covers the last ``RECENT_ANSWERS`` answers; ``average_points_lost``
    only answers graded by expected value (decisions), None when there were none.
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
class Suggestion:
    command: str
    reason: str


@dataclass(frozen=True)
class ProgressSummary:
    """Everything ``farkle-train progress`` shows; ``recent_sessions`` is oldest first."""

    answers: int
    correct: int
    sessions: int
    practice_games: int
    topics: tuple[TopicProgress, ...]
    decisions: int
    average_points_lost: float | None
    recent_sessions: tuple[SessionLoss, ...]
    weakest: tuple[TopicProgress, ...]
    due_for_review: int
    next: Suggestion

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.answers if self.answers else None

    @property
    def trend(self) -> Literal["improving", "steady", "worsening"] | None:
        """Points lost in the later half of the recent sessions against the earlier half."""
        losses = [s.average_points_lost for s in self.recent_sessions]
        if len(losses) < 2:
            return None
        half = len(losses) // 2
        before = sum(losses[:half]) / half
        after = sum(losses[-half:]) / half
        # Within a tenth (or a point, near zero) is noise, not a change.
        margin = max(0.1 * before, 1.0)
        if after < before - margin:
            return "improving"
        if after > before + margin:
            return "worsening"
        return "steady"


@dataclass(frozen=True)
class DailyResult:
    date: str
    score: int
    perfect_score: float | None
    marks: str | None


@dataclass(frozen=True)
class HistogramBucket:
    """Official scores from ``low`` to ``high`` inclusive; ``high`` is None for the open top bucket."""

    low: int
    high: int | None
    count: int


@dataclass(frozen=True)
class StatsSummary:
    """Official daily results only. ``recent`` is newest first."""

    today: date
    games_played: int
    current_streak: int
    longest_streak: int
    best: DailyResult | None
    average_score: float | None
    histogram: tuple[HistogramBucket, ...]
    recent: tuple[DailyResult, ...]
    played_today: bool


# -- rules


def next_box(box: int | None, correct: bool) -> int:
    """Leitner: a wrong answer goes back to box 1; a right one moves up a box (a new item to box 2)."""
    if not correct:
        return 1
    return min((box or 1) + 1, TOP_BOX)


def streaks(days: list[date], today: date) -> tuple[int, int]:
    """(current, longest) runs of consecutive days; the current run must reach today or yesterday."""
    longest = run = 0
    previous: date | None = None
    for day in sorted(set(days)):
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        longest = max(longest, run)
        previous = day
    current = run if previous is not None and today - previous <= timedelta(days=1) else 0
    return current, longest


def histogram(scores: list[int]) -> tuple[HistogramBucket, ...]:
    """Scores in buckets of ``HISTOGRAM_WIDTH``, from the lowest filled bucket to the highest."""
    if not scores:
        return ()
    top = HISTOGRAM_TOP // HISTOGRAM_WIDTH
    counts: dict[int, int] = {}
    for s in scores:
        b = min(max(s, 0) // HISTOGRAM_WIDTH, top)
        counts[b] = counts.get(b, 0) + 1
    return tuple(
        HistogramBucket(
            low=b * HISTOGRAM_WIDTH,
            high=None if b == top else (b + 1) * HISTOGRAM_WIDTH - 1,
            count=counts.get(b, 0),
        )
        for b in range(min(counts), max(counts) + 1)
    )


def suggest(topics: tuple[TopicProgress, ...], weakest: tuple[TopicProgress, ...]) -> Suggestion:
    """What to practise next: the weakest topic, else one not tried yet, else the daily game."""
    if not topics:
        return Suggestion("farkle-train score", "Start with the scoring quiz.")
    for t in weakest:
        if t.topic in PRACTICE_COMMANDS:
            return Suggestion(
                PRACTICE_COMMANDS[t.topic],
                f"Only {t.recent_accuracy:.0%} of your recent {t.topic} answers were right.",
            )
    tried = {t.topic for t in topics}
    for topic, command in PRACTICE_COMMANDS.items():
        if topic not in tried:
            return Suggestion(command, f"You have not tried {topic} yet.")
    return Suggestion("farkle-train daily", "Every topic is going well: play today's daily game.")


def topic_order(t: TopicProgress) -> tuple[int, str, int, str]:
    """Scoring before decisions before the rest, and topics in the order a learner meets them."""
    kinds = ("score", "decide")
    known = list(PRACTICE_COMMANDS)
    return (
        kinds.index(t.kind) if t.kind in kinds else len(kinds),
        t.kind,
        known.index(t.topic) if t.topic in known else len(known),
        t.topic,
    )
