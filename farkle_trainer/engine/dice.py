"""Dice as multisets: parsing what people type, and every fair roll with its chance.

Order never matters in Farkle scoring, so dice are handled as a ``Counts`` tuple:
how many 1s, 2s, ..., 6s.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from fractions import Fraction
from functools import cache
from math import factorial

from farkle_trainer.engine.errors import InputError

Counts = tuple[int, int, int, int, int, int]
FACES = (1, 2, 3, 4, 5, 6)
MAX_DICE = 6


class DiceError(InputError):
    """Dice that are not Farkle dice: a face outside 1..6, or more than six of them."""


def counts_of(dice: Iterable[int]) -> Counts:
    """The multiset of ``dice`` as counts per face; raises :class:`DiceError` on a bad face."""
    if isinstance(dice, str | bytes) or not isinstance(dice, Iterable):
        raise DiceError(f"{dice!r} are not dice: give faces 1 to 6, like [1, 5, 5]")
    counts = [0] * 6
    for die in dice:
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
            raise DiceError(f"{die!r} is not a die face: faces are 1 to 6")
        counts[die - 1] += 1
    return (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5])


def faces_of(counts: Counts) -> tuple[int, ...]:
    """The dice of a multiset as faces in ascending order."""
    return tuple(face for face, n in zip(FACES, counts, strict=True) for _ in range(n))


def size(counts: Counts) -> int:
    return sum(counts)


def is_subset(part: Counts, whole: Counts) -> bool:
    return all(a <= b for a, b in zip(part, whole, strict=True))


def minus(whole: Counts, part: Counts) -> Counts:
    a = [w - p for w, p in zip(whole, part, strict=True)]
    return (a[0], a[1], a[2], a[3], a[4], a[5])


def format_dice(dice: Iterable[int], sep: str = "-") -> str:
    """``[1, 5, 5]`` -> ``"1-5-5"``."""
    return sep.join(str(d) for d in dice)


_TOKEN = re.compile(r"[\s,;/\-]+")


def parse_dice(words: str | Iterable[str], *, max_dice: int = MAX_DICE) -> tuple[int, ...]:
    """Read dice the way people type them: ``"1 5 5"``, ``"1,5,5"``, ``"1-5-5"`` or ``"155"``.

    Raises :class:`DiceError` with a message fit to show the user.
    """
    text = words if isinstance(words, str) else " ".join(words)
    faces: list[int] = []
    for token in _TOKEN.split(text.strip()):
        if not token:
            continue
        if not token.isdigit():
            raise DiceError(f"{token!r} is not a die: type faces 1 to 6, like 1 5 5")
        for ch in token:
            if ch not in "123456":
                raise DiceError(f"{ch} is not a die face: faces are 1 to 6")
            faces.append(int(ch))
    if not faces:
        raise DiceError("no dice given: type faces 1 to 6, like 1 5 5")
    if len(faces) > max_dice:
        raise DiceError(f"{len(faces)} dice given: Farkle uses at most {max_dice}")
    return tuple(faces)


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    if parts == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


@cache
def multisets(n: int) -> tuple[Counts, ...]:
    """Every multiset of exactly ``n`` dice (C(n+5, 5) of them)."""
    return tuple(c for c in _compositions(n, 6))  # type: ignore[misc]


@cache
def sub_multisets(counts: Counts) -> tuple[Counts, ...]:
    """Every non-empty sub-multiset of ``counts``, each once."""
    out: list[Counts] = [()]  # type: ignore[list-item]
    for n in counts:
        out = [(*prefix, k) for prefix in out for k in range(n + 1)]  # type: ignore[misc]
    return tuple(c for c in out if any(c))


@cache
def roll_chance(counts: Counts) -> Fraction:
    """The exact chance that rolling ``size(counts)`` fair dice shows this multiset."""
    n = size(counts)
    ways = factorial(n)
    for k in counts:
        ways //= factorial(k)
    return Fraction(ways, 6**n)
