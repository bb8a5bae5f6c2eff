"""What the game solver can solve for, checked: a target and opening minimum in range, no
three-Farkle penalty; scores and turn points in levels of 50; and the error for the rest."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from farkle_trainer.engine.errors import InputError
from farkle_trainer.engine.rules import MAX_TARGET, MIN_TARGET, Rules
from farkle_trainer.engine.solver import STEP

#: Told the fraction done as a solve goes.
Progress = Callable[[float], None]

#: The layout of every table the game solver keeps (see :class:`~farkle_trainer.engine.keeper.TableKey`).
FORMAT = 1


class GameSolverError(InputError):
    """A game the solver cannot give exact chances for (a rule or a target out of range)."""


def resolve(
    rules: Rules, target: int | None, opening: int | None, values: str = "win chances"
) -> tuple[int, int]:
    """The target and opening minimum to solve for (the rules' own by default), checked."""
    if rules.three_farkle_penalty:
        # With the penalty a Farkle can lower a score, so totals no longer order the pairs:
        # the nine times larger state space (both runs of Farkles) must be iterated as a
        # whole. One sweep over the plain game's 40,000 turn starts to 10,000 already takes
        # about a minute here, and value iteration needs dozens; an estimate is not offered.
        raise GameSolverError(f"{values} are not available with the three-Farkle penalty rule")
    chosen = target is not None
    target = rules.target if target is None else target
    opening = rules.opening_minimum if opening is None else opening
    if not isinstance(target, int) or target % STEP or not MIN_TARGET <= target <= MAX_TARGET:
        shown = f"{target:,}" if isinstance(target, int) else repr(target)
        whose = "" if chosen else f" (the {rules.name} rules' own; give another target)"
        raise GameSolverError(
            f"win chances need a target that is a multiple of {STEP} from {MIN_TARGET:,} to "
            f"{MAX_TARGET:,}, not {shown}{whose}"
        )
    if not isinstance(opening, int) or opening % STEP or not 0 <= opening <= target:
        shown = f"{opening:,}" if isinstance(opening, int) else repr(opening)
        raise GameSolverError(
            f"the opening minimum must be a multiple of {STEP} from 0 to the target of {target:,}, "
            f"not {shown}"
        )
    return target, opening


def in_levels(points: int) -> int:
    """Points (a score or turn points) in levels of 50."""
    if isinstance(points, bool) or not isinstance(points, int | np.integer) or points < 0 or points % STEP:
        raise ValueError(f"points must be a non-negative multiple of {STEP}, not {points!r}")
    return int(points) // STEP
