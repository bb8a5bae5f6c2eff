"""A game played step by step from Python: the dice showing, the legal decisions, push, the result.

A :class:`Game` is to Farkle what python-chess's ``Board`` is to chess: a small object that
holds a game in progress (its :class:`~farkle_trainer.training.games.match.MatchState` and its
dice) and moves it on one decision at a time. Rolling is never a choice, so the game always
waits on the dice showing, or is over: a turn's first roll is thrown as it starts, and a Farkle
passes the dice on at once. A decision is what a player does with the dice showing: set
``keep`` aside, then bank or roll on (:class:`Decision`); :attr:`Game.decisions` lists every one
the rules allow, :meth:`Game.push` plays one, :meth:`Game.computer_decision` is what the
computer to act plays. Nothing here is kept in the store: :meth:`Game.save` writes the game to
a file that ``farkle-train review`` reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from farkle_trainer.engine.dice import counts_of
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games.setup import MatchError, Player, Setup

if TYPE_CHECKING:
    from farkle_trainer.engine.tables import Tables


@dataclass(frozen=True, order=True)
class Decision:
    """What a player does with the dice showing: set ``keep`` aside (faces, ascending), then
    bank the turn or roll the dice left on."""

    keep: tuple[int, ...]
    action: Literal["bank", "roll"]

    def __post_init__(self) -> None:
        if self.action not in ("bank", "roll"):
            raise MatchError(f"a decision banks or rolls on, not {self.action!r}")
        object.__setattr__(self, "keep", tuple(sorted(self.keep)))

    def __str__(self) -> str:
        return f"keep {' '.join(map(str, self.keep))} and {self.action}"


class Game:
    """A game in progress on its own dice (see the module). ``setup`` fixes who plays, the
    rules, the form and the dice; ``state`` is where a game saved earlier stands (by default, its
    start); the computers play by the tables solved in ``tables``."""

    def __init__(self, setup: Setup, state: m.MatchState | None = None, *, tables: Tables) -> None:
        self._tables = tables
        self._source = setup.source()
        start = m.new_match(setup) if state is None else state
        if start.setup != setup:
            raise MatchError("the state is another game's: its setup is not this one")
        self.state = m.to_decision(start, self._source)

    def __repr__(self) -> str:
        if self.over:
            return f"<Game over: {self._scores_text()}>"
        dice = " ".join(map(str, self.roll))
        return f"<Game turn {self.turn}, {self.player.name} to play {dice}: {self._scores_text()}>"

    def _scores_text(self) -> str:
        return ", ".join(f"{p.name} {s:,}" for p, s in zip(self.players, self.scores, strict=True))

    @property
    def setup(self) -> Setup:
        return self.state.setup

    @property
    def rules(self) -> Rules:
        return self.state.rules

    @property
    def players(self) -> tuple[Player, ...]:
        return self.setup.players

    @property
    def player(self) -> Player:
        """The player whose dice are showing (once the game is over, the last to play)."""
        return self.state.player

    @property
    def turn(self) -> int:
        """The turn being played, counting every player's turns from 1."""
        return self.state.turn

    @property
    def roll(self) -> tuple[int, ...]:
        """The dice showing (empty once the game is over)."""
        return self.state.roll

    @property
    def points(self) -> int:
        """The turn's points at stake before the dice showing were rolled."""
        return self.state.stake

    @property
    def scores(self) -> tuple[int, ...]:
        """Every player's banked score, in seat order."""
        return self.state.scores

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def winners(self) -> tuple[Player, ...]:
        """Who won, once the game is over (equal top scores share the win); empty before."""
        return tuple(self.players[i] for i in self.state.winners()) if self.over else ()

    @property
    def moves(self) -> tuple[m.Move, ...]:
        """Every roll of the game so far and what became of it, a Farkle's too."""
        return self.state.log

    @property
    def decisions(self) -> tuple[Decision, ...]:
        """Every decision the rules allow on the dice showing: each distinct scoring set-aside,
        most points first, rolled on, and banked where banking is allowed (the opening minimum)."""
        if self.over:
            return ()
        found: list[Decision] = []
        for selection in score_table(self.rules).selections(counts_of(self.roll)):
            kept = m.set_aside(self.state, selection.dice)
            if kept.can_bank:
                found.append(Decision(selection.dice, "bank"))
            found.append(Decision(selection.dice, "roll"))
        return tuple(found)

    def push(self, decision: Decision) -> None:
        """Play ``decision`` on the dice showing; then the next roll is thrown (a Farkle passes
        the dice on), until dice show or the game is over. A decision the rules do not allow is
        a :class:`~farkle_trainer.training.games.setup.MatchError` saying why, and changes
        nothing."""
        if self.over:
            raise MatchError("the game is over")
        played = m.play(self.state, self._source, decision.keep, decision.action)
        self.state = m.to_decision(played, self._source)

    def computer_decision(self) -> Decision:
        """What the computer whose dice are showing plays (see
        :mod:`~farkle_trainer.training.games.computers`)."""
        from farkle_trainer.training.games.computers import choose

        if self.over or self.player.human:
            raise MatchError("it is not a computer's turn")
        choice = choose(self._tables, self.state)
        return Decision(choice.keep, choice.action)

    def play_computers(self) -> tuple[Decision, ...]:
        """Let the computers play until a person's dice are showing or the game is over; the
        decisions they made, in order."""
        made: list[Decision] = []
        while not self.over and not self.player.human:
            made.append(self.computer_decision())
            self.push(made[-1])
        return tuple(made)

    def save(self, path: str | Path) -> None:
        """Write the game so far to ``path`` (a ``.json`` game file): ``farkle-train review``
        shows it again, checking every move on its dice."""
        from farkle_trainer.training.games.gamefile import write_game_file

        write_game_file(Path(path), self.state)
