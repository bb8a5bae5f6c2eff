"""A solved two-player game: winning chances at turn starts, inside a turn and in the final
round, and the picture of them by score."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from farkle_trainer.engine.game.cuts import Game
from farkle_trainer.engine.game.final import final_turn_for
from farkle_trainer.engine.game.settings import in_levels
from farkle_trainer.engine.game.turns import Pass, evaluate
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.solver import STEP

if TYPE_CHECKING:
    from numpy.typing import NDArray

    FloatArray = NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class GameTable:
    """Exact winning chances of a two-player game under one rule set, target and opening.

    Scores and turn points are in points (multiples of 50). Chances are for the player
    about to act; a shared win counts one half. Values inside a turn are worked out on
    demand from the stored turn-start chances (a few milliseconds per pair of scores).
    """

    rules: Rules
    target: int
    opening: int
    chances: FloatArray = field(repr=False)  # chances[a // 50, b // 50] = W(a, b)
    _game: Game = field(repr=False)
    _pairs: dict[tuple[int, int, int], Pass] = field(default_factory=dict, repr=False)

    # -- turn starts

    def win_chance(self, my_score: int, opponent_score: int) -> float:
        """W(a, b): the chance that the player about to start a turn on ``my_score`` wins."""
        a, b = self._score(my_score), self._score(opponent_score)
        return float(self.chances[a, b])

    @property
    def first_player_chance(self) -> float:
        """W(0, 0): the chance that the player who starts the game wins."""
        return float(self.chances[0, 0])

    def fair_head_start(self) -> int | None:
        """The smallest head start for the second player that makes the game at least even.

        That is the smallest ``h`` (a multiple of 50) with ``W(0, h) <= 1/2``: starting the
        second player on ``h`` leaves the first player no better than even. None if no
        head start below the target does it.
        """
        column = self.chances[0]
        fair = np.flatnonzero(column <= 0.5)
        return int(fair[0]) * STEP if len(fair) else None

    # -- inside a turn

    def bank_value(self, my_score: int, opponent_score: int, t: int) -> float | None:
        """The chance of winning after banking ``t`` turn points now.

        None where banking is not a move: with no turn points, or below the opening
        minimum while the player has nothing banked.
        """
        a, b = self._score(my_score), self._score(opponent_score)
        level = in_levels(t)
        if level == 0 or (a == 0 and level < self._game.opening):
            return None
        pos = a + level
        if pos < self._game.levels:
            return 1.0 - float(self.chances[b, pos])
        return 1.0 - float(self._game.g(np.array([b]), np.array([pos - b]))[0])

    def roll_value(self, my_score: int, opponent_score: int, t: int, n: int) -> float:
        """The chance of winning by rolling ``n`` dice with ``t`` turn points at stake."""
        if not 1 <= n <= 6:
            raise ValueError(f"dice to roll must be 1 to 6, not {n}")
        a, b = self._score(my_score), self._score(opponent_score)
        pos = a + in_levels(t)
        turn = self._turn(a, b, pos)
        assert turn.rolled is not None
        return float(turn.rolled[pos, n - 1, 0])

    def value_after(self, my_score: int, opponent_score: int, t: int, n: int) -> float:
        """The chance of winning once dice for ``t`` points are set aside, ``n`` dice to roll next."""
        bank = self.bank_value(my_score, opponent_score, t)
        roll = self.roll_value(my_score, opponent_score, t, n)
        return roll if bank is None else max(bank, roll)

    def should_roll(self, my_score: int, opponent_score: int, t: int, n: int) -> bool:
        """True when rolling ``n`` dice is at least as good as banking (or banking is not a move)."""
        bank = self.bank_value(my_score, opponent_score, t)
        return bank is None or at_least(self.roll_value(my_score, opponent_score, t, n), bank)

    def roll_while_at_most(self, my_score: int, opponent_score: int, n: int) -> int | None:
        """The largest turn total at which rolling ``n`` dice is at least as good as banking.

        In a game the bank threshold depends on the score: at 0-0 it is close to the turn
        solver's, far behind near the end it is much higher. Above the returned total
        banking is better; below it, banking can still be better at some totals (the
        chances are not monotone in the turn total). None if banking is always better.
        """
        a, b = self._score(my_score), self._score(opponent_score)
        turn = self._turn(a, b, a)
        assert turn.rolled is not None
        top = len(turn.rolled) - self._game.rolls.maxp - 1
        for pos in range(top, a, -1):
            t = (pos - a) * STEP
            if self.should_roll(my_score, opponent_score, t, n):
                return t
        return None

    # -- the final round

    def final_turn_chance(self, behind: int, *, opened: bool = True) -> float:
        """The chance that a player ``behind`` points behind the leader wins with one last turn.

        A tie counts one half. ``opened``: False for a player still on 0, who may not bank
        below the opening minimum.
        """
        return self.final_roll_value(behind, 0, 6, opened=opened)

    def final_roll_value(self, behind: int, t: int, n: int, *, opened: bool = True) -> float:
        """In the last turn: the chance of winning by rolling ``n`` dice with ``t`` at stake."""
        need, level = in_levels(behind), in_levels(t)
        if need == 0:
            raise ValueError("the leader is ahead by at least 50 points in the final round")
        if not 1 <= n <= 6:
            raise ValueError(f"dice to roll must be 1 to 6, not {n}")
        opening = self._game.opening
        reach = not opened and opening > need
        missing = (opening if reach else need) - level
        if missing < 0 or (reach and missing == 0):
            return float(1.0 - self._game.rolls.farkle[n - 1])
        final = final_turn_for(self.rules, max(self._game.span, _pow2(missing + 1)))
        return float((final.reach if reach else final.tie)[missing, n - 1])

    def final_bank_value(self, behind: int, t: int, *, opened: bool = True) -> float | None:
        """In the last turn: the chance of winning by banking ``t`` now (None if not allowed)."""
        need, level = in_levels(behind), in_levels(t)
        if level == 0 or (not opened and level < self._game.opening):
            return None
        return 1.0 if level > need else 0.5 if level == need else 0.0

    # -- helpers

    def _score(self, score: int) -> int:
        level = in_levels(score)
        if level >= self._game.levels:
            raise ValueError(f"a score of {score:,} has reached the target of {self.target:,}")
        return level

    def _turn(self, a: int, b: int, pos: int) -> Pass:
        key = (a, b, max(0, pos - self._game.levels))
        cached = self._pairs.get(key)
        if cached is not None:
            return cached
        if len(self._pairs) >= 64:
            self._pairs.clear()
        x = np.array([1.0 - self.chances[b, a]])
        turn = evaluate(self._game, self.chances, np.array([a]), np.array([b]), x, keep=True, top=pos)
        self._pairs[key] = turn
        return turn


def at_least(a: float, b: float) -> bool:
    """``a >= b`` up to float rounding, so exact ties count as ties."""
    return a >= b - 1e-12


def _pow2(n: int) -> int:
    return 1 << max(0, n - 1).bit_length()


@dataclass(frozen=True)
class WinGrid:
    """Winning chances of the player to move, own score by row, opponent's by column."""

    scores: tuple[int, ...]
    chances: tuple[tuple[float, ...], ...]


def win_grid(table: GameTable, step: int = 1000) -> WinGrid:
    """W at every ``step`` points of both scores, from 0 up to below the target."""
    if step <= 0 or step % STEP:
        raise ValueError(f"step must be a positive multiple of {STEP}, not {step}")
    scores = tuple(range(0, table.target, step))
    idx = [s // STEP for s in scores]
    grid = table.chances[np.ix_(idx, idx)]
    return WinGrid(scores, tuple(tuple(float(v) for v in row) for row in grid))
