"""The two front ends of every drill and game: plain lines, or interactive prompts.

Drill and game logic is written once against :class:`Frontend`; the front ends
only render and read. :class:`PlainFrontend` reads answers one per line (a pipe,
a screen reader, a projector); :class:`InteractiveFrontend` uses questionary
prompts and rich output on a terminal.

Both raise :class:`EndOfInput` when input runs out (EOF, Ctrl-D) and let
``KeyboardInterrupt`` through for Ctrl-C, so a session can stop cleanly, keep
every answer already given, and show its summary (see :func:`run_rounds`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, Generic, TypeVar

from farkle_trainer.engine.notation import labelled_roll, parse_selection, place_label
from farkle_trainer.ui.terminal import is_terminal

if TYPE_CHECKING:
    from rich.console import Console, RenderableType

T = TypeVar("T")
R = TypeVar("R")

INTERRUPTED = 130


class EndOfInput(Exception):
    """Input ran out (EOF): the session ends as if the user had quit."""


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

    def pick_dice(
        self, prompt: str, roll: tuple[int, ...], check: Callable[[tuple[int, ...]], None]
    ) -> tuple[int, ...]:
        """Dice picked from ``roll`` (faces ascending); ``check`` raises ValueError to refuse a pick."""
        raise NotImplementedError


@dataclass
class PlainFrontend(Frontend):
    """Line-based text: one question per line, one answer per line from ``stdin``.

    When the answers come from a pipe they are echoed after the prompt, so the
    transcript reads as question, answer, grading.
    """

    stdin: IO[str]
    stdout: IO[str]
    echo: bool = False

    plain = True

    @classmethod
    def standard(cls) -> PlainFrontend:
        return cls(sys.stdin, sys.stdout, echo=not is_terminal(sys.stdin))

    def say(self, text: str = "", *, style: str | None = None) -> None:
        print(text, file=self.stdout, flush=True)

    def show(self, text: str, renderable: Callable[[], RenderableType] | None = None) -> None:
        self.say(text)

    def _read(self, prompt: str) -> str:
        print(f"{prompt} ", end="", file=self.stdout, flush=True)
        line = self.stdin.readline()
        if not line:
            print(file=self.stdout, flush=True)
            raise EndOfInput
        answer = line.rstrip("\r\n")
        if self.echo:
            print(answer, file=self.stdout, flush=True)
        return answer

    def ask(self, prompt: str, parse: Callable[[str], T]) -> T:
        while True:
            answer = self._read(prompt)
            try:
                return parse(answer)
            except ValueError as exc:
                self.say(f"  ({exc})")

    def choose(self, prompt: str, choices: Sequence[tuple[str, T]], parse: Callable[[str], T]) -> T:
        return self.ask(prompt, parse)

    def pick_dice(
        self, prompt: str, roll: tuple[int, ...], check: Callable[[tuple[int, ...]], None]
    ) -> tuple[int, ...]:
        def parse(text: str) -> tuple[int, ...]:
            picked = parse_selection(text, roll)
            check(picked)
            return picked

        return self.ask(prompt, parse)


@dataclass
class InteractiveFrontend(Frontend):
    """questionary prompts and rich output on a terminal.

    ``prompt_input``/``prompt_output`` go to prompt_toolkit, so tests can drive the
    prompts through a pipe input.
    """

    console: Console
    prompt_input: Any = None
    prompt_output: Any = None

    plain = False

    @classmethod
    def standard(cls) -> InteractiveFrontend:
        from rich.console import Console

        return cls(Console(highlight=False))

    def _io(self) -> dict[str, Any]:
        io: dict[str, Any] = {}
        if self.prompt_input is not None:
            io["input"] = self.prompt_input
        if self.prompt_output is not None:
            io["output"] = self.prompt_output
        return io

    def say(self, text: str = "", *, style: str | None = None) -> None:
        self.console.print(text, style=style, markup=False)

    def show(self, text: str, renderable: Callable[[], RenderableType] | None = None) -> None:
        if renderable is None:
            self.say(text)
        else:
            self.console.print(renderable())

    @staticmethod
    def _run(question: Any) -> Any:
        from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings

        # Text prompts end on Ctrl-D by themselves; lists and checkboxes ignore it,
        # so give every prompt the same way out.
        eof = KeyBindings()

        @eof.add("c-d", eager=True)
        def _(event: Any) -> None:
            event.app.exit(exception=EOFError())

        app = question.application
        app.key_bindings = merge_key_bindings([app.key_bindings, eof]) if app.key_bindings else eof
        try:
            return question.unsafe_ask()
        except EOFError:
            raise EndOfInput from None

    def ask(self, prompt: str, parse: Callable[[str], T]) -> T:
        import questionary

        def validate(text: str) -> bool | str:
            try:
                parse(text)
            except ValueError as exc:
                return str(exc)
            return True

        answer = self._run(questionary.text(prompt, validate=validate, **self._io()))
        return parse(answer)

    def choose(self, prompt: str, choices: Sequence[tuple[str, T]], parse: Callable[[str], T]) -> T:
        import questionary

        options = [questionary.Choice(title=label, value=i) for i, (label, _) in enumerate(choices)]
        index = self._run(questionary.select(prompt, choices=options, **self._io()))
        if index is None:
            raise EndOfInput
        return choices[index][1]

    def pick_dice(
        self, prompt: str, roll: tuple[int, ...], check: Callable[[tuple[int, ...]], None]
    ) -> tuple[int, ...]:
        import questionary

        def faces(indexes: Iterable[int]) -> tuple[int, ...]:
            return tuple(sorted(roll[i] for i in indexes))

        def validate(indexes: list[Any]) -> bool | str:
            if not indexes:
                return "pick at least one die (space to pick, enter to confirm)"
            try:
                check(faces(indexes))
            except ValueError as exc:
                return str(exc)
            return True

        options = [
            questionary.Choice(title=f"{place_label(i)}: {face}", value=i) for i, face in enumerate(roll)
        ]
        picked = self._run(
            questionary.checkbox(
                f"{prompt} ({labelled_roll(roll)})",
                choices=options,
                validate=validate,
                instruction="(space picks a die, enter confirms)",
                **self._io(),
            )
        )
        if picked is None:
            raise EndOfInput
        return faces(picked)


def choose_frontend(plain: bool) -> Frontend:
    """Interactive on a terminal; plain with ``--plain`` or when either end is not a terminal."""
    if plain or not (is_terminal(sys.stdin) and is_terminal(sys.stdout)):
        return PlainFrontend.standard()
    return InteractiveFrontend.standard()


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
