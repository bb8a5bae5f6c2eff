"""The public functions that take a rule file as readily as a preset's name, and keep the
game solver's tables on disk: the engine's answers, given the store's rules and cache.

``load_rules`` itself is the store's (:func:`farkle_trainer.store.rules.load_rules`).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from farkle_trainer.engine import scoring
from farkle_trainer.engine.rules import Rules
from farkle_trainer.store.rules import load_rules

RulesArg = Rules | str | Path | None


def score(dice: Iterable[int], rules: RulesArg = None) -> int | None:
    """:func:`~farkle_trainer.engine.scoring.score`, ``rules`` as :func:`load_rules` takes them."""
    return scoring.score(dice, load_rules(rules))


def explain(dice: Iterable[int], rules: RulesArg = None) -> scoring.Explanation:
    """:func:`~farkle_trainer.engine.scoring.explain`, ``rules`` as :func:`load_rules` takes them."""
    return scoring.explain(dice, load_rules(rules))


def win_chance(
    my_score: int,
    opponent_score: int,
    rules: RulesArg = None,
    target: int | None = None,
    *,
    opening: int | None = None,
) -> float:
    """The exact chance that the player about to start a turn wins a two-player game.

    ``rules`` is a preset name, a rule file or :class:`~farkle_trainer.engine.rules.Rules`
    (default ``classic``); ``target`` and ``opening`` default to the rules' own. A game is
    solved once and then kept in the disk cache.
    """
    from farkle_trainer.engine.game import solve_game
    from farkle_trainer.store.tables import keep_tables_on_disk

    keep_tables_on_disk()
    return solve_game(load_rules(rules), target, opening).win_chance(my_score, opponent_score)
