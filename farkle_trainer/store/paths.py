"""Where the store lives, who may read it, and how a damaged one is moved out of the way."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

from farkle_trainer.store.errors import StoreError

APP_NAME = "farkle-trainer"
HOME_ENV = "FARKLE_TRAIN_HOME"
FILE_NAME = "farkle.sqlite3"


def data_dir() -> Path:
    """``$FARKLE_TRAIN_HOME`` if set and not empty, else the platform's user data directory."""
    home = os.environ.get(HOME_ENV)
    if home:
        return Path(home).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def store_path(directory: Path | None = None) -> Path:
    """The store file in ``directory`` (a ``--data-dir``), or in :func:`data_dir`."""
    return (directory.expanduser() if directory is not None else data_dir()) / FILE_NAME


def make_private(file: Path) -> None:
    """Create ``file`` (if missing) readable by its owner only, and tighten ours that exist."""
    try:
        os.close(os.open(file, os.O_CREAT | os.O_RDWR, 0o600))
        for path in (file, file.with_name(file.name + "-wal"), file.with_name(file.name + "-shm")):
            if path.exists() and path.stat().st_mode & 0o077:
                path.chmod(0o600)
    except OSError:
        pass  # a read-only or foreign-owned file is SQLite's to refuse, with its own message


def set_aside_damaged(path: Path, *, now: datetime | None = None) -> Path:
    """Rename a damaged store (and its WAL and shared-memory files) out of the way; never delete.

    ``farkle.sqlite3`` becomes ``farkle.sqlite3.damaged-20261129T120000``; a stale ``-wal``
    file must move with it, or SQLite would replay it into the fresh store.
    """
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%S")
    kept = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while kept.exists():
        n += 1
        kept = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    try:
        path.rename(kept)
        for suffix in ("-wal", "-shm"):
            companion = path.with_name(path.name + suffix)
            if companion.exists():
                companion.rename(kept.with_name(kept.name + suffix))
    except OSError as exc:
        raise StoreError(f"cannot move {path} aside: {exc.strerror or exc}") from None
    return kept
