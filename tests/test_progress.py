"""The rules behind the records: the Leitner boxes older files were upgraded from (migration 2
still builds them), streaks, score histograms, and what to practise next."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from farkle_trainer.store.db import Store
from farkle_trainer.store.leitner import next_box
from farkle_trainer.store.rows import TopicProgress
from farkle_trainer.store.schedule import MISTAKES
from farkle_trainer.training.progress import histogram, load_progress, recent_words, streaks


def test_the_leitner_boxes_of_migration_2() -> None:
    assert next_box(None, True) == 2 and next_box(None, False) == 1
    assert next_box(3, True) == 4 and next_box(5, True) == 5 and next_box(4, False) == 1


def test_streak_and_histogram_rules() -> None:
    d = date(2026, 1, 1)
    assert streaks([], d) == (0, 0)
    assert streaks([d, d, d + timedelta(days=1)], d + timedelta(days=1)) == (2, 2)
    assert histogram([]) == ()


# -- what to practise next, and why


def keep_answers(directory: Path | None, rights: list[bool]) -> None:
    """Keep drill answers, oldest first, right or wrong as given."""
    with Store.open(directory) as store:
        sid = store.start_session("decide", rules="classic", params={})
        for n, right in enumerate(rights):
            store.record_answer(
                sid,
                topic="keep",
                item=f"k{n}",
                question=f"You roll 3 dice: 1 2 3 ({n})",
                answer="keep 1 and roll",
                correct_answer="keep 1 and roll",
                correct=right,
                grade="best" if right else "blunder",
                points_lost=0.0 if right else 80.0,
            )


@pytest.mark.parametrize(
    ("rights", "reason"),
    [
        ([False] * 4, "None of your 4 keep answers so far were right."),
        ([True] + [False] * 3, "1 of your 4 keep answers so far was right (25%)."),
        # Older answers fall out of the last twenty: only the recent ones are counted.
        ([True] * 5 + [False] * 17 + [True] * 3, "3 of your last 20 keep answers were right (15%)."),
        ([True] * 30 + [False] * 20, "None of your last 20 keep answers were right."),
    ],
)
def test_the_reason_to_practise_reads_for_any_count(
    farkle_home: Path, rights: list[bool], reason: str
) -> None:
    keep_answers(None, rights)
    with Store.open() as store:
        progress = load_progress(store)
    assert progress.next.command == "farkle-train decide --kind keep"
    assert progress.next.reason == reason


def topic(answers: int, recent_accuracy: float, kind: str = "decide") -> TopicProgress:
    return TopicProgress(
        kind=kind,
        topic="keep",
        answers=answers,
        correct=0,
        recent_accuracy=recent_accuracy,
        decisions=answers,
        average_points_lost=None,
        last_answered=datetime(2026, 1, 1, tzinfo=UTC),
    )


def test_the_recent_answers_in_words_at_every_edge() -> None:
    assert recent_words(topic(1, 0.0)) == "Your only keep answer so far was wrong."
    assert recent_words(topic(1, 1.0)) == "Your only keep answer so far was right."
    assert recent_words(topic(2, 1.0)) == "All of your 2 keep answers so far were right."
    assert recent_words(topic(40, 1.0)) == "All of your last 20 keep answers were right."
    assert recent_words(topic(3, 2 / 3)) == "2 of your 3 keep answers so far were right (67%)."
    assert recent_words(topic(25, 19 / 20)) == "19 of your last 20 keep answers were right (95%)."


def test_the_recent_answers_to_mistakes_drilled_again_in_words() -> None:
    assert recent_words(topic(1, 0.0, MISTAKES)) == "Your only answer to a keep mistake so far was wrong."
    assert (
        recent_words(topic(4, 0.0, MISTAKES)) == "None of your 4 answers to keep mistakes so far were right."
    )
    assert recent_words(topic(30, 0.5, MISTAKES)) == (
        "10 of your last 20 answers to keep mistakes were right (50%)."
    )
