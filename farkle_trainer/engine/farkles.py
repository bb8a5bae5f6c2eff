"""Runs of Farkles: what a position holds beyond the scores under the three-Farkle penalty.

Kept apart from the game solver so that a position can name its runs without loading numpy.
"""

from __future__ import annotations

from dataclasses import dataclass

#: A Farkle this many turns in a row costs the penalty.
FARKLES_FOR_PENALTY = 3


@dataclass(frozen=True)
class Runs:
    """What a two-player position holds beyond the two scores, under the house rules: each
    player's Farkled turns in a row so far (0 to 2; they matter only under the three-Farkle
    penalty) and whether a player on 0 has opened (None: a player has opened when their
    score is above 0; one knocked back to 0 by the penalty has, which matters only with an
    opening minimum)."""

    my_farkles: int = 0
    opponent_farkles: int = 0
    my_opened: bool | None = None
    opponent_opened: bool | None = None

    def __post_init__(self) -> None:
        for farkles in (self.my_farkles, self.opponent_farkles):
            whole = isinstance(farkles, int) and not isinstance(farkles, bool)
            if not whole or not 0 <= farkles < FARKLES_FOR_PENALTY:
                raise ValueError(
                    f"Farkled turns in a row so far are 0 to {FARKLES_FOR_PENALTY - 1}, not {farkles!r}"
                )

    def swapped(self) -> Runs:
        """The same position seen by the opponent."""
        return Runs(self.opponent_farkles, self.my_farkles, self.opponent_opened, self.my_opened)


#: No Farkles in a row on either side, and a player on 0 has not opened.
NO_RUNS = Runs()
