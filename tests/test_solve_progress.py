"""A long solve tells how far it has got, only a terminal draws it, and a warm one is quick."""

from __future__ import annotations

import io
import os
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console

from farkle_trainer.engine.rules import CLASSIC, Rules
from farkle_trainer.engine.solver import Objective, Solution, compute
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.tables import disk_tables, read_rows
from farkle_trainer.ui import progress as progress_module
from farkle_trainer.ui.progress import solve_progress, turn_progress
from farkle_trainer.ui.terminal import InteractiveFrontend, PlainFrontend

pytestmark = pytest.mark.own_table_cache

# A table of its own, so no other test has solved it into the cache already.
TABLE = Rules(name="progress", straight=2000, three_pairs=1000)


@pytest.fixture
def tables() -> Tables:
    """A command's tables, kept in the test's own data directory."""
    return Tables(disk_tables())


def test_a_computed_solve_reports_levels_done_and_a_cached_one_nothing(tables: Tables) -> None:
    calls: list[tuple[int, int]] = []
    solution = tables.turn(TABLE, Objective.expected(opening=350), progress=lambda d, t: calls.append((d, t)))
    assert calls[-1] == (solution.top, solution.top)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    assert len(calls) >= 2 and all(t == solution.top for _, t in calls)
    again: list[tuple[int, int]] = []
    tables.forget()  # memory emptied: the disk cache answers, with nothing to report
    tables.turn(TABLE, Objective.expected(opening=350), progress=lambda d, t: again.append((d, t)))
    assert again == []


def test_no_bar_in_plain_output_or_with_json() -> None:
    plain = PlainFrontend(sys.stdin, io.StringIO())
    with turn_progress(plain) as callback:
        assert callback is None
    console = Console(file=io.StringIO(), force_terminal=True, width=60)
    with turn_progress(InteractiveFrontend(console), quiet=True) as callback:
        assert callback is None


def test_a_long_solve_draws_a_bar_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    file = io.StringIO()
    console = Console(file=file, force_terminal=True, width=60)
    monkeypatch.setattr(progress_module, "DELAY", 0.0)
    with turn_progress(InteractiveFrontend(console)) as callback:
        assert callback is not None
        callback(1, 10)
        callback(5, 10)
    assert "Solving the turn exactly" in file.getvalue()


@pytest.mark.parametrize("width", [100, 60])
def test_the_bar_leaves_room_for_the_time_left(monkeypatch: pytest.MonkeyPatch, width: int) -> None:
    file = io.StringIO()
    console = Console(file=file, force_terminal=True, width=width, color_system=None)
    monkeypatch.setattr(progress_module, "DELAY", 0.0)
    with solve_progress(console, "Solving the game to 10,000 (once)") as bar:
        assert bar is not None
        bar(0.25)
        bar(0.5)
    # Each drawing of the bar, without the codes that move the cursor.
    drawn = [d for d in re.split(r"\x1b\[[0-9;?]*[A-Za-z]", file.getvalue()) if d.strip()]
    assert drawn and all(len(d.rstrip()) <= width for d in drawn), drawn
    assert all(re.search(r"about (\d:\d\d:\d\d|-:--:--) left$", d.rstrip()) for d in drawn), drawn


def test_a_quick_solve_draws_nothing() -> None:
    file = io.StringIO()
    console = Console(file=file, force_terminal=True, width=60)
    with turn_progress(InteractiveFrontend(console)) as callback:
        assert callback is not None
        callback(1, 10)
        callback(10, 10)
    assert file.getvalue() == ""


def test_a_warm_hint_reads_the_cache_without_numpy(tables: Tables, farkle_home: Path) -> None:
    import subprocess

    from farkle_trainer.engine.plays import hint

    hint(tables, (1, 5, 2, 2, 3, 6), 300, CLASSIC)  # fills the disk cache
    env = {**os.environ, "FARKLE_TRAIN_HOME": str(farkle_home)}
    for args, figure in [
        (["hint", "1", "5", "2", "2", "3", "6", "--points", "300"], "641.17"),
        (["strategy"], "18,150"),
    ]:
        script = (
            "import sys\n"
            "from farkle_trainer.cli import app\n"
            "try:\n"
            f"    app({[*args, '--plain']!r})\n"
            "except SystemExit:\n"
            "    pass\n"
            "print('numpy loaded' if 'numpy' in sys.modules else 'numpy not loaded')\n"
        )
        run = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
        )
        assert figure in run.stdout and run.stdout.rstrip().endswith("numpy not loaded"), run.stdout


def test_a_cached_table_reads_back_exactly_and_a_foreign_file_is_refused(tmp_path: Path) -> None:
    computed = compute(TABLE, Objective())
    path = tmp_path / "table.npy"
    np.save(path, computed.values, allow_pickle=False)
    loaded = read_rows(path, 7)
    assert loaded is not None and loaded[0] == computed.top
    assert np.array_equal(Solution(TABLE, Objective(), *loaded).values, computed.values)
    np.save(path, computed.values.astype(np.float32), allow_pickle=False)
    assert read_rows(path, 7) is None
    np.save(path, computed.values[:, :6].copy(), allow_pickle=False)
    assert read_rows(path, 7) is None
    broken = computed.values.copy()
    broken[3, 2] = np.nan
    np.save(path, broken, allow_pickle=False)
    assert read_rows(path, 7) is None
