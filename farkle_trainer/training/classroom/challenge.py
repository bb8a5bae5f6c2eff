"""A class challenge: the ten-turn game on the dice of a class code, with no hints."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from farkle_trainer.store.rows import Mistake
    from farkle_trainer.training.frontend import Frontend
    from farkle_trainer.training.games.analysis import Review
    from farkle_trainer.training.games.match import MatchState, Move
    from farkle_trainer.training.games.play import GameView


@dataclass(frozen=True)
class ChallengeOutcome:
    """How a challenge ended: the game so far, perfect play on its dice (once over), the exit code."""

    state: MatchState
    finished: bool
    perfect_score: int | None
    reviews: tuple[Review, ...]
    exit_code: int


CHALLENGE_RULES = "classic"
#: What a player who asks for a hint in a class challenge is told.
CHALLENGE_NO_HINTS = "no hints in a class challenge: everyone plays on their own"


def play_challenge(
    front: Frontend,
    view: GameView,
    code: str,
    *,
    decided: Callable[[Review, int, Mistake | None], None],
) -> ChallengeOutcome:
    """Play the ten-turn game on the code's dice, to the end or until the player stops.

    ``decided`` hears each decision once made (its review), the points banked so far, and the
    personal position it becomes if it was a mistake. Hints are off: a class challenge compares
    players on the same dice.
    """
    from farkle_trainer.training.frontend import INTERRUPTED, EndOfInput
    from farkle_trainer.training.games.analysis import review, review_move
    from farkle_trainer.training.games.match import new_match
    from farkle_trainer.training.games.play import play_game
    from farkle_trainer.training.games.setup import for_challenge
    from farkle_trainer.training.games.tenturns import perfect_play
    from farkle_trainer.training.mistakes import game_mistake

    setup = for_challenge(code)
    source = setup.source()
    state = new_match(setup)

    def save(s: MatchState) -> None:
        nonlocal state
        state = s

    def on_decision(move: Move) -> None:
        r = review_move(setup, move)
        decided(r, state.banked, game_mistake(setup, r))

    try:
        play_game(
            front,
            view,
            state,
            source,
            hints=False,
            no_hints=CHALLENGE_NO_HINTS,
            save=save,
            decided=on_decision,
        )
    except (KeyboardInterrupt, EndOfInput) as stop:
        exit_code = INTERRUPTED if isinstance(stop, KeyboardInterrupt) else 0
        return ChallengeOutcome(state, False, None, (), exit_code)
    return ChallengeOutcome(state, True, perfect_play(source), review(state), 0)
