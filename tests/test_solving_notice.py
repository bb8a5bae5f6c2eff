"""A solve that remains says so at once, in one sentence, on standard error, before the solver loads."""

from __future__ import annotations

import contextlib
import io
import math
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from farkle_trainer.cli import app
from farkle_trainer.engine import gameplan
from farkle_trainer.engine.gameplan import Solve, Step, to_solve
from farkle_trainer.engine.rules import PRESETS, Rules
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.tables import disk_tables
from farkle_trainer.ui import progress as shown
from farkle_trainer.ui.progress import SolveBar, SolveLines, SolveReport, notice, rounded, solving
from farkle_trainer.ui.terminal import InteractiveFrontend, PlainFrontend

#: These tests are about what is solved and kept: each keeps its tables in its own directory.
pytestmark = pytest.mark.own_table_cache

CLASSIC = PRESETS["classic"]
SENTENCE = re.compile(r"^Solving the game for these rules once \(about \d+ s\); later games start at once\.$")
runner = CliRunner()


@pytest.fixture
def tables() -> Tables:
    """A command's tables, kept in the test's own data directory."""
    return Tables(disk_tables())


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_sentence_and_its_estimate(tables: Tables) -> None:
    small = Solve("game", CLASSIC, 1000, 0)
    large = Solve("game", CLASSIC.with_house_rules(three_farkle_penalty=1000), 10_000, 0)

    def seconds(solves: tuple[Solve, ...]) -> float:
        return tables.estimate(solves).total

    assert SENTENCE.match(notice(seconds((small,))))
    assert seconds(()) == 0.0
    # A game to 1,000 is mostly loading (and compiling, the first time); the penalty to 10,000
    # is most of a minute of sweeps on an idle machine.
    assert seconds((small,)) < gameplan.LOAD + gameplan.COMPILE + 1
    assert seconds((large,)) > 40 > 10 * (seconds((small,)) - gameplan.COMPILE)
    # Two tables load the solver once.
    assert seconds((small, large)) < seconds((small,)) + seconds((large,))
    assert [rounded(x) for x in (0.2, 3.4, 12, 37, 95, 401)] == [1, 3, 10, 35, 100, 390]


