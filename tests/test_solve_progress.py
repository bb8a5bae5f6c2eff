"""A long solve tells how far it has got, and only a terminal draws it."""

from __future__ import annotations

import io
import sys

import pytest
from rich.console import Console

from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.solver import Objective, solve
from farkle_trainer.ui import progress as progress_module
from farkle_trainer.ui.progress import solve_progress
from farkle_trainer.ui.terminal import InteractiveFrontend, PlainFrontend

# A table of its own, so no other test has solved it into the cache already.
TABLE = Rules(name="progress", straight=2000, three_pairs=1000)


def test_a_computed_solve_reports_levels_done_and_a_cached_one_nothing() -> None:
    calls: list[tuple[int, int]] = []
    solve.cache_clear()
    solution = solve(TABLE, Objective.expected(opening=350), progress=lambda d, t: calls.append((d, t)))
    assert calls[-1] == (solution.top, solution.top)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    assert len(calls) >= 2 and all(t == solution.top for _, t in calls)
    again: list[tuple[int, int]] = []
    solve.cache_clear()  # memory emptied: the disk cache answers, with nothing to report
    solve(TABLE, Objective.expected(opening=350), progress=lambda d, t: again.append((d, t)))
    assert again == []


def test_no_bar_in_plain_output_or_with_json() -> None:
    plain = PlainFrontend(sys.stdin, io.StringIO())
    with solve_progress(plain) as callback:
        assert callback is None
    console = Console(file=io.StringIO(), force_terminal=True, width=60)
    with solve_progress(InteractiveFrontend(console), quiet=True) as callback:
        assert callback is None


def test_a_long_solve_draws_a_bar_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    file = io.StringIO()
    console = Console(file=file, force_terminal=True, width=60)
    monkeypatch.setattr(progress_module, "SHOW_AFTER", 0.0)
    with solve_progress(InteractiveFrontend(console)) as callback:
        assert callback is not None
        callback(1, 10)
        callback(5, 10)
    assert "Solving the turn exactly" in file.getvalue()


def test_a_quick_solve_draws_nothing() -> None:
    file = io.StringIO()
    console = Console(file=file, force_terminal=True, width=60)
    with solve_progress(InteractiveFrontend(console)) as callback:
        assert callback is not None
        callback(1, 10)
        callback(10, 10)
    assert file.getvalue() == ""
