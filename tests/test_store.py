"""The progress and stats store: round trips, separation, schedules, damage, migration, two writers."""

from __future__ import annotations

import csv
import itertools
import json
import multiprocessing
import sqlite3
import subprocess
import sys
import textwrap
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import platformdirs
import pytest

from farkle_trainer.store.db import (
    APPLICATION_ID,
    FILE_NAME,
    SCHEMA_VERSION,
    DamagedStoreError,
    NewerStoreError,
    StaleAttemptError,
    Store,
    StoreError,
    data_dir,
    set_aside_damaged,
    store_path,
)
from farkle_trainer.training.games.daily import next_attempt
from farkle_trainer.training.progress import (
    DECIDE_TOPICS,
    SCORE_TOPICS,
    ExportError,
    export_answers,
    load_progress,
    load_stats,
    topic_mastery,
)

START = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, moment: datetime = START):
        self.moment = moment

    def __call__(self) -> datetime:
        return self.moment

    def advance(self, **delta: float) -> None:
        self.moment += timedelta(**delta)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(tmp_path: Path, clock: Clock) -> Store:
    with Store.open(tmp_path / "data", clock=clock) as s:
        yield s  # type: ignore[misc]


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


# -- where the data lives


def test_data_dir_comes_from_the_environment(farkle_home: Path) -> None:
    assert data_dir() == farkle_home
    assert store_path() == farkle_home / FILE_NAME
    with Store.open() as s:
        assert s.path == farkle_home / FILE_NAME
    assert (farkle_home / FILE_NAME).is_file()


def test_data_dir_falls_back_to_platformdirs(monkeypatch: pytest.MonkeyPatch) -> None:
    expected = Path(platformdirs.user_data_dir("farkle-trainer", appauthor=False))
    monkeypatch.delenv("FARKLE_TRAIN_HOME")
    assert data_dir() == expected
    monkeypatch.setenv("FARKLE_TRAIN_HOME", "")
    assert data_dir() == expected


def test_an_explicit_directory_overrides_the_environment(tmp_path: Path, farkle_home: Path) -> None:
    with Store.open(tmp_path / "class" / "ana") as s:
        assert s.path == tmp_path / "class" / "ana" / FILE_NAME
    assert not farkle_home.exists()


def test_an_unusable_directory_is_a_store_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(StoreError, match="is not a directory"):
        Store.open(blocker)
    with pytest.raises(StoreError, match="cannot create the data directory"):
        Store.open(blocker / "data")
    (tmp_path / "d" / FILE_NAME).mkdir(parents=True)
    with pytest.raises(StoreError, match="is a folder, not a farkle-trainer store"):
        Store.open(tmp_path / "d")


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


def test_wrong_answers_are_due_at_once_and_right_ones_later(store: Store, clock: Clock) -> None:
    sid = store.start_session("score", rules="classic", params={})
    wrong = answer(store, sid, "worth", "w", False)
    right = answer(store, sid, "worth", "r", True)
    assert (wrong.box, wrong.due_at) == (1, START)
    assert right.box == 2 and right.due_at == START + timedelta(days=1)

    due = store.due_items("score")
    assert [i.item for i in due] == ["w"]
    assert due[0].question == "question w" and due[0].extra == {"dice": [1, 1, 1]}

    clock.advance(days=1)
    assert [i.item for i in store.due_items("score")] == ["w", "r"]
    assert store.due_items("decide") == []
    assert store.due_items("score", topic="valid") == []
    assert len(store.due_items("score", limit=1)) == 1

    clock.advance(minutes=1)
    again = answer(store, sid, "worth", "w", True)
    assert (again.box, again.seen, again.wrong, again.last_correct) == (2, 2, 1, True)
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
    assert p.due_for_review == 4


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


# -- the daily game, and stats kept apart


