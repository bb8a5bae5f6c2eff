"""The file itself: two writers, crashes, damaged, foreign, older and newer files."""

from __future__ import annotations

import itertools
import multiprocessing
import sqlite3
import subprocess
import sys
import textwrap
import time
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from builders import Clock, answer

from farkle_trainer.store.db import Store
from farkle_trainer.store.errors import DamagedStoreError, StoreError
from farkle_trainer.store.paths import FILE_NAME
from farkle_trainer.store.schema import APPLICATION_ID, SCHEMA_VERSION, NewerStoreError
from farkle_trainer.training.progress import load_progress, load_stats

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
