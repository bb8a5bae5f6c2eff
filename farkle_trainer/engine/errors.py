"""The one base of every error the project raises.

The command line turns any :class:`FarkleError` into one ``Error:`` line and its
:attr:`~FarkleError.exit_code`, in one place, so no command can forget one.
"""

from __future__ import annotations

#: Exit code for input the program cannot use (a bad option, dice, file or answer).
BAD_INPUT = 2
#: Exit code for a failure of the run itself (a locked or unwritable database).
RUNTIME_FAILURE = 1


class FarkleError(Exception):
    """Something the user can act on, said in one line."""

    exit_code: int = BAD_INPUT


class InputError(FarkleError, ValueError):
    """Input that cannot be used: bad dice, rules, options, answers or files.

    A ``ValueError`` too, so prompts can refuse an answer with its message and ask again.
    """
