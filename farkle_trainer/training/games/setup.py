"""What is fixed before a game's first roll: who plays, the rules, the form and the dice.

A :class:`Setup` fixes who plays (each player a person or a computer :class:`Level`), the
rule table with its house rules (target, opening minimum, three-Farkle penalty), the
:class:`Form` of the game, whether a coach is on, and where the dice come from: one
:data:`~farkle_trainer.training.games.dice.Dice` value, a seed (drawn by the program, or
chosen), a class code's stream, the day, or, for a rated game, the operating system as each
roll is thrown (see :func:`dealt`).

Every game is one of these, down to the ten-turn game everyone plays on shared dice
(:data:`TEN_TURNS`): the daily game is that game on the day's dice, a class challenge the
same on its code's.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, replace
from datetime import date
from enum import StrEnum
from typing import Any

from farkle_trainer.engine.errors import InputError
from farkle_trainer.engine.rules import (
    PRESETS,
    Rules,
    RulesError,
    as_rule_file,
    rules_from_mapping,
)
from farkle_trainer.engine.solver import STEP
from farkle_trainer.training.classroom.codes import normalize_code
from farkle_trainer.training.games.dice import (
    DICE_KINDS,
    NO_SEED,
    ClassCode,
    Day,
    Dice,
    DiceSource,
    Drawn,
    dice_data,
    dice_from_data,
)
from farkle_trainer.training.games.turn import GameError

MIN_TARGET = 1_000
MAX_TARGET = 20_000
PENALTIES: tuple[int, ...] = (0, 500, 1_000)
MAX_PLAYERS = 4
#: A name is shown in every turn's line and the scores: longer ones would flood them.
MAX_NAME = 20
SOLO_TURNS = 10

#: A game that cannot be set up, a move the game does not allow now, or a bad saved game.
MatchError = GameError


class Level(StrEnum):
    """How a computer plays (see :mod:`~farkle_trainer.training.games.computers`)."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


class Form(StrEnum):
    """What a game is played for. A caller asks the form what it needs to know (:attr:`solo`,
    :attr:`turn_limit`, :attr:`for_turns`, :meth:`over_alone`) rather than which form it is."""

    #: Two to four players race to the target, with a final round.
    MATCH = "match"
    #: Solo: the highest score in ten turns.
    TEN_TURNS = "ten-turns"
    #: Solo: the target in as few turns as possible.
    FEWEST_TURNS = "fewest-turns"

    @property
    def solo(self) -> bool:
        """Played by one person alone: no other player, no final round, nobody else to win."""
        return self is not Form.MATCH

    @property
    def turn_limit(self) -> int | None:
        """How many turns the game lasts, where a count of turns ends it (ten solo turns, for the
        highest score); None where the target does."""
        return SOLO_TURNS if self is Form.TEN_TURNS else None

    @property
    def for_turns(self) -> bool:
        """Played for the fewest turns to the target, alone: a Farkle costs a turn."""
        return self is Form.FEWEST_TURNS

    def over_alone(self, turns: int, score: int, target: int) -> bool:
        """Whether a solo game of this form is over after ``turns`` turns banked to ``score``."""
        limit = self.turn_limit
        return turns >= limit if limit is not None else score >= target


class OffRules(StrEnum):
    """What of a game's rules keeps it from being rated (see :func:`off_rules`)."""

    #: The scoring table is not exactly one of the presets (a rule file, or a preset changed).
    TABLE = "table"
    TARGET = "target"
    OPENING = "opening"


#: The house rules a rated game is played with: those of the rule references (``seeds/``), as
#: the design reads them; any other value makes a game of the player's own, and training. (A
#: game's three-Farkle penalty is always one of theirs: see PENALTIES.)
RATED_TARGETS: tuple[int, ...] = (2_000, 5_000, 10_000)
RATED_OPENINGS: tuple[int, ...] = (0, 350, 500, 1_000)


