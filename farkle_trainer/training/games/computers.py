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
from typing import Literal

from farkle_trainer.engine.dice import counts_of, format_dice
from farkle_trainer.engine.farkles import FARKLES_FOR_PENALTY
from farkle_trainer.engine.game import GameTable, game_plays, solve_game
from farkle_trainer.engine.plays import hint
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.solver import STEP
from farkle_trainer.training.games.dice import DiceSource
from farkle_trainer.training.games.match import Claim, MatchState, opened, play, roll, runs_of
from farkle_trainer.training.games.setup import Level, MatchError, Setup

Decision = Literal["bank", "roll"]

#: Easy banks once the turn is worth at least this with this many dice left to roll.
EASY_BANK_AT: dict[int, int] = {6: 2_000, 5: 2_000, 4: 1_000, 3: 400, 2: 300, 1: 300}


@dataclass(frozen=True)
class Choice:
    """What a computer does with the dice showing: keep these, then bank or roll on."""

    keep: tuple[int, ...]
    action: Decision


def table_for(setup: Setup) -> GameTable:
    """The two-player table Hard plays by (solved once, then cached in memory and on disk)."""
    return solve_game(setup.rules, setup.target, setup.opening)


def choose(state: MatchState) -> Choice:
    """The choice of the computer whose dice are showing."""
    if state.phase != "pick":
        raise MatchError("a computer chooses when its dice are showing")
    level = state.player.level
    if level is None:
        raise MatchError("a person's turn: the computer does not choose for them")
    if level == Level.EASY:
        return easy(state)
    if level == Level.MEDIUM:
        return medium(state)
    return hard(state)


def _behind(state: MatchState) -> int:
    """Points the mover must make up to tie the leader in a last turn."""
    seat = state.seat
    leader = max(s for i, s in enumerate(state.scores) if i != seat)
    return leader - state.scores[seat]


def _opening(state: MatchState) -> int:
    return 0 if opened(state, state.seat) else state.setup.opening


def easy(state: MatchState) -> Choice:
    selections = score_table(state.rules).selections(counts_of(state.roll))
    split = max(selections, key=lambda s: (len(s.dice), s.points))
    t = state.points + split.points
    left = len(state.roll) - len(split.dice)
    if state.last_turn:
        return Choice(split.dice, "bank" if t > _behind(state) and t >= _opening(state) else "roll")
    bank_now = t >= max(EASY_BANK_AT[left or 6], _opening(state))
    return Choice(split.dice, "bank" if bank_now else "roll")


def _farkle_value(state: MatchState) -> int:
    """What a Farkle costs the mover beyond the turn's points: the penalty (never below 0) on
    what would be its third in a row, except in a last turn, which a Farkle just ends."""
    penalty = state.setup.penalty
    if not penalty or state.last_turn or state.farkles[state.seat] < FARKLES_FOR_PENALTY - 1:
        return 0
    return -min(penalty, state.banked)


def medium(state: MatchState) -> Choice:
    need = _behind(state) + STEP if state.last_turn else None
    h = hint(
        state.roll,
        state.points,
        state.rules,
        opening=_opening(state),
        need=need,
        farkle_value=_farkle_value(state),
    )
    best = h.best
    assert best is not None
    return Choice(best.keep, best.value.action)


def hard(state: MatchState) -> Choice:
    seat = state.seat
    me = state.scores[seat]
    leader = max(s for i, s in enumerate(state.scores) if i != seat)
    plays = game_plays(
        counts_of(state.roll),
        state.points,
        me,
        leader,
        table_for(state.setup),
        last_turn=state.last_turn,
        runs=runs_of(state, seat),
    )
    best = plays.best
    assert best is not None
    return Choice(best.keep, best.action)


def as_played(state: MatchState, claim: Claim) -> str | None:
    """What is wrong with a saved game's claim of a computer's move, None when it is the move
    that computer makes on these dice: a computer decides from what it sees alone, so a game
    kept anywhere (a file, the store) replays the computers' moves too."""
    if state.player.human:
        return None
    choice = choose(state)
    if (choice.keep, choice.action) == (tuple(sorted(claim.keep)), claim.action):
        return None
    made = f"sets aside {format_dice(choice.keep, ' ')} and {choice.action}s"
    return f"{state.player.name} does not play that on these dice: it {made}"


def step(state: MatchState, source: DiceSource) -> MatchState:
    """One action of the computer to act: roll at a turn's start, or keep and bank or roll on."""
    if state.over or state.player.human:
        raise MatchError("it is not a computer's turn")
    if state.phase == "roll":
        return roll(state, source)
    choice = choose(state)
    return play(state, source, choice.keep, choice.action)


def play_computers(state: MatchState, source: DiceSource) -> MatchState:
    """Let computers act until a person must act or the game is over."""
    while not state.over and not state.player.human:
        state = step(state, source)
    return state
