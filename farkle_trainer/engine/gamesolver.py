"""The exact game solver: the chance of winning a two-player game, and solo in fewest turns.

Scores and turn points are counted in levels of 50 (``STEP``). ``W(a, b)`` is the chance
that the player about to start a turn with ``a`` banked wins against an opponent on ``b``
(both below the target ``T``). Inside that turn, with ``t`` turn points and ``n`` dice to
roll, the player may, after every scoring roll, keep any distinct selection and then bank
or roll on:

* banking below the target hands the turn over: worth ``1 - W(b, a + t)``;
* banking to the target or more starts the final round: the opponent gets one last turn
  to pass ``a + t`` (a tie counts one half), so banking is worth ``1 - G(a + t - b)``;
* a Farkle hands the turn over with nothing banked: worth ``1 - W(b, a)``.

More points are not always better here (reaching the target early gives the opponent a
known score to beat), so every distinct selection of a roll is valued; the turn solver's
"best score per number of dice kept" shortcut is not used for the two-player game.

Order of solution. A pair ``(a, b)`` needs ``W(b, q)`` for ``q > a`` (a higher total
``a + b``) and, through a Farkle, its mirror ``W(b, a)`` (the same total). Totals are
solved from the highest down; inside a total every pair and its mirror form the
two-variable fixed point ``x = F_ab(1 - y)``, ``y = F_ba(1 - x)``, where ``F`` (the value
of the turn as a function of the Farkle value) is convex, nondecreasing, piecewise linear
with slope below one. All pairs of a total are solved together by Newton steps on that
system, the slope taken from a second evaluation a hair away, until every Bellman
residual is below ``TOLERANCE``.

Above the target the turn is cut exactly where banking is certainly best (see
:func:`_cut_table`). The solves value turns with a compiled loop (numba, loaded only then);
looking up a solved table stays with numpy. Every number is an expectation over every fair
roll; none is sampled.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from farkle_trainer.engine.dice import Counts, counts_of, multisets, roll_chance, size
from farkle_trainer.engine.errors import InputError
from farkle_trainer.engine.grading import TIE
from farkle_trainer.engine.rules import MAX_TARGET, MIN_TARGET, Rules
from farkle_trainer.engine.scoring import Split, score_table
from farkle_trainer.engine.solver import STEP, cache_dir, read_cache_file, write_cache_file

if TYPE_CHECKING:
    from numpy.typing import NDArray

    FloatArray = NDArray[np.float64]
    IntArray = NDArray[np.int64]

Action = Literal["bank", "roll"]
Progress = Callable[[float], None]

#: Every stored win chance satisfies its Bellman equation to within this.
TOLERANCE = 1e-12
_CACHE_VERSION = 1
# The Newton slope comes from a second evaluation this far away; the residual test, not
# the slope, decides when a pair is done.
_DELTA = 1e-6
_MAX_PASSES = 40
# A pair whose opponent is this unlikely to win even after a Farkle may cut its turn
# where the final turn's chance is below it too: the value moves by less than this.
_NEGLIGIBLE = 1e-13


class GameSolverError(InputError):
    """A game the solver cannot give exact chances for (a rule or a target out of range)."""


# -- the rolls, merged


@dataclass(frozen=True, eq=False)
class _Rolls:
    """Every non-Farkle roll of 1..6 dice as sets of options, rolls with equal sets merged.

    An option is ``(points, dice to roll next)`` in levels, six after hot dice. Options are
    stored slot by slot: slot ``k`` holds the ``k``-th option of every set with more than
    ``k`` options (sets sorted by size, largest first), so a set's best option is a chain
    of elementwise maxima over row blocks that shrink, without a ragged reduction.
    """

    maxp: int  # the most points one selection can score, in levels
    nsets: int
    points: IntArray  # (options,) in slot order
    dice: IntArray  # (options,) dice to roll next, 1..6
    slots: tuple[int, ...]  # sets holding slot k
    prob: FloatArray  # (6, nsets): chance that rolling n = row + 1 dice shows the set
    farkle: FloatArray  # (6,)
    best_points: IntArray  # (nsets,) the most points of each set
    # The same, set by set, for the compiled loop: option rows (as rows_up) and the nonzero
    # chances (dice - 1, chance), each as (starts, values...) with starts of length nsets + 1.
    tables: tuple[IntArray, IntArray, IntArray, IntArray, FloatArray]

    def rows_up(self) -> IntArray:
        """Option rows in a window of the positions just above the current one."""
        return (self.points - 1) * 6 + (self.dice - 1)

    def rows_down(self) -> IntArray:
        """Option rows in a window of the ``maxp`` needs just below the current one."""
        return (self.maxp - self.points) * 6 + (self.dice - 1)

    def best(self, gathered: FloatArray) -> FloatArray:
        """Each set's best option value from the gathered option rows (slot order), in place."""
        best = gathered[: self.nsets]
        offset = self.nsets
        for count in self.slots[1:]:
            np.maximum(best[:count], gathered[offset : offset + count], out=best[:count])
            offset += count
        return best


