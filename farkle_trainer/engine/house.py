"""The house rules: what a game adds to its scoring table, and what each decides, in one place.

A house rule changes who may bank (the opening minimum holds a player until their first bank),
what a Farkle costs (a third Farkle in a row costs the three-Farkle penalty), or how long a game
lasts (the target). Whatever plays or values a game asks here: the game machine before it lets
a player bank or takes a penalty (:mod:`farkle_trainer.training.games.match`), the valuation
for the goal of a position (:func:`~farkle_trainer.engine.situations.situation`), the computers,
the drills. The solvers take the same rules as numbers: the turn solver's
:class:`~farkle_trainer.engine.solver.Objective` (the least bank and the Farkle's value), the game
solver's standings (:mod:`farkle_trainer.engine.game.seats`), and the key its tables are kept
under (:func:`house_key`). The rules themselves are fields of
:class:`~farkle_trainer.engine.rules.Rules`, read from a rule file's ``[house]`` table.
"""

from __future__ import annotations

from farkle_trainer.engine.farkles import FARKLES_FOR_PENALTY, NO_RUNS, Runs
from farkle_trainer.engine.rules import Rules


def opened(score: int, runs: Runs = NO_RUNS) -> bool:
    """Whether a player on ``score`` has opened: they have banked, so the opening minimum holds
    them no more. A score above 0 says so, and for a player the three-Farkle penalty knocked
    back to 0, ``runs.my_opened``."""
    return score > 0 or bool(runs.my_opened)


def least_bank(rules: Rules, score: int, runs: Runs = NO_RUNS, *, opening: int | None = None) -> int:
    """The least a player on ``score`` may bank (0: any turn total): the game's opening minimum
    (``opening``, by default the rules' own) until they have opened, then no minimum."""
    minimum = rules.opening_minimum if opening is None else opening
    return 0 if opened(score, runs) else minimum


def opened_matters(rules: Rules, opening: int | None = None) -> bool:
    """Whether a player on 0 who has opened (the three-Farkle penalty knocked them back) stands
    apart from one who has not: only where the house rules let them bank different amounts."""
    return least_bank(rules, 0, Runs(my_opened=True), opening=opening) != least_bank(
        rules, 0, opening=opening
    )


def farkle_cost(rules: Rules, score: int, runs: Runs, *, last_turn: bool = False) -> int:
    """What a Farkle costs a player on ``score`` beyond the turn's points: on what would be
    their third Farkle in a row the three-Farkle penalty, never more than they have banked;
    nothing in a last turn of the final round, which a Farkle just ends."""
    penalty = rules.three_farkle_penalty
    if not penalty or last_turn or runs.my_farkles < FARKLES_FOR_PENALTY - 1:
        return 0
    return min(penalty, score)


def house_key(rules: Rules, target: int, opening: int) -> tuple[str, ...]:
    """What a game's solved tables depend on besides the scoring table: the target, the opening
    minimum and the penalty, as the parts of a kept table's name (see
    :func:`~farkle_trainer.engine.gameplan.values_key`)."""
    return (f"t{target}", f"o{opening}", f"p{rules.three_farkle_penalty}")
