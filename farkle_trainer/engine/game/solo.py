"""Solo play: the target in as few turns as possible, a Farkle costing a turn."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from farkle_trainer.engine.farkles import NO_RUNS, Runs
from farkle_trainer.engine.game.rolls import Rolls
from farkle_trainer.engine.game.runs import EXPECTED_SWEEPS, MAX_SWEEPS
from farkle_trainer.engine.game.runs import TOLERANCE as RUNS_TOLERANCE
from farkle_trainer.engine.game.seats import Seats
from farkle_trainer.engine.game.settings import GameSolverError, Progress, in_levels
from farkle_trainer.engine.game.solve import DELTA, MAX_PASSES, TOLERANCE
from farkle_trainer.engine.game.table import at_least
from farkle_trainer.engine.game.turns import Pass, Turns, turn_values
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.solver import STEP

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from farkle_trainer.engine.game.kernel import Loop

    FloatArray = NDArray[np.float64]
    IntArray = NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class SoloTable:
    """Solo play for the fewest turns to the target; lower values are better.

    ``expected_turns(s)``: the expected number of turns, counting the one about to start,
    to reach the target from ``s`` banked (a Farkle costs a turn). Values inside a turn are
    the expected number of turns still needed *after* this one: 0 once banked at the
    target, ``expected_turns(s + t)`` after banking below it, ``expected_turns(s)`` after a
    Farkle. Under the three-Farkle penalty the run of Farkled turns so far counts too, and a
    player knocked back to 0 has opened: the methods take them as the ``my_`` half of a
    :class:`~farkle_trainer.engine.farkles.Runs`.
    """

    rules: Rules
    target: int
    opening: int
    #: ``turns[u, r]``: E by standing and run (see :mod:`.seats`).
    turns: FloatArray = field(repr=False)
    _rolls: Rolls = field(repr=False)
    _seats: Seats = field(repr=False)
    _cache: dict[tuple[int, int], Pass] = field(default_factory=dict, repr=False)
    _decisions: list[FloatArray] = field(default_factory=list, repr=False)

    def expected_turns(self, score: int, runs: Runs = NO_RUNS) -> float:
        """E: expected turns to reach the target from ``score`` at the start of a turn."""
        if in_levels(score) * STEP >= self.target:
            return 0.0
        u, r = self._standing(score, runs)
        return float(self.turns[u, r])

    def expected_decisions(self, score: int = 0, runs: Runs = NO_RUNS) -> float:
        """The expected number of decisions (rolls that score) from the start of a turn at
        ``score`` to the target, played as this table plays it (see
        :mod:`~farkle_trainer.engine.game.decisions`)."""
        if in_levels(score) * STEP >= self.target:
            return 0.0
        if not self._decisions:
            from farkle_trainer.engine.game.decisions import solo_decisions

            seats = self._seats
            every = np.repeat(np.arange(seats.size), seats.runs)
            run = np.tile(np.arange(seats.runs), seats.size)
            turn = _solo_turns(self._rolls, seats, self.turns, every, run, keep=True)
            self._decisions.append(solo_decisions(self._rolls, seats, self.turns, turn))
        u, r = self._standing(score, runs)
        return float(self._decisions[0][u, r])

    def bank_value(self, score: int, t: int, runs: Runs = NO_RUNS) -> float | None:
        """Expected further turns after banking ``t`` now (None where banking is not a move)."""
        u, _ = self._standing(score, runs)
        level = in_levels(t)
        if level == 0 or level < self._seats.least[u]:
            return None
        return self.expected_turns((int(self._seats.score[u]) + level) * STEP)

    def roll_value(self, score: int, t: int, n: int, runs: Runs = NO_RUNS) -> float:
        """Expected further turns after rolling ``n`` dice with ``t`` at stake."""
        if not 1 <= n <= 6:
            raise ValueError(f"dice to roll must be 1 to 6, not {n}")
        u, r = self._standing(score, runs)
        s, level = int(self._seats.score[u]), in_levels(t)
        if s + level >= self._seats.levels:
            # At the target every scoring roll banks at once.
            return float(self.rolls_farkle(n) * _farkle_turns(self._seats, self.turns, u, r))
        turn = self._cache.get((u, r))
        if turn is None:
            turn = _solo_turns(self._rolls, self._seats, self.turns, np.array([u]), np.array([r]), keep=True)
            self._cache[(u, r)] = turn
        assert turn.rolled is not None
        return -float(turn.rolled[s + level, n - 1, 0])

    def farkle_value(self, score: int, runs: Runs = NO_RUNS) -> float:
        """Expected turns still needed once this turn ends in a Farkle (the penalty paid if it is
        the third in a row)."""
        u, r = self._standing(score, runs)
        return float(_farkle_turns(self._seats, self.turns, u, r))

    def rolls_farkle(self, n: int) -> float:
        return float(self._rolls.farkle[n - 1])

    def value_after(self, score: int, t: int, n: int, runs: Runs = NO_RUNS) -> float:
        """Expected further turns once dice for ``t`` are set aside, ``n`` dice to roll next."""
        bank = self.bank_value(score, t, runs)
        roll = self.roll_value(score, t, n, runs)
        return roll if bank is None else min(bank, roll)

    def should_roll(self, score: int, t: int, n: int, runs: Runs = NO_RUNS) -> bool:
        """True when rolling is at least as good as banking (or banking is not a move)."""
        bank = self.bank_value(score, t, runs)
        # Fewer turns are better: rolling is as good as banking when banking is at least its value.
        return bank is None or at_least(bank, self.roll_value(score, t, n, runs))

    def _standing(self, score: int, runs: Runs) -> tuple[int, int]:
        level = in_levels(score)
        if level >= self._seats.levels:
            raise ValueError(f"a score of {score:,} has reached the target")
        return self._seats.index(level, runs.my_opened), self._seats.run(runs.my_farkles)


def _farkle_turns(seats: Seats, turns: FloatArray, u: IntArray | int, r: IntArray | int) -> FloatArray:
    """What a Farkle leaves to do: the turns from the standing and run it leads to."""
    after, run = seats.after_farkle(np.asarray(u), np.asarray(r))
    return turns[after, run]


def _solo_turns(
    rolls: Rolls,
    seats: Seats,
    turns: FloatArray,
    u: IntArray,
    r: IntArray,
    *,
    keep: bool = False,
    farkle: FloatArray | None = None,
    loop: Loop | None = None,
) -> Pass:
    """Turns from standings ``u`` with runs ``r``, valued as minus the expected further turns
    (so more is better)."""
    levels = seats.levels
    s = seats.score[u]
    # Banking at the target ends the game: nothing can beat it, so the turn is cut there (or
    # where the player may first bank, if that is higher).
    cut = np.maximum(levels, s + seats.least[u])
    height = int(cut.max()) + rolls.maxp + 1
    pos = np.arange(height)[:, None]
    bank = np.zeros((height, len(u)))
    bank[:levels] = -turns[:levels, 0][:, None]
    bank[pos <= s[None, :]] = 0.0
    bank[seats.below_least(u, pos)] = -np.inf
    x = -_farkle_turns(seats, turns, u, r) if farkle is None else farkle
    return turn_values(rolls, Turns(bank, s, cut, x), keep=keep, loop=loop)


def solo_sound(rolls: Rolls, seats: Seats, turns: FloatArray) -> bool:
    """Whether kept expected turns are this solo game's: every one at least a turn, and every
    turn start's equation satisfied."""
    return not (turns < 1).any() and _solo_residual(rolls, seats, turns) <= 1e-9


