"""The terminal around the commands: plain or rich output, and user-facing errors."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, TypeVar

from farkle_trainer.engine.notation import labelled_roll, parse_selection, place_label
from farkle_trainer.training.frontend import EndOfInput, Frontend

T = TypeVar("T")

if TYPE_CHECKING:
    from rich.console import Console, RenderableType


def is_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


@dataclass
class Output:
    """Where a command writes: rich renderables on a terminal, plain lines otherwise.

    Plain mode is chosen by ``--plain`` or when stdin or stdout is not a terminal
    (as for the drills), so a pipe, a file or a screen reader gets text with no
    boxes or colour codes.
    """

    plain: bool
    stream: IO[str]
    _console: Console | None = None

    @classmethod
    def choose(cls, plain: bool, stream: IO[str] | None = None) -> Output:
        stream = stream or sys.stdout
        on_terminal = is_terminal(stream) and (sys.stdin is None or is_terminal(sys.stdin))
        return cls(plain=plain or not on_terminal, stream=stream)

    @property
    def console(self) -> Console:
        if self._console is None:
            from rich.console import Console

            self._console = Console(file=self.stream, highlight=False)
        return self._console

    def line(self, text: str = "") -> None:
        print(text, file=self.stream)

    def lines(self, text: str) -> None:
        print(text, file=self.stream, end="" if text.endswith("\n") else "\n")

    def rich(self, renderable: RenderableType) -> None:
        self.console.print(renderable)

    def json(self, data: Any) -> None:
        print(json.dumps(data, indent=2), file=self.stream)


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
