"""A hand-moved clock, and the answers and official days the store's tests are made of."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from farkle_trainer.store.db import Store
from farkle_trainer.training.games.daily import next_attempt

START = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, moment: datetime = START):
        self.moment = moment

    def __call__(self) -> datetime:
        return self.moment

    def advance(self, **delta: float) -> None:
        self.moment += timedelta(**delta)


def answer(store: Store, session: int, topic: str, item: str, correct: bool, lost: float | None = None):
    return store.record_answer(
        session,
        topic=topic,
        item=item,
        question=f"question {item}",
        answer="1,000" if correct else "500",
        correct_answer="1,000",
        correct=correct,
        grade="right" if correct else "wrong",
        points_lost=lost,
        extra={"dice": [1, 1, 1]},
    )


def play_official(store: Store, clock: Clock, day: date, score: int) -> None:
    clock.moment = datetime(day.year, day.month, day.day, 9, tzinfo=UTC)
    attempt = next_attempt(store, day, store.now().date())
    assert attempt.official
    store.finish_daily(
        attempt.id,
        score=score,
        perfect_score=score + 400.0,
        marks="ok",
        turns=[score],
        version=attempt.version,
    )
