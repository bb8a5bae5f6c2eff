"""Where a turn stops: above the target it is cut exactly where banking is certainly best.

A turn that has banked to the target or more hands the opponent one last turn, so from there
on what banking is worth depends only on the lead: the final-turn tables give it. The cut
certificates (:func:`cut_table`) say from which lead on a turn banks at once, so the solves
never value positions that cannot matter.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from farkle_trainer.engine.game.final import FinalTurn
from farkle_trainer.engine.game.rolls import Rolls
from farkle_trainer.engine.game.seats import Seats
from farkle_trainer.engine.game.settings import GameSolverError
from farkle_trainer.engine.rules import Rules

if TYPE_CHECKING:
    from numpy.typing import NDArray

    FloatArray = NDArray[np.float64]
    IntArray = NDArray[np.int64]
    BoolArray = NDArray[np.bool_]

# A pair whose opponent is this unlikely to win even after a Farkle may cut its turn
# where the final turn's chance is below it too: the value moves by less than this.
_NEGLIGIBLE = 1e-13


@dataclass(frozen=True, eq=False)
class Game:
    """Everything fixed by the rules, target, opening minimum and penalty (levels), before solving."""

    rules: Rules
    levels: int  # T: scores 0..T-1 are below the target
    opening: int  # O in levels
    seats: Seats  # the standings of a player at a turn's start
    rolls: Rolls
    final: FinalTurn
    span: int  # leads covered by the final-turn tables
    g_open: FloatArray  # (span,) G(d): an opened opponent passes a lead of d levels
    g_closed: FloatArray  # (span,) the same for an opponent on 0
    x_open: FloatArray  # (span,) cut certificates, see cut_table
    x_closed: FloatArray

    @property
    def penalty(self) -> int:
        """The three-Farkle penalty in levels (0: none)."""
        return self.seats.penalty

    def g(self, opened: BoolArray, lead: IntArray) -> FloatArray:
        """G(d): the chance that an opponent (opened or not) passes a lead of ``lead`` levels."""
        lead = np.minimum(lead, self.span - 1)
        return np.where(opened, self.g_open[lead], self.g_closed[lead])

    def cut(self, u: IntArray, v: IntArray, farkle: FloatArray) -> IntArray:
        """The lowest position from which banking is certainly best for the turns of a player
        standing at ``u`` against an opponent at ``v`` (see :mod:`.seats`)."""
        b = self.seats.score[v]
        opponent_opened = self.seats.opened[v]
        cuts = np.empty(len(u), dtype=np.int64)
        for opened, table in ((True, self.x_open), (False, self.x_closed)):
            sel = opponent_opened == opened
            if not sel.any():
                continue
            # table is nondecreasing: the first lead whose certificate covers the Farkle value.
            lead = np.searchsorted(table, farkle[sel], side="left")
            if (lead >= len(table)).any():
                raise GameSolverError("the final-turn tables are too short for this game")
            cuts[sel] = b[sel] + lead
        cuts = np.maximum(cuts, self.levels)
        return np.maximum(cuts, self.seats.score[u] + self.seats.least[u])


def cut_table(rolls: Rolls, g: FloatArray) -> FloatArray:
    """``X[d]``: a turn above the target with lead ``d`` or more banks at once if its Farkle
    value is at most ``X[d]``.

    Why: above the target banking is worth ``1 - G(d)``, which only grows with the lead, so
    this is a monotone stopping problem. Rolling once more and then banking beats banking by
    ``D = sum_rolls p (G(d) - G(d + best points)) - f_n (1 - G(d) - x)``; where ``D <= 0`` for
    every dice count at every lead from ``d`` up, that set of states is closed and the
    one-step look-ahead rule (bank) is optimal in it. ``D <= 0`` reads ``x <= X_n(d)``, so the
    certificate is the suffix minimum of ``min_n X_n``. Past the table ``X_n(d) >= 1 - G(d) /
    f_min`` (the gain term is at most ``(1 - f_n) G(d)``), which closes the suffix.
    A Farkle value within ``_NEGLIGIBLE`` of 1 (the opponent all but cannot win) is also
    cut once ``G(d) <= _NEGLIGIBLE``: both bank and roll are then within that of 1.
    """
    span = len(g)
    usable = span - rolls.maxp
    d = np.arange(usable)
    gain = rolls.prob @ (g[d][None, :] - g[d[None, :] + rolls.best_points[:, None]])
    x = (1.0 - g[d])[None, :] - gain / rolls.farkle[:, None]
    x_min = x.min(axis=0)
    tail = 1.0 - g[usable] / rolls.farkle.min()
    suffix = np.minimum.accumulate(np.append(x_min, tail)[::-1])[::-1][:usable]
    negligible = np.where(g[:usable] <= _NEGLIGIBLE, 1.0, -np.inf)
    return np.maximum(suffix, negligible)


def passing(final: FinalTurn, least: int) -> FloatArray:
    """``G(d)`` for every lead ``d`` the final-turn tables cover: the chance that an opponent who
    may bank no less than ``least`` levels passes a lead of ``d`` in their last turn. Where the
    least is above the tie, only reaching the least itself is left."""
    g = final.tie[:, 5].copy()
    if least > 0:
        span = len(g)
        g = np.where(least > np.arange(span), final.reach[min(least, span - 1), 5], g)
    return g


def span_for(levels: int, rolls: Rolls) -> int:
    """The leads the final-turn tables of a game to ``levels`` cover: far enough that passing them
    is all but impossible, and always several of the longest single selections (a table of huge
    values can jump far)."""
    return 3 * levels + max(800, 4 * rolls.maxp)


def game_for(rules: Rules, seats: Seats, rolls: Rolls, final: FinalTurn) -> Game:
    """The game of ``rules`` between players at ``seats`` (its target, opening minimum and
    penalty), from the rules' merged ``rolls`` and their ``final`` turn tables over
    :func:`span_for` leads."""
    levels, opening = seats.levels, seats.opening
    span = len(final.tie)
    if span != span_for(levels, rolls):
        raise ValueError(f"a game to {levels} levels needs final turns over {span_for(levels, rolls)} leads")
    g_open = passing(final, seats.least_bank(True))
    g_closed = passing(final, seats.least_bank(False))
    return Game(
        rules=rules,
        levels=levels,
        opening=opening,
        seats=seats,
        rolls=rolls,
        final=final,
        span=span,
        g_open=g_open,
        g_closed=g_closed,
        x_open=cut_table(rolls, g_open),
        x_closed=cut_table(rolls, g_closed),
    )
