"""The terminal: one object per command that decides plain or rich once, reads answers and writes output."""

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


def wants_plain(plain: bool) -> bool:
    """The one decision between the two front ends.

    Plain lines with ``--plain``, or when stdin or stdout is not a terminal: a pipe, a file
    or a screen reader gets text with no boxes, colour codes or arrow-key menus.
    """
    stdin_ok = sys.stdin is None or is_terminal(sys.stdin)
    return plain or not (stdin_ok and is_terminal(sys.stdout))


class Terminal(Frontend):
    """One terminal object per command: what a drill may do, plus a command's own output."""

    def line(self, text: str = "") -> None:
        self.say(text)

    def lines(self, text: str) -> None:
        self.say(text[:-1] if text.endswith("\n") else text)

    def json(self, data: Any) -> None:
        self.say(json.dumps(data, indent=2))

    def confirm(self, question: str) -> bool | None:
        """A yes/no question, default no; None when nobody can answer (no stdin, end of input)."""
        raise NotImplementedError


@dataclass
class PlainFrontend(Terminal):
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
        self.say(text[:-1] if text.endswith("\n") else text)

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

    def confirm(self, question: str) -> bool | None:
        # The question goes to stderr, so stdout keeps only the command's output.
        print(f"{question} [y/N] ", end="", file=sys.stderr, flush=True)
        try:
            line = self.stdin.readline() if self.stdin is not None else ""
        except (OSError, ValueError):
            line = ""
        # An answer from a pipe is not echoed by a terminal; echo it so the transcript reads on.
        if not line or self.echo:
            print(line.rstrip("\n"), file=sys.stderr)
        if not line:
            return None
        return line.strip().lower() in ("y", "yes")

    def pick_dice(
        self, prompt: str, roll: tuple[int, ...], check: Callable[[tuple[int, ...]], None]
    ) -> tuple[int, ...]:
        def parse(text: str) -> tuple[int, ...]:
            picked = parse_selection(text, roll)
            check(picked)
            return picked

        return self.ask(prompt, parse)


@dataclass
class InteractiveFrontend(Terminal):
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

    def line(self, text: str = "") -> None:
        # Command output is printed as written: rich would re-wrap it at the screen's width.
        print(text, file=self.console.file, flush=True)

    def lines(self, text: str) -> None:
        print(text, file=self.console.file, end="" if text.endswith("\n") else "\n", flush=True)

    def json(self, data: Any) -> None:
        # Rich would wrap and colour JSON; machine-readable output stays exact.
        print(json.dumps(data, indent=2), file=self.console.file, flush=True)

    def confirm(self, question: str) -> bool | None:
        import questionary

        try:
            return bool(self._run(questionary.confirm(question, default=False, **self._io())))
        except EndOfInput:
            return None

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


def open_terminal(plain: bool) -> Terminal:
    """Interactive on a terminal; plain with ``--plain`` or when either end is not a terminal."""
    if wants_plain(plain):
        return PlainFrontend.standard()
    return InteractiveFrontend.standard()
