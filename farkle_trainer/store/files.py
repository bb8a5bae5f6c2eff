"""Reading the small files the program is handed, and writing private files whole.

A path can name anything. A FIFO would make a read wait for a writer forever and a device
like /dev/zero never ends, so only a regular file is read, and only up to a limit: rule
files, game and result files, cached tables. The file is opened without blocking and
checked on the open handle, so nothing can be swapped in between the check and the read.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO


class NotARegularFile(OSError):
    """The path names a folder, a FIFO, a device or a socket: not a file to read."""


class FileTooLarge(OSError):
    """The file is larger than anything of its kind the program writes."""


def read_limited(path: Path, limit: int) -> bytes:
    """The bytes of the regular file at ``path``, of at most ``limit`` bytes.

    Raises :class:`NotARegularFile`, :class:`FileTooLarge`, or the ``OSError`` opening or
    reading it raised (``FileNotFoundError`` for a path, or a link, to nothing).
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotARegularFile(f"{path} is not a regular file")
    except OSError:
        os.close(fd)
        raise
    with os.fdopen(fd, "rb") as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise FileTooLarge(f"{path} is over {limit:,} bytes")
    return data


def _private_dirs(directory: Path) -> None:
    """Create ``directory`` and each missing parent 0700; directories that exist are left alone."""
    missing: list[Path] = []
    while not directory.exists():
        missing.append(directory)
        if directory.parent == directory:
            break
        directory = directory.parent
    for new in reversed(missing):
        try:
            new.mkdir(mode=0o700)
        except FileExistsError:
            continue  # another process made it first, and it is not ours to change
        # mkdir's mode passes through the umask; the owner must be able to write here.
        new.chmod(0o700)


def write_private(path: Path, write: Callable[[BinaryIO], None]) -> None:
    """Write a file readable by its owner only, whole or not at all.

    ``write`` fills a private temporary file next to ``path`` that then replaces it, so a reader
    never sees half a file and a file made by an older release becomes 0600 when it is
    rewritten. Directories it has to make are private too.
    """
    import tempfile

    tmp: str | None = None
    try:
        _private_dirs(path.parent)
        # mkstemp makes the file 0600 with a name of its own, so parallel writers never meet.
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as fh:
            write(fh)
        os.replace(tmp, path)
        tmp = None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
