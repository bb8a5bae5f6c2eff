"""Whole games for one to four players: plain data and pure transitions.

A :class:`Setup` fixes who plays (each player a person or a computer :class:`Level`), the
rule table with its house rules (target, opening minimum, three-Farkle penalty), the
:class:`Form` of the game, whether a coach is on, and the seed of the dice. A
:class:`MatchState` is everything about a game in progress and is saved as JSON after
every action (:meth:`MatchState.to_dict`, :meth:`MatchState.from_dict`).

House rules, as the design reads them:

* a player with nothing banked may not bank a turn worth less than the opening minimum;
* a third Farkle in a row costs the penalty (never below 0) and starts the count again;
  banking ends a run of Farkles;
* when a player banks to the target or more, every other player gets exactly one last
  turn (the final round); then the highest score wins and equal top scores share the win.

Solo has two forms: ten turns for the highest score, and the target in as few turns as
possible (a Farkle costs a turn).

Dice come from a :data:`~farkle_trainer.training.games.turn.DiceSource`: a pure function of
the roll number within the game and the die's place, so a seed reproduces a game, a saved
game resumes on the same dice, and nobody (person or computer) can see a roll before it is
thrown: the state holds no dice that have not been rolled. State in, state out::

    state = new_match(setup)
    state = roll(state, source)          # after a Farkle, already the next player's turn
    state = set_aside(state, (1, 5))
    state = bank(state)                  # or roll_on(state, source)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, fields, replace
from enum import StrEnum
from typing import Any

from farkle_trainer.engine.dice import counts_of, is_subset
from farkle_trainer.engine.errors import InputError
from farkle_trainer.engine.rules import PRESETS, Rules
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.engine.solver import STEP
from farkle_trainer.training.classroom.codes import code_stream, normalize_code
from farkle_trainer.training.games import turn
from farkle_trainer.training.games.game import seeded_source
from farkle_trainer.training.games.turn import Action, DiceSource, GameError, Phase

MATCH_VERSION = 1
MIN_TARGET = 1_000
MAX_TARGET = 20_000
PENALTIES: tuple[int, ...] = (0, 500, 1_000)
MAX_PLAYERS = 4
#: A name is shown in every turn's line and the scores: longer ones would flood them.
MAX_NAME = 20
SOLO_TURNS = 10
#: A Farkle this many times in a row costs the penalty.
FARKLES_FOR_PENALTY = 3


#: A game that cannot be set up, a move the game does not allow now, or a bad saved game.
MatchError = GameError


class Level(StrEnum):
    """How a computer plays (see :mod:`~farkle_trainer.training.games.computers`)."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


class Form(StrEnum):
    """What a game is played for."""

    #: Two to four players race to the target, with a final round.
    MATCH = "match"
    #: Solo: the highest score in ten turns.
    TEN_TURNS = "ten-turns"
    #: Solo: the target in as few turns as possible.
    FEWEST_TURNS = "fewest-turns"


class GameKind(StrEnum):
    """Who plays, which decides whether a game can be rated (see :func:`is_rated`)."""

    SOLO = "solo"
    #: One person against one to three computers.
    COMPUTER = "computer"
    #: Two or more people at one keyboard (computers may join).
    PASS_AND_PLAY = "pass-and-play"
    #: Computers only: a demonstration, never anyone's result.
    COMPUTERS = "computers"


@dataclass(frozen=True)
class Player:
    """A seat at the table: a person (``level`` None) or a computer of a level."""

    name: str
    level: Level | None = None

    @property
    def human(self) -> bool:
        return self.level is None


