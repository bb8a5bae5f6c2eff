"""The ten-turn game on reproducible dice: plain data and pure transitions.

Every mode that plays whole games on dice everyone can reproduce (the daily game, class
challenges) plays this game: ten turns on the ``classic`` table with no house rules, and the
score is the total banked after turn 10.

Dice come from a :data:`DiceSource`, a pure function of the roll number within the game
(1, 2, 3, ... counting every roll of every turn) and the die's place in that roll (1 to 6).
Rolling ``n`` dice shows places 1 to ``n`` of the next roll number, so two players who make
the same choices see the same dice, and a player who keeps fewer dice sees the first places
of the same next roll.

A turn: roll; set aside scoring dice (every die set aside must score, at least one); then bank
the turn points or roll the dice left (all six again after hot dice). A roll in which nothing
scores is a Farkle: the turn's points are lost and the turn ends. State in, state out::

    state = new_game()
    state = roll(state, source)         # dice showing; after a Farkle, already the next turn
    state = set_aside(state, (1, 5))    # turn points grow; bank or roll on
    state = roll_on(state, source)      # or bank(state)

:func:`review` grades each decision of a game against :func:`farkle_trainer.engine.plays.hint`,
and :func:`account` splits a score into what perfect play is expected to score, the points the
player's decisions gave up and the luck of the dice. :func:`perfect_play` is the solver's own
game on the same dice source: one sample, not a ceiling, because its dice differ from the
player's after its first different choice (it is kept in the store for old rows and files).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from farkle_trainer.engine.dice import counts_of
from farkle_trainer.engine.grading import Grade
from farkle_trainer.engine.rules import PRESETS, Rules
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.training.games import turn
from farkle_trainer.training.games.turn import Action, DiceSource, GameError, Phase

if TYPE_CHECKING:
    from farkle_trainer.engine.decisions import Choice, Grading
    from farkle_trainer.engine.plays import Play
    from farkle_trainer.engine.seeded import Stream


TURNS = 10
#: Games are always played on this table, whatever rules a player uses elsewhere.
GAME_RULES: Rules = PRESETS["classic"]
STATE_VERSION = 1

#: A turn's mark in the share line: a Farkle, hot dice (and no Farkle), or neither.
FARKLE_MARK = "F"
HOT_DICE_MARK = "H"
PLAIN_MARK = "."


@dataclass(frozen=True)
class Move:
    """One roll and what became of it.

    ``points`` were at stake before the roll. ``keep`` is what was set aside (faces,
    ascending; empty after a Farkle) and ``action`` what followed: bank, roll on, or the
    Farkle that ended the turn.
    """

    turn: int
    roll_number: int
    roll: tuple[int, ...]
    points: int
    keep: tuple[int, ...]
    action: Action

    @property
    def decision(self) -> bool:
        """A choice the player made (a Farkle is not one)."""
        return self.action != "farkle"

    def to_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "roll_number": self.roll_number,
            "roll": list(self.roll),
            "points": self.points,
            "keep": list(self.keep),
            "action": self.action,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Move:
        action = data["action"]
        if action not in ("bank", "roll", "farkle"):
            raise GameError(f"unknown action {action!r}")
        return cls(
            turn=int(data["turn"]),
            roll_number=int(data["roll_number"]),
            roll=turn.faces(data["roll"]),
            points=int(data["points"]),
            keep=turn.faces(data["keep"]),
            action=action,
        )


@dataclass(frozen=True)
class GameState:
    """Everything about a game in progress; JSON-ready through :meth:`to_dict`.

    ``roll`` is the dice showing (in place order) until they are dealt with; ``kept`` what was
    set aside from them, until the player banks or rolls on. ``dice`` is how many dice the next
    roll throws and ``rolls`` how many rolls the game has had. ``hot`` says this turn has had
    hot dice. ``marks`` and ``scores`` have one entry per finished turn.
    """

    turn: int = 1
    banked: int = 0
    points: int = 0
    dice: int = 6
    roll: tuple[int, ...] = ()
    kept: tuple[int, ...] = ()
    rolls: int = 0
    hot: bool = False
    marks: tuple[str, ...] = ()
    scores: tuple[int, ...] = ()
    log: tuple[Move, ...] = ()

    @property
    def phase(self) -> Phase:
        """``roll`` at a turn's start, ``pick`` with dice showing, ``choose`` to bank or roll on."""
        if self.turn > TURNS:
            return "over"
        if self.kept:
            return "choose"
        if self.roll:
            return "pick"
        return "roll"

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def score(self) -> int:
        """The total banked; the game's score once it is over."""
        return self.banked

    @property
    def dice_left(self) -> int:
        """Dice left to roll after the set-aside: 0 after hot dice (when all six roll again)."""
        return len(self.roll) - len(self.kept)

    @property
    def kept_points(self) -> int:
        """What the dice set aside from the roll showing are worth (0 before a set-aside)."""
        if not self.kept:
            return 0
        split = score_table(GAME_RULES).split(counts_of(self.kept))
        assert split is not None
        return split.points

    @property
    def stake(self) -> int:
        """Turn points that were at stake when the dice showing were rolled."""
        return self.points - self.kept_points

    @property
    def decisions(self) -> tuple[Move, ...]:
        return tuple(m for m in self.log if m.decision)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "turn": self.turn,
            "banked": self.banked,
            "points": self.points,
            "dice": self.dice,
            "roll": list(self.roll),
            "kept": list(self.kept),
            "rolls": self.rolls,
            "hot": self.hot,
            "marks": "".join(self.marks),
            "scores": list(self.scores),
            "log": [m.to_dict() for m in self.log],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        """The state :meth:`to_dict` gave; :class:`GameError` for anything else."""
        try:
            if data["version"] != STATE_VERSION:
                raise GameError(f"saved by another version of the game ({data['version']!r})")
            state = cls(
                turn=int(data["turn"]),
                banked=int(data["banked"]),
                points=int(data["points"]),
                dice=int(data["dice"]),
                roll=turn.faces(data["roll"]),
                kept=turn.faces(data["kept"]),
                rolls=int(data["rolls"]),
                hot=bool(data["hot"]),
                marks=tuple(str(data["marks"])),
                scores=tuple(int(s) for s in data["scores"]),
                log=tuple(Move.from_dict(m) for m in data["log"]),
            )
        except GameError as exc:
            raise GameError(f"the saved game cannot be read: {exc}") from None
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise GameError(f"the saved game cannot be read: {exc!r}") from None
        if (
            not 1 <= state.turn <= TURNS + 1
            or not 1 <= state.dice <= 6
            or len(state.scores) != state.turn - 1
        ):
            raise GameError("the saved game cannot be read: its turn and dice do not add up")
        return state


