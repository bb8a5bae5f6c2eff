"""The ten-turn game on dice everyone shares: what the daily game and class challenges add to it.

Both are the ten-turn solo game on the classic table with no house rules
(:data:`~farkle_trainer.training.games.setup.TEN_TURNS`), the daily game on the day's dice and
a challenge on its class code's. Each decision is graded in expected points
(:func:`~farkle_trainer.training.games.analysis.review`), so a play gets the same grade and the
same right or wrong there as the keep drill of its roll and turn points in ``decide``; then
:func:`account` splits the score into what perfect play is expected to score, the points the
player's decisions gave up and the luck of the dice. :func:`perfect_play` is the solver's own
game on the same dice: one sample, not a ceiling, because its dice differ from the player's
after its first different choice (it is kept in the store for old rows and files).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from farkle_trainer.training.games.dice import DiceSource
from farkle_trainer.training.games.match import MatchState, new_match, play, roll
from farkle_trainer.training.games.setup import SOLO_TURNS, TEN_TURNS

if TYPE_CHECKING:
    from farkle_trainer.engine.ranked import Option
    from farkle_trainer.engine.tables import Tables
    from farkle_trainer.training.games.analysis import Review


def best_play(tables: Tables, state: MatchState) -> Option:
    """The solver's play for the dice showing: the most expected final turn score (its best
    set-aside, then its own action)."""
    from farkle_trainer.engine.ranked import ranked_plays
    from farkle_trainer.engine.situations import TurnPoints

    play = ranked_plays(tables, TurnPoints(state.rules, state.points), state.roll).table_play
    assert play is not None
    return play


def perfect_game(tables: Tables, source: DiceSource) -> MatchState:
    """The game the exact solver's max-expected-score policy plays on ``source``.

    It keeps its own roll numbering, so it sees different rolls wherever it plays differently.
    """
    state = new_match(TEN_TURNS)
    while not state.over:
        if state.phase == "roll":
            state = roll(state, source)
            continue
        best = best_play(tables, state)
        state = play(state, source, best.keep, best.action)
    return state


def perfect_play(tables: Tables, source: DiceSource) -> int:
    """The score :func:`perfect_game` reaches on ``source``."""
    return perfect_game(tables, source).banked


@dataclass(frozen=True)
class Account:
    """A finished game's score, split exactly into play and dice.

    ``perfect_expected``: what perfect play is expected to score over the game, ten times
    the exact expected score of a turn from six dice and no points. ``given_up``: the
    expected points the player's decisions gave up, the sum of their exact losses. Then
    ``expected = perfect_expected - given_up`` is what the player's decisions were expected
    to score, and ``luck = score - expected`` is what the dice gave beyond that: every roll
    moves the expected final score of the turn by its luck, every decision lowers it by its
    loss, so the score is exactly ``perfect_expected - given_up + luck``, and luck averages 0.
    """

    score: int
    given_up: float
    perfect_expected: float

    @property
    def expected(self) -> float:
        return self.perfect_expected - self.given_up

    @property
    def luck(self) -> float:
        return self.score - self.expected


def expected_turn(tables: Tables) -> float:
    """The exact expected score of a turn under perfect play on the game's table."""
    from farkle_trainer.engine.solver import Objective

    return tables.turn(TEN_TURNS.rules, Objective.expected()).expected_turn_score


def account(tables: Tables, state: MatchState, reviews: Iterable[Review]) -> Account:
    """Split the score of ``state`` (a game played to its end) into play and dice."""
    given_up = sum(r.lost for r in reviews)
    return Account(state.banked, given_up, SOLO_TURNS * expected_turn(tables))


def turn_summaries(state: MatchState) -> list[dict[str, Any]]:
    """Each finished turn's number, points banked (0 after a Farkle), mark and rolls."""
    return [
        {
            "turn": turn,
            "score": scored,
            "mark": mark,
            "rolls": sum(1 for m in state.log if m.turn == turn),
        }
        for turn, (scored, mark) in enumerate(zip(state.turn_scores, state.marks, strict=True), 1)
    ]
