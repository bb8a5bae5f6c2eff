"""Reading the small files the program is handed: rule files, game and result files, caches.

A path can name anything. A FIFO would make a read wait for a writer forever and a device
like /dev/zero never ends, so only a regular file is read, and only up to a limit. The file
is opened without blocking and checked on the open handle, so nothing can be swapped in
between the check and the read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


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
