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
    my_farkles: int = 0,
    opponent_farkles: int = 0,
    my_opened: bool | None = None,
    opponent_opened: bool | None = None,
) -> float:
    """The exact chance that the player about to start a turn wins a two-player game.

    ``rules`` is a preset name, a rule file or :class:`~farkle_trainer.engine.rules.Rules`
    (default ``classic``); ``target`` and ``opening`` default to the rules' own. Under the
    rules' three-Farkle penalty ``my_farkles`` and ``opponent_farkles`` are each player's
    Farkled turns in a row so far (0 to 2; they change nothing without it), and
    ``my_opened`` and ``opponent_opened`` say that a player on 0 has opened already, knocked
    back by the penalty (by default a player has opened when their score is above 0; on 0 it
    matters only under an opening minimum, which no longer holds such a player). A game is
    solved once and then kept in the disk cache.
    """
    from farkle_trainer.engine.farkles import Runs
    from farkle_trainer.engine.game import solve_game
    from farkle_trainer.store.tables import keep_tables_on_disk

    for name, opened, score in (
        ("my_opened", my_opened, my_score),
        ("opponent_opened", opponent_opened, opponent_score),
    ):
        _check_opened(name, opened, score)
    keep_tables_on_disk()
    runs = Runs(my_farkles, opponent_farkles, my_opened or None, opponent_opened or None)
    return solve_game(load_rules(rules), target, opening).win_chance(my_score, opponent_score, runs)


def _check_opened(name: str, opened: object, score: object) -> None:
    from farkle_trainer.engine.gameplan import GameSolverError

    if opened is not None and not isinstance(opened, bool):
        raise GameSolverError(f"{name} is True, False or None, not {opened!r}")
    if opened is False and isinstance(score, int) and score > 0:
        raise GameSolverError(
            f"{name} cannot be False for a score of {score:,}: a player with points has opened"
        )
