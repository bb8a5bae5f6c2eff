"""Helpers for whole-game tests: scripted dice, a reproducible stand-in for a person, a game played out."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from farkle_trainer.engine.dice import counts_of
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.engine.tables import Tables
from farkle_trainer.training.games import computers
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games.dice import DiceSource


def rolls(*table: Sequence[int]) -> DiceSource:
    """A source whose roll ``r`` shows ``table[r - 1]`` (place 1 first)."""

    def die(roll: int, place: int) -> int:
        return table[roll - 1][place - 1]

    return die


def person(stream: Stream, bank_chance: float = 0.4) -> Callable[[m.MatchState, DiceSource], m.MatchState]:
    """A person who keeps any scoring selection and banks at random where allowed."""

    def act(state: m.MatchState, source: DiceSource) -> m.MatchState:
        selections = score_table(state.rules).selections(counts_of(state.roll))
        state = m.set_aside(state, stream.choice(selections).dice)
        if state.can_bank and stream.random() < bank_chance:
            return m.bank(state)
        return m.roll_on(state, source)

    return act


def play_out(
    tables: Tables,
    state: m.MatchState,
    source: DiceSource,
    act: Callable[[m.MatchState, DiceSource], m.MatchState],
    *,
    saved: list[m.MatchState] | None = None,
) -> m.MatchState:
    """Play a game to its end, people by ``act``; every state goes through JSON on the way."""
    while not state.over:
        if state.player.human:
            state = m.roll(state, source) if state.phase == "roll" else act(state, source)
        else:
            state = computers.step(tables, state, source)
        again = m.MatchState.from_dict(json.loads(json.dumps(state.to_dict())))
        assert again == state
        if saved is not None:
            saved.append(state)
    return state
