"""The last turn of a game: the chance that a player who must pass a leader does so."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from farkle_trainer.engine.game.rolls import Rolls
from farkle_trainer.engine.game.settings import FORMAT
from farkle_trainer.engine.keeper import TableKey
from farkle_trainer.engine.rules import Rules

if TYPE_CHECKING:
    from numpy.typing import NDArray

    FloatArray = NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class FinalTurn:
    """The last turn of a game, for the player who must pass a leader.

    ``tie[r, n - 1]``: the chance of winning (a tie counts one half) by rolling ``n`` dice
    when ``r >= 0`` more levels would tie the leader. ``reach[r, n - 1]``: the chance of
    ending the turn with at least ``r`` more levels (an unopened player whose opening
    minimum is above the tie has only that). Both only depend on what is still missing,
    and more points never hurt here.
    """

    tie: FloatArray
    reach: FloatArray


def final_turn(rolls: Rolls, size_: int) -> FinalTurn:
    maxp = rolls.maxp
    rows = rolls.rows_down()
    tables = []
    for tie in (True, False):
        # after[maxp + r, m - 1]: the value once dice for ``r`` missing levels are set aside.
        after = np.empty((maxp + size_, 6))
        after[:maxp] = 1.0  # already past the leader (or the need): bank
        rolled = np.empty((size_, 6))
        for r in range(size_):
            window = after[r : r + maxp].reshape(-1, 1)
            best = rolls.best(window[rows])
            row = (rolls.prob @ best)[:, 0]
            rolled[r] = row
            if r == 0:
                # Exactly level: a tie banks one half; with nothing missing a reach is made.
                after[maxp] = np.maximum(row, 0.5) if tie else 1.0
            else:
                after[maxp + r] = row  # behind: banking loses
        tables.append(rolled)
    return FinalTurn(tie=tables[0], reach=tables[1])


def final_key(rules: Rules, size_: int) -> TableKey:
    """What the final-turn tables of ``size_`` rows are kept under."""
    return TableKey("final", FORMAT, (rules.scoring_key, f"n{size_}"))


def kept_final(
    tie: FloatArray, reach: FloatArray, rolls: Rolls, size_: int, *, shipped: bool
) -> FinalTurn | None:
    """Kept final-turn tables, if they fit ``size_`` and (unless they ship with the package, pinned
    by hash) satisfy their equations: else None, and they are worked out again."""
    if _fits(tie, reach, size_) and (shipped or final_turn_sound(rolls, tie, reach, size_)):
        return FinalTurn(tie=tie, reach=reach)
    return None


def _fits(tie: FloatArray, reach: FloatArray, size_: int) -> bool:
    return all(
        table.shape == (size_, 6) and table.dtype == np.float64 and np.isfinite(table).all()
        for table in (tie, reach)
    )


def final_turn_sound(rolls: Rolls, tie: FloatArray, reach: FloatArray, size_: int) -> bool:
    """Check kept final-turn tables: shapes, chances, and every row worked out again.

    Row ``r`` follows from the ``maxp`` rows below it, so all rows are recomputed at once from
    the stored rows beneath them: a change to any row breaks the equation of the lowest row
    changed (a change below 1e-12 is not caught).
    """
    if not _fits(tie, reach, size_):
        return False
    maxp = rolls.maxp
    rows = rolls.rows_down()
    # Row r's window of option values starts at position r of ``after``, 6 values a position.
    gather = rows[:, None] + 6 * np.arange(size_)[None, :]
    for is_tie, table in ((True, tie), (False, reach)):
        if (table < 0).any() or (table > 1).any():
            return False
        after = np.empty((maxp + size_, 6))
        after[:maxp] = 1.0
        # Exactly level: a tie banks one half; with nothing missing a reach is made.
        after[maxp] = np.maximum(table[0], 0.5) if is_tie else 1.0
        after[maxp + 1 :] = table[1:]
        computed = rolls.prob @ rolls.best(after.reshape(-1)[gather])
        if np.abs(computed.T - table).max() > 1e-12:
            return False
    return True
