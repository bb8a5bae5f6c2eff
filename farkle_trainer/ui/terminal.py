"""The terminal around the commands: plain or rich output, and user-facing errors."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any

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
