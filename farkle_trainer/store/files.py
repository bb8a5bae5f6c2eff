"""Reading the small files the program is handed, and writing every file it writes whole.

A path can name anything. A FIFO would make a read wait for a writer forever and a device
like /dev/zero never ends, so only a regular file is read, and only up to a limit: rule
files, game and result files, cached tables. The file is opened without blocking and
checked on the open handle, so nothing can be swapped in between the check and the read.

Every file the program writes (a result, a saved game, an export, a CSV, an answer key, a
cached table) is written by :func:`write_whole`: a new file beside the path takes its place
in one step. So a reader never sees half a file, and a symbolic link at the path is replaced,
never written through: the file it points to is left as it was.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

#: What fills a file: its bytes, or a function that writes them to the open file.
Contents = bytes | Callable[[BinaryIO], object]


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


def read_text(path: Path, limit: int) -> str:
    """The text of the regular file at ``path``, of at most ``limit`` bytes, read as UTF-8.

    Some editors (Notepad on Windows among them) begin a UTF-8 file with a byte-order mark: it
    says nothing of the contents, and is left out. Raises as :func:`read_limited` does, and
    ``UnicodeDecodeError`` for bytes that are not UTF-8.
    """
    return read_limited(path, limit).decode("utf-8-sig")


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


def file_beside(path: Path, contents: Contents, *, private: bool = False) -> Path:
    """A new file next to ``path`` holding ``contents``, ready to take its place in one step.

    It is made 0600 when ``private``, else as any new file is (0666 less the umask), so a
    teacher can read what a student hands in. Its name is its own, so two writers never meet;
    if writing fails it is removed.
    """
    tmp = path.with_name(f".{path.name}.{os.urandom(4).hex()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600 if private else 0o666)
    try:
        with os.fdopen(fd, "wb") as fh:
            if isinstance(contents, bytes):
                fh.write(contents)
            else:
                contents(fh)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return tmp


def write_whole(path: Path, contents: Contents, *, private: bool = False) -> None:
    """Write ``contents`` at ``path`` whole or not at all, replacing what is there (see the module)."""
    tmp = file_beside(path, contents, private=private)
    try:
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_private(path: Path, write: Callable[[BinaryIO], None]) -> None:
    """Write a file readable by its owner only, whole or not at all.

    A file made by an older release becomes 0600 when it is rewritten. Directories it has to
    make are private too.
    """
    _private_dirs(path.parent)
    write_whole(path, write, private=True)
