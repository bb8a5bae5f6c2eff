"""The review schedule on FSRS: every card moves as fsrs says, personal positions, edited rows,
two processes at once, and the migration that moved the Leitner boxes onto it."""

from __future__ import annotations

import itertools
import sqlite3
import subprocess
import sys
import textwrap
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from builders import START, Clock, answer, fsrs_card, schedule_of, schedule_of_card

from farkle_trainer.store import leitner
from farkle_trainer.store.db import Store
from farkle_trainer.store.paths import FILE_NAME
from farkle_trainer.store.rows import Mistake
from farkle_trainer.store.schedule import MISTAKES
from farkle_trainer.store.schema import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION
from farkle_trainer.training.progress import load_progress


def decision(store: Store, session: int, item: str, grade: str, *, mistake: Mistake | None = None):
    right = grade in ("best", "fine")
    return store.record_answer(
        session,
        topic="keep",
        item=item,
        question=f"position {item}",
        answer="bank",
        correct_answer="roll",
        correct=right,
        grade=grade,
        points_lost=0.0 if grade == "best" else 30.0,
        mistake=mistake,
    )


def test_a_card_moves_as_fsrs_says_answer_by_answer(store: Store, clock: Clock) -> None:
    sid = store.start_session("decide", rules="classic")
    # Misses, slips and best plays over weeks, some within a minute, some a month apart.
    plan = [
        (timedelta(0), "blunder"),
        (timedelta(minutes=1), "best"),
        (timedelta(days=2), "fine"),
        (timedelta(seconds=30), "mistake"),
        (timedelta(minutes=10), "best"),
        (timedelta(days=1), "best"),
        (timedelta(days=9), "inaccuracy"),
        (timedelta(days=31), "best"),
    ]
    made: list[tuple[str, bool, datetime]] = []
    for gap, grade in plan:
        clock.moment += gap
        state = decision(store, sid, "p", grade)
        made.append((grade, grade in ("best", "fine"), clock.moment))
        assert schedule_of(state) == schedule_of_card(fsrs_card(made)), grade
    assert (state.seen, state.wrong) == (8, 3)


def test_an_answer_right_five_times_is_far_out_and_a_miss_yesterday_is_due(
    store: Store, clock: Clock
) -> None:
    sid = store.start_session("score", rules="classic")
    for gap in (0, 2, 7, 20, 60):
        clock.advance(days=gap)
        far = answer(store, sid, "worth", "known", True)
    clock.advance(days=1)
    missed = answer(store, sid, "worth", "missed", False)
    clock.advance(days=1)
    assert far.due_at - clock.moment > timedelta(days=100)
    assert missed.due_at < clock.moment
    assert [i.item for i in store.due_items("score")] == ["missed"]


def personal(item: str = "keep:classic:0:112356") -> Mistake:
    return Mistake(item, "keep", f"the position {item}", "keep 1 and roll 5 dice", {"position": {"x": 1}})


def test_a_mistake_makes_a_personal_card_due_at_once(store: Store, clock: Clock) -> None:
    sid = store.start_session("game", rules="classic")
    made = decision(store, sid, "game:0:112356", "blunder", mistake=personal())
    assert made.kind == "game"  # the answer's own card, as every answer has
    [card] = store.due_items(MISTAKES)
    assert (card.item, card.topic, card.question, card.extra) == (
        "keep:classic:0:112356",
        "keep",
        "the position keep:classic:0:112356",
        {"position": {"x": 1}},
    )
    # Reviewed as Again, so due at once.
    assert schedule_of(card) == schedule_of_card(fsrs_card([("blunder", False, START)]))
    assert card.due_at == START
    assert (card.seen, card.wrong, card.last_correct) == (1, 1, False)

    # The same position missed again, in an official game this time (no answer kept): one card,
    # reviewed as Again once more.
    clock.advance(hours=2)
    store.record_mistake(personal())
    [again] = store.due_items(MISTAKES)
    expected = fsrs_card([("blunder", False, START), ("blunder", False, clock.moment)])
    assert schedule_of(again) == schedule_of_card(expected)
    assert (again.seen, again.wrong) == (2, 2)
    assert store.next_due(MISTAKES) == again and store.next_due("score") is None


