"""What the store raises, all of them :class:`StoreError` and so one ``Error:`` line each.

A file from a newer release raises :class:`~farkle_trainer.store.schema.NewerStoreError`,
which lives beside the schema version it names.
"""

from __future__ import annotations

from pathlib import Path

from farkle_trainer.engine.errors import RUNTIME_FAILURE, FarkleError


class StoreError(FarkleError, ValueError):
    """The store cannot do what was asked: an unusable file, or a request it refuses."""


class StoreFailure(StoreError):
    """SQLite failed at run time (a database locked by another program, a full disk)."""

    exit_code = RUNTIME_FAILURE


class DamagedStoreError(StoreError):
    """The file at ``path`` is damaged or belongs to another program; it is left untouched."""

    def __init__(self, path: Path, reason: str):
        self.path = path
        self.reason = reason
        super().__init__(f"{path} is not a usable farkle-trainer store: {reason}")


class StaleAttemptError(StoreError):
    """A daily attempt or a game changed since it was read: another terminal saved it first."""

    def __init__(self, what: str, row_id: int):
        self.attempt_id = row_id
        super().__init__(f"{what} {row_id} was saved by another terminal since it was read")
