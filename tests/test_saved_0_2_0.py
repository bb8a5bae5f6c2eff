"""What version 0.2.0 saved opens, goes on and verifies as it did then.

The files in ``tests/data/saved-0.2.0`` were written by farkle-trainer 0.2.0 itself:

* ``daily/``: daily games played with the ``answers`` given and stopped with q (one stopped with
  dice showing, one with a set-aside, one after undoing set-asides, two in a turn of hot dice, a
  practice game with hints) and one played to the end. ``state`` is the saved game as the store
  kept it; ``loaded`` is that game as 0.2.0 read it back; the ``.txt`` file is what 0.2.0 printed
  when the game was carried on with the ``carry_on`` answers, ``carried_on`` the result it stored
  then and ``closed`` the result of an official game closed unfinished two days later.
* ``challenge-MATH7B/``: two students' class challenge results (one finished, one stopped), with
  the transcript of each challenge (``challenge-*.in``, ``challenge-*.out``) and the class report.
* ``games/``: whole games written with ``play --save``: the answers, the transcript and what
  ``review`` printed.

The saved games, results and moves are 0.2.0's. The transcripts hold today's words for the same
play: the end of a game has said more since (the score against perfect play's expectation, every
decision that gave up anything, the play against perfect play and the luck-adjusted result, the
chance of winning each turn, what a last turn needs), and a bank that loses a last turn is asked
about first, so one game's answers have the yes to that question.
"""

from __future__ import annotations

import io
import json
import shutil
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import farkle_trainer.training.classroom.entry as class_entry_module
from farkle_trainer.cli import app
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.db import Store
from farkle_trainer.store.rows import DailyAttempt
from farkle_trainer.training.classroom.results import read_result
from farkle_trainer.training.classroom.verify import verify
from farkle_trainer.training.games import daily, tenturns
from farkle_trainer.training.games.daily import next_attempt
from farkle_trainer.training.games.dice import daily_source
from farkle_trainer.ui.terminal import PlainFrontend
from farkle_trainer.ui.views import daily as view

SAVED = Path(__file__).resolve().parent / "data" / "saved-0.2.0"
DAY = date(2026, 11, 29)
NOON = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
DAILY = sorted(p.stem for p in (SAVED / "daily").glob("*.json"))
UNFINISHED = [name for name in DAILY if name != "finished"]
runner = CliRunner()


def saved_daily(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SAVED / "daily" / f"{name}.json").read_text())
    return data


def with_saved_game(store: Store, record: dict[str, Any]) -> int:
    """A new attempt at the record's day holding its saved game, as an earlier version left it."""
    day = date.fromisoformat(record["date"])
    attempt = next_attempt(store, day, DAY if record["official"] else day + timedelta(days=1))
    assert attempt.official == record["official"]
    store.save_daily_state(attempt.id, record["state"], version=attempt.version)
    return attempt.id


def stored_result(attempt: DailyAttempt) -> dict[str, Any]:
    """What the store keeps of a finished attempt, as the records of these files write it."""
    return {key: getattr(attempt, key) for key in ("score", "perfect_score", "marks", "turns")}


def test_every_kind_of_saved_daily_game_is_here() -> None:
    assert DAILY == ["finished", "hot-dice", "hot-dice-rolled", "practice", "rolled", "started", "undone"]
    assert all(saved_daily(name)["state"]["version"] == 1 for name in DAILY)


@pytest.mark.parametrize("name", DAILY)
def test_a_saved_daily_game_opens_where_it_stopped(tmp_path: Path, name: str) -> None:
    record = saved_daily(name)
    with Store.open(tmp_path, clock=lambda: NOON) as store:
        state = daily.load_state(store.get_daily(with_saved_game(store, record)))
    loaded = record["loaded"]
    assert state.turn == loaded["turn"] and state.phase == loaded["phase"]
    assert state.banked == loaded["banked"] and state.points == loaded["points"]
    assert state.dice == loaded["dice"] and state.hot == loaded["hot"]
    assert list(state.roll) == loaded["roll"] and list(state.kept) == loaded["kept"]
    assert "".join(state.marks) == loaded["marks"] and list(state.turn_scores) == loaded["scores"]
    assert len(state.log) == loaded["moves"]


@pytest.mark.parametrize("name", UNFINISHED)
def test_a_saved_daily_game_carries_on_as_it_did(tables: Tables, tmp_path: Path, name: str) -> None:
    record = saved_daily(name)
    out = io.StringIO()
    with Store.open(tmp_path, clock=lambda: NOON) as store:
        attempt = store.get_daily(with_saved_game(store, record))
        front = PlainFrontend(io.StringIO(record["carry_on"]), out, echo=True)
        outcome = daily.run_attempt(tables, front, view, store, attempt, DAY)
        done = store.get_daily(attempt.id)
    assert outcome.finished
    assert out.getvalue() == (SAVED / "daily" / f"{name}.txt").read_text()
    assert stored_result(done) == record["carried_on"]