def test_a_date_has_at_most_one_official_attempt(store: Store) -> None:
    today = START.date()
    first = store.add_daily_attempt(today.isoformat(), official=True, rules="classic")
    assert first is not None and first.official and first.session_id is None
    assert store.add_daily_attempt(today, official=True, rules="classic") is None
    practice = store.add_daily_attempt(today, official=False, rules="classic")
    assert practice is not None and not practice.official and practice.session_id is not None
    with pytest.raises(StoreError, match="not a date"):
        store.add_daily_attempt("yesterday", official=False, rules="classic")


def test_only_the_first_attempt_at_today_is_official(store: Store) -> None:
    today = START.date()
    yesterday = next_attempt(store, today - timedelta(days=1), today)
    assert not yesterday.official
    first = next_attempt(store, today, today)
    assert first.official
    store.finish_daily(first.id, score=100, perfect_score=None, marks="", turns=[], version=first.version)
    assert not next_attempt(store, today, today).official


def test_next_daily_resumes_then_falls_back_to_practice(store: Store, clock: Clock, tmp_path: Path) -> None:
    today = START.date()
    official = next_attempt(store, today, store.now().date())
    assert official.official
    store.save_daily_state(official.id, {"turn": 3, "roll": [1, 5, 2]}, version=official.version)

    # A new process (the game was killed) resumes the same attempt on the same roll.
    with Store.open(tmp_path / "data", clock=clock) as again:
        resumed = next_attempt(again, today, again.now().date())
    assert resumed.id == official.id and resumed.state == {"turn": 3, "roll": [1, 5, 2]}

    store.finish_daily(
        official.id,
        score=5300,
        perfect_score=5650.0,
        marks="gg",
        turns=[{"t": 1}],
        version=official.version + 1,
    )
    practice = next_attempt(store, today, store.now().date())
    assert not practice.official and practice.session_id is not None
    assert next_attempt(store, today, store.now().date()).id == practice.id
    assert store.daily_attempt(today, official=True).turns == [{"t": 1}]  # type: ignore[union-attr]
    assert store.daily_attempt(today, official=False).id == practice.id  # type: ignore[union-attr]

    past = next_attempt(store, today - timedelta(days=3), store.now().date())
    assert not past.official


def test_a_save_names_the_version_it_read(store: Store, clock: Clock, tmp_path: Path) -> None:
    attempt = next_attempt(store, START.date(), START.date())
    with Store.open(tmp_path / "data", clock=clock) as other:
        newer = other.save_daily_state(attempt.id, {"banked": 450}, version=attempt.version)
    assert newer == attempt.version + 1
    with pytest.raises(StaleAttemptError):
        store.save_daily_state(attempt.id, {"banked": 0}, version=attempt.version)
    assert store.get_daily(attempt.id).state == {"banked": 450}


def test_saved_games_are_written_by_compare_and_set(store: Store, clock: Clock, tmp_path: Path) -> None:
    game = store.add_game({"turn": 0}, kind="match", level="medium", rated=True, rules="classic")
    with Store.open(tmp_path / "data", clock=clock) as other:
        newer = other.save_game(game.id, {"turn": 1}, version=game.version, rated=True)
    assert newer == game.version + 1
    with pytest.raises(StaleAttemptError, match=f"game {game.id} was saved by another terminal"):
        store.save_game(game.id, {"turn": 9}, version=game.version, rated=True)
    assert store.get_game(game.id).state == {"turn": 1}
    store.finish_game(game.id, {"turn": 2}, outcome="won", score=2000, version=newer)
    with pytest.raises(StoreError, match=f"the game {game.id} is already over"):
        store.save_game(game.id, {"turn": 3}, version=newer + 1, rated=True)
    with pytest.raises(StoreError, match="there is no saved game 99"):
        store.save_game(99, {}, version=1, rated=True)


def test_finished_attempts_stay_finished(store: Store) -> None:
    attempt = next_attempt(store, START.date(), store.now().date())
    store.finish_daily(attempt.id, score=100, perfect_score=None, marks="", turns=[], version=attempt.version)
    finished = store.get_daily(attempt.id)
    with pytest.raises(StoreError, match="already finished"):
        store.save_daily_state(attempt.id, {}, version=finished.version)
    with pytest.raises(StaleAttemptError):
        store.finish_daily(
            attempt.id, score=9000, perfect_score=None, marks="", turns=[], version=attempt.version
        )
    with pytest.raises(StoreError, match="no daily attempt 42"):
        store.save_daily_state(42, {}, version=0)


