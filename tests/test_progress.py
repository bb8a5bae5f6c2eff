"""The rules behind the records: the Leitner boxes older files were upgraded from (migration 2
still builds them), streaks, score histograms."""

from __future__ import annotations

from datetime import date, timedelta

from farkle_trainer.store.leitner import next_box
from farkle_trainer.training.progress import histogram, streaks


def test_the_leitner_boxes_of_migration_2() -> None:
    assert next_box(None, True) == 2 and next_box(None, False) == 1
    assert next_box(3, True) == 4 and next_box(5, True) == 5 and next_box(4, False) == 1


def test_streak_and_histogram_rules() -> None:
    d = date(2026, 1, 1)
    assert streaks([], d) == (0, 0)
    assert streaks([d, d, d + timedelta(days=1)], d + timedelta(days=1)) == (2, 2)
    assert histogram([]) == ()
