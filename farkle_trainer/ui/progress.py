"""What a person waiting for a solve sees: one sentence at once, then a bar or a line now and then.

A table that is kept answers at once, so nothing is shown. When a game must be solved, every
command says the same sentence (:func:`farkle_trainer.engine.gameplan.notice`) on standard error
before the solver loads, with an estimate of how long it takes; then a terminal gets a bar
(after a second, so a quick solve does not flash one, and cleared when it ends), and plain
output, a pipe or ``--json`` a line on standard error every few seconds, so what a pipe or a
file receives on standard output never holds any of it.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from farkle_trainer.engine.gameplan import Solve, listen, notice, rounded, seconds, to_solve, watch, watching

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, Task, TaskID
    from rich.text import Text

    from farkle_trainer.engine.solver import Progress as TurnProgress
    from farkle_trainer.ui.terminal import Terminal

#: A solve shorter than this shows no bar.
DELAY = 1.0
#: The bar's width where the screen has room (rich's own default).
BAR_WIDTH = 40
#: Seconds between two lines of a solve's progress on standard error.
EVERY = 5.0
#: What the bar of a game's solve says.
SOLVING = "Solving the game"
#: Until this share is done, the time left leans on the estimate more than on the pace so far.
SETTLED = 0.25

Fraction = Callable[[float], None]


def bar_width(screen_width: int, description: str) -> int:
    """The bar's width that leaves room on the line for everything else, so a narrow screen
    gets a shorter bar rather than a time cut to "0:0…"."""
    # The description, "100%", "about", "0:00:00" and "left", with a space between each column.
    rest = len(description) + len("100%") + len("about") + len("0:00:00") + len("left") + 5
    return max(1, min(BAR_WIDTH, screen_width - rest))


class Pace:
    """About how many seconds a solve still takes: the estimate made before it started at first,
    then more and more the pace since its progress first moved (the compiler's first run, for
    one, moves nothing)."""

    def __init__(self, estimate: float | None, clock: Callable[[], float] = time.monotonic):
        self.estimate = estimate
        self.clock = clock
        self.started = clock()
        self.moved: tuple[float, float] | None = None

    def left(self, fraction: float) -> float | None:
        now = self.clock()
        if fraction <= 0.0 or self.moved is None:
            if fraction > 0.0:
                self.moved = (now, fraction)
            if self.estimate is None or now - self.started >= self.estimate:
                return None  # nothing to go by: unknown rather than a countdown past zero
            return self.estimate - (now - self.started)
        since, first = self.moved
        planned = None if self.estimate is None else self.estimate * (1.0 - fraction)
        if fraction <= first or now <= since:
            return planned
        paced = (now - since) * (1.0 - fraction) / (fraction - first)
        if planned is None:
            return paced
        weight = min(1.0, fraction / SETTLED)
        return weight * paced + (1.0 - weight) * planned


def _clock_text(left: float | None) -> str:
    if left is None:
        return "-:--:--"
    whole = round(left)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


class SolveBar:
    """The callback a solver reports its fraction done to; draws a bar after ``DELAY``."""

    def __init__(
        self,
        console: Console,
        description: str,
        clock: Callable[[], float] = time.monotonic,
        estimate: float | None = None,
    ):
        self.console = console
        self.description = description
        self.clock = clock
        self.started = clock()
        self.pace = Pace(estimate, clock)
        self.fraction = 0.0
        self.bar: Progress | None = None
        self.task: TaskID | None = None

    def __call__(self, fraction: float) -> None:
        self.fraction = max(self.fraction, fraction)
        self.pace.left(self.fraction)  # the pace counts from the first move
        if self.bar is None:
            if fraction >= 1.0 or self.clock() - self.started < DELAY:
                return
            self._open()
        assert self.bar is not None and self.task is not None
        self.bar.update(self.task, completed=self.fraction)

    def left(self) -> str:
        """The time left as the bar shows it (worked out at each redraw, so it counts down)."""
        return _clock_text(self.pace.left(self.fraction))

    def _open(self) -> None:
        from rich.progress import BarColumn, Progress, ProgressColumn, TaskProgressColumn, TextColumn

        bar = self

        class TimeLeft(ProgressColumn):
            def render(self, task: Task) -> Text:
                from rich.text import Text

                return Text(bar.left(), style="progress.remaining")

        self.bar = Progress(
            TextColumn("{task.description}"),
            BarColumn(bar_width=bar_width(self.console.width, self.description)),
            TaskProgressColumn(),
            TextColumn("about"),
            TimeLeft(),
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


class SolveLines:
    """A solve's progress as a line on standard error every ``EVERY`` seconds, for plain output,
    a pipe and ``--json``: "... 40% done, about 20 s left"."""

    def __init__(self, estimate: float | None, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self.last = clock()
        self.pace = Pace(estimate, clock)

    def __call__(self, fraction: float) -> None:
        left = self.pace.left(fraction)
        now = self.clock()
        if fraction >= 1.0 or now - self.last < EVERY:
            return
        self.last = now
        about = "" if left is None else f", about {rounded(left)} s left"
        say(f"... {int(100 * fraction)}% done{about}")

    def close(self) -> None:
        return None


def say(line: str) -> None:
    """One line on standard error, now (looked up each time: a bar on screen redirects it);
    on a terminal narrower than the line, wrapped between words."""
    stream = sys.stderr
    text = line
    if stream.isatty():
        import shutil
        import textwrap

        text = textwrap.fill(line, max(20, shutil.get_terminal_size().columns))
    print(text, file=stream, flush=True)


class SolveReport:
    """What a command shows while the game solver may work: the sentence once, when the first
    solve is known (or starts unforeseen), then a bar on ``console`` or lines on standard error."""

    def __init__(self, console: Console | None, clock: Callable[[], float] = time.monotonic):
        self.console = console
        self.clock = clock
        self.told = False
        self.shown: SolveBar | SolveLines | None = None

    def tell(self, solves: tuple[Solve, ...]) -> None:
        """Say the sentence for ``solves`` (once) and start the clock the estimates run on."""
        if self.told or not solves:
            return
        self.told = True
        # One estimate for the sentence and the bar: the machine's load is read once.
        estimate = seconds(solves)
        say(notice(solves, estimate))
        if self.console is not None:
            self.shown = SolveBar(self.console, SOLVING, self.clock, estimate)
        else:
            self.shown = SolveLines(estimate, self.clock)

    def starting(self, solve: Solve) -> None:
        self.tell((solve,))

    def __call__(self, fraction: float) -> None:
        if self.shown is not None:
            self.shown(fraction)

    def close(self) -> None:
        if self.shown is not None:
            self.shown.close()


@contextmanager
def solving(
    out: Terminal | None, tables: tuple[Solve, ...] = (), *, quiet: bool = False
) -> Iterator[Fraction]:
    """The progress callback for the solves a command may start.

    ``tables``: what the command needs, if it knows (the sentence is then said at once when one
    must be solved); any other solve is announced as it starts. A bar on a terminal, lines on
    standard error with plain output, no terminal (``out`` None) or ``quiet`` (``--json``). The
    solver's notes (the compiled loop could not be used or kept, and why) come out as lines on
    standard error too. A ``solving`` inside another takes over until it ends.
    """
    from farkle_trainer.ui.terminal import InteractiveFrontend

    console = out.console if isinstance(out, InteractiveFrontend) and not quiet else None
    report = SolveReport(console)
    report.tell(to_solve(tables))
    outer = watching()
    watch(report)
    listen(say)
    try:
        yield report
    finally:
        watch(outer)
        if outer is None:
            listen(None)
        report.close()


@contextmanager
def solve_progress(console: Console | None, description: str) -> Iterator[Fraction | None]:
    """A bar for a solve with ``description``, or None when there is no terminal to draw on."""
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