@dataclass(frozen=True)
class Setup:
    """Everything fixed before the first roll. The house rules live in ``rules``."""

    players: tuple[Player, ...]
    rules: Rules = PRESETS["classic"]
    form: Form = Form.MATCH
    coached: bool = False
    seed: str = ""
    #: A class code (normalized): the dice are the code's, the same for the whole class.
    code: str = ""
    #: The seed was chosen by the player (``--seed``): the dice can be known in advance.
    chosen_seed: bool = False

    def __post_init__(self) -> None:
        players = self.players
        if self.form == Form.MATCH and not 2 <= len(players) <= MAX_PLAYERS:
            raise MatchError(f"a game to the target has 2 to {MAX_PLAYERS} players, not {len(players)}")
        if self.form != Form.MATCH and (len(players) != 1 or not players[0].human):
            raise MatchError("a solo game has exactly one player, a person")
        if self.code and normalize_code(self.code) != self.code:
            raise MatchError(f"the class code must be written as {normalize_code(self.code)}")
        names = [p.name.strip() for p in players]
        if any(not n for n in names) or any(n != p.name for n, p in zip(names, players, strict=True)):
            raise MatchError("every player needs a name without spaces around it")
        for name in names:
            _check_name(name)
        if len({n.casefold() for n in names}) != len(names):
            raise MatchError("two players cannot share a name")
        target, opening, penalty = self.target, self.opening, self.penalty
        if target % STEP or not MIN_TARGET <= target <= MAX_TARGET:
            raise MatchError(f"the target must be a multiple of {STEP} from {MIN_TARGET:,} to {MAX_TARGET:,}")
        if opening % STEP or not 0 <= opening <= target:
            raise MatchError(f"the opening minimum must be a multiple of {STEP} from 0 to the target")
        if penalty not in PENALTIES:
            raise MatchError("the three-Farkle penalty is 0, 500 or 1,000 points")
        if penalty and any(p.level == Level.HARD for p in players):
            # Hard plays by the exact chance of winning, which the game solver does not give
            # with the penalty (see engine.gamesolver).
            raise MatchError("a Hard computer cannot play with the three-Farkle penalty")

    @property
    def target(self) -> int:
        return self.rules.target

    @property
    def opening(self) -> int:
        return self.rules.opening_minimum

    @property
    def penalty(self) -> int:
        return self.rules.three_farkle_penalty

    @property
    def size(self) -> int:
        return len(self.players)

    @property
    def humans(self) -> tuple[int, ...]:
        """The seats of the people playing."""
        return tuple(i for i, p in enumerate(self.players) if p.human)

    @property
    def kind(self) -> GameKind:
        if self.form != Form.MATCH:
            return GameKind.SOLO
        people = len(self.humans)
        if people == 0:
            return GameKind.COMPUTERS
        return GameKind.COMPUTER if people == 1 else GameKind.PASS_AND_PLAY

    def source(self) -> DiceSource:
        """The game's dice: the same seed (or class code) gives the same dice to the same choices."""
        if self.code:
            return seeded_source(code_stream(self.code, "play"))
        return seeded_source(Stream(f"match:{self.seed}"))

    def rotated(self) -> Setup:
        """The same game with every seat moved one place on: the second player starts."""
        return replace(self, players=(*self.players[1:], self.players[0]))

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": [{"name": p.name, "level": p.level and p.level.value} for p in self.players],
            "rules": _rules_data(self.rules),
            "form": self.form.value,
            "coached": self.coached,
            "seed": self.seed,
            "code": self.code,
            "chosen_seed": self.chosen_seed,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Setup:
        players = tuple(
            Player(str(p["name"]), None if p["level"] is None else Level(p["level"])) for p in data["players"]
        )
        coached = data["coached"]
        if not isinstance(coached, bool):
            raise MatchError("coached must be true or false")
        # Games saved before class codes have none.
        code = data.get("code", "")
        if not isinstance(code, str):
            raise MatchError("the class code must be text")
        # Games saved before chosen seeds were told apart were drawn by the program.
        chosen_seed = data.get("chosen_seed", False)
        if not isinstance(chosen_seed, bool):
            raise MatchError("chosen_seed must be true or false")
        return cls(
            players=players,
            rules=_rules_from_data(data["rules"]),
            form=Form(data["form"]),
            coached=coached,
            seed=str(data["seed"]),
            code=code,
            chosen_seed=chosen_seed,
        )


def _check_name(name: str) -> None:
    """A name is printed as it is, on a terminal too: a control character in it (an escape, a
    tab, a line break, a right-to-left mark) would act on the screen instead of showing."""
    if len(name) > MAX_NAME:
        raise MatchError(f"a player's name has at most {MAX_NAME} characters, not {len(name):,}")
    if any(unicodedata.category(c)[0] == "C" or unicodedata.category(c) in ("Zl", "Zp") for c in name):
        # repr shows each such character escaped, so the message itself is safe to print.
        raise MatchError(
            f"a player's name cannot contain control characters (escapes, tabs, line breaks): {name!r}"
        )


