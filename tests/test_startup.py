"""``farkle-train --help`` stays fast: heavy modules load only in the commands that use them."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("numpy", "questionary", "prompt_toolkit", "sqlite3", "rich.table", "rich.markdown", "plotext")


def imported_by(statement: str) -> set[str]:
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", statement], capture_output=True, text=True, check=True
    )
    return {line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines() if "|" in line}


@pytest.mark.parametrize("module", HEAVY)
def test_the_cli_does_not_import_heavy_modules_at_start(module: str) -> None:
    assert module not in imported_by("import farkle_trainer.cli")


def test_the_measure_sees_heavy_imports() -> None:
    assert "numpy" in imported_by("import farkle_trainer.engine.game")