# -- transitions


def new_game() -> GameState:
    """Turn 1, nothing banked, six dice to roll."""
    return GameState()


def _need(state: GameState, phase: Phase, doing: str) -> None:
    turn.need(state.phase, phase, doing)


def _throw(state: GameState, source: DiceSource) -> GameState:
    number = state.rolls + 1
    dice = tuple(source(number, place) for place in range(1, state.dice + 1))
    counts_of(dice)
    state = replace(state, rolls=number, roll=dice, kept=())
    if not score_table(GAME_RULES).is_farkle(counts_of(dice)):
        return state
    move = Move(state.turn, number, dice, state.points, (), "farkle")
    return _end_turn(replace(state, log=(*state.log, move)), FARKLE_MARK, 0)


def _end_turn(state: GameState, mark: str, scored: int) -> GameState:
    return replace(
        state,
        turn=state.turn + 1,
        banked=state.banked + scored,
        points=0,
        dice=6,
        roll=(),
        kept=(),
        hot=False,
        marks=(*state.marks, mark),
        scores=(*state.scores, scored),
    )


def roll(state: GameState, source: DiceSource) -> GameState:
    """Start a turn: roll six dice. A Farkle ends the turn at once (see :attr:`GameState.log`)."""
    _need(state, "roll", "roll")
    return _throw(state, source)


