"""A progress bar for a long solve: drawn on a terminal only, and only once a solve runs long.

A cached or small solve finishes well within a second and shows nothing; a large custom table
can take minutes, and then a bar says how far the solver has got. With ``--json``, ``--plain``
or output to a pipe nothing is drawn, so machine-readable output stays clean.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from farkle_trainer.ui.terminal import InteractiveFrontend, Terminal

if TYPE_CHECKING:
    from farkle_trainer.engine.solver import Progress

#: How long a solve runs before its bar appears.
SHOW_AFTER = 1.0


@contextmanager
def solve_progress(out: Terminal, *, quiet: bool = False) -> Iterator[Progress | None]:
    """A callback for :func:`~farkle_trainer.engine.solver.solve` that draws a bar on ``out``,
    or None where nothing should be drawn (plain output, ``quiet`` for ``--json``)."""
    if quiet or not isinstance(out, InteractiveFrontend):
        yield None
        return
    console = out.console
    state: dict[str, Any] = {"started": None, "bar": None, "task": None}

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if state["started"] is None:
            state["started"] = now
        if state["bar"] is None:
            if now - state["started"] < SHOW_AFTER or done >= total:
                return
            from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn

            bar = Progress(
                TextColumn("Solving the turn exactly"),
                BarColumn(),
                TaskProgressColumn(),
                console=console,
                transient=True,
            )
            bar.start()
            state["bar"], state["task"] = bar, bar.add_task("solve", total=total)
        state["bar"].update(state["task"], completed=done, total=total)

    try:
        yield progress
    finally:
        if state["bar"] is not None:
            state["bar"].stop()
