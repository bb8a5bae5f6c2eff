"""What the game solver can solve for, checked: a target and opening minimum in range (the
checks themselves are in :mod:`farkle_trainer.engine.gameplan`, which a command reads before
the solver loads); scores and turn points in levels of 50; and the error for the rest."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from farkle_trainer.engine.gameplan import FORMAT, GameSolverError, resolve
from farkle_trainer.engine.solver import STEP

__all__ = ("FORMAT", "GameSolverError", "Progress", "in_levels", "resolve")

#: Told the fraction done as a solve goes.
Progress = Callable[[float], None]


def in_levels(points: int) -> int:
    """Points (a score or turn points) in levels of 50."""
    if isinstance(points, bool) or not isinstance(points, int | np.integer) or points < 0 or points % STEP:
        raise ValueError(f"points must be a non-negative multiple of {STEP}, not {points!r}")
    return int(points) // STEP
