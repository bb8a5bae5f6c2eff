"""The compiled loop: the same numbers as numpy, its machine code kept beside the tables, and a
solve that works whatever state that place is in (read-only, damaged, full), saying so in a line."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

import farkle_trainer
from farkle_trainer.engine import gameplan
from farkle_trainer.engine.game import kernel
from farkle_trainer.engine.game.rolls import merge_rolls
from farkle_trainer.engine.game.runs import solve_runs
from farkle_trainer.engine.game.seats import seats_for
from farkle_trainer.engine.game.solo import _solve_solo
from farkle_trainer.engine.game.solve import solve_totals
from farkle_trainer.engine.rules import PRESETS
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.tables import disk_tables

#: These tests are about what is solved and kept: each keeps its tables in its own directory.
pytestmark = pytest.mark.own_table_cache

CLASSIC = PRESETS["classic"]


@pytest.fixture
def notes() -> list[str]:
    """The solver's notes, as a front end's listener hears them."""
    return []


def _tables(notes: list[str], data_dir: Path | None = None) -> Tables:
    """A program's tables as a command builds them, from the environment as it is now."""
    return Tables(disk_tables(data_dir), listener=notes.append)


# -- the same numbers either way


@pytest.mark.usefixtures("compiled_once")
def test_a_game_solved_with_numpy_alone_agrees_with_the_compiled_loop(notes: list[str]) -> None:
    tables = _tables(notes)
    game = tables.setting(CLASSIC, 16, 6)  # to 800, opening 300
    loop = tables.loop()
    assert loop is not None
    compiled, _ = solve_totals(game, loop=loop)
    plain, _ = solve_totals(game, loop=None)
    assert np.abs(compiled - plain).max() < 1e-12


@pytest.mark.usefixtures("compiled_once")
def test_the_penalty_and_solo_agree_too(notes: list[str]) -> None:
    tables = _tables(notes)
    loop = tables.loop()
    game = tables.setting(CLASSIC, 12, 0, 10)  # to 600, penalty 500
    start = np.full((12, 12), 0.5)
    compiled = solve_runs(game, start, loop=loop)
    rolls = merge_rolls(CLASSIC)
    solo = _solve_solo(rolls, seats_for(30, 0, 0), loop=loop)
    plain = solve_runs(game, start, loop=None)
    solo_plain = _solve_solo(rolls, seats_for(30, 0, 0), loop=None)
    assert np.abs(compiled - plain).max() < 1e-12
    # Expected turns are each solved to within 1e-12 of their size, so within twice that of each other.
    assert (np.abs(solo - solo_plain) / solo).max() < 2e-12


# -- where the machine code goes


def _kept_place() -> Path:
    """Where the compiled loop was last told to keep its machine code."""
    import numba

    return Path(numba.config.CACHE_DIR)  # type: ignore[attr-defined]


def test_the_compiled_code_is_kept_once_for_every_data_directory(
    tmp_path: Path, farkle_home: Path, monkeypatch: pytest.MonkeyPatch, notes: list[str]
) -> None:
    user = tmp_path / "xdg-cache" / "farkle-trainer" / "compiled"  # the user cache (see conftest)
    loop = _tables(notes).loop()
    assert loop is not None and _kept_place() == user
    assert loop.stats.cache_misses  # type: ignore[attr-defined]  # compiled, the first time
    assert list(user.glob("*/kernel._blocks-*.nbi"))
    assert not (farkle_home / "cache" / "compiled").exists()
    # Another data directory, by the variable or by --data-dir: the code is read back, not compiled.
    monkeypatch.setenv("FARKLE_TRAIN_HOME", str(tmp_path / "another"))
    for data_dir in (None, tmp_path / "student"):
        tables = _tables(notes, data_dir)
        assert tables.compiled_kept()
        loop = tables.loop()
        assert loop is not None and _kept_place() == user
        assert loop.stats.cache_hits and not loop.stats.cache_misses  # type: ignore[attr-defined]
    assert not list(tmp_path.glob("another/**/*.nbi")) and not list(tmp_path.glob("student/**/*.nbi"))
    assert notes == []


