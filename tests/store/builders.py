"""A hand-moved clock, and the answers and official days the store's tests are made of."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta

from fsrs import Card, Rating, Scheduler

from farkle_trainer.store.db import Store
from farkle_trainer.store.rows import ItemState
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


def fsrs_card(answers: Iterable[tuple[str, bool, datetime]]) -> Card:
    """The card fsrs itself makes of ``answers`` (grade, right or not, when; oldest first), with the
    scheduler the store says it uses: fsrs's defaults, learning and relearning steps that take no
    time, no fuzz; a best play or a right answer is Good, a fine play Hard, anything wrong Again."""
    steps = (timedelta(0),)
    scheduler = Scheduler(learning_steps=steps, relearning_steps=steps, enable_fuzzing=False)
    card: Card | None = None
    for grade, correct, at in answers:
        if card is None:
            card = Card(card_id=1, due=at)
        rating = (Rating.Hard if grade == "fine" else Rating.Good) if correct else Rating.Again
        card, _ = scheduler.review_card(card, rating, at)
    assert card is not None
    return card


def schedule_of(state: ItemState) -> tuple[object, ...]:
    """A card as the store keeps it, to compare with :func:`fsrs_card`'s."""
    return (state.state, state.step, state.stability, state.difficulty, state.due_at, state.reviewed_at)


def schedule_of_card(card: Card) -> tuple[object, ...]:
    return (card.state.value, card.step, card.stability, card.difficulty, card.due, card.last_review)
