"""The kinds of decision a drill asks: a closed set, cheap to import (no solver behind it)."""

from __future__ import annotations

from enum import StrEnum


class Kind(StrEnum):
    """The kinds of decision a drill asks."""

    BANK_OR_ROLL = "bank-or-roll"
    KEEP = "keep"
    FINAL_ROUND = "final-round"
    OPENING = "opening"
    GAME = "game"
    SOLO = "solo"


KINDS: tuple[Kind, ...] = tuple(Kind)

#: The kinds played inside one turn, the mix a drill session asks when no kind is named.
#: Game and solo drills are asked by name: their first solve for a target takes a while,
#: and seeds and class codes made before they existed keep drawing the same drills.
TURN_KINDS: tuple[Kind, ...] = (Kind.BANK_OR_ROLL, Kind.KEEP, Kind.FINAL_ROUND, Kind.OPENING)

#: The kinds whose positions hold both scores of a game (or a solo score) and its target.
SCORE_KINDS: tuple[Kind, ...] = (Kind.GAME, Kind.SOLO)
