"""A progress bar for a long solve, shown only once it has taken a second.

A cached table answers at once, and a bar that flashes for a moment is noise; a cold
solve of a large game takes tens of seconds, and then an estimate helps.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, TaskID

    from farkle_trainer.engine.solver import Progress as TurnProgress
    from farkle_trainer.ui.terminal import Terminal

#: A solve shorter than this shows no bar.
DELAY = 1.0
#: The bar's width where the screen has room (rich's own default).
BAR_WIDTH = 40


def bar_width(screen_width: int, description: str) -> int:
    """The bar's width that leaves room on the line for everything else, so a narrow screen
    gets a shorter bar rather than a time cut to "0:0…"."""
    # The description, "100%", "about", "0:00:00" and "left", with a space between each column.
    rest = len(description) + len("100%") + len("about") + len("0:00:00") + len("left") + 5
    return max(1, min(BAR_WIDTH, screen_width - rest))


class SolveBar:
    """The callback a solver reports its fraction done to; draws a bar after ``DELAY``."""

    def __init__(self, console: Console, description: str, clock: Callable[[], float] = time.monotonic):
        self.console = console
        self.description = description
        self.clock = clock
        self.started = clock()
        self.bar: Progress | None = None
        self.task: TaskID | None = None

    def __call__(self, fraction: float) -> None:
        if self.bar is None:
            if fraction >= 1.0 or self.clock() - self.started < DELAY:
                return
            self._open()
        assert self.bar is not None and self.task is not None
        self.bar.update(self.task, completed=fraction)

    def _open(self) -> None:
        from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeRemainingColumn

        self.bar = Progress(
            TextColumn("{task.description}"),
            BarColumn(bar_width=bar_width(self.console.width, self.description)),
            TaskProgressColumn(),
            TextColumn("about"),
            TimeRemainingColumn(),
            TextColumn("left"),
            console=self.console,
            transient=True,
        )
        self.bar.start()
        self.task = self.bar.add_task(self.description, total=1.0)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


@contextmanager
def solve_progress(console: Console | None, description: str) -> Iterator[Callable[[float], None] | None]:
    """The progress callback for a solve, or None when there is no terminal to draw on."""
    if console is None:
        yield None
        return
    bar = SolveBar(console, description)
    try:
        yield bar
    finally:
        bar.close()


@contextmanager
def turn_progress(out: Terminal, *, quiet: bool = False) -> Iterator[TurnProgress | None]:
    """The callback for :func:`~farkle_trainer.engine.solver.solve` (levels done of the total):
    a bar on a terminal, None where nothing should be drawn (plain output, ``quiet`` for ``--json``)."""
    from farkle_trainer.ui.terminal import InteractiveFrontend

    if quiet or not isinstance(out, InteractiveFrontend):
        yield None
        return
    with solve_progress(out.console, "Solving the turn exactly") as bar:
        assert bar is not None
        yield lambda done, total: bar(done / total if total else 1.0)
