"""A simple person for whole-game CLI tests: the answers they type, worked out from the same dice."""

from __future__ import annotations

import pytest

from farkle_trainer.engine.dice import counts_of
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.engine.tables import Tables
from farkle_trainer.training.games import computers
from farkle_trainer.training.games import dice as game_dice
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games.dice import seeded_source
from farkle_trainer.training.games.setup import Setup

#: A game against Hard to 1,000, in plain text: training, as 1,000 is no rated game's target.
HARD_1000 = ["play", "--vs", "hard", "--target", "1000", "--plain"]
#: A rated game against Hard to 2,000 (the shortest target a rated game has), in plain text.
HARD_2000 = ["play", "--vs", "hard", "--target", "2000", "--plain"]


@pytest.fixture(autouse=True)
def drawn_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The program draws the seed of a training game: "3" first, then new ones, as a real draw
    would give; a rated game's dice, drawn as they are rolled, are the ones seed "3" deals (a
    chosen --seed would make the game training). Autouse where a test module imports it."""
    import secrets

    drawn = iter(["3", *(f"drawn{i}" for i in range(100))])
    monkeypatch.setattr(secrets, "token_hex", lambda n: next(drawn))
    monkeypatch.setattr(game_dice, "drawn_source", lambda: seeded_source(Stream("match:3")))


def greedy_script(
    tables: Tables, setup: Setup, *, bank_at: int = 300, limit: int = 400
) -> tuple[list[str], m.MatchState]:
    """The lines a person types who keeps the most points of each roll and banks at ``bank_at``
    (saying yes where a bank in a last turn would lose the game), with the game they lead to."""
    state = m.new_match(setup)
    source = setup.source()
    lines: list[str] = []
    while not state.over and len(lines) < limit:
        if not state.player.human:
            state = computers.step(tables, state, source)
        elif state.phase == "roll":
            state = m.roll(state, source)
        elif state.phase == "pick":
            best = max(
                score_table(state.rules).selections(counts_of(state.roll)),
                key=lambda s: (s.points, len(s.dice)),
            )
            lines.append(" ".join(map(str, best.dice)))
            state = m.set_aside(state, best.dice)
        elif state.can_bank and state.points >= bank_at:
            lines.append("b")
            if state.last_turn and state.banked + state.points < max(
                state.scores[: state.seat] + state.scores[state.seat + 1 :]
            ):
                lines.append("y")  # banking behind the leader in a last turn is asked first
            state = m.bank(state)
        else:
            lines.append("r")
            state = m.roll_on(state, source)
    return lines, state
