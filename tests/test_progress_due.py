"""``progress``: what is due today and on each of the next seven days, and the days trained."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from farkle_trainer.cli import app
from farkle_trainer.store.db import Store
from farkle_trainer.store.rows import Mistake
from farkle_trainer.training.progress import load_progress
from farkle_trainer.ui.views import records

#: A Friday.
NOW = datetime(2026, 11, 20, 10, tzinfo=UTC)


def quiz(store: Store, item: str, correct: bool) -> None:
    sid = store.start_session("score", rules="classic")
    store.record_answer(
        sid, topic="worth", item=item, question="q", answer="a", correct_answer="a",
        correct=correct, grade="right" if correct else "wrong",
    )  # fmt: skip


@pytest.fixture
def trained(farkle_home: Path) -> Path:
    """Training on five days, one of them before the last four weeks: quiz answers (one missed),
    a lesson, a drill played best today and a mistake in a game today."""
    clock = [NOW - timedelta(days=30)]
    with Store.open(farkle_home, clock=lambda: clock[0]) as store:
        quiz(store, "old", True)
        clock[0] = NOW - timedelta(days=10)
        quiz(store, "a", True)
        clock[0] = NOW - timedelta(days=5)
        store.record_lesson(1, "basics", rules="classic")
        clock[0] = NOW - timedelta(days=2)
        quiz(store, "b", False)
        clock[0] = NOW
        did = store.start_session("decide", rules="classic")
        store.record_answer(
            did, topic="keep", item="k", question="q", answer="a", correct_answer="a",
            correct=True, grade="best", points_lost=0.0,
        )  # fmt: skip
        game = store.start_session("game", rules="classic")
        store.record_answer(
            game, topic="bank-or-roll", item="g", question="q", answer="a", correct_answer="b",
            correct=False, grade="blunder", points_lost=80.0,
            mistake=Mistake("p", "keep", "q", "b", {"position": {}}),
        )  # fmt: skip
    return farkle_home


def test_what_is_due_and_the_days_trained(trained: Path) -> None:
    with Store.open(trained, clock=lambda: NOW) as store:
        p = load_progress(store)
    # Due now: the three quiz questions (two answered right days ago, one missed) and the
    # mistake; the drill answered best today is two days out (a first Good: 2.3065 days); the
    # game's own card never comes back, so it is not counted.
    assert (p.due.now, p.due.due_today) == (4, 4)
    assert p.due.today_by_kind == (("score", 3), ("mistakes", 1))
    assert p.due.forecast == (0, 1, 0, 0, 0, 0, 0)
    assert (p.trained.count, p.trained.recent_count) == (5, 4)
    text = records.progress_text(p)
    assert "Days trained: 4 of the last 28 (5 in all)." in text.splitlines()
    assert text.splitlines()[-5:-2] == [
        "Due today: 4: 3 quiz questions and 1 of your mistakes.",
        "Your mistakes due now: 1 (farkle-train decide --mistakes).",
        "Due in the next 7 days: Sat 0, Sun 1, Mon 0, Tue 0, Wed 0, Thu 0, Fri 0.",
    ]
    assert records.trained_row(p.trained) == "······· ······· ···■··· ·■··■·■"
    # Past midnight UTC it is Saturday: what was due stays due, and the drill is due tomorrow.
    with Store.open(trained, clock=lambda: NOW + timedelta(hours=15)) as store:
        later = load_progress(store)
    assert (later.due.now, later.due.due_today, later.due.forecast[:2]) == (4, 4, (1, 0))


def test_progress_json_has_the_due_counts_and_the_days(
    trained: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from farkle_trainer.store import connection

    monkeypatch.setattr(connection, "system_clock", lambda: NOW)
    result = CliRunner().invoke(app, ["progress", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["due_now"], data["due_today"], data["due_for_review"]) == (4, 4, 4)
    assert data["due_today_by_kind"] == {"score": 3, "mistakes": 1}
    assert data["forecast"] == [0, 1, 0, 0, 0, 0, 0]
    assert all(isinstance(n, int) for n in data["forecast"])
    assert (data["days_trained"], data["days_trained_last_28"]) == (5, 4)
    assert data["trained_days"] == ["2026-10-21", "2026-11-10", "2026-11-15", "2026-11-18", "2026-11-20"]


def test_what_nothing_due_says(farkle_home: Path) -> None:
    with Store.open(farkle_home, clock=lambda: NOW) as store:
        quiz(store, "a", True)
        p = load_progress(store)
    assert p.due.forecast == (0, 1, 0, 0, 0, 0, 0)
    assert records.due_lines(p.due) == [
        "Nothing is due today.",
        "Due in the next 7 days: Sat 0, Sun 1, Mon 0, Tue 0, Wed 0, Thu 0, Fri 0.",
    ]
    with Store.open(farkle_home, clock=lambda: NOW + timedelta(days=9)) as store:
        assert records.due_lines(load_progress(store).due) == [
            "Due today: 1 quiz question.",
            "Due in the next 7 days: Mon 0, Tue 0, Wed 0, Thu 0, Fri 0, Sat 0, Sun 0.",
        ]
    with Store.open(farkle_home, clock=lambda: NOW - timedelta(days=9)) as store:
        assert records.due_lines(load_progress(store).due) == []
