"""Every test runs with its own data directory, never the user's; solved tables are shared by the run.

A table a solver works out (a turn solution, a game's chances) is kept in one directory for the
whole run: the first test that needs it solves it, and every other test, pytest-xdist worker
and command a test starts reads it back. A test hands the ``tables`` fixture to what it solves
or values: one context for each worker, kept in that directory and held in memory. Tests about
that cache itself are marked ``own_table_cache`` and keep theirs in their own data directory, as
a user's would be.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import profiles
import pytest
from hypothesis import settings
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput

from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.tables import DiskTables

if TYPE_CHECKING:
    from farkle_trainer.engine.game.kernel import Loop

settings.load_profile(profiles.CI)

SANDBOX = ("FARKLE_TRAIN_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME")


def pytest_configure(config: pytest.Config) -> None:
    # Each xdist worker already has a core of its own: BLAS threads on top of it only wait
    # for each other. Nothing has imported numpy yet, which reads this once.
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")
    # numba keeps what it compiles in one directory per process that runs tests (each xdist
    # worker its own, so two never write one file at once), in pytest's cache where there is
    # one, so the next run reads it back. numba reads this once, when it is first imported.
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    cache = getattr(config, "cache", None)
    if cache is not None:
        os.environ["NUMBA_CACHE_DIR"] = str(cache.mkdir("numba") / (worker or "main"))
    elif worker is not None and config.option.basetemp:
        os.environ["NUMBA_CACHE_DIR"] = str(Path(config.option.basetemp) / "numba")


@pytest.fixture(scope="session", autouse=True)
def run_tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The directory of the tables solved in this run, one for every worker (a worker's
    temporary directory is inside the run's). Fixtures of any scope see it, and a sandbox home."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER") is not None:
        root = root.parent
    tables = root / "tables"
    sandbox = tmp_path_factory.mktemp("session-home")
    with pytest.MonkeyPatch.context() as mp:
        for name in SANDBOX:
            mp.setenv(name, str(sandbox / name.lower()))
        mp.setenv("FARKLE_TRAIN_CACHE", str(tables))
        yield tables


@pytest.fixture(scope="session")
def tables(run_tables: Path) -> Tables:
    """The context a test hands to what it solves or values: the run's tables, kept in the run's
    directory and held in memory for every test of the worker."""
    return Tables(DiskTables(run_tables))


@pytest.fixture(scope="session")
def run_loop(run_tables: Path) -> Loop | None:
    """The game solver's compiled loop for the worker, kept with the run's tables."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("FARKLE_TRAIN_CACHE", str(run_tables))
        return Tables(DiskTables(run_tables)).loop()


@pytest.fixture
def compiled_once(run_loop: Loop | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """For a test of its own tables that is not about the compiler: every context it builds
    solves with the worker's compiled loop, as a user's commands find the loop's machine code
    kept whatever their data directory (it is the program's, kept once for the user), instead
    of compiling it again in the test's own user cache."""
    monkeypatch.setattr(Tables, "loop", lambda self: run_loop)


@pytest.fixture(autouse=True)
def commands_share_the_run_tables(
    request: pytest.FixtureRequest,
    farkle_home: Path,
    tables: Tables,
    run_tables: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A command a test runs in its process solves in the worker's tables: what one command read
    back or solved, the next finds held in memory, as in one long-lived program (both keep them in
    the run's directory). A command given a data directory or a cache of its own, and a test about
    the cache itself, build their own tables, as a command run alone does."""
    if request.node.get_closest_marker("own_table_cache") is not None:
        return
    from farkle_trainer.cli import storage
    from farkle_trainer.store.tables import cache_dir
    from farkle_trainer.ui.progress import say

    built = storage.solved_tables

    def solved_tables(data_dir: Path | None = None) -> Tables:
        return built(data_dir) if data_dir is not None or cache_dir() != run_tables else tables

    monkeypatch.setattr(storage, "solved_tables", solved_tables)
    monkeypatch.setattr(tables, "listener", say)


@pytest.fixture(autouse=True)
def farkle_home(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    home = tmp_path / "farkle-home"
    monkeypatch.setenv("FARKLE_TRAIN_HOME", str(home))
    if request.node.get_closest_marker("own_table_cache") is not None:
        monkeypatch.delenv("FARKLE_TRAIN_CACHE", raising=False)
    # platformdirs must never be reached from a test; point it at the sandbox too.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    yield home


@pytest.fixture
def pipe() -> Iterator[PipeInput]:
    """Keys for prompt_toolkit prompts, sent as if typed at a terminal."""
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        yield inp
