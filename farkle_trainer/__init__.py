"""farkle-trainer: learn Farkle scoring and bank-or-roll play against an exact solver.

The public API is small::

    >>> from farkle_trainer import load_rules, score
    >>> score([1, 1, 1, 1], load_rules("classic"))
    1100
    >>> score([2, 2, 5], "classic") is None
    True
"""

from farkle_trainer.engine.dice import DiceError
from farkle_trainer.engine.rules import Rules, RulesError, load_rules
from farkle_trainer.engine.scoring import explain, score

__all__ = ["DiceError", "Rules", "RulesError", "explain", "load_rules", "score", "win_chance"]
__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    # The game solver needs numpy; importing it lazily keeps the CLI's start fast.
    if name == "win_chance":
        from farkle_trainer.engine.gamesolver import win_chance

        return win_chance
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