def test_a_drill_of_a_personal_position_reviews_its_card(store: Store, clock: Clock) -> None:
    game = store.start_session("game", rules="classic")
    decision(store, game, "game:0:112356", "mistake", mistake=personal())
    clock.advance(minutes=5)
    drill = store.start_session(MISTAKES, rules="classic")
    state = decision(store, drill, personal().item, "best")
    assert state.kind == MISTAKES and state.item == personal().item
    made = [("mistake", False, START), ("best", True, clock.moment)]
    assert schedule_of(state) == schedule_of_card(fsrs_card(made))
    assert store.due_items(MISTAKES) == []
    assert (state.seen, state.wrong, state.last_correct) == (2, 1, True)


def test_progress_counts_the_cards_that_come_back_today_and_each_day_of_the_week(
    store: Store, clock: Clock
) -> None:
    quiz = store.start_session("score", rules="classic")
    answer(store, quiz, "worth", "missed", False)  # due at once
    answer(store, quiz, "worth", "known", True)  # two days on
    game = store.start_session("game", rules="classic")
    decision(store, game, "game:0:1", "blunder", mistake=personal("one"))  # due at once
    decision(store, game, "game:0:2", "best")  # a game's own card never comes back
    store.record_mistake(personal("two"))
    p = load_progress(store)
    assert (p.due.now, p.due.due_today) == (3, 3)
    assert p.due.today_by_kind == (("score", 1), (MISTAKES, 2))
    assert p.due.forecast == (0, 1, 0, 0, 0, 0, 0)
    # Overdue cards count today; the days are UTC days.
    clock.advance(days=5)
    p = load_progress(store)
    assert (p.due.now, p.due.due_today, p.due.forecast) == (4, 4, (0,) * 7)
    assert p.trained.days == (START.date(),)


def test_an_edited_card_starts_again_rather_than_stop_the_scheduler(store: Store, clock: Clock) -> None:
    sid = store.start_session("score", rules="classic")
    answer(store, sid, "worth", "w", True)
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE items SET stability = -3.5, difficulty = 'lots'")
    clock.advance(days=3)
    again = answer(store, sid, "worth", "w", False)
    assert schedule_of(again) == schedule_of_card(fsrs_card([("wrong", False, clock.moment)]))
    assert (again.seen, again.wrong) == (2, 1)


# -- two processes at once

