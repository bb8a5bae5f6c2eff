"""The ``farkle-train`` program: Ctrl-C at any moment, even while starting up, exits quietly.

Python turns Ctrl-C into ``KeyboardInterrupt`` wherever the program is, and one raised before
:func:`main` can catch it prints a traceback. So importing this module, the first the command
runs after the package (which imports nothing), makes Ctrl-C end the program at once, with
code 130; once the commands are loaded, Ctrl-C is ``KeyboardInterrupt`` again, which a session
catches to end with its summary. One that lands where Python cannot raise it (a clean-up
callback, which would print "Exception ignored" and carry on) also ends the program at once.

The handler is put in place before this module imports anything: through ``_signal``, the
built-in module beneath :mod:`signal`, which Python has loaded already; importing :mod:`signal`
itself builds its enums, long enough on a busy machine for a Ctrl-C to land first.
"""

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # the built-in module has no type stubs of its own; signal's are the same
    import signal as _signal
else:
    import _signal

INTERRUPTED = 130


def _leave(*_: object) -> None:
    """End the program now, as Ctrl-C asks, with nothing said but a line break."""
    for stream in (sys.stdout, sys.stderr):
        # Not contextlib.suppress: this may run before contextlib is loaded, and loads nothing.
        try:  # noqa: SIM105
            stream.flush()
        except Exception:  # a stream already closed, or a reader gone: nothing to keep
            pass
    try:
        print(file=sys.stderr, flush=True)
    finally:
        os._exit(INTERRUPTED)


_signal.signal(_signal.SIGINT, _leave)


def _unraisable(unraisable: "sys.UnraisableHookArgs") -> None:
    if unraisable.exc_type is not None and issubclass(unraisable.exc_type, KeyboardInterrupt):
        _leave()
    sys.__unraisablehook__(unraisable)


sys.unraisablehook = _unraisable


def main() -> None:
    try:
        from farkle_trainer.cli import main as run

        _signal.signal(_signal.SIGINT, _signal.default_int_handler)
        run()
    except KeyboardInterrupt:
        print(file=sys.stderr)
        sys.exit(INTERRUPTED)
