"""What training asks of a front end, and how a session stops.

Drill and game logic is written once against :class:`Frontend`; the front ends in
:mod:`farkle_trainer.ui.terminal` only render and read (plain lines for a pipe, a screen
reader or a projector; questionary prompts and rich output on a terminal).

Both raise :class:`EndOfInput` when input runs out (EOF, Ctrl-D) and let
``KeyboardInterrupt`` through for Ctrl-C, so a session can stop cleanly, keep
every answer already given, and show its summary (see :func:`run_rounds`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Generic, TypeVar

from farkle_trainer.engine.notation import parse_selection

if TYPE_CHECKING:
    from rich.console import RenderableType

T = TypeVar("T")
R = TypeVar("R")

INTERRUPTED = 130
#: Said before an activity's first question: how to stop, and that stopping loses nothing.
STOP_NOTE: Final = "Type q (or press Ctrl-D) at any question to stop; every answer so far is kept."


class EndOfInput(Exception):
    """Input ran out (EOF): the session ends as if the user had quit."""


class Stopped(Exception):
    """The user stopped before anything began; the command ends quietly with ``exit_code``."""

    def __init__(self, exit_code: int):
        super().__init__(exit_code)
        self.exit_code = exit_code


class Frontend:
    """What a drill may do with the user: say things, show results, ask questions."""

    plain: bool = True

    def say(self, text: str = "", *, style: str | None = None) -> None:
        raise NotImplementedError

    def show(self, text: str, renderable: Callable[[], RenderableType] | None = None) -> None:
        """Show a result: ``renderable()`` on a rich terminal, else ``text``."""
        raise NotImplementedError

    def ask(self, prompt: str, parse: Callable[[str], T]) -> T:
        """Ask until ``parse`` accepts the answer; its :class:`ValueError` text is the hint."""
        raise NotImplementedError

    def choose(self, prompt: str, choices: Sequence[tuple[str, T]], parse: Callable[[str], T]) -> T:
        """One of a few labelled choices; ``parse`` reads a typed answer in plain mode."""
        raise NotImplementedError

    def yes_no(self, question: str, default: bool | None = None) -> bool:
        """A yes/no question; Enter answers ``default`` (none: only y or n answer)."""
        raise NotImplementedError

    def pick_dice(
        self, prompt: str, roll: tuple[int, ...], check: Callable[[tuple[int, ...]], None]
    ) -> tuple[int, ...]:
        """Dice picked from ``roll`` (faces ascending); ``check`` raises ValueError to refuse a pick.

        Typed as faces or places in every front end and every activity, the one form that a
        screen reader follows; ``prompt`` should show the roll with its places.
        """

        def parse(text: str) -> tuple[int, ...]:
            picked = parse_selection(text, roll)
            check(picked)
            return picked

        return self.ask(prompt, parse)


@dataclass
class Rounds(Generic[R]):
    """What :func:`run_rounds` collected, and how the session ended."""

    results: list[R]
    exit_code: int  # 0 when finished or input ran out, 130 after Ctrl-C

    @property
    def interrupted(self) -> bool:
        return self.exit_code == INTERRUPTED


def run_rounds(items: Iterable[T], play: Callable[[T], R]) -> Rounds[R]:
    """Play each item in turn, stopping cleanly on Ctrl-C or EOF.

    ``play`` records its own result as soon as it is known (to the store), so
    nothing answered is lost whatever ends the session.
    """
    results: list[R] = []
    try:
        for item in items:
            results.append(play(item))
    except KeyboardInterrupt:
        return Rounds(results, INTERRUPTED)
    except EndOfInput:
        return Rounds(results, 0)
    return Rounds(results, 0)