def check_set_aside(roll: tuple[int, ...], faces: Iterable[int]) -> tuple[int, ...]:
    """The faces (ascending) if they may be set aside from ``roll``, else :class:`GameError` saying why."""
    return turn.check_set_aside(GAME_RULES, roll, faces)


def set_aside(state: GameState, faces: Iterable[int]) -> GameState:
    """Set aside scoring dice from the roll showing; their points join the turn's.

    Setting aside every die showing is hot dice: the next roll is of all six.
    """
    _need(state, "pick", "set dice aside")
    picked = check_set_aside(state.roll, faces)
    split = score_table(GAME_RULES).split(counts_of(picked))
    assert split is not None
    left = len(state.roll) - len(picked)
    return replace(
        state,
        kept=picked,
        points=state.points + split.points,
        dice=left or 6,
        hot=state.hot or left == 0,
    )


def undo_set_aside(state: GameState) -> GameState:
    """Take back the set-aside of the dice showing, before the next roll is shown.

    Nothing new has been seen, so the dice may be picked again; the turn is as it was
    right after the roll.
    """
    _need(state, "choose", "take back the set-aside")
    # Hot dice earlier in this turn stay; only this set-aside's own are taken back.
    hot = any(m.turn == state.turn and m.action == "roll" and len(m.keep) == len(m.roll) for m in state.log)
    return replace(state, kept=(), points=state.stake, dice=len(state.roll), hot=hot)


def _decide(state: GameState, action: Action) -> GameState:
    move = Move(state.turn, state.rolls, state.roll, state.stake, state.kept, action)
    return replace(state, log=(*state.log, move))


def bank(state: GameState) -> GameState:
    """Bank the turn's points; the next turn starts (or the game ends after turn 10)."""
    _need(state, "choose", "bank")
    state = _decide(state, "bank")
    return _end_turn(state, HOT_DICE_MARK if state.hot else PLAIN_MARK, state.points)


def roll_on(state: GameState, source: DiceSource) -> GameState:
    """Roll the dice left (six after hot dice) with the turn's points at stake."""
    _need(state, "choose", "roll on")
    return _throw(_decide(state, "roll"), source)


def replay(saved: GameState, source: DiceSource) -> GameState:
    """The game ``saved``'s moves make on ``source``'s dice, rebuilt move by move.

    A saved state is the player's file to edit; only the moves and the dice are trusted, so
    the points, the banked score and the turn are recomputed from them. A move the dice do
    not allow (another roll, a set-aside that is not in it) raises :class:`GameError`.
    The set-aside showing when the game was saved is set aside again.
    """
    state = new_game()
    for i, move in enumerate(saved.log):
        # A Farkle is logged by the throw itself: it is in the log as soon as the dice are.
        if len(state.log) == i and state.phase == "roll":
            state = roll(state, source)
        if move.action == "farkle":
            if len(state.log) <= i or state.log[i] != move:
                raise GameError(f"move {i + 1} is a Farkle the day's dice do not give")
            continue
        if state.phase != "pick" or state.roll != move.roll:
            raise GameError(f"move {i + 1} is on a roll the day's dice do not give")
        state = set_aside(state, move.keep)
        state = bank(state) if move.action == "bank" else roll_on(state, source)
        if state.log[i] != move:
            raise GameError(f"move {i + 1} does not follow from the moves before it")
    if len(state.log) != len(saved.log):
        raise GameError("the saved moves do not follow from the day's dice")
    if saved.roll:
        if state.phase == "roll":
            state = roll(state, source)
        if state.roll != saved.roll:
            raise GameError("the roll showing is not the day's next roll")
        if saved.kept:
            state = set_aside(state, saved.kept)
    return state


def seeded_source(stream: Stream) -> DiceSource:
    """Dice from a seeded stream: each (roll number, place) draws from its own child stream."""

    def die(roll_number: int, place: int) -> int:
        return stream.child(f"{roll_number}:{place}").randint(1, 6)

    return die


# -- perfect play and review


