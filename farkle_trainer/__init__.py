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
    from farkle_trainer.api import explain, new_game, score, win_chance
    from farkle_trainer.engine.dice import DiceError
    from farkle_trainer.engine.rules import Rules, RulesError
    from farkle_trainer.store.rules import load_rules
    from farkle_trainer.training.games.game import Decision, Game
    from farkle_trainer.training.games.setup import Level
    from farkle_trainer.training.games.turn import GameError
    from farkle_trainer.version import __version__ as __version__

__all__ = [
    "Decision",
    "DiceError",
    "Game",
    "GameError",
    "Level",
    "Rules",
    "RulesError",
    "explain",
    "load_rules",
    "new_game",
    "score",
    "win_chance",
]
_HOMES = {
    "__version__": "farkle_trainer.version",
    "DiceError": "farkle_trainer.engine.dice",
    "Rules": "farkle_trainer.engine.rules",
    "RulesError": "farkle_trainer.engine.rules",
    "load_rules": "farkle_trainer.store.rules",
    "explain": "farkle_trainer.api",
    "score": "farkle_trainer.api",
    "win_chance": "farkle_trainer.api",
    "new_game": "farkle_trainer.api",
    "Game": "farkle_trainer.training.games.game",
    "Decision": "farkle_trainer.training.games.game",
    "Level": "farkle_trainer.training.games.setup",
    "GameError": "farkle_trainer.training.games.turn",
}


def __getattr__(name: str) -> object:
    if name in _HOMES:
        from importlib import import_module

        return getattr(import_module(_HOMES[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
