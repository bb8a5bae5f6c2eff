"""Solo play: the target in as few turns as possible, a Farkle costing a turn."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from farkle_trainer.engine.game.rolls import Rolls, rolls_for
from farkle_trainer.engine.game.settings import GameSolverError, in_levels, resolve
from farkle_trainer.engine.game.solve import DELTA, MAX_PASSES, TOLERANCE, kept_values, values_key
from farkle_trainer.engine.game.turns import Pass, Turns, turn_values
from farkle_trainer.engine.keeper import remember
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.solver import STEP

if TYPE_CHECKING:
    from numpy.typing import NDArray

    FloatArray = NDArray[np.float64]
    IntArray = NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class SoloTable:
    """Solo play for the fewest turns to the target; lower values are better.

    ``expected_turns(s)``: the expected number of turns, counting the one about to start,
    to reach the target from ``s`` banked (a Farkle costs a turn). Values inside a turn are
    the expected number of turns still needed *after* this one: 0 once banked at the
    target, ``expected_turns(s + t)`` after banking below it, ``expected_turns(s)`` after a
    Farkle.
    """

    rules: Rules
    target: int
    opening: int
    turns: FloatArray = field(repr=False)  # turns[s // 50] = E(s)
    _rolls: Rolls = field(repr=False)
    _cache: dict[int, Pass] = field(default_factory=dict, repr=False)

    def expected_turns(self, score: int) -> float:
        """E(s): expected turns to reach the target from ``score`` at the start of a turn."""
        if in_levels(score) * STEP >= self.target:
            return 0.0
        return float(self.turns[in_levels(score)])

    def bank_value(self, score: int, t: int) -> float | None:
        """Expected further turns after banking ``t`` now (None where banking is not a move)."""
        s, level = in_levels(score), in_levels(t)
        if level == 0 or (s == 0 and level * STEP < self.opening):
            return None
        return self.expected_turns((s + level) * STEP)

    def roll_value(self, score: int, t: int, n: int) -> float:
        """Expected further turns after rolling ``n`` dice with ``t`` at stake."""
        if not 1 <= n <= 6:
            raise ValueError(f"dice to roll must be 1 to 6, not {n}")
        s, level = in_levels(score), in_levels(t)
        levels = len(self.turns)
        if s >= levels:
            raise ValueError(f"a score of {score:,} has reached the target")
        if s + level >= levels:
            # At the target every scoring roll banks at once.
            return float(self.rolls_farkle(n) * self.turns[s])
        turn = self._cache.get(s)
        if turn is None:
            turn = _solo_turns(self._rolls, self.turns, np.array([s]), self.opening // STEP, keep=True)
            self._cache[s] = turn
        assert turn.rolled is not None
        return -float(turn.rolled[s + level, n - 1, 0])

    def rolls_farkle(self, n: int) -> float:
        return float(self._rolls.farkle[n - 1])

    def value_after(self, score: int, t: int, n: int) -> float:
        """Expected further turns once dice for ``t`` are set aside, ``n`` dice to roll next."""
        bank = self.bank_value(score, t)
        roll = self.roll_value(score, t, n)
        return roll if bank is None else min(bank, roll)

    def should_roll(self, score: int, t: int, n: int) -> bool:
        """True when rolling is at least as good as banking (or banking is not a move)."""
        bank = self.bank_value(score, t)
        return bank is None or self.roll_value(score, t, n) <= bank + 1e-12


def _solo_turns(
    rolls: Rolls,
    turns: FloatArray,
    s: IntArray,
    opening: int,
    *,
    keep: bool = False,
    farkle: FloatArray | None = None,
    compiled: bool = False,
) -> Pass:
    """Turns from scores ``s`` valued as minus the expected further turns (so more is better)."""
    levels = len(turns)
    height = levels + rolls.maxp + 1
    pos = np.arange(height)[:, None]
    bank = np.zeros((height, len(s)))
    bank[:levels] = -turns[:, None]
    bank[pos <= s[None, :]] = 0.0
    bank[(s[None, :] == 0) & (pos < opening)] = -np.inf
    # Banking at the target ends the game: nothing can beat it, so the turn is cut there.
    cut = np.full(len(s), levels, dtype=np.int64)
    x = -turns[s] if farkle is None else farkle
    return turn_values(rolls, Turns(bank, s, cut, x), keep=keep, compiled=compiled)


_SOLO: dict[tuple[Rules, int, int], SoloTable] = {}


def forget_solo() -> None:
    """Forget the solo tables held in memory."""
    _SOLO.clear()


def solve_solo(rules: Rules, target: int | None = None, opening: int | None = None) -> SoloTable:
    """The exact fewest-turns table for solo play (held in memory, and kept like the game tables).

    Each score needs only higher ones and itself (through a Farkle), so scores are solved
    from the top down, each by Newton steps on ``E = 1 + F(E)`` where ``F`` is the turn's
    value given the Farkle value: concave and piecewise linear with slope below one.
    """
    target, opening = resolve(rules, target, opening, values="expected turns")
    key = (rules, target, opening)
    if key in _SOLO:
        return _SOLO[key]
    levels = target // STEP
    rolls = rolls_for(rules)
    kept = values_key("solo", rules, target, opening)
    turns = kept_values(kept, (levels,))
    if turns is not None and ((turns < 1).any() or _solo_residual(rolls, turns, opening // STEP) > 1e-9):
        turns = None
    if turns is None:
        turns = _solve_solo(rules, levels, opening // STEP)
        remember(kept, {"values": turns})
    table = SoloTable(rules=rules, target=target, opening=opening, turns=turns, _rolls=rolls)
    _SOLO[key] = table
    return table


def _solo_residual(rolls: Rolls, turns: FloatArray, opening: int) -> float:
    s = np.arange(len(turns))
    start = _solo_turns(rolls, turns, s, opening).start
    return float(np.abs(1.0 - start - turns).max())


def _solve_solo(rules: Rules, levels: int, opening: int) -> FloatArray:
    rolls = rolls_for(rules)
    turns = np.zeros(levels)
    for s in range(levels - 1, -1, -1):
        above = turns[s + 1 : s + 3]
        y = (
            1.0
            if s == levels - 1
            else float(2 * above[0] - above[-1])
            if len(above) == 2
            else float(above[0])
        )
        col = np.array([s, s])
        last: tuple[float, float] | None = None
        for _ in range(MAX_PASSES):
            if last is None:
                start = _solo_turns(
                    rolls, turns, col, opening, farkle=np.array([-y, -y - DELTA]), compiled=True
                ).start
                f = 1.0 - start[0]  # E from this turn if a Farkle costs y
                slope = (start[0] - start[1]) / DELTA
            else:
                f = (
                    1.0
                    - _solo_turns(rolls, turns, col[:1], opening, farkle=np.array([-y]), compiled=True).start[
                        0
                    ]
                )
                slope = (f - last[1]) / (y - last[0]) if abs(y - last[0]) > 1e-12 else slope
            if abs(f - y) < TOLERANCE * max(1.0, y):
                break
            last = (y, f)
            slope = min(max(slope, 0.0), 1.0 - 1e-9)
            y = y + (f - y) / (1.0 - slope)
        else:
            raise GameSolverError(f"solo turns did not converge at {s * STEP:,}")
        turns[s] = y
    return turns
