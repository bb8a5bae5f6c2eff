"""The one error boundary: every project error becomes one ``Error:`` line and an exit code.

Commands raise; they never catch to report. :class:`BoundaryGroup` is the Typer group of
the app, so the boundary holds for every command, run from the shell or from tests.
"""

from __future__ import annotations

import sys
from typing import IO, Any, NoReturn

import typer
from typer.core import TyperGroup

from farkle_trainer.engine.errors import BAD_INPUT, FarkleError, InputError

INTERRUPTED = 130


class UserError(InputError):
    """A problem with what the user asked for, found by the command line itself."""

    def __init__(self, message: str, code: int = BAD_INPUT):
        super().__init__(message)
        self.exit_code = code


def fail(message: str, code: int = BAD_INPUT) -> NoReturn:
    raise UserError(message, code)


def report(error: BaseException, stream: IO[str] | None = None) -> None:
    print(f"Error: {error}", file=stream or sys.stderr)


class BoundaryGroup(TyperGroup):
    """Typer's group, with the project's errors turned into one line in one place."""

    # Typer types the context with its own vendored click; any context it hands us will do.
    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except FarkleError as exc:
            report(exc)
            raise typer.Exit(exc.exit_code) from None
        except KeyboardInterrupt:
            # Every action is committed as it happens, so Ctrl-C only needs a quiet way out.
            print(file=sys.stderr)
            raise typer.Exit(INTERRUPTED) from None
