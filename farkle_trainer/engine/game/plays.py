"""Every play of a roll in a game position, valued by the chance of winning."""

from __future__ import annotations

from dataclasses import dataclass

from farkle_trainer.engine.dice import Counts, counts_of, size
from farkle_trainer.engine.game.settings import in_levels
from farkle_trainer.engine.game.table import GameTable, at_least
from farkle_trainer.engine.plays import Action, Ranking, Selection
from farkle_trainer.engine.scoring import score_table


@dataclass(frozen=True)
class GamePlay(Selection):
    """One distinct scoring selection of a roll, valued by the chance of winning.

    ``bank`` is None where banking is not allowed.
    """

    bank: float | None
    roll: float
    best: float
    action: Action

    @property
    def worth(self) -> float:
        return self.best


@dataclass(frozen=True)
class GamePlays(Ranking[GamePlay]):
    """All plays of a roll in a game position, best chance of winning first."""

    roll: tuple[int, ...]
    points: int
    my_score: int
    opponent_score: int
    last_turn: bool
    leader: int | None
    plays: tuple[GamePlay, ...]

    @property
    def in_chances(self) -> bool:
        return True


def game_plays(
    roll_counts: Counts,
    points: int,
    my_score: int,
    opp_score: int,
    table: GameTable,
    last_turn: bool = False,
    leader: int | None = None,
) -> GamePlays:
    """Value every distinct scoring selection of a roll by the chance of winning.

    ``roll_counts`` is the roll as counts of 1s..6s (see :func:`~farkle_trainer.dice.counts_of`);
    ``points`` were at stake before it. In the final round (``last_turn``) the player must
    pass ``leader`` (default ``opp_score``), and only that counts.
    """
    counts = roll_counts
    n = size(counts)
    if len(counts) != 6 or not 1 <= n <= 6:
        raise ValueError(f"a roll is counts of six faces with 1 to 6 dice, not {counts!r}")
    in_levels(points)
    faces = tuple(face for face in range(1, 7) for _ in range(counts[face - 1]))
    behind = 0
    if last_turn:
        lead_score = opp_score if leader is None else leader
        behind = lead_score - my_score
        if behind <= 0:
            raise ValueError("in the final round the leader must be ahead of the player")
    plays: list[GamePlay] = []
    for split in score_table(table.rules).selections(counts_of(faces)):
        left = n - len(split.dice)
        t = points + split.points
        to_roll = left or 6
        bank: float | None
        if last_turn:
            opened = my_score > 0
            bank = table.final_bank_value(behind, t, opened=opened)
            roll = table.final_roll_value(behind, t, to_roll, opened=opened)
        else:
            bank = table.bank_value(my_score, opp_score, t)
            roll = table.roll_value(my_score, opp_score, t, to_roll)
        action: Action = "roll" if bank is None or at_least(roll, bank) else "bank"
        best = roll if bank is None else max(bank, roll)
        plays.append(GamePlay(split, t, left, bank, roll, best, action))
    plays.sort(key=lambda p: (-p.best, -p.score, -p.dice_to_roll, p.keep))
    return GamePlays(
        roll=faces,
        points=points,
        my_score=my_score,
        opponent_score=opp_score,
        last_turn=last_turn,
        leader=(opp_score if leader is None else leader) if last_turn else None,
        plays=tuple(plays),
    )