def test_training_never_changes_stats(store: Store, clock: Clock) -> None:
    empty = load_stats(store)
    sid = store.start_session("decide", rules="classic", params={})
    for n in range(30):
        answer(store, sid, "final-round", f"f{n}", n % 2 == 0, lost=5.0)
    for day in (START.date() - timedelta(days=2), START.date() - timedelta(days=1)):
        practice = next_attempt(store, day, store.now().date())
        assert not practice.official
        answer(store, practice.session_id, "bank-or-roll", "p", True, lost=0.0)  # type: ignore[arg-type]
        store.finish_daily(
            practice.id, score=9000, perfect_score=None, marks="", turns=[], version=practice.version
        )
    assert load_stats(store) == empty
    assert empty.games_played == 0 and empty.best is None and empty.histogram == ()

    p = load_progress(store)
    assert p.practice_games == 2
    assert {t.kind for t in p.topics} == {"decide", "daily-practice"}


def test_official_results_never_enter_progress(store: Store, clock: Clock) -> None:
    play_official(store, clock, START.date(), 4000)
    p = load_progress(store)
    assert (p.answers, p.sessions, p.practice_games) == (0, 0, 0)


def test_stats_streaks_best_average_histogram(store: Store, clock: Clock) -> None:
    d = date(2026, 11, 1)
    for offset, score in [(0, 4200), (1, 5100), (2, 5900), (4, 6100), (5, 12_500)]:
        play_official(store, clock, d + timedelta(days=offset), score)
    s = load_stats(store, d + timedelta(days=5))
    assert (s.games_played, s.current_streak, s.longest_streak) == (5, 2, 3)
    assert s.best is not None and (s.best.date, s.best.score) == ("2026-11-06", 12_500)
    assert s.average_score == pytest.approx(6760)
    assert [(b.low, b.high, b.count) for b in s.histogram] == [
        (4000, 4999, 1),
        (5000, 5999, 2),
        (6000, 6999, 1),
        (7000, 7999, 0),
        (8000, 8999, 0),
        (9000, 9999, 0),
        (10_000, None, 1),
    ]
    assert [r.date for r in s.recent][:2] == ["2026-11-06", "2026-11-05"]
    assert s.played_today
    assert load_stats(store, date.fromisoformat("2026-11-07")).current_streak == 2
    later = load_stats(store, date(2026, 11, 8))
    assert later.current_streak == 0 and later.longest_streak == 3 and not later.played_today


def test_reset_removes_one_kind_only(store: Store, clock: Clock) -> None:
    sid = store.start_session("score", rules="classic", params={})
    answer(store, sid, "worth", "w", False)
    practice = next_attempt(store, START.date() - timedelta(days=1), store.now().date())
    play_official(store, clock, START.date(), 5000)

    assert store.reset("progress") == 1
    assert load_progress(store).answers == 0 and store.due_items("score") == []
    assert store.daily_attempt(START.date() - timedelta(days=1), official=False) is None
    assert store.get_daily(practice.id + 1).official
    assert load_stats(store).games_played == 1

    answer(store, store.start_session("score", rules="classic", params={}), "worth", "w", True)
    assert store.reset("stats") == 1
    assert load_stats(store).games_played == 0
    assert load_progress(store).answers == 1
    with pytest.raises(StoreError, match="progress or stats"):
        store.reset("everything")


# -- durability and two processes