def best_play(state: GameState) -> Play:
    """The solver's play for the dice showing: the most expected final turn score."""
    from farkle_trainer.engine.plays import hint

    h = hint(state.roll, state.points, GAME_RULES)
    assert h.best is not None
    return h.best


def perfect_game(source: DiceSource) -> GameState:
    """The game the exact solver's max-expected-score policy plays on ``source``.

    It keeps its own roll numbering, so it sees different rolls wherever it plays differently.
    """
    state = new_game()
    while not state.over:
        state = roll(state, source)
        while state.phase == "pick":
            play = best_play(state)
            state = set_aside(state, play.keep)
            state = roll_on(state, source) if play.expected.action == "roll" else bank(state)
    return state


def perfect_play(source: DiceSource) -> int:
    """The score :func:`perfect_game` reaches on ``source``."""
    return perfect_game(source).score


@dataclass(frozen=True)
class Review:
    """One decision of a game, graded on the one scale every activity uses.

    The decision is the keep drill of its roll and turn points under the game's rules, so a
    play gets the same grade and the same right or wrong here as in ``decide``.
    """

    move: Move
    grading: Grading

    @property
    def chosen(self) -> float:
        """The expected final turn score of the play made."""
        return self.grading.chosen.value

    @property
    def best(self) -> Choice:
        return self.grading.best

    @property
    def best_value(self) -> float:
        return self.grading.best.value

    @property
    def best_action(self) -> Literal["bank", "roll"]:
        return self.grading.best.action

    @property
    def lost(self) -> float:
        """Expected turn points the decision gave up (0 for a best play)."""
        return 0.0 if self.grading.grade == Grade.BEST else self.grading.lost

    @property
    def right(self) -> bool:
        return self.grading.right


def review_move(move: Move) -> Review:
    """Grade one decision as the keep drill of its roll and turn points."""
    from farkle_trainer.engine.decisions import Kind, Position, decision_for, grade

    if not move.decision:
        raise GameError("a Farkle is not a decision")
    d = decision_for(Position(GAME_RULES, Kind.KEEP, move.points, move.roll))
    assert move.action != "farkle"
    return Review(move, grade(d, move.keep, move.action))


def review(state: GameState) -> tuple[Review, ...]:
    """Every decision of a game, graded, in the order they were made."""
    return tuple(review_move(m) for m in state.decisions)


@dataclass(frozen=True)
class Account:
    """A finished game's score, split exactly into play and dice.

    ``perfect_expected``: what perfect play is expected to score over the game, ``TURNS``
    times the exact expected score of a turn from six dice and no points. ``given_up``: the
    expected points the player's decisions gave up, the sum of their exact losses. Then
    ``expected = perfect_expected - given_up`` is what the player's decisions were expected
    to score, and ``luck = score - expected`` is what the dice gave beyond that: every roll
    moves the expected final score of the turn by its luck, every decision lowers it by its
    loss, so the score is exactly ``perfect_expected - given_up + luck``, and luck averages 0.
    """

    score: int
    given_up: float
    perfect_expected: float

    @property
    def expected(self) -> float:
        return self.perfect_expected - self.given_up

    @property
    def luck(self) -> float:
        return self.score - self.expected


def expected_turn() -> float:
    """The exact expected score of a turn under perfect play on the game's table."""
    from farkle_trainer.engine.solver import Objective, solve

    return solve(GAME_RULES, Objective.expected()).expected_turn_score


def account(state: GameState, reviews: Iterable[Review]) -> Account:
    """Split the score of ``state`` (a game played to its end) into play and dice."""
    given_up = sum(r.grading.lost for r in reviews)
    return Account(state.score, given_up, TURNS * expected_turn())


def turn_summaries(state: GameState) -> list[dict[str, Any]]:
    """Each finished turn's number, points banked (0 after a Farkle), mark and rolls."""
    return [
        {
            "turn": turn,
            "score": scored,
            "mark": mark,
            "rolls": sum(1 for m in state.log if m.turn == turn),
        }
        for turn, (scored, mark) in enumerate(zip(state.scores, state.marks, strict=True), 1)
    ]
