"""Training progress: answers, exports, the review schedule, lessons, units of loss."""

from __future__ import annotations

import csv
import json
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest
from builders import START, Clock, answer

from farkle_trainer.store.db import Store
from farkle_trainer.store.errors import StoreError
from farkle_trainer.training.progress import (
    DECIDE_TOPICS,
    SCORE_TOPICS,
    ExportError,
    export_answers,
    load_progress,
    topic_mastery,
)

# -- training


def test_training_round_trip(store: Store, clock: Clock, tmp_path: Path) -> None:
    sid = store.start_session("score", rules="classic", seed=7, code=None, params={"topic": "combos"})
    answer(store, sid, "combos", "a", True)
    answer(store, sid, "combos", "b", False)
    store.finish_session(sid)
    did = store.start_session("decide", rules="classic", seed=None, code="ABC", params={})
    answer(store, did, "keep", "k1", True, lost=0.0)
    answer(store, did, "keep", "k2", False, lost=30.0)

    with Store.open(tmp_path / "data") as again:
        p = load_progress(again)
    assert (p.answers, p.correct, p.sessions, p.decisions) == (4, 2, 2, 2)
    assert p.average_points_lost == pytest.approx(15.0)
    by_topic = {(t.kind, t.topic): t for t in p.topics}
    assert by_topic["score", "combos"].accuracy == 0.5
    assert by_topic["score", "combos"].average_points_lost is None
    assert by_topic["decide", "keep"].average_points_lost == pytest.approx(15.0)
    assert [t.topic for t in p.topics] == ["combos", "keep"]


def test_an_answer_needs_a_session(store: Store) -> None:
    with pytest.raises(StoreError, match="no training session 99"):
        answer(store, 99, "worth", "x", True)


def test_export_csv_and_json(store: Store, tmp_path: Path) -> None:
    sid = store.start_session("decide", rules="classic", params={})
    answer(store, sid, "keep", "k1", False, lost=12.345)
    answer(store, sid, "keep", "k2", True, lost=0.0)

    assert export_answers(store, tmp_path / "out.csv") == 2
    with (tmp_path / "out.csv").open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert rows[0]["topic"] == "keep" and rows[0]["question"] == "question k1"
    assert (rows[0]["correct"], rows[0]["points_lost"], rows[0]["correct_answer"]) == ("no", "12.35", "1,000")
    assert rows[0]["time"] == START.isoformat()

    assert export_answers(store, tmp_path / "out.JSON") == 2
    records = json.loads((tmp_path / "out.JSON").read_text())
    assert records[1]["correct"] is True and records[0]["points_lost"] == 12.345
    assert records[0]["extra"] == {"dice": [1, 1, 1]}


def test_export_refuses_other_formats(store: Store, tmp_path: Path) -> None:
    with pytest.raises(ExportError, match=r"\.csv or \.json"):
        export_answers(store, tmp_path / "out.xlsx")
    assert not (tmp_path / "out.xlsx").exists()


# -- spaced repetition


def test_wrong_answers_are_due_at_once_and_right_ones_days_later(store: Store, clock: Clock) -> None:
    sid = store.start_session("score", rules="classic", params={})
    wrong = answer(store, sid, "worth", "w", False)
    right = answer(store, sid, "worth", "r", True)
    # One learning step that takes no time: a miss is due at once; a right answer goes straight
    # to the review state, as many days out as its stability (2.3065 days for a first Good).
    assert (wrong.due_at, wrong.state, wrong.step) == (START, 1, 0)
    assert (right.due_at, right.state, right.step) == (START + timedelta(days=2), 2, None)

    clock.advance(minutes=1)
    due = store.due_items("score")
    assert [i.item for i in due] == ["w"]
    assert due[0].question == "question w" and due[0].extra == {"dice": [1, 1, 1]}

    clock.advance(days=2)
    assert [i.item for i in store.due_items("score")] == ["w", "r"]  # the longest overdue first
    assert store.due_items("decide") == []
    assert store.due_items("score", topic="valid") == []
    assert len(store.due_items("score", limit=1)) == 1

    again = answer(store, sid, "worth", "w", True)
    assert (again.seen, again.wrong, again.last_correct, again.state) == (2, 1, True, 2)
    assert [i.item for i in store.due_items("score")] == ["r"]


