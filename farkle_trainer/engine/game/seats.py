"""Where a player stands at the start of a turn, as a row of a solved table, and the least each
standing may bank: the one place the game solver learns who may bank.

Without the three-Farkle penalty a player's standing is their score, and a player on 0 has
not opened (the opening minimum holds them until their first bank). The penalty adds the
run of Farkled turns (0, 1 or 2 so far: the third costs the penalty and starts the count
again), and it can knock a player who has opened back to 0; with an opening minimum too,
"on 0 and opened" is then a standing of its own. So a table's rows are indexed by
``(index, run)``: ``index`` 0 to ``levels - 1`` is the score in levels (0: on 0 and not yet
opened), and ``levels`` is "on 0, opened" where that can happen.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from farkle_trainer.engine.farkles import FARKLES_FOR_PENALTY
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.solver import STEP

if TYPE_CHECKING:
    from numpy.typing import NDArray

    IntArray = NDArray[np.int64]
    BoolArray = NDArray[np.bool_]


@dataclass(frozen=True, eq=False)
class Seats:
    """The standings of one game, in levels: the target, the opening minimum, the penalty."""

    levels: int
    opening: int
    penalty: int
    #: How many standings: ``levels``, plus "on 0, opened" with both house rules.
    size: int
    #: How many runs of Farkled turns are told apart: 3 under the penalty, else 1.
    runs: int
    score: IntArray  # (size,) the score of each standing, in levels
    opened: BoolArray  # (size,) whether a standing has opened
    knocked: IntArray  # (size,) the standing after a third Farkle in a row
    least: IntArray  # (size,) the least a player at each standing may bank, in levels (0: any)

    def least_bank(self, opened: bool) -> int:
        """The least a player may bank, in levels: the opening minimum until they have opened."""
        return 0 if opened else self.opening

    def below_least(self, u: IntArray, pos: IntArray) -> BoolArray:
        """Where banking is no move: positions ``pos`` (scores plus turn points, in levels, one row
        each) below what a player at standing ``u`` (one column each) may bank."""
        return pos < (self.score[u] + self.least[u])[None, :]

    def index(self, score: int, opened: bool | None = None) -> int:
        """The standing of a player on ``score`` levels (``opened``: None for "score > 0")."""
        if not 0 <= score < self.levels:
            raise ValueError(f"a score of {score} levels is not below the target")
        if score == 0 and opened and self.size > self.levels:
            return self.levels
        return score

    def run(self, farkles: int) -> int:
        """The row for ``farkles`` Farkled turns in a row so far (always 0 without the penalty)."""
        if not 0 <= farkles < FARKLES_FOR_PENALTY:
            raise ValueError(f"Farkles in a row so far must be 0 to {FARKLES_FOR_PENALTY - 1}, not {farkles}")
        return farkles if self.runs > 1 else 0

    def without_penalty(self) -> Seats:
        """The standings of the same game without the three-Farkle penalty."""
        return seats_for(self.levels, self.opening, 0)

    def after_farkle(self, index: IntArray, run: IntArray) -> tuple[IntArray, IntArray]:
        """The mover's standing and run once their turn ends in a Farkle."""
        last = run == self.runs - 1
        return np.where(last, self.knocked[index], index), np.where(last, 0, run + 1)


def seats_of(rules: Rules, target: int, opening: int) -> Seats:
    """The standings of a game of ``rules`` to ``target`` with opening minimum ``opening`` (in
    points): where the house rules become the game solver's standings."""
    return seats_for(target // STEP, opening // STEP, rules.three_farkle_penalty // STEP)


@cache
def seats_for(levels: int, opening: int, penalty: int) -> Seats:
    """The standings of a game to ``levels`` with an opening minimum and a three-Farkle penalty,
    all in levels of 50."""
    # Whether a player on 0 has opened matters only where it changes the least they may bank;
    # under the penalty, "on 0 and opened" is then a standing of its own.
    matters = opening > 0
    extra = matters and penalty > 0
    size = levels + (1 if extra else 0)
    score = np.arange(size, dtype=np.int64)
    if extra:
        score[levels] = 0
    opened = score > 0
    if not matters:
        opened[:] = True
    if extra:
        opened[levels] = True
    left = np.maximum(score - penalty, 0)
    # Knocked back to 0 a player has opened already; one who never opened stays as they were.
    knocked = np.where((left == 0) & opened & extra, levels, left)
    if penalty == 0:
        knocked = np.arange(size, dtype=np.int64)
    return Seats(
        levels=levels,
        opening=opening,
        penalty=penalty,
        size=size,
        runs=FARKLES_FOR_PENALTY if penalty > 0 else 1,
        score=score,
        opened=opened,
        knocked=knocked,
        least=np.where(opened, 0, opening),
    )