def off_rules(rules: Rules) -> OffRules | None:
    """What of ``rules`` is not a preset with the references' house rules, None when all is.

    A table counts as a preset when it scores exactly as the preset of its name does: a rule file
    that changes any value, or names a preset's values otherwise, is a table of its own.
    """
    base = PRESETS.get(rules.name)
    if base is None or _without_house(rules) != _without_house(base):
        return OffRules.TABLE
    if rules.target not in RATED_TARGETS:
        return OffRules.TARGET
    if rules.opening_minimum not in RATED_OPENINGS:
        return OffRules.OPENING
    return None


def _without_house(rules: Rules) -> Rules:
    return replace(rules, opening_minimum=0, three_farkle_penalty=0, target=10_000)


class GameKind(StrEnum):
    """Who plays, which decides whether a game can be rated (see :func:`is_rated`)."""

    SOLO = "solo"
    #: One person against one to three computers (rated only against one: see :func:`is_rated`).
    COMPUTER = "computer"
    #: Two or more people at one keyboard (computers may join).
    PASS_AND_PLAY = "pass-and-play"
    #: Computers only: a demonstration, never anyone's result.
    COMPUTERS = "computers"

    @property
    def one_person(self) -> bool:
        """One person at the keyboard, alone or against computers: their decisions are the owner's
        of the data directory (in pass and play they are nobody's, in a game of computers none)."""
        return self in (GameKind.SOLO, GameKind.COMPUTER)


class Unrated(StrEnum):
    """Why a game is training: the first rule of :func:`is_rated` that it does not meet, in the
    order its header gives them."""

    SOLO = "solo"
    PASS_AND_PLAY = "pass-and-play"
    COMPUTERS_ONLY = "computers-only"
    #: One person against two or three computers.
    SEVERAL_COMPUTERS = "several-computers"
    COACHED = "coached"
    #: A chosen seed, a class code or the day: dice that can be known in advance.
    KNOWN_DICE = "known-dice"
    #: A table, target or opening of the player's own (see :func:`off_rules`).
    OFF_RULES = "off-rules"
    HINTED = "hinted"


#: What keeps a game of each kind but one person against computers from being rated.
_UNRATED_KINDS = {
    GameKind.SOLO: Unrated.SOLO,
    GameKind.PASS_AND_PLAY: Unrated.PASS_AND_PLAY,
    GameKind.COMPUTERS: Unrated.COMPUTERS_ONLY,
}


@dataclass(frozen=True)
class Player:
    """A seat at the table: a person (``level`` None) or a computer of a level."""

    name: str
    level: Level | None = None

    @property
    def human(self) -> bool:
        return self.level is None


def seats(entries: Sequence[str | Level | Player]) -> tuple[Player, ...]:
    """The players of a game, in order: a person by name, a computer by its :class:`Level` (named
    after it: ``Hard``, and a second one ``Hard 2``), or a :class:`Player` as it is."""
    players: list[Player] = []
    for entry in entries:
        if isinstance(entry, Player):
            players.append(entry)
        elif isinstance(entry, Level):
            name = entry.value.capitalize()
            taken = sum(1 for p in players if p.level is not None and p.name.split(" ")[0] == name)
            players.append(Player(f"{name} {taken + 1}" if taken else name, entry))
        elif isinstance(entry, str):
            players.append(Player(entry))
        else:
            raise MatchError(f"a player is a name, a Level or a Player, not {entry!r}")
    return tuple(players)


