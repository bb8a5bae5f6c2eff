"""Computer players: what they keep and whether they bank, from what a person sees.

A computer decides from the state alone: the dice showing, the turn points, everyone's
banked scores and whether the final round is on. The state never holds a die before it is
rolled, so a computer cannot know a roll in advance.

* Easy keeps every scoring die and banks at simple thresholds: 2,000 with five or six
  dice left to roll, 1,000 with four, 400 with three, 300 with two or one (never below the
  opening minimum while it has nothing banked).
* Medium plays the exact best expected turn score of the rules in force: the opening
  minimum, and on what would be its third Farkle in a row a Farkle that costs the penalty
  (never more than it has banked).
* Hard plays the exact best chance of winning a two-player game; with three or four
  players, against the leading opponent. Under the three-Farkle penalty it counts its own
  and that opponent's Farkles in a row.

In a last turn of the final round banking behind the leader loses for certain, so every
level plays to pass the leader: Easy rolls until it is ahead, Medium plays the best chance
of passing, Hard the best chance of winning (a tie counts one half).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from farkle_trainer.engine.dice import counts_of, format_dice
from farkle_trainer.engine.grading import Unit
from farkle_trainer.engine.house import least_bank
from farkle_trainer.engine.ranked import ranked_plays
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.training.games.analysis import situation_of
from farkle_trainer.training.games.dice import DiceSource
from farkle_trainer.training.games.match import Claim, MatchState, pending_move, play, roll, runs_of
from farkle_trainer.training.games.setup import Level, MatchError

if TYPE_CHECKING:
    from farkle_trainer.engine.tables import Tables

Decision = Literal["bank", "roll"]

#: Easy banks once the turn is worth at least this with this many dice left to roll.
EASY_BANK_AT: dict[int, int] = {6: 2_000, 5: 2_000, 4: 1_000, 3: 400, 2: 300, 1: 300}


@dataclass(frozen=True)
class Choice:
    """What a computer does with the dice showing: keep these, then bank or roll on."""

    keep: tuple[int, ...]
    action: Decision


def choose(tables: Tables, state: MatchState) -> Choice:
    """The choice of the computer whose dice are showing."""
    if state.phase != "pick":
        raise MatchError("a computer chooses when its dice are showing")
    level = state.player.level
    if level is None:
        raise MatchError("a person's turn: the computer does not choose for them")
    if level == Level.EASY:
        return easy(state)
    if level == Level.MEDIUM:
        return medium(tables, state)
    return hard(tables, state)


def _behind(state: MatchState) -> int:
    """Points the mover must make up to tie the leader in a last turn."""
    seat = state.seat
    leader = max(s for i, s in enumerate(state.scores) if i != seat)
    return leader - state.scores[seat]


def _opening(state: MatchState) -> int:
    return least_bank(state.rules, state.banked, runs_of(state, state.seat), opening=state.setup.opening)


def easy(state: MatchState) -> Choice:
    selections = score_table(state.rules).selections(counts_of(state.roll))
    split = max(selections, key=lambda s: (len(s.dice), s.points))
    t = state.points + split.points
    left = len(state.roll) - len(split.dice)
    if state.last_turn:
        return Choice(split.dice, "bank" if t > _behind(state) and t >= _opening(state) else "roll")
    bank_now = t >= max(EASY_BANK_AT[left or 6], _opening(state))
    return Choice(split.dice, "bank" if bank_now else "roll")


def _table_play(tables: Tables, state: MatchState, unit: Unit) -> Choice:
    """What the table of ``unit`` plays with the dice showing: its best set-aside, then its own
    action (rolling on at a tie)."""
    move = pending_move(state, (), "roll")
    play = ranked_plays(
        tables, situation_of(state.setup, move, unit, runs_of(state, state.seat)), state.roll
    ).table_play
    assert play is not None
    return Choice(play.keep, play.action)


def medium(tables: Tables, state: MatchState) -> Choice:
    return _table_play(tables, state, Unit.CHANCE if state.last_turn else Unit.POINTS)


def hard(tables: Tables, state: MatchState) -> Choice:
    return _table_play(tables, state, Unit.WIN)


def as_played(tables: Tables, state: MatchState, claim: Claim) -> str | None:
    """What is wrong with a saved game's claim of a computer's move, None when it is the move
    that computer makes on these dice: a computer decides from what it sees alone, so a game
    kept anywhere (a file, the store) replays the computers' moves too."""
    if state.player.human:
        return None
    choice = choose(tables, state)
    if (choice.keep, choice.action) == (tuple(sorted(claim.keep)), claim.action):
        return None
    made = f"sets aside {format_dice(choice.keep, ' ')} and {choice.action}s"
    return f"{state.player.name} does not play that on these dice: it {made}"


def step(tables: Tables, state: MatchState, source: DiceSource) -> MatchState:
    """One action of the computer to act: roll at a turn's start, or keep and bank or roll on."""
    if state.over or state.player.human:
        raise MatchError("it is not a computer's turn")
    if state.phase == "roll":
        return roll(state, source)
    choice = choose(tables, state)
    return play(state, source, choice.keep, choice.action)


def play_computers(tables: Tables, state: MatchState, source: DiceSource) -> MatchState:
    """Let computers act until a person must act or the game is over."""
    while not state.over and not state.player.human:
        state = step(tables, state, source)
    return state
