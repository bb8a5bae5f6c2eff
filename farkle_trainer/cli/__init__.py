"""The ``farkle-train`` command: a thin layer that parses, calls the library, renders.

Each submodule adds its commands to the one Typer ``app``; heavy modules (numpy,
the solver, rich tables, questionary) are imported inside the commands that need
them, so ``farkle-train --help`` starts fast.
"""

from __future__ import annotations

# The command modules register their commands on ``app`` when imported.
from farkle_trainer.cli import classroom, daily, decide, engine, learn, play, records, review, score  # noqa: F401
from farkle_trainer.cli.common import app

__all__ = ["app", "main"]


def main() -> None:
    app()
