"""The ``farkle-train`` program: Ctrl-C at any moment, even while starting up, exits quietly."""

from __future__ import annotations

import sys

INTERRUPTED = 130


def main() -> None:
    try:
        from farkle_trainer.cli import main as run

        run()
    except KeyboardInterrupt:
        print(file=sys.stderr)
        sys.exit(INTERRUPTED)
