"""The one error boundary: every project error becomes one ``Error:`` line and an exit code.

Commands raise; they never catch to report. :class:`BoundaryGroup` is the Typer group of
the app, so the boundary holds for every command, run from the shell or from tests.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from typing import IO, Any, NoReturn

import typer
from typer._click import exceptions as parser_errors

from farkle_trainer.cli.params import PlainGroup
from farkle_trainer.engine.errors import BAD_INPUT, RUNTIME_FAILURE, FarkleError, InputError
from farkle_trainer.training.frontend import Stopped
from farkle_trainer.ui.terminal import writable_output

INTERRUPTED = 130


class UserError(InputError):
    """A problem with what the user asked for, found by the command line itself."""

    def __init__(self, message: str, code: int = BAD_INPUT):
        super().__init__(message)
        self.exit_code = code


def fail(message: str, code: int = BAD_INPUT) -> NoReturn:
    raise UserError(message, code)


#: The longest run of characters without a space an error line quotes whole: a value or a path.
LONGEST_WORD = 100


def one_line(message: str) -> str:
    """``message`` as one line that stays one line on the screen.

    A value quoted back can be anything typed or pasted (a number of thousands of digits, a
    path the file system calls too long): its middle is cut, so its start and end still say
    which value was meant.
    """
    flat = " ".join(message.splitlines())
    return re.sub(rf"\S{{{LONGEST_WORD + 1},}}", lambda m: f"{m[0][:60]}…{m[0][-20:]}", flat)


def report(error: BaseException | str, stream: IO[str] | None = None) -> None:
    print(f"Error: {one_line(str(error))}", file=stream or sys.stderr)


def usage_error_lines(error: parser_errors.ClickException) -> list[str]:
    """A command-line mistake found by the parser: one ``Error:`` line, then how to use the command."""
    lines = [f"Error: {one_line(error.format_message())}"]
    ctx = getattr(error, "ctx", None)
    if ctx is not None:
        pieces = " ".join(ctx.command.collect_usage_pieces(ctx))
        lines.append(f"Usage: {ctx.command_path} {pieces} (more: {ctx.command_path} --help)")
    return lines


class BoundaryGroup(PlainGroup):
    """Typer's group, with the project's errors turned into one line in one place."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        for stream in (sys.stdout, sys.stderr):
            writable_output(stream)
        # Typer draws the parser's own errors (a missing argument, --count abc) in a box; the
        # boundary makes them the same one line as every other error, for every command.
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        try:
            outcome = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except parser_errors.NoArgsIsHelpError as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except parser_errors.ClickException as exc:
            for line in usage_error_lines(exc):
                print(line, file=sys.stderr)
            sys.exit(exc.exit_code)
        except typer.Abort:
            print("Aborted.", file=sys.stderr)
            sys.exit(1)
        sys.exit(outcome if isinstance(outcome, int) else 0)

    # Typer types the context with its own vendored click; any context it hands us will do.
    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except FarkleError as exc:
            report(exc)
            raise typer.Exit(exc.exit_code) from None
        except Stopped as stop:
            raise typer.Exit(stop.exit_code) from None
        except KeyboardInterrupt:
            # Every action is committed as it happens, so Ctrl-C only needs a quiet way out.
            print(file=sys.stderr)
            raise typer.Exit(INTERRUPTED) from None
        except BrokenPipeError:
            # The reader went away (``| head``): nothing is left to say, and nobody to say it to.
            raise typer.Exit(RUNTIME_FAILURE) from None
        except OSError as exc:
            # What the file system refuses where no check foresaw it (a name too long for it,
            # a full disk): one line, never a traceback.
            where = f"{exc.filename}: " if exc.filename else ""
            report(f"{where}{exc.strerror or exc}")
            raise typer.Exit(RUNTIME_FAILURE) from None
