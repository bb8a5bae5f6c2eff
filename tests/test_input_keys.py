"""Stopping, keys and typed input: one way at every prompt of every activity, in both front ends."""

from __future__ import annotations

import io
import re
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from factories import interactive_frontend
from prompt_toolkit.input import PipeInput
from typer.testing import CliRunner

from farkle_trainer.cli import app
from farkle_trainer.engine.notation import (
    SET_ASIDE_FIRST,
    AnswerError,
    parse_bank_or_roll,
    parse_number,
    parse_selection,
)
from farkle_trainer.engine.scoring import score
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.db import Store
from farkle_trainer.training.frontend import STOP_NOTE, EndOfInput
from farkle_trainer.training.games import daily
from farkle_trainer.training.games import match as game
from farkle_trainer.training.games.daily import next_attempt
from farkle_trainer.training.games.setup import TEN_TURNS
from farkle_trainer.training.progress import load_progress
from farkle_trainer.ui.terminal import InteractiveFrontend, PlainFrontend
from farkle_trainer.ui.views import daily as view

runner = CliRunner()
DAY = date(2026, 11, 29)
NOON = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def scores(faces: tuple[int, ...]) -> None:
    if score(faces) is None:
        raise ValueError("those dice do not all score")


# -- 1. q stops every activity, saved, and the session says so before the first question


@pytest.mark.parametrize(
    "args",
    [
        ["score", "--plain", "--seed", "1", "--count", "3"],
        ["decide", "--plain", "--seed", "1", "--count", "3"],
    ],
)
def test_q_stops_score_and_decide_in_plain(args: list[str]) -> None:
    result = runner.invoke(app, args, input="q\n")
    assert result.exit_code == 0, result.output
    assert STOP_NOTE in result.stdout
    assert "not a place" not in result.stdout and "Traceback" not in result.output


def test_q_stops_after_an_answer_and_keeps_it(farkle_home: Path) -> None:
    runner.invoke(
        app, ["decide", "--plain", "--seed", "3", "--kind", "bank-or-roll", "--count", "3"], input="r\nq\n"
    )
    with Store.open(farkle_home) as store:
        assert load_progress(store).answers == 1


@pytest.mark.parametrize(
    "args", [["daily", "--plain", "--date", "2026-11-01"], ["challenge", "MATH7B", "--plain"]]
)
def test_q_stops_the_games(args: list[str]) -> None:
    result = runner.invoke(app, args, input="q\n")
    assert result.exit_code == 0, result.output
    assert "q stops" in result.stdout


def test_q_and_ctrl_d_stop_every_interactive_prompt(pipe: PipeInput) -> None:
    front, _ = interactive_frontend(pipe)
    pipe.send_text("q\r")
    with pytest.raises(EndOfInput):
        front.ask("Worth?", parse_number)
    pipe.send_text("q\r")
    with pytest.raises(EndOfInput):
        front.pick_dice("Set aside", (1, 2, 5), scores)
    pipe.send_text("q")
    with pytest.raises(EndOfInput):
        front.choose("Bank or roll?", [("Bank 300", "bank"), ("Roll 3 dice", "roll")], lambda t: "bank")
    pipe.send_text("\x04")
    with pytest.raises(EndOfInput):
        front.choose("Farkle?", [("yes", True), ("no", False)], lambda t: True)


def test_q_stops_the_plain_front_end() -> None:
    front = PlainFrontend(io.StringIO("quit\n"), io.StringIO())
    with pytest.raises(EndOfInput):
        front.pick_dice("Set aside:", (1, 2, 5), scores)


# -- 2. letters pick what they label


def test_letters_pick_choices_interactively(pipe: PipeInput) -> None:
    front, _ = interactive_frontend(pipe)
    pipe.send_text("n\r")
    assert front.choose("Farkle?", [("yes", True), ("no", False)], lambda t: True) is False
    pipe.send_text("y\r")
    assert front.choose("Farkle?", [("yes", True), ("no", False)], lambda t: False) is True
    bank_or_roll = [("Bank 300", "bank"), ("Roll 3 dice", "roll")]
    pipe.send_text("r\r")
    assert front.choose("Bank or roll?", bank_or_roll, lambda t: "bank") == "roll"
    pipe.send_text("\x1b[Bb\r")  # arrow to roll, then b: the letter wins
    assert front.choose("Bank or roll?", bank_or_roll, lambda t: "roll") == "bank"
    pipe.send_text("rb\r")  # the last letter before Enter is the answer
    assert front.choose("Bank or roll?", bank_or_roll, lambda t: "roll") == "bank"
    pipe.send_text("y")
    assert front.confirm("Start now?") is True


