"""A solved two-player game: winning chances at turn starts, inside a turn and in the final
round, and the picture of them by score."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from farkle_trainer.engine.farkles import NO_RUNS, Runs
from farkle_trainer.engine.game.cuts import Game
from farkle_trainer.engine.game.final import FinalTurn, final_turn
from farkle_trainer.engine.game.settings import in_levels
from farkle_trainer.engine.game.turns import Pass, evaluate, farkle_values
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.solver import STEP

if TYPE_CHECKING:
    from collections.abc import Iterable

    from numpy.typing import NDArray

    FloatArray = NDArray[np.float64]

#: The turns a table holds valued at once (a game's worth, each a few kilobytes).
HELD_TURNS = 256


@dataclass(frozen=True, eq=False)
class GameTable:
    """Exact winning chances of a two-player game under one rule set, target and opening.

    Scores and turn points are in points (multiples of 50). Chances are for the player
    about to act; a shared win counts one half. Values inside a turn are worked out on
    demand from the stored turn-start chances (a few milliseconds per pair of scores).

    Under the three-Farkle penalty each player's run of Farkled turns so far matters, and a
    player knocked back to 0 has opened: every method takes them as :class:`.seats.Runs`.
    """

    rules: Rules
    target: int
    opening: int
    #: ``values[u, r, v, q]``: the chance of winning by standing and run (see :mod:`.seats`).
    values: FloatArray = field(repr=False)
    _game: Game = field(repr=False)
    _pairs: dict[tuple[int, int, int, int], Pass] = field(default_factory=dict, repr=False)
    _finals: dict[int, FinalTurn] = field(default_factory=dict, repr=False)

    @property
    def penalty(self) -> int:
        """The three-Farkle penalty the table was solved with (0: none)."""
        return self.rules.three_farkle_penalty

    @property
    def chances(self) -> FloatArray:
        """``chances[a // 50, b // 50]``: W(a, b) with no Farkles in a row, 0 meaning not opened."""
        levels = self._game.levels
        return self.values[:levels, 0, :levels, 0]

    # -- turn starts

    def win_chance(self, my_score: int, opponent_score: int, runs: Runs = NO_RUNS) -> float:
        """W: the chance that the player about to start a turn on ``my_score`` wins."""
        u, r, v, q = self._standings(my_score, opponent_score, runs)
        return float(self.values[u, r, v, q])

    @property
    def first_player_chance(self) -> float:
        """W(0, 0): the chance that the player who starts the game wins."""
        return float(self.values[0, 0, 0, 0])

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

    def bank_value(self, my_score: int, opponent_score: int, t: int, runs: Runs = NO_RUNS) -> float | None:
        """The chance of winning after banking ``t`` turn points now.

        None where banking is not a move: with no turn points, or below the opening
        minimum while the player has not opened.
        """
        u, _, v, q = self._standings(my_score, opponent_score, runs)
        seats = self._game.seats
        level = in_levels(t)
        if level == 0 or level < seats.least[u]:
            return None
        pos = int(seats.score[u]) + level
        if pos < self._game.levels:
            return 1.0 - float(self.values[v, q, pos, 0])
        lead = np.array([pos - int(seats.score[v])])
        return 1.0 - float(self._game.g(seats.opened[v : v + 1], lead)[0])

    def roll_value(self, my_score: int, opponent_score: int, t: int, n: int, runs: Runs = NO_RUNS) -> float:
        """The chance of winning by rolling ``n`` dice with ``t`` turn points at stake."""
        if not 1 <= n <= 6:
            raise ValueError(f"dice to roll must be 1 to 6, not {n}")
        standings = self._standings(my_score, opponent_score, runs)
        pos = int(self._game.seats.score[standings[0]]) + in_levels(t)
        turn = self._turn(standings, pos)
        assert turn.rolled is not None
        return float(turn.rolled[pos, n - 1, 0])

    def farkle_value(self, my_score: int, opponent_score: int, runs: Runs = NO_RUNS) -> float:
        """The chance of winning once this turn ends in a Farkle: the opponent's turn, with this
        player's run one longer, or (the third in a row) the penalty paid."""
        u, r, v, q = self._standings(my_score, opponent_score, runs)
        after, run = self._game.seats.after_farkle(np.array([u]), np.array([r]))
        return 1.0 - float(self.values[v, q, after[0], run[0]])

    def value_after(self, my_score: int, opponent_score: int, t: int, n: int, runs: Runs = NO_RUNS) -> float:
        """The chance of winning once dice for ``t`` points are set aside, ``n`` dice to roll next."""
        bank = self.bank_value(my_score, opponent_score, t, runs)
        roll = self.roll_value(my_score, opponent_score, t, n, runs)
        return roll if bank is None else max(bank, roll)

    def should_roll(self, my_score: int, opponent_score: int, t: int, n: int, runs: Runs = NO_RUNS) -> bool:
        """True when rolling ``n`` dice is at least as good as banking (or banking is not a move)."""
        bank = self.bank_value(my_score, opponent_score, t, runs)
        return bank is None or at_least(self.roll_value(my_score, opponent_score, t, n, runs), bank)

    def roll_while_at_most(
        self, my_score: int, opponent_score: int, n: int, runs: Runs = NO_RUNS
    ) -> int | None:
        """The largest turn total at which rolling ``n`` dice is at least as good as banking.

        In a game the bank threshold depends on the score: at 0-0 it is close to the turn
        solver's, far behind near the end it is much higher. Above the returned total
        banking is better; below it, banking can still be better at some totals (the
        chances are not monotone in the turn total). None if banking is always better.
        """
        standings = self._standings(my_score, opponent_score, runs)
        a = int(self._game.seats.score[standings[0]])
        turn = self._turn(standings, a)
        assert turn.rolled is not None
        top = len(turn.rolled) - self._game.rolls.maxp - 1
        for pos in range(top, a, -1):
            t = (pos - a) * STEP
            if self.should_roll(my_score, opponent_score, t, n, runs):
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
        least = self._game.seats.least_bank(opened)
        reach = least > need
        missing = (least if reach else need) - level
        if missing < 0 or (reach and missing == 0):
            return float(1.0 - self._game.rolls.farkle[n - 1])
        final = self._final_turn(missing)
        return float((final.reach if reach else final.tie)[missing, n - 1])

    def final_bank_value(self, behind: int, t: int, *, opened: bool = True) -> float | None:
        """In the last turn: the chance of winning by banking ``t`` now (None if not allowed)."""
        need, level = in_levels(behind), in_levels(t)
        if level == 0 or level < self._game.seats.least_bank(opened):
            return None
        return 1.0 if level > need else 0.5 if level == need else 0.0

    # -- helpers

    def _final_turn(self, missing: int) -> FinalTurn:
        """Final-turn tables with a row for ``missing`` levels: the game's own, or (a leader further
        ahead than they reach, which no play of a game comes near) larger ones worked out once."""
        if missing < self._game.span:
            return self._game.final
        size = _pow2(missing + 1)
        if size not in self._finals:
            self._finals[size] = final_turn(self._game.rolls, size)
        return self._finals[size]

    def _standings(self, my_score: int, opponent_score: int, runs: Runs) -> tuple[int, int, int, int]:
        """The row ``(u, r, v, q)`` of a position (see :mod:`.seats`)."""
        seats = self._game.seats
        rows = []
        for score, farkles, opened in (
            (my_score, runs.my_farkles, runs.my_opened),
            (opponent_score, runs.opponent_farkles, runs.opponent_opened),
        ):
            level = in_levels(score)
            if level >= self._game.levels:
                raise ValueError(f"a score of {score:,} has reached the target of {self.target:,}")
            rows += [seats.index(level, opened), seats.run(farkles)]
        return rows[0], rows[1], rows[2], rows[3]

    def prepare(self, turns: Iterable[tuple[int, int, Runs]]) -> None:
        """Value the turns from these standings (own score, the opponent's, the runs) in one
        pass over them all, so the plays of every roll in them are looked up, where valued one by
        one each turn costs a pass of its own: the same recurrences, many columns at once, as a
        solve runs them. Standings at or past the target are left to be refused when asked."""
        wanted: dict[tuple[int, int, int, int], None] = {}
        for my_score, opponent_score, runs in turns:
            if max(in_levels(my_score), in_levels(opponent_score)) >= self._game.levels:
                continue
            standings = self._standings(my_score, opponent_score, runs)
            if standings not in self._pairs:
                wanted[standings] = None
        if len(wanted) < 2:
            return
        if len(self._pairs) + len(wanted) > HELD_TURNS:
            self._pairs.clear()
        chosen = list(wanted)[:HELD_TURNS]
        u, r, v, q = (np.array(column) for column in zip(*chosen, strict=True))
        turn = evaluate(self._game, self.values, u, r, v, q, keep=True)
        assert turn.after is not None and turn.rolled is not None
        # Each turn serves the positions up to its own cut, as a turn valued alone does.
        cut = self._game.cut(u, v, farkle_values(self._game, self.values, u, r, v, q))
        for k, standings in enumerate(chosen):
            height = int(cut[k]) + self._game.rolls.maxp + 1
            self._pairs[standings] = Pass(
                start=turn.start[k : k + 1],
                after=turn.after[:height, :, k : k + 1],
                rolled=turn.rolled[:height, :, k : k + 1],
            )

    def _turn(self, standings: tuple[int, int, int, int], pos: int) -> Pass:
        """The turn from ``standings`` valued at every position up to at least ``pos``: one
        evaluation serves every position up to its cut (above the target a turn is cut where
        banking is certainly best, so a position past it needs the cut raised)."""
        cached = self._pairs.get(standings)
        if cached is not None:
            assert cached.rolled is not None
            if pos <= len(cached.rolled) - self._game.rolls.maxp - 1:
                return cached
        if len(self._pairs) >= HELD_TURNS:
            self._pairs.clear()
        u, r, v, q = (np.array([x]) for x in standings)
        turn = evaluate(self._game, self.values, u, r, v, q, keep=True, top=pos)
        self._pairs[standings] = turn
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
