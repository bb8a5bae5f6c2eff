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

Whole games grade on two more scales: the chance of winning a two-player game
(:data:`GAME_GRADES`: best under 0.005, fine under 0.25, inaccuracy under 1, mistake under 3
percentage points, blunder from 3) and the expected number of turns to reach a solo target
(:data:`TURN_GRADES`: best under 0.0005, fine under 0.02, inaccuracy under 0.1, mistake under
0.3 turns, blunder from 0.3).

A best or fine play counts as right. Session ratings compare losses in one unit, where a
percentage point of a chance counts as :data:`POINTS_PER_PERCENTAGE_POINT` points, the
ratio the two scales share (:data:`RATINGS`); a percentage point of winning chance and a
turn count as :data:`POINTS_PER_GAME_POINT` and :data:`POINTS_PER_TURN` points, the ratios
their mistake bounds share with the points scale.
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
    #: The chance of winning a two-player game (shown in percentage points).
    GAME = "game"
    #: Expected turns to reach a solo target; fewer is better.
    TURNS = "turns"


GRADES: tuple[Grade, ...] = tuple(Grade)

#: Upper bounds (exclusive) of each grade but the last, in points of expected score lost.
POINT_GRADES: tuple[float, float, float, float] = (0.005, 5.0, 20.0, 60.0)
#: The same in percentage points of a chance.
CHANCE_GRADES: tuple[float, float, float, float] = (0.005, 0.5, 2.0, 6.0)
POINTS_PER_PERCENTAGE_POINT = 10.0
#: Percentage points of the chance of winning a game.
GAME_GRADES: tuple[float, float, float, float] = (0.005, 0.25, 1.0, 3.0)
#: Expected turns to reach a solo target.
TURN_GRADES: tuple[float, float, float, float] = (0.0005, 0.02, 0.1, 0.3)
POINTS_PER_GAME_POINT = 20.0
POINTS_PER_TURN = 200.0

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
    """What a play worth ``chosen`` gives up against ``best``: points, percentage points, or turns.

    Turns are the one unit where less is better: a play gives up ``chosen - best`` of them.
    """
    if unit == Unit.TURNS:
        return max(0.0, chosen - best)
    diff = max(0.0, best - chosen)
    return diff if unit == Unit.POINTS else 100 * diff


def bounds_for(unit: Unit) -> tuple[float, float, float, float]:
    """The upper bounds of best, fine, inaccuracy and mistake in ``unit``."""
    return {
        Unit.POINTS: POINT_GRADES,
        Unit.CHANCE: CHANCE_GRADES,
        Unit.GAME: GAME_GRADES,
        Unit.TURNS: TURN_GRADES,
    }[unit]


def grade_for(lost: float, unit: Unit) -> Grade:
    """The grade of a play that gives up ``lost`` (points, percentage points or turns)."""
    for bound, grade in zip(bounds_for(unit), GRADES, strict=False):
        if lost < bound:
            return grade
    return Grade.BLUNDER


def in_points(lost: float, unit: Unit) -> float:
    """A loss in points, for ratings that compare units (see the module's table)."""
    factor = {
        Unit.POINTS: 1.0,
        Unit.CHANCE: POINTS_PER_PERCENTAGE_POINT,
        Unit.GAME: POINTS_PER_GAME_POINT,
        Unit.TURNS: POINTS_PER_TURN,
    }[unit]
    return lost * factor


def rating_for(average_loss: float) -> str:
    """The rating of a session whose decisions gave up ``average_loss`` points each on average."""
    for bound, name in RATINGS:
        if average_loss < bound:
            return name
    return RATINGS[-1][1]


def loss_figure(lost: float, unit: Unit) -> str:
    """A loss as a number that never disagrees with its grade (see :func:`figure`)."""
    return figure(lost, bounds_for(unit))


def gives_up_text(lost: float, unit: Unit) -> str:
    """``"42.07 points"``, ``"3.27 pp"``, ``"0.12 turns"``: a loss, always positive, with its unit."""
    name = {Unit.POINTS: "points", Unit.TURNS: "turns"}.get(unit, "pp")
    return f"{loss_figure(lost, unit)} {name}"


def rating_figure(average_loss: float) -> str:
    """An average loss as a number that never disagrees with its rating."""
    return figure(average_loss, tuple(bound for bound, _ in RATINGS[:-1]))
