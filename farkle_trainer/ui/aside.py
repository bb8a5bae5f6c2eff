"""A session shown on standard error, so that standard output carries data alone.

``score --json`` and ``decide --json`` ask their questions, show each grading and sum up the
session as usual, but on standard error (interactive when both it and standard input are a
terminal); standard output gets one JSON document at the end, which a program reads whole.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from farkle_trainer.ui.terminal import (
    InteractiveFrontend,
    PlainFrontend,
    Terminal,
    is_terminal,
    readable_input,
)


def open_terminal_aside(plain: bool) -> Terminal:
    """The session's terminal on standard error: plain with ``--plain``, or when either standard
    input or standard error is not a terminal."""
    if plain or not (is_terminal(sys.stdin) and is_terminal(sys.stderr)):
        readable_input(sys.stdin)
        return PlainFrontend(sys.stdin, sys.stderr, echo=not is_terminal(sys.stdin))
    from rich.console import Console

    return InteractiveFrontend(Console(file=sys.stderr, highlight=False))


def print_data(data: Any) -> None:
    """The one JSON document of standard output."""
    print(json.dumps(data, indent=2), file=sys.stdout, flush=True)
