"""``--json`` where a command shows data: each document parsed and checked against figures
worked out here, by other means than the views that print it."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterator
from datetime import UTC, date, datetime
from itertools import combinations
from pathlib import Path

import pytest
from factories import fifty_a_roll_days, game_banking, interactive_frontend  # noqa: F401 - a fixture used by name
from prompt_toolkit.input import PipeInput
from test_progress_weeks import record
from typer.testing import CliRunner

import farkle_trainer.cli.daily as daily_cli
from farkle_trainer import load_rules, score
from farkle_trainer.cli import app
from farkle_trainer.engine.decisions import decision_for
from farkle_trainer.engine.grading import loss
from farkle_trainer.engine.kinds import TURN_KINDS
from farkle_trainer.engine.solver import Objective
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.db import Store
from farkle_trainer.training.classroom.codes import class_drills
from farkle_trainer.training.games.daily import next_attempt
from farkle_trainer.ui import aside
from farkle_trainer.ui.terminal import InteractiveFrontend, PlainFrontend

runner = CliRunner()
CLASSIC = load_rules("classic")
EVENING = datetime(2026, 11, 29, 21, 15, 10, tzinfo=UTC)


def invoke(args: list[str], stdin: str = "") -> tuple[int, str, str]:
    result = runner.invoke(app, args, input=stdin)
    return result.exit_code, result.stdout, result.stderr


# -- daily --status --json


def finish_official(day: date, points: int, marks: str) -> None:
    """An official result of ``points``, with the game that gives it (on :func:`fifty_a_roll_days`' dice)."""
    with Store.open(clock=lambda: datetime(day.year, day.month, day.day, 8, tzinfo=UTC)) as store:
        attempt = next_attempt(store, day, day)
        assert attempt.official
        version = store.save_daily_state(
            attempt.id, game_banking(day, points).to_dict(), version=attempt.version
        )
        store.finish_daily(
            attempt.id, score=points, perfect_score=None, marks=marks, turns=[], version=version
        )


@pytest.fixture
def evening(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(daily_cli, "clock", lambda: EVENING)


UNTIL_MIDNIGHT = round((datetime(2026, 11, 30, tzinfo=UTC) - EVENING).total_seconds())


@pytest.mark.usefixtures("evening", "fifty_a_roll_days")
@pytest.mark.parametrize("plain", [[], ["--plain"]])
def test_daily_status_as_json(plain: list[str]) -> None:
    code, out, _ = invoke(["daily", "--status", "--json", *plain])
    assert code == 0
    assert json.loads(out) == {
        "today": "2026-11-29",
        "state": "not-started",
        "score": None,
        "turn": None,
        "banked": None,
        "share": None,
        "played_today": False,
        "current_streak": 0,
        "longest_streak": 0,
        "unfinished_before": None,
        "next_game_in_seconds": UNTIL_MIDNIGHT,
    }
    # Three days in a row, with a gap before them: the streak is 3, the longest 3. The marks
    # stored are not the moves': the share line has the moves' (a first turn of 82 rolls of one
    # 5 each, hot dice, then nine turns banking one 5).
    for day in ("2026-11-20", "2026-11-27", "2026-11-28", "2026-11-29"):
        finish_official(date.fromisoformat(day), 4550, ". . F . . . H . F F")
    data = json.loads(invoke(["daily", "--status", "--json", *plain])[1])
    assert (data["state"], data["score"], data["played_today"]) == ("done", 4550, True)
    assert (data["current_streak"], data["longest_streak"]) == (3, 3)
    assert data["share"] == "Farkle daily 2026-11-29: 4,550 in 10 turns | H . . . . . . . . ."
    assert data["turn"] is None and data["banked"] is None


@pytest.mark.usefixtures("evening")
def test_daily_status_of_a_game_in_progress_as_json() -> None:
    # Turn 1 of the day rolls 4 1 4 3 1 4: three 4s and two 1s bank 400 + 100 + 100.
    code, _, _ = invoke(["daily", "--plain"], "1 1 4 4 4\nb\nq\n")
    assert code == 0
    data = json.loads(invoke(["daily", "--status", "--json"])[1])
    assert (data["state"], data["turn"], data["banked"], data["score"]) == ("in-progress", 2, 600, None)
    assert data["next_game_in_seconds"] == UNTIL_MIDNIGHT


@pytest.mark.usefixtures("evening")
def test_daily_json_goes_with_status_only() -> None:
    code, out, err = invoke(["daily", "--json"])
    assert (code, out) == (2, "")
    assert err == "Error: --json goes with --status: the game itself is played as text\n"


@pytest.mark.usefixtures("evening")
def test_a_rules_note_stays_off_the_json() -> None:
    code, out, err = invoke(["daily", "--status", "--json", "--rules", "fixed"])
    assert code == 0 and json.loads(out)["state"] == "not-started"
    assert "--rules fixed is not used" in err


# -- learn --json


def test_the_lesson_list_as_json() -> None:
    with Store.open() as store:
        store.record_lesson(2, "scoring", rules="classic")
        store.record_lesson(3, "combinations", rules="classic")
    record("score", "combos", [True], at=EVENING)
    code, out, _ = invoke(["learn", "--json", "--rules", "fixed"])
    assert code == 0
    data = json.loads(out)
    assert data["rules"] == "fixed"
    # Lesson 3's drill (score --topic combos) has an answer: read and practised; lesson 2's has none.
    assert [(x["number"], x["status"]) for x in data["lessons"]] == [
        (1, "new"),
        (2, "read"),
        (3, "practised"),
        (4, "new"),
        (5, "new"),
        (6, "new"),
        (7, "new"),
    ]
    assert data["lessons"][2] == {
        "number": 3,
        "name": "combinations",
        "title": "Six-dice combinations",
        "status": "practised",
        "practice": "farkle-train score --topic combos",
    }
    code, out, err = invoke(["learn", "3", "--json"])
    assert (code, out) == (2, "")
    assert err.startswith("Error: --json lists the lessons")


# -- score --json


def dice_of(item: str) -> tuple[int, ...]:
    """``best:1-5-5-5-5-6@classic`` -> (1, 5, 5, 5, 5, 6)."""
    return tuple(int(face) for face in item.split(":", 1)[1].split("@")[0].split("-"))


def best_points(dice: tuple[int, ...]) -> int:
    """The most any part of ``dice`` scores, by trying every part."""
    parts = {tuple(sorted(c)) for n in range(1, len(dice) + 1) for c in combinations(dice, n)}
    return max((score(list(p), CLASSIC) or 0) for p in parts)


def right_by_hand(topic: str, dice: tuple[int, ...], answer: str) -> bool:
    if topic == "farkle":
        return (answer == "yes") == (best_points(dice) == 0)
    if topic == "worth":
        return int(answer.replace(",", "")) == score(list(dice), CLASSIC)
    if topic == "valid":
        return (answer == "yes") == (score(list(dice), CLASSIC) is not None)
    assert topic == "best"
    picked = [int(face) for face in answer.split()]
    return score(picked, CLASSIC) == best_points(dice)


def check_quiz_document(data: dict[str, object], typed: list[str]) -> None:
    answers = data["answers"]
    assert isinstance(answers, list)
    assert [a["answer"] for a in answers] == typed
    right = [right_by_hand(a["topic"], dice_of(a["item"]), a["answer"]) for a in answers]
    assert [a["correct"] for a in answers] == right
    assert data["right"] == sum(right) and data["asked"] == len(typed)
    topics: dict[str, list[int]] = {}
    for a, ok in zip(answers, right, strict=True):
        topics.setdefault(a["topic"], [0, 0])
        topics[a["topic"]][0] += 1
        topics[a["topic"]][1] += ok
    assert {t["topic"]: [t["asked"], t["right"]] for t in data["topics"]} == topics  # type: ignore[attr-defined]


def test_a_quiz_summary_as_json_keeps_the_questions_on_stderr() -> None:
    typed = ["y", "no", "1 5 5 5"]
    code, out, err = invoke(["score", "--seed", "7", "--count", "3", "--json"], "\n".join(typed) + "\n")
    assert code == 0
    data = json.loads(out)  # standard output is the one document, whole
    assert (data["activity"], data["rules"], data["seed"], data["code"]) == ("score", "classic", 7, None)
    assert (data["count"], data["stopped"], data["seconds"]) == (3, False, None)
    check_quiz_document(data, ["yes", "no", "1 5 5 5"])
    assert data["right"] == 2
    assert data["next"] == {
        "command": "farkle-train score --topic best",
        "reason": "you missed 1 of 1 best question",
    }
    # The session itself, and its summary, are on standard error.
    assert "1/3 Is 6-3-4-2 a Farkle? (y/n) y" in err and "Score: 2 of 3 right." in err


def test_a_stopped_quiz_still_ends_in_its_json() -> None:
    code, out, err = invoke(["score", "--seed", "7", "--count", "3", "--json", "--plain"], "y\nq\n")
    assert code == 0
    data = json.loads(out)
    assert (data["asked"], data["stopped"]) == (1, True)
    check_quiz_document(data, ["yes"])
    assert "Stopped after 1 of 3 questions" in err


def test_a_class_quiz_names_its_code_in_the_json(tmp_path: Path) -> None:
    args = ["score", "--code", "math 7b", "--count", "3", "--json", "--name", "Ana"]
    code, out, err = invoke([*args, "--save-result", str(tmp_path / "ana.json")], "1 2 2 2\nyes\n1000\n")
    assert code == 0, err
    data = json.loads(out)
    assert (data["code"], data["seed"]) == ("MATH7B", None)
    check_quiz_document(data, ["1 2 2 2", "yes", "1,000"])
    assert data["right"] == 2
    assert f"Saved to {tmp_path / 'ana.json'}" in err


@pytest.fixture
def on_a_terminal(
    pipe: PipeInput, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[PipeInput, io.StringIO]]:
    """The interactive front end, drawn where the session goes with --json."""
    front, shown = interactive_frontend(pipe)
    monkeypatch.setattr(aside, "open_terminal_aside", lambda plain: front)
    yield pipe, shown


def test_an_interactive_quiz_leaves_standard_output_to_the_json(
    on_a_terminal: tuple[PipeInput, io.StringIO],
) -> None:
    keys, shown = on_a_terminal
    keys.send_text("yn1 5 5 5\r")
    code, out, _ = invoke(["score", "--seed", "7", "--count", "3", "--json"])
    assert code == 0
    check_quiz_document(json.loads(out), ["yes", "no", "1 5 5 5"])
    assert "╭─ right" in shown.getvalue() and "Score: 2 of 3 right." in shown.getvalue()


def test_the_session_goes_to_standard_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(aside, "is_terminal", lambda stream: True)
    front = aside.open_terminal_aside(False)
    assert isinstance(front, InteractiveFrontend) and front.console.file is sys.stderr
    plain = aside.open_terminal_aside(True)
    assert isinstance(plain, PlainFrontend) and plain.stdout is sys.stderr
    monkeypatch.setattr(aside, "is_terminal", lambda stream: stream is sys.stdin)
    assert isinstance(aside.open_terminal_aside(False), PlainFrontend)


# -- decide --json


def test_a_drill_summary_as_json(tables: Tables) -> None:
    # 250 at stake with 2 dice to roll: rolling on instead of banking gives up the difference.
    code, out, err = invoke(
        ["decide", "--kind", "bank-or-roll", "--seed", "3", "--count", "1", "--json"], "r\n"
    )
    assert code == 0
    data = json.loads(out)
    lost = 250 - tables.turn(CLASSIC, Objective.expected()).roll_value(250, 2)
    assert 0 < lost < 5  # fine: under 5 points
    assert (data["activity"], data["seed"], data["planned"], data["decisions"]) == ("decide", 3, 1, 1)
    assert data["stopped"] is False
    assert data["grades"] == {"best": 0, "fine": 1, "inaccuracy": 0, "mistake": 0, "blunder": 0}
    (average,) = data["averages"]
    assert (average["graded_by"], average["unit"], average["decisions"]) == ("points", "points", 1)
    assert average["average_lost"] == pytest.approx(lost)
    assert data["average_points"] == pytest.approx(lost) and data["rating"] == "solver"
    assert data["worst"] is None  # a fine play is not a mistake to replay
    (answer,) = data["answers"]
    assert (answer["answer"], answer["correct_answer"], answer["grade"]) == (
        "roll 2 dice",
        "bank 250",
        "fine",
    )
    assert (answer["keep"], answer["action"], answer["correct"]) == ([5], "roll", True)
    assert answer["points_lost"] == pytest.approx(lost)
    assert "Rating: solver" in err


def test_drills_in_two_units_average_each_apart(tables: Tables) -> None:
    # MATH7B's first drills mix a final round (a chance) with turns graded in points; the
    # worst play of each is typed, so every decision gives something up.
    plan = list(class_drills(tables, "MATH7B", CLASSIC, count=3, kinds=TURN_KINDS, level=None))
    typed, lost = [], []
    for p in plan:
        d = decision_for(tables, p)
        worst = d.choices[-1]
        if p.kept is None and len(d.keeps) > 1:
            typed.append(" ".join(map(str, worst.keep)))
        if len(d.choices_for(worst.keep)) > 1:
            typed.append(worst.action[0])
        lost.append(loss(d.best.value.amount, worst.value.amount, p.unit))
    code, out, err = invoke(["decide", "--code", "MATH7B", "--count", "3", "--json"], "\n".join(typed) + "\n")
    assert code == 0, err
    data = json.loads(out)
    assert [a["points_lost"] for a in data["answers"]] == pytest.approx(lost)
    by_unit: dict[str, list[float]] = {}
    for p, x in zip(plan, lost, strict=True):
        by_unit.setdefault(str(p.unit), []).append(x)
    assert len(by_unit) == 2
    assert {x["graded_by"]: x["decisions"] for x in data["averages"]} == {
        u: len(v) for u, v in by_unit.items()
    }
    for x in data["averages"]:
        losses = by_unit[x["graded_by"]]
        assert x["average_lost"] == pytest.approx(sum(losses) / len(losses))
    assert sum(data["grades"].values()) == data["decisions"] == 3
    assert data["code"] == "MATH7B" and data["seed"] is None