def test_a_busy_machine_is_said_to_take_longer(
    tables: Tables, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    large = (Solve("game", CLASSIC.with_house_rules(three_farkle_penalty=1000), 10_000, 0),)
    idle = tables.estimate(large).total
    assert tables.estimate(large, busy=3.0).total == pytest.approx(3 * idle)
    monkeypatch.setattr(shown.os, "cpu_count", lambda: 2)
    # The solve takes one core: one other busy core leaves it a core of its own ...
    monkeypatch.setattr(shown.os, "getloadavg", lambda: (1.5, 1.0, 1.0))
    assert shown.busyness() == 1.0
    # ... six processes wanting two cores give it about a third of one.
    monkeypatch.setattr(shown.os, "getloadavg", lambda: (6.0, 4.0, 2.0))
    assert shown.busyness() == pytest.approx(3.0)
    with solving(None, tables, large):
        pass
    assert f"(about {rounded(3 * idle)} s)" in capsys.readouterr().err

    def unknown() -> tuple[float, float, float]:
        raise OSError("no load average here")

    monkeypatch.setattr(shown.os, "getloadavg", unknown)
    assert shown.busyness() == 1.0


def test_a_table_at_hand_needs_no_sentence(tables: Tables) -> None:
    # Classic to 10,000 ships with the package; classic to 1,150 does not, until it is solved.
    assert to_solve(tables.plan(CLASSIC, 10_000)) == ()
    (missing,) = to_solve(tables.plan(CLASSIC, 1150))
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


def test_the_time_left_follows_the_estimate_then_the_pace_of_all_the_work() -> None:
    clock = Clock()
    pace = shown.Pace(30.0, clock)
    clock.now += 4.0  # compiling: nothing moves, the estimate counts down
    assert pace.left(0.0) == pytest.approx(26.0)
    # Too little done to read a pace from: the estimate's own figure for the work left.
    assert pace.left(0.01) == pytest.approx(30.0 * 0.99)
    clock.now += 2.0
    # A tenth done in six seconds: the pace says 54 more, the estimate 27; a tenth is 0.4 of
    # the way to trusting the pace alone, so 0.4 * 54 + 0.6 * 27.
    assert pace.left(0.1) == pytest.approx(0.4 * 54.0 + 0.6 * 27.0)
    clock.now += 14.0
    # Half done in twenty seconds in all: about twenty more, whatever the estimate said.
    assert pace.left(0.5) == pytest.approx(20.0)
    assert shown.Pace(None, clock).left(0.0) is None
    late = shown.Pace(3.0, clock)
    clock.now += 5.0  # past the estimate with nothing moved: no countdown past zero
    assert late.left(0.0) is None
    # Without an estimate, the pace alone once there is one.
    alone = shown.Pace(None, clock)
    clock.now += 3.0
    assert alone.left(0.02) is None and alone.left(0.2) == pytest.approx(12.0)


def test_a_first_sliver_after_a_long_wait_says_nothing_absurd(capsys: pytest.CaptureFixture[str]) -> None:
    # A penalty solve said "about 45 s"; its first 8% came at once (the game without the penalty
    # was at hand), then the compiler ran for 16 s with nothing moving, then the sweeps' first
    # sliver: a pace read from that sliver alone said 346,050 s.
    clock = Clock()
    lines = SolveLines(45.0, clock)
    clock.now += 0.9
    lines(0.08)
    while clock.now < 116.9:
        clock.now += 0.1
        lines(0.08)
    lines(0.0800001)
    clock.now += 5.0
    lines(0.0800001)
    figures = [int(f) for f in re.findall(r"about (\d+) s left", capsys.readouterr().err)]
    assert len(figures) >= 3 and max(figures) <= shown.LIMIT * 45


@given(
    estimate=st.floats(0.5, 3600.0),
    steps=st.lists(st.tuples(st.floats(0.0, 120.0), st.floats(0.0, 0.3)), max_size=40),
)
def test_the_figure_said_is_never_absurd_next_to_the_estimate(
    estimate: float, steps: list[tuple[float, float]]
) -> None:
    clock = Clock()
    pace = shown.Pace(estimate, clock)
    lines = SolveLines(estimate, clock)
    bar = SolveBar(Console(file=io.StringIO(), width=80), shown.SOLVING, clock, estimate)
    done = 0.0
    said = io.StringIO()
    # The figure the bar would show, worked out without drawing it.
    with contextlib.redirect_stderr(said), mock.patch.object(shown, "DELAY", math.inf):
        for wait, more in steps:
            clock.now += wait
            done = min(0.999, done + more)
            left = pace.left(done)
            lines(done)
            bar(done)
            if left is not None:
                assert 0.0 <= left <= shown.LIMIT * estimate
            if done < shown.MIN_WORK:  # nothing read from a first small step: the estimate's figure
                assert left is None or left <= estimate * (1.0 - done)
            text = bar.left()
            if text != "-:--:--":
                hours, minutes, seconds_ = (int(x) for x in text.split(":"))
                assert hours * 3600 + minutes * 60 + seconds_ <= round(shown.LIMIT * estimate)
    for figure in re.findall(r"about (\d+) s left", said.getvalue()):
        assert int(figure) <= rounded(shown.LIMIT * estimate)


@given(
    estimate=st.floats(1.0, 600.0),
    ratio=st.floats(0.25, 4.0),
    times=st.lists(st.floats(0.0, 1.0), min_size=1, max_size=20),
)
def test_at_a_steady_pace_the_time_left_is_the_time_left(
    estimate: float, ratio: float, times: list[float]
) -> None:
    # The work goes at one pace throughout, the whole taking ``ratio`` times the estimate: once a
    # quarter is done, the figure is exactly the time still to go.
    whole = estimate * ratio
    clock = Clock()
    pace = shown.Pace(estimate, clock)
    for at in sorted(times):
        clock.now = 100.0 + at * whole
        left = pace.left(at)
        if at >= shown.SETTLED and at > 0:
            assert left == pytest.approx(whole * (1.0 - at), rel=1e-9, abs=1e-9)


def test_the_readme_says_how_the_time_left_is_worked_out() -> None:
    readme = (Path(__file__).parents[1] / "README.md").read_text()
    assert "until a twentieth of the work is done" in readme and shown.MIN_WORK == 1 / 20
    assert "never more than four times the estimate" in readme and shown.LIMIT == 4
    assert "a line on\nstandard error every five seconds" in readme and shown.EVERY == 5


def test_the_work_done_weighs_each_step_as_the_estimate_did(capsys: pytest.CaptureFixture[str]) -> None:
    plan = gameplan.Estimate(loading=1.0, compiling=4.0, solving=15.0)
    clock = Clock()
    report = SolveReport(None, lambda solves: plan, clock)
    assert report.done() == 0.0
    report.tell((Solve("game", CLASSIC, 1150, 0),))
    assert "(about 20 s)" in capsys.readouterr().err
    report.doing(Step.COMPILING)  # loaded: a twentieth
    assert report.done() == pytest.approx(1 / 20)
    said = []
    for _ in range(60):  # six seconds, ticked: the compiler counted done as its four pass, to 90%
        clock.now += 0.1
        report.tick()
        said += capsys.readouterr().err.splitlines()
        if clock.now == pytest.approx(102.0):
            assert report.done() == pytest.approx((1 + 2) / 20)
    assert report.done() == pytest.approx((1 + 0.9 * 4) / 20)
    assert len(said) == 1 and re.fullmatch(r"\.\.\. compiling the solver first, about \d+ s left", said[0])
    report.doing(Step.SOLVING)
    assert report.done() == pytest.approx(5 / 20)
    report(0.5)
    assert report.done() == pytest.approx((5 + 0.5 * 15) / 20)
    report(1.0)
    assert report.done() == 1.0
    # With the compiled loop kept, the tables' first progress means the solver is loaded.
    quick = SolveReport(None, lambda solves: plan, clock)
    quick.tell((Solve("game", CLASSIC, 1150, 0),))
    quick(0.2)
    assert quick.done() == pytest.approx((1 + 4 + 0.2 * 15) / 20)


def test_lines_keep_coming_while_the_solver_compiles(
    tables: Tables, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The compiled loop is compiled afresh: each test has its own user cache.
    monkeypatch.setattr(shown, "EVERY", 0.4)
    plain = PlainFrontend(sys.stdin, io.StringIO())
    with solving(plain, tables, tables.plan(CLASSIC, 1150)):
        capsys.readouterr()  # the sentence
        began = time.monotonic()
        assert tables.loop() is not None
        took = time.monotonic() - began
    said = capsys.readouterr().err.splitlines()
    # A line every 0.4 s while it compiled, each saying so, though the compiler tells nothing
    # (one due as it ends already says how much is done).
    compiling = r"\.\.\. compiling the solver first, about \d+ s left"
    assert len(said) >= max(1, int(took / 0.4) - 2), (took, said)
    assert all(re.fullmatch(compiling, line) for line in said[:-1]), said
    assert re.fullmatch(compiling, said[-1]) or re.fullmatch(r"\.\.\. \d+% done, about \d+ s left", said[-1])


def test_the_bar_shows_the_compiler_as_the_first_step(
    tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shown, "DELAY", 0.0)
    file = io.StringIO()
    console = Console(file=file, force_terminal=True, width=100, color_system=None)
    with solving(InteractiveFrontend(console), tables, tables.plan(CLASSIC, 1150)) as progress:
        assert tables.loop() is not None
        progress(0.5)
        time.sleep(0.3)  # a redraw or two
    drawn = [d for d in re.split(r"\x1b\[[0-9;?]*[A-Za-z]|\r|\n", file.getvalue()) if d.strip()]
    compiling = [i for i, d in enumerate(drawn) if d.startswith(shown.COMPILING)]
    solving_ = [i for i, d in enumerate(drawn) if d.startswith(shown.SOLVING)]
    assert compiling and solving_ and compiling[0] < solving_[0], drawn


def test_a_penalty_solve_counts_its_work_as_the_sweeps_and_the_game_without_them(tables: Tables) -> None:
    rules = Rules(name="sweeps", straight=2000).with_house_rules(three_farkle_penalty=500)
    plain = rules.with_house_rules(three_farkle_penalty=0)
    (penalty,) = tables.plan(rules, 1000)
    n = 1000 // 50
    # The estimate's model: the game without the penalty, then the sweeps.
    first, sweeps = gameplan.GAME_PLAIN * n**2.58, gameplan.GAME_RUNS * n**2.2
    assert tables.estimate((penalty,)).solving == pytest.approx(first + sweeps)
    assert tables.plain_share(penalty) == pytest.approx(first / (first + sweeps))
    # With the game without the penalty at hand, all the work left is the sweeps'.
    tables.game(plain, 1000)
    assert tables.estimate((penalty,)).solving == pytest.approx(sweeps)
    assert tables.plain_share(penalty) == 0.0
    told: list[float] = []
    tables.game(rules, 1000, progress=told.append)
    moved = [f for f in told if f > 0]
    assert moved[0] < 0.01 and told[-1] == 1.0  # the first of many stages, not a share for no work
    solo = Solve("solo", rules, 1000, 0)
    assert tables.plain_share(solo) == pytest.approx(
        gameplan.SOLO_PLAIN / (gameplan.SOLO_PLAIN + gameplan.SOLO_RUNS)
    )


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


def test_the_sentence_is_said_once_whatever_starts(
    tables: Tables, capsys: pytest.CaptureFixture[str]
) -> None:
    report = SolveReport(None, tables.estimate)
    table = Solve("game", CLASSIC, 1150, 0)
    report.starting(table)
    report.starting(Solve("solo", CLASSIC, 1150, 0))
    report(0.5)
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and SENTENCE.match(err[0])


def test_solving_says_it_at_once_on_standard_error(
    tables: Tables, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = PlainFrontend(sys.stdin, io.StringIO())
    with solving(plain, tables, tables.plan(CLASSIC, 1150)) as progress:
        # Said before anything is solved or loaded.
        assert SENTENCE.match(capsys.readouterr().err.strip())
        assert tables.watcher is progress and tables.listener is shown.say
    assert tables.watcher is None and tables.listener is None
    with solving(plain, tables, tables.plan(CLASSIC, 10_000)):
        pass
    assert capsys.readouterr().err == ""


def test_a_terminal_gets_a_bar_and_json_gets_lines(tables: Tables) -> None:
    console = Console(file=io.StringIO(), force_terminal=True, width=80)
    needs = tables.plan(CLASSIC, 1150)
    with solving(InteractiveFrontend(console), tables, needs) as progress:
        assert isinstance(progress, SolveReport) and isinstance(progress.shown, SolveBar)
    with solving(InteractiveFrontend(console), tables, needs, quiet=True) as progress:
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


@pytest.mark.usefixtures("compiled_once")
def test_json_output_stays_data_alone() -> None:
    result = runner.invoke(app, ["strategy", "--game", "--target", "1200", "--json"])
    assert result.exit_code == 0
    assert result.stdout.lstrip().startswith("{")
    assert SENTENCE.match(result.stderr.splitlines()[0])


@pytest.mark.usefixtures("compiled_once")
def test_a_kept_table_that_fails_its_check_is_announced_as_it_is_solved(
    tables: Tables, capsys: pytest.CaptureFixture[str]
) -> None:
    from farkle_trainer.store.tables import cache_dir

    rules = Rules(name="announced", straight=2000)
    tables.game(rules, 1000)
    (kept,) = cache_dir().glob("game-*.npz")
    kept.write_bytes(kept.read_bytes()[:-40])
    tables.forget()
    plain = PlainFrontend(sys.stdin, io.StringIO())
    needs = tables.plan(rules, 1000)
    assert to_solve(needs) == ()  # the file is there: nothing said up front
    with solving(plain, tables, needs):
        tables.game(rules, 1000)
    assert SENTENCE.match(capsys.readouterr().err.strip())