def solve_solo(
    rolls: Rolls, seats: Seats, progress: Progress | None, loop: Loop | None, plain_share: float
) -> FloatArray:
    """The exact fewest turns from every standing of solo play (``seats``), by the compiled
    ``loop`` (None: with numpy).

    Each score needs only higher ones and itself (through a Farkle), so scores are solved
    from the top down, each by Newton steps on ``E = 1 + F(E)`` where ``F`` is the turn's
    value given the Farkle value: concave and piecewise linear with slope below one. Under
    the three-Farkle penalty a Farkle leads to the next run instead, and the third to a
    lower score: sweeps as for the two-player game (:mod:`.runs`), after solo play without
    the penalty (``plain_share`` of the work). ``progress`` is told the fraction done.
    """
    if seats.runs == 1:
        return _solve_solo(rolls, seats, progress, loop)
    return _solve_solo_runs(rolls, seats, progress, loop, plain_share)


def _solo_residual(rolls: Rolls, seats: Seats, turns: FloatArray) -> float:
    u, r = (g.ravel() for g in np.meshgrid(np.arange(seats.size), np.arange(seats.runs), indexing="ij"))
    start = _solo_turns(rolls, seats, turns, u, r).start
    return float(np.abs(1.0 - start - turns[u, r]).max())


