"""The solver's summary of a rule set: what a turn is worth and when to bank."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.solver import Objective, Progress

if TYPE_CHECKING:
    from farkle_trainer.engine.tables import Tables


@dataclass(frozen=True)
class Strategy:
    """Perfect play under one rule set, in a few numbers.

    ``roll_while_at_most[n]``: the largest turn total at which rolling ``n`` dice
    is at least as good as banking; bank above it.
    """

    rules: Rules
    opening: int
    expected_turn_score: float
    farkle_chance: dict[int, Fraction]
    roll_while_at_most: dict[int, int | None]


def strategy(tables: Tables, rules: Rules, *, opening: int = 0, progress: Progress | None = None) -> Strategy:
    """Summarise perfect play (solved in ``tables``): the turn's expected score, Farkle odds,
    bank thresholds."""
    solution = tables.turn(rules, Objective.expected(opening=opening), progress=progress)
    table = score_table(rules)
    return Strategy(
        rules=rules,
        opening=opening,
        expected_turn_score=solution.expected_turn_score,
        farkle_chance={n: table.farkle_chance(n) for n in range(1, 7)},
        roll_while_at_most={n: solution.roll_while_at_most(n) for n in range(1, 7)},
    )