@dataclass(frozen=True)
class Setup:
    """Everything fixed before the first roll. The house rules live in ``rules``."""

    players: tuple[Player, ...]
    rules: Rules = PRESETS["classic"]
    form: Form = Form.MATCH
    coached: bool = False
    #: Where the dice come from.
    dice: Dice = NO_SEED

    def __post_init__(self) -> None:
        players = self.players
        if not self.form.solo and not 2 <= len(players) <= MAX_PLAYERS:
            raise MatchError(f"a game to the target has 2 to {MAX_PLAYERS} players, not {len(players)}")
        if self.form.solo and (len(players) != 1 or not players[0].human):
            raise MatchError("a solo game has exactly one player, a person")
        if not isinstance(self.dice, DICE_KINDS):
            raise MatchError(
                f"a game's dice come from a seed, a class code or a day, or are drawn: not {self.dice!r}"
            )
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
        if self.form.solo:
            return GameKind.SOLO
        people = len(self.humans)
        if people == 0:
            return GameKind.COMPUTERS
        return GameKind.COMPUTER if people == 1 else GameKind.PASS_AND_PLAY

    @property
    def class_code(self) -> str | None:
        """The class code whose dice the game is played on, if any."""
        return self.dice.code if isinstance(self.dice, ClassCode) else None

    def source(self) -> DiceSource:
        """The game's dice: the same seed, class code or day gives the same dice to the same
        choices; a rated game's are drawn as they are rolled."""
        return self.dice.source()

    def rotated(self) -> Setup:
        """The same game with every seat moved one place on: the second player starts."""
        return replace(self, players=(*self.players[1:], self.players[0]))

    def again(self) -> Setup:
        """The game played again: every seat moved one place on, on the dice a new game of it is
        dealt (the same ones where they were chosen, a class code's or the day's; new ones where
        the program drew the seed; drawn as they are rolled for a rated game)."""
        return replace(self.rotated(), dice=self.dice.again())

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": [{"name": p.name, "level": p.level and p.level.value} for p in self.players],
            "rules": _rules_data(self.rules),
            "form": self.form.value,
            "coached": self.coached,
            **dice_data(self.dice),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Setup:
        players = tuple(
            Player(str(p["name"]), None if p["level"] is None else Level(p["level"])) for p in data["players"]
        )
        coached = data["coached"]
        if not isinstance(coached, bool):
            raise MatchError("coached must be true or false")
        if "seed" not in data:
            raise KeyError("seed")
        return cls(
            players=players,
            rules=_rules_from_data(data["rules"]),
            form=Form(data["form"]),
            coached=coached,
            dice=dice_from_data(data),
        )


def _check_name(name: str) -> None:
    if len(name) > MAX_NAME:
        raise MatchError(f"a player's name has at most {MAX_NAME} characters, not {len(name):,}")
    _check_text("a player's name", name)


def _check_text(what: str, text: str) -> None:
    """A name is printed as it is, on a terminal too: a control character in it (an escape, a
    tab, a line break, a right-to-left mark) would act on the screen instead of showing."""
    if any(unicodedata.category(c)[0] == "C" or unicodedata.category(c) in ("Zl", "Zp") for c in text):
        # repr shows each such character escaped, so the message itself is safe to print.
        raise MatchError(f"{what} cannot contain control characters (escapes, tabs, line breaks): {text!r}")


def is_rated(setup: Setup, *, hinted: bool) -> bool:
    """A game counts in stats and records only as one person against one computer, on a preset
    with the references' house rules (:func:`off_rules`), with no coach and no hint asked, on
    dice nobody could know in advance; every other game is training.

    One computer, because only there is a result worth recording: the game is graded by the
    exact chance of winning, and a record against a level reads against an even game's half.
    Against two or three computers neither holds (decisions are graded in points, the
    computers play against whoever leads, and a fair share of wins is a third or a quarter
    only when everyone plays alike), so those games are training, as pass and play, solo,
    coached games and games on a chosen seed, a class code's or a day's dice are. A table of
    one's own, or a target or opening of one's own, makes a game no one else plays: its results
    read against nobody's, so it is training too.
    """
    return unrated_because(setup, hinted=hinted) is None


def unrated_because(setup: Setup, *, hinted: bool) -> Unrated | None:
    """Why a game of ``setup`` (``hinted``: a hint was asked) is training; None for a rated game
    (see :func:`is_rated`)."""
    kind = setup.kind
    if kind is not GameKind.COMPUTER:
        return _UNRATED_KINDS[kind]
    if setup.size > 2:
        return Unrated.SEVERAL_COMPUTERS
    if setup.coached:
        return Unrated.COACHED
    if setup.dice.known_in_advance:
        return Unrated.KNOWN_DICE
    if off_rules(setup.rules) is not None:
        return Unrated.OFF_RULES
    return Unrated.HINTED if hinted else None


