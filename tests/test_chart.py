"""Line charts in the terminal: axes, labelled steps, a legend, a reference line, and plotext
loaded only when one is drawn."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest
from rich.console import Console

from farkle_trainer.ui.chart import (
    MARKS,
    REFERENCE_MARK,
    LineChart,
    Reference,
    Series,
    chart_rich,
    chart_text,
    percent_ticks,
    plot,
)

WEEKS = ("Nov 2", "Nov 9", "Nov 16")
CHART = LineChart(
    (
        Series("Scoring: worth", ((0, 1.0), (1, 0.5), (2, 0.0))),
        Series("Decisions: keep", ((0, 0.0), (2, 1.0))),
    ),
    WEEKS,
    0.0,
    1.0,
    percent_ticks(),
    Reference(0.75, "three in four right"),
)
ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def row_of(lines: list[str], tick: str) -> str:
    """The row of the plot that the y axis labels ``tick``."""
    (row,) = [line for line in lines if line.strip().startswith((f"{tick}┤", f"{tick}┼"))]
    return row


def test_points_sit_at_their_values_on_real_axes() -> None:
    lines = plot(CHART, 60, 13, colour=False).splitlines()
    assert not any(ESCAPE.search(line) for line in lines)
    worth, keep = MARKS[0], MARKS[1]
    top, bottom = row_of(lines, "100%"), row_of(lines, "0%")
    # Scoring: worth goes from 100% down to 0%, Decisions: keep from 0% up to 100%.
    assert top.index(worth) < top.index(keep)
    assert bottom.index(keep) < bottom.index(worth)
    middle = row_of(lines, "50%")
    assert worth in middle and keep not in middle  # keep has no point in the second week
    # The reference line runs across the row of its value, under the series.
    assert REFERENCE_MARK * 10 in row_of(lines, "75%")
    # A frame on the four sides, and each step named under its place in order.
    assert lines[0].lstrip().startswith("┌") and lines[-2].lstrip().startswith("└")
    labels = lines[-1]
    assert [labels.index(w) for w in WEEKS] == sorted(labels.index(w) for w in WEEKS)
    ticks = lines[-2]
    for week in WEEKS:
        # Each label is centred under its tick on the bottom axis.
        at = labels.index(week) + len(week) // 2
        assert "┬" in ticks[at - 2 : at + 3]


def test_the_text_has_a_legend_and_colour_only_when_asked() -> None:
    text = chart_text(CHART, 60, 13)
    assert text.splitlines()[-3:] == [
        f"  {MARKS[0]} Scoring: worth",
        f"  {MARKS[1]} Decisions: keep",
        f"  {REFERENCE_MARK * 2} three in four right",
    ]
    coloured = chart_text(CHART, 60, 13, colour=True)
    assert "\x1b[38;5;33m" in coloured and "\x1b[38;5;208m" in coloured
    assert ESCAPE.sub("", coloured).splitlines()[:-3] == text.splitlines()[:-3]


def test_a_chart_without_a_reference_or_with_an_empty_series() -> None:
    chart = LineChart(
        (Series("a", ((0, 0.5), (1, 0.25))), Series("b", ())), ("w1", "w2"), 0.0, 1.0, percent_ticks(50)
    )
    text = chart_text(chart, 40, 10)
    assert REFERENCE_MARK not in text
    assert text.splitlines()[-2:] == [f"  {MARKS[0]} a", f"  {MARKS[1]} b"]
    assert MARKS[1] not in "\n".join(text.splitlines()[:-2])


@pytest.mark.parametrize("width", [50, 80])
def test_on_a_terminal_it_is_drawn_at_the_consoles_width(width: int) -> None:
    console = Console(width=width, file=io.StringIO(), color_system="256", record=True)
    console.print(chart_rich(CHART, 12))
    shown = console.export_text().splitlines()
    assert max(len(line.rstrip()) for line in shown) == width
    assert shown[-3:] == ["  ● Scoring: worth", "  ■ Decisions: keep", "  ┈┈ three in four right"]
    assert "\x1b[38;5;33m" in console.file.getvalue()  # type: ignore[attr-defined]


def test_too_narrow_for_a_chart_draws_none() -> None:
    console = Console(width=30, file=io.StringIO(), color_system=None, record=True)
    console.print(chart_rich(CHART))
    assert console.export_text().strip() == ""


def test_plotext_loads_only_when_a_chart_is_drawn() -> None:
    check = (
        "import sys, farkle_trainer.ui.chart, farkle_trainer.ui.views.records, farkle_trainer.cli; "
        "print('plotext' in sys.modules)"
    )
    loaded = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "False"
    drawing = (
        "import sys; from farkle_trainer.ui.chart import *; "
        "plot(LineChart((Series('a', ((0, 1.0),)),), ('w',), 0.0, 1.0, percent_ticks()), 40, 8); "
        "print('plotext' in sys.modules)"
    )
    assert (
        subprocess.run(
            [sys.executable, "-c", drawing], capture_output=True, text=True, check=True
        ).stdout.strip()
        == "True"
    )
