"""Play a first game from an installed wheel whose files nobody may write, as a user it binds.

Run with ``python benchmarks/check_readonly_install.py`` from the repository (with a venv that has
``pip``). It builds the wheel, installs it into a fresh venv, makes that venv's site-packages
read-only and then, as a user the permissions hold for (root drops every capability with
``setpriv``), plays the first roll of a game that must be solved:

1. with a user cache directory that can be written: the compiled loop is kept there and only
   there (nothing next to the installed code, nothing in the data directory), and a second data
   directory of the same user reads it back rather than compiling it again;
2. with a user cache that cannot be written: the compiled loop is kept beside the tables;
3. with a cache directory, and a home directory (so ``~/.cache``), that cannot be written: the
   game still starts, after one line saying the compiled code cannot be kept;
4. with the kept compiled code cut short: the game still starts, after one line saying it was
   compiled again.

Exits 1 if any of these fails. Takes a minute or two (a wheel, a venv, four compilations).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME = ["play", "--seed", "1", "--target", "2500", "--plain"]


def as_bound_user(args: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return args
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        sys.exit("running as root without setpriv: the read-only files would still be written")
    return [setpriv, "--inh-caps=-all", "--bounding-set=-all", *args]


def make_read_only(path: Path) -> None:
    for entry in (path, *path.rglob("*")):
        if not entry.is_symlink():
            entry.chmod(entry.stat().st_mode & ~0o222)


def play(
    program: Path, home: Path, cache: Path | None = None, user: Path | None = None
) -> tuple[subprocess.CompletedProcess[str], float]:
    """The first roll of a game with data in ``home``, the tables in ``cache`` (default: in
    ``home``) and the user's own home directory (and so ``~/.cache``) at ``user``."""
    user = home if user is None else user
    env = dict(os.environ, FARKLE_TRAIN_HOME=str(home), HOME=str(user), XDG_CACHE_HOME=str(user / "xdg"))
    env.pop("NUMBA_CACHE_DIR", None)
    env.pop("FARKLE_TRAIN_CACHE", None)
    if cache is not None:
        env["FARKLE_TRAIN_CACHE"] = str(cache)
    start = time.perf_counter()
    run = subprocess.run(
        as_bound_user([str(program), *GAME]), input="q\n", capture_output=True, text=True, env=env, cwd=home
    )
    return run, time.perf_counter() - start


def says_once(run: subprocess.CompletedProcess[str], words: str) -> bool:
    """The game started and exactly one line of standard error holds ``words``."""
    return run.returncode == 0 and sum(words in line for line in run.stderr.splitlines()) == 1


def check(what: str, ok: bool, run: subprocess.CompletedProcess[str], seconds: float) -> bool:
    print(f"{'ok  ' if ok else 'FAIL'} {what} ({seconds:.1f} s, exit {run.returncode})")
    for line in run.stderr.splitlines():
        print(f"       stderr: {line}")
    return ok


def main() -> int:
    work = Path(tempfile.mkdtemp(prefix="farkle-readonly-"))
    try:
        subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(ROOT), "-w", str(work / "dist")],
            check=True,
        )
        (wheel,) = (work / "dist").glob("*.whl")
        subprocess.run([sys.executable, "-m", "venv", str(work / "venv")], check=True)
        subprocess.run([str(work / "venv/bin/pip"), "install", "-q", str(wheel)], check=True)
        (site,) = (work / "venv/lib").glob("python*/site-packages")
        program = work / "venv/bin/farkle-train"
        make_read_only(site)
        passed = True

        home = work / "home"
        home.mkdir()
        run, took = play(program, home)
        compiled = home / "xdg" / "farkle-trainer" / "compiled"  # the user cache (~/.cache)
        kept = list(compiled.rglob("*.nbi"))
        stray = [*site.rglob("*.nb[ic]"), *(home / "cache").rglob("*.nb[ic]")]
        passed &= check(
            "writable user cache: the compiled code is kept there, nowhere else",
            run.returncode == 0 and bool(kept) and not stray and "compiled code" not in run.stderr,
            run,
            took,
        )

        # Another data directory of the same user: the code is read back, nothing written again.
        before = {path: path.stat().st_mtime_ns for path in compiled.rglob("*")}
        other = work / "home-other"
        other.mkdir()
        run, took = play(program, other, user=home)
        after = {path: path.stat().st_mtime_ns for path in compiled.rglob("*")}
        passed &= check(
            "another data directory: the user's compiled code is read back, not compiled again",
            run.returncode == 0 and after == before and not list(other.rglob("*.nb[ic]")),
            run,
            took,
        )

        home = work / "home-beside"
        home.mkdir()
        user = work / "user-ro-cache"
        user.mkdir()
        make_read_only(user)
        run, took = play(program, home, user=user)
        kept = list((home / "cache" / "compiled").rglob("*.nbi"))
        passed &= check(
            "read-only user cache: the compiled code is kept beside the tables",
            run.returncode == 0 and bool(kept) and "compiled code" not in run.stderr,
            run,
            took,
        )

        home = work / "home-ro"
        home.mkdir()
        cache = work / "cache-ro"
        user = work / "user-ro"
        for place in (cache, user):
            place.mkdir()
            make_read_only(place)
        run, took = play(program, home, cache, user)
        ok = says_once(run, "compiled code cannot be kept")
        passed &= check("read-only cache and home: the game starts, one line says why", ok, run, took)

        # A new user (and data directory) with the first one's compiled code, cut short.
        home = work / "home-damaged"
        damaged = home / "xdg" / "farkle-trainer" / "compiled"
        shutil.copytree(compiled, damaged)
        (data,) = damaged.rglob("*.nbc")
        data.write_bytes(data.read_bytes()[:100])
        run, took = play(program, home)
        ok = says_once(run, "could not be read")
        passed &= check("damaged compiled code: compiled again, one line says so", ok, run, took)
        return 0 if passed else 1
    finally:
        for entry in (work, *work.rglob("*")):
            if not entry.is_symlink():
                entry.chmod(entry.stat().st_mode | 0o700)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
