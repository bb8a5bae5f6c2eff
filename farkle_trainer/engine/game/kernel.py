"""The game solver's inner loop, compiled: many turns at once, one column per turn.

Imported only when a solve first values a turn (by :func:`farkle_trainer.engine.game.turns.turn_values`),
so nothing else pays for numba. numba caches the compiled loop on disk: next to this file
where that is writable, else in the user's cache directory (``NUMBA_CACHE_DIR`` wins).

Inside a column positions run down from the turn's cut to its start. With ``after[pos, m - 1]``
the value once dice are set aside at ``pos`` with ``m`` to roll next:

* every roll's option set is worth its best option ``after[pos + points, dice - 1]``;
* rolling ``n`` dice is worth the chance-weighted sum of those (sets in order), plus the
  Farkle chance times the Farkle value;
* ``after[pos, n - 1]`` is the better of that and banking at ``pos``; above the cut it is
  banking.

Columns go in blocks of ``_BLOCK`` (the machine's vector width, twice), with close starts
and cuts so little is computed outside a column's own range (those cells are never
stored); blocks are shared between threads (the loop holds no GIL).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import TYPE_CHECKING, Any

import numba
import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray

    FloatArray = NDArray[np.float64]
    IntArray = NDArray[np.int64]

_BLOCK = 8  # columns per block: the eight running maxima below are written out


def _blocks(
    bank: Any,  # (height, columns), columns a multiple of _BLOCK; -inf where banking is not allowed
    a: Any,  # (columns,) the turn's start
    cut: Any,  # (columns,) from here up banking is best
    farkle: Any,  # (columns,) the Farkle value
    fz_chance: Any,  # (6,) the chance of a Farkle with n dice
    opt_start: Any,  # (sets + 1,): set s's options are opt_rows[opt_start[s]:opt_start[s + 1]]
    opt_rows: Any,  # (options,) (points - 1) * 6 + (dice - 1)
    nz_start: Any,  # (sets + 1,): set s's chances are nz_*[nz_start[s]:nz_start[s + 1]]
    nz_dice: Any,  # n - 1
    nz_prob: Any,  # the chance that n dice show the set
    keep: bool,
    start: Any,  # out (columns,): the value of rolling six dice at the start
    after_out: Any,  # out (height * 6, columns) if keep
    rolled_out: Any,  # out (height * 6, columns) if keep
) -> None:
    height, columns = bank.shape
    nsets = len(opt_start) - 1
    after = np.empty((height * 6, _BLOCK))
    fz = np.empty((6, _BLOCK))
    row = np.empty((6, _BLOCK))
    for c0 in range(0, columns, _BLOCK):
        lo = a[c0]
        hi = cut[c0]
        for j in range(_BLOCK):
            lo = min(lo, a[c0 + j])
            hi = max(hi, cut[c0 + j])
            for n in range(6):
                fz[n, j] = fz_chance[n] * farkle[c0 + j]
            for pos in range(height):
                for m in range(6):
                    after[pos * 6 + m, j] = bank[pos, c0 + j]
        for pos in range(hi, lo - 1, -1):
            base = (pos + 1) * 6
            for n in range(6):
                for j in range(_BLOCK):
                    row[n, j] = 0.0
            for s in range(nsets):
                r = base + opt_rows[opt_start[s]]
                b0, b1, b2, b3 = after[r, 0], after[r, 1], after[r, 2], after[r, 3]
                b4, b5, b6, b7 = after[r, 4], after[r, 5], after[r, 6], after[r, 7]
                for o in range(opt_start[s] + 1, opt_start[s + 1]):
                    r = base + opt_rows[o]
                    b0, b1, b2, b3 = (
                        max(b0, after[r, 0]),
                        max(b1, after[r, 1]),
                        max(b2, after[r, 2]),
                        max(b3, after[r, 3]),
                    )
                    b4, b5, b6, b7 = (
                        max(b4, after[r, 4]),
                        max(b5, after[r, 5]),
                        max(b6, after[r, 6]),
                        max(b7, after[r, 7]),
                    )
                for z in range(nz_start[s], nz_start[s + 1]):
                    n = nz_dice[z]
                    p = nz_prob[z]
                    row[n, 0] += p * b0
                    row[n, 1] += p * b1
                    row[n, 2] += p * b2
                    row[n, 3] += p * b3
                    row[n, 4] += p * b4
                    row[n, 5] += p * b5
                    row[n, 6] += p * b6
                    row[n, 7] += p * b7
            for j in range(_BLOCK):
                if a[c0 + j] <= pos <= cut[c0 + j]:
                    here = bank[pos, c0 + j]
                    for n in range(6):
                        v = row[n, j] + fz[n, j]
                        after[pos * 6 + n, j] = max(v, here)
                        if keep:
                            rolled_out[pos * 6 + n, c0 + j] = v
                    if pos == a[c0 + j]:
                        start[c0 + j] = row[5, j] + fz[5, j]
        if keep:
            for k in range(height * 6):
                for j in range(_BLOCK):
                    after_out[k, c0 + j] = after[k, j]


# Compiled on first use, then loaded from numba's cache (Any: the dispatcher's own types
# do not know the signature).
_compiled: Any = numba.njit(cache=True, nogil=True, boundscheck=False)(_blocks)


@cache
def _pool() -> tuple[ThreadPoolExecutor, int]:
    threads = max(
        1, min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)
    )
    return ThreadPoolExecutor(threads, thread_name_prefix="farkle-turns"), threads


def turn_columns(
    bank: FloatArray,
    a: IntArray,
    cut: IntArray,
    farkle: FloatArray,
    fz_chance: FloatArray,
    tables: tuple[NDArray[Any], ...],
    *,
    keep: bool,
) -> tuple[FloatArray, FloatArray | None, FloatArray | None]:
    """``(start, after, rolled)`` for every column of ``bank`` (``after``, ``rolled``: only if ``keep``).

    ``after`` and ``rolled`` are ``(height, 6, columns)``: bank values (and zeros) outside
    each column's range from start to cut.
    """
    height, width = bank.shape
    order = np.lexsort((cut, a))
    nblocks = -(-width // _BLOCK)
    order = np.concatenate([order, np.repeat(order[-1:], nblocks * _BLOCK - width)])
    pool, threads = _pool()
    groups = min(threads, nblocks) if not keep else 1
    blocks = order.reshape(nblocks, _BLOCK)
    # Interleaved blocks: each group gets starts (and so amounts of work) from the whole range.
    parts = [blocks[g::groups].reshape(-1) for g in range(groups)]

    def run(cols: IntArray) -> tuple[FloatArray, FloatArray, FloatArray]:
        n = len(cols)
        start = np.empty(n)
        shape = (height * 6, n) if keep else (0, n)
        after, rolled = np.empty(shape), np.zeros(shape)
        _compiled(
            np.ascontiguousarray(bank[:, cols]),
            np.ascontiguousarray(a[cols]),
            np.ascontiguousarray(cut[cols]),
            np.ascontiguousarray(farkle[cols]),
            fz_chance,
            *tables,
            keep,
            start,
            after,
            rolled,
        )
        return start, after, rolled

    results = [run(parts[0])] if groups == 1 else list(pool.map(run, parts))
    start = np.empty(width)
    for cols, (s, _, _) in zip(parts, results, strict=True):
        start[cols] = s  # padding repeats a column: the same value lands twice
    if not keep:
        return start, None, None
    cols, (_, after, rolled) = parts[0], results[0]
    back = np.empty(width, dtype=np.int64)
    back[cols] = np.arange(len(cols))
    shape = (height, 6, width)
    return start, after[:, back].reshape(shape), rolled[:, back].reshape(shape)
