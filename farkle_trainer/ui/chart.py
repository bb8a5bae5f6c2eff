"""Line charts in the terminal: series of values over named steps (weeks, turns), drawn by
plotext with real axes, under a legend and an optional reference line (mastery, an even chance).

A chart is a value (:class:`LineChart`). :func:`chart_text` draws it as text, with colour codes
or without; :func:`chart_rich` gives a rich renderable that draws it at the console's width.
plotext is imported only when a chart is drawn, so a command that shows none never loads it.
A screen reader cannot read a plot: plain views show the same figures as a table instead.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from datetime import date

    from rich.console import Console, ConsoleOptions, RenderableType, RenderResult

#: Terminal colours (of the 256) that read on dark and light screens alike, one a series.
COLOURS = (33, 208, 40, 163, 44, 196, 136, 99)
#: The mark of each series' points, so that series differ without colour too.
MARKS = ("●", "■", "▲", "◆", "✚", "★", "▼", "✖")
REFERENCE_COLOUR = 244
REFERENCE_MARK = "┈"
HEIGHT = 16
#: Narrower than this, axes and labels leave no room for the lines: no chart is drawn.
MIN_WIDTH = 40
MAX_WIDTH = 100


@dataclass(frozen=True)
class Series:
    """One line: its name in the legend, and its points as (step, value); a step with no value
    is simply not among them."""

    label: str
    points: tuple[tuple[int, float], ...]


@dataclass(frozen=True)
class Reference:
    """A level drawn across the whole chart, named in the legend: ``Reference(0.9, "mastered")``."""

    value: float
    label: str


@dataclass(frozen=True)
class LineChart:
    """Series over steps 0, 1, ... named by ``steps``, with values from ``low`` to ``high``
    read on the axis at each of ``ticks`` (value, label)."""

    series: tuple[Series, ...]
    steps: tuple[str, ...]
    low: float
    high: float
    ticks: tuple[tuple[float, str], ...]
    reference: Reference | None = None


def percent_ticks(step: int = 25) -> tuple[tuple[float, str], ...]:
    """Ticks for a share from 0 to 1, read as percentages: ``(0.0, "0%") ... (1.0, "100%")``.

    >>> percent_ticks(50)
    ((0.0, '0%'), (0.5, '50%'), (1.0, '100%'))
    """
    return tuple((n / 100, f"{n}%") for n in range(0, 101, step))


MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def week_label(day: date) -> str:
    """``Nov 23``: a step of a chart by week, named by the Monday the week starts on."""
    return f"{MONTHS[day.month - 1]} {day.day}"


def colour_of(n: int) -> int:
    return COLOURS[n % len(COLOURS)]


def mark_of(n: int) -> str:
    return MARKS[n % len(MARKS)]


def legend_entries(chart: LineChart) -> list[tuple[str, int, str]]:
    """(mark, colour, label) for each series, then the reference line."""
    entries = [(mark_of(n), colour_of(n), s.label) for n, s in enumerate(chart.series)]
    if chart.reference is not None:
        entries.append((REFERENCE_MARK * 2, REFERENCE_COLOUR, chart.reference.label))
    return entries


def plot(chart: LineChart, width: int, height: int = HEIGHT, *, colour: bool = True) -> str:
    """The axes and the lines, ``width`` by ``height`` cells (colour codes unless ``colour`` is off)."""
    import plotext

    fig = plotext.figure
    fig.clear()
    fig.theme("simple" if colour else "colorless")
    fig.plot_size(width, height)
    # Half a step of room at either end, so the first and last points are off the frame.
    edges = [-0.25, len(chart.steps) - 0.75]
    if chart.reference is not None:
        # Drawn first, so the series are drawn over it.
        mark = plotext.marker(REFERENCE_MARK, pixel=REFERENCE_COLOUR)
        fig.draw(fig.signal(edges, [chart.reference.value] * 2, marker=mark).lines())
    for n, series in enumerate(chart.series):
        if not series.points:
            continue
        xs = [float(step) for step, _ in series.points]
        ys = [value for _, value in series.points]
        fig.draw(fig.signal(xs, ys, marker=plotext.marker("braille", pixel=colour_of(n))).lines())
        fig.draw(fig.signal(xs, ys, marker=plotext.marker(mark_of(n), pixel=colour_of(n))))
    labelled = labelled_steps(chart.steps, width)
    fig.ruler("x").ticks(labelled, [chart.steps[n] for n in labelled])
    fig.ruler("x").lim(*edges)
    fig.ruler("y").lim(chart.low, chart.high)
    fig.ruler("y").ticks([value for value, _ in chart.ticks], [label for _, label in chart.ticks])
    fig.legend(False)
    drawn: str = fig.build().string().rstrip("\n")
    fig.clear()
    return drawn if colour else plotext.uncolorize(drawn)


#: Cells the y axis and its labels take from a plot's width, with the frame.
AXIS_CELLS = 8


def labelled_steps(steps: tuple[str, ...], width: int) -> list[int]:
    """The steps that get a label under the x axis: every one where they all fit side by side,
    else every second, third, ... from the first, so that no two labels run into each other
    (the last is labelled too where it has room).

    >>> labelled_steps(tuple(str(n) for n in range(1, 41)), 60)
    [0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39]
    >>> labelled_steps(("1", "2", "3", "end"), 60)
    [0, 1, 2, 3]
    """
    if not steps:
        return []
    cell = max(1, width - AXIS_CELLS) / len(steps)
    label = max(len(step) for step in steps) + 1
    every = max(1, math.ceil(label / cell))
    chosen = list(range(0, len(steps), every))
    last = len(steps) - 1
    if chosen[-1] != last and (last - chosen[-1]) * cell >= label:
        chosen.append(last)
    return chosen


def chart_text(chart: LineChart, width: int, height: int = HEIGHT, *, colour: bool = False) -> str:
    """The chart and, under it, its legend: a line a series (and one for the reference)."""
    legend = [f"  {mark} {label}" for mark, _, label in legend_entries(chart)]
    return "\n".join([plot(chart, width, height, colour=colour), *legend])


class _RichChart:
    """Drawn when rich renders it, at the console's width (up to :data:`MAX_WIDTH`); narrower
    than :data:`MIN_WIDTH`, the ``narrow`` text of that width instead, if any."""

    def __init__(self, chart: LineChart, height: int, narrow: Callable[[int], str] | None) -> None:
        self.chart = chart
        self.height = height
        self.narrow = narrow

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.style import Style
        from rich.text import Text

        width = min(options.max_width, MAX_WIDTH)
        if width < MIN_WIDTH:
            if self.narrow is not None:
                from farkle_trainer.ui.views.fit import wrap

                for line in self.narrow(options.max_width).split("\n"):
                    yield from wrap(Text(line), options.max_width)
            return
        for line in plot(self.chart, width, self.height).split("\n"):
            yield Text.from_ansi(line, no_wrap=True, overflow="crop")
        for mark, colour, label in legend_entries(self.chart):
            yield Text.assemble("  ", (mark, Style(color=f"color({colour})")), f" {label}")


def chart_rich(
    chart: LineChart, height: int = HEIGHT, *, narrow: Callable[[int], str] | None = None
) -> RenderableType:
    """The chart with its legend, drawn in colour at the console's width; on a console
    narrower than :data:`MIN_WIDTH`, the ``narrow`` text for that width (the same figures as
    a table, say), or nothing."""
    return _RichChart(chart, height, narrow)
