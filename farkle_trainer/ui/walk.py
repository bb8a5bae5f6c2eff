"""Stepping through pages on a terminal one key at a time: next, previous, the next or previous
marked page, a page by its number, leave.

``review`` walks a game move by move this way, its mistakes marked. A key answers at once, with
no Enter: ``n``, space, the right or down arrow go on; ``p``, the left or up arrow go back; ``m``
goes to the next marked page and ``M`` to the one before; digits, then Enter, go to that page
(Backspace takes a digit back, Escape all of them); ``q``, Escape, Enter or Ctrl-D leave (Ctrl-C
too). Plain text has no keys to read: there every page is printed in turn instead
(``review --moves``).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:
    from rich.console import RenderableType

    from farkle_trainer.ui.terminal import InteractiveFrontend

Key = Literal["next", "previous", "next_marked", "previous_marked", "leave"]

KEYS: dict[str, Key] = {
    "n": "next",
    " ": "next",
    "right": "next",
    "down": "next",
    "p": "previous",
    "left": "previous",
    "up": "previous",
    "m": "next_marked",
    "M": "previous_marked",
    "q": "leave",
    "c-d": "leave",
}
#: The most digits a page number is typed with.
MAX_DIGITS = 6


class WalkWords(Protocol):
    """What a walk says where a key leads nowhere, in the words of what its pages are."""

    def first(self) -> str:
        """``p`` on the first page."""
        ...

    def no_marked(self) -> str:
        """``m`` or ``M`` where no page is marked."""
        ...

    def none_after(self, number: int) -> str:
        """``m`` past the last marked page; ``number`` counts from 1."""
        ...

    def none_before(self, number: int) -> str:
        """``M`` before the first marked page."""
        ...

    def no_such_page(self, number: int, count: int) -> str:
        """A number that is no page's."""
        ...

    def typing(self, digits: str) -> str:
        """The number typed so far, until Enter."""
        ...


def read_key(term: InteractiveFrontend, prompt: str, words: WalkWords | None = None) -> Key | int:
    """One key from the terminal, after ``prompt`` on lines of its own (wrapped between words
    for the terminal's width); or, with ``words``, a number typed and ended with Enter."""
    import textwrap

    from prompt_toolkit.application import Application
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.keys import Keys
    from prompt_toolkit.layout import Layout, Window
    from prompt_toolkit.layout.controls import FormattedTextControl

    digits: list[str] = []
    bindings = KeyBindings()
    for key, meaning in KEYS.items():
        bindings.add(key, eager=True)(_answer(meaning))

    @bindings.add("c-c", eager=True)
    def _(event: Any) -> None:
        event.app.exit(exception=KeyboardInterrupt())

    @bindings.add("enter", eager=True)
    def _(event: Any) -> None:
        event.app.exit(result=int("".join(digits)) if digits else "leave")

    @bindings.add("escape", eager=True)
    def _(event: Any) -> None:
        if not digits:
            event.app.exit(result="leave")
        digits.clear()

    @bindings.add("backspace", eager=True)
    def _(event: Any) -> None:
        if digits:
            digits.pop()

    # A colour code pasted in ("\x1b[31m") reads as a mouse report prompt_toolkit cannot parse:
    # it would print a traceback and wait for Enter. The walk takes no mouse.
    @bindings.add(Keys.Vt100MouseEvent)
    def _(event: Any) -> None:
        pass

    if words is not None:
        for digit in "0123456789":
            bindings.add(digit, eager=True)(_typed(digits, digit))

    width = max(10, term.console.width - 1)

    def shown() -> str:
        text = prompt if not digits or words is None else f"{prompt} {words.typing(''.join(digits))}"
        return textwrap.fill(text, width, break_long_words=False, break_on_hyphens=False)

    io: dict[str, Any] = {}
    if term.prompt_input is not None:
        io["input"] = term.prompt_input
    if term.prompt_output is not None:
        io["output"] = term.prompt_output
    app: Application[Key | int] = Application(
        layout=Layout(Window(FormattedTextControl(shown))),
        key_bindings=bindings,
        full_screen=False,
        # The keys are said again under the next page: the screen keeps the pages alone.
        erase_when_done=True,
        **io,
    )
    return app.run()


def _answer(meaning: Key) -> Callable[[Any], None]:
    def answer(event: Any) -> None:
        event.app.exit(result=meaning)

    return answer


def _typed(digits: list[str], digit: str) -> Callable[[Any], None]:
    def typed(event: Any) -> None:
        if len(digits) < MAX_DIGITS and (digits or digit != "0"):
            digits.append(digit)

    return typed


def step(at: int, key: Key | int, count: int, marked: Sequence[int], words: WalkWords) -> int | str | None:
    """Where ``key`` leads from page ``at`` (from 0) of ``count``, ``marked`` the marked pages in
    order: a page, a line that says why it leads nowhere (the walk stays), or None to leave."""
    if isinstance(key, int):
        return key - 1 if 1 <= key <= count else words.no_such_page(key, count)
    if key == "leave":
        return None
    if key == "next":
        return at + 1 if at + 1 < count else None  # past the last page: the walk is over
    if key == "previous":
        return at - 1 if at > 0 else words.first()
    if not marked:
        return words.no_marked()
    if key == "next_marked":
        later = bisect.bisect_right(marked, at)
        return marked[later] if later < len(marked) else words.none_after(at + 1)
    earlier = bisect.bisect_left(marked, at)
    return marked[earlier - 1] if earlier else words.none_before(at + 1)


def _start(key: Key | int, count: int, marked: Sequence[int], words: WalkWords) -> int | str | None:
    """Where the first key leads, before any page: ``n`` (or ``p``) to the first page, ``m`` to
    the first marked page and ``M`` to the last, a number to that page; ``q`` or Enter nowhere."""
    if key in ("next", "previous"):
        return 0
    if key in ("next_marked", "previous_marked"):
        if not marked:
            return words.no_marked()
        return marked[0] if key == "next_marked" else marked[-1]
    return step(0, key, count, marked, words) if isinstance(key, int) else None


def walk(
    term: InteractiveFrontend,
    count: int,
    page: Callable[[int], RenderableType],
    prompt: Callable[[int], str],
    *,
    intro: str,
    words: WalkWords,
    marked: Sequence[int] = (),
) -> int:
    """Offer the ``count`` pages after ``intro``, then show each one asked for: ``page(i)``
    for i from 0, each followed by ``prompt(i)``; ``marked`` pages are those ``m`` and ``M`` go
    to. A key that leads nowhere says why, and the same question is asked again. Returns how
    many pages were shown."""
    if not count:
        return 0
    marked = sorted(marked)
    went = _start(read_key(term, intro, words), count, marked, words)
    while isinstance(went, str):
        went = _start(read_key(term, f"{went} {intro}", words), count, marked, words)
    shown = 0
    while went is not None:
        at = went
        term.console.print(page(at))
        shown += 1
        went = step(at, read_key(term, prompt(at), words), count, marked, words)
        while isinstance(went, str):
            went = step(at, read_key(term, f"{went} {prompt(at)}", words), count, marked, words)
    return shown
