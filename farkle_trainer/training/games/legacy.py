"""Saved daily games of version 0.2.0 and before, read into today's game state.

Those versions saved the daily game in a ten-turn form of their own (``"version": 1`` with no
``setup``): the turn, the banked score, each finished turn's score and mark, the dice
showing, the set-aside, and the log of moves without seats or scores. A game in that form
opens as the same game in today's form (:func:`read_state`): its moves are played again on
the dice they record, and everything else (the turn, the scores, the marks) follows from
them, as it does for a game saved now.
Where the day's own dice are known, :func:`~farkle_trainer.training.games.match.rebuilt`
plays them again on those.
"""

from __future__ import annotations

from typing import Any

from farkle_trainer.training.games import turn
from farkle_trainer.training.games.dice import recorded_source
from farkle_trainer.training.games.match import Claim, MatchState, action_of, replay
from farkle_trainer.training.games.setup import TEN_TURNS, MatchError

TEN_TURN_VERSION = 1


def read_state(data: dict[str, Any]) -> MatchState:
    """A saved game in today's form (see :meth:`MatchState.from_dict`) or in the ten-turn form of
    0.2.0; :class:`MatchError` for anything else."""
    if isinstance(data, dict) and "setup" not in data and data.get("version") == TEN_TURN_VERSION:
        return _from_ten_turn_form(data)
    return MatchState.from_dict(data)


def _from_ten_turn_form(data: dict[str, Any]) -> MatchState:
    try:
        moves = [_move(m) for m in data["log"]]
        showing, kept = turn.faces(data["roll"]), turn.faces(data["kept"])
        recorded = {roll_number: claim.roll for roll_number, claim in moves}
        if showing:
            recorded[int(data["rolls"])] = showing
        return replay(
            TEN_TURNS,
            (claim for _, claim in moves),
            showing=(showing, kept),
            source=recorded_source(recorded),
        )
    except MatchError as exc:
        raise MatchError(f"the saved game cannot be read: {exc}") from None
    except (KeyError, TypeError, ValueError, OverflowError, AttributeError) as exc:
        raise MatchError(f"the saved game cannot be read: {exc!r}") from None


def _move(data: dict[str, Any]) -> tuple[int, Claim]:
    """A move of the ten-turn form, with the number of its roll."""
    claim = Claim(0, turn.faces(data["roll"]), turn.faces(data["keep"]), action_of(data["action"]))
    return int(data["roll_number"]), claim