def test_the_enter_after_a_letter_answers_its_own_menu_not_the_next(
    pipe: PipeInput, monkeypatch: pytest.MonkeyPatch
) -> None:
    from farkle_trainer.ui import terminal

    front, out = interactive_frontend(pipe)
    monkeypatch.setattr(terminal, "open_terminal", lambda plain: front)
    # As typed from habit: a letter and Enter, at two bank-or-roll questions in a row.
    pipe.send_text("b\rr\r")
    result = runner.invoke(app, ["decide", "--kind", "bank-or-roll", "--seed", "3", "--count", "2"])
    assert result.exit_code == 0, result.output
    shown = out.getvalue()
    assert "Your play: bank 250" in shown and "Your play: roll 3 dice" in shown
    assert "Your play: bank 200" not in shown


# -- 3. one typed form for setting dice aside: there a letter is a place; bank/roll come after


@pytest.mark.parametrize("text", ["r", "bank", "Roll", " roll  on ", "u"])
def test_an_action_at_a_set_aside_prompt_is_refused(text: str) -> None:
    with pytest.raises(AnswerError, match=re.escape(SET_ASIDE_FIRST)):
        parse_selection(text, (1, 2, 5, 5, 3, 6))


def test_b_at_a_set_aside_prompt_is_the_die_in_place_b() -> None:
    assert parse_selection("b", (1, 5, 2)) == (5,)
    assert parse_selection("b d", (1, 2, 5, 5, 3, 6)) == (2, 5)
    assert parse_bank_or_roll("b", (1, 5, 2)) == "bank"
    assert parse_bank_or_roll("u", (1, 5, 2)) == "undo"
    assert parse_bank_or_roll("a", (1, 5, 2)) == (1,)


def test_places_and_actions_at_a_set_aside_prompt_in_both_front_ends(pipe: PipeInput) -> None:
    out = io.StringIO()
    plain = PlainFrontend(io.StringIO("r\nb\n"), out)
    assert plain.pick_dice("Set aside:", (1, 5, 2), scores) == (5,)
    assert f"({SET_ASIDE_FIRST})" in out.getvalue()
    front, shown = interactive_frontend(pipe)
    pipe.send_text("bank\rb\r")
    assert front.pick_dice("Set aside:", (1, 5, 2), scores) == (5,)
    assert f"({SET_ASIDE_FIRST})" in shown.getvalue()


DECIDE_B_IS_1 = ["decide", "--seed", "2", "--count", "1", "--kind", "keep"]  # rolls a:2 b:1 c:2 d:4 e:2 f:6


def test_decide_and_daily_read_the_same_set_aside() -> None:
    result = runner.invoke(app, [*DECIDE_B_IS_1, "--plain"], input="r\nb\nb\n")
    assert SET_ASIDE_FIRST in result.stdout
    assert "f:6) b\n100 points at stake, 5 dice left." in result.stdout
    assert "Your play: keep 1 and bank 100" in result.stdout
    result = runner.invoke(app, ["daily", "--plain", "--date", "2026-11-01"], input="r\nb\nq\n")
    assert SET_ASIDE_FIRST in result.stdout
    assert "Set aside: b\n  (a single 3 scores nothing" in result.stdout


@pytest.mark.parametrize("answers", [["2 2 2", "u", "b", "b"], ["2 2 2", "1", "b"], ["2 2 2", "u", "1", "b"]])
def test_decide_changes_the_set_aside_before_bank_or_roll(answers: list[str]) -> None:
    result = runner.invoke(app, [*DECIDE_B_IS_1, "--plain"], input="".join(f"{a}\n" for a in answers))
    assert result.exit_code == 0, result.output
    assert "200 points at stake, 3 dice left.\nBank 200 or roll 3 dice? (b/r)" in result.stdout
    assert "100 points at stake, 5 dice left.\nBank 100 or roll 5 dice? (b/r) b" in result.stdout
    assert "Your play: keep 1 and bank 100" in result.stdout


def test_decide_changes_the_set_aside_on_a_terminal(pipe: PipeInput, monkeypatch: pytest.MonkeyPatch) -> None:
    from farkle_trainer.ui import terminal

    front, out = interactive_frontend(pipe)
    monkeypatch.setattr(terminal, "open_terminal", lambda plain: front)
    pipe.send_text("2 2 2\ru\r" + "b\rb\r")  # set aside three 2s, u in the menu, then the 1 and bank
    result = runner.invoke(app, DECIDE_B_IS_1)
    assert result.exit_code == 0, result.output
    assert "keep 1 and bank 100" in out.getvalue()


# -- 4. the refusal at the prompt, and points with their unit


@pytest.mark.parametrize("text", ["500 points", "500 pts", "1,100 Points", "50 pt", "500points"])
def test_points_with_a_unit(text: str) -> None:
    assert parse_number(text) == int(text.split()[0].replace(",", "").removesuffix("points"))


