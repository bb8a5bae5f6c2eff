"""Stepping through pages on a terminal one key at a time: next, previous, leave.

``review`` walks a game move by move this way. A key answers at once, with no Enter: ``n``,
space, the right or down arrow go on; ``p``, the left or up arrow go back; ``q``, Escape,
Enter or Ctrl-D leave (Ctrl-C too). Plain text has no keys to read: there every page is
printed in turn instead (``review --moves``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from rich.console import RenderableType

    from farkle_trainer.ui.terminal import InteractiveFrontend

Key = Literal["next", "previous", "leave"]

KEYS: dict[str, Key] = {
    "n": "next",
    " ": "next",
    "right": "next",
    "down": "next",
    "p": "previous",
    "left": "previous",
    "up": "previous",
    "q": "leave",
    "escape": "leave",
    "enter": "leave",
    "c-d": "leave",
}


def read_key(term: InteractiveFrontend, prompt: str) -> Key:
    """One key from the terminal, after ``prompt`` on lines of its own (wrapped between words
    for the terminal's width)."""
    import textwrap

    from prompt_toolkit.application import Application
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.layout import Layout, Window
    from prompt_toolkit.layout.controls import FormattedTextControl

    bindings = KeyBindings()
    for key, meaning in KEYS.items():
        bindings.add(key, eager=True)(_answer(meaning))

    @bindings.add("c-c", eager=True)
    def _(event: Any) -> None:
        event.app.exit(exception=KeyboardInterrupt())

    width = max(10, term.console.width - 1)
    shown = textwrap.fill(prompt, width, break_long_words=False, break_on_hyphens=False)
    io: dict[str, Any] = {}
    if term.prompt_input is not None:
        io["input"] = term.prompt_input
    if term.prompt_output is not None:
        io["output"] = term.prompt_output
    app: Application[Key] = Application(
        layout=Layout(Window(FormattedTextControl(shown))),
        key_bindings=bindings,
        full_screen=False,
        **io,
    )
    return app.run()


def _answer(meaning: Key) -> Callable[[Any], None]:
    def answer(event: Any) -> None:
        event.app.exit(result=meaning)

    return answer


def walk(
    term: InteractiveFrontend,
    count: int,
    page: Callable[[int], RenderableType],
    prompt: Callable[[int], str],
    *,
    intro: str,
) -> int:
    """Offer the ``count`` pages after ``intro``, then show each one asked for: ``page(i)``
    for i from 0, each followed by ``prompt(i)``. Returns how many pages were shown."""
    if not count or read_key(term, intro) != "next":
        return 0
    shown, at = 0, 0
    while True:
        term.console.print(page(at))
        shown += 1
        key = read_key(term, prompt(at))
        if key == "leave":
            return shown
        if key == "next" and at + 1 < count:
            at += 1
        elif key == "previous" and at > 0:
            at -= 1
        elif key == "next":
            return shown  # past the last page: the walk is over
