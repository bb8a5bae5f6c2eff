"""The file itself: two writers, crashes, damaged, foreign, older and newer files."""

from __future__ import annotations

import itertools
import multiprocessing
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import textwrap
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from builders import Clock, answer, fsrs_card, schedule_of, schedule_of_card

from farkle_trainer.store.db import Store
from farkle_trainer.store.errors import DamagedStoreError, StoreError
from farkle_trainer.store.paths import FILE_NAME
from farkle_trainer.store.rows import AnswerRow, DailyAttempt, DailyResult, GameRow, ItemState, SessionLoss
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


OPEN_STORE = (
    "import sys, pathlib; from farkle_trainer.store.db import Store; Store.open(pathlib.Path(sys.argv[1]))"
)


@pytest.mark.parametrize("ending", ["", "-journal", "-wal", "-shm"])
def test_a_fifo_where_the_store_or_its_journal_goes_is_refused_at_once(tmp_path: Path, ending: str) -> None:
    data = tmp_path / "data"
    Store.open(data).close()
    path = data / (FILE_NAME + ending)
    path.unlink(missing_ok=True)
    os.mkfifo(path)  # opened to be read, it would wait for a writer that never comes
    # In a process of its own, so that a wait fails the test rather than hang it.
    opened = subprocess.run(
        [sys.executable, "-c", OPEN_STORE, str(data)], capture_output=True, text=True, timeout=60
    )
    assert opened.returncode == 1
    assert opened.stderr.splitlines()[-1] == (
        f"farkle_trainer.store.errors.StoreError: {path} is not a regular file, "
        + (
            "so it cannot be a farkle-trainer store"
            if not ending
            else "and SQLite keeps the store's journal at that name"
        )
        + ": move it away, or keep your records elsewhere with --data-dir DIR"
    )
    assert stat.S_ISFIFO(path.stat().st_mode)


@pytest.mark.parametrize("when", ["connecting", "preparing"])
@pytest.mark.parametrize("writable", [False, True])
def test_a_folder_that_cannot_be_written_in_is_said_to_be_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, writable: bool, when: str
) -> None:
    from farkle_trainer.store.connection import Connection
    from farkle_trainer.store.errors import StoreFailure

    data = tmp_path / "data"
    Store.open(data).close()

    # What SQLite says in a folder on a read-only disk (root writes anywhere else, so it is mimicked),
    # as it connects or at its first statement.
    def cannot_prepare(self: Connection) -> None:
        raise StoreFailure(f"{self.path}: unable to open database file")

    def cannot_connect(*args: object, **kwargs: object) -> None:
        raise sqlite3.OperationalError("unable to open database file")

    real = os.access
    if when == "connecting":
        monkeypatch.setattr(sqlite3, "connect", cannot_connect)
    else:
        monkeypatch.setattr(Connection, "_prepare", cannot_prepare)
    monkeypatch.setattr(os, "access", lambda path, mode: writable and real(path, mode))
    with pytest.raises(StoreError) as raised:
        Store.open(data)
    if writable:
        assert "unable to open database file" in str(raised.value)
    else:
        assert str(raised.value) == (
            f"cannot write in {data}: the store keeps every answer as it is given, so it needs a "
            "folder it can write in; keep your records elsewhere with --data-dir DIR"
        )


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


def at_10(minute: int) -> datetime:
    return datetime(2026, 10, 1, 10, minute, tzinfo=UTC)


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
        # The review schedule is rebuilt from the old answers, on FSRS.
        due = store.due_items("score")
        assert [(i.item, i.seen, i.wrong) for i in due] == [("c1", 2, 2), ("c2", 1, 0)]
        assert schedule_of(due[0]) == schedule_of_card(
            fsrs_card([("wrong", False, at_10(1)), ("wrong", False, at_10(3))])
        )
        assert schedule_of(due[1]) == schedule_of_card(fsrs_card([("right", True, at_10(2))]))
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


#: A store written by farkle-trainer 0.2.0 (schema 5) on a clock that moved a minute at each
#: call from 09:00 UTC on 2026-11-29: a scoring quiz, a decide session on ``fixed`` with a loss
#: in points and one in percentage points, lesson 3, an official daily game finished, one
#: closed as damaged, a practice game held by a terminal, a rated game won and a game going on
#: that stopped being rated when a hint was asked.
RELEASE_0_2_0 = Path(__file__).resolve().parents[1] / "data" / "store-0.2.0"


def at(minute: int) -> datetime:
    return datetime(2026, 11, 29, 9, tzinfo=UTC) + timedelta(minutes=minute)


