"""A value in the unit of what is played for, ordered by how good it is.

A play, a roll before it is thrown and a Farkle are each worth a :class:`Value`: expected
points, a chance (of passing the leader, of winning the game) or expected turns still needed.
Values compare by goodness, as python-chess's ``Score`` orders centipawns and mates, so fewer
turns are greater; values in different units do not compare at all. What one value gives up
against another, and the luck between two, come out in the unit's display scale (percentage
points for a chance), the scale every grade is set in.
"""

from __future__ import annotations

from dataclasses import dataclass

from farkle_trainer.engine.grading import Grade, Unit, grade_for, loss


@dataclass(frozen=True, slots=True)
class Value:
    """``amount`` in ``unit``'s own terms: points, a chance from 0 to 1, or turns."""

    unit: Unit
    amount: float

    def _goodness(self, other: object) -> tuple[float, float]:
        """This amount and ``other``'s, signed so that the greater is the better."""
        if not isinstance(other, Value):
            raise TypeError(f"a value does not compare with {other!r}")
        self._same_unit(other)
        if self.unit.lower_is_better:
            return -self.amount, -other.amount
        return self.amount, other.amount

    def __lt__(self, other: object) -> bool:
        """Worse than ``other``."""
        mine, theirs = self._goodness(other)
        return mine < theirs

    def __le__(self, other: object) -> bool:
        mine, theirs = self._goodness(other)
        return mine <= theirs

    def __gt__(self, other: object) -> bool:
        """Better than ``other``."""
        mine, theirs = self._goodness(other)
        return mine > theirs

    def __ge__(self, other: object) -> bool:
        mine, theirs = self._goodness(other)
        return mine >= theirs

    def __float__(self) -> float:
        return self.amount

    def _same_unit(self, other: Value) -> None:
        if other.unit != self.unit:
            raise TypeError(f"a value in {self.unit} does not compare with one in {other.unit}")

    def gain_over(self, other: Value) -> float:
        """How much better this is than ``other`` (negative when worse), in the display scale:
        the luck of a roll is its value once thrown gaining over its value before."""
        self._same_unit(other)
        diff = other.amount - self.amount if self.unit.lower_is_better else self.amount - other.amount
        return 100 * diff if self.unit.is_chance else diff

    def loss_to(self, best: Value) -> float:
        """What a play worth this gives up against ``best``, in the display scale; never negative."""
        self._same_unit(best)
        return loss(best.amount, self.amount, self.unit)

    def grade_to(self, best: Value) -> Grade:
        """The grade of a play worth this where ``best`` could be had."""
        return grade_for(self.loss_to(best), self.unit)
