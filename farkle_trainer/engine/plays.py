"""Every way to play a roll, valued exactly: the data behind ``hint`` and the drills."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from farkle_trainer.engine.dice import Counts, counts_of, size
from farkle_trainer.engine.grading import TIE
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.scoring import Split, score_table
from farkle_trainer.engine.solver import STEP, Objective, Progress, Solution, round_up, solve

Action = Literal["bank", "roll"]


@dataclass(frozen=True)
class Valuation:
    """The value of banking and of rolling on after one set-aside, under one objective."""

    bank: float | None  # None where the opening minimum forbids banking
    roll: float
    best: float
    action: Action

    @classmethod
    def of(cls, solution: Solution, t: int, dice_to_roll: int) -> Valuation:
        bank = solution.bank_value(t)
        roll = solution.roll_value(t, dice_to_roll)
        action: Action = "roll" if solution.should_roll(t, dice_to_roll) else "bank"
        best = roll if bank is None else max(bank, roll)
        return cls(bank, roll, best, action)


@dataclass(frozen=True)
class Selection:
    """One distinct scoring selection of a roll, and the turn it leaves.

    ``dice_left`` is 0 after hot dice (the roll on is then with six dice).
    """

    split: Split
    points_after: int
    dice_left: int

    @property
    def keep(self) -> tuple[int, ...]:
        return self.split.dice

    @property
    def score(self) -> int:
        return self.split.points

    @property
    def dice_to_roll(self) -> int:
        return self.dice_left or 6

    @property
    def worth(self) -> float:
        """What the play is worth, played at its best, under the objective it is ranked by."""
        raise NotImplementedError


@dataclass(frozen=True)
class Play(Selection):
    """One distinct scoring selection of a roll, with what it is worth.

    ``expected`` values are expected final turn scores; ``chance`` values, present
    when playing to reach a total, are chances of ending the turn with at least it.
    """

    expected: Valuation
    chance: Valuation | None

    @property
    def value(self) -> Valuation:
        """The valuation of the objective being played for."""
        return self.chance if self.chance is not None else self.expected

    @property
    def worth(self) -> float:
        return self.value.best


P = TypeVar("P", bound=Selection)


class Ranking(Generic[P]):
    """Every play of a roll, best first: what a hint and a game's plays have in common."""

    plays: tuple[P, ...]

    @property
    def farkle(self) -> bool:
        return not self.plays

    @property
    def best(self) -> P | None:
        return self.plays[0] if self.plays else None

    @property
    def in_chances(self) -> bool:
        """Whether plays are worth chances (a loss is then compared in percentage points,
        the unit it is shown in), rather than points or turns."""
        raise NotImplementedError

    def gives_up(self, play: P) -> float:
        """How much a play gives up against the best one, in the objective's units."""
        assert self.best is not None
        return max(0.0, self.best.worth - play.worth)

    def ties_best(self, play: P) -> bool:
        """Whether a play is as good as the best: it gives up less than a tie (see ``TIE``)."""
        lost = self.gives_up(play)
        return (100 * lost if self.in_chances else lost) < TIE


@dataclass(frozen=True)
class Hint(Ranking[Play]):
    """All plays of a roll with ``points`` already at stake, best first."""

    roll: tuple[int, ...]
    points: int
    rules: Rules
    objective: Objective
    plays: tuple[Play, ...]

    @property
    def in_chances(self) -> bool:
        return self.objective.kind == "reach"


def hint(
    roll: tuple[int, ...] | list[int],
    points: int,
    rules: Rules,
    *,
    opening: int = 0,
    need: int | None = None,
    farkle_value: int = 0,
    progress: Progress | None = None,
) -> Hint:
    """Value every distinct scoring selection of ``roll`` with ``points`` at stake.

    ``opening``: the opening minimum in force (the player has nothing banked).
    ``farkle_value``: what a Farkle costs beyond the turn's points (minus the three-Farkle
    penalty, on a turn that would be the third Farkle in a row).
    ``need``: also value each play by the chance of ending the turn with at least
    this many points, and rank by that. ``progress`` hears how far a solve that has to be
    computed has got.
    """
    counts = counts_of(roll)
    n = size(counts)
    if not 1 <= n <= 6:
        raise ValueError(f"a roll has 1 to 6 dice, not {n}")
    if points < 0 or points % STEP:
        raise ValueError(f"points must be a non-negative multiple of {STEP}, not {points}")
    expected = solve(rules, Objective.expected(opening=opening, farkle_value=farkle_value), progress=progress)
    reach = (
        solve(rules, Objective.reach(round_up(need), opening=opening), progress=progress) if need else None
    )
    plays = [_play(split, counts, points, expected, reach) for split in score_table(rules).selections(counts)]
    plays.sort(
        key=lambda p: (
            -p.value.best,
            -p.expected.best,
            -p.score,
            -p.dice_to_roll,
            p.keep,
        )
    )
    objective = reach.objective if reach else expected.objective
    return Hint(tuple(sorted(roll)), points, rules, objective, tuple(plays))


def _play(split: Split, roll: Counts, points: int, expected: Solution, reach: Solution | None) -> Play:
    left = size(roll) - len(split.dice)
    t = points + split.points
    to_roll = left or 6
    return Play(
        split=split,
        points_after=t,
        dice_left=left,
        expected=Valuation.of(expected, t, to_roll),
        chance=Valuation.of(reach, t, to_roll) if reach else None,
    )
