"""Rows that terminals write by compare and set: daily attempts and whole games.

``version`` counts a row's writes: a save names the version it read, so a terminal that
fell behind another cannot overwrite the newer game. A row is written until it is finished,
and finishing it ends the training session it belongs to.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from farkle_trainer.store.connection import Connection
from farkle_trainer.store.encoding import stamp
from farkle_trainer.store.errors import StaleAttemptError, StoreError


@dataclass(frozen=True)
class Versioned:
    """A table whose unfinished rows are written by compare and set, and its words."""

    table: str
    missing: str  # "there is no <missing> N"
    stale: str  # "<stale> N was saved by another terminal ..."
    finished: str  # "<finished N>": the row is over


class VersionedRows(Connection):
    """The compare-and-set writes that daily attempts and games share."""

    def _versioned_row(self, kind: Versioned, row_id: int) -> sqlite3.Row:
        with self._errors():
            row = self._db.execute(f"SELECT * FROM {kind.table} WHERE id = ?", (row_id,)).fetchone()
        if row is None:
            raise StoreError(f"there is no {kind.missing} {row_id}")
        return row

    def _write_versioned(
        self,
        db: sqlite3.Connection,
        kind: Versioned,
        row_id: int,
        version: int,
        sets: str,
        args: tuple[Any, ...],
    ) -> int:
        """Compare and set: update an unfinished row still at ``version``; returns its new version.

        A row another process has moved on raises :class:`StaleAttemptError`, so two
        terminals on one game never write over each other.
        """
        cursor = db.execute(
            f"""UPDATE {kind.table} SET {sets}, version = version + 1, updated_at = ?
                WHERE id = ? AND version = ? AND finished_at IS NULL""",
            (*args, stamp(self.now()), row_id, version),
        )
        if cursor.rowcount == 0:
            row = db.execute(f"SELECT version FROM {kind.table} WHERE id = ?", (row_id,)).fetchone()
            if row is None:
                raise StoreError(f"there is no {kind.missing} {row_id}")
            if row["version"] != version:
                raise StaleAttemptError(kind.stale, row_id)
            raise StoreError(kind.finished.format(row_id))
        # The version the row holds now: one an edit made text or a fraction counts on from there.
        return int(db.execute(f"SELECT version FROM {kind.table} WHERE id = ?", (row_id,)).fetchone()[0])

    def _finish_versioned(
        self, kind: Versioned, row_id: int, version: int, sets: str, args: tuple[Any, ...]
    ) -> None:
        """The last write of a row still at ``version``: it is finished now, and so is its session."""
        now = stamp(self.now())
        with self._transaction() as db:
            self._write_versioned(db, kind, row_id, version, f"{sets}, finished_at = ?", (*args, now))
            db.execute(
                f"""UPDATE sessions SET finished_at = ? WHERE finished_at IS NULL
                    AND id = (SELECT session_id FROM {kind.table} WHERE id = ?)""",
                (now, row_id),
            )