def test_the_refusal_is_shown_at_the_prompt(pipe: PipeInput) -> None:
    front, out = interactive_frontend(pipe)
    pipe.send_text("lots\r500 points\r")
    assert front.ask("Worth?", parse_number) == 500
    assert "  (type a whole number of points, like 1100 or 1,100)" in out.getvalue()


# -- 5. a set-aside may change until the next roll is shown


def test_undo_a_set_aside_in_the_state_machine() -> None:
    def source(roll: int, place: int) -> int:
        return (5, 5, 5, 2, 3, 1)[place - 1]

    start = game.roll(game.new_match(TEN_TURNS), source)
    kept = game.set_aside(start, (1, 5))
    undone = game.undo_set_aside(kept)
    assert undone == start
    assert game.MatchState.from_dict(undone.to_dict()) == undone
    hot = game.set_aside(start, (1, 5, 5, 5))
    assert game.undo_set_aside(hot) == start
    with pytest.raises(game.MatchError):
        game.undo_set_aside(start)


def test_undo_and_change_a_set_aside_in_the_daily_game(farkle_home: Path) -> None:
    # 2026-11-01 opens with a:5 b:3 c:3 d:5 e:5 f:5 (the README's example).
    result = runner.invoke(
        app, ["daily", "--plain", "--date", "2026-11-01"], input="5\nu\n5 5 5\n5 5 5 5\nq\n"
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Set aside 5 for 50" in out
    assert out.count("Turn 1 of 10, 0 banked. Roll: a:5 b:3 c:3 d:5 e:5 f:5") == 2
    assert "Set aside 5 5 5 for 500" in out and "Set aside 5 5 5 5 for 1,000" in out
    # Resumed after the stop: the last set-aside is the one saved.
    again = runner.invoke(app, ["daily", "--plain", "--date", "2026-11-01"], input="b\nq\n")
    assert "Banked 1,000: total 1,000 after turn 1 of 10." in again.stdout


def test_undo_in_the_interactive_daily_game(tables: Tables, tmp_path: Path, pipe: PipeInput) -> None:
    front, out = interactive_frontend(pipe, width=200)
    # 2026-11-29 opens with a:4 b:1 c:4 d:3 e:1 f:4.
    pipe.send_text("1\ru\r1 1 4 4 4\rb\r\x04")
    with Store.open(tmp_path, clock=lambda: NOON) as store:
        outcome = daily.run_attempt(tables, front, view, store, next_attempt(store, DAY, DAY), DAY)
    assert outcome.state.banked == 600
    assert "Set aside 1 for 100" in out.getvalue()


# -- 6, 7. Ctrl-C is a quiet exit 130, even when prompt_toolkit trips over its own ending


def test_ctrl_c_at_a_confirmation_is_a_quiet_130(pipe: PipeInput, monkeypatch: pytest.MonkeyPatch) -> None:
    from farkle_trainer.cli import learn

    front, out = interactive_frontend(pipe)
    monkeypatch.setattr(learn, "open_terminal", lambda plain: front)
    monkeypatch.setattr(front.console, "height", 10_000)  # the lesson fits: no pager
    pipe.send_text("\x03")
    result = runner.invoke(app, ["learn", "1"])
    assert result.exit_code == 130
    assert "Cancelled by user" not in result.output + out.getvalue()


@pytest.mark.parametrize(
    "message",
    [
        "Application is not running. Application.exit() failed.",
        "Return value already set. Application.exit() failed.",
    ],
)
def test_prompt_toolkit_ending_errors_end_as_ctrl_c(message: str) -> None:
    class Question:
        application = type("App", (), {"key_bindings": None})()

        def unsafe_ask(self) -> None:
            raise Exception(message)

    with pytest.raises(KeyboardInterrupt):
        InteractiveFrontend._run(Question())


# -- 8. output to a file while someone types at the terminal: the questions go to stderr


def test_prompts_go_to_stderr_when_only_stdout_is_redirected(monkeypatch: pytest.MonkeyPatch) -> None:
    from farkle_trainer.ui import terminal

    class Keyboard(io.StringIO):
        def isatty(self) -> bool:
            return True

    keyboard, stdout, stderr = Keyboard("lots\n500\n"), io.StringIO(), io.StringIO()
    monkeypatch.setattr(terminal.sys, "stdin", keyboard)
    monkeypatch.setattr(terminal.sys, "stdout", stdout)
    monkeypatch.setattr(terminal.sys, "stderr", stderr)
    front = PlainFrontend.standard()
    front.say("Scoring quiz")
    assert front.ask("Worth?", parse_number) == 500
    assert stdout.getvalue() == "Scoring quiz\n"
    assert (
        stderr.getvalue() == "Worth? " + "  (type a whole number of points, like 1100 or 1,100)\n" + "Worth? "
    )