CHILD = textwrap.dedent(
    """
    import os, sys, time
    from pathlib import Path
    from farkle_trainer.store.db import Store
    from farkle_trainer.training.games.daily import next_attempt

    directory, count, ready, go = Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4])
    with Store.open(directory) as store:
        sid = store.start_session("score", rules="classic", params={"who": "child"})
        ready.touch()
        while not go.exists():
            time.sleep(0.001)
        for n in range(count):
            store.record_answer(sid, topic="worth", item=f"child{n % 7}", question="q", answer="a",
                                correct_answer="a", correct=True, grade="right", points_lost=None)
            time.sleep(0.0005)
        if len(sys.argv) > 5:
            today = store.now().date()
            attempt = next_attempt(store, today, today)
            store.save_daily_state(attempt.id, {"turn": 4}, version=attempt.version)
            os._exit(1)  # killed: no close, no clean exit
    """
)


def run_child(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", CHILD, *args], stderr=subprocess.PIPE)


def test_two_processes_write_at_once(tmp_path: Path) -> None:
    directory, ready, go = tmp_path / "shared", tmp_path / "ready", tmp_path / "go"
    with Store.open(directory) as store:
        sid = store.start_session("decide", rules="classic", params={"who": "parent"})
        child = run_child(str(directory), "300", str(ready), str(go))
        deadline = time.monotonic() + 60
        while not ready.exists() and child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.001)
        go.touch()
        for n in range(300):
            store.record_answer(
                sid,
                topic="keep",
                item=f"parent{n % 5}",
                question="q",
                answer="a",
                correct_answer="b",
                correct=False,
                grade="wrong",
                points_lost=1.0,
            )
            if n % 50 == 0:
                load_progress(store)
            time.sleep(0.0005)
        _, err = child.communicate(timeout=60)
        assert child.returncode == 0, err.decode()
        p = load_progress(store)
        with sqlite3.connect(store.path) as db:
            order = [r[0] for r in db.execute("SELECT session_id FROM answers ORDER BY id")]
    assert p.answers == 600 and p.sessions == 2
    assert {(t.kind, t.topic, t.answers) for t in p.topics} == {
        ("score", "worth", 300),
        ("decide", "keep", 300),
    }
    # The writes really were interleaved, not one process after the other.
    assert sum(a != b for a, b in itertools.pairwise(order)) > 2


def test_a_killed_process_loses_nothing(tmp_path: Path) -> None:
    directory = tmp_path / "data"
    (tmp_path / "go").touch()
    child = run_child(str(directory), "5", str(tmp_path / "ready"), str(tmp_path / "go"), "crash")
    _, err = child.communicate(timeout=60)
    assert child.returncode == 1, err.decode()
    with Store.open(directory) as store:
        assert load_progress(store).answers == 5
        attempt = store.daily_attempt(store.now().date(), official=True)
    assert attempt is not None and attempt.state == {"turn": 4}


# -- damaged, foreign, older and newer files


def filled_store(directory: Path) -> Path:
    with Store.open(directory) as store:
        sid = store.start_session("score", rules="classic", params={"padding": "x" * 2000})
        for n in range(200):
            answer(store, sid, "worth", f"i{n}", n % 3 == 0)
        return store.path


@pytest.mark.parametrize("keep", [0.5, 0.8, 0.99, 40])
def test_a_truncated_file_is_damaged_and_left_alone(tmp_path: Path, keep: float) -> None:
    path = filled_store(tmp_path / "data")
    data = path.read_bytes()
    cut = data[: int(len(data) * keep)] if keep < 1 else data[: int(keep)]
    path.write_bytes(cut)
    with pytest.raises(DamagedStoreError) as caught:
        Store.open(tmp_path / "data")
    assert caught.value.path == path
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)
    assert path.read_bytes() == cut


def test_a_foreign_file_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "data" / FILE_NAME
    path.parent.mkdir()
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE recipes (name TEXT)")
    db.execute("INSERT INTO recipes VALUES ('soup')")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(DamagedStoreError, match="another program's database"):
        Store.open(tmp_path / "data")
    assert path.read_bytes() == before

    path.write_text("my notes, not a database\n" * 20)
    with pytest.raises(DamagedStoreError, match="not a database"):
        Store.open(tmp_path / "data")


