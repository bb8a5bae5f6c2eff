"""The two-player solve: the chance of winning at every pair of scores, total by total.

Scores and turn points are counted in levels of 50 (``STEP``). ``W(a, b)`` is the chance
that the player about to start a turn with ``a`` banked wins against an opponent on ``b``
(both below the target ``T``). Inside that turn, with ``t`` turn points and ``n`` dice to
roll, the player may, after every scoring roll, keep any distinct selection and then bank
or roll on:

* banking below the target hands the turn over: worth ``1 - W(b, a + t)``;
* banking to the target or more starts the final round: the opponent gets one last turn
  to pass ``a + t`` (a tie counts one half), so banking is worth ``1 - G(a + t - b)``;
* a Farkle hands the turn over with nothing banked: worth ``1 - W(b, a)``.

Order of solution. A pair ``(a, b)`` needs ``W(b, q)`` for ``q > a`` (a higher total
``a + b``) and, through a Farkle, its mirror ``W(b, a)`` (the same total). Totals are
solved from the highest down; inside a total every pair and its mirror form the
two-variable fixed point ``x = F_ab(1 - y)``, ``y = F_ba(1 - x)``, where ``F`` (the value
of the turn as a function of the Farkle value) is convex, nondecreasing, piecewise linear
with slope below one. All pairs of a total are solved together by Newton steps on that
system, the slope taken from a second evaluation a hair away, until every Bellman
residual is below ``TOLERANCE``. Every number is an expectation over every fair roll;
none is sampled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from farkle_trainer.engine.game.cuts import Game
from farkle_trainer.engine.game.runs import residual
from farkle_trainer.engine.game.settings import GameSolverError, Progress
from farkle_trainer.engine.game.turns import evaluate
from farkle_trainer.engine.keeper import Kept
from farkle_trainer.engine.solver import STEP

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from farkle_trainer.engine.game.kernel import Loop

    FloatArray = NDArray[np.float64]
    IntArray = NDArray[np.int64]

#: Every stored win chance satisfies its Bellman equation to within this.
TOLERANCE = 1e-12
# The Newton slope comes from a second evaluation this far away; the residual test, not
# the slope, decides when a pair is done.
DELTA = 1e-6
MAX_PASSES = 40
# Passes after which a pair still not done is solved for its step rather than its value (see
# _solve_total); every pair of the shipped tables is done well before.
STEPWISE_AFTER = 16


def _guess(w: FloatArray, a: IntArray, b: IntArray) -> FloatArray:
    """A start for Newton, from the solved neighbours one to three totals up.

    Where all are inside the table: the quadratic in both scores fitted (least squares) to
    the seven neighbours ``(1, 0), (0, 1), (2, 0), (1, 1), (0, 2), (2, 1), (1, 2)`` away
    (those weights: 3/2, 3/2, -1/2, -2, -1/2, 1/2, 1/2),
    about a hundred times closer than a plane, so fewer Newton steps cross a kink of the
    turn's value. Near the edges: the plane through the neighbours one and two totals up.
    Only the start depends on this; the residual test decides when a pair is done.
    """
    levels = len(w)
    up_a = a + 1 < levels
    up_b = b + 1 < levels
    a1 = np.minimum(a + 1, levels - 1)
    b1 = np.minimum(b + 1, levels - 1)
    start = np.full(len(a), 0.5)
    start = np.where(up_a & ~up_b, w[a1, b], start)
    start = np.where(~up_a & up_b, w[a, b1], start)
    start = np.where(up_a & up_b, w[a1, b] + w[a, b1] - w[a1, b1], start)
    inner = (a + 2 < levels) & (b + 2 < levels)
    if inner.any():
        ai, bi = a[inner], b[inner]
        start[inner] = (
            1.5 * (w[ai + 1, bi] + w[ai, bi + 1])
            - 2.0 * w[ai + 1, bi + 1]
            - 0.5 * (w[ai + 2, bi] + w[ai, bi + 2])
            + 0.5 * (w[ai + 2, bi + 1] + w[ai + 1, bi + 2])
        )
    return np.clip(start, 0.0, 1.0)


def _solve_total(game: Game, w: FloatArray, total: int, loop: Loop | None) -> int:
    """Solve every pair with ``a + b == total`` into ``w``; returns the passes it took.

    The first pass also evaluates each turn a hair above its Farkle value, for the slope;
    later passes evaluate only pairs not yet done, and take the slope from the last two
    evaluations (a secant, exact on a linear piece).
    """
    levels = game.levels
    a = np.arange(max(0, total - levels + 1), min(total, levels - 1) + 1, dtype=np.int64)
    b = total - a
    count = len(a)
    # The table by standing and run (see .seats): without the penalty, one run only.
    w4 = w[:, None, :, None]
    zero2 = np.zeros(2 * count, dtype=np.int64)
    mirror = count - 1 - np.arange(count)
    x = _guess(w, a, b)
    slope = np.zeros(count)
    last_z = np.full(count, np.nan)
    last_f = np.full(count, np.nan)
    todo = np.ones(count, dtype=bool)
    for passes in range(1, MAX_PASSES + 1):
        idx = np.flatnonzero(todo)
        z = 1.0 - x[mirror[idx]]
        if passes == 1 or passes % 8 == 0:
            step = slope_step(z)
            values = evaluate(
                game,
                w4,
                np.tile(a[idx], 2),
                zero2[: 2 * len(idx)],
                np.tile(b[idx], 2),
                zero2[: 2 * len(idx)],
                np.concatenate([z, z + step]),
                loop=loop,
            )
            f = values.start[: len(idx)]
            slope[idx] = (values.start[len(idx) :] - f) / step
        else:
            f = evaluate(game, w4, a[idx], zero2[: len(idx)], b[idx], zero2[: len(idx)], z, loop=loop).start
            moved = np.abs(z - last_z[idx]) > 1e-10
            secant = (f - last_f[idx]) / np.where(moved, z - last_z[idx], 1.0)
            slope[idx] = np.where(moved, secant, slope[idx])
        last_z[idx], last_f[idx] = z, f
        np.clip(slope, 0.0, 1.0 - 1e-9, out=slope)
        ok = np.ones(count, dtype=bool)
        ok[idx] = np.abs(f - x[idx]) < TOLERANCE
        todo &= ~(ok & ok[mirror])
        if not todo.any():
            break
        # Newton on x_i = F_i(1 - x_j), x_j = F_j(1 - x_i), each F linearised at its last z.
        i = np.flatnonzero(todo)
        j = mirror[i]
        if passes < STEPWISE_AFTER:
            c = last_f + slope * (1.0 - last_z)
            x[i] = np.clip((c[i] - slope[i] * c[j]) / (1.0 - slope[i] * slope[j]), 0.0, 1.0)
        else:
            # The same system solved for the step from x: with the linear models' residuals e,
            # d_i + s_i d_j = e_i. Exact to rounding even when both slopes are within a hair of one
            # (an opening minimum turns all but never reach), where solving for x itself loses the
            # digits the residual test needs and stalls.
            e = last_f + slope * (1.0 - last_z - x[mirror]) - x
            step = (e[i] - slope[i] * e[j]) / (1.0 - slope[i] * slope[j])
            x[i] = np.clip(x[i] + step, 0.0, 1.0)
    else:
        raise GameSolverError(f"win chances did not converge at total {total * STEP:,}")
    w[a, b] = x
    return passes


def slope_step(z: FloatArray) -> FloatArray:
    """How far away the second evaluation for the slope is: a hair up, or a hair down where
    that would push a Farkle value past one (the cut certificates only cover chances)."""
    return np.where(z + DELTA <= 1.0, DELTA, -DELTA)


def solve_totals(
    game: Game, progress: Progress | None = None, loop: Loop | None = None
) -> tuple[FloatArray, int]:
    """The chances of a game without the penalty, total by total from the highest, by the compiled
    ``loop`` (None: with numpy); also the passes it took."""
    levels = game.levels
    w = np.full((levels, levels), 0.5)
    totals = range(2 * levels - 2, -1, -1)
    work = [min(s, 2 * levels - 2 - s) + 1 for s in totals]
    done = 0
    passes = 0
    for total, weight in zip(totals, work, strict=True):
        passes += _solve_total(game, w, total, loop)
        done += weight
        if progress is not None:
            progress(done / sum(work))
    return w, passes


def kept_values(kept: Kept | None, shape: tuple[int, ...]) -> tuple[FloatArray, bool] | None:
    """The values of a kept table, if they are of this shape and finite floats only, and whether
    they ship with the package (then their bytes are pinned: they need no further check)."""
    if kept is None:
        return None
    values = kept.arrays["values"]
    if values.shape != shape or values.dtype != np.float64 or not np.isfinite(values).all():
        return None
    return values, kept.shipped


#: About how many turn starts a kept table's equations are checked at, spread over the table.
CHECKED_STATES = 144


def spread_states(size: int, runs: int, count: int) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """Turn starts ``(u, r, v, q)`` spread over a table: a grid over both standings, and in each
    cell of it one turn start for every pair of runs (at a place in the cell fixed by the table's
    size), with the corners. A change to a whole cell, in any pair of runs, meets a checked
    equation: about a ``count``-th of the table."""
    rng = np.random.default_rng(size * 7 + runs)
    side = max(1, min(size, round(np.sqrt(count) / runs)))
    edges = np.linspace(0, size, side + 1).astype(np.int64)
    cells = [(a, b) for a in range(side) for b in range(side)]
    pairs = [(r, q) for r in range(runs) for q in range(runs)]
    lo_u = np.array([edges[a] for a, _ in cells for _ in pairs])
    hi_u = np.array([edges[a + 1] for a, _ in cells for _ in pairs])
    lo_v = np.array([edges[b] for _, b in cells for _ in pairs])
    hi_v = np.array([edges[b + 1] for _, b in cells for _ in pairs])
    u = rng.integers(lo_u, np.maximum(hi_u, lo_u + 1))
    v = rng.integers(lo_v, np.maximum(hi_v, lo_v + 1))
    r = np.array([r for _ in cells for r, _ in pairs], dtype=np.int64)
    q = np.array([q for _ in cells for _, q in pairs], dtype=np.int64)
    corners = np.array([0, size - 1, 0, size - 1], dtype=np.int64)
    zeros = np.zeros(4, dtype=np.int64)
    return (
        np.concatenate([corners, u]),
        np.concatenate([zeros, r]),
        np.concatenate([corners[::-1], v]),
        np.concatenate([zeros, q]),
    )


def sound(game: Game, w: FloatArray) -> bool:
    """Whether a kept table is this game's: a file can be whole and still not, so the
    equations are checked at turn starts spread over the whole table (see :func:`spread_states`)."""
    if (w < 0).any() or (w > 1).any():
        return False
    seats = game.seats
    u, r, v, q = spread_states(seats.size, seats.runs, CHECKED_STATES)
    return residual(game, w, u, r, v, q) <= 1e-9
