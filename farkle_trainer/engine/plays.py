"""Every way to play a roll in one turn, valued exactly: the data behind ``hint`` and the drills.

A hint is the one valuation (:func:`~farkle_trainer.engine.ranked.ranked_plays`) of a turn played
for expected points, or for the chance of reaching a total, with each play's expected points
beside it, in plain numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from farkle_trainer.engine.grading import TIE
from farkle_trainer.engine.notation import Action
from farkle_trainer.engine.ranked import Option, Ranked, Selection, ranked_plays
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.situations import ReachTotal, TurnPoints
from farkle_trainer.engine.solver import Objective, Progress, round_up

if TYPE_CHECKING:
    from farkle_trainer.engine.tables import Tables


@dataclass(frozen=True)
class Valuation:
    """The value of banking and of rolling on after one set-aside, under one objective, and
    what the solver does there (rolling on at a tie)."""

    bank: float | None  # None where the opening minimum forbids banking
    roll: float
    best: float
    action: Action

    @classmethod
    def of(cls, option: Option) -> Valuation:
        bank = None if option.bank is None else option.bank.amount
        return cls(bank, option.roll.amount, option.best.amount, option.action)


@dataclass(frozen=True, slots=True)
class Play(Selection):
    """One distinct scoring selection of a roll, with what it is worth.

    ``expected`` values are expected final turn scores; ``chance`` values, present when
    playing to reach a total, are chances of ending the turn with at least it.
    """

    expected: Valuation
    chance: Valuation | None

    @property
    def value(self) -> Valuation:
        """The valuation of the objective being played for."""
        return self.chance if self.chance is not None else self.expected


@dataclass(frozen=True)
class Hint:
    """All plays of a roll with ``points`` already at stake, best first."""

    roll: tuple[int, ...]
    points: int
    rules: Rules
    objective: Objective
    plays: tuple[Play, ...]

    @property
    def farkle(self) -> bool:
        return not self.plays

    @property
    def best(self) -> Play | None:
        return self.plays[0] if self.plays else None

    @property
    def in_chances(self) -> bool:
        """Whether plays are worth chances (a loss is then compared in percentage points, the
        unit it is shown in), rather than points."""
        return self.objective.kind == "reach"

    def gives_up(self, play: Play) -> float:
        """How much a play gives up against the best one, in the objective's units."""
        assert self.best is not None
        return max(0.0, self.best.value.best - play.value.best)

    def ties_best(self, play: Play) -> bool:
        """Whether a play is as good as the best: it gives up less than a tie (see ``TIE``)."""
        lost = self.gives_up(play)
        return (100 * lost if self.in_chances else lost) < TIE


def hint(
    tables: Tables,
    roll: tuple[int, ...] | list[int],
    points: int,
    rules: Rules,
    *,
    opening: int = 0,
    need: int | None = None,
    farkle_value: int = 0,
    progress: Progress | None = None,
) -> Hint:
    """Value every distinct scoring selection of ``roll`` with ``points`` at stake, by the turn
    solver's tables in ``tables``.

    ``opening``: the opening minimum in force (the player has nothing banked).
    ``farkle_value``: what a Farkle costs beyond the turn's points (minus the three-Farkle
    penalty, on a turn that would be the third Farkle in a row).
    ``need``: also value each play by the chance of ending the turn with at least
    this many points, and rank by that. ``progress`` hears how far a solve that has to be
    computed has got.
    """
    for_points = TurnPoints(rules, points, opening, -farkle_value)
    # Solved here, where a long solve can be followed; the valuation then finds them at hand.
    tables.turn(rules, for_points.objective, progress=progress)
    expected = ranked_plays(tables, for_points, roll)
    if not need:
        return points_hint(expected)
    objective = Objective.reach(round_up(need), opening=opening)
    tables.turn(rules, objective, progress=progress)
    reach = ranked_plays(tables, ReachTotal(rules, points, objective.need, opening), roll)
    by_keep = {o.keep: o for o in expected.options}
    plays = tuple(
        Play(o.split, o.points_after, o.dice_left, Valuation.of(by_keep[o.keep]), Valuation.of(o))
        for o in reach.options
    )
    return Hint(reach.roll, points, rules, objective, plays)


def points_hint(ranked: Ranked) -> Hint:
    """The hint of a roll whose plays are ranked for the expected points of the turn (in a
    :class:`~farkle_trainer.engine.situations.TurnPoints` situation)."""
    at = ranked.situation
    if not isinstance(at, TurnPoints):
        raise TypeError(f"a hint in points is of plays ranked for points, not in {at.unit.value}")
    plays = tuple(Play(o.split, o.points_after, o.dice_left, Valuation.of(o), None) for o in ranked.options)
    return Hint(ranked.roll, at.points, at.rules, at.objective, plays)