def test_set_aside_keeps_the_file_and_a_fresh_store_opens(tmp_path: Path) -> None:
    path = tmp_path / "data" / FILE_NAME
    path.parent.mkdir()
    path.write_bytes(b"garbage" * 100)
    (path.parent / (FILE_NAME + "-wal")).write_bytes(b"stale wal")
    when = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    kept = set_aside_damaged(path, now=when)
    assert kept.name == "farkle.sqlite3.damaged-20261129T120000"
    assert kept.read_bytes() == b"garbage" * 100
    assert (kept.parent / (kept.name + "-wal")).read_bytes() == b"stale wal"
    assert not path.exists() and not (path.parent / (FILE_NAME + "-wal")).exists()

    path.write_bytes(b"again")
    assert set_aside_damaged(path, now=when).name == "farkle.sqlite3.damaged-20261129T120000-2"
    with Store.open(tmp_path / "data") as store:
        assert load_progress(store).answers == 0


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = filled_store(tmp_path / "data")
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(NewerStoreError, match="newer farkle-trainer"):
        Store.open(tmp_path / "data")


VERSION_1 = """
CREATE TABLE sessions (
    id INTEGER PRIMARY KEY, kind TEXT NOT NULL, rules TEXT NOT NULL, seed INTEGER, code TEXT,
    params TEXT NOT NULL DEFAULT '{}', started_at TEXT NOT NULL, finished_at TEXT
);
CREATE TABLE answers (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    answered_at TEXT NOT NULL, topic TEXT NOT NULL, item TEXT NOT NULL, question TEXT NOT NULL,
    answer TEXT NOT NULL, correct_answer TEXT NOT NULL,
    correct INTEGER NOT NULL CHECK (correct IN (0, 1)), grade TEXT NOT NULL, points_lost REAL, extra TEXT
);
CREATE INDEX answers_by_session ON answers(session_id);
CREATE TABLE daily_attempts (
    id INTEGER PRIMARY KEY, date TEXT NOT NULL, official INTEGER NOT NULL CHECK (official IN (0, 1)),
    rules TEXT NOT NULL, session_id INTEGER REFERENCES sessions(id) ON DELETE CASCADE,
    started_at TEXT NOT NULL, updated_at TEXT NOT NULL, finished_at TEXT, state TEXT, score INTEGER,
    perfect_score REAL, marks TEXT, turns TEXT,
    CHECK ((official = 1) = (session_id IS NULL))
);
CREATE UNIQUE INDEX one_official_attempt_per_date ON daily_attempts(date) WHERE official = 1;
INSERT INTO sessions VALUES (1, 'score', 'classic', 3, NULL, '{}', '2026-10-01T10:00:00+00:00', NULL);
INSERT INTO answers VALUES
    (1, 1, '2026-10-01T10:01:00+00:00', 'combos', 'c1', 'q1', '500', '1,000', 0, 'wrong', NULL, '{"d":[1]}'),
    (2, 1, '2026-10-01T10:02:00+00:00', 'combos', 'c2', 'q2', '300', '300', 1, 'right', NULL, NULL),
    (3, 1, '2026-10-01T10:03:00+00:00', 'combos', 'c1', 'q1', '500', '1,000', 0, 'wrong', NULL, '{"d":[1]}');
INSERT INTO daily_attempts VALUES
    (1, '2026-10-01', 1, 'classic', NULL, '2026-10-01T11:00:00+00:00', '2026-10-01T11:20:00+00:00',
     '2026-10-01T11:20:00+00:00', NULL, 6150, 6400.5, 'marks', '[]');
"""


