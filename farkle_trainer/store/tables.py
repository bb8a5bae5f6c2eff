"""The solvers' tables on disk: where they are kept, in which files, read back whole.

The engine solves through a :class:`~farkle_trainer.engine.keeper.TableKeeper`;
:class:`DiskTables` is the one a front end builds (:func:`disk_tables`) into its
:class:`~farkle_trainer.engine.tables.Tables`. A table is a file in its directory
(:func:`cache_dir`) named by its key: ``KIND-vVERSION-PARTS.npz`` (named arrays and the
SHA-256 digest of their bytes), or ``.npy`` for a turn solution, which is read back without
numpy so a warm ``hint`` never imports it. What comes back is only ever whole; whether it is
right is for the engine to check. Every file is written whole and private (see
:func:`~farkle_trainer.store.files.write_private`), and a table that cannot be written only
costs time, never correctness.

Every command builds its keeper as it starts, so what only reading or writing a table needs
(hashlib, zipfile, numpy) is imported when a table is read or written.
"""

from __future__ import annotations

import ast
import contextlib
import math
import os
import stat
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from farkle_trainer.engine.keeper import Kept, TableKey
from farkle_trainer.store.files import read_limited, write_private
from farkle_trainer.store.ready import PINNED, READY_DIR

if TYPE_CHECKING:
    from array import array

    import numpy as np
    from numpy.typing import NDArray

#: No cached table is larger than this; a bigger file is not one of ours.
MAX_CACHE_FILE = 64 * 1024 * 1024


def cache_dir(data_dir: Path | None = None) -> Path:
    """Where solved tables are kept between runs.

    In ``data_dir``'s ``cache`` folder, for a program given a data directory (``--data-dir``),
    so everything it writes for one student stays in the directory they were given; then
    ``FARKLE_TRAIN_CACHE``; then ``$FARKLE_TRAIN_HOME/cache``; then the platform's user cache
    directory.
    """
    if data_dir is not None:
        return data_dir.expanduser() / "cache"
    if explicit := os.environ.get("FARKLE_TRAIN_CACHE"):
        return Path(explicit)
    if home := os.environ.get("FARKLE_TRAIN_HOME"):
        return Path(home) / "cache"
    return _user_cache()


def _user_cache() -> Path:
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("farkle-trainer", appauthor=False))


def compiled_places(tables: Path) -> tuple[Path, ...]:
    """Where the game solver's compiled loop may keep its machine code, best first.

    The machine code is the program's, the same whatever the data directory, so it is compiled
    once for the user: in ``$FARKLE_TRAIN_CACHE/compiled`` if that is set, else in the user cache
    directory; where that cannot be written, beside the tables (in ``tables``). Never next to
    the installed code, which may be read-only and which uninstalling removes without it.
    """
    explicit = os.environ.get("FARKLE_TRAIN_CACHE")
    first = (Path(explicit) if explicit else _user_cache()) / "compiled"
    beside = tables / "compiled"
    return (first,) if beside == first else (first, beside)


def _may_write(directory: Path) -> bool:
    """Whether ``directory`` can be made or written here, told without writing anything."""
    for folder in (directory, *directory.parents):
        if os.path.lexists(folder):
            return folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)
    return False


def read_cache_file(path: Path) -> bytes | None:
    """The bytes of a cache file, or None if there is no sound one to read.

    Only a regular file of at most ``MAX_CACHE_FILE`` bytes is read: something else put at
    a cache path (a FIFO would wait forever, a device never ends) is treated as missing,
    and the table is solved again.
    """
    try:
        return read_limited(path, MAX_CACHE_FILE)
    except OSError:
        return None


def _digest(arrays: Mapping[str, NDArray[Any]]) -> str:
    """SHA-256 of the arrays' bytes in name order (for one array, of its bytes alone)."""
    import hashlib

    import numpy as np

    hasher = hashlib.sha256()
    for name in sorted(arrays):
        hasher.update(np.ascontiguousarray(arrays[name]).tobytes())
    return hasher.hexdigest()


def read_arrays(path: Path, names: tuple[str, ...]) -> dict[str, NDArray[Any]] | None:
    """The named arrays of a ``.npz`` file, or None if it is missing, damaged or not whole."""
    data = read_cache_file(path)
    return None if data is None else arrays_from(data, names)


def arrays_from(data: bytes, names: tuple[str, ...]) -> dict[str, NDArray[Any]] | None:
    """The named arrays of the bytes of a ``.npz`` file, or None if they are damaged or not whole."""
    import io
    import zipfile

    import numpy as np

    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as archive:
            arrays = {name: archive[name] for name in names}
            digest = str(archive["digest"])
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    if any(values.dtype.kind not in "fi" for values in arrays.values()):
        return None
    if digest != _digest(arrays):
        return None
    return arrays


def write_arrays(path: Path, **arrays: NDArray[Any]) -> None:
    """Write named arrays and their digest to a ``.npz`` file, if it can be written."""
    import numpy as np

    named: dict[str, Any] = {**arrays, "digest": np.array(_digest(arrays))}
    with contextlib.suppress(OSError):
        write_private(path, lambda fh: np.savez(fh, **named))


