"""``farkle-train --help`` stays fast: heavy modules load only in the commands that use them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from functools import cache
from pathlib import Path

import pytest

HEAVY = ("numpy", "questionary", "prompt_toolkit", "sqlite3", "rich.table", "rich.markdown", "plotext")


@cache  # the same statement imports the same modules: one process for every test that asks
def imported_by(statement: str) -> frozenset[str]:
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", statement], capture_output=True, text=True, check=True
    )
    return frozenset(line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines() if "|" in line)


@pytest.mark.parametrize("module", HEAVY)
def test_the_cli_does_not_import_heavy_modules_at_start(module: str) -> None:
    assert module not in imported_by("import farkle_trainer.cli")


def test_the_measure_sees_heavy_imports() -> None:
    assert "numpy" in imported_by("import farkle_trainer.engine.game")


#: What ``farkle-train --help`` runs.
HELP = """
import sys
from farkle_trainer.entry import main
sys.argv = ["farkle-train", "--help"]
try:
    main()
except SystemExit:
    pass
"""


def test_help_loads_the_solvers_limits_but_not_the_house_rules() -> None:
    loaded = imported_by(HELP)
    assert "farkle_trainer.engine.gameplan" in loaded  # what the commands' options check
    assert "farkle_trainer.engine.house" not in loaded  # what a table is kept under: once one is


# -- Ctrl-C while starting up


def test_the_package_imports_nothing_before_the_program_catches_ctrl_c() -> None:
    before = imported_by("pass")
    assert imported_by("import farkle_trainer") - before == {"farkle_trainer"}
    loaded = imported_by("import farkle_trainer.entry") - before
    assert "typing" not in loaded and {m for m in loaded if m.startswith("farkle_trainer")} == {
        "farkle_trainer",
        "farkle_trainer.entry",
    }


PROGRAM = Path(sys.executable).with_name("farkle-train")


def interrupted_after(module: str, home: Path) -> tuple[int, str]:
    """Start the installed command, send SIGINT once ``module`` is imported, and return how it ended.

    Python says as each import completes (PYTHONPROFILEIMPORTTIME), so the moment is known
    however busy the machine.
    """
    env = {**os.environ, "PYTHONPROFILEIMPORTTIME": "1", "FARKLE_TRAIN_HOME": str(home)}
    command = [str(PROGRAM), "score", "--plain", "--seed", "1"]
    started = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env
    )
    said: list[str] = []
    reached = threading.Event()

    def read() -> None:
        assert started.stderr is not None
        for line in started.stderr:
            said.append(line)
            if line.rsplit("|", 1)[-1].strip() == module:
                reached.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert reached.wait(60), f"{module} was never imported"
        started.send_signal(signal.SIGINT)
        code = started.wait(60)  # the quiz waits for an answer: only Ctrl-C ends it
    finally:
        started.kill()
        started.wait()
        reader.join(10)
    return code, "".join(line for line in said if not line.startswith("import time:"))


@pytest.mark.skipif(not PROGRAM.exists() or os.name != "posix", reason="the installed command, POSIX signals")
@pytest.mark.parametrize(
    "module",
    # Python says only what an import statement imports: a command's own module, loaded by name,
    # is known by the first module it imports.
    [
        "farkle_trainer.entry",
        "typer",
        "farkle_trainer.cli.app",
        "farkle_trainer.engine.seeded",
        "sqlite3",
        "farkle_trainer.training.session",
    ],
)
def test_ctrl_c_while_starting_up_never_prints_a_traceback(tmp_path: Path, module: str) -> None:
    code, said = interrupted_after(module, tmp_path)
    assert code == 130, said
    assert said.strip() == "", said


#: Installed as the spawned program's ``sitecustomize``: holds it at the start of the N-th import
#: after the package's own (an audit hook runs before the import does anything: the first is the
#: entry module's first), says so, and waits there for the signal.
HOLD = """
import os, sys, time

_at = int(os.environ["FARKLE_HOLD_AT"])
_seen = -1


def _hold(event, args):
    global _seen
    if event != "import":
        return
    if args[0] == "farkle_trainer":
        _seen = 0
    elif _seen >= 0:
        _seen += 1
        if _seen == _at:
            os.write(2, ("held at " + args[0] + "\\n").encode())
            time.sleep(60)


sys.addaudithook(_hold)
"""


def interrupted_at_import(count: int, tmp_path: Path) -> tuple[int, str]:
    """Start the installed command, hold it as it begins its ``count``-th import after the
    package, send SIGINT there, and return how it ended and what it said."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(HOLD)
    env = {
        **os.environ,
        "PYTHONPATH": str(site),
        "FARKLE_HOLD_AT": str(count),
        "FARKLE_TRAIN_HOME": str(tmp_path / "home"),
    }
    started = subprocess.Popen(
        [str(PROGRAM), "score", "--plain", "--seed", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert started.stderr is not None
    try:
        held = started.stderr.readline().decode()
        assert held.startswith("held at "), held
        started.send_signal(signal.SIGINT)
        code = started.wait(60)
        said = started.stderr.read().decode()
    finally:
        started.kill()
        started.wait()
    return code, said


@pytest.mark.skipif(not PROGRAM.exists() or os.name != "posix", reason="the installed command, POSIX signals")
@pytest.mark.parametrize("count", [1, 2, 3, 5, 10])
def test_ctrl_c_as_the_entry_module_imports_never_prints_a_traceback(tmp_path: Path, count: int) -> None:
    # The first import is the one a slow start-up was caught in: Ctrl-C is caught before it.
    code, said = interrupted_at_import(count, tmp_path)
    assert code == 130, said
    assert said.strip() == "", said
