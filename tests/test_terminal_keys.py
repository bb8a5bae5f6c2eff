"""Any keys at any prompt of the terminal: an answer the prompt offers, a stop, or Ctrl-C; nothing else."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, get_args

import pytest
from factories import interactive_frontend
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from farkle_trainer.engine.notation import parse_action, parse_number
from farkle_trainer.training.frontend import EndOfInput
from farkle_trainer.ui.terminal import InteractiveFrontend
from farkle_trainer.ui.views.moves import WalkWords, walk_prompt
from farkle_trainer.ui.walk import MAX_DIGITS, Key, read_key

KEYS = [
    *"abcdefqrynu015 ",
    "\r",  # Enter
    "\n",  # Ctrl-J
    "\x04",  # Ctrl-D
    "\x03",  # Ctrl-C
    "\x0f",  # Ctrl-O
    "\x7f",  # Backspace
    "\t",
    "\x1b",  # Escape, alone or starting a sequence
    "\x1b[A",  # arrows
    "\x1b[B",
    "\x1b[C",
    "\x1b[D",
    "\x1b\r",  # Escape then Enter
    "\x1bb",  # Alt-b
    "\x1b[1;5A",
    "\x1b[200~1 5\x1b[201~",  # a paste
]
ROLL = (1, 5, 2, 2, 3, 6)
BANK_OR_ROLL = [("Bank 300", "bank"), ("Roll 3 dice", "roll")]


def _scores(faces: tuple[int, ...]) -> None:
    if not set(faces) <= {1, 5}:
        raise ValueError("pick 1s and 5s")


#: Every prompt the terminal offers, and what it may answer.
PROMPTS: dict[str, tuple[Callable[[InteractiveFrontend], Any], Callable[[Any], bool]]] = {
    "menu": (
        lambda front: front.choose("Bank or roll?", BANK_OR_ROLL, parse_action),
        lambda answer: answer in ("bank", "roll"),
    ),
    "menu of three": (
        lambda front: front.choose("Pick", [("alpha", 1), ("beta", 2), ("another", 3)], int),
        lambda answer: answer in (1, 2, 3),
    ),
    "text": (
        lambda front: front.ask("Worth?", parse_number),
        lambda answer: isinstance(answer, int) and answer >= 0,
    ),
    "dice": (
        lambda front: front.pick_dice("Set aside:", ROLL, _scores),
        lambda answer: isinstance(answer, tuple) and set(answer) <= {1, 5} and len(answer) >= 1,
    ),
    "confirm": (
        lambda front: front.confirm("Start now?"),
        lambda answer: answer in (True, False, None),
    ),
    "yes or no": (
        lambda front: front.yes_no("Can you set aside 3-5-5-5?"),
        lambda answer: answer in (True, False),
    ),
    "yes or no, yes by default": (
        lambda front: front.yes_no("Carry on with it?", default=True),
        lambda answer: answer in (True, False),
    ),
    "a walk's key": (
        lambda front: read_key(front, walk_prompt(1, 9), WalkWords("you")),
        lambda answer: answer in get_args(Key) or (isinstance(answer, int) and 1 <= answer < 10**MAX_DIGITS),
    ),
}


@settings(suppress_health_check=list(HealthCheck))
@given(prompt=st.sampled_from(sorted(PROMPTS)), keys=st.lists(st.sampled_from(KEYS), max_size=8))
def test_any_keys_answer_stop_or_interrupt(prompt: str, keys: list[str]) -> None:
    ask, offered = PROMPTS[prompt]
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        front, _ = interactive_frontend(pipe)
        # Ctrl-C last: whatever came before, the prompt ends.
        pipe.send_text("".join(keys) + "\x03")
        try:
            answer = ask(front)
        except (EndOfInput, KeyboardInterrupt):
            return
    assert offered(answer), (keys, answer)


def answer(keys: str, ask: Callable[[InteractiveFrontend], Any]) -> Any:
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        front, _ = interactive_frontend(pipe)
        pipe.send_text(keys)
        return ask(front)


@pytest.mark.parametrize("keys", ["\x1b\r", " \x1b\r", "\x0f\r"])
def test_escape_enter_and_ctrl_o_do_not_end_a_menu_with_its_hidden_text(keys: str) -> None:
    # Escape then Enter is Enter, the choice pointed at; Ctrl-O does nothing.
    assert answer(keys, PROMPTS["menu"][0]) == "bank"
    assert answer("\x0fy", PROMPTS["confirm"][0]) is True


PASTED_IN_A_WALK = """
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from factories import interactive_frontend
from farkle_trainer.ui.views.moves import WalkWords, walk_prompt
from farkle_trainer.ui.walk import read_key

with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
    front, _ = interactive_frontend(pipe)
    pipe.send_text("\\x1b[31m\\x1b[Mabcn")
    print("key", read_key(front, walk_prompt(1, 9), WalkWords("you")))
"""


def test_a_colour_code_or_a_broken_mouse_report_in_a_walk_is_passed_over() -> None:
    # prompt_toolkit reads both as mouse reports it cannot parse: it printed a traceback and waited
    # for Enter. In a process of its own, so that a wait fails the test rather than hang it.
    walked = subprocess.run(
        [sys.executable, "-c", PASTED_IN_A_WALK],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).parent,
    )
    assert walked.returncode == 0, walked.stderr
    assert walked.stdout.splitlines() == ["key next"]
