"""One evaluation of many turns at once, each column a turn with its own bank values and
Farkle value: with numpy, or by the compiled loop of :mod:`~farkle_trainer.engine.game.kernel`.

The solves value turns with the compiled loop (numba, loaded only then); looking up a solved
table stays with numpy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from farkle_trainer.engine.game.cuts import Game
from farkle_trainer.engine.game.rolls import Rolls

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from farkle_trainer.engine.game.kernel import Loop

    FloatArray = NDArray[np.float64]
    IntArray = NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class Turns:
    """Many turns to value at once, one column each.

    ``bank[pos, col]`` is what banking at position ``pos`` is worth (``-inf`` where it is
    not allowed). Column ``col``'s turn starts at position ``a[col]``, from ``cut[col]`` up
    banking is known to be best, and a Farkle is worth ``farkle[col]``.
    """

    bank: FloatArray
    a: IntArray
    cut: IntArray
    farkle: FloatArray


@dataclass
class Pass:
    """One evaluation of many turns at once, each with its own Farkle value."""

    start: FloatArray  # (w,) the value of rolling six dice at the turn's start
    after: FloatArray | None = None  # (positions, 6, w) value once dice are set aside
    rolled: FloatArray | None = None  # (positions, 6, w) value of rolling n dice


def bank_values(game: Game, w: FloatArray, u: IntArray, v: IntArray, q: IntArray, height: int) -> FloatArray:
    """``bank[pos, col]`` for positions 0..height-1: ``-inf`` where banking is not allowed.

    ``w[u, r, v, q]`` is the table of turn-start chances by standing and run (see
    :mod:`.seats`); column ``col`` is the turn of a player standing at ``u[col]`` against an
    opponent at ``v[col]`` with ``q[col]`` Farkles in a row. Banking ends the mover's run.
    """
    levels = game.levels
    seats = game.seats
    pos = np.arange(height)[:, None]
    bank = np.empty((height, len(u)))
    below = min(height, levels)
    bank[:below] = 1.0 - w[v, q, :below, 0].T
    if height > levels:
        lead = pos[levels:] - seats.score[v][None, :]
        bank[levels:] = 1.0 - game.g(seats.opened[v][None, :], lead)
    bank[pos <= seats.score[u][None, :]] = 0.0  # never read: a selection always adds points
    bank[seats.below_least(u, pos)] = -np.inf
    return bank


def farkle_values(
    game: Game, w: FloatArray, u: IntArray, r: IntArray, v: IntArray, q: IntArray
) -> FloatArray:
    """What a Farkle is worth to each mover: the opponent's turn comes next, with the mover's
    run one longer, or (the third in a row) with the penalty paid and the run started again."""
    after, run = game.seats.after_farkle(u, r)
    return 1.0 - w[v, q, after, run]


def evaluate(
    game: Game,
    w: FloatArray,
    u: IntArray,
    r: IntArray,
    v: IntArray,
    q: IntArray,
    farkle: FloatArray | None = None,
    *,
    keep: bool = False,
    top: int = 0,
    loop: Loop | None = None,
) -> Pass:
    """The value of the turn from each standing, with Farkle value ``farkle`` (by default what
    ``w`` says a Farkle is worth there)."""
    z = farkle_values(game, w, u, r, v, q) if farkle is None else farkle
    cut = np.maximum(game.cut(u, v, z), top)
    bank = bank_values(game, w, u, v, q, int(cut.max()) + game.rolls.maxp + 1)
    return turn_values(game.rolls, Turns(bank, game.seats.score[u], cut, z), keep=keep, loop=loop)


def turn_values(rolls: Rolls, turns: Turns, *, keep: bool = False, loop: Loop | None = None) -> Pass:
    """Many turns at once; ``keep`` also returns the values at every position.

    ``loop``: by the compiled loop (:meth:`~farkle_trainer.engine.tables.Tables.loop`), as the
    solves do (about five times faster per turn and core, but loading numba takes about half a
    second, too long for looking up a few turns of a solved table); None, with numpy. They agree
    to rounding.
    """
    if loop is None:
        return _turn_values_numpy(rolls, turns, keep)
    from farkle_trainer.engine.game.kernel import turn_columns

    if len(turns.bank) < int(turns.cut.max()) + rolls.maxp + 1:
        raise ValueError("the bank values must reach the highest cut plus the most points")
    start, after, rolled = turn_columns(
        loop,
        np.ascontiguousarray(turns.bank, dtype=np.float64),
        np.ascontiguousarray(turns.a, dtype=np.int64),
        np.ascontiguousarray(turns.cut, dtype=np.int64),
        np.ascontiguousarray(turns.farkle, dtype=np.float64),
        rolls.farkle,
        rolls.tables,
        keep=keep,
    )
    result = Pass(start=start)
    if keep:
        assert after is not None and rolled is not None
        result.after, result.rolled = after, rolled
    return result


def _turn_values_numpy(rolls: Rolls, turns: Turns, keep: bool) -> Pass:
    """Positions run down from the highest cut. Columns are kept in an order where the active
    ones form a prefix: by cut (highest first) above every start, then by start (lowest
    first) below every cut.
    """
    maxp = rolls.maxp
    height = len(turns.bank)
    switch = int(turns.cut.min())
    order = np.argsort(-turns.cut, kind="stable")
    a, farkle, cut = turns.a[order], turns.farkle[order], turns.cut[order]
    bank = turns.bank[:, order]
    after = np.repeat(bank[:, None, :], 6, axis=1)
    rolled = np.zeros_like(after) if keep else None
    fz = rolls.farkle[:, None] * farkle[None, :]
    rows = rolls.rows_up()
    width = len(a)
    start = np.empty(width)
    phase_two = False  # there always is one: every cut is above every start
    positions = np.arange(height)
    active = np.searchsorted(-cut, -positions, side="right").tolist()
    finished = active
    for pos in range(height - maxp - 1, int(a.min()) - 1, -1):
        if not phase_two and pos < switch:
            phase_two = True
            again = np.argsort(a, kind="stable")
            order = order[again]
            a, farkle, cut = a[again], farkle[again], cut[again]
            bank, after, fz = bank[:, again], after[:, :, again], fz[:, again]
            if rolled is not None:
                rolled = rolled[:, :, again]
            active = np.searchsorted(a, positions, side="right").tolist()
            finished = np.searchsorted(a, positions, side="left").tolist()
        k = active[pos]
        if k == 0:
            continue
        window = after[pos + 1 : pos + 1 + maxp].reshape(maxp * 6, width)[:, :k]
        best = rolls.best(window[rows])
        row = rolls.prob @ best
        row += fz[:, :k]
        if rolled is not None:
            rolled[pos, :, :k] = row
        np.maximum(row, bank[pos, :k], out=after[pos, :, :k])
        done = finished[pos]
        if done < k:
            start[done:k] = row[5, done:k]
    back = np.empty(width, dtype=np.int64)
    back[order] = np.arange(width)
    result = Pass(start=start[back])
    if keep:
        assert rolled is not None
        result.after = after[:, :, back]
        result.rolled = rolled[:, :, back]
    return result
