"""What a command opens or writes: its solved tables and the store in the data directory, and a
file it may replace."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from farkle_trainer.cli.errors import fail

if TYPE_CHECKING:
    from farkle_trainer.engine.tables import Tables
    from farkle_trainer.store.connection import Clock
    from farkle_trainer.store.db import Store
    from farkle_trainer.ui.terminal import Terminal

_NO_ANSWER_HINT = "answer y when asked (in a terminal, or by piping it: echo y | farkle-train ...)"


def solved_tables(data_dir: Path | None = None) -> Tables:
    """The tables a command solves in, built once as it starts: the tables that ship with the
    package, the rest kept in the cache for ``data_dir`` (with a data directory, inside it, so
    what a command writes for one student stays there), the solver's notes said on standard
    error. A solve the command shows is watched inside :func:`~farkle_trainer.ui.progress.solving`."""
    from farkle_trainer.engine.tables import Tables
    from farkle_trainer.store.tables import disk_tables
    from farkle_trainer.ui.progress import say

    return Tables(disk_tables(data_dir), listener=say)


def open_store_or_explain(path: Path | None, term: Terminal, *, clock: Clock | None = None) -> Store:
    """Open the store in data directory ``path`` (None: the default), or explain why not.

    A damaged or foreign file is named, and the user is asked whether to keep it aside
    (renamed, never deleted) and start a fresh store. When nobody can answer, or the answer
    is no, nothing changes and a :class:`~farkle_trainer.ui.terminal.UserError` says how to proceed;
    ``clock`` is the store's clock (the system's by default).
    """
    from farkle_trainer.store.db import Store
    from farkle_trainer.store.errors import DamagedStoreError
    from farkle_trainer.store.paths import set_aside_damaged

    try:
        return Store.open(path, clock=clock)
    except DamagedStoreError as exc:
        damaged = exc
    if not term.plain:
        print(f"{damaged}.", file=sys.stderr)
        question = "Keep that file aside (renamed, never deleted) and start a fresh store?"
    else:
        question = f"{damaged}. Keep it aside (renamed, never deleted) and start a fresh store?"
    answer = term.confirm(question)
    if answer is None:
        fail(f"{damaged}. Nothing was changed; to start a fresh store, {_NO_ANSWER_HINT}.")
    if not answer:
        fail(f"{damaged}. Nothing was changed.")
    kept = set_aside_damaged(damaged.path)
    print(f"Kept the damaged file as {kept}; starting a fresh store.", file=sys.stderr)
    return Store.open(path, clock=clock)


def may_replace(path: Path, option: str, term: Terminal, *, force: bool) -> None:
    """Refuse to write over an existing ``path`` unless ``force``, or a yes typed on a terminal.

    A file given by mistake (a result file named as the CSV to write) is someone's work.
    """
    from farkle_trainer.ui.terminal import is_terminal

    if not (path.exists() or path.is_symlink()):
        return
    if path.is_dir():
        fail(f"{option}: {path} is a folder: give a file name")
    if path.exists() and not path.is_file():
        # A FIFO or a device would take the writing and never give it back, --force or not.
        fail(f"{option}: {path} is not a regular file: give a file name")
    if force:
        return
    if is_terminal(sys.stdin) and term.confirm(f"{path} exists. Replace it?"):
        return
    fail(f"{option}: {path} exists: choose another name, or add --force to replace it")
