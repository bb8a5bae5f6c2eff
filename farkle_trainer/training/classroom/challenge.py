"""A class challenge: the ten-turn game on the dice of a class code, with no hints.

It is kept with the saved games as it goes (``farkle-train games``), to be looked at again with
``farkle-train review`` once it is over or stopped; it is never carried on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from farkle_trainer.engine.tables import Tables
    from farkle_trainer.store.db import Store
    from farkle_trainer.store.rows import GameRow, Mistake
    from farkle_trainer.training.frontend import Frontend
    from farkle_trainer.training.games.analysis import Review
    from farkle_trainer.training.games.match import MatchState, Move
    from farkle_trainer.training.games.play import GameView


@dataclass(frozen=True)
class ChallengeOutcome:
    """How a challenge ended: the game so far, the solver's own game on its dice (once over), the
    exit code."""

    state: MatchState
    finished: bool
    solver_game_score: int | None
    reviews: tuple[Review, ...]
    exit_code: int
    #: The saved game it is kept as.
    game: int


CHALLENGE_RULES = "classic"
#: What a player who asks for a hint in a class challenge is told.
CHALLENGE_NO_HINTS = "no hints in a class challenge: everyone plays on their own"


def start_challenge(store: Store, code: str, *, session: int) -> GameRow:
    """The challenge of ``code`` kept with the saved games before its first roll, its decisions
    answers of the challenge's ``session``."""
    from farkle_trainer.store.games import CHALLENGE_GAME
    from farkle_trainer.training.games.match import new_match
    from farkle_trainer.training.games.setup import for_challenge

    state = new_match(for_challenge(code))
    return store.add_game(
        state.to_dict(),
        kind=CHALLENGE_GAME,
        level=None,
        rated=False,
        rules=CHALLENGE_RULES,
        session_id=session,
    )


def play_challenge(
    tables: Tables,
    front: Frontend,
    view: GameView,
    store: Store,
    row: GameRow,
    *,
    decided: Callable[[Review, int, Mistake | None], None],
) -> ChallengeOutcome:
    """Play the challenge kept as ``row`` (see :func:`start_challenge`), to the end or until the
    player stops; either way the saved game is closed as it stands.

    ``decided`` hears each decision once made (its review), the points banked so far, and the
    personal position it becomes if it was a mistake, in the same transaction as the state that
    follows it. Hints are off: a class challenge compares
    players on the same dice.
    """
    from farkle_trainer.store.errors import StaleAttemptError
    from farkle_trainer.store.games import STOPPED
    from farkle_trainer.training.frontend import INTERRUPTED, EndOfInput
    from farkle_trainer.training.games.analysis import review, review_move
    from farkle_trainer.training.games.play import play_game, saved_state
    from farkle_trainer.training.games.tenturns import perfect_play
    from farkle_trainer.training.mistakes import game_mistake

    state = saved_state(tables, row)
    setup = state.setup
    source = setup.source()
    version = row.version

    def save(s: MatchState) -> None:
        nonlocal state, version
        state = s
        version = store.save_game(row.id, s.to_dict(), version=version, rated=False)

    def on_decision(move: Move) -> None:
        r = review_move(tables, setup, move)
        decided(r, state.banked, game_mistake(tables, setup, r))

    def close(outcome: str) -> None:
        try:
            store.finish_game(row.id, state.to_dict(), outcome=outcome, score=state.banked, version=version)
        except StaleAttemptError:
            # Ctrl-C between a save being kept and this knowing it: close what the store holds.
            kept = store.get_game(row.id)
            store.finish_game(
                row.id, kept.state or {}, outcome=outcome, score=kept.score or 0, version=kept.version
            )

    try:
        play_game(
            tables,
            front,
            view,
            state,
            source,
            hints=False,
            no_hints=CHALLENGE_NO_HINTS,
            save=save,
            decided=on_decision,
            together=store.atomic,
        )
    except (KeyboardInterrupt, EndOfInput) as stop:
        close(STOPPED)
        exit_code = INTERRUPTED if isinstance(stop, KeyboardInterrupt) else 0
        return ChallengeOutcome(state, False, None, (), exit_code, row.id)
    close("over")
    return ChallengeOutcome(state, True, perfect_play(tables, source), review(tables, state), 0, row.id)
