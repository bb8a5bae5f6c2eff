"""The ``farkle-train`` command: a thin layer that parses, calls the library, renders.

Each submodule has its own group of commands; ``app`` lists them all and imports a
module only when one of its commands runs (see ``app.COMMANDS``). Heavy modules
(numpy, the solvers, rich tables, questionary) are imported inside the commands that
need them.
"""

from __future__ import annotations

from farkle_trainer.cli.app import app

__all__ = ["app", "main"]


def main() -> None:
    app()
