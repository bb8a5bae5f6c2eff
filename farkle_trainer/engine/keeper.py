"""Solved tables kept between runs: the port through which the solvers ask for them.

The engine computes and never touches files. A solver asks the :class:`TableKeeper` of the
caller's :class:`~farkle_trainer.engine.tables.Tables` for a table it solved before, checks what
comes back (what was kept can be whole and still not this table) unless it ships with the
package, and hands over every table it had to solve. The keeper also says where the game
solver's compiled loop may keep its machine code, since that too is a file, and whether the
compiler is told to compile nothing. With no keeper every table is solved afresh and held in
memory only. A front end builds the store's disk cache (:mod:`farkle_trainer.store.tables`) into
its tables once, where it starts.

Nothing here imports numpy: a warm turn solve reads its table back without it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from array import array

    import numpy as np
    from numpy.typing import NDArray

    Arrays = dict[str, NDArray[Any]]


@dataclass(frozen=True)
class TableKey:
    """What a kept table is: its kind, the version of its layout and what it was solved for.

    A version is raised when a table's arrays change meaning, so copies kept by an older
    release are never read as new ones. ``parts`` name everything the table depends on (the
    scoring table's digest first), so two rule sets that score alike share their tables.
    """

    kind: str
    version: int
    parts: tuple[str, ...]


@dataclass(frozen=True)
class Kept:
    """A table as it was kept: its named arrays, and whether they are the ones that ship with the
    package (their bytes pinned by hash in the code, made by this solver and compared with a new
    solve when they were made), which need no check of what they hold."""

    arrays: Arrays
    shipped: bool = False


class TableKeeper(Protocol):
    """Finds and keeps solved tables; a table it cannot keep only costs the next run time."""

    def load(self, key: TableKey, names: tuple[str, ...]) -> Kept | None:
        """The named arrays kept for ``key``, exactly as kept, or None."""

    def has(self, key: TableKey) -> bool:
        """Whether a table may be kept for ``key``: its file is there (it is not read, so it may
        still fail its checks)."""

    def keep(self, key: TableKey, arrays: Mapping[str, NDArray[Any]]) -> None:
        """Keep ``arrays`` for ``key``, replacing what was kept."""

    def load_rows(self, key: TableKey, width: int) -> tuple[int, array[float]] | None:
        """A table of numbers ``width`` wide kept for ``key``: its number of rows (at least
        one) and its values row by row, read without numpy; None if there is none that fits."""

    def keep_rows(self, key: TableKey, values: NDArray[np.float64]) -> None:
        """Keep a two-dimensional table of floats for ``key``."""

    def compiler_cache(self) -> str:
        """A directory, ready to be read and written, where the compiled loop may keep its machine
        code; raises ``OSError`` (saying why) where there is none to write."""

    def compiled_kept(self) -> bool:
        """Whether the compiled loop's machine code seems to be kept already, where
        :meth:`compiler_cache` would say (told without writing anything)."""

    def discard_compiled(self, place: str) -> None:
        """Remove the compiled loop's machine code kept in ``place`` (it could not be read back)."""

    def compiler_turned_off(self) -> bool:
        """Whether the compiler is told to compile nothing here (numba's ``NUMBA_DISABLE_JIT``), so
        the loop would run as plain Python."""
