"""Reproducible randomness: the same seed gives the same choices on any machine.

Python's ``random`` only promises a stable ``random()`` sequence across versions;
``randrange``, ``choice`` and ``shuffle`` have changed before. Quizzes, drills,
class codes and daily dice must never change under a player, so they draw from
:class:`Stream`, which is SHA-256 over ``"<seed>:<counter>"`` with unbiased
rejection sampling, and nothing else.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

#: The largest seed: a session's seed is kept in the store, and SQLite integers stop here.
MAX_SEED = 2**63 - 1

T = TypeVar("T")


class Stream:
    """A deterministic stream of random draws named by a text seed."""

    def __init__(self, seed: str | int):
        self.seed = str(seed)
        self._counter = 0
        self._pool = b""

    def _take(self, n: int) -> bytes:
        while len(self._pool) < n:
            block = hashlib.sha256(f"{self.seed}:{self._counter}".encode()).digest()
            self._pool += block
            self._counter += 1
        out, self._pool = self._pool[:n], self._pool[n:]
        return out

    def below(self, n: int) -> int:
        """A whole number in ``[0, n)``, every value equally likely."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - (1 << 64) % n  # reject the uneven tail
        while True:
            x = int.from_bytes(self._take(8), "big")
            if x < limit:
                return x % n

    def randint(self, low: int, high: int) -> int:
        """A whole number from ``low`` to ``high`` inclusive."""
        return low + self.below(high - low + 1)

    def random(self) -> float:
        """A float in ``[0, 1)`` with 53 random bits."""
        return self.below(1 << 53) / (1 << 53)

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise ValueError("choice() from an empty sequence")
        return items[self.below(len(items))]

    def weighted(self, items: Sequence[T], weights: Sequence[float]) -> T:
        """One item, chosen with chance proportional to its weight."""
        total = float(sum(weights))
        if not items or len(items) != len(weights) or total <= 0:
            raise ValueError("weighted() needs items and positive weights of the same length")
        x = self.random() * total
        for item, w in zip(items, weights, strict=True):
            x -= w
            if x < 0:
                return item
        return items[-1]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def dice(self, n: int) -> tuple[int, ...]:
        """``n`` fair dice."""
        return tuple(self.randint(1, 6) for _ in range(n))

    def child(self, name: str | int) -> Stream:
        """An independent stream derived from this one's seed and ``name``."""
        return Stream(f"{self.seed}/{name}")