def is_rated(setup: Setup, *, hinted: bool) -> bool:
    """A game counts in stats and records only as one person against the computer, with no
    coach and no hint asked, on dice nobody could know in advance; coached games, pass and
    play, solo and games on a chosen seed or a class code's dice are training."""
    known_dice = setup.chosen_seed or bool(setup.code)
    return setup.kind == GameKind.COMPUTER and not setup.coached and not hinted and not known_dice


def new_setup(
    players: Sequence[Player],
    rules: Rules | None = None,
    *,
    form: Form = Form.MATCH,
    target: int | None = None,
    opening: int | None = None,
    penalty: int | None = None,
    coached: bool = False,
    seed: str = "",
    code: str = "",
    chosen_seed: bool = False,
) -> Setup:
    """A setup with the house rules given here replacing the rule table's own."""
    base = PRESETS["classic"] if rules is None else rules
    try:
        combined = base.with_house_rules(opening_minimum=opening, three_farkle_penalty=penalty, target=target)
    except InputError as exc:
        raise MatchError(str(exc)) from None
    return Setup(tuple(players), combined, form, coached, seed, code, chosen_seed)


_RULE_FIELDS = {f.name: f.type for f in fields(Rules)}


def _rules_data(rules: Rules) -> dict[str, Any]:
    data = asdict(rules)
    data["triples"] = list(rules.triples)
    return data


def _rules_from_data(data: dict[str, Any]) -> Rules:
    if set(data) != set(_RULE_FIELDS):
        raise MatchError("the saved rules do not have the fields of a rule table")
    values = dict(data)
    triples = values["triples"]
    if not isinstance(triples, list) or len(triples) != 6:
        raise MatchError("the saved rules need six three-of-a-kind values")
    values["triples"] = tuple(triples)
    for name, value in values.items():
        if name in ("name", "description", "of_a_kind"):
            if not isinstance(value, str):
                raise MatchError(f"the saved rule {name} must be text")
        elif name == "triples":
            if not all(_points(v) for v in value):
                raise MatchError("the saved three-of-a-kind values must be points")
        elif value is not None and not _points(value):
            raise MatchError(f"the saved rule {name} must be points")
    if values["of_a_kind"] not in ("fixed", "multiply"):
        raise MatchError("the saved four-of-a-kind mode must be fixed or multiply")
    return Rules(**values)


def _points(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


# -- the state


@dataclass(frozen=True)
class Move:
    """One roll and what became of it, with what every player could see when it was rolled.

    ``turn`` counts every player's turns from 1. ``points`` were at stake before the roll;
    ``scores`` are everyone's banked scores then, ``farkles`` the mover's Farkles in a row
    before this turn, and ``last_turn`` says the turn was in the final round.
    """

    seat: int
    turn: int
    roll_number: int
    roll: tuple[int, ...]
    points: int
    keep: tuple[int, ...]
    action: Action
    scores: tuple[int, ...]
    farkles: int
    last_turn: bool

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

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "turn": self.turn,
            "roll_number": self.roll_number,
            "roll": list(self.roll),
            "points": self.points,
            "keep": list(self.keep),
            "action": self.action,
            "scores": list(self.scores),
            "farkles": self.farkles,
            "last_turn": self.last_turn,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Move:
        action = data["action"]
        if action not in ("bank", "roll", "farkle"):
            raise MatchError(f"unknown action {action!r}")
        return cls(
            seat=int(data["seat"]),
            turn=int(data["turn"]),
            roll_number=int(data["roll_number"]),
            roll=turn.faces(data["roll"]),
            points=int(data["points"]),
            keep=turn.faces(data["keep"]),
            action=action,
            scores=tuple(int(s) for s in data["scores"]),
            farkles=int(data["farkles"]),
            last_turn=_flag(data["last_turn"]),
        )


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
    def last_turn(self) -> bool:
        """The turn being played is a last turn of the final round."""
        return self.closer is not None

    @property
    def stake(self) -> int:
        """Turn points at stake when the dice showing were rolled."""
        return self.points - _points_of(self.rules, self.kept)

    @property
    def can_bank(self) -> bool:
        """Whether banking now would be allowed (the opening minimum)."""
        return self.phase == "choose" and (self.scores[self.seat] > 0 or self.points >= self.setup.opening)

    @property
    def hinted(self) -> bool:
        return self.hints > 0

    @property
    def rated(self) -> bool:
        return is_rated(self.setup, hinted=self.hinted)

    @property
    def decisions(self) -> tuple[Move, ...]:
        return tuple(m for m in self.log if m.decision)

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
        """The state :meth:`to_dict` gave; :class:`MatchError` for anything else."""
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
                hints=int(data["hints"]),
                log=tuple(Move.from_dict(m) for m in data["log"]),
            )
        except MatchError as exc:
            raise MatchError(f"the saved game cannot be read: {exc}") from None
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise MatchError(f"the saved game cannot be read: {exc!r}") from None
        _check_consistent(state)
        return state