def rated_by_an_earlier_rule(setup: Setup) -> bool:
    """A game of one person against two or three computers, or on rules that are not a preset
    with the references' house rules: versions before :func:`is_rated` kept rated games to one
    computer on those rules rated it, so a store may hold it as rated. It is training."""
    return setup.kind is GameKind.COMPUTER and (setup.size > 2 or off_rules(setup.rules) is not None)


def dealt(setup: Setup) -> Setup:
    """``setup`` on the dice a new game of it is played on. A game that will be rated draws each
    roll from the operating system as it is thrown: a seed kept in the store would tell every
    roll before it comes. Any other game keeps its seed, class code or day, so it can be played
    again on the same dice."""
    if isinstance(setup.dice, Drawn) or not is_rated(setup, hinted=False):
        return setup
    return replace(setup, dice=Drawn())


def new_setup(
    players: Sequence[Player],
    rules: Rules | None = None,
    *,
    form: Form = Form.MATCH,
    target: int | None = None,
    opening: int | None = None,
    penalty: int | None = None,
    coached: bool = False,
    dice: Dice = NO_SEED,
) -> Setup:
    """A setup with the house rules given here replacing the rule table's own."""
    base = PRESETS["classic"] if rules is None else rules
    try:
        combined = base.with_house_rules(opening_minimum=opening, three_farkle_penalty=penalty, target=target)
    except InputError as exc:
        raise MatchError(str(exc)) from None
    return Setup(tuple(players), combined, form, coached, dice)


_RULE_FIELDS = {f.name: f.type for f in fields(Rules)}
#: The fields of the rules every saved game and game file has held since they were first written.
#: A field added since (a house rule, say) is written only where it is not its default, so a game
#: without it is saved as it always was; a saved game without it was played without it.
_FIRST_FIELDS = frozenset(
    {
        "name",
        "single_one",
        "single_five",
        "triples",
        "of_a_kind",
        "four_of_a_kind",
        "five_of_a_kind",
        "six_of_a_kind",
        "straight",
        "three_pairs",
        "four_of_a_kind_and_pair",
        "two_triplets",
        "partial_straight_low",
        "partial_straight_high",
        "opening_minimum",
        "three_farkle_penalty",
        "target",
        "description",
    }
)


def _rules_data(rules: Rules) -> dict[str, Any]:
    data = asdict(rules)
    data["triples"] = list(rules.triples)
    unchanged = {name for name in set(data) - _FIRST_FIELDS if data[name] == getattr(Rules(), name)}
    return {name: value for name, value in data.items() if name not in unchanged}


def _rules_from_data(data: Any) -> Rules:
    """Saved rules, checked as a rule file is (the same bounds, in the same words) before
    anything is built from them: a table of impossible points would fail deep in the solver."""
    if not isinstance(data, dict):
        raise MatchError("the saved rules do not have the fields of a rule table")
    # A field made since saved games were first written is there only where it is not its default.
    missing = set(_RULE_FIELDS) - set(data)
    if not set(data) <= set(_RULE_FIELDS) or missing & _FIRST_FIELDS:
        raise MatchError("the saved rules do not have the fields of a rule table")
    data = {**{name: getattr(Rules(), name) for name in missing}, **data}
    triples = data["triples"]
    if not isinstance(triples, list) or len(triples) != 6:
        raise MatchError("the saved rules need six three-of-a-kind values")
    if isinstance(data["name"], str):
        # The table's name is shown on every game's first line, as it is.
        _check_text("the rule table's name", data["name"])
    try:
        return rules_from_mapping(as_rule_file(data), source="the saved rules")
    except RulesError as exc:
        raise MatchError(str(exc)) from None


#: The ten-turn solo game on the classic table with no house rules: the daily game on the
#: day's dice (:func:`for_day`), a class challenge on its code's (:func:`for_challenge`).
TEN_TURNS = Setup((Player("You"),), form=Form.TEN_TURNS)


def for_day(day: date) -> Setup:
    """The daily game of ``day``."""
    return replace(TEN_TURNS, dice=Day(day))


def for_challenge(code: str) -> Setup:
    """The class challenge of the class code ``code``."""
    return replace(TEN_TURNS, dice=ClassCode(normalize_code(code), "challenge"))
