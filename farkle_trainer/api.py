"""The public functions that take a rule file as readily as a preset's name, and keep the
game solver's tables on disk: the engine's answers, given the store's rules and cache; and a
whole game to play step by step (:func:`new_game`).

``load_rules`` itself is the store's (:func:`farkle_trainer.store.rules.load_rules`).

What the solvers work out is held in a :class:`~farkle_trainer.engine.tables.Tables`. A caller
may give its own (``tables=``): ``Tables()`` keeps nothing on disk, and a ``watcher`` or a
``listener`` hears a long solve. Given none, these functions share :func:`default_tables`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from farkle_trainer.engine import scoring
from farkle_trainer.engine.rules import Rules
from farkle_trainer.store.rules import load_rules
from farkle_trainer.training.games.setup import Level, Player

if TYPE_CHECKING:
    from farkle_trainer.engine.tables import Tables
    from farkle_trainer.training.games.game import Game

RulesArg = Rules | str | Path | None


def default_tables() -> Tables:
    """The tables these functions solve in when given none: the tables that ship with the
    package and the disk cache a command keeps (``$FARKLE_TRAIN_CACHE``, else
    ``$FARKLE_TRAIN_HOME/cache``, else the user cache directory, as it is now), the solver's
    notes as :class:`~farkle_trainer.engine.gameplan.SolverNote` warnings. One for each cache
    directory, held for the life of the process."""
    from farkle_trainer.store.tables import cache_dir

    return _tables_in(cache_dir())


@cache
def _tables_in(directory: Path) -> Tables:
    from farkle_trainer.engine.tables import Tables
    from farkle_trainer.store.tables import DiskTables

    return Tables(DiskTables(directory))


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
    tables: Tables | None = None,
) -> float:
    """The exact chance that the player about to start a turn wins a two-player game.

    ``rules`` is a preset name, a rule file or :class:`~farkle_trainer.engine.rules.Rules`
    (default ``classic``); ``target`` and ``opening`` default to the rules' own. Under the
    rules' three-Farkle penalty ``my_farkles`` and ``opponent_farkles`` are each player's
    Farkled turns in a row so far (0 to 2; they change nothing without it), and
    ``my_opened`` and ``opponent_opened`` say that a player on 0 has opened already, knocked
    back by the penalty (by default a player has opened when their score is above 0; on 0 it
    matters only under an opening minimum, which no longer holds such a player). A game is
    solved once and then held in ``tables`` (by default :func:`default_tables`, which keeps it
    in the disk cache).
    """
    from farkle_trainer.engine.farkles import Runs
    from farkle_trainer.engine.gameplan import GameSolverError

    for name, opened, score in (
        ("my_opened", my_opened, my_score),
        ("opponent_opened", opponent_opened, opponent_score),
    ):
        _check_opened(name, opened, score)
    runs = Runs(my_farkles, opponent_farkles, my_opened or None, opponent_opened or None)
    table = _given(tables, GameSolverError).game(load_rules(rules), target, opening)
    return table.win_chance(my_score, opponent_score, runs)


def _given(tables: object, error: type[ValueError]) -> Tables:
    """The tables a caller gave, or :func:`default_tables` for none; ``error`` for anything
    else, which would fail only once a play is valued."""
    from farkle_trainer.engine.tables import Tables

    if tables is None:
        return default_tables()
    if not isinstance(tables, Tables):
        raise error(f"tables is a Tables from farkle_trainer.engine.tables, or None, not {tables!r}")
    return tables


def _check_opened(name: str, opened: object, score: object) -> None:
    from farkle_trainer.engine.gameplan import GameSolverError

    if opened is not None and not isinstance(opened, bool):
        raise GameSolverError(f"{name} is True, False or None, not {opened!r}")
    if opened is False and isinstance(score, int) and score > 0:
        raise GameSolverError(
            f"{name} cannot be False for a score of {score:,}: a player with points has opened"
        )


def new_game(
    players: Sequence[str | Level | Player] = ("You", Level.MEDIUM),
    rules: RulesArg = None,
    *,
    target: int | None = None,
    opening: int | None = None,
    penalty: int | None = None,
    seed: int | None = None,
    code: str | None = None,
    tables: Tables | None = None,
) -> Game:
    """A new :class:`~farkle_trainer.training.games.game.Game` to play step by step.

    ``players`` in seat order: a person by name, a computer by its
    :class:`~farkle_trainer.training.games.setup.Level` (named after it), two to four of them
    for a race to the target; one person alone plays solo, ten turns for the highest score, or
    with a ``target`` that target in the fewest turns. ``rules`` as :func:`load_rules` takes
    them, ``target``, ``opening`` and ``penalty`` (the house rules) the rules' own by default.
    ``seed`` (0 to 2**63 - 1) deals reproducible dice, ``code`` a class code's, as ``play
    --seed`` and ``play --code`` do; without either the dice are new. The computers play by
    ``tables`` (by default :func:`default_tables`). Raises ``GameError``
    (from ``farkle_trainer.training.games.turn``, a ``ValueError``) for a game that cannot be
    set up, and for a decision the rules do not allow.
    """
    from farkle_trainer.training.games.dice import chosen_dice
    from farkle_trainer.training.games.game import Game
    from farkle_trainer.training.games.setup import seats
    from farkle_trainer.training.games.turn import GameError
    from farkle_trainer.training.games.workflow import new_game as set_up

    given = _given(tables, GameError)
    if isinstance(players, str | bytes) or not isinstance(players, Sequence):
        raise GameError(
            f"players is a list of players in seat order, like ['You', Level.MEDIUM], not {players!r}"
        )
    seated = seats(players)
    game = set_up(
        seated,
        load_rules(rules),
        solo=len(seated) == 1,
        target=target,
        opening=opening,
        penalty=penalty,
        dice=chosen_dice(seed, code),
    )
    return Game(game.setup, tables=given)