def test_mastery_counts_recent_answers_only(store: Store) -> None:
    sid = store.start_session("score", rules="classic", params={})
    for n in range(10):
        answer(store, sid, "combos", f"old{n}", False)
    for n in range(20):
        answer(store, sid, "combos", f"new{n}", n % 4 != 0)
    answer(store, sid, "worth", "w", True)
    assert topic_mastery(store, "score") == {"combos": 0.75, "worth": 1.0}
    assert topic_mastery(store, "decide") == {}


def test_progress_names_weak_topics_and_what_next(store: Store) -> None:
    assert load_progress(store).next.command == "farkle-train score"
    sid = store.start_session("score", rules="classic", params={})
    for n in range(5):
        answer(store, sid, "combos", f"c{n}", n == 0)
        answer(store, sid, "worth", f"w{n}", True)
    p = load_progress(store)
    assert [t.topic for t in p.weakest] == ["combos"]
    assert p.next.command == "farkle-train score --topic combos"
    # The four misses are due at once, the six right answers two days on.
    assert (p.due.now, p.due.due_today, p.due.forecast) == (4, 4, (0, 6, 0, 0, 0, 0, 0))


def test_untried_topics_come_next_then_the_daily_game(store: Store) -> None:
    sid = store.start_session("score", rules="classic", params={})
    for topic in SCORE_TOPICS:
        answer(store, sid, topic, topic, True)
    assert load_progress(store).next.command == "farkle-train decide --kind bank-or-roll"
    did = store.start_session("decide", rules="classic", params={})
    for topic in DECIDE_TOPICS:
        answer(store, did, topic, topic, True, lost=0.0)
    assert load_progress(store).next.command == "farkle-train daily"


def test_points_lost_trend_over_sessions(store: Store) -> None:
    for lost in (40.0, 30.0, 12.0, 8.0):
        sid = store.start_session("decide", rules="classic", params={})
        answer(store, sid, "bank-or-roll", "x", False, lost=lost)
        answer(store, sid, "bank-or-roll", "y", True, lost=0.0)
        store.finish_session(sid)
    p = load_progress(store)
    assert [s.average_points_lost for s in p.recent_sessions] == [20.0, 15.0, 6.0, 4.0]
    assert p.trend == "improving"


def test_lessons_read(store: Store) -> None:
    assert store.lessons_read() == set()
    store.record_lesson(3, "combinations", rules="classic")
    store.record_lesson(3, "combinations", rules="fixed")
    store.record_lesson(1, "the-turn", rules="classic")
    assert store.lessons_read() == {1, 3}
    assert load_progress(store).answers == 0
    store.reset("progress")
    assert store.lessons_read() == set()


def test_losses_in_percentage_points_are_kept_apart(store: Store, tmp_path: Path) -> None:
    sid = store.start_session("decide", rules="classic")
    store.record_answer(
        sid, topic="keep", item="k", question="q", answer="a", correct_answer="b",
        correct=False, grade="mistake", points_lost=30.0,
    )  # fmt: skip
    store.record_answer(
        sid, topic="final-round", item="f", question="q", answer="a", correct_answer="b",
        correct=False, grade="mistake", points_lost=4.0, unit="percentage points",
    )  # fmt: skip
    p = load_progress(store)
    assert (p.decisions, p.average_points_lost) == (1, 30.0)
    assert [r.average_points_lost for r in p.recent_sessions] == [30.0]
    units = {t.topic: (t.average_points_lost, t.loss_unit) for t in p.topics}
    assert units == {"keep": (30.0, "points"), "final-round": (4.0, "percentage points")}
    out = tmp_path / "answers.csv"
    export_answers(store, out)
    assert out.read_text().splitlines()[2].endswith(",4.00,percentage points")
    with pytest.raises(StoreError):
        store.record_answer(
            sid, topic="keep", item="k", question="q", answer="a", correct_answer="b",
            correct=True, grade="best", points_lost=0.0, unit="percent",  # type: ignore[arg-type]
        )  # fmt: skip


def test_damaged_json_values_do_not_stop_reading(store: Store, tmp_path: Path) -> None:
    sid = store.start_session("score", rules="classic")
    answer(store, sid, "worth", "w1", False)
    store.record_lesson(1, "basics", rules="classic")
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE answers SET extra = '{garbage'")
        db.execute("UPDATE items SET extra = '{garbage'")
        db.execute("UPDATE sessions SET params = '{garbage' WHERE kind = 'lesson'")
    assert [item.extra for item in store.due_items("score")] == [None]
    assert store.lessons_read() == set()
    out = tmp_path / "out.json"
    assert export_answers(store, out) == 1
    assert json.loads(out.read_text())[0]["extra"] == "{garbage"  # kept as it was stored
