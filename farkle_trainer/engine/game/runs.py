"""The two-player solve under the three-Farkle penalty: the runs of Farkles join the state.

``W(u, r, v, q)`` is the chance that the player about to start a turn wins, standing at ``u``
with ``r`` Farkled turns in a row so far, against an opponent at ``v`` with ``q`` (standings as
in :mod:`.seats`). Inside the turn everything is as without the penalty (:mod:`.solve`),
except what ends it:

* banking ends the mover's run: ``1 - W(v, q, u + t, 0)``, or the final round from the target;
* a Farkle hands the turn over with the mover's run one longer, ``1 - W(v, q, u, r + 1)``;
  the third in a row costs the penalty (never below 0) and starts the run again,
  ``1 - W(v, q, knocked(u), 0)``. In a last turn of the final round a Farkle just ends the game.

The bank values of a turn depend on ``(v, q)`` only; the mover's run only moves the Farkle
value. Order of solution: a Farkle before the third keeps the total ``a + b`` and passes to
the mirror with one more Farkle in the run, so inside a total each state follows a chain
``(u, r, v, q) -> (v, q, u, r + 1) -> (u, r + 1, v, q + 1) -> ...`` that ends at a state whose
mover has Farkled twice: its Farkle pays the penalty, which lowers the total. So a sweep over
the totals from the highest down, each total's chains from their ends back, values every
state exactly once from values that are final, except at those chain ends, which read the
lower total from the sweep before. Sweeps are repeated until no value moves by more than
:data:`TOLERANCE`: each value is then within that of its own equation, because a sweep sets
each to its equation's right side and the turn's value moves no more than its inputs.
The lag is all that needs sweeping again, and a penalty is paid on few paths: a sweep takes
about a twentieth off what is still wrong. Every number is an expectation over every fair
roll; none is sampled.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from farkle_trainer.engine.game.cuts import Game
from farkle_trainer.engine.game.settings import GameSolverError, Progress
from farkle_trainer.engine.game.turns import evaluate

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from farkle_trainer.engine.game.kernel import Loop

    FloatArray = NDArray[np.float64]
    IntArray = NDArray[np.int64]

#: Solved when a whole sweep moves no value by more than this.
TOLERANCE = 1e-12
MAX_SWEEPS = 60
# How many sweeps a solve is first expected to take (measured on the presets); the estimate
# follows the sweeps' own convergence once two are done.
EXPECTED_SWEEPS = 9


@dataclass(frozen=True)
class _Stage:
    """States valued together: one total, one step from the chains' ends."""

    u: IntArray
    r: IntArray
    v: IntArray
    q: IntArray


def states(game: Game) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """Every turn start ``(u, r, v, q)`` of the game, as four flat arrays."""
    seats = game.seats
    grids = np.meshgrid(
        np.arange(seats.size),
        np.arange(seats.runs),
        np.arange(seats.size),
        np.arange(seats.runs),
        indexing="ij",
    )
    u, r, v, q = (g.ravel() for g in grids)
    return u, r, v, q


def _stages(game: Game) -> list[_Stage]:
    """Every turn start, in the order of a sweep."""
    u, r, v, q = states(game)
    last = game.seats.runs - 1
    total = game.seats.score[u] + game.seats.score[v]
    # Steps along the chain to the state whose mover pays the penalty on a Farkle: the mover's
    # and the opponent's runs grow in turn.
    steps = np.minimum(2 * (last - r), 2 * (last - q) + 1)
    order = np.lexsort((steps, -total))
    u, r, v, q, total, steps = (x[order] for x in (u, r, v, q, total, steps))
    keys = total * 8 + steps
    cuts = np.flatnonzero(np.diff(keys)) + 1
    return [
        _Stage(*(x[s] for x in (u, r, v, q)))
        for s in (slice(a, b) for a, b in zip((0, *cuts), (*cuts, len(u)), strict=True))
    ]


def initial_guess(game: Game, plain: FloatArray) -> FloatArray:
    """A start for the sweeps: the game without the penalty (``plain[a, b]``), for every run."""
    score = game.seats.score
    size, runs = game.seats.size, game.seats.runs
    w = np.empty((size, runs, size, runs))
    w[:] = plain[np.ix_(score, score)][:, None, :, None]
    return w


def sweep(game: Game, w: FloatArray, *, loop: Loop | None = None, done: Progress | None = None) -> float:
    """One sweep over every state, in place; returns the largest change of a value."""
    stages = _stages(game)
    count = sum(len(s.u) for s in stages)
    moved = 0.0
    seen = 0
    for stage in stages:
        start = evaluate(game, w, stage.u, stage.r, stage.v, stage.q, loop=loop).start
        before = w[stage.u, stage.r, stage.v, stage.q]
        moved = max(moved, float(np.abs(start - before).max()))
        w[stage.u, stage.r, stage.v, stage.q] = start
        seen += len(stage.u)
        if done is not None:
            done(seen / count)
    return moved


def solve_runs(
    game: Game, plain: FloatArray, progress: Progress | None = None, *, loop: Loop | None = None
) -> FloatArray:
    """Every ``W(u, r, v, q)`` of a game with the penalty, from the plain game's chances.

    ``progress`` is told the fraction done: sweeps done over the sweeps expected, the estimate
    taken from how fast the last sweeps shrank the changes. Turns are valued by the compiled
    ``loop`` (None: with numpy).
    """
    w = initial_guess(game, plain)
    expected = float(EXPECTED_SWEEPS)
    shown = [0.0]
    changes: list[float] = []
    for done in range(MAX_SWEEPS):
        told = _Told(progress, shown, done, expected)
        changes.append(sweep(game, w, loop=loop, done=told))
        if changes[-1] <= TOLERANCE:
            if progress is not None:
                progress(1.0)
            return w
        if len(changes) >= 3:
            expected = done + 1 + _sweeps_left(changes)
    raise GameSolverError("win chances with the three-Farkle penalty did not converge")


@dataclass(frozen=True)
class _Told:
    """Tells ``progress`` how far a sweep has come, as a share of the whole solve: never
    backwards, so a new estimate only slows the bar down or speeds it up."""

    progress: Progress | None
    shown: list[float]
    done: int
    expected: float

    def __call__(self, fraction: float) -> None:
        self.shown[0] = max(self.shown[0], min(0.99, (self.done + fraction) / self.expected))
        if self.progress is not None:
            self.progress(self.shown[0])


def _sweeps_left(changes: list[float]) -> float:
    """Sweeps still needed if the changes keep shrinking as the last two sweeps did."""
    ratio = changes[-1] / changes[-2] if changes[-2] > 0 else 0.0
    if not 0.0 < ratio < 1.0:
        return 1.0
    return max(1.0, math.ceil(math.log(TOLERANCE / changes[-1]) / math.log(ratio)))


def residual(game: Game, w: FloatArray, u: IntArray, r: IntArray, v: IntArray, q: IntArray) -> float:
    """The largest Bellman residual of ``w`` at these turn starts."""
    start = evaluate(game, w, u, r, v, q).start
    return float(np.abs(start - w[u, r, v, q]).max())
