"""How many decisions a solo game to the target takes, played as its table plays it.

A decision is a roll that scores: what to set aside, then bank or roll on (a Farkle is none). The
table plays each roll's best set-aside, the one with the most points among equals, and rolls on
where that is at least as good as banking; at the target every scoring roll banks.

The count is exact, as the table's own values are: for every standing at once, turn points run
down from the target, and at each the expected decisions still to come in the game follow from
the rolls' chances and those already known above. A Farkle leads to another turn from the
standing it leaves, whose count is not known yet: each count is kept as ``a + b x`` in the count
``x`` after a Farkle, and settled once the turn's start is reached (without the three-Farkle
penalty the Farkle leads back to the same standing, so ``x = a / (1 - b)``). Under the penalty a
third Farkle leads to a lower score: sweeps repeat, that score's count from the sweep before,
until nothing moves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from farkle_trainer.engine.game.settings import GameSolverError

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from farkle_trainer.engine.game.rolls import Rolls
    from farkle_trainer.engine.game.seats import Seats
    from farkle_trainer.engine.game.turns import Pass

    FloatArray = NDArray[np.float64]

#: Sweeps under the penalty stop once no count moves by more than this.
TOLERANCE = 1e-12
MAX_SWEEPS = 200
#: Rolling on is as good as banking within this much (the tables' own ties).
TIE = 1e-12


def solo_decisions(rolls: Rolls, seats: Seats, turns: FloatArray, turn: Pass) -> FloatArray:
    """``decisions[u, r]``: the expected decisions from the start of a turn at each standing and
    run to the target. ``turn`` holds every standing's turn (columns ``u * runs + r``), its values
    minus the expected further turns, with the values at every position (``keep``)."""
    assert turn.after is not None and turn.rolled is not None
    levels, runs = seats.levels, seats.runs
    u = np.repeat(np.arange(seats.size), runs)
    r = np.tile(np.arange(runs), seats.size)
    width = len(u)
    start = seats.score[u]
    after_u, after_r = seats.after_farkle(u, r)
    farkled = after_u * runs + after_r  # the column a Farkle leads to
    # What banking at each position is worth, as the table reads it: the further turns from the
    # standing reached (none at the target), never below the opening minimum before opening.
    height = levels + rolls.maxp + 1
    pos = np.arange(height)[:, None]
    bank = np.zeros((height, width))
    bank[:levels] = -turns[:levels, 0][:, None]
    bank[seats.below_least(u, pos)] = -np.inf
    value = np.zeros((height, 6, width))  # once set aside: the better of banking and rolling on
    rolled = np.full((height, 6, width), -np.inf)
    value[:levels] = turn.after[:levels]
    rolled[:levels] = turn.rolled[:levels]
    rolls_on = rolled >= bank[:, None, :] - TIE
    rolls_on[levels:] = False  # at the target every scoring roll banks
    counts = np.zeros(height)  # a bank's count: the decisions from the standing it reaches
    found = np.zeros(width)
    previous = np.full(width, np.inf)
    points, dice = rolls.points, rolls.dice - 1
    for _ in range(MAX_SWEEPS):
        a = np.zeros((height, 6, width))  # the decisions still to come: a + b x
        b = np.zeros((height, 6, width))
        for level in range(levels - 1, -1, -1):
            to = level + points
            values = value[to, dice]  # (options, width), in slot order
            best = values[: rolls.nsets].copy()
            on = rolls_on[to, dice]
            take_a = np.where(on, a[to, dice], counts[to][:, None])
            take_b = np.where(on, b[to, dice], 0.0)
            best_a, best_b = take_a[: rolls.nsets].copy(), take_b[: rolls.nsets].copy()
            offset = rolls.nsets
            for count in rolls.slots[1:]:
                # Options run from the fewest points up: among equal values the most points.
                later = values[offset : offset + count] >= best[:count]
                best[:count] = np.where(later, values[offset : offset + count], best[:count])
                best_a[:count] = np.where(later, take_a[offset : offset + count], best_a[:count])
                best_b[:count] = np.where(later, take_b[offset : offset + count], best_b[:count])
                offset += count
            a[level] = rolls.prob @ (1.0 + best_a)
            b[level] = rolls.prob @ best_b + rolls.farkle[:, None]
            # Turns that start here are settled: their count after a Farkle is another turn's.
            here = np.flatnonzero(start == level)
            if len(here):
                found[here] = _settle(a[level, 5, here], b[level, 5, here], here, farkled, found, runs)
            if level > 0:  # a bank reaches this score's standing, its run started again
                counts[level] = found[level * runs]
        if runs == 1 or np.abs(found - previous).max() <= TOLERANCE * max(1.0, float(found.max())):
            return found.reshape(seats.size, runs)
        previous = found.copy()
    raise GameSolverError("the count of decisions under the three-Farkle penalty did not settle")


def _settle(
    a: FloatArray,
    b: FloatArray,
    here: NDArray[np.int64],
    farkled: NDArray[np.int64],
    found: FloatArray,
    runs: int,
) -> FloatArray:
    """The counts of the turns starting at one score, ``a + b x`` each with ``x`` the count after
    a Farkle: the same standing without the penalty; else the next run of the same score, and
    from the last run a lower score's first, as the sweep before left it."""
    if runs == 1:
        return a / (1.0 - b)
    settled = np.empty(len(here))
    column = {int(c): i for i, c in enumerate(here)}
    # The last run first: its Farkle leaves this score.
    for i in sorted(range(len(here)), key=lambda i: -(int(here[i]) % runs)):
        then = int(farkled[here[i]])
        x = settled[column[then]] if then in column and int(here[i]) % runs < runs - 1 else found[then]
        settled[i] = a[i] + b[i] * x
    return settled
