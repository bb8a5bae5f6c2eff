"""Every game, from the daily game to four players at one keyboard: plain data and pure transitions.

A :class:`MatchState` is everything about a game in progress under its
:class:`~farkle_trainer.training.games.setup.Setup`, and is saved as JSON after every action
(:meth:`MatchState.to_dict`, :meth:`MatchState.from_dict`).

House rules, as the design reads them:

* a player with nothing banked may not bank a turn worth less than the opening minimum;
* a third Farkle in a row costs the penalty (never below 0) and starts the count again;
  banking ends a run of Farkles;
* when a player banks to the target or more, every other player gets exactly one last
  turn (the final round); then the highest score wins and equal top scores share the win.
  A Farkle in a last turn just ends it, the penalty not charged: the player is behind the
  one who reached the target, so the game is theirs to win only by passing them, and a
  lower losing score would change nothing but the figure (the game solver, the hint and
  the analysis count a last turn's Farkle the same way).

Solo has two forms: ten turns for the highest score, and the target in as few turns as
possible (a Farkle costs a turn).

Dice come from a :data:`~farkle_trainer.training.games.dice.DiceSource` (the setup's own:
:meth:`Setup.source`), and nobody (person or computer) can see a roll before it is thrown: the
state holds no dice that have not been rolled. A game on a seed, a class code or a day resumes
on the same dice; a rated game's are drawn as they are rolled, and its log keeps them. State in,
state out::

    state = new_match(setup)
    state = roll(state, source)          # after a Farkle, already the next player's turn
    state = set_aside(state, (1, 5))
    state = bank(state)                  # or roll_on(state, source)

A saved game is trusted for its moves only: :func:`replay` plays them again on the dice (a
rated game's, as its moves record them) and refuses a move those dice do not allow.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from farkle_trainer.engine import house
from farkle_trainer.engine.dice import counts_of, format_dice, is_subset
from farkle_trainer.engine.farkles import FARKLES_FOR_PENALTY, NO_RUNS, Runs
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.solver import STEP
from farkle_trainer.training.games import turn
from farkle_trainer.training.games.dice import DiceSource, Drawn, recorded_source
from farkle_trainer.training.games.setup import MatchError, Player, Setup, is_rated
from farkle_trainer.training.games.turn import Action, Phase

MATCH_VERSION = 1
#: Hints are counted up to this many: only whether one was asked matters, and a saved count is
#: read only up to it.
MAX_HINTS = 10_000

#: A turn's mark in the share line: a Farkle, hot dice (and no Farkle), or neither.
FARKLE_MARK = "F"
HOT_DICE_MARK = "H"
PLAIN_MARK = "."


class ReplayError(MatchError):
    """A saved game whose moves its dice do not give."""


class UnreadableState(MatchError):
    """A saved state that is not a game's: a part missing, of the wrong kind, or out of bounds.
    ``why`` says which, in words that follow "the saved game cannot be read: "."""

    def __init__(self, why: str):
        self.why = why
        super().__init__(f"the saved game cannot be read: {why}")


@dataclass(frozen=True)
class Claim:
    """What a saved game says of one move: whose it was, the dice it showed, what was set
    aside and what followed (see :func:`replay`)."""

    seat: int
    roll: tuple[int, ...]
    keep: tuple[int, ...]
    action: Action


@dataclass(frozen=True)
class Move:
    """One roll and what became of it, with what every player could see when it was rolled.

    ``turn`` counts every player's turns from 1. ``points`` were at stake before the roll;
    ``keep`` is what was set aside (faces, ascending; empty after a Farkle) and ``action``
    what followed: bank, roll on, or the Farkle that ended the turn. ``scores`` are
    everyone's banked scores when the dice were rolled, ``farkles`` the mover's Farkles in a
    row before this turn, and ``last_turn`` says the turn was in the final round: all three
    follow from the moves before, so they take no part in telling moves apart.
    """

    turn: int
    roll_number: int
    roll: tuple[int, ...]
    points: int
    keep: tuple[int, ...]
    action: Action
    seat: int = 0
    scores: tuple[int, ...] = field(default=(0,), compare=False)
    farkles: int = field(default=0, compare=False)
    last_turn: bool = field(default=False, compare=False)

    @property
    def decision(self) -> bool:
        """A choice the player made (a Farkle is not one)."""
        return self.action != "farkle"

    @property
    def score(self) -> int:
        """The mover's banked score when the dice were rolled."""
        return self.scores[self.seat]

    @property
    def leader(self) -> int:
        """The best score among the other players (0 in solo)."""
        return max((s for i, s in enumerate(self.scores) if i != self.seat), default=0)

    @property
    def claim(self) -> Claim:
        return Claim(self.seat, self.roll, self.keep, self.action)

    def to_dict(self, *, solo: bool = False) -> dict[str, Any]:
        """The move as data; ``solo`` leaves out the seat and what the players could see, as
        the ten-turn game has always kept its moves (in daily practice records, for one)."""
        play = {
            "turn": self.turn,
            "roll_number": self.roll_number,
            "roll": list(self.roll),
            "points": self.points,
            "keep": list(self.keep),
            "action": self.action,
        }
        if solo:
            return play
        return {
            "seat": self.seat,
            **play,
            "scores": list(self.scores),
            "farkles": self.farkles,
            "last_turn": self.last_turn,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Move:
        return cls(
            turn=int(data["turn"]),
            roll_number=int(data["roll_number"]),
            roll=turn.faces(data["roll"]),
            points=int(data["points"]),
            keep=turn.faces(data["keep"]),
            action=action_of(data["action"]),
            seat=int(data["seat"]),
            scores=tuple(int(s) for s in data["scores"]),
            farkles=int(data["farkles"]),
            last_turn=_flag(data["last_turn"]),
        )


def action_of(value: Any) -> Action:
    """A saved move's action; :class:`MatchError` for anything but bank, roll or farkle."""
    if value not in ("bank", "roll", "farkle"):
        raise MatchError(f"unknown action {value!r}")
    action: Action = value
    return action


@dataclass(frozen=True)
class MatchState:
    """A game in progress. ``seat`` is the player to act; ``roll`` the dice showing until they
    are dealt with and ``kept`` what was set aside from them until the player banks or rolls
    on; ``dice`` how many the next roll throws; ``rolls`` how many rolls the game has had.
    ``turns`` counts each player's finished turns, ``farkles`` their Farkles in a row.
    ``closer`` is the seat that reached the target (the final round is on), ``hints`` how
    many hints people asked for.
    """

    setup: Setup
    scores: tuple[int, ...]
    turns: tuple[int, ...]
    farkles: tuple[int, ...]
    seat: int = 0
    turn: int = 1
    points: int = 0
    dice: int = 6
    roll: tuple[int, ...] = ()
    kept: tuple[int, ...] = ()
    rolls: int = 0
    closer: int | None = None
    finished: bool = False
    hints: int = 0
    log: tuple[Move, ...] = ()

    @property
    def phase(self) -> Phase:
        """``roll`` at a turn's start, ``pick`` with dice showing, ``choose`` to bank or roll on."""
        if self.finished:
            return "over"
        if self.kept:
            return "choose"
        if self.roll:
            return "pick"
        return "roll"

    @property
    def over(self) -> bool:
        return self.finished

    @property
    def player(self) -> Player:
        return self.setup.players[self.seat]

    @property
    def rules(self) -> Rules:
        return self.setup.rules

    @property
    def banked(self) -> int:
        """The banked score of the player to act: in solo, the game's score."""
        return self.scores[self.seat]

    @property
    def last_turn(self) -> bool:
        """The turn being played is a last turn of the final round."""
        return self.closer is not None

    @property
    def kept_points(self) -> int:
        """What the dice set aside from the roll showing are worth (0 before a set-aside)."""
        return _points_of(self.rules, self.kept)

    @property
    def stake(self) -> int:
        """Turn points at stake when the dice showing were rolled."""
        return self.points - self.kept_points

    @property
    def dice_left(self) -> int:
        """Dice left to roll after the set-aside: 0 after hot dice (when all six roll again)."""
        return len(self.roll) - len(self.kept)

    @property
    def hot(self) -> bool:
        """This turn has had hot dice: every die of a roll set aside (this one's, or an earlier one's)."""
        this_turn = (m for m in self.log if m.turn == self.turn and m.action == "roll")
        return any(_all_kept(m) for m in this_turn) or (bool(self.kept) and self.dice_left == 0)

    @property
    def can_bank(self) -> bool:
        """Whether banking now would be allowed: the turn is worth the least the house rules let
        this player bank (see :func:`~farkle_trainer.engine.house.least_bank`)."""
        least = house.least_bank(
            self.rules, self.banked, runs_of(self, self.seat), opening=self.setup.opening
        )
        return self.phase == "choose" and self.points >= least

    @property
    def hinted(self) -> bool:
        return self.hints > 0

    @property
    def rated(self) -> bool:
        return is_rated(self.setup, hinted=self.hinted)

    @property
    def decisions(self) -> tuple[Move, ...]:
        return tuple(m for m in self.log if m.decision)

    @property
    def marks(self) -> tuple[str, ...]:
        """Each finished turn's mark, in order: a Farkle, hot dice (and no Farkle), or neither."""
        return tuple(_mark(moves) for moves in self._finished_turns())

    @property
    def turn_scores(self) -> tuple[int, ...]:
        """The points each finished turn banked, in order (0 after a Farkle)."""
        return tuple(_banked_by(moves[-1], self.rules) for moves in self._finished_turns())

    def _finished_turns(self) -> list[list[Move]]:
        by_turn: dict[int, list[Move]] = {}
        for m in self.log:
            by_turn.setdefault(m.turn, []).append(m)
        return [moves for moves in by_turn.values() if moves[-1].action != "roll"]

    def winners(self) -> tuple[int, ...]:
        """The seats with the top score once the game is over (one in solo)."""
        if not self.finished:
            raise MatchError("the game is not over")
        top = max(self.scores)
        return tuple(i for i, s in enumerate(self.scores) if s == top)

    def result(self, seat: int) -> float:
        """What the game gave ``seat``: 1 for a win, 0 for a loss, a share of a shared win."""
        winners = self.winners()
        return 1.0 / len(winners) if seat in winners else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": MATCH_VERSION,
            "setup": self.setup.to_dict(),
            "scores": list(self.scores),
            "turns": list(self.turns),
            "farkles": list(self.farkles),
            "seat": self.seat,
            "turn": self.turn,
            "points": self.points,
            "dice": self.dice,
            "roll": list(self.roll),
            "kept": list(self.kept),
            "rolls": self.rolls,
            "closer": self.closer,
            "finished": self.finished,
            "hints": self.hints,
            "log": [m.to_dict() for m in self.log],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchState:
        """The state :meth:`to_dict` gave; :class:`UnreadableState` for anything else."""
        try:
            if data["version"] != MATCH_VERSION:
                raise MatchError(f"saved by another version of the game ({data['version']!r})")
            closer = data["closer"]
            state = cls(
                setup=Setup.from_dict(data["setup"]),
                scores=tuple(int(s) for s in data["scores"]),
                turns=tuple(int(t) for t in data["turns"]),
                farkles=tuple(int(f) for f in data["farkles"]),
                seat=int(data["seat"]),
                turn=int(data["turn"]),
                points=int(data["points"]),
                dice=int(data["dice"]),
                roll=turn.faces(data["roll"]),
                kept=turn.faces(data["kept"]),
                rolls=int(data["rolls"]),
                closer=None if closer is None else int(closer),
                finished=_flag(data["finished"]),
                hints=hint_count(data["hints"]),
                log=tuple(Move.from_dict(m) for m in data["log"]),
            )
        except MatchError as exc:
            raise UnreadableState(str(exc)) from None
        except KeyError as exc:
            raise UnreadableState(f"it has no {exc.args[0]!r}, which every saved game has") from None
        except (TypeError, AttributeError) as exc:
            raise UnreadableState(f"a part of it is not of the kind a saved game holds ({exc})") from None
        except (ValueError, OverflowError) as exc:
            # JSON reads Infinity and NaN too, which no whole number is.
            raise UnreadableState(f"a value in it is not one a saved game holds ({exc})") from None
        _check_consistent(state)
        return state


def hint_count(value: Any) -> int:
    """A saved count of hints; :class:`MatchError` for anything but a whole number 0 to MAX_HINTS."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_HINTS:
        raise MatchError(f"hints must be a count from 0 to {MAX_HINTS:,}")
    return value


def final_winners(state: MatchState, resigned: int | None = None) -> tuple[int, ...] | None:
    """Who won a game that has ended: over, or given up by the seat ``resigned``. A game to the
    target given up ends for everyone: the other players with the top score win (equal top
    scores share the win). None while the game goes on, and for a solo game given up."""
    if state.over:
        return state.winners()
    if resigned is None or state.setup.form.solo:
        return None
    others = [i for i in range(state.setup.size) if i != resigned]
    top = max(state.scores[i] for i in others)
    return tuple(i for i in others if state.scores[i] == top)


def _check_consistent(state: MatchState) -> None:
    size = state.setup.size
    problems = [
        len(state.scores) != size or len(state.turns) != size or len(state.farkles) != size,
        not 0 <= state.seat < size,
        state.closer is not None and not 0 <= state.closer < size,
        not 1 <= state.dice <= 6,
        any(s < 0 or s % STEP for s in state.scores),
        state.points < 0 or state.points % STEP,
        any(not 0 <= f < FARKLES_FOR_PENALTY for f in state.farkles),
        state.turn != sum(state.turns) + 1,
        state.rolls < len(state.log),
        bool(state.kept) and not is_subset(counts_of(state.kept), counts_of(state.roll)),
        bool(state.kept) and score_table(state.rules).split(counts_of(state.kept)) is None,
        any(not 0 <= m.seat < size or len(m.scores) != size for m in state.log),
    ]
    if any(problems):
        raise UnreadableState("its scores, turns and dice do not add up")


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise MatchError(f"expected true or false, not {value!r}")
    return value


def _points_of(rules: Rules, faces: tuple[int, ...]) -> int:
    if not faces:
        return 0
    split = score_table(rules).split(counts_of(faces))
    assert split is not None
    return split.points


def _all_kept(move: Move) -> bool:
    return bool(move.keep) and len(move.keep) == len(move.roll)


def _mark(moves: list[Move]) -> str:
    if moves[-1].action == "farkle":
        return FARKLE_MARK
    return HOT_DICE_MARK if any(_all_kept(m) for m in moves) else PLAIN_MARK


def _banked_by(last: Move, rules: Rules) -> int:
    """What a turn ending in ``last`` banked."""
    return last.points + _points_of(rules, last.keep) if last.action == "bank" else 0


# -- what each player can see of the others


def opened(state: MatchState, seat: int) -> bool:
    """Whether ``seat`` has opened: it has banked before, so the opening minimum no longer
    holds it (a player knocked back to 0 by the three-Farkle penalty has opened already)."""
    return state.scores[seat] > 0 or any(m.seat == seat and m.action == "bank" for m in state.log)


def rival(scores: tuple[int, ...], seat: int) -> int:
    """The other seat a player plays against: the leader among the others (the first of them
    on a tie)."""
    others = [i for i in range(len(scores)) if i != seat]
    return max(others, key=lambda i: (scores[i], -i))


def runs_of(state: MatchState, seat: int) -> Runs:
    """The Farkles in a row of ``seat`` and of its rival now, and who of them has opened on 0."""
    has_opened = tuple(opened(state, i) for i in range(state.setup.size))
    return _runs(state.setup, state.scores, state.farkles, has_opened, seat)


def move_runs(state: MatchState) -> tuple[Runs, ...]:
    """For each move of the log, the mover's and the rival's Farkles in a row and who of them
    had opened when the dice were thrown."""
    size = state.setup.size
    farkles = [0] * size
    banked = [False] * size
    found = []
    for m in state.log:
        has_opened = tuple(banked[i] or m.scores[i] > 0 for i in range(size))
        found.append(_runs(state.setup, m.scores, tuple(farkles), has_opened, m.seat))
        if m.action == "farkle":
            farkles[m.seat] = (farkles[m.seat] + 1) % FARKLES_FOR_PENALTY
        elif m.action == "bank":
            farkles[m.seat] = 0
            banked[m.seat] = True
    return tuple(found)


def _runs(
    setup: Setup, scores: tuple[int, ...], farkles: tuple[int, ...], has_opened: tuple[bool, ...], seat: int
) -> Runs:
    if not setup.penalty:
        return NO_RUNS

    # Only a player on 0 whom the house rules treat apart once opened needs saying (as the
    # opening minimum does); otherwise the score tells.
    tells_apart = house.opened_matters(setup.rules, setup.opening)

    def knocked_back(i: int) -> bool | None:
        return True if scores[i] == 0 and tells_apart and has_opened[i] else None

    if setup.size == 1:
        return Runs(farkles[seat], 0, knocked_back(seat), None)
    other = rival(scores, seat)
    return Runs(farkles[seat], farkles[other], knocked_back(seat), knocked_back(other))


# -- transitions


def new_match(setup: Setup) -> MatchState:
    """The first player to roll six dice, everyone on 0."""
    zeros = (0,) * setup.size
    return MatchState(setup=setup, scores=zeros, turns=zeros, farkles=zeros)


def _need(state: MatchState, phase: Phase, doing: str) -> None:
    turn.need(state.phase, phase, doing)


def pending_move(state: MatchState, keep: tuple[int, ...], action: Action) -> Move:
    """The move the dice showing make with ``keep`` set aside and then ``action``, as the log keeps it."""
    seen = (state.seat, state.scores, state.farkles[state.seat], state.last_turn)
    return Move(state.turn, state.rolls, state.roll, state.stake, keep, action, *seen)


def _throw(state: MatchState, source: DiceSource) -> MatchState:
    number = state.rolls + 1
    dice = tuple(source(number, place) for place in range(1, state.dice + 1))
    counts_of(dice)
    state = replace(state, rolls=number, roll=dice, kept=())
    if not score_table(state.rules).is_farkle(counts_of(dice)):
        return state
    state = replace(state, log=(*state.log, pending_move(state, (), "farkle")))
    seat = state.seat
    score = state.scores[seat]
    # What the Farkle costs is the house rules' to say; the run starts again after a third.
    cost = house.farkle_cost(state.rules, score, runs_of(state, seat), last_turn=state.last_turn)
    return _end_turn(state, score - cost, (state.farkles[seat] + 1) % FARKLES_FOR_PENALTY)


def _set(values: tuple[int, ...], seat: int, value: int) -> tuple[int, ...]:
    return (*values[:seat], value, *values[seat + 1 :])


def _end_turn(state: MatchState, score: int, run: int) -> MatchState:
    seat = state.seat
    setup = state.setup
    scores = _set(state.scores, seat, score)
    turns = _set(state.turns, seat, state.turns[seat] + 1)
    closer = state.closer
    following = (seat + 1) % setup.size
    if setup.form.solo:
        finished = setup.form.over_alone(turns[seat], score, setup.target)
    else:
        if closer is None and score >= setup.target:
            closer = seat
        finished = closer is not None and following == closer
    return replace(
        state,
        scores=scores,
        turns=turns,
        farkles=_set(state.farkles, seat, run),
        seat=seat if finished else following,
        turn=state.turn + 1,
        points=0,
        dice=6,
        roll=(),
        kept=(),
        closer=closer,
        finished=finished,
    )


def roll(state: MatchState, source: DiceSource) -> MatchState:
    """Start a turn: roll six dice. A Farkle ends the turn at once (see :attr:`MatchState.log`)."""
    _need(state, "roll", "roll")
    return _throw(state, source)


check_set_aside = turn.check_set_aside


def set_aside(state: MatchState, faces: Iterable[int]) -> MatchState:
    """Set aside scoring dice from the roll showing; their points join the turn's.

    Setting aside every die showing is hot dice: the next roll is of all six.
    """
    _need(state, "pick", "set dice aside")
    picked = check_set_aside(state.rules, state.roll, faces)
    left = len(state.roll) - len(picked)
    return replace(state, kept=picked, points=state.points + _points_of(state.rules, picked), dice=left or 6)


def undo_set_aside(state: MatchState) -> MatchState:
    """Take back the set-aside of the dice showing, before the next roll is shown.

    Nothing new has been seen, so the dice may be picked again; the turn is as it was
    right after the roll.
    """
    _need(state, "choose", "take back the set-aside")
    return replace(state, kept=(), points=state.stake, dice=len(state.roll))


def bank(state: MatchState) -> MatchState:
    """Bank the turn's points; the next player's turn starts, or the game ends."""
    _need(state, "choose", "bank")
    if not state.can_bank:
        raise MatchError(
            f"a player on 0 cannot bank less than the opening minimum of {state.setup.opening:,}"
        )
    state = replace(state, log=(*state.log, pending_move(state, state.kept, "bank")))
    return _end_turn(state, state.scores[state.seat] + state.points, 0)


def roll_on(state: MatchState, source: DiceSource) -> MatchState:
    """Roll the dice left (six after hot dice) with the turn's points at stake."""
    _need(state, "choose", "roll on")
    state = replace(state, log=(*state.log, pending_move(state, state.kept, "roll")))
    return _throw(state, source)


def play(state: MatchState, source: DiceSource, keep: Iterable[int], action: Action) -> MatchState:
    """One decision on the dice showing: set ``keep`` aside, then bank or roll on."""
    state = set_aside(state, keep)
    return bank(state) if action == "bank" else roll_on(state, source)


def to_decision(state: MatchState, source: DiceSource) -> MatchState:
    """The game at its next decision: a turn's first roll thrown (a Farkle there starts the
    next turn at once), until dice show or the game is over."""
    while state.phase == "roll":
        state = roll(state, source)
    return state


def ask_hint(state: MatchState) -> MatchState:
    """Note that a person asked for a hint: the game is training from now on."""
    if state.over or not state.player.human:
        raise MatchError("hints are for a person's own turn")
    return replace(state, hints=min(state.hints + 1, MAX_HINTS))


# -- saved games played again


#: Looks at a decision of a saved game before it is played again: what is wrong with it, if anything.
Vet = Callable[[MatchState, Claim], str | None]


def replay_move(
    state: MatchState, source: DiceSource, i: int, claim: Claim, vet: Vet | None = None
) -> MatchState:
    """Move ``i`` (from 0) of a saved game played again on ``source``'s dice: the turn's roll
    thrown where it starts, a Farkle only where the dice give one. :class:`ReplayError` says
    what of the claim does not hold, and ``vet`` may refuse a decision too."""
    where = f"move {i + 1}: "
    if state.over and len(state.log) == i:
        raise ReplayError(f"{where}the game was already over")
    if len(state.log) == i and state.phase == "roll":
        try:
            state = roll(state, source)
        except MatchError as exc:
            raise ReplayError(f"{where}{exc}") from None
    showing = state.log[i] if len(state.log) > i else None
    actual_seat = showing.seat if showing is not None else state.seat
    actual_roll = showing.roll if showing is not None else state.roll
    if claim.seat != actual_seat:
        raise ReplayError(f"{where}it is player {actual_seat + 1}'s move, not player {claim.seat + 1}'s")
    if claim.roll != actual_roll:
        raise ReplayError(
            f"{where}the dice were {format_dice(actual_roll, ' ')}, "
            f"not {format_dice(claim.roll, ' ') or 'none'}"
        )
    if showing is not None:
        if claim.action != "farkle":
            raise ReplayError(f"{where}{format_dice(claim.roll, ' ')} is a Farkle: nothing can be set aside")
        return state
    if claim.action == "farkle":
        raise ReplayError(f"{where}{format_dice(claim.roll, ' ')} is not a Farkle")
    complaint = None if vet is None else vet(state, claim)
    if complaint is not None:
        raise ReplayError(f"{where}{complaint}")
    try:
        return play(state, source, claim.keep, claim.action)
    except MatchError as exc:
        raise ReplayError(f"{where}{exc}") from None


def replay(
    setup: Setup,
    claims: Iterable[Claim],
    *,
    hints: int = 0,
    showing: tuple[tuple[int, ...], tuple[int, ...]] = ((), ()),
    vet: Vet | None = None,
    source: DiceSource | None = None,
) -> MatchState:
    """The game the ``claims`` make on the dice of ``setup`` (or of ``source``), every move
    checked on its way (see :func:`replay_move`); then the roll ``showing`` with its
    set-aside, when the game was saved between two moves.

    A saved game can be edited, so only its moves and its dice are trusted: the points, the
    scores and the turns come from playing them again. A game whose dice were drawn as they
    were rolled is played again on the rolls its moves show, in order (each move is one roll).
    """
    if source is None and isinstance(setup.dice, Drawn):
        claims = list(claims)
        rolls = [c.roll for c in claims] + ([showing[0]] if showing[0] else [])
        source = recorded_source(dict(enumerate(rolls, 1)))
    source = setup.source() if source is None else source
    state = replace(new_match(setup), hints=hint_count(hints))
    count = 0
    for i, claim in enumerate(claims):
        state = replay_move(state, source, i, claim, vet)
        count = i + 1
    if len(state.log) > count:
        missing = state.log[count]
        raise ReplayError(
            f"the moves stop before move {count + 1}, the Farkle on {format_dice(missing.roll, ' ')}"
        )
    rolled, kept = showing
    if rolled:
        if state.phase == "roll":
            try:
                state = roll(state, source)
            except MatchError as exc:
                raise ReplayError(f"the roll showing: {exc}") from None
        if state.roll != rolled:
            raise ReplayError("the roll showing is not the next roll of the game's dice")
        if kept:
            state = set_aside(state, kept)
    return state


def rebuilt(saved: MatchState, setup: Setup | None = None, *, vet: Vet | None = None) -> MatchState:
    """``saved`` played again from its moves on the dice of ``setup`` (by default its own), each
    decision looked at by ``vet`` first, if given."""
    return replay(
        saved.setup if setup is None else setup,
        (m.claim for m in saved.log),
        hints=saved.hints,
        showing=(saved.roll, saved.kept),
        vet=vet,
    )
