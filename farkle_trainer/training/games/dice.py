"""Where a game's dice come from: a seed, a class code's stream, the day, or the operating system.

A :data:`DiceSource` gives a die's face from the roll number within the game (1, 2, 3, ...
counting every roll of every turn) and the die's place in that roll (1 to 6). Rolling ``n``
dice shows places 1 to ``n`` of the next roll number, so two players who make the same
choices see the same dice, a player who keeps fewer dice sees the first places of the same
next roll, and nobody can see a roll before it is thrown.

Seeded, class-code and daily dice are a pure function of those two numbers, so a game on them
can be played again. A rated game's dice are not: each is drawn from the operating system's
randomness when it is rolled (:func:`drawn_source`), so nothing kept anywhere predicts the next
roll, and the game keeps the rolls themselves; it is played again on those
(:func:`recorded_source`).

Daily dice
----------
Die ``place`` (1 to 6) of roll ``roll`` on ``date`` (the UTC date as YYYY-MM-DD) is:

1. the SHA-256 digest of the UTF-8 text ``"{date}:{roll}:{place}"``, e.g. ``"2026-11-29:1:1"``;
2. its 32 bytes read in order, every byte ``b >= 252`` skipped; the first byte kept gives the
   face ``b % 6 + 1`` (252 is 42 x 6, so each face comes from exactly 42 byte values: no bias);
3. if all 32 bytes are skipped, the same again with the digest of ``"{date}:{roll}:{place}:1"``,
   then ``":2"``, and so on.

>>> from datetime import date
>>> [daily_die(date(2026, 11, 29), 1, place) for place in range(1, 7)]
[4, 1, 4, 3, 1, 4]

Nothing else goes in: two players who make the same choices see the same rolls on any machine
and any Python version.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import date

from farkle_trainer.engine.seeded import Stream
from farkle_trainer.training.games.turn import GameError

#: A die's face from the roll number within the game (from 1) and its place in the roll (from 1).
DiceSource = Callable[[int, int], int]
#: Bytes from 252 up are skipped: 252 is the largest multiple of 6 that fits in a byte.
BYTE_LIMIT = 252


def seeded_source(stream: Stream) -> DiceSource:
    """Dice from a seeded stream: each (roll number, place) draws from its own child stream."""

    def die(roll_number: int, place: int) -> int:
        return stream.child(f"{roll_number}:{place}").randint(1, 6)

    return die


def drawn_source() -> DiceSource:
    """Dice drawn from the operating system's randomness as they are rolled: no seed, nothing
    to know a roll by before it is thrown."""

    def die(roll_number: int, place: int) -> int:
        return secrets.randbelow(6) + 1

    return die


def recorded_source(rolls: Mapping[int, Sequence[int]]) -> DiceSource:
    """The dice a game recorded, by roll number: the game is played again on exactly those.
    A die the record does not hold is a :class:`GameError`."""

    def die(roll_number: int, place: int) -> int:
        dice = rolls.get(roll_number)
        if dice is None:
            raise GameError(f"it does not record roll {roll_number}")
        if not 1 <= place <= len(dice):
            raise GameError(
                f"roll {roll_number} is recorded with {len(dice)} dice, fewer than the game rolls"
            )
        return dice[place - 1]

    return die


def digests(key: str) -> Iterator[bytes]:
    """SHA-256 of ``key``, then of ``key:1``, ``key:2``, ... (step 3 of the module docstring)."""
    yield hashlib.sha256(key.encode()).digest()
    n = 1
    while True:
        yield hashlib.sha256(f"{key}:{n}".encode()).digest()
        n += 1


def face_from(blocks: Iterable[bytes]) -> int:
    """The first byte below :data:`BYTE_LIMIT` in ``blocks``, as a face ``b % 6 + 1``."""
    for block in blocks:
        for b in block:
            if b < BYTE_LIMIT:
                return b % 6 + 1
    raise ValueError("the blocks ran out before a byte below 252")


def daily_die(day: date, roll: int, place: int) -> int:
    """The face of die ``place`` (from 1) in roll ``roll`` (from 1) of ``day``'s game."""
    if roll < 1 or not 1 <= place <= 6:
        raise ValueError(f"rolls count from 1 and places run 1 to 6, not roll {roll} place {place}")
    return face_from(digests(f"{day.isoformat()}:{roll}:{place}"))


def daily_source(day: date) -> DiceSource:
    """The dice of ``day``'s daily game."""

    def die(roll: int, place: int) -> int:
        return daily_die(day, roll, place)

    return die