def test_a_version_1_file_is_upgraded_without_losing_rows(tmp_path: Path, clock: Clock) -> None:
    path = tmp_path / "old" / FILE_NAME
    path.parent.mkdir()
    db = sqlite3.connect(path)
    db.executescript(VERSION_1)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()

    with Store.open(tmp_path / "old", clock=clock) as store:
        assert store.schema_version == SCHEMA_VERSION
        p = load_progress(store)
        assert (p.answers, p.correct, p.sessions) == (3, 1, 1)
        stats = load_stats(store, date(2026, 10, 1))
        assert stats.games_played == 1 and stats.best.score == 6150  # type: ignore[union-attr]
        # The review schedule is rebuilt from the old answers.
        due = store.due_items("score")
        assert [(i.item, i.box, i.seen, i.wrong) for i in due] == [("c1", 1, 2, 2), ("c2", 2, 1, 0)]
        assert due[0].extra == {"d": [1]}
    with Store.open(tmp_path / "old") as again:
        assert load_progress(again).answers == 3


def test_a_final_round_loss_kept_in_extra_moves_to_its_unit(tmp_path: Path, clock: Clock) -> None:
    path = tmp_path / "old" / FILE_NAME
    path.parent.mkdir()
    db = sqlite3.connect(path)
    db.executescript(VERSION_1)
    db.execute(
        """INSERT INTO answers VALUES (4, 1, '2026-10-01T10:04:00+00:00', 'final-round', 'f1', 'q4',
           'bank', 'roll', 0, 'mistake', NULL, '{"unit": "percentage points", "lost": 3.5}')"""
    )
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    with Store.open(tmp_path / "old", clock=clock) as store:
        p = load_progress(store)
        final = next(t for t in p.topics if t.topic == "final-round")
        assert (final.average_points_lost, final.loss_unit) == (3.5, "percentage points")
        assert p.decisions == 0 and p.average_points_lost is None


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


def test_atomic_keeps_all_or_nothing(store: Store) -> None:
    added = store.add_daily_attempt(START.date(), official=False, rules="classic")
    assert added is not None
    attempt = added.id
    session = added.session_id
    assert session is not None
    with pytest.raises(RuntimeError), store.atomic():
        store.save_daily_state(attempt, {"turn": 2}, version=0)
        answer(store, session, "bank-or-roll", "m1", True)
        raise RuntimeError("killed between the two")
    assert store.get_daily(attempt).state is None
    assert load_progress(store).answers == 0
    with store.atomic():
        store.save_daily_state(attempt, {"turn": 2}, version=0)
        with store.atomic():
            answer(store, session, "bank-or-roll", "m1", True)
    assert store.get_daily(attempt).state == {"turn": 2}
    assert load_progress(store).answers == 1


def _open_new_store(directory: Path, go: Any, results: Any) -> None:
    go.wait()
    try:
        with Store.open(directory) as store:
            store.start_session("score", rules="classic")
        results.put("ok")
    except StoreError as exc:
        results.put(str(exc))


@pytest.mark.skipif(sys.platform == "win32", reason="fork keeps six starts cheap enough to race")
def test_six_processes_create_one_store_together(tmp_path: Path) -> None:
    context = multiprocessing.get_context("fork")
    for n in range(30):
        directory = tmp_path / f"round{n}"
        go, results = context.Event(), context.Queue()
        children = [context.Process(target=_open_new_store, args=(directory, go, results)) for _ in range(6)]
        for child in children:
            child.start()
        go.set()
        outcomes = [results.get(timeout=30) for _ in children]
        for child in children:
            child.join(timeout=30)
        assert outcomes == ["ok"] * 6, f"round {n}: {outcomes}"
        assert [p.name for p in directory.iterdir() if ".damaged" in p.name] == []
        with Store.open(directory) as store:
            assert load_progress(store).sessions == 0 and store.schema_version == SCHEMA_VERSION


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


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_a_new_store_is_private(tmp_path: Path) -> None:
    directory = tmp_path / "new" / "data"
    with Store.open(directory) as store:
        store.start_session("score", rules="classic")
        files = [p for p in directory.iterdir() if p.name.startswith(FILE_NAME)]
        assert {p.name for p in files} >= {FILE_NAME, FILE_NAME + "-wal", FILE_NAME + "-shm"}
        assert directory.stat().st_mode & 0o777 == 0o700
        for path in files:
            assert path.stat().st_mode & 0o777 == 0o600, path.name