@pytest.mark.parametrize("name", [n for n in UNFINISHED if saved_daily(n)["official"]])
def test_an_unfinished_official_game_closes_as_it_did(tables: Tables, tmp_path: Path, name: str) -> None:
    record = saved_daily(name)
    with Store.open(tmp_path, clock=lambda: NOON) as store:
        attempt_id = with_saved_game(store, record)
        assert daily.close_expired(tables, store, datetime(2026, 12, 7, 9, 0, tzinfo=UTC)) == 1
        done = store.get_daily(attempt_id)
    assert stored_result(done) == record["closed"]


def test_a_finished_official_result_still_counts(tables: Tables, tmp_path: Path) -> None:
    record = saved_daily("finished")
    result = record["result"]
    with Store.open(tmp_path, clock=lambda: NOON) as store:
        attempt = store.get_daily(with_saved_game(store, record))
        store.finish_daily(attempt.id, **result, version=attempt.version)
        stats = daily.official_stats(tables, store, DAY)
        state = daily.load_state(store.get_daily(attempt.id))
    assert stats.games_played == 1 and stats.damaged == 0
    assert stats.best is not None and stats.best.score == result["score"] == 4550
    assert state.over and state.banked == result["score"]
    assert daily.spaced_marks(state) == result["marks"]
    assert tenturns.turn_summaries(state) == result["turns"]
    assert tenturns.perfect_play(tables, daily_source(DAY)) == result["perfect_score"]


# -- class challenges


@pytest.fixture
def classroom(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder to work in, holding a copy of the saved results."""
    monkeypatch.setattr(class_entry_module, "clock", lambda: NOON)
    shutil.copytree(SAVED / "challenge-MATH7B", tmp_path / "challenge-MATH7B")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("student", ["ana", "ben"])
def test_a_saved_challenge_result_verifies(tables: Tables, classroom: Path, student: str) -> None:
    result = read_result(classroom / "challenge-MATH7B" / f"{student}.json")
    assert result.activity == "challenge"
    assert verify(tables, result) is None


def test_the_class_report_reads_as_it_did(classroom: Path) -> None:
    done = runner.invoke(app, ["class", "report", "challenge-MATH7B", "--plain"])
    assert done.exit_code == 0, done.output
    assert done.stdout == (SAVED / "challenge-MATH7B.report.txt").read_text()


@pytest.mark.parametrize(("student", "name", "code"), [("ana", "Ana", "MATH7B"), ("ben", "Ben", "math 7b")])
def test_a_challenge_plays_as_it_did(classroom: Path, student: str, name: str, code: str) -> None:
    answers = (SAVED / f"challenge-{student}.in").read_text()
    args = ["challenge", code, "--plain", "--name", name, "--save-result", f"{student}.json"]
    done = runner.invoke(app, args, input=answers)
    assert done.exit_code == 0, done.output
    assert done.stdout == (SAVED / f"challenge-{student}.out").read_text()
    written = json.loads((classroom / f"{student}.json").read_text())
    before = json.loads((SAVED / "challenge-MATH7B" / f"{student}.json").read_text())
    for key in ("answers", "score", "complete", "points_lost", "right"):
        assert written[key] == before[key], key
    # The solver's own game on the class's dice, named as the report names it since result version 4.
    assert written["version"] == 4 and "perfect_score" not in written
    assert written["solver_game_score"] == before["perfect_score"]


# -- whole games

GAMES = {
    "code-MATH7B": ["--code", "MATH7B"],
    "seed-3-hard": ["--vs", "hard", "--seed", "3", "--target", "1000"],
    "seed-11-solo": ["--solo", "--seed", "11"],
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_saved_game_file_reviews_as_it_did(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    shutil.copy(SAVED / "games" / f"{name}.json", tmp_path)
    monkeypatch.chdir(tmp_path)
    done = runner.invoke(app, ["review", f"{name}.json", "--plain"])
    assert done.exit_code == 0, done.output
    assert done.stdout == (SAVED / "games" / f"{name}.review.txt").read_text()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_whole_game_plays_as_it_did(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.chdir(tmp_path)
    answers = (SAVED / "games" / f"{name}.in").read_text()
    args = ["play", *GAMES[name], "--fast", "--plain", "--save", f"{name}.json"]
    done = runner.invoke(app, args, input=answers)
    assert done.exit_code == 0, done.output
    assert done.stdout == (SAVED / "games" / f"{name}.out").read_text()
    written = json.loads((tmp_path / f"{name}.json").read_text())
    before = json.loads((SAVED / "games" / f"{name}.json").read_text())
    assert written == before
