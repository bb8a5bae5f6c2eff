"""Every test runs with its own data and cache directories, never the user's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput

from farkle_trainer.store.tables import keep_tables_on_disk, set_cache_dir


@pytest.fixture(autouse=True)
def farkle_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    home = tmp_path / "farkle-home"
    # A --data-dir read by an earlier command would otherwise keep the cache in its directory.
    set_cache_dir(None)
    keep_tables_on_disk()
    monkeypatch.setenv("FARKLE_TRAIN_HOME", str(home))
    monkeypatch.delenv("FARKLE_TRAIN_CACHE", raising=False)
    # platformdirs must never be reached from a test; point it at the sandbox too.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    yield home
    set_cache_dir(None)


@pytest.fixture
def pipe() -> Iterator[PipeInput]:
    """Keys for prompt_toolkit prompts, sent as if typed at a terminal."""
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        yield inp
