"""A kept table that is whole but wrong is never believed: each kind is checked by what it must
satisfy, or made again, so damage never shows as an exact number. Shipped tables are pinned."""

from __future__ import annotations

from array import array
from pathlib import Path

import numpy as np
import pytest

from farkle_trainer.engine.game import solve as solver_solve
from farkle_trainer.engine.game.rolls import ROLL_ARRAYS, merge_rolls, rolls_from, same_rolls
from farkle_trainer.engine.rules import PRESETS, Rules
from farkle_trainer.engine.solver import Objective, kept_solution_sound
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.tables import DiskTables, cache_dir, read_arrays, write_arrays

CLASSIC = PRESETS["classic"]


@pytest.fixture
def cache_alone(tmp_path: Path) -> Path:
    """A cache directory of the test's own."""
    return tmp_path


@pytest.fixture
def alone(cache_alone: Path) -> Tables:
    """Tables kept in the test's own cache directory, the shipped tables left unread."""
    return Tables(DiskTables(cache_alone, ready=None))


def _forge(path: Path, name: str, change: object) -> None:
    """Rewrite a kept table with one array changed and its digest made to match."""
    with np.load(path) as data:
        arrays = {key: data[key] for key in data.files if key != "digest"}
    arrays[name] = change(arrays[name].copy())  # type: ignore[operator]
    write_arrays(path, **arrays)
    assert read_arrays(path, tuple(arrays)) is not None  # whole, with a matching digest


# -- the turn solver's solutions


@pytest.mark.parametrize(
    "objective",
    [
        Objective.expected(),
        Objective.expected(opening=350, farkle_value=-500),
        Objective.reach(2000, opening=500),
    ],
)
def test_every_value_of_a_kept_solution_is_checked(tables: Tables, objective: Objective) -> None:
    rules = Rules(name="forged-turns", three_pairs=1250)
    good = tables.turn(rules, objective)
    flat = array("d", good.values.ravel().tolist())
    assert kept_solution_sound(rules, objective, good.top, flat)
    for level in (0, good.top // 3, good.top - 1):
        for n in (1, 6):
            forged = array("d", flat)
            forged[level * 7 + n] += 6.4 if objective.kind == "expected" else 1e-6
            assert not kept_solution_sound(rules, objective, good.top, forged), (level, n)
    # A table cut short, or padded, is not this one either.
    assert not kept_solution_sound(rules, objective, good.top - 1, flat[: (good.top - 1) * 7])


def test_a_forged_solution_on_disk_is_solved_again(farkle_home: Path) -> None:
    rules = Rules(name="forged-on-disk", straight=1750, three_pairs=1000)
    tables = Tables(DiskTables(cache_dir()))
    good = tables.turn(rules).values.copy()
    (path,) = cache_dir().glob(f"solution-*{rules.scoring_key}*.npy")
    forged = good.copy()
    forged[40:60, 1:] += 6.4
    np.save(path, forged, allow_pickle=False)
    tables.forget()
    assert np.array_equal(tables.turn(rules).values, good)


# -- the merged rolls


def test_rolls_forged_consistently_are_merged_again(alone: Tables, cache_alone: Path) -> None:
    made = alone.rolls(CLASSIC)
    (path,) = cache_alone.glob("rolls-*.npz")
    arrays = read_arrays(path, ROLL_ARRAYS)
    assert arrays is not None
    # Move a little chance from one set to another for six dice, in both copies of the chances:
    # every sum still holds and every array agrees with the others.
    prob = arrays["prob"].copy()
    prob[5, 0] += 3.3e-5
    prob[5, 1] -= 3.3e-5
    nz_sets, nz_dice = np.nonzero(prob.T)
    arrays["prob"], arrays["chances"] = prob, np.ascontiguousarray(prob.T[nz_sets, nz_dice])
    write_arrays(path, **arrays)
    assert rolls_from(read_arrays(path, ROLL_ARRAYS) or {}) is not None  # passes every structural check
    alone.forget()
    again = alone.rolls(CLASSIC)
    assert same_rolls(again, merge_rolls(CLASSIC)) and same_rolls(again, made)
    # And the kept copy is made right again.
    assert same_rolls(rolls_from(read_arrays(path, ROLL_ARRAYS) or {}), made)


# -- the final-turn tables


def test_a_forged_region_of_the_final_turn_table_is_caught(alone: Tables, cache_alone: Path) -> None:
    made = alone.final_turn(CLASSIC, 512)
    (path,) = cache_alone.glob("final-*-n512.npz")

    def lowered(tie: np.ndarray) -> np.ndarray:
        tie[300:340] *= 0.996  # far from the rows a spot check would look at
        return tie

    _forge(path, "tie", lowered)
    alone.forget()
    again = alone.final_turn(CLASSIC, 512)
    assert np.array_equal(again.tie, made.tie) and np.array_equal(again.reach, made.reach)


# -- the game and solo tables


@pytest.mark.parametrize("penalty", [0, 1000])
def test_a_forged_region_of_a_game_table_is_caught(alone: Tables, cache_alone: Path, penalty: int) -> None:
    rules = CLASSIC.with_house_rules(three_farkle_penalty=penalty)
    good = alone.game(rules, 1500).values.copy()
    (path,) = cache_alone.glob(f"game-*-p{penalty}.npz")

    def moved(values: np.ndarray) -> np.ndarray:
        # A sixteenth of the scores, in one pair of runs, away from the table's corners.
        block = values.reshape(good.shape)
        block[7:15, -1, 7:15, 0] += 1e-3
        return values

    _forge(path, "values", moved)
    alone.forget()
    again = alone.game(rules, 1500)
    assert np.abs(again.values - good).max() < 1e-12


@pytest.mark.parametrize(("size", "runs", "side"), [(200, 1, 12), (201, 3, 4), (30, 3, 4), (20, 1, 12)])
def test_the_sample_covers_the_whole_table(size: int, runs: int, side: int) -> None:
    u, r, v, q = solver_solve.spread_states(size, runs, solver_solve.CHECKED_STATES)
    assert len(u) <= solver_solve.CHECKED_STATES + 4
    # Every cell of a grid over both scores holds a checked state in every pair of runs.
    edges = np.linspace(0, size, side + 1).astype(np.int64)
    found = {
        (int(np.searchsorted(edges, a, "right")) - 1, int(np.searchsorted(edges, b, "right")) - 1, x, y)
        for a, x, b, y in zip(u, r, v, q, strict=True)
    }
    wanted = {
        (i, j, x, y) for i in range(side) for j in range(side) for x in range(runs) for y in range(runs)
    }
    assert wanted <= found


def test_a_forged_solo_table_is_solved_again(alone: Tables, cache_alone: Path) -> None:
    good = alone.solo(CLASSIC, 1500).turns.copy()
    (path,) = cache_alone.glob("solo-*.npz")
    _forge(path, "values", lambda values: values + np.where(np.arange(len(values)) == 17, 0.01, 0.0))
    alone.forget()
    assert np.abs(alone.solo(CLASSIC, 1500).turns - good).max() < 1e-12


def test_shipped_tables_are_trusted_by_their_pins(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> bool:
        raise AssertionError("a shipped table was checked again")

    monkeypatch.setattr(solver_solve, "sound", refuse)
    assert 0.5 < Tables(DiskTables(cache_dir())).game(CLASSIC, 10_000).first_player_chance < 0.6
