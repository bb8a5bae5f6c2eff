"""A solve that remains says so at once, in one sentence, on standard error, before the solver loads."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from farkle_trainer.cli import app
from farkle_trainer.engine import gameplan
from farkle_trainer.engine.gameplan import Solve, notice, rounded, seconds, tables_for, to_solve
from farkle_trainer.engine.rules import PRESETS, Rules
from farkle_trainer.ui import progress as shown
from farkle_trainer.ui.progress import SolveBar, SolveLines, SolveReport, solving
from farkle_trainer.ui.terminal import InteractiveFrontend, PlainFrontend

#: These tests are about what is solved and kept: each keeps its tables in its own directory.
pytestmark = pytest.mark.own_table_cache

CLASSIC = PRESETS["classic"]
SENTENCE = re.compile(r"^Solving the game for these rules once \(about \d+ s\); later games start at once\.$")
runner = CliRunner()


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_sentence_and_its_estimate() -> None:
    small = Solve("game", CLASSIC, 1000, 0)
    large = Solve("game", CLASSIC.with_house_rules(three_farkle_penalty=1000), 10_000, 0)
    assert SENTENCE.match(notice((small,)))
    assert seconds(()) == 0.0
    # A game to 1,000 is mostly loading (and compiling, the first time); the penalty to 10,000
    # is most of a minute of sweeps on an idle machine.
    assert seconds((small,), busy=1.0) < gameplan.LOAD + gameplan.COMPILE + 1
    assert seconds((large,), busy=1.0) > 40 > 10 * (seconds((small,), busy=1.0) - gameplan.COMPILE)
    # Two tables load the solver once.
    assert seconds((small, large), busy=1.0) < seconds((small,), busy=1.0) + seconds((large,), busy=1.0)
    assert [rounded(x) for x in (0.2, 3.4, 12, 37, 95, 401)] == [1, 3, 10, 35, 100, 390]


def test_a_busy_machine_is_said_to_take_longer(monkeypatch: pytest.MonkeyPatch) -> None:
    large = (Solve("game", CLASSIC.with_house_rules(three_farkle_penalty=1000), 10_000, 0),)
    idle = seconds(large, busy=1.0)
    monkeypatch.setattr(gameplan.os, "cpu_count", lambda: 2)
    # The solve takes one core: one other busy core leaves it a core of its own ...
    monkeypatch.setattr(gameplan.os, "getloadavg", lambda: (1.5, 1.0, 1.0))
    assert seconds(large) == idle
    # ... six processes wanting two cores give it about a third of one.
    monkeypatch.setattr(gameplan.os, "getloadavg", lambda: (6.0, 4.0, 2.0))
    assert seconds(large) == pytest.approx(3 * idle)

    def unknown() -> tuple[float, float, float]:
        raise OSError("no load average here")

    monkeypatch.setattr(gameplan.os, "getloadavg", unknown)
    assert seconds(large) == idle


def test_a_table_at_hand_needs_no_sentence() -> None:
    # Classic to 10,000 ships with the package; classic to 1,150 does not, until it is solved.
    assert to_solve(tables_for(CLASSIC, 10_000)) == ()
    (missing,) = to_solve(tables_for(CLASSIC, 1150))
    assert (missing.kind, missing.target, missing.opening) == ("game", 1150, 0)


def test_plain_output_gets_a_line_every_few_seconds(capsys: pytest.CaptureFixture[str]) -> None:
    clock = Clock()
    lines = SolveLines(20.0, clock)
    for step in range(1, 13):
        clock.now += 1.0
        lines(step / 24)
    said = capsys.readouterr()
    assert said.out == ""
    shown_lines = said.err.splitlines()
    # After 5 s and 10 s, never sooner: at 5/24 and 10/24 done.
    assert len(shown_lines) == 2
    assert all(re.fullmatch(r"\.\.\. \d+% done, about \d+ s left", line) for line in shown_lines)
    assert shown_lines[0].startswith("... 20% done") and shown_lines[1].startswith("... 41% done")
    lines(1.0)
    assert capsys.readouterr().err == ""


def test_the_time_left_follows_the_estimate_then_the_pace() -> None:
    clock = Clock()
    pace = shown.Pace(30.0, clock)
    clock.now += 4.0  # compiling: nothing moves, the estimate counts down
    assert pace.left(0.0) == pytest.approx(26.0)
    pace.left(0.01)
    clock.now += 10.0
    # Half done in ten seconds since it moved: about ten more, whatever the estimate said.
    assert pace.left(0.51) == pytest.approx(10.0 * 0.49 / 0.5, rel=1e-6)
    assert shown.Pace(None, clock).left(0.0) is None
    late = shown.Pace(3.0, clock)
    clock.now += 5.0  # past the estimate with nothing moved: no countdown past zero
    assert late.left(0.0) is None


def test_the_bar_shows_the_estimate_from_the_start() -> None:
    clock = Clock()
    file = io.StringIO()
    console = Console(file=file, force_terminal=True, width=100, color_system=None)
    bar = SolveBar(console, shown.SOLVING, clock, estimate=40.0)
    bar(0.0)
    clock.now += 2.0
    bar(0.0)
    assert bar.left() == "0:00:38"
    bar.close()
    assert "Solving the game" in file.getvalue()


def test_the_sentence_is_said_once_whatever_starts(capsys: pytest.CaptureFixture[str]) -> None:
    report = SolveReport(None)
    table = Solve("game", CLASSIC, 1150, 0)
    report.starting(table)
    report.starting(Solve("solo", CLASSIC, 1150, 0))
    report(0.5)
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and SENTENCE.match(err[0])


def test_solving_says_it_at_once_on_standard_error(capsys: pytest.CaptureFixture[str]) -> None:
    plain = PlainFrontend(sys.stdin, io.StringIO())
    tables = tables_for(CLASSIC, 1150)
    with solving(plain, tables) as progress:
        # Said before anything is solved or loaded.
        assert SENTENCE.match(capsys.readouterr().err.strip())
        assert gameplan.watching() is progress
    assert gameplan.watching() is None
    with solving(plain, tables_for(CLASSIC, 10_000)):
        pass
    assert capsys.readouterr().err == ""


def test_a_terminal_gets_a_bar_and_json_gets_lines() -> None:
    console = Console(file=io.StringIO(), force_terminal=True, width=80)
    tables = tables_for(CLASSIC, 1150)
    with solving(InteractiveFrontend(console), tables) as progress:
        assert isinstance(progress, SolveReport) and isinstance(progress.shown, SolveBar)
    with solving(InteractiveFrontend(console), tables, quiet=True) as progress:
        assert isinstance(progress, SolveReport) and isinstance(progress.shown, SolveLines)


CUSTOM = """name = "notice-test"
[combinations]
straight = 2250
"""


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (["hint", "1", "5", "2", "--score", "500", "--opponent", "600", "--target", "1100"], ""),
        (["strategy", "--game", "--target", "1100", "--json"], ""),
        (["play", "--vs", "hard", "--target", "1100", "--seed", "1"], "q\n"),
        (["decide", "--kind", "solo", "--target", "1100", "--count", "1"], "q\n"),
    ],
    ids=["hint", "strategy", "play", "decide"],
)
def test_a_cold_solve_says_so_before_numpy_is_loaded(tmp_path: Path, args: list[str], stdin: str) -> None:
    rules = tmp_path / "custom.toml"
    rules.write_text(CUSTOM)
    env = {**os.environ, "FARKLE_TRAIN_HOME": str(tmp_path / "home")}
    env.pop("FARKLE_TRAIN_CACHE", None)
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "farkle_trainer", *args, "--rules", str(rules), "--plain"],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    lines = run.stderr.splitlines()
    said = [i for i, line in enumerate(lines) if SENTENCE.match(line)]
    numpy = [i for i, line in enumerate(lines) if re.search(r"\|\s*numpy$", line)]
    assert len(said) == 1 and numpy, run.stderr[-2000:]
    assert said[0] < numpy[0]
    assert "Solving" not in run.stdout


def test_json_output_stays_data_alone() -> None:
    result = runner.invoke(app, ["strategy", "--game", "--target", "1200", "--json"])
    assert result.exit_code == 0
    assert result.stdout.lstrip().startswith("{")
    assert SENTENCE.match(result.stderr.splitlines()[0])


def test_a_kept_table_that_fails_its_check_is_announced_as_it_is_solved(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from farkle_trainer.engine import game as gs
    from farkle_trainer.store.tables import cache_dir

    rules = Rules(name="announced", straight=2000)
    gs.solve_game(rules, 1000)
    (kept,) = cache_dir().glob("game-*.npz")
    kept.write_bytes(kept.read_bytes()[:-40])
    gs.clear_memory()
    plain = PlainFrontend(sys.stdin, io.StringIO())
    tables = tables_for(rules, 1000)
    assert to_solve(tables) == ()  # the file is there: nothing said up front
    with solving(plain, tables):
        gs.solve_game(rules, 1000)
    assert SENTENCE.match(capsys.readouterr().err.strip())
