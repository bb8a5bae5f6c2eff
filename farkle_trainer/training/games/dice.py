"""Where a game's dice come from: a seed, a class code's stream, the day, or the operating system.

A game's :data:`Dice` is one of four values, each checked as it is made: :class:`Seeded`
(a seed the program drew, or one the player chose), :class:`ClassCode` (a class code's stream,
the same for the whole class), :class:`Day` (the day's daily dice) and :class:`Drawn` (each
roll drawn from the operating system as it is thrown: a rated game). Each gives its
:data:`DiceSource` (:meth:`Seeded.source`), says whether its dice can be known before they are
rolled, and what a game played again is dealt (:meth:`Seeded.again`).

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
from dataclasses import dataclass
from datetime import date
from typing import Any, ClassVar, Literal, TypeAlias

from farkle_trainer.engine.seeded import MAX_SEED, Stream
from farkle_trainer.training.classroom.codes import code_stream, normalize_code
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


# -- where a game's dice come from

#: A seed the program draws is eight hexadecimal digits, a chosen one a number up to MAX_SEED:
#: a seed longer than this is none of them.
MAX_SEED_TEXT = 64
#: The stream of a class code that a game's dice come from: a game of ``play --code``, or
#: a class challenge.
CodeActivity = Literal["play", "challenge"]
CODE_ACTIVITIES: tuple[CodeActivity, ...] = ("play", "challenge")


def new_seed() -> str:
    """A seed drawn by the program: eight hexadecimal digits."""
    return secrets.token_hex(4)


@dataclass(frozen=True)
class Seeded:
    """Dice from a seed: one the program drew (``chosen`` False), or one the player chose, which
    makes the dice known in advance to whoever knows the seed."""

    seed: str
    chosen: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.seed, str) or len(self.seed) > MAX_SEED_TEXT:
            raise GameError(f"the seed must be text of at most {MAX_SEED_TEXT} characters")
        # Bounded as --seed is: a chosen seed is a whole number up to MAX_SEED.
        if self.chosen and not (self.seed.isascii() and self.seed.isdigit() and int(self.seed) <= MAX_SEED):
            raise GameError(f"a chosen seed is a whole number from 0 to {MAX_SEED:,}")

    @property
    def known_in_advance(self) -> bool:
        return self.chosen

    def source(self) -> DiceSource:
        return seeded_source(Stream(f"match:{self.seed}"))

    def again(self) -> Seeded:
        """A chosen seed deals the same dice again; one the program drew, a new one."""
        return self if self.chosen else Seeded(new_seed())

    def fields(self) -> dict[str, Any]:
        return {"seed": self.seed, "chosen_seed": self.chosen}


@dataclass(frozen=True)
class ClassCode:
    """Dice from a class code's stream (``activity``: a game of ``play --code``, or the class
    challenge): the same for everyone who types the code."""

    code: str
    activity: CodeActivity = "play"
    known_in_advance: ClassVar[bool] = True

    def __post_init__(self) -> None:
        if normalize_code(self.code) != self.code:
            raise GameError(f"the class code must be written as {normalize_code(self.code)}")
        if self.activity not in CODE_ACTIVITIES:
            raise GameError(f"a class code's dice are for play or a challenge, not {self.activity!r}")

    @property
    def challenge(self) -> bool:
        return self.activity == "challenge"

    def source(self) -> DiceSource:
        return seeded_source(code_stream(self.code, self.activity))

    def again(self) -> ClassCode:
        return self

    def fields(self) -> dict[str, Any]:
        # Only a challenge's activity is written, so a game of play --code is saved as before.
        return {"code": self.code, **({"activity": self.activity} if self.challenge else {})}


@dataclass(frozen=True)
class Day:
    """The daily dice of ``day`` (UTC), the same for everyone (see the module)."""

    day: date
    known_in_advance: ClassVar[bool] = True

    def __post_init__(self) -> None:
        if not isinstance(self.day, date):
            raise GameError("the day must be a date, as YYYY-MM-DD")

    def source(self) -> DiceSource:
        return daily_source(self.day)

    def again(self) -> Day:
        return self

    def fields(self) -> dict[str, Any]:
        return {"day": self.day.isoformat()}


@dataclass(frozen=True)
class Drawn:
    """Each roll drawn from the operating system's randomness as it is thrown (a rated game):
    no seed, nothing kept anywhere that tells a roll before it comes. The game keeps its rolls,
    and is played again on those (:func:`recorded_source`)."""

    known_in_advance: ClassVar[bool] = False

    def source(self) -> DiceSource:
        return drawn_source()

    def again(self) -> Drawn:
        return self

    def fields(self) -> dict[str, Any]:
        return {"drawn": True}


#: The empty seed: the dice of a game set up without naming any.
NO_SEED = Seeded("")

#: Where a game's dice come from.
Dice: TypeAlias = Seeded | ClassCode | Day | Drawn
DICE_KINDS = (Seeded, ClassCode, Day, Drawn)


def chosen_dice(seed: int | None = None, code: str | None = None) -> Dice:
    """A new game's dice: a class code's (as the class typed it), a chosen seed's, or else a
    seed drawn now."""
    if seed is not None and code is not None:
        raise GameError("a game's dice come from one place: a seed or a class code")
    if code is not None:
        if not isinstance(code, str):
            raise GameError(f"a class code is text, like 'MATH7B', not {code!r}")
        return ClassCode(normalize_code(code))
    return Seeded(new_seed()) if seed is None else Seeded(str(seed), chosen=True)


def dice_data(dice: Dice) -> dict[str, Any]:
    """``dice`` as a saved setup holds them: always a seed, a class code and whether the seed was
    chosen (empty, empty and false where they do not apply), then a challenge's activity, a day,
    or that the dice are drawn, each only where it is so: the layout every version has read."""
    return {"seed": "", "code": "", "chosen_seed": False, **dice.fields()}


def dice_from_data(data: Mapping[str, Any]) -> Dice:
    """The dice a saved setup names (see :func:`dice_data`), one place only; :class:`GameError`
    for a part of the wrong kind, or dice from two places at once."""
    seed, code = data.get("seed"), data.get("code", "")  # games saved before class codes have none
    # Games saved before chosen seeds were told apart were drawn by the program; those before
    # rated games drew their dice have a seed.
    chosen, drawn = data.get("chosen_seed", False), data.get("drawn", False)
    activity, day = data.get("activity", "play"), data.get("day")
    if not isinstance(seed, str):
        raise GameError(f"the seed must be text of at most {MAX_SEED_TEXT} characters")
    if not isinstance(code, str):
        raise GameError("the class code must be text")
    for name, flag in (("chosen_seed", chosen), ("drawn", drawn)):
        if not isinstance(flag, bool):
            raise GameError(f"{name} must be true or false")
    if day is not None and not isinstance(day, str):
        raise GameError("the day must be a date, as YYYY-MM-DD")
    if drawn:
        if seed or code or day is not None or chosen:
            raise GameError("a game whose dice are drawn as they are rolled has no seed, class code or day")
        return Drawn()
    if sum(map(bool, (seed or chosen, code, day is not None))) > 1:
        raise GameError("a game's dice come from one place: a seed, a class code or a day")
    if activity != "play" and not code:
        raise GameError("only a class code's dice are for a challenge")
    if day is not None:
        return Day(date.fromisoformat(day))
    if code:
        return ClassCode(code, activity)
    return Seeded(seed, chosen)
