"""Every yes/no question answers alike: one key on a terminal, a line in plain text, Enter takes
the default shown in capitals, a question with no default waits for y or n, q and Ctrl-D leave."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from factories import interactive_frontend, q
from prompt_toolkit.input import PipeInput
from typer.testing import CliRunner

from farkle_trainer.cli import app
from farkle_trainer.engine.tables import Tables
from farkle_trainer.training.frontend import EndOfInput
from farkle_trainer.training.quizzes.quiz import answer_with
from farkle_trainer.ui.terminal import PlainFrontend
from tests.plays import HARD_1000, HARD_2000, drawn_seed, greedy_script  # noqa: F401 - drawn_seed is autouse
from tests.test_play_cli import hard_setup

runner = CliRunner()


@pytest.mark.parametrize(
    ("keys", "default", "answer"),
    [
        ("y", None, True),
        ("N", None, False),
        ("\r", True, True),
        ("\r", False, False),
        ("\r\rn", None, False),  # no default: Enter answers nothing
        ("xy", False, True),  # other keys do nothing
    ],
)
def test_one_key_answers_on_a_terminal(
    pipe: PipeInput, keys: str, default: bool | None, answer: bool
) -> None:
    front, _ = interactive_frontend(pipe)
    pipe.send_text(keys)
    assert front.yes_no("Play again?", default=default) is answer


@pytest.mark.parametrize("default", [None, True, False])
@pytest.mark.parametrize("key", ["q", "\x04"])
def test_q_and_ctrl_d_leave_a_yes_no_question_on_a_terminal(
    pipe: PipeInput, key: str, default: bool | None
) -> None:
    front, _ = interactive_frontend(pipe)
    pipe.send_text(key)
    with pytest.raises(EndOfInput):
        front.yes_no("Play again?", default=default)


@pytest.mark.parametrize(
    ("typed", "default", "answer", "shown"),
    [
        ("\n", True, True, "Carry on? (Y/n) \n"),
        ("\n", False, False, "Carry on? (y/N) \n"),
        ("yes\n", False, True, "Carry on? (y/N) yes\n"),
        (
            "\nmaybe\nn\n",
            None,
            False,
            "Carry on? (y/n) \n  (type y for yes or n for no)\nCarry on? (y/n) maybe\n",
        ),
    ],
)
def test_a_line_answers_in_plain_text(typed: str, default: bool | None, answer: bool, shown: str) -> None:
    out = io.StringIO()
    front = PlainFrontend(io.StringIO(typed), out, echo=True)
    assert front.yes_no("Carry on?", default=default) is answer
    assert out.getvalue().startswith(shown)


@pytest.mark.parametrize("typed", ["q\n", "quit\n", ""])
def test_q_and_the_end_of_input_leave_in_plain_text(typed: str) -> None:
    with pytest.raises(EndOfInput):
        PlainFrontend(io.StringIO(typed), io.StringIO()).yes_no("Carry on?", default=True)


def test_a_stray_enter_does_not_answer_a_quiz_question(pipe: PipeInput) -> None:
    front, _ = interactive_frontend(pipe)
    pipe.send_text("\rn")
    assert answer_with(front, q("valid", "3555"), "1/3 Can you set aside 3-5-5-5?") is False


def test_q_leaves_the_start_question_after_a_lesson(pipe: PipeInput, monkeypatch: pytest.MonkeyPatch) -> None:
    from farkle_trainer.cli import learn

    front, out = interactive_frontend(pipe)
    monkeypatch.setattr(learn, "open_terminal", lambda plain: front)
    monkeypatch.setattr(front.console, "height", 10_000)  # the lesson fits: no pager
    pipe.send_text("qy")  # the y, were q not to leave, would start the drill
    result = runner.invoke(app, ["learn", "1"])
    assert result.exit_code == 0, result.output
    assert "Scoring quiz" not in result.output + out.getvalue()


def test_enter_at_play_again_is_no_and_at_carry_on_is_yes(tables: Tables, farkle_home: Path) -> None:
    lines, _ = greedy_script(tables, hard_setup())
    args = "".join(f"{line}\n" for line in lines)
    result = runner.invoke(app, HARD_1000, input=args + "\n")
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().endswith("Play again? (the other player starts) (y/N)")
    runner.invoke(app, HARD_2000, input=f"{lines[0]}\nq\n")
    result = runner.invoke(app, HARD_2000, input="\nq\n")
    assert (
        "Carry on with it? (n: it counts as resigned) (Y/n) \nCarrying on with the saved game"
        in result.output
    )