@cache
def _rolls(rules: Rules) -> _Rolls:
    """The merged rolls of ``rules``, from the disk cache when a sound copy is there."""
    path = cache_dir() / f"rolls-v{_CACHE_VERSION}-{rules.scoring_key}.npz"
    arrays = _load(path, _ROLL_ARRAYS)
    rolls = None if arrays is None else _rolls_from(arrays)
    if rolls is None:
        rolls = _merge_rolls(rules)
        names = ("starts", "rows", "chance_starts", "chance_dice", "chances")
        tables = dict(zip(names, rolls.tables, strict=True))
        _store(
            path,
            points=rolls.points,
            dice=rolls.dice,
            slots=np.array(rolls.slots, dtype=np.int64),
            prob=rolls.prob,
            farkle=rolls.farkle,
            best_points=rolls.best_points,
            **tables,
        )
    return rolls


_ROLL_ARRAYS = (
    "points",
    "dice",
    "slots",
    "prob",
    "farkle",
    "best_points",
    "starts",
    "rows",
    "chance_starts",
    "chance_dice",
    "chances",
)


def _rolls_from(arrays: dict[str, np.ndarray]) -> _Rolls | None:
    """Rolls read back from a cache file, or None unless every array fits the others.

    The checks are the ones a merged table always passes: sizes that agree, chances that
    add up to one with the Farkle chance for every number of dice, options within reach,
    each set's best points its largest option, and the compiled loop's tables matching
    the slot layout.
    """
    a = arrays
    ints = ("points", "dice", "slots", "best_points", "starts", "rows", "chance_starts", "chance_dice")
    if any(a[k].dtype != np.int64 or a[k].ndim != 1 for k in ints):
        return None
    if any(a[k].dtype != np.float64 for k in ("prob", "farkle", "chances")):
        return None
    points, dice, slots, prob, farkle = a["points"], a["dice"], a["slots"], a["prob"], a["farkle"]
    if prob.ndim != 2 or prob.shape[0] != 6 or farkle.shape != (6,) or len(slots) == 0:
        return None
    nsets = prob.shape[1]
    if not len(points) == len(dice) == int(slots.sum()) or slots[0] != nsets or (np.diff(slots) > 0).any():
        return None
    if len(points) == 0 or points.min() < 1 or dice.min() < 1 or dice.max() > 6:
        return None
    if (prob < 0).any() or (farkle <= 0).any() or np.abs(prob.sum(axis=1) + farkle - 1.0).max() > 1e-12:
        return None
    maxp = int(points.max())
    sizes = np.array([(slots > s).sum() for s in range(nsets)], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(sizes)])
    if not np.array_equal(a["starts"], starts):
        return None
    offsets = np.cumsum((0, *slots[:-1].tolist()))
    opt_index = np.array([offsets[k] + s for s in range(nsets) for k in range(sizes[s])], dtype=np.int64)
    if not np.array_equal(a["rows"], ((points - 1) * 6 + (dice - 1))[opt_index]):
        return None
    best = np.maximum.reduceat(points[opt_index], starts[:-1])
    if not np.array_equal(a["best_points"], best):
        return None
    nz_sets, nz_dice = np.nonzero(prob.T)
    if not (
        np.array_equal(a["chance_starts"], np.searchsorted(nz_sets, np.arange(nsets + 1)))
        and np.array_equal(a["chance_dice"], nz_dice)
        and np.array_equal(a["chances"], prob.T[nz_sets, nz_dice])
    ):
        return None
    return _Rolls(
        maxp=maxp,
        nsets=nsets,
        points=points,
        dice=dice,
        slots=tuple(int(k) for k in slots),
        prob=prob,
        farkle=farkle,
        best_points=best,
        tables=(starts.astype(np.int64), a["rows"], a["chance_starts"], a["chance_dice"], a["chances"]),
    )


