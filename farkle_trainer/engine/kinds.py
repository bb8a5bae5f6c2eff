"""The kinds of decision a drill asks: a closed set, cheap to import (no solver behind it)."""

from __future__ import annotations

from enum import StrEnum


class Kind(StrEnum):
    """The kinds of decision a drill asks."""

    BANK_OR_ROLL = "bank-or-roll"
    KEEP = "keep"
    FINAL_ROUND = "final-round"
    OPENING = "opening"


KINDS: tuple[Kind, ...] = tuple(Kind)
