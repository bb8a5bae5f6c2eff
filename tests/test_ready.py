"""The tables that ship with the package: pinned, read without a solve, never trusted when changed."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from farkle_trainer.engine.farkles import Runs
from farkle_trainer.engine.game import runs as solver_runs
from farkle_trainer.engine.game import solo as solver_solo
from farkle_trainer.engine.game import solve as solver_solve
from farkle_trainer.engine.rules import PRESETS
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.ready import PINNED, READY_DIR, ready_file
from farkle_trainer.store.tables import DiskTables, cache_dir, disk_tables


def test_every_shipped_table_is_pinned_and_matches_its_pin() -> None:
    shipped = {p.name for p in READY_DIR.iterdir() if p.suffix == ".npz"}
    assert shipped == set(PINNED)
    for name, pin in PINNED.items():
        assert hashlib.sha256((READY_DIR / name).read_bytes()).hexdigest() == pin, name


@pytest.fixture
def no_solving(monkeypatch: pytest.MonkeyPatch) -> Tables:
    """Tables with nothing held yet, where any solve fails the test: what is asked must come
    from the shipped tables."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a shipped table was solved again")

    monkeypatch.setattr(solver_solve, "solve_totals", refuse)
    monkeypatch.setattr(solver_runs, "solve_runs", refuse)
    monkeypatch.setattr(solver_solo, "_solve_solo", refuse)
    monkeypatch.setattr(solver_solo, "_solve_solo_runs", refuse)
    return Tables(disk_tables())


@pytest.mark.parametrize("preset", ["classic", "fixed", "doubling", "multiplier"])
def test_a_newcomer_s_first_game_needs_no_solve(no_solving: Tables, preset: str) -> None:
    rules = PRESETS[preset]
    table = no_solving.game(rules, 10_000)
    assert 0.5 < table.first_player_chance < 0.6
    assert no_solving.solo(rules, 10_000).expected_turns(0) > 10


@pytest.mark.parametrize("opening", [0, 500])
def test_the_penalty_ships_alone_and_with_the_opening_minimum(no_solving: Tables, opening: int) -> None:
    rules = PRESETS["classic"].with_house_rules(opening_minimum=opening, three_farkle_penalty=1000)
    table = no_solving.game(rules, 10_000)
    plain = no_solving.game(PRESETS["classic"].with_house_rules(opening_minimum=opening), 10_000)
    # The penalty changes the first player's chance only a little, but play after two Farkles a lot.
    assert abs(table.first_player_chance - plain.first_player_chance) < 1e-3
    assert table.win_chance(5000, 5000, Runs(my_farkles=2)) < table.win_chance(5000, 5000) - 0.01
    assert no_solving.solo(rules, 10_000).expected_turns(0) > 10


def test_a_changed_shipped_table_is_not_read(tmp_path: Path) -> None:
    ready = tmp_path / "ready"
    shutil.copytree(READY_DIR, ready)
    name = next(n for n in PINNED if n.startswith("game-"))
    data = bytearray((ready / name).read_bytes())
    data[-100] ^= 1
    (ready / name).write_bytes(bytes(data))
    assert ready_file(name, ready) is None
    assert ready_file(name) is not None
    # Nor a file of another name put in its place, nor one that is not pinned.
    (ready / "game-v1-other.npz").write_bytes((READY_DIR / name).read_bytes())
    assert ready_file("game-v1-other.npz", ready) is None


def test_a_changed_shipped_table_is_solved_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ready = tmp_path / "ready"
    shutil.copytree(READY_DIR, ready)
    for name in PINNED:
        if name.startswith("solo-"):
            data = bytearray((ready / name).read_bytes())
            data[-8] ^= 1
            (ready / name).write_bytes(bytes(data))
    solved = []
    real = solver_solo._solve_solo

    def counted(*args: object, **kwargs: object) -> object:
        solved.append(args)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(solver_solo, "_solve_solo", counted)
    table = Tables(DiskTables(cache_dir(), ready=ready)).solo(PRESETS["classic"], 10_000)
    assert solved, "the damaged table was read instead of solved"
    # And what was solved is what ships, to the last digits a solve can differ in.
    shipped = Tables(disk_tables()).solo(PRESETS["classic"], 10_000)
    assert abs(table.turns - shipped.turns).max() < 1e-10