CHILD = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from farkle_trainer.store.db import Store
    from farkle_trainer.store.rows import Mistake

    directory, count, ready, go = Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4])
    mine, theirs = Path(sys.argv[5]), Path(sys.argv[6])
    mistake = Mistake("shared-position", "keep", "q", "a", {"position": {}})
    with Store.open(directory) as store:
        sid = store.start_session("decide", rules="classic")
        ready.touch()
        while not go.exists():
            time.sleep(0.001)
        for n in range(count):
            right = n % 2 == 0
            store.record_answer(sid, topic="keep", item="shared", question="q", answer="a",
                                correct_answer="b", correct=right, grade="best" if right else "blunder",
                                points_lost=0.0, mistake=None if right else mistake)
            store.record_mistake(mistake)
            if n % 10 == 9:
                # In step: neither runs on to its next ten until the other has answered these
                # too (or has failed), so the two write in turn whatever the machine schedules.
                mine.with_suffix(f".{n}").touch()
                deadline = time.monotonic() + 30
                while not theirs.with_suffix(f".{n}").exists() and time.monotonic() < deadline:
                    time.sleep(0.001)
            time.sleep(0.0005)
    """
)


def test_two_processes_answering_one_card_at_once_lose_no_answer(tmp_path: Path) -> None:
    directory, go = tmp_path / "shared", tmp_path / "go"
    Store.open(directory).close()
    ready = [tmp_path / f"ready{n}" for n in range(2)]
    halfway = [tmp_path / f"halfway{n}" for n in range(2)]
    children = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                CHILD,
                *map(str, (directory, 100, ready[n], go, halfway[n], halfway[1 - n])),
            ],
            stderr=subprocess.PIPE,
        )
        for n in range(2)
    ]
    try:
        deadline = time.monotonic() + 60
        while not all(flag.exists() for flag in ready) and time.monotonic() < deadline:
            time.sleep(0.001)
        go.touch()
        for child in children:
            _, err = child.communicate(timeout=120)
            assert child.returncode == 0, err.decode()
    finally:
        for child in children:
            child.kill()
            child.wait()
    with Store.open(directory) as store:
        assert load_progress(store).answers == 200
        with sqlite3.connect(store.path) as db:
            seen = dict(db.execute("SELECT kind, seen FROM items").fetchall())
            wrong = dict(db.execute("SELECT kind, wrong FROM items").fetchall())
            order = [r[0] for r in db.execute("SELECT session_id FROM answers ORDER BY id")]
    # The two really answered at once, not one after the other: each ten of one among the
    # other's same ten.
    assert sum(a != b for a, b in itertools.pairwise(order)) >= 10
    # Every answer reviewed the card once, and every mistake its personal card once.
    assert seen == {"decide": 200, MISTAKES: 100 + 200}
    assert wrong == {"decide": 100, MISTAKES: 300}


# -- the migration from the Leitner boxes


def v5_store(directory: Path) -> Path:
    """A store as farkle-trainer 0.2.0 made it: the first five migrations, and answers scheduled
    in Leitner boxes as its ``record_answer`` did."""
    path = directory / FILE_NAME
    directory.mkdir()
    db = sqlite3.connect(path, isolation_level=None)
    db.row_factory = sqlite3.Row
    db.execute("BEGIN")
    for step in MIGRATIONS[:5]:
        step(db)
    db.execute("PRAGMA user_version = 5")
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    day = datetime(2026, 9, 1, 8, tzinfo=UTC)
    db.execute(
        "INSERT INTO sessions (id, kind, rules, params, started_at) VALUES (1, 'score', 'classic', '{}', ?)",
        (day.isoformat(),),
    )
    db.execute(
        "INSERT INTO sessions (id, kind, rules, params, started_at) VALUES (2, 'decide', 'fixed', '{}', ?)",
        (day.isoformat(),),
    )
    answers = [
        # the same question right five times over two months
        *((1, "worth", "known", True, "right", day + timedelta(days=d)) for d in (0, 2, 7, 20, 60)),
        # missed yesterday (the clock reads 2026-11-01)
        (1, "combos", "missed", False, "wrong", datetime(2026, 10, 31, 18, tzinfo=UTC)),
        (2, "keep", "p1", False, "blunder", day),
        (2, "keep", "p1", True, "fine", day + timedelta(minutes=3)),
        (2, "keep", "p1", True, "best", day + timedelta(days=4)),
    ]
    for n, (sid, topic, item, correct, grade, at) in enumerate(answers, 1):
        db.execute(
            """INSERT INTO answers (id, session_id, answered_at, topic, item, question, answer,
                                    correct_answer, correct, grade, points_lost, extra)
               VALUES (?, ?, ?, ?, ?, ?, 'a', 'b', ?, ?, NULL, ?)""",
            (n, sid, at.isoformat(), topic, item, f"q {item} {n}", int(correct), grade, f'{{"n": {n}}}'),
        )
        kind = "score" if sid == 1 else "decide"
        leitner.schedule(db, kind, topic, item, correct, at, f"q {item} {n}", "b", f'{{"n": {n}}}')
    # A card with no answer left (a file edited by hand) is kept, due when it was.
    leitner.schedule(db, "score", "valid", "orphan", True, day, "q orphan", "b", None)
    db.execute("DELETE FROM answers WHERE item = 'orphan'")
    db.execute("COMMIT")
    db.close()
    return path


def test_a_version_5_store_moves_every_card_onto_fsrs(tmp_path: Path) -> None:
    path = v5_store(tmp_path / "old")
    with sqlite3.connect(path) as db:
        answers_before = db.execute("SELECT * FROM answers ORDER BY id").fetchall()
        items_before = db.execute("SELECT kind, item FROM items ORDER BY kind, item").fetchall()
    now = datetime(2026, 11, 1, 9, tzinfo=UTC)
    with Store.open(tmp_path / "old", clock=lambda: now) as store:
        assert store.schema_version == SCHEMA_VERSION == 7
        with sqlite3.connect(path) as db:
            assert db.execute("SELECT * FROM answers ORDER BY id").fetchall() == answers_before
            assert db.execute("SELECT kind, item FROM items ORDER BY kind, item").fetchall() == items_before
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert "leitner_items" not in tables
        cards = {(c.kind, c.item): c for c in store.due_items("score", limit=50) + store.due_items("decide")}
        orphan = store.next_due("score")  # due since September, a day after its right answer
        assert orphan is not None and orphan.item == "orphan"
        assert schedule_of(orphan) == (1, 0, None, None, datetime(2026, 9, 2, 8, tzinfo=UTC), None)

        rows = store.answer_rows()
        by_item: dict[str, list[tuple[str, bool, datetime]]] = {}
        for r in rows:
            by_item.setdefault(r.item, []).append((r.grade, r.correct, datetime.fromisoformat(r.time)))
        with sqlite3.connect(path) as db:
            db.row_factory = sqlite3.Row
            stored = {r["item"]: r for r in db.execute("SELECT * FROM items")}
        for item, made in by_item.items():
            card = fsrs_card(made)
            row = stored[item]
            assert (row["state"], row["step"], row["stability"], row["difficulty"]) == (
                card.state.value,
                card.step,
                card.stability,
                card.difficulty,
            ), item
            assert datetime.fromisoformat(row["due_at"]) == card.due, item
            assert (row["seen"], row["extra"]) == (len(made), f'{{"n": {_last(rows, item)}}}'), item

        # Right five times: months out. Missed yesterday: due now.
        assert datetime.fromisoformat(stored["known"]["due_at"]) - now > timedelta(days=60)
        assert ("score", "missed") in cards and ("score", "known") not in cards
    with Store.open(tmp_path / "old", clock=lambda: now) as again:
        assert load_progress(again).answers == len(answers_before)


def _last(rows: list, item: str) -> int:
    """The number of the last answer to ``item`` (its ``extra`` is the card's)."""
    return max(n for n, r in enumerate(rows, 1) if r.item == item)


# -- a position is one card


POSITION = {"kind": "keep", "rules": "classic", "points": 0, "roll": [3, 1, 2, 2, 1, 4], "title": None}


def drill_position(item: str = "keep:classic:0:112234") -> Mistake:
    """A drill position as a personal position: its key, and the key of its drill card."""
    extra = {"position": POSITION, "rules": {"name": "classic"}}
    return Mistake(f"{item}:5bf150062616ec5c", "keep", "the question", "keep 1 and roll 5 dice", extra, item)


def drilled(store: Store, session: int, grade: str, p: Mistake | None = None):
    """A drill's answer, as ``decide`` records it: with its position as a personal position."""
    p = p or drill_position()
    right = grade in ("best", "fine")
    return store.record_answer(
        session, topic="keep", item=p.drill_item or "", question="the question", answer="a",
        correct_answer="b", correct=right, grade=grade, points_lost=0.0 if right else 80.0,
        extra={"position": POSITION}, personal=p,
    )  # fmt: skip


def cards(store: Store) -> list[tuple[str, str]]:
    with sqlite3.connect(store.path) as db:
        return db.execute("SELECT kind, item FROM items ORDER BY kind, item").fetchall()


def test_a_drill_missed_is_one_card_its_personal_position(store: Store, clock: Clock) -> None:
    sid = store.start_session("decide", rules="classic")
    p = drill_position()
    state = drilled(store, sid, "blunder")
    assert (state.kind, state.item) == (MISTAKES, p.item)
    assert cards(store) == [(MISTAKES, p.item)]
    assert store.due_items("decide") == [] and len(store.due_items(MISTAKES)) == 1
    assert state.extra == p.extra  # with the rules it keeps, to be asked by decide --mistakes
    due = load_progress(store).due
    assert (due.due_today, due.today_by_kind) == (1, ((MISTAKES, 1),))
    # Answered again, in decide or decide --mistakes: the same card.
    clock.advance(minutes=5)
    again = drilled(store, sid, "best")
    assert (again.kind, again.item) == (MISTAKES, p.item)
    made = [("blunder", False, START), ("best", True, clock.moment)]
    assert schedule_of(again) == schedule_of_card(fsrs_card(made))
    assert (again.seen, again.wrong) == (2, 1) and cards(store) == [(MISTAKES, p.item)]


def test_a_drill_card_missed_later_becomes_the_personal_card_with_its_schedule(
    store: Store, clock: Clock
) -> None:
    sid = store.start_session("decide", rules="classic")
    p = drill_position()
    first = drilled(store, sid, "best")
    assert (first.kind, first.item) == ("decide", p.drill_item)
    clock.advance(days=3)
    missed = drilled(store, sid, "mistake")
    assert (missed.kind, missed.item) == (MISTAKES, p.item) and cards(store) == [(MISTAKES, p.item)]
    # The drill card's history goes on: reviewed right, then missed, as one card.
    made = [("best", True, START), ("mistake", False, clock.moment)]
    assert schedule_of(missed) == schedule_of_card(fsrs_card(made))
    assert (missed.seen, missed.wrong) == (2, 1)


def test_a_game_mistake_takes_the_place_of_the_drill_card_of_its_position(store: Store, clock: Clock) -> None:
    drills = store.start_session("decide", rules="classic")
    p = drill_position()
    drilled(store, drills, "best")
    clock.advance(days=1)
    store.record_mistake(p)  # missed in an official game
    assert cards(store) == [(MISTAKES, p.item)]
    # A drill card of another position under the same key (a rule file of the same name) stays.
    drilled(store, drills, "best", replace(p, item="x:5bf150062616ec5c", drill_item="x"))
    elsewhere = {"position": {**POSITION, "points": 50}}
    store.record_mistake(Mistake("y:5bf150062616ec5c", "keep", "q", "b", elsewhere, "x"))
    assert cards(store) == [("decide", "x"), (MISTAKES, p.item), (MISTAKES, "y:5bf150062616ec5c")]


def v6_with_twin_cards(directory: Path, clock: Clock) -> tuple[Path, Mistake]:
    """A store as version 6 left it: a drill missed is a drill card and a personal card, and the
    drill card answered right since; another personal position with no drill card."""
    p = drill_position()
    with Store.open(directory, clock=clock) as store:
        sid = store.start_session("decide", rules="classic")
        right = {"points_lost": 0.0, "extra": {"position": POSITION}}
        store.record_answer(
            sid, topic="keep", item=p.drill_item or "", question="q", answer="a", correct_answer="b",
            correct=False, grade="blunder", mistake=replace(p, drill_item=None), **right,
        )  # fmt: skip
        clock.advance(days=1)
        store.record_answer(
            sid, topic="keep", item=p.drill_item or "", question="q", answer="b", correct_answer="b",
            correct=True, grade="best", **right,
        )  # fmt: skip
        store.record_mistake(
            Mistake("game-only:5bf150062616ec5c:penalty500", "game", "q", "b", {"position": {}})
        )
        path = store.path
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 6")
    return path, p


def test_a_version_6_store_folds_each_drill_missed_into_one_card(tmp_path: Path) -> None:
    clock = Clock()
    path, p = v6_with_twin_cards(tmp_path / "old", clock)
    with sqlite3.connect(path) as db:
        db.row_factory = sqlite3.Row
        answers_before = db.execute("SELECT * FROM answers ORDER BY id").fetchall()
        before = {(r["kind"], r["item"]): dict(r) for r in db.execute("SELECT * FROM items")}
    assert set(before) == {
        ("decide", p.drill_item),
        (MISTAKES, p.item),
        (MISTAKES, "game-only:5bf150062616ec5c:penalty500"),
    }
    with Store.open(tmp_path / "old", clock=clock) as store:
        assert store.schema_version == SCHEMA_VERSION == 7
        with sqlite3.connect(path) as db:
            db.row_factory = sqlite3.Row
            assert db.execute("SELECT * FROM answers ORDER BY id").fetchall() == answers_before
            after = {(r["kind"], r["item"]): dict(r) for r in db.execute("SELECT * FROM items")}
        assert set(after) == {(MISTAKES, p.item), (MISTAKES, "game-only:5bf150062616ec5c:penalty500")}
        one, drill, mine = (
            after[(MISTAKES, p.item)],
            before[("decide", p.drill_item)],
            before[(MISTAKES, p.item)],
        )
        # The schedule of the drill card, answered right since the miss; both cards' counts; the
        # personal card's note with its rules.
        schedule = ("state", "step", "stability", "difficulty", "due_at", "reviewed_at", "last_correct")
        assert [one[k] for k in schedule] == [drill[k] for k in schedule]
        assert (
            (one["seen"], one["wrong"])
            == (drill["seen"] + mine["seen"], drill["wrong"] + mine["wrong"])
            == (3, 2)
        )
        assert (one["question"], one["extra"]) == (mine["question"], mine["extra"])
        assert (
            after[(MISTAKES, "game-only:5bf150062616ec5c:penalty500")]
            == before[(MISTAKES, "game-only:5bf150062616ec5c:penalty500")]
        )
        assert load_progress(store).due.today_by_kind == ((MISTAKES, 1),)
