"""farkle-trainer: learn Farkle scoring and bank-or-roll play against an exact solver.

The public API is small::

    >>> from farkle_trainer import load_rules, score
    >>> score([1, 1, 1, 1], load_rules("classic"))
    1100
    >>> score([2, 2, 5], "classic") is None
    True
"""

# Every command starts by importing this package, before the program can catch Ctrl-C (see
# farkle_trainer.entry): so it imports nothing at all, not even typing, and its public names load
# their modules only when used, so `farkle-train --help` does not pay for the rules, scoring or
# the game solver either.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from farkle_trainer.api import explain, score, win_chance
    from farkle_trainer.engine.dice import DiceError
    from farkle_trainer.engine.rules import Rules, RulesError
    from farkle_trainer.store.rules import load_rules

__all__ = ["DiceError", "Rules", "RulesError", "explain", "load_rules", "score", "win_chance"]
__version__ = "0.2.0"

_HOMES = {
    "DiceError": "farkle_trainer.engine.dice",
    "Rules": "farkle_trainer.engine.rules",
    "RulesError": "farkle_trainer.engine.rules",
    "load_rules": "farkle_trainer.store.rules",
    "explain": "farkle_trainer.api",
    "score": "farkle_trainer.api",
    "win_chance": "farkle_trainer.api",
}


def __getattr__(name: str) -> object:
    if name in _HOMES:
        from importlib import import_module

        return getattr(import_module(_HOMES[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
