"""What a person waiting for a solve sees: one sentence at once, then a bar or a line now and then.

A table that is kept answers at once, so nothing is shown. When a game must be solved, every
command says the same sentence (:func:`notice`) on standard error before the solver loads, with
the engine's estimate of how long it takes on this machine, as busy as it is now
(:func:`busyness`); then a terminal gets a bar (after a second, so a quick solve does not flash
one, and cleared when it ends), and plain output, a pipe or ``--json`` a line on standard error
every few seconds, so what a pipe or a file receives on standard output never holds any of it.
Both keep coming whatever the solver is doing: a thread of their own looks at the solve every
``TICK`` seconds, so a step that reports nothing on the way (loading, and the compiled loop's
first compilation, shown as the solve's first step) still gets its bar and its lines.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from farkle_trainer.engine.gameplan import Estimate, Solve, Step, to_solve

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, Task, TaskID
    from rich.text import Text

    from farkle_trainer.engine.solver import Progress as TurnProgress
    from farkle_trainer.engine.tables import Tables
    from farkle_trainer.ui.terminal import Terminal

#: A solve shorter than this shows no bar.
DELAY = 1.0
#: The bar's width where the screen has room (rich's own default).
BAR_WIDTH = 40
#: Seconds between two lines of a solve's progress on standard error.
EVERY = 5.0
#: Seconds between two looks at a solve, whatever it reports.
TICK = 0.1
#: What the bar of a game's solve says, and what it says while the solver is compiled first.
SOLVING = "Solving the game"
COMPILING = "Compiling the solver"
#: What a line says while the solver is compiled first, in place of how much is done.
COMPILING_LINE = "compiling the solver first"
#: A step that reports nothing on the way (the compiler) is counted done as its time passes, up to
#: this share of the time the estimate gave it: never all done before it ends.
CREDIT = 0.9
#: No pace is read from less of the work than this: a first small step says nothing of the rest.
MIN_WORK = 0.05
#: Until this share is done, the time left leans on the estimate more than on the pace so far.
SETTLED = 0.25
#: The time left is never said to be more than this many times the estimate said before the solve.
LIMIT = 4.0

Fraction = Callable[[float], None]
#: The engine's estimate of how long solving some tables takes here.
Planner = Callable[[tuple[Solve, ...]], Estimate]


def busyness() -> float:
    """How many times slower than on an idle machine a solve runs here now: the solve takes one
    core, so it slows only when the other work wants more cores than there are."""
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # not on every system
        return 1.0
    return max(1.0, load / (os.cpu_count() or 1))


def rounded(seconds: float) -> int:
    """A wait as people say it: to the second below ten, then to five, ten or thirty seconds."""
    for below, step in ((10, 1), (60, 5), (300, 10)):
        if seconds < below:
            return max(1, round(seconds / step) * step)
    return round(seconds / 30) * 30


def notice(seconds: float) -> str:
    """The one sentence every command says before a solve that takes about ``seconds``."""
    return f"Solving the game for these rules once (about {rounded(seconds)} s); later games start at once."


def bar_width(screen_width: int, description: str) -> int:
    """The bar's width that leaves room on the line for everything else, so a narrow screen
    gets a shorter bar rather than a time cut to "0:0…"."""
    # The description, "100%", "about", "0:00:00" and "left", with a space between each column.
    rest = len(description) + len("100%") + len("about") + len("0:00:00") + len("left") + 5
    return max(1, min(BAR_WIDTH, screen_width - rest))


class Pace:
    """About how many seconds a solve still takes, from the share of its work done (each step
    weighed as the estimate weighed it) and the time it has taken so far.

    Until ``MIN_WORK`` is done there is no pace to read, only the estimate made before the solve:
    the work it gives what is left, counting down while nothing moves (a step such as the
    compiler's reports nothing on the way). From then on the pace of all the work so far (never
    of its first step alone) weighs more and more, wholly from ``SETTLED`` on; and the figure is
    never more than ``LIMIT`` times the estimate. An estimate spent with nothing moving gives no
    figure rather than a countdown past zero; without an estimate, the pace alone, once read.
    """

    def __init__(self, estimate: float | None, clock: Callable[[], float] = time.monotonic):
        self.estimate = estimate
        self.clock = clock
        self.started = clock()
        self.done = 0.0
        self.moved = self.started  # when the work done last grew

    def left(self, fraction: float) -> float | None:
        """The seconds left with ``fraction`` of the work done (None: nothing to go by)."""
        now = self.clock()
        if fraction > self.done:
            self.done = min(1.0, fraction)
            self.moved = now
        done = self.done
        planned = None
        if self.estimate is not None:
            planned = self.estimate * (1.0 - done) - (now - self.moved)
            if planned <= 0.0:
                planned = None
        elapsed = now - self.started
        if done < MIN_WORK or elapsed <= 0.0:
            return planned
        paced = elapsed * (1.0 - done) / done
        if planned is None:
            figure = paced
        else:
            weight = min(1.0, done / SETTLED)
            figure = weight * paced + (1.0 - weight) * planned
        return figure if self.estimate is None else min(figure, LIMIT * self.estimate)


def _clock_text(left: float | None) -> str:
    if left is None:
        return "-:--:--"
    whole = round(left)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


class SolveBar:
    """The callback a solver reports its fraction done to; draws a bar after ``DELAY``.

    ``doing`` changes what the bar says for a step such as the compiler's; :meth:`tick`, called
    now and then whatever the solver reports, opens the bar on time and keeps it current.
    """

    def __init__(
        self,
        console: Console,
        description: str,
        clock: Callable[[], float] = time.monotonic,
        estimate: float | None = None,
    ):
        self.console = console
        self.description = description
        self.solving = description
        self.clock = clock
        self.started = clock()
        self.pace = Pace(estimate, clock)
        self.fraction = 0.0
        self.bar: Progress | None = None
        self.task: TaskID | None = None

    def __call__(self, fraction: float) -> None:
        self.fraction = max(self.fraction, fraction)
        self.pace.left(self.fraction)  # the work done, timed as it moves
        self.tick()

    def doing(self, step: Step) -> None:
        self.description = COMPILING if step is Step.COMPILING else self.solving
        if self.bar is not None and self.task is not None:
            self.bar.update(self.task, description=self.description)

    def tick(self) -> None:
        if self.bar is None:
            if self.fraction >= 1.0 or self.clock() - self.started < DELAY:
                return
            self._open()
        assert self.bar is not None and self.task is not None
        self.bar.update(self.task, completed=self.fraction)

    def left(self) -> str:
        """The time left as the bar shows it (worked out at each redraw, so it counts down)."""
        return _clock_text(self.pace.left(self.fraction))

    def _open(self) -> None:
        from rich.progress import BarColumn, Progress, ProgressColumn, TaskProgressColumn, TextColumn
        from rich.table import Column

        bar = self

        class TimeLeft(ProgressColumn):
            def render(self, task: Task) -> Text:
                from rich.text import Text

                return Text(bar.left(), style="progress.remaining")

        # Room for the longer of its two descriptions, so the bar stays put when it changes.
        widest = max(self.solving, COMPILING, key=len)
        self.bar = Progress(
            TextColumn("{task.description}", table_column=Column(min_width=len(widest))),
            BarColumn(bar_width=bar_width(self.console.width, widest)),
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
    a pipe and ``--json``: "... 40% done, about 20 s left", or what a step such as the
    compiler's is doing ("... compiling the solver first, about 40 s left")."""

    def __init__(self, estimate: float | None, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self.last = clock()
        self.pace = Pace(estimate, clock)
        self.fraction = 0.0
        self.step = Step.SOLVING

    def __call__(self, fraction: float) -> None:
        self.fraction = max(self.fraction, fraction)
        self.tick()

    def doing(self, step: Step) -> None:
        self.step = step

    def tick(self) -> None:
        left = self.pace.left(self.fraction)
        now = self.clock()
        if self.fraction >= 1.0 or now - self.last < EVERY:
            return
        self.last = now
        about = "" if left is None else f", about {rounded(left)} s left"
        what = COMPILING_LINE if self.step is Step.COMPILING else f"{int(100 * self.fraction)}% done"
        say(f"... {what}{about}")

    def close(self) -> None:
        return None


def say(line: str) -> None:
    """One line on standard error, now (looked up each time: a bar on screen redirects it);
    on a terminal narrower than the line, wrapped between words. Written at once, so a line
    another thread says never lands inside it."""
    stream = sys.stderr
    text = line
    if stream.isatty():
        import shutil
        import textwrap

        text = textwrap.fill(line, max(20, shutil.get_terminal_size().columns))
    stream.write(text + "\n")
    stream.flush()


class SolveReport:
    """What a command shows while the game solver may work: the sentence once, when the first
    solve is known (or starts unforeseen), then a bar on ``console`` or lines on standard error.

    The solver tells the fraction of its tables done, and when the compiled loop is compiled
    first; what is shown is the share of all the work done, each step weighed as the estimate
    weighed it (loading, compiling, the tables), so the time left is read from work done. The
    compiler tells nothing on the way: it is counted done as the time the estimate gave it passes
    (up to ``CREDIT`` of it), so the bar moves and a slow compiler slows the pace only once it
    overruns.
    """

    def __init__(self, console: Console | None, plan: Planner, clock: Callable[[], float] = time.monotonic):
        self.console = console
        self.planner = plan
        self.clock = clock
        self.told = False
        self.shown: SolveBar | SolveLines | None = None
        self.plan = Estimate()
        self.step = Step.SOLVING
        self.since = clock()  # when the step began
        self.fraction = 0.0
        self.set_up = False  # the solver loaded (and compiled): the tables' work has begun
        # The solver's thread and the one that ticks both show what they know.
        self.lock = threading.Lock()

    def tell(self, solves: tuple[Solve, ...]) -> None:
        """Say the sentence for ``solves`` (once) and start the clock the estimates run on."""
        with self.lock:
            if self.told or not solves:
                return
            self.told = True
            # One estimate for the sentence and the bar.
            self.plan = self.planner(solves)
            total = self.plan.total
            say(notice(total))
            if self.console is not None:
                self.shown = SolveBar(self.console, SOLVING, self.clock, total)
            else:
                self.shown = SolveLines(total, self.clock)
            self.shown.doing(self.step)

    def starting(self, solve: Solve) -> None:
        self.tell((solve,))

    def doing(self, step: Step) -> None:
        with self.lock:
            if self.step is Step.COMPILING and step is Step.SOLVING:
                self.set_up = True
            self.step = step
            self.since = self.clock()
            if self.shown is not None:
                self.shown.doing(step)
                self.shown(self.done())

    def __call__(self, fraction: float) -> None:
        with self.lock:
            self.fraction = max(self.fraction, fraction)
            if fraction > 0.0 and self.step is Step.SOLVING:
                self.set_up = True
            if self.shown is not None:
                self.shown(self.done())

    def done(self) -> float:
        """The share of the work done: loading and compiling, then the tables' fraction."""
        if self.fraction >= 1.0:
            return 1.0
        plan = self.plan
        if plan.total <= 0.0:
            return self.fraction
        if self.step is Step.COMPILING:
            spent = self.clock() - self.since
            work = plan.loading + min(CREDIT * plan.compiling, spent)
        elif self.set_up:
            work = plan.loading + plan.compiling + self.fraction * plan.solving
        else:
            work = 0.0
        return min(1.0, work / plan.total)

    def tick(self) -> None:
        with self.lock:
            if self.shown is not None:
                self.shown(self.done())

    def close(self) -> None:
        with self.lock:
            if self.shown is not None:
                self.shown.close()


@contextmanager
def ticking(tick: Callable[[], None], every: float = TICK) -> Iterator[None]:
    """Call ``tick`` every ``every`` seconds on a thread of its own while the block runs."""
    stop = threading.Event()

    def run() -> None:
        while not stop.wait(every):
            try:
                tick()
            except OSError:  # standard error closed, or its reader gone: nothing more to show
                return

    thread = threading.Thread(target=run, name="farkle-progress", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


@contextmanager
def solving(
    out: Terminal | None, tables: Tables, needs: tuple[Solve, ...] = (), *, quiet: bool = False
) -> Iterator[Fraction]:
    """Show the solves of ``tables`` that start inside the block; the callback told the fraction done.

    ``needs``: what the command needs, if it knows (the sentence is then said at once when one
    must be solved); any other solve is announced as it starts. A bar on a terminal, lines on
    standard error with plain output, no terminal (``out`` None) or ``quiet`` (``--json``), kept
    current every ``TICK`` seconds whatever the solver reports. The solver's notes (the compiled
    loop could not be used or kept, and why) come out as lines on standard error too. A
    ``solving`` inside another takes over until it ends. The machine's load is read once, as
    the block starts.
    """
    from farkle_trainer.ui.terminal import InteractiveFrontend

    console = out.console if isinstance(out, InteractiveFrontend) and not quiet else None
    busy = busyness()
    report = SolveReport(console, lambda solves: tables.estimate(solves, busy))
    report.tell(to_solve(needs))
    try:
        with tables.watched(report, say), ticking(report.tick):
            yield report
    finally:
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
