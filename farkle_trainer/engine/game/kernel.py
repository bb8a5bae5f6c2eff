"""The game solver's inner loop, compiled: many turns at once, one column per turn.

Imported only when a solve first needs it (:meth:`farkle_trainer.engine.tables.Tables.loop`),
so nothing else pays for numba. The machine code is kept where the caller's
:class:`~farkle_trainer.engine.keeper.TableKeeper` says (once for the user, whatever the data
directory: never next to this file, which may be read-only and is removed on uninstall). Kept
code that cannot be read back is dropped and compiled again; where nothing can be kept the
loop is compiled for the run; and where numba cannot compile at all, or is told to compile
nothing (``NUMBA_DISABLE_JIT``, which would run the loop as plain Python), the solves use numpy
(:func:`compiled_loop` is then None). Each of these says so in one line, told to the caller's
listener.

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
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from numpy.typing import NDArray

    from farkle_trainer.engine.keeper import TableKeeper

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
    # The most levels one selection adds: option rows are (points - 1) * 6 + (dice - 1).
    maxp = opt_rows.max() // 6 + 1
    after = np.empty((height * 6, _BLOCK))
    fz = np.empty((6, _BLOCK))
    row = np.empty((6, _BLOCK))
    # Unsigned indices in the hot loop: numba then skips the wraparound of negative ones,
    # which leaves a load and a vector maximum per option.
    o_start = opt_start.astype(np.uint64)
    o_rows = opt_rows.astype(np.uint64)
    z_start = nz_start.astype(np.uint64)
    z_dice = nz_dice.astype(np.uint64)
    one = np.uint64(1)
    for c0 in range(0, columns, _BLOCK):
        lo = a[c0]
        hi = cut[c0]
        for j in range(_BLOCK):
            lo = min(lo, a[c0 + j])
            hi = max(hi, cut[c0 + j])
        # Only positions from the lowest start up to the highest cut's reach are read, unless
        # every value is kept.
        first = 0 if keep else lo
        last = height if keep else min(height, hi + maxp + 1)
        for pos in range(first, last):
            for m in range(6):
                for j in range(_BLOCK):
                    after[pos * 6 + m, j] = bank[pos, c0 + j]
        for j in range(_BLOCK):
            for n in range(6):
                fz[n, j] = fz_chance[n] * farkle[c0 + j]
        for pos in range(hi, lo - 1, -1):
            base = np.uint64((pos + 1) * 6)
            for n in range(6):
                for j in range(_BLOCK):
                    row[n, j] = 0.0
            for s in range(np.uint64(nsets)):
                r = base + o_rows[o_start[s]]
                b0, b1, b2, b3 = after[r, 0], after[r, 1], after[r, 2], after[r, 3]
                b4, b5, b6, b7 = after[r, 4], after[r, 5], after[r, 6], after[r, 7]
                for o in range(o_start[s] + one, o_start[s + one]):
                    r = base + o_rows[o]
                    x0, x1, x2, x3 = after[r, 0], after[r, 1], after[r, 2], after[r, 3]
                    x4, x5, x6, x7 = after[r, 4], after[r, 5], after[r, 6], after[r, 7]
                    # Written as selects, so the eight lanes become one vector maximum.
                    b0 = x0 if x0 > b0 else b0
                    b1 = x1 if x1 > b1 else b1
                    b2 = x2 if x2 > b2 else b2
                    b3 = x3 if x3 > b3 else b3
                    b4 = x4 if x4 > b4 else b4
                    b5 = x5 if x5 > b5 else b5
                    b6 = x6 if x6 > b6 else b6
                    b7 = x7 if x7 > b7 else b7
                for z in range(z_start[s], z_start[s + one]):
                    n = z_dice[z]
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


Loop = Callable[..., None]


def _compile(cache_dir: str | None) -> Loop:
    """The loop, compiled now or loaded from ``cache_dir`` (kept there too when it is given)."""
    import numba

    # The eight lanes of a block are written out as scalars; LLVM's superword vectorizer (off in
    # numba by default) packs them into vector instructions, about twice as fast here.
    numba.config.SLP_VECTORIZE = 1  # type: ignore[attr-defined]
    if cache_dir is not None:
        # Read when the function is wrapped: the one place numba looks, so nothing is ever
        # written next to the installed code or in a cache of its own choosing.
        numba.config.CACHE_DIR = cache_dir  # type: ignore[attr-defined]
    loop: Loop = numba.njit(cache=cache_dir is not None, nogil=True, boundscheck=False)(_blocks)
    _warm_up(loop)
    return loop


def _warm_up(loop: Loop) -> None:
    """Call the loop once on a tiny problem with the types every solve passes, so it is compiled
    (or loaded) here, where a failure can be caught, and never in the solve's threads."""
    columns = np.zeros(_BLOCK, dtype=np.int64)
    empty = np.zeros((0, _BLOCK))
    tables = (
        np.array([0, 1], dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.array([0, 1], dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.ones(1),
    )
    bank = np.zeros((2, _BLOCK))
    loop(
        bank,
        columns,
        columns.copy(),
        np.zeros(_BLOCK),
        np.zeros(6),
        *tables,
        False,
        np.empty(_BLOCK),
        empty,
        empty.copy(),
    )


def _why(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


#: What is said when no compiled loop can be had: the solves still run, on numpy.
_WITHOUT = "solving with numpy, several times slower"


#: What is said when numba is told to compile nothing (it would run the loop as plain Python,
#: about ten times slower than numpy).
_TURNED_OFF = f"The game solver's compiler is turned off (NUMBA_DISABLE_JIT): {_WITHOUT}."


def compiled_loop(
    keeper: TableKeeper | None,
    tell: Callable[[str], None],
    compiling: Callable[[], AbstractContextManager[None]],
) -> Loop | None:
    """The compiled loop, ready to call, kept where ``keeper`` says (None: compiled for the run);
    None when the solves must use numpy. ``tell`` hears why in one line, and ``compiling()``
    holds while the compilation runs."""
    if keeper is not None and keeper.compiler_turned_off():  # told before numba loads, as the estimate knew
        tell(_TURNED_OFF)
        return None
    try:
        import numba
    except ImportError:
        return None
    except Exception as exc:  # a broken install fails in its own ways
        tell(f"The game solver's compiler cannot load ({_why(exc)}): {_WITHOUT}.")
        return None
    if numba.config.DISABLE_JIT:  # type: ignore[attr-defined]  # set in numba's own settings file
        tell(_TURNED_OFF)
        return None
    if keeper is not None and keeper.compiled_kept():
        return _kept_or_compiled(keeper, tell, compiling)
    # Seconds with nothing else to show: the solve's first step, for whoever watches it.
    with compiling():
        return _kept_or_compiled(keeper, tell, compiling)


def _kept_or_compiled(
    keeper: TableKeeper | None,
    tell: Callable[[str], None],
    compiling: Callable[[], AbstractContextManager[None]],
) -> Loop | None:
    """The loop read back from where the keeper says, or compiled and kept there."""
    if keeper is None:  # a program that keeps nothing: compiled for the run, as it asked
        return _compiled_each_run(tell, None)
    try:
        place = keeper.compiler_cache()
    except OSError as exc:
        return _compiled_each_run(tell, exc)
    try:
        return _compile(place)
    except Exception as exc:
        unread = exc
    # Kept code that cannot be read back (cut short, or not numba's) would fail every run.
    keeper.discard_compiled(place)
    try:
        with compiling():
            loop = _compile(place)
    except Exception as exc:
        return _compiled_each_run(tell, exc)
    tell(
        f"The game solver's compiled code kept in {place} could not be read ({_why(unread)}): compiled again."
    )
    return loop


def _compiled_each_run(tell: Callable[[str], None], unkept: Exception | None) -> Loop | None:
    """The loop compiled for this run only, saying why nothing could be kept (``unkept``)."""
    try:
        loop = _compile(None)
    except Exception as exc:
        tell(f"The game solver cannot be compiled ({_why(exc)}): {_WITHOUT}.")
        return None
    if unkept is not None:
        tell(f"The game solver's compiled code cannot be kept ({_why(unkept)}): compiled again each run.")
    return loop


@cache
def _pool() -> tuple[ThreadPoolExecutor, int]:
    threads = max(
        1, min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)
    )
    return ThreadPoolExecutor(threads, thread_name_prefix="farkle-turns"), threads


def turn_columns(
    loop: Loop,
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
    # Writable C arrays, the types the loop was compiled for (a table read back could be neither).
    same_types = tuple(np.require(t, requirements=["C", "W"]) for t in tables)
    groups = min(threads, nblocks) if not keep else 1
    blocks = order.reshape(nblocks, _BLOCK)
    # Interleaved blocks: each group gets starts (and so amounts of work) from the whole range.
    parts = [blocks[g::groups].reshape(-1) for g in range(groups)]

    def run(cols: IntArray) -> tuple[FloatArray, FloatArray, FloatArray]:
        n = len(cols)
        start = np.empty(n)
        shape = (height * 6, n) if keep else (0, n)
        after, rolled = np.empty(shape), np.zeros(shape)
        loop(
            np.ascontiguousarray(bank[:, cols]),
            np.ascontiguousarray(a[cols]),
            np.ascontiguousarray(cut[cols]),
            np.ascontiguousarray(farkle[cols]),
            fz_chance,
            *same_types,
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