def test_without_a_user_cache_to_write_the_code_is_kept_beside_the_tables(
    tmp_path: Path, farkle_home: Path, monkeypatch: pytest.MonkeyPatch, notes: list[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker / "cache"))
    tables = _tables(notes)
    assert not tables.compiled_kept()
    assert tables.loop() is not None
    assert _kept_place() == farkle_home / "cache" / "compiled"
    assert list(_kept_place().glob("*/kernel._blocks-*.nbi")) and tables.compiled_kept()
    assert notes == []


def test_a_cache_named_for_the_program_holds_its_compiled_code_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, notes: list[str]
) -> None:
    monkeypatch.setenv("FARKLE_TRAIN_CACHE", str(tmp_path / "shared"))
    assert _tables(notes).loop() is not None
    assert _kept_place() == tmp_path / "shared" / "compiled"
    assert notes == []


def test_a_cache_that_cannot_be_written_compiles_for_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, notes: list[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("FARKLE_TRAIN_CACHE", str(blocker / "cache"))
    assert _tables(notes).loop() is not None
    assert len(notes) == 1 and "cannot be kept" in notes[0]


def test_damaged_compiled_code_is_compiled_anew(farkle_home: Path, notes: list[str]) -> None:
    assert _tables(notes).loop() is not None
    (data,) = _kept_place().glob("*/kernel._blocks-*.nbc")
    for damage in (data.read_bytes()[: len(data.read_bytes()) // 2], b"\x80\x04 not a pickle at all"):
        (data,) = _kept_place().glob("*/kernel._blocks-*.nbc")
        data.write_bytes(damage)
        assert _tables(notes).loop() is not None
        assert len(notes) == 1 and "could not be read" in notes.pop()
    # Compiled anew, kept anew: the next run reads it back with nothing to say.
    assert _tables(notes).loop() is not None
    assert notes == []


def test_a_place_where_writes_fail_keeps_nothing_and_the_solve_goes_on(
    farkle_home: Path, monkeypatch: pytest.MonkeyPatch, notes: list[str]
) -> None:
    assert _tables(notes).loop() is not None
    (data,) = _kept_place().glob("*/kernel._blocks-*.nbc")
    shutil.rmtree(_kept_place())
    # The machine code cannot be written (as on a full disk, every write fails): a directory
    # sits in its place, and clearing the place does not help.
    (_kept_place() / data.parent.name / data.name).mkdir(parents=True)
    tables = _tables(notes)
    monkeypatch.setattr(tables.keeper, "discard_compiled", lambda place: None)
    assert tables.loop() is not None
    assert len(notes) == 1 and "cannot be kept" in notes[0]


@pytest.mark.parametrize("suffix", ["nbi", "nbc"])
def test_a_fifo_in_place_of_kept_code_is_treated_as_missing(notes: list[str], suffix: str) -> None:
    assert _tables(notes).loop() is not None
    (kept,) = _kept_place().glob(f"*/kernel._blocks-*.{suffix}")
    kept.unlink()
    os.mkfifo(kept)  # opened to be read, it waits for a writer that never comes
    # A FIFO is not kept code: the estimate before a solve counts the compilation.
    tables = _tables(notes)
    assert tables.compiled_kept() == (suffix == "nbc")
    loops: list[kernel.Loop | None] = []
    compiling = threading.Thread(target=lambda: loops.append(tables.loop()), daemon=True)
    compiling.start()
    compiling.join(60)
    if compiling.is_alive():
        os.close(os.open(kept, os.O_WRONLY | os.O_NONBLOCK))  # let the waiting read through
        compiling.join(60)
        pytest.fail(f"the compiled loop waited on a FIFO at {kept.name}")
    assert loops[0] is not None and notes == []
    # Compiled anew and kept as a file in its place.
    assert kept.is_file() and _tables(notes).compiled_kept()


def test_without_a_compiler_the_solve_uses_numpy_and_says_so(
    monkeypatch: pytest.MonkeyPatch, notes: list[str]
) -> None:
    def broken(cache_dir: str | None) -> kernel.Loop:
        raise RuntimeError("no LLVM here")

    monkeypatch.setattr(kernel, "_compile", broken)
    tables = _tables(notes)
    assert tables.loop() is None
    assert len(notes) == 1 and "solving with numpy" in notes[0] and "no LLVM here" in notes[0]
    w, _ = solve_totals(tables.setting(CLASSIC, 8, 0), loop=tables.loop())
    assert 0.5 < w[0, 0] < 0.7


@pytest.mark.parametrize("how", ["environment", "numba's own settings"])
def test_numba_told_to_compile_nothing_solves_with_numpy_and_says_so(
    monkeypatch: pytest.MonkeyPatch, notes: list[str], how: str
) -> None:
    # numba would run the loop as plain Python, far slower than numpy.
    import numba

    if how == "environment":
        monkeypatch.setenv("NUMBA_DISABLE_JIT", "1")
    else:
        monkeypatch.setattr(numba.config, "DISABLE_JIT", 1)
    tables = _tables(notes)
    assert tables.loop() is None
    assert len(notes) == 1 and "NUMBA_DISABLE_JIT" in notes[0] and "solving with numpy" in notes[0]
    w, _ = solve_totals(tables.setting(CLASSIC, 8, 0), loop=tables.loop())
    assert 0.5 < w[0, 0] < 0.7


def test_the_estimate_knows_numba_told_to_compile_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    large = (gameplan.Solve("game", CLASSIC.with_house_rules(three_farkle_penalty=1000), 10_000, 0),)
    tables = Tables(disk_tables())
    monkeypatch.setattr(gameplan, "find_spec", lambda name: None)  # as without numba
    numpy_alone = tables.estimate(large).total
    monkeypatch.undo()
    for off, said in (("0", False), ("", False), ("yes", False), ("1", True)):
        monkeypatch.setenv("NUMBA_DISABLE_JIT", off)
        assert (tables.estimate(large).total == numpy_alone) == said


# -- a read-only install


def _without_override(args: list[str]) -> list[str]:
    """Run as a user the permissions apply to: root drops every capability first."""
    if os.geteuid() != 0:
        return args
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: read-only files would still be written")
    return [setpriv, "--inh-caps=-all", "--bounding-set=-all", *args]


def _read_only(path: Path) -> None:
    for entry in (path, *path.rglob("*")):
        entry.chmod(entry.stat().st_mode & ~0o222)


def test_a_read_only_install_with_a_cache_it_cannot_write_still_plays(tmp_path: Path) -> None:
    package = tmp_path / "site" / "farkle_trainer"
    shutil.copytree(
        Path(farkle_trainer.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__")
    )
    cache = tmp_path / "cache"
    cache.mkdir()
    home = tmp_path / "home"
    home.mkdir()
    user = tmp_path / "user"  # the user's own home, and so ~/.cache: read-only too
    user.mkdir()
    for place in (package.parent, cache, user):
        _read_only(place)
    env = {
        **os.environ,
        "PYTHONPATH": str(package.parent),
        "FARKLE_TRAIN_HOME": str(home),
        "FARKLE_TRAIN_CACHE": str(cache),
        "PYTHONDONTWRITEBYTECODE": "1",
        "HOME": str(user),
        "XDG_CACHE_HOME": str(user / ".cache"),
    }
    env.pop("NUMBA_CACHE_DIR", None)
    try:
        run = subprocess.run(
            _without_override(
                [sys.executable, "-m", "farkle_trainer", "play", "--seed", "1", "--target", "1100", "--plain"]
            ),
            input="q\n",
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
            cwd=tmp_path,
        )
    finally:
        for entry in (tmp_path, *tmp_path.rglob("*")):
            entry.chmod(entry.stat().st_mode | 0o700)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "Game saved at turn 1" in run.stdout
    notes = [line for line in run.stderr.splitlines() if "compiled code" in line]
    assert len(notes) == 1 and "cannot be kept" in notes[0], run.stderr
    assert not list(tmp_path.rglob("*.nbi"))
