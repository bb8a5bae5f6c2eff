"""Every roll as the set of options it offers, rolls with equal sets merged.

For winning a game more points are not always better (reaching the target early gives the
opponent a known score to beat), so every distinct selection of a roll is an option: the
turn solver's "best score per number of dice kept" shortcut does not hold here. Rolls whose
sets of options are identical are merged exactly, their chances added.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from farkle_trainer.engine.dice import multisets, roll_chance
from farkle_trainer.engine.game.settings import FORMAT, GameSolverError
from farkle_trainer.engine.keeper import TableKey
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.solver import STEP, scoring_options

if TYPE_CHECKING:
    from numpy.typing import NDArray

    FloatArray = NDArray[np.float64]
    IntArray = NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class Rolls:
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

    def arrays(self) -> dict[str, NDArray[Any]]:
        """The arrays that make these rolls, by the names :func:`rolls_from` reads."""
        names = ("starts", "rows", "chance_starts", "chance_dice", "chances")
        return {
            "points": self.points,
            "dice": self.dice,
            "slots": np.array(self.slots, dtype=np.int64),
            "prob": self.prob,
            "farkle": self.farkle,
            "best_points": self.best_points,
            **dict(zip(names, self.tables, strict=True)),
        }


ROLL_ARRAYS = (
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


def rolls_key(rules: Rules) -> TableKey:
    """What the merged rolls of ``rules`` are kept under: the scoring table alone."""
    return TableKey("rolls", FORMAT, (rules.scoring_key,))


def same_rolls(a: Rolls | None, b: Rolls) -> bool:
    """Whether two merged rolls are the same, array for array."""
    if a is None:
        return False
    mine, theirs = a.arrays(), b.arrays()
    return all(np.array_equal(mine[name], theirs[name]) for name in ROLL_ARRAYS)


def rolls_from(arrays: dict[str, np.ndarray]) -> Rolls | None:
    """Rolls from kept arrays, or None unless every array fits the others.

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
    return Rolls(
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


def merge_rolls(rules: Rules) -> Rolls:
    selections = scoring_options(rules)
    merged: dict[frozenset[tuple[int, int]], FloatArray] = {}
    farkle = np.zeros(6)
    for n in range(1, 7):
        for roll in multisets(n):
            chance = float(roll_chance(roll))
            found = selections[roll]
            if not found:
                farkle[n - 1] += chance
                continue
            options = frozenset((points // STEP, (n - kept) or 6) for points, kept in found)
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
    return Rolls(
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
