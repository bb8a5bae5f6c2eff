"""Where the store lives, who may read it, and a damaged file set aside."""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

import platformdirs
import pytest

from farkle_trainer.store.db import Store
from farkle_trainer.store.errors import StoreError
from farkle_trainer.store.paths import FILE_NAME, data_dir, set_aside_damaged, store_path
from farkle_trainer.training.progress import load_progress

# -- where the data lives


def test_data_dir_comes_from_the_environment(farkle_home: Path) -> None:
    assert data_dir() == farkle_home
    assert store_path() == farkle_home / FILE_NAME
    with Store.open() as s:
        assert s.path == farkle_home / FILE_NAME
    assert (farkle_home / FILE_NAME).is_file()


def test_data_dir_falls_back_to_platformdirs(monkeypatch: pytest.MonkeyPatch) -> None:
    expected = Path(platformdirs.user_data_dir("farkle-trainer", appauthor=False))
    monkeypatch.delenv("FARKLE_TRAIN_HOME")
    assert data_dir() == expected
    monkeypatch.setenv("FARKLE_TRAIN_HOME", "")
    assert data_dir() == expected


def test_an_explicit_directory_overrides_the_environment(tmp_path: Path, farkle_home: Path) -> None:
    with Store.open(tmp_path / "class" / "ana") as s:
        assert s.path == tmp_path / "class" / "ana" / FILE_NAME
    assert not farkle_home.exists()


def test_an_unusable_directory_is_a_store_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(StoreError, match="is not a directory"):
        Store.open(blocker)
    with pytest.raises(StoreError, match="cannot create the data directory"):
        Store.open(blocker / "data")
    (tmp_path / "d" / FILE_NAME).mkdir(parents=True)
    with pytest.raises(StoreError, match="is a folder, not a farkle-trainer store"):
        Store.open(tmp_path / "d")


def test_set_aside_keeps_the_file_and_a_fresh_store_opens(tmp_path: Path) -> None:
    path = tmp_path / "data" / FILE_NAME
    path.parent.mkdir()
    path.write_bytes(b"garbage" * 100)
    (path.parent / (FILE_NAME + "-wal")).write_bytes(b"stale wal")
    when = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    kept = set_aside_damaged(path, now=when)
    assert kept.name == "farkle.sqlite3.damaged-20261129T120000"
    assert kept.read_bytes() == b"garbage" * 100
    assert (kept.parent / (kept.name + "-wal")).read_bytes() == b"stale wal"
    assert not path.exists() and not (path.parent / (FILE_NAME + "-wal")).exists()

    path.write_bytes(b"again")
    assert set_aside_damaged(path, now=when).name == "farkle.sqlite3.damaged-20261129T120000-2"
    with Store.open(tmp_path / "data") as store:
        assert load_progress(store).answers == 0


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_a_new_store_is_private(tmp_path: Path) -> None:
    directory = tmp_path / "new" / "data"
    with Store.open(directory) as store:
        store.start_session("score", rules="classic")
        files = [p for p in directory.iterdir() if p.name.startswith(FILE_NAME)]
        assert {p.name for p in files} >= {FILE_NAME, FILE_NAME + "-wal", FILE_NAME + "-shm"}
        assert directory.stat().st_mode & 0o777 == 0o700
        for path in files:
            assert path.stat().st_mode & 0o777 == 0o600, path.name