def final_winners(state: MatchState, resigned: int | None = None) -> tuple[int, ...] | None:
    """Who won a game that has ended: over, or given up by the seat ``resigned``. A game to the
    target given up ends for everyone: the other players with the top score win (equal top
    scores share the win). None while the game goes on, and for a solo game given up."""
    if state.over:
        return state.winners()
    if resigned is None or state.setup.form != Form.MATCH:
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
        raise MatchError("the saved game cannot be read: its scores, turns and dice do not add up")


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


# -- transitions


def new_match(setup: Setup) -> MatchState:
    """The first player to roll six dice, everyone on 0."""
    zeros = (0,) * setup.size
    return MatchState(setup=setup, scores=zeros, turns=zeros, farkles=zeros)


def _need(state: MatchState, phase: Phase, doing: str) -> None:
    turn.need(state.phase, phase, doing)


def _move(state: MatchState, keep: tuple[int, ...], action: Action) -> Move:
    return Move(
        seat=state.seat,
        turn=state.turn,
        roll_number=state.rolls,
        roll=state.roll,
        points=state.stake,
        keep=keep,
        action=action,
        scores=state.scores,
        farkles=state.farkles[state.seat],
        last_turn=state.last_turn,
    )


def _throw(state: MatchState, source: DiceSource) -> MatchState:
    number = state.rolls + 1
    dice = tuple(source(number, place) for place in range(1, state.dice + 1))
    counts_of(dice)
    state = replace(state, rolls=number, roll=dice, kept=())
    if not score_table(state.rules).is_farkle(counts_of(dice)):
        return state
    state = replace(state, log=(*state.log, _move(state, (), "farkle")))
    seat = state.seat
    run = state.farkles[seat] + 1
    score = state.scores[seat]
    if run == FARKLES_FOR_PENALTY:
        if state.setup.penalty:
            score = max(0, score - state.setup.penalty)
        run = 0
    return _end_turn(state, score, run)


def _set(values: tuple[int, ...], seat: int, value: int) -> tuple[int, ...]:
    return (*values[:seat], value, *values[seat + 1 :])


def _end_turn(state: MatchState, score: int, run: int) -> MatchState:
    seat = state.seat
    setup = state.setup
    scores = _set(state.scores, seat, score)
    turns = _set(state.turns, seat, state.turns[seat] + 1)
    closer = state.closer
    if setup.form == Form.MATCH and closer is None and score >= setup.target:
        closer = seat
    following = (seat + 1) % setup.size
    if setup.form == Form.MATCH:
        finished = closer is not None and following == closer
    elif setup.form == Form.TEN_TURNS:
        finished = turns[seat] >= SOLO_TURNS
    else:
        finished = score >= setup.target
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


def bank(state: MatchState) -> MatchState:
    """Bank the turn's points; the next player's turn starts, or the game ends."""
    _need(state, "choose", "bank")
    if not state.can_bank:
        raise MatchError(
            f"a player on 0 cannot bank less than the opening minimum of {state.setup.opening:,}"
        )
    state = replace(state, log=(*state.log, _move(state, state.kept, "bank")))
    return _end_turn(state, state.scores[state.seat] + state.points, 0)


def roll_on(state: MatchState, source: DiceSource) -> MatchState:
    """Roll the dice left (six after hot dice) with the turn's points at stake."""
    _need(state, "choose", "roll on")
    state = replace(state, log=(*state.log, _move(state, state.kept, "roll")))
    return _throw(state, source)


def ask_hint(state: MatchState) -> MatchState:
    """Note that a person asked for a hint: the game is training from now on."""
    if state.over or not state.player.human:
        raise MatchError("hints are for a person's own turn")
    return replace(state, hints=state.hints + 1)
