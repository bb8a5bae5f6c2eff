"""One grade scale for every decision the trainer grades: drills, daily practice, challenges.

A play is graded by what it gives up against the best play: points of expected turn
score, percentage points of the chance of passing the leader (the final round), percentage
points of the chance of winning the game (game drills), or expected turns (solo drills,
the target in as few turns as possible). The same loss gets the same grade, and the same
right or wrong, wherever it was made.

===========  ===============  ====================  =====================  ================
grade        expected score   chance to pass (pp)   chance to win (pp)     expected turns
===========  ===============  ====================  =====================  ================
best         under 0.005      under 0.005           under 0.005            under 0.0005
fine         under 5          under 0.5             under 0.25             under 0.02
inaccuracy   under 20         under 2               under 1                under 0.08
mistake      under 60         under 6               under 3                under 0.24
blunder      60 or more       6 or more             3 or more              0.24 or more
===========  ===============  ====================  =====================  ================

The chance of winning has a finer scale than the final round's: a game is decided over
many turns, so a single decision moves it less, and a percentage point of it is worth
more. A best or fine play counts as right. Session ratings compare losses in one unit,
points, at the ratio each scale shares with the points scale (:func:`in_points`): a
percentage point to pass counts as :data:`POINTS_PER_PERCENTAGE_POINT` points, one to win
as :data:`POINTS_PER_WIN_PERCENTAGE_POINT`, and a turn as :data:`POINTS_PER_TURN`.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType

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
    """What a value is in: expected points, a chance (to pass, or to win), or expected turns."""

    POINTS = "points"
    CHANCE = "chance"
    WIN = "win"
    TURNS = "turns"

    @property
    def lower_is_better(self) -> bool:
        """Expected turns still needed: fewer is better; every other value: more is better."""
        return self == Unit.TURNS

    @property
    def is_chance(self) -> bool:
        """A chance (to pass, or to win): from 0 to 1, and a loss of it shown in percentage points."""
        return self in (Unit.CHANCE, Unit.WIN)


GRADES: tuple[Grade, ...] = tuple(Grade)

#: Upper bounds (exclusive) of each grade but the last, in points of expected score lost.
POINT_GRADES: tuple[float, float, float, float] = (0.005, 5.0, 20.0, 60.0)
#: The same in percentage points of a chance.
CHANCE_GRADES: tuple[float, float, float, float] = (0.005, 0.5, 2.0, 6.0)
#: The same in percentage points of the chance of winning a game.
WIN_GRADES: tuple[float, float, float, float] = (0.005, 0.25, 1.0, 3.0)
#: The same in expected turns, for solo play to a target in as few turns as possible.
TURN_GRADES: tuple[float, float, float, float] = (0.0005, 0.02, 0.08, 0.24)
POINTS_PER_PERCENTAGE_POINT = 10.0
POINTS_PER_WIN_PERCENTAGE_POINT = 20.0
POINTS_PER_TURN = 250.0

_BOUNDS: Mapping[Unit, tuple[float, float, float, float]] = MappingProxyType(
    {
        Unit.POINTS: POINT_GRADES,
        Unit.CHANCE: CHANCE_GRADES,
        Unit.WIN: WIN_GRADES,
        Unit.TURNS: TURN_GRADES,
    }
)
_IN_POINTS: Mapping[Unit, float] = MappingProxyType(
    {
        Unit.POINTS: 1.0,
        Unit.CHANCE: POINTS_PER_PERCENTAGE_POINT,
        Unit.WIN: POINTS_PER_WIN_PERCENTAGE_POINT,
        Unit.TURNS: POINTS_PER_TURN,
    }
)

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
    """What a play worth ``chosen`` gives up against ``best``: points, percentage points of a
    chance, or turns (where the best value is the lowest)."""
    unit = Unit(unit)
    diff = max(0.0, chosen - best) if unit.lower_is_better else max(0.0, best - chosen)
    return 100 * diff if unit.is_chance else diff


def grade_scale(unit: Unit) -> tuple[float, float, float, float]:
    """The upper bounds (exclusive) of best, fine, inaccuracy and mistake in ``unit``."""
    return _BOUNDS[Unit(unit)]


def grade_for(lost: float, unit: Unit) -> Grade:
    """The grade of a play that gives up ``lost`` (in the unit's loss: see :func:`loss`)."""
    bounds = grade_scale(unit)
    for bound, grade in zip(bounds, GRADES, strict=False):
        if lost < bound:
            return grade
    return Grade.BLUNDER


def in_points(lost: float, unit: Unit) -> float:
    """A loss in points, at the ratio the unit's grade scale shares with the points scale."""
    return lost * _IN_POINTS[Unit(unit)]


def rating_for(average_loss: float) -> str:
    """The rating of a session whose decisions gave up ``average_loss`` points each on average."""
    for bound, name in RATINGS:
        if average_loss < bound:
            return name
    return RATINGS[-1][1]


def loss_figure(lost: float, unit: Unit) -> str:
    """A loss as a number that never disagrees with its grade (see :func:`figure`)."""
    # Turns are small numbers: a tenth of a turn is a mistake, so they read to the thousandth.
    return figure(lost, grade_scale(unit), digits=3 if Unit(unit) == Unit.TURNS else 2)


def loss_unit_name(unit: Unit) -> str:
    """What a loss in ``unit`` is counted in, as a loss is shown: points, pp or turns."""
    return {Unit.POINTS: "points", Unit.TURNS: "turns"}.get(Unit(unit), "pp")


def gives_up_text(lost: float, unit: Unit) -> str:
    """``"42.07 points"``, ``"3.27 pp"``, ``"0.12 turns"``: a loss, always positive, with its unit."""
    return f"{loss_figure(lost, unit)} {loss_unit_name(unit)}"


def rating_figure(average_loss: float, unit: Unit = Unit.POINTS) -> str:
    """An average loss in ``unit`` (a loss as :func:`loss` gives it) as a number that never
    disagrees with its rating, which reads the average in points (:func:`in_points`)."""
    ratio = _IN_POINTS[Unit(unit)]
    bounds = tuple(bound / ratio for bound, _ in RATINGS[:-1])
    return figure(average_loss, bounds, digits=3 if Unit(unit) == Unit.TURNS else 2)