def _merge_rolls(rules: Rules) -> _Rolls:
    table = score_table(rules)
    merged: dict[frozenset[tuple[int, int]], FloatArray] = {}
    farkle = np.zeros(6)
    for n in range(1, 7):
        for roll in multisets(n):
            chance = float(roll_chance(roll))
            selections = table.selections(roll)
            if not selections:
                farkle[n - 1] += chance
                continue
            options = frozenset((s.points // STEP, (n - len(s.dice)) or 6) for s in selections)
            merged.setdefault(options, np.zeros(6))[n - 1] += chance
    if (farkle <= 0).any():
        raise GameSolverError("win chances need every number of dice to risk a Farkle")
    sets = sorted(merged, key=lambda s: (-len(s), sorted(s)))
    ordered = [sorted(s) for s in sets]
    width = len(ordered[0])
    slots = tuple(sum(1 for s in ordered if len(s) > k) for k in range(width))
    points: list[int] = []
    dice: list[int] = []
    for k in range(width):
        for listed in ordered[: slots[k]]:
            points.append(listed[k][0])
            dice.append(listed[k][1])
    # Set s's k-th option sits at sum(slots[:k]) + s in slot order.
    offsets = np.cumsum((0, *slots[:-1]))
    sizes = [len(listed) for listed in ordered]
    opt_index = [int(offsets[k]) + s for s in range(len(sets)) for k in range(sizes[s])]
    prob = np.stack([merged[s] for s in sets], axis=1)
    nz_sets, nz_dice = np.nonzero(prob.T)
    points_arr = np.array(points, dtype=np.int64)
    dice_arr = np.array(dice, dtype=np.int64)
    rows_up = ((points_arr - 1) * 6 + (dice_arr - 1))[opt_index]
    tables = (
        np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
        np.ascontiguousarray(rows_up, dtype=np.int64),
        np.searchsorted(nz_sets, np.arange(len(sets) + 1)).astype(np.int64),
        nz_dice.astype(np.int64),
        np.ascontiguousarray(prob.T[nz_sets, nz_dice]),
    )
    return _Rolls(
        maxp=max(points),
        nsets=len(sets),
        points=points_arr,
        dice=dice_arr,
        slots=slots,
        prob=prob,
        farkle=farkle,
        best_points=np.array([max(p for p, _ in s) for s in sets], dtype=np.int64),
        tables=tables,
    )


# -- the final turn


@dataclass(frozen=True, eq=False)
class _FinalTurn:
    """The last turn of a game, for the player who must pass a leader.

    ``tie[r, n - 1]``: the chance of winning (a tie counts one half) by rolling ``n`` dice
    when ``r >= 0`` more levels would tie the leader. ``reach[r, n - 1]``: the chance of
    ending the turn with at least ``r`` more levels (an unopened player whose opening
    minimum is above the tie has only that). Both only depend on what is still missing,
    and more points never hurt here.
    """

    tie: FloatArray
    reach: FloatArray


def _final_turn(rolls: _Rolls, size_: int) -> _FinalTurn:
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
    return _FinalTurn(tie=tables[0], reach=tables[1])


@cache
def _final_turn_cached(rules: Rules, size_: int) -> _FinalTurn:
    """The final-turn tables, from the disk cache when a sound copy is there."""
    rolls = _rolls(rules)
    path = cache_dir() / f"final-v{_CACHE_VERSION}-{rules.scoring_key}-n{size_}.npz"
    arrays = _load(path, ("tie", "reach"))
    if arrays is not None and _final_turn_sound(rolls, arrays["tie"], arrays["reach"], size_):
        return _FinalTurn(tie=arrays["tie"], reach=arrays["reach"])
    final = _final_turn(rolls, size_)
    _store(path, tie=final.tie, reach=final.reach)
    return final


def _final_turn_sound(rolls: _Rolls, tie: FloatArray, reach: FloatArray, size_: int) -> bool:
    """Spot-check cached final-turn tables: shapes, chances, and rows worked out again.

    Row ``r`` follows from the ``maxp`` rows below it, so a few rows (the first ones and
    some spread over the table) are recomputed from the stored rows beneath them.
    """
    maxp = rolls.maxp
    for table in (tie, reach):
        if table.shape != (size_, 6) or table.dtype != np.float64 or not np.isfinite(table).all():
            return False
        if (table < 0).any() or (table > 1).any():
            return False
    checked = sorted({0, 1, 2, size_ // 3, size_ // 2, size_ - 1} & set(range(size_)))
    rows = rolls.rows_down()
    for is_tie, table in ((True, tie), (False, reach)):
        for r in checked:
            window = np.ones((maxp, 6))
            for k in range(max(0, r - maxp), r):
                done = table[k]
                window[maxp - r + k] = (np.maximum(done, 0.5) if is_tie else 1.0) if k == 0 else done
            best = rolls.best(window.reshape(-1, 1)[rows])
            if np.abs((rolls.prob @ best)[:, 0] - table[r]).max() > 1e-12:
                return False
    return True


# -- the solve


@dataclass(frozen=True, eq=False)
class _Game:
    """Everything fixed by the rules, target and opening minimum (levels), before solving."""

    rules: Rules
    levels: int  # T: scores 0..T-1 are below the target
    opening: int  # O in levels
    rolls: _Rolls
    final: _FinalTurn
    span: int  # leads covered by the final-turn tables
    g_open: FloatArray  # (span,) G(d): an opened opponent passes a lead of d levels
    g_closed: FloatArray  # (span,) the same for an opponent on 0
    x_open: FloatArray  # (span,) cut certificates, see _cut_table
    x_closed: FloatArray

    def g(self, opponent: IntArray, lead: IntArray) -> FloatArray:
        lead = np.minimum(lead, self.span - 1)
        return np.where(opponent == 0, self.g_closed[lead], self.g_open[lead])

    def cut(self, a: IntArray, b: IntArray, farkle: FloatArray) -> IntArray:
        """The lowest position from which banking is certainly best for these turns."""
        cuts = np.empty(len(a), dtype=np.int64)
        for closed, table in ((False, self.x_open), (True, self.x_closed)):
            sel = (b == 0) if closed else (b != 0)
            if not sel.any():
                continue
            # table is nondecreasing: the first lead whose certificate covers the Farkle value.
            lead = np.searchsorted(table, farkle[sel], side="left")
            if (lead >= len(table)).any():
                raise GameSolverError("the final-turn tables are too short for this game")
            cuts[sel] = b[sel] + lead
        cuts = np.maximum(cuts, self.levels)
        return np.where(a == 0, np.maximum(cuts, self.opening), cuts)


def _cut_table(rolls: _Rolls, g: FloatArray) -> FloatArray:
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


@cache
def _game(rules: Rules, levels: int, opening: int) -> _Game:
    rolls = _rolls(rules)
    span = 3 * levels + 800
    final = _final_turn_cached(rules, span)
    g_open = final.tie[:, 5].copy()
    g_closed = g_open.copy()
    if opening > 0:
        # An opponent on 0 may not bank below the opening minimum: above the tie that only
        # leaves reaching the minimum itself.
        d = np.arange(span)
        g_closed = np.where(opening > d, final.reach[min(opening, span - 1), 5], g_open)
    return _Game(
        rules=rules,
        levels=levels,
        opening=opening,
        rolls=rolls,
        final=final,
        span=span,
        g_open=g_open,
        g_closed=g_closed,
        x_open=_cut_table(rolls, g_open),
        x_closed=_cut_table(rolls, g_closed),
    )


@dataclass
class _Pass:
    """One evaluation of many turns at once, each with its own Farkle value."""

    start: FloatArray  # (w,) the value of rolling six dice at the turn's start
    after: FloatArray | None = None  # (positions, 6, w) value once dice are set aside
    rolled: FloatArray | None = None  # (positions, 6, w) value of rolling n dice


def _bank_values(game: _Game, w: FloatArray, a: IntArray, b: IntArray, height: int) -> FloatArray:
    """``bank[pos, col]`` for positions 0..height-1: ``-inf`` where banking is not allowed."""
    levels = game.levels
    pos = np.arange(height)[:, None]
    bank = np.empty((height, len(a)))
    below = min(height, levels)
    bank[:below] = 1.0 - w[b, :below].T
    if height > levels:
        bank[levels:] = 1.0 - game.g(b[None, :], pos[levels:] - b[None, :])
    bank[pos <= a[None, :]] = 0.0  # never read: a selection always adds points
    closed = (a[None, :] == 0) & (pos < game.opening)
    bank[closed] = -np.inf
    return bank


def _evaluate(
    game: _Game,
    w: FloatArray,
    a: IntArray,
    b: IntArray,
    farkle: FloatArray,
    *,
    keep: bool = False,
    top: int = 0,
    compiled: bool = False,
) -> _Pass:
    """The value of the turn from ``(a, b)`` with Farkle value ``farkle``, for each column."""
    cut = np.maximum(game.cut(a, b, farkle), top)
    bank = _bank_values(game, w, a, b, int(cut.max()) + game.rolls.maxp + 1)
    return _turns(game.rolls, bank, a, cut, farkle, keep=keep, compiled=compiled)


def _turns(
    rolls: _Rolls,
    bank: FloatArray,
    a: IntArray,
    cut: IntArray,
    farkle: FloatArray,
    *,
    keep: bool = False,
    compiled: bool = False,
) -> _Pass:
    """Many turns at once, each from position ``a`` with its own bank values and Farkle value.

    ``bank[pos, col]`` is what banking at position ``pos`` is worth (``-inf`` where it is
    not allowed); from ``cut`` up banking is known to be best. ``compiled``: by the
    compiled loop of :mod:`farkle_trainer.engine._gamekernel`, as the solves do (about
    five times faster per turn and core, but loading numba takes about a second, too long
    for looking up a few turns of a solved table); else with numpy. They agree to rounding.
    """
    if not compiled:
        return _turns_numpy(rolls, bank, a, cut, farkle, keep=keep)
    from farkle_trainer.engine._gamekernel import turn_columns

    if len(bank) < int(cut.max()) + rolls.maxp + 1:
        raise ValueError("the bank values must reach the highest cut plus the most points")
    start, after, rolled = turn_columns(
        np.ascontiguousarray(bank, dtype=np.float64),
        np.ascontiguousarray(a, dtype=np.int64),
        np.ascontiguousarray(cut, dtype=np.int64),
        np.ascontiguousarray(farkle, dtype=np.float64),
        rolls.farkle,
        rolls.tables,
        keep=keep,
    )
    result = _Pass(start=start)
    if keep:
        assert after is not None and rolled is not None
        result.after, result.rolled = after, rolled
    return result


def _turns_numpy(
    rolls: _Rolls,
    bank: FloatArray,
    a: IntArray,
    cut: IntArray,
    farkle: FloatArray,
    *,
    keep: bool = False,
) -> _Pass:
    """Many turns at once, each from position ``a`` with its own bank values and Farkle value.

    ``bank[pos, col]`` is what banking at position ``pos`` is worth (``-inf`` where it is
    not allowed); from ``cut`` up banking is known to be best. Positions run down from the
    highest cut. Columns are kept in an order where the active ones form a prefix: by cut
    (highest first) above every start, then by start (lowest first) below every cut.
    """
    maxp = rolls.maxp
    height = len(bank)
    switch = int(cut.min())
    order = np.argsort(-cut, kind="stable")
    a, farkle, cut = a[order], farkle[order], cut[order]
    bank = bank[:, order]
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
    result = _Pass(start=start[back])
    if keep:
        assert rolled is not None
        result.after = after[:, :, back]
        result.rolled = rolled[:, :, back]
    return result


def _guess(w: FloatArray, a: IntArray, b: IntArray) -> FloatArray:
    """A start for Newton, from the solved neighbours one to three totals up.

    Where all are inside the table: the quadratic in both scores fitted (least squares) to
    the seven neighbours ``(1, 0), (0, 1), (2, 0), (1, 1), (0, 2), (2, 1), (1, 2)`` away
    (those weights: 3/2, 3/2, -1/2, -2, -1/2, 1/2, 1/2),
    about a hundred times closer than a plane, so fewer Newton steps cross a kink of the
    turn's value. Near the edges: the plane through the neighbours one and two totals up.
    Only the start depends on this; the residual test decides when a pair is done.
    """
    levels = len(w)
    up_a = a + 1 < levels
    up_b = b + 1 < levels
    a1 = np.minimum(a + 1, levels - 1)
    b1 = np.minimum(b + 1, levels - 1)
    guess = np.full(len(a), 0.5)
    guess = np.where(up_a & ~up_b, w[a1, b], guess)
    guess = np.where(~up_a & up_b, w[a, b1], guess)
    guess = np.where(up_a & up_b, w[a1, b] + w[a, b1] - w[a1, b1], guess)
    inner = (a + 2 < levels) & (b + 2 < levels)
    if inner.any():
        ai, bi = a[inner], b[inner]
        guess[inner] = (
            1.5 * (w[ai + 1, bi] + w[ai, bi + 1])
            - 2.0 * w[ai + 1, bi + 1]
            - 0.5 * (w[ai + 2, bi] + w[ai, bi + 2])
            + 0.5 * (w[ai + 2, bi + 1] + w[ai + 1, bi + 2])
        )
    return np.clip(guess, 0.0, 1.0)


def _solve_total(game: _Game, w: FloatArray, total: int) -> int:
    """Solve every pair with ``a + b == total`` into ``w``; returns the passes it took.

    The first pass also evaluates each turn a hair above its Farkle value, for the slope;
    later passes evaluate only pairs not yet done, and take the slope from the last two
    evaluations (a secant, exact on a linear piece).
    """
    levels = game.levels
    a = np.arange(max(0, total - levels + 1), min(total, levels - 1) + 1, dtype=np.int64)
    b = total - a
    count = len(a)
    mirror = count - 1 - np.arange(count)
    x = _guess(w, a, b)
    slope = np.zeros(count)
    last_z = np.full(count, np.nan)
    last_f = np.full(count, np.nan)
    todo = np.ones(count, dtype=bool)
    for passes in range(1, _MAX_PASSES + 1):
        idx = np.flatnonzero(todo)
        z = 1.0 - x[mirror[idx]]
        if passes == 1 or passes % 8 == 0:
            step = _slope_step(z)
            values = _evaluate(
                game,
                w,
                np.tile(a[idx], 2),
                np.tile(b[idx], 2),
                np.concatenate([z, z + step]),
                compiled=True,
            )
            f = values.start[: len(idx)]
            slope[idx] = (values.start[len(idx) :] - f) / step
        else:
            f = _evaluate(game, w, a[idx], b[idx], z, compiled=True).start
            moved = np.abs(z - last_z[idx]) > 1e-10
            secant = (f - last_f[idx]) / np.where(moved, z - last_z[idx], 1.0)
            slope[idx] = np.where(moved, secant, slope[idx])
        last_z[idx], last_f[idx] = z, f
        np.clip(slope, 0.0, 1.0 - 1e-9, out=slope)
        ok = np.ones(count, dtype=bool)
        ok[idx] = np.abs(f - x[idx]) < TOLERANCE
        todo &= ~(ok & ok[mirror])
        if not todo.any():
            break
        # Newton on x_i = F_i(1 - x_j), x_j = F_j(1 - x_i), each F linearised at its last z.
        c = last_f + slope * (1.0 - last_z)
        i = np.flatnonzero(todo)
        j = mirror[i]
        x[i] = np.clip((c[i] - slope[i] * c[j]) / (1.0 - slope[i] * slope[j]), 0.0, 1.0)
    else:
        raise GameSolverError(f"win chances did not converge at total {total * STEP:,}")
    w[a, b] = x
    return passes


def _slope_step(z: FloatArray) -> FloatArray:
    """How far away the second evaluation for the slope is: a hair up, or a hair down where
    that would push a Farkle value past one (the cut certificates only cover chances)."""
    return np.where(z + _DELTA <= 1.0, _DELTA, -_DELTA)


def _solve(game: _Game, progress: Progress | None = None) -> tuple[FloatArray, int]:
    levels = game.levels
    w = np.full((levels, levels), 0.5)
    totals = range(2 * levels - 2, -1, -1)
    work = [min(s, 2 * levels - 2 - s) + 1 for s in totals]
    done = 0
    passes = 0
    for total, weight in zip(totals, work, strict=True):
        passes += _solve_total(game, w, total)
        done += weight
        if progress is not None:
            progress(done / sum(work))
    return w, passes


# -- the two-player table


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
    _game: _Game = field(repr=False)
    _pairs: dict[tuple[int, int, int], _Pass] = field(default_factory=dict, repr=False)

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
        level = _level(t)
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
        pos = a + _level(t)
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
        return bank is None or _at_least(self.roll_value(my_score, opponent_score, t, n), bank)

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
        need, level = _level(behind), _level(t)
        if need == 0:
            raise ValueError("the leader is ahead by at least 50 points in the final round")
        if not 1 <= n <= 6:
            raise ValueError(f"dice to roll must be 1 to 6, not {n}")
        opening = self._game.opening
        reach = not opened and opening > need
        missing = (opening if reach else need) - level
        if missing < 0 or (reach and missing == 0):
            return float(1.0 - self._game.rolls.farkle[n - 1])
        final = _final_turn_cached(self.rules, max(self._game.span, _pow2(missing + 1)))
        return float((final.reach if reach else final.tie)[missing, n - 1])

    def final_bank_value(self, behind: int, t: int, *, opened: bool = True) -> float | None:
        """In the last turn: the chance of winning by banking ``t`` now (None if not allowed)."""
        need, level = _level(behind), _level(t)
        if level == 0 or (not opened and level < self._game.opening):
            return None
        return 1.0 if level > need else 0.5 if level == need else 0.0

    # -- helpers

    def _score(self, score: int) -> int:
        level = _level(score)
        if level >= self._game.levels:
            raise ValueError(f"a score of {score:,} has reached the target of {self.target:,}")
        return level

    def _turn(self, a: int, b: int, pos: int) -> _Pass:
        key = (a, b, max(0, pos - self._game.levels))
        cached = self._pairs.get(key)
        if cached is not None:
            return cached
        if len(self._pairs) >= 64:
            self._pairs.clear()
        x = np.array([1.0 - self.chances[b, a]])
        turn = _evaluate(self._game, self.chances, np.array([a]), np.array([b]), x, keep=True, top=pos)
        self._pairs[key] = turn
        return turn


def _level(points: int) -> int:
    if isinstance(points, bool) or not isinstance(points, int | np.integer) or points < 0 or points % STEP:
        raise ValueError(f"points must be a non-negative multiple of {STEP}, not {points!r}")
    return int(points) // STEP


def _at_least(a: float, b: float) -> bool:
    """``a >= b`` up to float rounding, so exact ties count as ties."""
    return a >= b - 1e-12


def _pow2(n: int) -> int:
    return 1 << max(0, n - 1).bit_length()


# -- solving, with the caches


def _resolve(
    rules: Rules, target: int | None, opening: int | None, values: str = "win chances"
) -> tuple[int, int]:
    if rules.three_farkle_penalty:
        # With the penalty a Farkle can lower a score, so totals no longer order the pairs:
        # the nine times larger state space (both runs of Farkles) must be iterated as a
        # whole. One sweep over the plain game's 40,000 turn starts to 10,000 already takes
        # about a minute here, and value iteration needs dozens; an estimate is not offered.
        raise GameSolverError(f"{values} are not available with the three-Farkle penalty rule")
    chosen = target is not None
    target = rules.target if target is None else target
    opening = rules.opening_minimum if opening is None else opening
    if not isinstance(target, int) or target % STEP or not MIN_TARGET <= target <= MAX_TARGET:
        shown = f"{target:,}" if isinstance(target, int) else repr(target)
        whose = "" if chosen else f" (the {rules.name} rules' own; give another target)"
        raise GameSolverError(
            f"win chances need a target that is a multiple of {STEP} from {MIN_TARGET:,} to "
            f"{MAX_TARGET:,}, not {shown}{whose}"
        )
    if not isinstance(opening, int) or opening % STEP or not 0 <= opening <= target:
        shown = f"{opening:,}" if isinstance(opening, int) else repr(opening)
        raise GameSolverError(
            f"the opening minimum must be a multiple of {STEP} from 0 to the target of {target:,}, "
            f"not {shown}"
        )
    return target, opening


_MEMORY: dict[tuple[Rules, int, int], GameTable] = {}


def solve_game(
    rules: Rules,
    target: int | None = None,
    opening: int | None = None,
    *,
    progress: Progress | None = None,
) -> GameTable:
    """The exact two-player table for ``rules`` played to ``target`` with opening minimum ``opening``.

    ``target`` and ``opening`` default to the rules' own. Cached in memory and on disk next
    to the turn tables (keyed by the scoring table, target, opening and penalty, so a
    renamed copy of a table shares it); a cache file that fails its checks is solved again.
    ``progress`` is called with the fraction done during a solve. Raises
    :class:`GameSolverError` for the three-Farkle penalty rule and out-of-range settings.
    """
    target, opening = _resolve(rules, target, opening)
    key = (rules, target, opening)
    table = _MEMORY.get(key)
    if table is None:
        table = _load_or_solve(rules, target, opening, progress)
        _MEMORY[key] = table
    elif progress is not None:
        progress(1.0)
    return table


def clear_memory() -> None:
    """Forget the solved tables held in memory (the disk cache stays)."""
    _MEMORY.clear()
    _SOLO.clear()


def _cache_path(kind: str, rules: Rules, target: int, opening: int) -> Path:
    penalty = rules.three_farkle_penalty
    name = f"{kind}-v{_CACHE_VERSION}-{rules.scoring_key}-t{target}-o{opening}-p{penalty}.npz"
    return cache_dir() / name


def _digest(arrays: dict[str, np.ndarray]) -> str:
    """SHA-256 of the arrays' bytes in name order (for one array, of its bytes alone)."""
    hasher = hashlib.sha256()
    for name in sorted(arrays):
        hasher.update(np.ascontiguousarray(arrays[name]).tobytes())
    return hasher.hexdigest()


def _load(path: Path, names: tuple[str, ...]) -> dict[str, np.ndarray] | None:
    """The named arrays of a cache file, or None if it is missing, damaged or not whole."""
    data = read_cache_file(path)
    if data is None:
        return None
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as archive:
            arrays = {name: archive[name] for name in names}
            digest = str(archive["digest"])
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    if any(values.dtype.kind not in "fi" for values in arrays.values()):
        return None
    if digest != _digest(arrays):
        return None
    return arrays


def _load_values(path: Path, shape: tuple[int, ...]) -> FloatArray | None:
    arrays = _load(path, ("values",))
    if arrays is None:
        return None
    values = arrays["values"]
    if values.shape != shape or values.dtype != np.float64 or not np.isfinite(values).all():
        return None
    return values


def _store(path: Path, **arrays: np.ndarray) -> None:
    named: dict[str, Any] = {**arrays, "digest": np.array(_digest(arrays))}
    write_cache_file(path, lambda fh: np.savez(fh, **named))


def _residual(game: _Game, w: FloatArray, a: IntArray, b: IntArray) -> float:
    """The largest Bellman residual of ``w`` at these turn starts."""
    start = _evaluate(game, w, a, b, 1.0 - w[b, a]).start
    return float(np.abs(start - w[a, b]).max())


def _load_or_solve(rules: Rules, target: int, opening: int, progress: Progress | None) -> GameTable:
    levels = target // STEP
    game = _game(rules, levels, opening // STEP)
    path = _cache_path("game", rules, target, opening)
    w = _load_values(path, (levels, levels))
    if w is not None:
        # A file can be whole and still not this game's: spot-check the equations.
        if (w < 0).any() or (w > 1).any():
            w = None
        else:
            corners = np.array([0, levels - 1, 0, levels // 2])
            if _residual(game, w, corners, corners[::-1]) > 1e-9:
                w = None
    if w is None:
        w, _ = _solve(game, progress)
        _store(path, values=w)
    elif progress is not None:
        progress(1.0)
    return GameTable(rules=rules, target=target, opening=opening, chances=w, _game=game)


def win_chance(
    my_score: int,
    opponent_score: int,
    rules: Rules | str | None = None,
    target: int | None = None,
    *,
    opening: int | None = None,
) -> float:
    """The exact chance that the player about to start a turn wins a two-player game.

    ``rules`` is a preset name, a rule file or :class:`~farkle_trainer.rules.Rules`
    (default ``classic``); ``target`` and ``opening`` default to the rules' own.
    """
    from .rules import load_rules

    resolved = rules if isinstance(rules, Rules) else load_rules(rules)
    return solve_game(resolved, target, opening).win_chance(my_score, opponent_score)


# -- every play of a roll, by chance of winning


@dataclass(frozen=True)
class GamePlay:
    """One distinct scoring selection of a roll, valued by the chance of winning.

    ``dice_left`` is 0 after hot dice (the roll on is then with six dice); ``bank`` is None
    where banking is not allowed.
    """

    split: Split
    points_after: int
    dice_left: int
    bank: float | None
    roll: float
    best: float
    action: Action

    @property
    def keep(self) -> tuple[int, ...]:
        return self.split.dice

    @property
    def score(self) -> int:
        return self.split.points

    @property
    def dice_to_roll(self) -> int:
        return self.dice_left or 6


@dataclass(frozen=True)
class GamePlays:
    """All plays of a roll in a game position, best chance of winning first."""

    roll: tuple[int, ...]
    points: int
    my_score: int
    opponent_score: int
    last_turn: bool
    leader: int | None
    plays: tuple[GamePlay, ...]

    @property
    def farkle(self) -> bool:
        return not self.plays

    @property
    def best(self) -> GamePlay | None:
        return self.plays[0] if self.plays else None

    def gives_up(self, play: GamePlay) -> float:
        """How much winning chance a play gives up against the best one."""
        assert self.best is not None
        return max(0.0, self.best.best - play.best)

    def ties_best(self, play: GamePlay) -> bool:
        """Whether a play is as good as the best: it gives up less than a tie, in percentage
        points (see ``TIE``)."""
        return 100 * self.gives_up(play) < TIE


def game_plays(
    roll_counts: Counts,
    points: int,
    my_score: int,
    opp_score: int,
    table: GameTable,
    last_turn: bool = False,
    leader: int | None = None,
) -> GamePlays:
    """Value every distinct scoring selection of a roll by the chance of winning.

    ``roll_counts`` is the roll as counts of 1s..6s (see :func:`~farkle_trainer.dice.counts_of`);
    ``points`` were at stake before it. In the final round (``last_turn``) the player must
    pass ``leader`` (default ``opp_score``), and only that counts.
    """
    counts = roll_counts
    n = size(counts)
    if len(counts) != 6 or not 1 <= n <= 6:
        raise ValueError(f"a roll is counts of six faces with 1 to 6 dice, not {counts!r}")
    _level(points)
    faces = tuple(face for face in range(1, 7) for _ in range(counts[face - 1]))
    behind = 0
    if last_turn:
        lead_score = opp_score if leader is None else leader
        behind = lead_score - my_score
        if behind <= 0:
            raise ValueError("in the final round the leader must be ahead of the player")
    plays: list[GamePlay] = []
    for split in score_table(table.rules).selections(counts_of(faces)):
        left = n - len(split.dice)
        t = points + split.points
        to_roll = left or 6
        bank: float | None
        if last_turn:
            opened = my_score > 0
            bank = table.final_bank_value(behind, t, opened=opened)
            roll = table.final_roll_value(behind, t, to_roll, opened=opened)
        else:
            bank = table.bank_value(my_score, opp_score, t)
            roll = table.roll_value(my_score, opp_score, t, to_roll)
        action: Action = "roll" if bank is None or _at_least(roll, bank) else "bank"
        best = roll if bank is None else max(bank, roll)
        plays.append(GamePlay(split, t, left, bank, roll, best, action))
    plays.sort(key=lambda p: (-p.best, -p.score, -p.dice_to_roll, p.keep))
    return GamePlays(
        roll=faces,
        points=points,
        my_score=my_score,
        opponent_score=opp_score,
        last_turn=last_turn,
        leader=(opp_score if leader is None else leader) if last_turn else None,
        plays=tuple(plays),
    )


# -- the strategy picture


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


# -- solo: the target in as few turns as possible


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
    _rolls: _Rolls = field(repr=False)
    _cache: dict[int, _Pass] = field(default_factory=dict, repr=False)

    def expected_turns(self, score: int) -> float:
        """E(s): expected turns to reach the target from ``score`` at the start of a turn."""
        if _level(score) * STEP >= self.target:
            return 0.0
        return float(self.turns[_level(score)])

    def bank_value(self, score: int, t: int) -> float | None:
        """Expected further turns after banking ``t`` now (None where banking is not a move)."""
        s, level = _level(score), _level(t)
        if level == 0 or (s == 0 and level * STEP < self.opening):
            return None
        return self.expected_turns((s + level) * STEP)

    def roll_value(self, score: int, t: int, n: int) -> float:
        """Expected further turns after rolling ``n`` dice with ``t`` at stake."""
        if not 1 <= n <= 6:
            raise ValueError(f"dice to roll must be 1 to 6, not {n}")
        s, level = _level(score), _level(t)
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
    rolls: _Rolls,
    turns: FloatArray,
    s: IntArray,
    opening: int,
    *,
    keep: bool = False,
    farkle: FloatArray | None = None,
    compiled: bool = False,
) -> _Pass:
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
    return _turns(rolls, bank, s, cut, x, keep=keep, compiled=compiled)


_SOLO: dict[tuple[Rules, int, int], SoloTable] = {}


def solve_solo(rules: Rules, target: int | None = None, opening: int | None = None) -> SoloTable:
    """The exact fewest-turns table for solo play (cached in memory and on disk).

    Each score needs only higher ones and itself (through a Farkle), so scores are solved
    from the top down, each by Newton steps on ``E = 1 + F(E)`` where ``F`` is the turn's
    value given the Farkle value: concave and piecewise linear with slope below one.
    """
    target, opening = _resolve(rules, target, opening, values="expected turns")
    key = (rules, target, opening)
    if key in _SOLO:
        return _SOLO[key]
    levels = target // STEP
    rolls = _rolls(rules)
    path = _cache_path("solo", rules, target, opening)
    turns = _load_values(path, (levels,))
    if turns is not None and ((turns < 1).any() or _solo_residual(rolls, turns, opening // STEP) > 1e-9):
        turns = None
    if turns is None:
        turns = _solve_solo(rules, levels, opening // STEP)
        _store(path, values=turns)
    table = SoloTable(rules=rules, target=target, opening=opening, turns=turns, _rolls=rolls)
    _SOLO[key] = table
    return table


def _solo_residual(rolls: _Rolls, turns: FloatArray, opening: int) -> float:
    s = np.arange(len(turns))
    start = _solo_turns(rolls, turns, s, opening).start
    return float(np.abs(1.0 - start - turns).max())


def _solve_solo(rules: Rules, levels: int, opening: int) -> FloatArray:
    rolls = _rolls(rules)
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
        for _ in range(_MAX_PASSES):
            if last is None:
                start = _solo_turns(
                    rolls, turns, col, opening, farkle=np.array([-y, -y - _DELTA]), compiled=True
                ).start
                f = 1.0 - start[0]  # E from this turn if a Farkle costs y
                slope = (start[0] - start[1]) / _DELTA
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