def test_a_store_written_by_0_2_0_reads_as_it_was_written(tmp_path: Path) -> None:
    shutil.copytree(RELEASE_0_2_0, tmp_path / "data")
    now = datetime(2026, 12, 1, tzinfo=UTC)
    with Store.open(tmp_path / "data", clock=lambda: now) as store:
        assert store.schema_version == SCHEMA_VERSION
        assert store.lessons_read() == {3}
        assert store.recent_accuracy("score", last=20) == {"combos": 0.0, "worth": 1.0}
        missed = fsrs_card([("wrong", False, at(2))])
        known = fsrs_card([("right", True, at(3))])
        assert store.due_items("score") == [
            ItemState(
                "score", "worth:1-1-1-5", "combos", missed.due, at(2), 1, 1, False,
                "What is 1-1-1-5 worth?", "1,050", {"dice": [1, 1, 1, 5]},
                *schedule_of_card(missed)[:4], at(2),
            ),
        ]  # fmt: skip
        # Right the first time: two days out, later today (UTC).
        assert (missed.due, known.due) == (at(2), at(3) + timedelta(days=2))
        assert [(i.item, i.due_at, i.extra) for i in store.due_items("decide")] == [
            ("keep:0:1-5-2-2-3-6", at(6), {"keep": [1, 5]}),
            ("chance:2000:3:450", at(7), None),
        ]

        rows = store.progress_rows(rules=None, recent=20, sessions=10, now=now)
        assert (rows.answers, rows.correct, rows.sessions_count, rows.decisions) == (5, 2, 3, 2)
        assert (rows.average_points_lost, rows.practice_games) == (6.25, 0)
        # Only the cards that come back are counted as due: not the daily game's decision.
        summary = load_progress(store)
        assert (summary.due.now, summary.due.due_today) == (3, 4)
        assert [(t.kind, t.topic, t.answers, t.average_points_lost, t.loss_unit) for t in rows.topics] == [
            ("daily-practice", "bank-or-roll", 1, 0.0, "points"),
            ("decide", "final-round", 1, 3.25, "percentage points"),
            ("decide", "keep", 1, 12.5, "points"),
            ("score", "combos", 1, None, "points"),
            ("score", "worth", 1, None, "points"),
        ]
        assert rows.sessions == (
            SessionLoss(2, "decide", at(5), 1, 12.5),
            SessionLoss(4, "daily-practice", at(16), 1, 0.0),
        )
        fixed = store.progress_rows(rules="fixed", recent=20, sessions=10, now=now)
        assert (fixed.answers, fixed.sessions_count, [t.topic for t in fixed.topics]) == (
            2,
            1,
            ["final-round", "keep"],
        )
        answers = store.answer_rows()
        assert [(a.time, a.kind, a.session, a.rules, a.item) for a in answers] == [
            ("2026-11-29T09:02:00+00:00", "score", 1, "classic", "worth:1-1-1-5"),
            ("2026-11-29T09:03:00+00:00", "score", 1, "classic", "worth:5-5-5"),
            ("2026-11-29T09:06:00+00:00", "decide", 2, "fixed", "keep:0:1-5-2-2-3-6"),
            ("2026-11-29T09:07:00+00:00", "decide", 2, "fixed", "chance:2000:3:450"),
            ("2026-11-29T09:20:00+00:00", "daily-practice", 4, "classic", "game:300:4"),
        ]
        assert answers[3] == AnswerRow(
            "2026-11-29T09:07:00+00:00", "decide", 2, "fixed", "final-round", "chance:2000:3:450",
            "450 points, 3 dice", "bank", "roll", False, "blunder", 3.25, "percentage points", None,
        )  # fmt: skip

        assert store.get_daily(1) == DailyAttempt(
            1, "2026-11-28", True, "classic", None, at(9), at(12), at(11),
            {"turn": 2, "roll": [1, 5, 2]}, 5350, 5712.4, "+-+", [{"turn": 1, "banked": 350}], version=2,
            raw_state='{"turn":2,"roll":[1,5,2]}', raw_turns='[{"turn":1,"banked":350}]',
        )  # fmt: skip
        damaged = store.get_daily(2)
        assert (damaged.date, damaged.damage, damaged.finished_at) == (
            "2026-11-27",
            "its saved game is not a game state",
            at(14),
        )
        practice = store.daily_attempt("2026-11-29", official=False)
        assert practice is not None and practice.id == 3 and practice.session_id == 4
        assert (practice.state, practice.version, practice.finished) == ({"turn": 1}, 2, False)
        assert (practice.holder, practice.held_until) == ("tty-1", datetime(2026, 11, 29, 10, tzinfo=UTC))
        assert store.official_results() == [DailyResult("2026-11-28", 5350, 5712.4, "+-+")]
        assert store.official_results()[0].state == '{"turn":2,"roll":[1,5,2]}'
        assert (store.official_count(), store.damaged_official_count()) == (2, 1)
        assert store.unfinished_official("2026-12-01") == []

        won = GameRow(1, "match", "hard", True, 5, at(21), at(25), at(24), {"turn": 9}, 2, "win", 10050)
        going_on = GameRow(
            2, "match", "easy", False, 7, at(26), at(28), None, {"turn": 1, "hint": True}, 1, None, None
        )
        assert store.games() == [going_on, won]
        assert store.rated_games() == [won]
        assert store.unfinished_game() == going_on


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


def test_a_transaction_cut_off_before_its_body_says_nothing_when_the_store_closes(tmp_path: Path) -> None:
    # Ctrl-C can land after BEGIN but before the body runs: the transaction is never finished,
    # the store closes (rolling it back), and the abandoned generator is collected later.
    import gc

    said: list[BaseException | None] = []
    previous = sys.unraisablehook
    sys.unraisablehook = lambda hook: said.append(hook.exc_value)
    try:
        with Store.open(tmp_path) as store:
            sid = store.start_session("score", rules="classic", params={})
            abandoned = store._transaction()
            abandoned.__enter__()
            store.close()
            del abandoned
            gc.collect()
    finally:
        sys.unraisablehook = previous
    assert said == []
    with sqlite3.connect(tmp_path / FILE_NAME) as db:
        assert db.execute("SELECT id FROM sessions").fetchall() == [(sid,)]
