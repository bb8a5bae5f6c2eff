"""The exact turn solver: a Markov decision process over every fair roll.

State before a roll: turn points ``t`` (a multiple of 50) and dice to roll ``n``.
Each roll is one of the C(n+5, 5) multisets of ``n`` dice, weighted by its exact
chance.  After a roll the player sets aside a scoring selection and then banks
or rolls the dice left (all six again after hot dice).  A Farkle is worth
``farkle_value`` (0, or minus a penalty).

Two objectives share the machinery:

* ``Objective.expected()``: maximise the expected final turn score;
* ``Objective.reach(n)``: maximise the chance of ending the turn with at least n.

Turn points only grow, so values are filled in from a top level downward.  The
top is where banking is certain to be best: with ``b(n)`` the expected best
score of one roll and ``f(n)`` its Farkle chance, rolling once and banking beats
banking only while ``t * f(n) < b(n)`` (plus the penalty term), and once that
fails for every ``n`` it fails for every state reachable from there too
(a monotone stopping problem, so the one-step look-ahead rule is optimal).

Values are floats, but every one is the exact expectation over all rolls; only
rounding in the last bits separates them from the rational answer.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from operator import add
from typing import TYPE_CHECKING, Literal

from farkle_trainer.engine.dice import Counts, multisets, roll_chance
from farkle_trainer.engine.keeper import TableKey
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.scoring import score_table

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

STEP = 50
#: The layout of a kept solution (see :class:`~farkle_trainer.engine.keeper.TableKey`).
_FORMAT = 1

#: Told ``(levels done, levels in all)`` as a solve fills in its table, so a front end can
#: show progress on a large custom table that takes minutes.
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Objective:
    """What the player is playing for this turn, and the house rules in force.

    ``opening``: banking is refused below this many turn points (the player has
    nothing banked yet). ``farkle_value``: what a Farkle is worth (0, or a
    negative penalty when it would be the third in a row).
    """

    kind: Literal["expected", "reach"] = "expected"
    need: int = 0
    opening: int = 0
    farkle_value: int = 0

    @classmethod
    def expected(cls, *, opening: int = 0, farkle_value: int = 0) -> Objective:
        return cls("expected", 0, opening, farkle_value)

    @classmethod
    def reach(cls, need: int, *, opening: int = 0) -> Objective:
        return cls("reach", need, opening, 0)

    def __post_init__(self) -> None:
        for name in ("need", "opening"):
            value = getattr(self, name)
            if value < 0 or value % STEP:
                raise ValueError(f"{name} must be a non-negative multiple of {STEP}, not {value}")
        if self.farkle_value > 0 or self.farkle_value % STEP:
            raise ValueError("farkle_value must be 0 or a negative multiple of 50")
        if self.kind == "reach" and self.need <= 0:
            raise ValueError("need must be positive for the reach objective")

    @property
    def key(self) -> str:
        return f"{self.kind}-{self.need}-{self.opening}-{self.farkle_value}"

    def can_bank(self, t: int) -> bool:
        return t >= self.opening

    def bank_value(self, t: int) -> float:
        """What banking ``t`` turn points is worth under this objective."""
        if self.kind == "reach":
            return 1.0 if t >= self.need else 0.0
        return float(t)

    def bank_values(self, t: NDArray[np.int64]) -> NDArray[np.float64]:
        """:meth:`bank_value` over an array of turn totals."""
        import numpy as np

        if self.kind == "reach":
            return (t >= self.need).astype(np.float64)
        return t.astype(np.float64)


@cache
def scoring_options(rules: Rules) -> dict[Counts, frozenset[tuple[int, int]]]:
    """Every multiset of up to six dice with its distinct scoring selections, each as
    ``(points, dice set aside)``; empty for a Farkle.

    Worked out from the multisets one die smaller (a selection of a roll is a selection of the
    roll less one of its dice, or the whole roll), so each multiset is scored once: this is what
    the solvers' roll models and the checks of their kept tables start from, without numpy.
    """
    table = score_table(rules)
    options: dict[Counts, frozenset[tuple[int, int]]] = {}
    for n in range(7):
        for counts in multisets(n):
            found: set[tuple[int, int]] = set()
            if n:
                split = table.split(counts)
                if split is not None and split.points > 0:
                    found.add((split.points, n))
                for face in range(6):
                    if counts[face]:
                        smaller = list(counts)
                        smaller[face] -= 1
                        found |= options[
                            (smaller[0], smaller[1], smaller[2], smaller[3], smaller[4], smaller[5])
                        ]
            options[counts] = frozenset(found)
    return options


@dataclass(frozen=True)
class TurnRolls:
    """Every non-Farkle roll of 1..6 dice as the turn solver sees it, in plain Python.

    For each roll and each number of dice kept only the highest score matters: values never
    fall as turn points rise, so among selections that leave the same dice to roll, the one
    with most points is always at least as good. ``rows`` holds ``(n, chance, levels, dice
    left)`` for each roll, by dice kept 1..6 (0 where no selection keeps that many);
    ``farkle[n]`` and ``best_score[n]`` are the Farkle chance and the expected best points of
    one roll of ``n`` dice (index 0 unused).
    """

    rows: tuple[tuple[int, float, tuple[int, ...], tuple[int, ...]], ...]
    farkle: tuple[float, ...]
    best_score: tuple[float, ...]

    @property
    def max_level(self) -> int:
        return max(max(levels) for _, _, levels, _ in self.rows)


@cache
def turn_rolls(rules: Rules) -> TurnRolls:
    options = scoring_options(rules)
    rows = []
    farkle = [0.0] * 7
    best_score = [0.0] * 7
    for n in range(1, 7):
        for roll in multisets(n):
            chance = float(roll_chance(roll))
            found = options[roll]
            if not found:
                farkle[n] += chance
                continue
            by_kept = [0] * 6
            for points, kept in found:
                by_kept[kept - 1] = max(by_kept[kept - 1], points // STEP)
            # Slots no selection fills point at level 0 with no dice, which the solver never reads.
            levels = tuple(by_kept[k - 1] if by_kept[k - 1] and k <= n else 0 for k in range(1, 7))
            left = tuple((n - k if k < n else 6) if by_kept[k - 1] and k <= n else 0 for k in range(1, 7))
            rows.append((n, chance, levels, left))
            best_score[n] += chance * max(points for points, _ in found)
    return TurnRolls(tuple(rows), tuple(farkle), tuple(best_score))


class RollModel:
    """:class:`TurnRolls` as arrays, for the solve."""

    def __init__(self, rules: Rules):
        import numpy as np

        rolls = turn_rolls(rules)
        self.farkle = np.array(rolls.farkle)
        self.best_score = np.array(rolls.best_score)
        self.n = np.array([n for n, _, _, _ in rolls.rows])
        # Invalid slots point at column 0, which always holds -inf.
        self.levels = np.array([levels for _, _, levels, _ in rolls.rows], dtype=np.int64)
        self.dice_left = np.array([left for _, _, _, left in rolls.rows], dtype=np.int64)
        self.prob = np.zeros((7, len(rolls.rows)))
        self.prob[self.n, np.arange(len(rolls.rows))] = [chance for _, chance, _, _ in rolls.rows]
        self.max_level = int(self.levels.max())


@cache
def roll_model(rules: Rules) -> RollModel:
    return RollModel(rules)


class Solution:
    """Solved values of one rule set under one objective.

    ``roll_value(t, n)``: the value of rolling ``n`` dice with ``t`` turn points at
    stake, playing perfectly afterwards. ``value_after(t, n)``: the value of
    having set aside dice for ``t`` points with ``n`` dice to roll next, free to
    bank (where allowed) or roll.
    """

    def __init__(
        self, rules: Rules, objective: Objective, top: int, values: NDArray[np.float64] | array[float]
    ):
        self.rules = rules
        self.objective = objective
        self.top = top  # from this level up, banking is best in every state
        # Row-major, 7 to a level: a kept solution comes back as a plain array and stays one, so
        # a warm ``hint`` never has to import numpy.
        self._flat: array[float] | NDArray[np.float64] = (
            values if isinstance(values, array) else values.ravel()
        )

    @property
    def values(self) -> NDArray[np.float64]:
        """``values[L, n]`` = ``roll_value(L * 50, n)`` below the top; column 0 unused."""
        import numpy as np

        return np.asarray(self._flat, dtype=np.float64).reshape(self.top, 7)

    # -- the table

    def roll_value(self, t: int, n: int) -> float:
        """Value of rolling ``n`` dice (1..6) with ``t`` turn points at stake."""
        level = _level(t)
        if not 1 <= n <= 6:
            raise ValueError(f"dice to roll must be 1 to 6, not {n}")
        if level < self.top:
            return float(self._flat[level * 7 + n])
        return float(self._row_above_top(level)[n])

    def bank_value(self, t: int) -> float | None:
        """Value of banking ``t`` now, or None where the opening minimum forbids it."""
        return self.objective.bank_value(t) if self.objective.can_bank(t) else None

    def value_after(self, t: int, n: int) -> float:
        """Value once dice for ``t`` points are set aside with ``n`` dice to roll (6 after hot dice)."""
        bank = self.bank_value(t)
        roll = self.roll_value(t, n)
        return roll if bank is None else max(bank, roll)

    def should_roll(self, t: int, n: int) -> bool:
        """True when rolling is at least as good as banking (or banking is not allowed)."""
        bank = self.bank_value(t)
        return bank is None or at_least(self.roll_value(t, n), bank)

    @lru_cache(maxsize=256)  # noqa: B019 - a Solution lives as long as the solve cache
    def _row_above_top(self, level: int) -> NDArray[np.float64]:
        # From the top up every state banks, so one step of the recursion is exact.
        import numpy as np

        model = roll_model(self.rules)
        bank = self.objective.bank_values((level + model.levels) * STEP)
        bank = np.where(model.dice_left > 0, bank, -np.inf)
        return model.prob @ bank.max(axis=1) + model.farkle * self.objective.farkle_value

    # -- summaries

    @property
    def expected_turn_score(self) -> float:
        """The value of a turn from its start: six dice, no points."""
        return self.roll_value(0, 6)

    @property
    def decisions_per_turn(self) -> float:
        """The expected number of decisions in a turn from six dice, played as this table plays
        it: every roll that scores is one (what to set aside, then bank or roll on); the table
        sets aside its best and rolls on where that is at least as good as banking."""
        import numpy as np

        model = roll_model(self.rules)
        top = self.top
        height = top + model.max_level + 1
        totals = np.arange(height, dtype=np.int64) * STEP
        bank = np.where(totals >= self.objective.opening, self.objective.bank_values(totals), -np.inf)
        rolled = np.full((height, 7), -np.inf)
        rolled[:top, 1:] = self.values[:, 1:]
        after = np.maximum(rolled, bank[:, None])
        after[:, 0] = -np.inf  # the slot of no selection
        rolls_on = rolled >= bank[:, None] - 1e-9 * np.maximum(1.0, np.abs(bank[:, None]))
        # From the top up every scoring roll is one decision, then a bank.
        decisions = np.zeros((height, 7))
        decisions[top:, 1:] = 1.0 - model.farkle[1:]
        rows = np.arange(len(model.n))
        for level in range(top - 1, -1, -1):
            to = model.levels + level
            taken = np.argmax(after[to, model.dice_left], axis=1)
            at, dice = to[rows, taken], model.dice_left[rows, taken]
            made = 1.0 + np.where(rolls_on[at, dice], decisions[at, dice], 0.0)
            decisions[level] = model.prob @ made
        return float(decisions[0, 6])

    def roll_while_at_most(self, n: int) -> int | None:
        """The largest turn total at which rolling ``n`` dice is at least as good as banking.

        None when there is no such total (banking always at least as good).
        """
        # From the top up banking is strictly best (see top_level), so the search starts below it.
        for level in range(self.top - 1, -1, -1):
            t = level * STEP
            if self.objective.can_bank(t) and not self.should_roll(t, n):
                continue
            return t
        return None


def at_least(a: float, b: float) -> bool:
    """``a >= b`` up to float rounding, so exact ties count as ties."""
    return a >= b - 1e-9 * max(1.0, abs(b))


def round_up(points: int | None) -> int:
    """Turn points move in fifties, so needing 1,330 is needing 1,350."""
    if points is None or points <= 0:
        return 0
    return -(-points // STEP) * STEP


def _level(t: int) -> int:
    if t < 0 or t % STEP:
        raise ValueError(f"turn points must be a non-negative multiple of {STEP}, not {t}")
    return t // STEP


def top_level(rules: Rules, objective: Objective) -> int:
    """The lowest level from which banking is certainly best (see the module docstring)."""
    opening = -(-objective.opening // STEP)
    if objective.kind == "reach":
        return max(-(-objective.need // STEP), opening)
    model = turn_rolls(rules)
    bound = 0.0
    for n in range(1, 7):
        f = model.farkle[n]
        gain = model.best_score[n] + f * objective.farkle_value
        bound = max(bound, gain / f)
    return max(math.floor(bound / STEP) + 1, opening)


def compute(rules: Rules, objective: Objective, progress: Progress | None = None) -> Solution:
    """Solve a turn exactly under ``rules`` for ``objective``, from nothing: every level from the
    top down (``progress`` told the levels done). :meth:`~farkle_trainer.engine.tables.Tables.turn`
    holds and keeps what this works out."""
    import numpy as np

    model = roll_model(rules)
    top = top_level(rules, objective)
    height = top + model.max_level + 1
    after = np.empty((height, 7))
    after[:, 0] = -np.inf
    totals = np.arange(height, dtype=np.int64) * STEP
    bank = objective.bank_values(totals)
    can_bank = totals >= objective.opening
    after[top:, 1:] = bank[top:, None]
    flat = after.ravel()
    index = model.levels * 7 + model.dice_left
    farkle = model.farkle * objective.farkle_value
    values = np.zeros((top, 7))
    # Telling about every level would cost more than a small table's whole solve.
    every = max(1, top // 100)
    for level in range(top - 1, -1, -1):
        best = flat[index + level * 7].max(axis=1)
        row = model.prob @ best + farkle
        values[level] = row
        after[level, 1:] = np.maximum(row[1:], bank[level]) if can_bank[level] else row[1:]
        if progress is not None and (top - level) % every == 0:
            progress(top - level, top)
    if progress is not None:
        progress(top, top)
    return Solution(rules, objective, top, values)


@cache
def _merged_rolls(rules: Rules) -> tuple[tuple[tuple[float, tuple[tuple[int, int], ...]], ...], ...]:
    """For each number of dice (index 0 unused): the rolls with the same options merged, each as
    ``(chance, options)`` with every option ``(levels, dice left)``."""
    merged: list[dict[tuple[tuple[int, int], ...], float]] = [{} for _ in range(7)]
    for n, chance, levels, left in turn_rolls(rules).rows:
        options = tuple(sorted({(lv, m) for lv, m in zip(levels, left, strict=True) if m}))
        merged[n][options] = merged[n].get(options, 0.0) + chance
    return tuple(tuple((chance, options) for options, chance in by_n.items()) for by_n in merged)


#: A kept value may differ from its equation by this much (relative to the value, at least one):
#: the sums are taken in another order than the solve's.
KEPT_TOLERANCE = 1e-9


def kept_solution_sound(
    rules: Rules, objective: Objective, top: int, values: array[float] | NDArray[np.float64]
) -> bool:
    """Whether a kept solution is this one: its number of levels is the top, and every value
    satisfies its equation from the values above it (in plain Python, so a warm ``hint``
    still never loads numpy).

    Any change to any value of the table breaks the equation of the highest value changed;
    what is not caught is a change below ``KEPT_TOLERANCE``.
    """
    if top != top_level(rules, objective) or len(values) != top * 7:
        return False
    rolls = turn_rolls(rules)
    height = top + rolls.max_level + 1
    bank = [objective.bank_value(level * STEP) for level in range(height)]
    after: list[list[float]] = [[]]
    for m in range(1, 7):
        column = []
        for level in range(height):
            if level >= top:
                column.append(bank[level])
                continue
            value = float(values[level * 7 + m])
            column.append(max(value, bank[level]) if objective.can_bank(level * STEP) else value)
        after.append(column)
    for n, sets in enumerate(_merged_rolls(rules)):
        if n == 0:
            continue
        total = [rolls.farkle[n] * objective.farkle_value] * top
        for chance, options in sets:
            columns = [after[m][lv : lv + top] for lv, m in options]
            best = columns[0] if len(columns) == 1 else map(max, *columns)
            # Whole columns at a time through map: a warm command checks a table in milliseconds.
            total = list(map(add, total, map(chance.__mul__, best)))
        for level in range(top):
            kept = float(values[level * 7 + n])
            if abs(total[level] - kept) > KEPT_TOLERANCE * max(1.0, abs(kept)):
                return False
    return True


def solution_key(rules: Rules, objective: Objective) -> TableKey:
    """What a turn's solution is kept under: the scoring table and the objective."""
    return TableKey("solution", _FORMAT, (rules.scoring_key, objective.key))