def read_rows(path: Path, width: int) -> tuple[int, array[float]] | None:
    """``(rows, values)`` from a ``.npy`` file, read without numpy; None if it is not sound.

    The file is what ``numpy.save`` writes for a C-ordered little-endian float64 array of
    shape (rows, width), at least one row and every value a number: a magic string, a header
    giving that, then the raw numbers.
    """
    from array import array

    data = read_cache_file(path)
    if data is None:
        return None
    if data[:6] != b"\x93NUMPY" or len(data) < 10:
        return None
    major = data[6]
    size_bytes = 2 if major == 1 else 4
    start = 8 + size_bytes
    header_len = int.from_bytes(data[8:start], "little")
    try:
        header: Any = ast.literal_eval(data[start : start + header_len].decode("latin-1"))
    except (ValueError, SyntaxError, UnicodeDecodeError):
        return None
    if not isinstance(header, dict) or header.get("descr") != "<f8" or header.get("fortran_order"):
        return None
    shape = header.get("shape")
    if not (isinstance(shape, tuple) and len(shape) == 2 and shape[1] == width and isinstance(shape[0], int)):
        return None
    rows = shape[0]
    body = data[start + header_len :]
    if rows < 1 or len(body) != rows * width * 8:
        return None
    values = array("d")
    values.frombytes(body)
    if sys.byteorder != "little":
        values.byteswap()
    if not all(math.isfinite(v) for v in values):
        return None
    return rows, values


def write_rows(path: Path, values: NDArray[np.float64]) -> None:
    """Write a table of floats to a ``.npy`` file, if it can be written."""
    import numpy as np

    with contextlib.suppress(OSError):
        write_private(path, lambda fh: np.save(fh, values, allow_pickle=False))


def file_name(key: TableKey, suffix: str = ".npz") -> str:
    """The name of the file a table is kept in: ``KIND-vVERSION-PARTS`` and the suffix."""
    return f"{'-'.join((key.kind, f'v{key.version}', *key.parts))}{suffix}"


class DiskTables:
    """The tables of ``directory``, as a :class:`~farkle_trainer.engine.keeper.TableKeeper`:
    a table that ships with the package (in ``ready``, see :mod:`farkle_trainer.store.ready`) is
    read from there, if its bytes are the pinned ones; anything else from the directory."""

    def __init__(self, directory: Path, ready: Path | None = READY_DIR) -> None:
        self.directory = directory
        self.ready = ready

    def __repr__(self) -> str:
        return f"DiskTables({str(self.directory)!r})"

    def path(self, key: TableKey, suffix: str = ".npz") -> Path:
        return self.directory / file_name(key, suffix)

    def load(self, key: TableKey, names: tuple[str, ...]) -> Kept | None:
        from farkle_trainer.store.ready import ready_file

        shipped = None if self.ready is None else ready_file(file_name(key), self.ready)
        if shipped is not None:
            arrays = arrays_from(shipped, names)
            if arrays is not None:
                return Kept(arrays, shipped=True)
        kept = read_arrays(self.path(key), names)
        return None if kept is None else Kept(kept)

    def has(self, key: TableKey) -> bool:
        name = file_name(key)
        try:
            if self.ready is not None and name in PINNED and (self.ready / name).is_file():
                return True
            return self.path(key).is_file()
        except OSError:
            return False

    def keep(self, key: TableKey, arrays: Mapping[str, NDArray[Any]]) -> None:
        write_arrays(self.path(key), **arrays)

    def load_rows(self, key: TableKey, width: int) -> tuple[int, array[float]] | None:
        return read_rows(self.path(key, ".npy"), width)

    def keep_rows(self, key: TableKey, values: NDArray[np.float64]) -> None:
        write_rows(self.path(key, ".npy"), values)

    def compiler_cache(self) -> str:
        unwritable: OSError | None = None
        for directory in compiled_places(self.directory):
            probe = directory / ".writable"
            try:
                write_private(probe, _one_byte)
                probe.unlink()
            except OSError as exc:
                unwritable = unwritable or exc
                continue
            _clear_special(directory)
            return str(directory)
        assert unwritable is not None
        raise unwritable

    def compiled_kept(self) -> bool:
        # Where the compiled code would go: the first place that seems writable.
        for directory in compiled_places(self.directory):
            if _may_write(directory):
                try:
                    return any(index.is_file() for index in directory.glob("*/*.nbi"))
                except OSError:
                    return False
        return False

    def discard_compiled(self, place: str) -> None:
        import shutil

        shutil.rmtree(place, ignore_errors=True)

    def compiler_turned_off(self) -> bool:
        # Read as numba reads it: a whole number, anything else ignored (numba warns, and compiles).
        try:
            return int(os.environ.get("NUMBA_DISABLE_JIT", "0")) != 0
        except ValueError:
            return False


def _clear_special(directory: Path) -> None:
    """Remove what is neither a file nor a folder (a FIFO, a device, a socket) from the compiled
    code's directory and its folders, where numba keeps one folder of files.

    numba opens its files with a plain ``open``, which waits forever for a FIFO's writer, and
    would read a device without end; so, as a table cache treats such a file as missing, it is
    removed, and the code is compiled and kept again in its place.
    """
    with contextlib.suppress(OSError):
        for entry in os.scandir(directory):
            if _is_folder(entry.path):
                with contextlib.suppress(OSError):
                    for inner in os.scandir(entry.path):
                        if not _is_folder(inner.path):
                            _remove_special(inner.path)
            else:
                _remove_special(entry.path)


def _is_folder(path: str) -> bool:
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except OSError:
        return False


def _remove_special(path: str) -> None:
    """Remove ``path`` if it names (a link followed, as numba follows it) something other than a
    regular file; a link to nothing reads as missing already, and is left."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return
    if not stat.S_ISREG(mode):
        with contextlib.suppress(OSError):
            os.unlink(path)


def _one_byte(fh: BinaryIO) -> None:
    # A byte, not an empty file: on a full disk making an empty file can still succeed.
    fh.write(b"\0")


def disk_tables(data_dir: Path | None = None) -> DiskTables:
    """The keeper a program solves through: the tables that ship with the package, and the
    cache directory for ``data_dir`` (see :func:`cache_dir`), chosen now."""
    return DiskTables(cache_dir(data_dir))