def _solve_solo(
    rolls: Rolls, seats: Seats, progress: Progress | None = None, loop: Loop | None = None
) -> FloatArray:
    levels = seats.levels
    turns = np.zeros((levels, 1))
    for s in range(levels - 1, -1, -1):
        if progress is not None:
            progress((levels - 1 - s) / levels)
        above = turns[s + 1 : s + 3, 0]
        y = (
            1.0
            if s == levels - 1
            else float(2 * above[0] - above[-1])
            if len(above) == 2
            else float(above[0])
        )
        col = np.array([s, s])
        run = np.zeros(2, dtype=np.int64)
        last: tuple[float, float] | None = None
        for _ in range(MAX_PASSES):
            if last is None:
                start = _solo_turns(
                    rolls, seats, turns, col, run, farkle=np.array([-y, -y - DELTA]), loop=loop
                ).start
                f = 1.0 - start[0]  # E from this turn if a Farkle costs y
                slope = (start[0] - start[1]) / DELTA
            else:
                f = (
                    1.0
                    - _solo_turns(
                        rolls, seats, turns, col[:1], run[:1], farkle=np.array([-y]), loop=loop
                    ).start[0]
                )
                slope = (f - last[1]) / (y - last[0]) if abs(y - last[0]) > 1e-12 else slope
            if abs(f - y) < TOLERANCE * max(1.0, y):
                break
            last = (y, f)
            slope = min(max(slope, 0.0), 1.0 - 1e-9)
            y = y + (f - y) / (1.0 - slope)
        else:
            raise GameSolverError(f"solo turns did not converge at {s * STEP:,}")
        turns[s, 0] = y
    return turns


def _solve_solo_runs(
    rolls: Rolls, seats: Seats, progress: Progress | None, loop: Loop | None, share: float
) -> FloatArray:
    """Sweeps from the top score down, each score's runs from the longest: a Farkle before the
    third only leads to the next run of the same score, so everything but the penalty's lower
    score is final when it is read; sweeps repeat until nothing moves (see :mod:`.runs`).
    Progress as work done: solo play without the penalty first (``share`` of the work), then
    the sweeps."""

    def plain_done(fraction: float) -> None:
        if progress is not None:
            progress(share * fraction)

    plain = _solve_solo(rolls, seats.without_penalty(), plain_done, loop)
    turns = np.repeat(plain[seats.score], seats.runs, axis=1)
    order = [
        (np.flatnonzero(seats.score == s), np.full(int((seats.score == s).sum()), r, dtype=np.int64))
        for s in range(seats.levels - 1, -1, -1)
        for r in range(seats.runs - 1, -1, -1)
    ]
    for sweep in range(MAX_SWEEPS):
        if progress is not None:
            # Sweeps as for the two-player game: about nine, each a twentieth closer.
            progress(share + (1.0 - share) * min(0.99, sweep / EXPECTED_SWEEPS))
        moved = 0.0
        for u, r in order:
            new = 1.0 - _solo_turns(rolls, seats, turns, u, r, loop=loop).start
            moved = max(moved, float(np.abs(new - turns[u, r]).max() / max(1.0, float(new.max()))))
            turns[u, r] = new
        if moved <= RUNS_TOLERANCE:
            return turns
    raise GameSolverError("solo turns with the three-Farkle penalty did not converge")
