"""The open store file: opening, checking whose file it is, WAL, errors and transactions.

Every call commits before it returns (WAL journal, a busy timeout, short transactions), so
Ctrl-C or a crash loses nothing and two terminals can write at once. The queries of each
kind of record build on :class:`Connection`; :class:`~farkle_trainer.store.db.Store` puts
them together.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Self

from farkle_trainer.store.errors import DamagedStoreError, StoreError, StoreFailure
from farkle_trainer.store.paths import make_private, store_path
from farkle_trainer.store.schema import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION, NewerStoreError

BUSY_TIMEOUT_SECONDS = 5.0

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    return datetime.now(UTC)


def is_damage(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    return code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


#: The files SQLite keeps beside the store, by the store's name and these endings.
COMPANIONS = ("-journal", "-wal", "-shm")


def _only_files(file: Path) -> None:
    """Refuse a store, or a file SQLite keeps beside it, that is there but is no regular file:
    SQLite would open a FIFO there and wait for a writer that never comes."""
    for path in (file, *(file.with_name(file.name + ending) for ending in COMPANIONS)):
        if path.exists() and not path.is_file():
            why = (
                "so it cannot be a farkle-trainer store"
                if path == file
                else "and SQLite keeps the store's journal at that name"
            )
            raise StoreError(
                f"{path} is not a regular file, {why}: move it away, or keep your records "
                "elsewhere with --data-dir DIR"
            )


def _unwritable(file: Path) -> None:
    """Where SQLite failed to open the store: say so if its folder cannot be written in (SQLite
    says only that it is "unable to open database file")."""
    if not os.access(file.parent, os.W_OK):
        raise StoreError(
            f"cannot write in {file.parent}: the store keeps every answer as it is given, so it "
            "needs a folder it can write in; keep your records elsewhere with --data-dir DIR"
        )


class Connection:
    """An open store file. Make one with :meth:`open`; use it as a context manager to close it."""

    def __init__(self, db: sqlite3.Connection, path: Path, clock: Clock):
        self._db = db
        self.path = path
        self.clock = clock
        self._grouped = False

    @classmethod
    def open(cls, path: Path | None = None, *, clock: Clock | None = None) -> Self:
        """Open (creating or upgrading as needed) the store in data directory ``path``.

        Raises :class:`DamagedStoreError` for a damaged or foreign file, :class:`NewerStoreError`
        for a file from a newer release, :class:`StoreError` when it cannot be opened at all.
        """
        file = store_path(path)
        try:
            if file.parent.exists() and not file.parent.is_dir():
                raise StoreError(f"{file.parent} is not a directory")
            # One student's progress is theirs alone on a shared computer: the directory made
            # here is 0700, and the file 0600 (SQLite gives its -wal and -shm the file's mode).
            created = not file.parent.exists()
            file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            if created:
                file.parent.chmod(0o700)
            if file.is_dir():
                raise StoreError(
                    f"{file} is a folder, not a farkle-trainer store: move it away, or keep "
                    "your records elsewhere with --data-dir DIR"
                )
            _only_files(file)
        except OSError as exc:
            raise StoreError(
                f"cannot create the data directory {file.parent}: {exc.strerror or exc}"
            ) from None
        make_private(file)
        try:
            # The timeout is SQLite's busy timeout: wait that long for another writer, then fail.
            # No implicit transactions: each method opens its own short one.
            db = sqlite3.connect(file, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)
        except sqlite3.Error as exc:
            _unwritable(file)
            raise StoreError(f"cannot open {file}: {exc}") from None
        store = cls(db, file, clock or system_clock)
        try:
            store._prepare()
        except StoreFailure:
            db.close()
            _unwritable(file)
            raise
        except BaseException:
            db.close()
            raise
        return store

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def now(self) -> datetime:
        moment = self.clock()
        return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)

    @property
    def schema_version(self) -> int:
        return self._db.execute("PRAGMA user_version").fetchone()[0]

    # -- opening

    def _prepare(self) -> None:
        db = self._db
        with self._errors():
            db.row_factory = sqlite3.Row
            db.execute("PRAGMA foreign_keys = ON")
            # Identify the file before changing anything in it: a foreign file stays as it was.
            # One read transaction sees one state of the file, so a store that another process
            # is creating at this moment reads as new or as ours, never as half of each.
            with self._transaction(write=False):
                current = self._check_identity()
            self._use_wal()
            if not current:
                self._migrate()
            found = [r[0] for r in db.execute("PRAGMA quick_check(3)").fetchall()]
            if found != ["ok"]:
                problems = [line for f in found for line in f.splitlines() if not line.startswith("***")]
                raise DamagedStoreError(self.path, f"the integrity check failed ({(problems or found)[0]})")

    def _use_wal(self) -> None:
        """Switch the file to WAL. SQLite answers "locked" at once, without its busy timeout, while
        another process switches the same new file; so wait here, as long as the busy timeout."""
        deadline = time.monotonic() + BUSY_TIMEOUT_SECONDS
        while True:
            try:
                mode = self._db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            except sqlite3.OperationalError as exc:
                if getattr(exc, "sqlite_errorcode", 0) & 0xFF != sqlite3.SQLITE_BUSY:
                    raise
                mode = None
            if mode == "wal" or time.monotonic() > deadline:
                return
            time.sleep(0.01)

    def _check_identity(self) -> bool:
        """True for a store of this version, False for a new (empty) file or an older store.

        An empty or zero-length file is new, not damage: it is what a store looks like while
        another process creates it. Only content that is not ours is another program's.
        """
        app_id = self._db.execute("PRAGMA application_id").fetchone()[0]
        version = self.schema_version
        if app_id == APPLICATION_ID:
            if version > SCHEMA_VERSION:
                raise NewerStoreError(self.path, version)
            return version == SCHEMA_VERSION
        empty = self._db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0
        if not (app_id == 0 and version == 0 and empty):
            raise DamagedStoreError(self.path, "it is another program's database")
        return False

    def _migrate(self) -> None:
        # BEGIN IMMEDIATE: one process creates or upgrades the file, the others wait for it,
        # then find it done when they look again under the lock.
        with self._transaction() as db:
            if self._check_identity():
                return
            version = self.schema_version
            for step in MIGRATIONS[version:]:
                step(db)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")

    @contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as exc:
            if is_damage(exc):
                raise DamagedStoreError(self.path, str(exc)) from None
            raise StoreFailure(f"{self.path}: {exc}") from None

    @contextmanager
    def _transaction(self, *, write: bool = True) -> Iterator[sqlite3.Connection]:
        """One short transaction, committed on success; writers take the lock up front.

        Inside :meth:`atomic` it joins the transaction already open.
        """
        if self._grouped:
            yield self._db
            return
        with self._errors():
            self._db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield self._db
            except BaseException:
                self._roll_back()
                raise
            self._db.execute("COMMIT")

    def _roll_back(self) -> None:
        # Ctrl-C between BEGIN and the body leaves this generator open until the store is
        # closed; closing rolled the transaction back already, so there is nothing left to undo.
        try:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
        except sqlite3.ProgrammingError:
            pass

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """Group several records into one transaction: all of them are kept, or none.

        A daily practice move saves the game's state and records the decision together, so
        a process killed between the two can neither lose the answer nor keep it twice.
        """
        if self._grouped:
            yield
            return
        with self._transaction():
            self._grouped = True
            try:
                yield
            finally:
                self._grouped = False
