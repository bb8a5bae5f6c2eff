"""The in-game hint and ``strategy --game`` on narrow terminals: laid out for the width, every
word and number whole."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from prompt_toolkit.input import PipeInput
from prompt_toolkit.output import DummyOutput
from rich.console import Console
from typer.testing import CliRunner

import farkle_trainer.cli.daily as daily_cli
import farkle_trainer.cli.engine as engine_cli
import farkle_trainer.cli.play as play_cli
from farkle_trainer.cli import app
from farkle_trainer.engine.gamehint import game_strategy
from farkle_trainer.engine.plays import hint
from farkle_trainer.engine.rules import PRESETS
from farkle_trainer.engine.tables import Tables
from farkle_trainer.ui.terminal import InteractiveFrontend
from farkle_trainer.ui.views import engine as engine_view

runner = CliRunner()
ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def terminal(
    pipe: PipeInput, width: int, colour: str | None = None
) -> tuple[InteractiveFrontend, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=colour)  # type: ignore[arg-type]
    return InteractiveFrontend(console, prompt_input=pipe, prompt_output=DummyOutput()), out


def words(text: str) -> set[str]:
    return set(text.split())


@pytest.fixture
def at_noon(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(daily_cli, "clock", lambda: datetime(2026, 11, 29, 12, 0, tzinfo=UTC))
    yield


@pytest.mark.parametrize("width", [20, 60])
def test_the_daily_hint_is_laid_out_for_the_width(
    tables: Tables, pipe: PipeInput, monkeypatch: pytest.MonkeyPatch, at_noon: None, width: int
) -> None:
    front, out = terminal(pipe, width)
    monkeypatch.setattr(daily_cli, "open_terminal", lambda plain: front)
    pipe.send_text("h\r\x04")
    result = runner.invoke(app, ["daily", "--date", "2026-11-01"])
    assert result.exit_code == 0, result.output
    shown = out.getvalue()
    section = shown[shown.index("Hint:") : shown.index("Game saved")]
    assert max(len(line) for line in section.splitlines()) <= width
    # A line cut short goes on under its own start, indented: only a new line starts at the edge.
    starts = ("Hint:", "Roll:", "Best play:", "Plays, best first", "? ")
    assert all(line.startswith((" ", *starts)) for line in section.splitlines()), section
    assert any(line.startswith("    bank 1,000.00") for line in section.splitlines())
    h = hint(tables, (5, 3, 3, 5, 5, 5), 0, PRESETS["classic"])
    # Every word and number is whole: none is a piece of one cut at the edge of the screen.
    assert words(section) <= words("Hint: " + engine_view.hint_text(h)) | words(
        engine_view.hint_text(h, width)
    )
    assert "1,000.00" in section and "631.81 points" in " ".join(section.split())


@pytest.mark.parametrize("width", [20, 60])
def test_the_coach_in_a_whole_game_is_laid_out_for_the_width(
    pipe: PipeInput, monkeypatch: pytest.MonkeyPatch, width: int
) -> None:
    front, out = terminal(pipe, width)
    monkeypatch.setattr(play_cli, "open_terminal", lambda plain: front)
    monkeypatch.setattr(play_cli, "PAUSE_SECONDS", 0.0)
    pipe.send_text("1\rh\r\x04")
    result = runner.invoke(app, ["play", "--vs", "hard", "--seed", "3", "--target", "1000"])
    assert result.exit_code == 0, result.output
    shown = out.getvalue()
    section = shown[shown.index("Coach (") : shown.index("Game saved")]
    lines = section.splitlines()
    assert max(len(line) for line in lines) <= width
    # A line cut short goes on under its own start, indented: only a new line starts at the edge.
    assert all(line.startswith((" ", "Coach (", "? ")) for line in lines), section
    # A loss or a chance never loses its unit to the next line, nor a number its digits.
    assert not any(line.strip().startswith(("pp", "%")) for line in lines)
    flat = " ".join(section.split())
    assert "with 1 set aside: bank " in flat and re.search(r"roll 5 dice \d+\.\d\d%", flat)
    for token in words(section):
        assert not re.fullmatch(r"\d+\.\d?|\.\d+%?", token), token


def test_strategy_for_a_game_is_one_table_at_60_columns(
    tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = io.StringIO()
    front = InteractiveFrontend(Console(file=out, width=60, color_system="truecolor"))
    monkeypatch.setattr(engine_cli, "open_terminal", lambda plain: front)
    result = runner.invoke(app, ["strategy", "--game"])
    assert result.exit_code == 0, result.output
    coloured = out.getvalue()
    shown = ESCAPE.sub("", coloured).splitlines()
    assert max(len(line) for line in shown) <= 60
    # The heat map in colour, one table: the scores in thousands, said once, and every chance in it.
    assert "48;2;" in coloured
    s = game_strategy(tables, PRESETS["classic"], 10_000)
    assert s.grid.scores == tuple(range(0, 10_000, 1000))
    labels = ["0", *(f"{x // 1000}k" for x in s.grid.scores[1:])]
    headings = [line for line in shown if line.split() == labels]
    assert len(headings) == 1 and sum("Scores in thousands: 1k is 1,000." in line for line in shown) == 1
    start = shown.index(headings[0])
    rows = [line.split() for line in shown[start + 1 : start + 1 + len(labels)]]
    assert rows == [
        [label, *(f"{100 * v:.1f}" for v in chances)]
        for label, chances in zip(labels, s.grid.chances, strict=True)
    ]
    assert not any(line.split()[:1] == ["9k"] for line in shown[start + 1 + len(labels) :])
    # Not the plain lines a table too wide gives way to: the grid's words are said once.
    assert sum("Chance (%) that the player about to roll wins" in line for line in shown) == 1
    # The thresholds fit too, as a table, their headings on two lines.
    assert any("┃    3,000 behind ┃     3,000 ahead ┃" in line for line in shown)


@pytest.mark.parametrize(("width", "step"), [(20, 1000), (40, 500)])
def test_a_grid_too_wide_even_in_thousands_is_cut_into_blocks(
    tables: Tables, monkeypatch: pytest.MonkeyPatch, width: int, step: int
) -> None:
    out = io.StringIO()
    front = InteractiveFrontend(Console(file=out, width=width, color_system=None))
    monkeypatch.setattr(engine_cli, "open_terminal", lambda plain: front)
    result = runner.invoke(app, ["strategy", "--game", "--step", str(step)])
    assert result.exit_code == 0, result.output
    shown = out.getvalue().splitlines()
    assert max(len(line) for line in shown) <= width
    s = game_strategy(tables, PRESETS["classic"], 10_000, step=step)
    label = {x: "0" if x == 0 else f"{x / 1000:g}k" for x in s.grid.scores}
    # Every chance once, in its row (own score) and under its column (the opponent's).
    cells: dict[tuple[str, str], str] = {}
    columns: list[str] = []
    for line in shown:
        words = line.split()
        if words and all(w in label.values() for w in words):
            columns = words  # a block's headings
        elif words and words[0] in label.values() and columns and len(words) == len(columns) + 1:
            for column, value in zip(columns, words[1:], strict=True):
                assert (words[0], column) not in cells
                cells[(words[0], column)] = value
    assert cells == {
        (label[own], label[other]): f"{100 * v:.1f}"
        for own, chances in zip(s.grid.scores, s.grid.chances, strict=True)
        for other, v in zip(s.grid.scores, chances, strict=True)
    }
