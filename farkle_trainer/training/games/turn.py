"""What one turn allows, in every game: its phases, its actions, and the set-aside rule.

A turn: roll; set aside scoring dice (every die set aside must be in the roll and score, at
least one); then bank or roll the dice left. The game's state machine
(:mod:`~farkle_trainer.training.games.match`) and the prompts that read a person's pick
(:mod:`~farkle_trainer.training.games.play`) check a set-aside here, so it is refused in the
same words wherever it is made.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from farkle_trainer.engine.dice import MAX_DICE, counts_of, format_dice, is_subset
from farkle_trainer.engine.errors import InputError
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.scoring import explain, score_table

Phase = Literal["roll", "pick", "choose", "over"]
Action = Literal["bank", "roll", "farkle"]

_WAITING: dict[Phase, str] = {
    "roll": "roll",
    "pick": "set dice aside",
    "choose": "bank or roll on",
    "over": "end",
}


class GameError(InputError):
    """A move a game does not allow now (a pick that is not in the roll or does not score),
    a game that cannot be set up, or a saved game that cannot be read."""


def need(phase: Phase, wanted: Phase, doing: str) -> None:
    """Refuse ``doing`` unless the game is at the ``wanted`` phase, saying what it waits for."""
    if phase != wanted:
        if phase == "over":
            raise GameError(f"cannot {doing}: the game is over")
        raise GameError(f"cannot {doing} now (the game waits to {_WAITING[phase]})")


def faces(values: Iterable[Any]) -> tuple[int, ...]:
    """Die faces read back from saved data; anything that is not a face is refused, and so are more
    dice than a roll throws."""
    read = tuple(int(v) for v in values)
    if len(read) > MAX_DICE:
        raise InputError(f"{len(read):,} dice where a roll throws at most {MAX_DICE}")
    counts_of(read)
    return read


def check_set_aside(rules: Rules, roll: tuple[int, ...], picked: Iterable[int]) -> tuple[int, ...]:
    """The faces (ascending) if they may be set aside from ``roll``, else :class:`GameError` saying why."""
    chosen = tuple(sorted(picked))
    if not chosen:
        raise GameError("set aside at least one scoring die")
    try:
        counts = counts_of(chosen)
    except InputError as exc:
        raise GameError(str(exc)) from None
    if not is_subset(counts, counts_of(roll)):
        raise GameError(f"{format_dice(chosen, ' ')} are not all in the roll {format_dice(roll, ' ')}")
    if score_table(rules).split(counts) is None:
        raise GameError("; ".join(d.reason for d in explain(chosen, rules).dead))
    return chosen
