"""One grade scale for every decision the trainer grades: drills, daily practice, challenges.

A play is graded by what it gives up against the best play: points of expected turn
score, or percentage points of a chance (the final round). The same loss gets the same
grade, and the same right or wrong, wherever it was made.

===========  ==========================  =========================================
grade        expected score given up     chance given up (percentage points)
===========  ==========================  =========================================
best         under 0.005 points          under 0.005 percentage points
fine         under 5 points              under 0.5 percentage points
inaccuracy   under 20 points             under 2 percentage points
mistake      under 60 points             under 6 percentage points
blunder      60 points or more           6 percentage points or more
===========  ==========================  =========================================

A best or fine play counts as right. Session ratings compare losses in one unit, where a
percentage point of a chance counts as :data:`POINTS_PER_PERCENTAGE_POINT` points, the
ratio the two scales share (:data:`RATINGS`).
"""

from __future__ import annotations

from enum import StrEnum

from farkle_trainer.engine.notation import figure


class Grade(StrEnum):
    BEST = "best"
    FINE = "fine"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    @property
    def right(self) -> bool:
        """Best and fine plays count as right answers."""
        return self in (Grade.BEST, Grade.FINE)


class Unit(StrEnum):
    """What a value is in: expected points, or a chance."""

    POINTS = "points"
    CHANCE = "chance"


GRADES: tuple[Grade, ...] = tuple(Grade)

#: Upper bounds (exclusive) of each grade but the last, in points of expected score lost.
POINT_GRADES: tuple[float, float, float, float] = (0.005, 5.0, 20.0, 60.0)
#: The same in percentage points of a chance.
CHANCE_GRADES: tuple[float, float, float, float] = (0.005, 0.5, 2.0, 6.0)
POINTS_PER_PERCENTAGE_POINT = 10.0

#: Two plays closer than this (points, or percentage points) are a tie: neither loses.
TIE = POINT_GRADES[0]

#: A session's rating by its average loss per decision in points: the first entry whose
#: bound the average is under.
RATINGS: tuple[tuple[float, str], ...] = (
    (1.0, "solver"),
    (3.0, "expert"),
    (7.0, "advanced"),
    (15.0, "intermediate"),
    (30.0, "casual"),
    (float("inf"), "beginner"),
)


def loss(best: float, chosen: float, unit: Unit) -> float:
    """What a play worth ``chosen`` gives up against ``best``: points, or percentage points."""
    diff = max(0.0, best - chosen)
    return diff if unit == Unit.POINTS else 100 * diff


def grade_for(lost: float, unit: Unit) -> Grade:
    """The grade of a play that gives up ``lost`` (points, or percentage points for a chance)."""
    bounds = POINT_GRADES if unit == Unit.POINTS else CHANCE_GRADES
    for bound, grade in zip(bounds, GRADES, strict=False):
        if lost < bound:
            return grade
    return Grade.BLUNDER


def in_points(lost: float, unit: Unit) -> float:
    """A loss in points: a percentage point counts as :data:`POINTS_PER_PERCENTAGE_POINT`."""
    return lost if unit == Unit.POINTS else lost * POINTS_PER_PERCENTAGE_POINT


def rating_for(average_loss: float) -> str:
    """The rating of a session whose decisions gave up ``average_loss`` points each on average."""
    for bound, name in RATINGS:
        if average_loss < bound:
            return name
    return RATINGS[-1][1]


def loss_figure(lost: float, unit: Unit) -> str:
    """A loss as a number that never disagrees with its grade (see :func:`figure`)."""
    return figure(lost, POINT_GRADES if unit == Unit.POINTS else CHANCE_GRADES)


def gives_up_text(lost: float, unit: Unit) -> str:
    """``"42.07 points"``, ``"3.27 pp"``: a loss, always positive, with its unit."""
    return f"{loss_figure(lost, unit)} {'points' if unit == Unit.POINTS else 'pp'}"


def rating_figure(average_loss: float) -> str:
    """An average loss as a number that never disagrees with its rating."""
    return figure(average_loss, tuple(bound for bound, _ in RATINGS[:-1]))
