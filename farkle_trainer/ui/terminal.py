"""The terminal: one object per command that decides plain or rich once, reads answers and writes output."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass, replace
from typing import IO, TYPE_CHECKING, Any, TypeVar

from farkle_trainer.engine.notation import is_stop, parse_yes_no
from farkle_trainer.training.frontend import EndOfInput, Frontend

T = TypeVar("T")
Q = TypeVar("Q", bound="Question")

if TYPE_CHECKING:
    from questionary import Question
    from rich.console import Console, RenderableType


#: How a yes/no question is answered, by its default: the capital is what Enter answers.
YES_NO_HINTS: dict[bool | None, str] = {None: "(y/n)", True: "(Y/n)", False: "(y/N)"}


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

    def yes_no(self, question: str, default: bool | None = None) -> bool:
        """Every yes/no question of every command and activity, asked alike in both front ends.

        The question ends with how to answer it: ``(y/N)`` or ``(Y/n)``, the capital letter
        being what Enter (an empty line) answers, or ``(y/n)`` where there is no default (a
        quiz's question), where Enter answers nothing. On a terminal one key answers; in plain
        text, a line. ``q`` and Ctrl-D (the end of input) raise :class:`EndOfInput`.
        """
        return self._reply(question, YES_NO_HINTS[default], default)

    def _reply(self, question: str, hint: str, default: bool | None) -> bool:
        """The answer to :meth:`yes_no`, read as this front end reads."""
        raise NotImplementedError

    def confirm(self, question: str) -> bool | None:
        """A yes/no question about the command itself (delete, replace, start), default no;
        None when nobody answers (no input, the end of it, ``q``)."""
        try:
            return self.yes_no(question, default=False)
        except EndOfInput:
            return None


@dataclass
class PlainFrontend(Terminal):
    """Line-based text: one question per line, one answer per line from ``stdin``.

    When the answers come from a pipe they are echoed after the prompt, so the
    transcript reads as question, answer, grading. ``prompts`` is where questions and
    the hints about a refused answer go (``stdout`` unless told otherwise).
    """

    stdin: IO[str]
    stdout: IO[str]
    echo: bool = False
    prompts: IO[str] | None = None

    plain = True

    @classmethod
    def standard(cls) -> PlainFrontend:
        readable_input(sys.stdin)
        # Output sent to a file while someone types at the terminal: the questions must
        # still reach that person, so they go to stderr and the file gets the output only.
        prompts = sys.stderr if is_terminal(sys.stdin) and not is_terminal(sys.stdout) else None
        return cls(sys.stdin, sys.stdout, echo=not is_terminal(sys.stdin), prompts=prompts)

    @property
    def _prompts(self) -> IO[str]:
        return self.prompts or self.stdout

    def say(self, text: str = "", *, style: str | None = None) -> None:
        print(text, file=self.stdout, flush=True)

    def show(self, text: str, renderable: Callable[[], RenderableType] | None = None) -> None:
        self.say(text[:-1] if text.endswith("\n") else text)

    def _read(self, prompt: str) -> str:
        print(f"{prompt} ", end="", file=self._prompts, flush=True)
        try:
            line = self.stdin.readline() if self.stdin is not None else ""
        except UnicodeDecodeError:
            # Bytes that are not text: an answer nobody can parse, so it is asked again.
            line = "\ufffd\n"
        except (OSError, ValueError):
            line = ""  # closed: nobody can answer
        if not line:
            print(file=self._prompts, flush=True)
            raise EndOfInput
        answer = line.rstrip("\r\n")
        if self.echo:
            # The reader may have gone (``| head``): the answer still counts, and is recorded
            # before anything else is written.
            with suppress(BrokenPipeError):
                print(answer, file=self._prompts, flush=True)
        return answer

    def ask(self, prompt: str, parse: Callable[[str], T]) -> T:
        while True:
            answer = self._read(prompt)
            if is_stop(answer):
                raise EndOfInput
            try:
                return parse(answer)
            except ValueError as exc:
                print(f"  ({exc})", file=self._prompts, flush=True)

    def choose(self, prompt: str, choices: Sequence[tuple[str, T]], parse: Callable[[str], T]) -> T:
        return self.ask(prompt, parse)

    def _reply(self, question: str, hint: str, default: bool | None) -> bool:
        return self.ask(f"{question} {hint}", lambda text: parse_yes_no(text, default))

    def confirm(self, question: str) -> bool | None:
        # Asked on stderr, so that stdout keeps only the command's output.
        return Terminal.confirm(replace(self, prompts=sys.stderr), question)


def readable_input(stream: IO[str] | None) -> None:
    """Let ``stream`` read bytes that are not valid text as U+FFFD instead of raising.

    A strict UTF-8 locale would otherwise end any prompt with a UnicodeDecodeError.
    """
    _tolerant(stream, "replace")


def writable_output(stream: IO[str] | None) -> None:
    """Let ``stream`` write any text, what it cannot encode written as an escape (``\\udcff``).

    An argument or a file name that was not UTF-8 reaches the program as such characters, and
    quoting it back would otherwise end the command with a UnicodeEncodeError in a strict locale.
    """
    _tolerant(stream, "backslashreplace")


def _tolerant(stream: IO[str] | None, errors: str) -> None:
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is None:
        return
    with suppress(ValueError, OSError, TypeError):
        reconfigure(errors=errors)


#: What prompt_toolkit raises when a key arrives as its application is already ending (a paste
#: still being read after Ctrl-C): the user had already asked to stop.
_ENDING = ("Application is not running.", "Return value already set.")


def choice_keys(labels: Sequence[str]) -> list[str | None]:
    """The key that picks each choice: its label's first letter, when no other label shares it."""
    firsts = [label[:1].lower() for label in labels]
    return [f if f.isalpha() and firsts.count(f) == 1 and f != "q" else None for f in firsts]


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

    def _reply(self, question: str, hint: str, default: bool | None) -> bool:
        import questionary
        from prompt_toolkit.key_binding import KeyBindings

        keys = KeyBindings()

        @keys.add("q", eager=True)
        def _(event: Any) -> None:
            event.app.exit(exception=EOFError())

        if default is None:
            # Nothing to take: Enter waits for y or n, as a stray one must not answer.
            keys.add("enter", eager=True)(lambda event: None)
        # questionary shows (Y/n) or (y/N) for a default, and needs telling where there is none.
        instruction = f"{hint} " if default is None else None
        message = fitted(question, hint, self.console.width)
        asked = questionary.confirm(message, default=bool(default), instruction=instruction, **self._io())
        return bool(self._run(answered_by_keys(asked), keys))

    def show(self, text: str, renderable: Callable[[], RenderableType] | None = None) -> None:
        if renderable is None:
            self.say(text)
        else:
            self.console.print(renderable())

    @staticmethod
    def _run(question: Any, keys: Any = None) -> Any:
        """Ask ``question``; ``keys`` are bindings of our own, which win over questionary's."""
        from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings
        from prompt_toolkit.keys import Keys

        # Text prompts end on Ctrl-D by themselves; lists ignore it, so give every prompt the
        # same way out.
        eof = KeyBindings()

        @eof.add("c-d", eager=True)
        def _(event: Any) -> None:
            event.app.exit(exception=EOFError())

        # What reads as a mouse report: no prompt here takes the mouse, and text pasted with a
        # colour code in it ("\x1b[31m") is no report prompt_toolkit can read: it would stop the
        # prompt with "Exception not enough values to unpack" and wait for Enter.
        @eof.add(Keys.Vt100MouseEvent)
        def _(event: Any) -> None:
            pass

        app = question.application
        # Bindings merged later win, so a letter picks its choice whatever questionary binds.
        ours = [eof] if keys is None else [eof, keys]
        app.key_bindings = merge_key_bindings([app.key_bindings, *ours] if app.key_bindings else ours)
        try:
            return question.unsafe_ask()
        except EOFError:
            raise EndOfInput from None
        except Exception as exc:
            if str(exc).startswith(_ENDING):
                raise KeyboardInterrupt from None
            raise

    def ask(self, prompt: str, parse: Callable[[str], T]) -> T:
        import questionary

        while True:
            answer = self._run(questionary.text(fitted(prompt, "", self.console.width), **self._io()))
            if answer is None:
                raise EndOfInput
            if is_stop(answer):
                raise EndOfInput
            try:
                return parse(answer)
            except ValueError as exc:
                # Said under the answer, where the eye is, not on the screen's bottom line.
                self.say(f"  ({exc})")

    def choose(self, prompt: str, choices: Sequence[tuple[str, T]], parse: Callable[[str], T]) -> T:
        import questionary
        from prompt_toolkit.key_binding import KeyBindings

        keys = choice_keys([label for label, _ in choices])
        bindings = KeyBindings()
        for index, key in enumerate(keys):
            if key is not None:
                bindings.add(key, eager=True)(_point_at(index))

        @bindings.add("q", eager=True)
        def _(event: Any) -> None:
            event.app.exit(exception=EOFError())

        options = [questionary.Choice(title=label, value=i) for i, (label, _) in enumerate(choices)]
        letters = "/".join(k for k in keys if k is not None)
        instruction = menu_instruction(prompt, letters, self.console.width)
        menu = questionary.select(
            fitted(prompt, instruction, self.console.width),
            choices=options,
            instruction=instruction,
            use_jk_keys=False,
            **self._io(),
        )
        index = self._run(answered_by_keys(menu), bindings)
        if index is None:
            raise EndOfInput
        return choices[index][1]


def menu_instruction(prompt: str, letters: str, width: int) -> str:
    """How to answer a menu, said after its question: in full where the line has room.

    On a narrow terminal the full hint would wrap mid-word, so only what cannot be guessed
    (the letters, Enter and how to stop) is kept.
    """
    full = f"({letters} or arrows, then enter; q stops)" if letters else "(arrows and enter; q stops)"
    if len("? ") + len(prompt) + 1 + len(full) <= width:
        return full
    return f"({letters}, enter; q stops)" if letters else "(enter; q stops)"


def fitted(question: str, hint: str, width: int) -> str:
    """``question`` as questionary is to be given it, to draw ``? question hint`` in ``width``
    columns: broken at spaces, inside a word only where it is longer than a line, each line after
    the first indented under the first's text, and the hint, which questionary writes after a
    space, kept whole on the last line or on one of its own. Left to the terminal, a long
    question breaks wherever the screen ends (``posi`` / ``tions``)."""
    import textwrap

    # Two columns for questionary's "? ", one for the cursor.
    room = max(width - 3, 12)
    lines = textwrap.wrap(question, room, subsequent_indent="  ", break_on_hyphens=False) or [""]
    hint_fits = not hint or len(lines[-1]) + 1 + len(hint) <= room
    if len(lines) == 1 and hint_fits:
        return question
    return "\n".join(lines) + ("" if hint_fits else "\n ")


def answered_by_keys(question: Q) -> Q:
    """``question``, a menu or a yes/no question, answered by its keys alone.

    questionary draws these above an empty line of text that prompt_toolkit can still accept
    (Escape then Enter, or Ctrl-O, accept a line in its Emacs keys), ending the question with
    that line's text, ``""``, where a choice was due. With nothing to accept it, those keys
    do nothing.
    """
    from prompt_toolkit.layout.controls import BufferControl

    for control in question.application.layout.find_all_controls():
        if isinstance(control, BufferControl):
            control.buffer.accept_handler = None
    return question


def _point_at(index: int) -> Callable[[Any], None]:
    """A choice's letter points at it, as the arrows do, and Enter takes it: ``b`` then Enter
    answers as it does in plain text. Were the letter to answer at once, the Enter typed after
    it from habit would reach the next question and answer that one unasked."""

    def point(event: Any) -> None:
        from questionary.prompts.common import InquirerControl

        for control in event.app.layout.find_all_controls():
            if isinstance(control, InquirerControl):
                control.pointed_at = index

    return point


def open_terminal(plain: bool) -> Terminal:
    """Interactive on a terminal; plain with ``--plain`` or when either end is not a terminal."""
    if wants_plain(plain):
        return PlainFrontend.standard()
    return InteractiveFrontend.standard()
