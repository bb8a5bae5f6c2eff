"""The solved tables on disk: private files written whole, read back only when sound."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from farkle_trainer.engine.game.final import final_turn_sound
from farkle_trainer.engine.game.rolls import ROLL_ARRAYS, Rolls, merge_rolls, rolls_from
from farkle_trainer.engine.rules import PRESETS, Rules
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.tables import DiskTables, cache_dir, disk_tables, read_arrays, write_arrays

CLASSIC = PRESETS["classic"]

pytestmark = pytest.mark.own_table_cache


# -- a command's tables


def test_a_command_keeps_its_tables_in_its_data_directory_and_says_the_solvers_notes(
    tmp_path: Path, farkle_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from farkle_trainer.cli.storage import solved_tables

    given = solved_tables(tmp_path / "student")
    assert isinstance(given.keeper, DiskTables)
    assert given.keeper.directory == tmp_path / "student" / "cache"
    default = solved_tables()
    assert isinstance(default.keeper, DiskTables)
    assert default.keeper.directory == farkle_home / "cache"
    default.tell("The solver's note.")
    assert capsys.readouterr().err == "The solver's note.\n"


# -- the turn solver's solutions


def test_solutions_are_cached_on_disk(farkle_home: Path) -> None:
    rules = Rules(name="disk-test", straight=2500)
    first = Tables(disk_tables()).turn(rules)
    files = list(cache_dir().glob(f"*{rules.scoring_key}*.npy"))
    assert len(files) == 1 and str(files[0]).startswith(str(farkle_home))
    again = Tables(disk_tables()).turn(rules)
    assert again is not first
    assert np.array_equal(again.values, first.values)


def test_cache_files_are_private_in_a_private_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FARKLE_TRAIN_CACHE", str(tmp_path / "made" / "cache"))
    rules = Rules(name="private-test", straight=2000)
    Tables(disk_tables()).turn(rules)
    (path,) = cache_dir().glob(f"*{rules.scoring_key}*.npy")
    assert path.stat().st_mode & 0o777 == 0o600
    # Every directory the program had to make is its owner's alone.
    assert (tmp_path / "made").stat().st_mode & 0o777 == 0o700
    assert cache_dir().stat().st_mode & 0o777 == 0o700
    assert [p.name for p in cache_dir().iterdir()] == [path.name]


def test_a_readable_cache_file_from_an_older_release_is_still_used(farkle_home: Path) -> None:
    rules = Rules(name="older-test", straight=1750)
    good = Tables(disk_tables()).turn(rules)
    (path,) = cache_dir().glob(f"*{rules.scoring_key}*.npy")
    path.chmod(0o644)
    before = path.stat().st_mtime_ns
    assert np.array_equal(Tables(disk_tables()).turn(rules).values, good.values)
    assert path.stat().st_mtime_ns == before


@pytest.mark.usefixtures("compiled_once")
def test_without_a_keeper_a_solve_keeps_nothing(farkle_home: Path) -> None:
    tables = Tables()  # as a program that gives no keeper
    assert tables.turn(Rules(name="unkept", straight=2250)).expected_turn_score > 0
    assert tables.solo(CLASSIC, 1000).expected_turns(0) > 1
    assert not cache_dir().exists()


def test_a_data_directory_wins_over_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FARKLE_TRAIN_CACHE", str(tmp_path / "env"))
    assert cache_dir(tmp_path / "data") == tmp_path / "data" / "cache"
    assert disk_tables(tmp_path / "data").directory == tmp_path / "data" / "cache"
    assert cache_dir() == disk_tables().directory == tmp_path / "env"


def test_a_damaged_cache_file_is_recomputed() -> None:
    rules = Rules(name="damage-test", three_pairs=750)
    good = Tables(disk_tables()).turn(rules).values.copy()
    (path,) = cache_dir().glob(f"*{rules.scoring_key}*.npy")
    path.write_bytes(b"not numpy at all")
    assert np.array_equal(Tables(disk_tables()).turn(rules).values, good)
    path.write_bytes(path.read_bytes()[:100])
    assert np.array_equal(Tables(disk_tables()).turn(rules).values, good)


def test_an_unwritable_cache_only_costs_speed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    blocker = tmp_path / "file-not-dir"
    blocker.write_text("")
    monkeypatch.setenv("FARKLE_TRAIN_CACHE", str(blocker / "cache"))
    assert Tables(disk_tables()).turn(Rules(name="nowhere", straight=3000)).expected_turn_score > 0


# -- the game solver's tables


@pytest.mark.usefixtures("compiled_once")
def test_game_cache_files_are_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FARKLE_TRAIN_CACHE", str(tmp_path / "game-cache"))
    tables = Tables(disk_tables())
    tables.solo(CLASSIC, 1000)
    (path,) = cache_dir().glob("solo-*.npz")
    assert path.stat().st_mode & 0o777 == 0o600
    assert cache_dir().stat().st_mode & 0o777 == 0o700
    path.chmod(0o644)
    path.write_bytes(b"damaged")
    tables.forget()
    # Solved again, the file is replaced by a private one.
    assert tables.solo(CLASSIC, 1000).turns[0] > 1
    assert path.stat().st_mode & 0o777 == 0o600


def _fresh(where: Path) -> Tables:
    # The disk cache alone: the shipped tables would answer for classic without a file here.
    return Tables(DiskTables(where, ready=None))


def _same_rolls(a: Rolls, b: Rolls) -> None:
    assert (a.maxp, a.nsets, a.slots) == (b.maxp, b.nsets, b.slots)
    for name in ("points", "dice", "prob", "farkle", "best_points"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    for x, y in zip(a.tables, b.tables, strict=True):
        assert np.array_equal(x, y)


@pytest.fixture
def rolls_on_disk(tmp_path: Path) -> tuple[Rolls, Path]:
    """The classic rolls, merged in a cache directory of their own, and their file."""
    made = _fresh(tmp_path).rolls(CLASSIC)
    (path,) = tmp_path.glob("rolls-*.npz")
    return made, path


def test_the_merged_rolls_come_back_from_disk_as_made(rolls_on_disk: tuple[Rolls, Path]) -> None:
    made, path = rolls_on_disk
    assert path.stat().st_mode & 0o777 == 0o600
    _same_rolls(_fresh(path.parent).rolls(CLASSIC), made)
    _same_rolls(made, merge_rolls(CLASSIC))


def test_a_forged_or_damaged_rolls_file_is_made_again(rolls_on_disk: tuple[Rolls, Path]) -> None:
    made, path = rolls_on_disk
    with np.load(path) as data:
        arrays = {name: data[name] for name in ROLL_ARRAYS}
    # Chances moved from one set to another still add up; the compiled loop's copy then disagrees.
    arrays["prob"] = arrays["prob"].copy()
    arrays["prob"][5, [0, 1]] = arrays["prob"][5, [1, 0]]
    write_arrays(path, **arrays)
    assert read_arrays(path, ROLL_ARRAYS) is not None  # whole, with a matching digest
    assert rolls_from(read_arrays(path, ROLL_ARRAYS) or {}) is None
    for damage in (b"", b"PK\x03\x04 not a zip", path.read_bytes()[:100]):
        path.write_bytes(damage)
        _same_rolls(_fresh(path.parent).rolls(CLASSIC), made)
    path.unlink()
    os.mkfifo(path)  # something that is not a file never makes a read wait
    _same_rolls(_fresh(path.parent).rolls(CLASSIC), made)


def test_a_forged_final_turn_row_is_caught(tmp_path: Path) -> None:
    made = _fresh(tmp_path).final_turn(CLASSIC, 128)
    (path,) = tmp_path.glob("final-*.npz")
    again = _fresh(tmp_path).final_turn(CLASSIC, 128)
    assert np.array_equal(again.tie, made.tie) and np.array_equal(again.reach, made.reach)
    rolls = merge_rolls(CLASSIC)
    for row in (0, 1, 64, 127):
        forged = made.tie.copy()
        forged[row, 2] = min(1.0, forged[row, 2] + 1e-6)
        assert not final_turn_sound(rolls, forged, made.reach, 128), row
    assert final_turn_sound(rolls, made.tie, made.reach, 128)
    assert not final_turn_sound(rolls, made.tie[:100], made.reach, 128)
    write_arrays(path, tie=made.tie * 0.999, reach=made.reach)
    assert np.array_equal(_fresh(tmp_path).final_turn(CLASSIC, 128).tie, made.tie)
