"""Bank-or-roll drills: game moments to decide, graded against the exact solver.

A drill is a :class:`Position`: the turn points already set aside, the roll in front of
the player and what the player is playing for. The player's play is a selection of dice
plus an action (bank, or roll the dice left); it is worth what :func:`~farkle_trainer.engine.plays.hint`
says that play is worth, and it loses the difference to the best play.

Kinds of drill:

* ``bank-or-roll``: the dice are already set aside; only bank, or roll the dice left;
* ``keep``: which dice to set aside, then bank or roll (the full decision);
* ``final-round``: the leader has S, the player has B banked and must pass S this turn;
  the value of a play is its exact chance of passing, not its expected score;
* ``opening``: the player has nothing banked and may not bank a turn below the opening
  minimum (the rule set's, or 500 when it has none).

Grades, by what a play gives up against the best (:data:`POINT_GRADES`, :data:`CHANCE_GRADES`):

===========  ==========================  =========================================
grade        expected score given up     chance of passing given up (final round)
===========  ==========================  =========================================
best         under 0.005 points          under 0.005 percentage points
fine         under 5 points              under 0.5 percentage points
inaccuracy   under 20 points             under 2 percentage points
mistake      under 60 points             under 6 percentage points
blunder      60 points or more           6 percentage points or more
===========  ==========================  =========================================

A best or fine play counts as right (the position is not brought back for review).
Session ratings compare losses in one unit, where a percentage point of the chance of
passing counts as :data:`POINTS_PER_PERCENTAGE_POINT` points, the ratio the two grade
scales share (:data:`RATINGS`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

from farkle_trainer.engine.dice import counts_of, is_subset, size
from farkle_trainer.engine.errors import InputError
from farkle_trainer.engine.plays import Action, Hint, Play, hint, round_up
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.engine.solver import STEP, Objective, solve

Kind = Literal["bank-or-roll", "keep", "final-round", "opening"]
KINDS: tuple[Kind, ...] = ("bank-or-roll", "keep", "final-round", "opening")
Level = Literal["easy", "medium", "hard"]
LEVELS: tuple[Level, ...] = ("easy", "medium", "hard")
Grade = Literal["best", "fine", "inaccuracy", "mistake", "blunder"]
GRADES: tuple[Grade, ...] = ("best", "fine", "inaccuracy", "mistake", "blunder")
Unit = Literal["points", "chance"]

#: Upper bounds (exclusive) of each grade but the last, in points of expected score lost.
POINT_GRADES: tuple[float, float, float, float] = (0.005, 5.0, 20.0, 60.0)
#: The same in percentage points of the chance of passing the leader.
CHANCE_GRADES: tuple[float, float, float, float] = (0.005, 0.5, 2.0, 6.0)
POINTS_PER_PERCENTAGE_POINT = 10.0
#: Grades that count as a right answer.
RIGHT: frozenset[Grade] = frozenset({"best", "fine"})

#: A session's rating by its average loss per decision (points, see the module docstring):
#: the first entry whose bound the average is under.
RATINGS: tuple[tuple[float, str], ...] = (
    (1.0, "solver"),
    (3.0, "expert"),
    (7.0, "advanced"),
    (15.0, "intermediate"),
    (30.0, "casual"),
    (float("inf"), "beginner"),
)

#: Difficulty by how far the best play is ahead of the next best one (points).
LEVEL_GAPS: dict[Level, tuple[float, float]] = {
    "easy": (40.0, float("inf")),
    "medium": (10.0, 40.0),
    "hard": (0.0, 10.0),
}
#: Below this gap (points) two plays are a tie: a position whose plays all tie is no decision.
TIE = 0.005
#: Generation prefers close decisions: a candidate's weight is 1 / (1 + gap / CLOSE).
CLOSE = 15.0

DEFAULT_OPENING = 500


class DrillError(InputError):
    """A position or a play that is not possible: dice not in the roll, dice that don't score, ..."""


def opening_minimum(rules: Rules) -> int:
    """The opening minimum of opening drills: the rule set's own, else 500."""
    return rules.opening_minimum or DEFAULT_OPENING


@dataclass(frozen=True)
class Position:
    """One moment of a turn to decide.

    ``points``: turn points set aside before ``roll``, the dice in front of the player
    (in the order rolled, so they can be picked by place). ``kept``: for bank-or-roll
    drills, the dice of ``roll`` already set aside. ``leader`` and ``banked``: the
    scores of a final round. ``title``: the name of a built-in teaching position.
    """

    rules: Rules
    kind: Kind
    points: int
    roll: tuple[int, ...]
    kept: tuple[int, ...] | None = None
    opening: int = 0
    leader: int | None = None
    banked: int | None = None
    title: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise DrillError(f"unknown kind of drill {self.kind!r}: use {', '.join(KINDS)}")
        if self.points < 0 or self.points % STEP:
            raise DrillError(f"turn points must be a non-negative multiple of {STEP}, not {self.points}")
        counts = counts_of(self.roll)
        if not 1 <= size(counts) <= 6:
            raise DrillError(f"a roll has 1 to 6 dice, not {size(counts)}")
        if (self.kept is None) != (self.kind != "bank-or-roll"):
            raise DrillError(
                "the dice already set aside are given for bank-or-roll drills, and only for them"
            )
        if self.kept is not None:
            kept = counts_of(self.kept)
            split = score_table(self.rules).split(kept)
            if not is_subset(kept, counts) or split is None or not split.dice:
                raise DrillError(f"{self.kept} is not a scoring set-aside from the roll {self.roll}")
        if self.kind == "final-round":
            if self.leader is None or self.banked is None or not 0 <= self.banked < self.leader:
                raise DrillError("a final round needs the leader's score above the player's banked score")
        elif self.leader is not None or self.banked is not None:
            raise DrillError("only final-round drills have a leader")
        if self.opening < 0 or self.opening % STEP or (self.opening > 0) != (self.kind == "opening"):
            raise DrillError("opening drills, and only they, have an opening minimum (a multiple of 50)")

    @property
    def unit(self) -> Unit:
        """What values are in: expected points, or the chance of passing the leader."""
        return "chance" if self.kind == "final-round" else "points"

    @property
    def need(self) -> int | None:
        """Final round: the turn total that passes the leader (more than leader - banked)."""
        if self.leader is None or self.banked is None:
            return None
        return round_up(self.leader - self.banked + 1)

    @property
    def objective(self) -> Objective:
        need = self.need
        return Objective.reach(need) if need else Objective.expected(opening=self.opening)

    @property
    def at_stake(self) -> int:
        """Turn points after the set-aside already made (bank-or-roll), else before this roll's."""
        if self.kept is None:
            return self.points
        split = score_table(self.rules).split(counts_of(self.kept))
        assert split is not None
        return self.points + split.points

    @property
    def dice_to_roll(self) -> int | None:
        """Bank-or-roll: the dice a roll on would throw (6 after hot dice)."""
        if self.kept is None:
            return None
        return (len(self.roll) - len(self.kept)) or 6

    @property
    def item(self) -> str:
        """A stable key of the decision: the same decision always has the same key."""
        parts = [self.kind, self.rules.name, str(self.points), "".join(map(str, sorted(self.roll)))]
        if self.kept is not None:
            parts.append("kept" + "".join(map(str, sorted(self.kept))))
        if self.opening:
            parts.append(f"opening{self.opening}")
        if self.leader is not None:
            parts.append(f"leader{self.leader}-banked{self.banked}")
        return ":".join(parts)

    @property
    def family(self) -> str:
        """Positions alike enough that a miss on one calls for more of them."""
        if self.kind == "bank-or-roll":
            return f"{self.kind}:{self.dice_to_roll}"
        return f"{self.kind}:{len(self.roll)}"


def position_data(p: Position) -> dict[str, Any]:
    """A position as JSON-able data, to be asked again later (see :func:`position_from_data`)."""
    return {
        "kind": p.kind,
        "rules": p.rules.name,
        "rules_key": p.rules.scoring_key,
        "points": p.points,
        "roll": list(p.roll),
        "kept": None if p.kept is None else list(p.kept),
        "opening": p.opening,
        "leader": p.leader,
        "banked": p.banked,
        "title": p.title,
    }


def position_from_data(data: Mapping[str, Any] | None, rules: Rules) -> Position | None:
    """The position stored by :func:`position_data`, or None if it was made under other rules
    or cannot be read."""
    if not data or data.get("rules") != rules.name or data.get("rules_key") != rules.scoring_key:
        return None
    try:
        kept = data.get("kept")
        return Position(
            rules=rules,
            kind=data["kind"],
            points=int(data["points"]),
            roll=tuple(int(d) for d in data["roll"]),
            kept=None if kept is None else tuple(int(d) for d in kept),
            opening=int(data.get("opening") or 0),
            leader=data.get("leader"),
            banked=data.get("banked"),
            title=data.get("title"),
        )
    except (KeyError, TypeError, ValueError):
        return None


# -- the decision


@dataclass(frozen=True)
class Choice:
    """One legal play: a set-aside and an action, with its value under the position's objective."""

    keep: tuple[int, ...]
    score: int
    action: Action
    points_after: int
    dice_left: int  # 0 after hot dice
    value: float

    @property
    def dice_to_roll(self) -> int:
        return self.dice_left or 6

    @property
    def hot_dice(self) -> bool:
        return self.dice_left == 0


@dataclass(frozen=True)
class Decision:
    """Every legal play of a position, best first, valued by the exact solver."""

    position: Position
    hint: Hint
    choices: tuple[Choice, ...]

    @property
    def best(self) -> Choice:
        return self.choices[0]

    @property
    def keeps(self) -> tuple[tuple[int, ...], ...]:
        """The distinct set-asides the player may choose from, in the order of their best play."""
        return tuple(dict.fromkeys(c.keep for c in self.choices))

    @property
    def gap(self) -> float:
        """How far the best play is ahead of the best play that is worse, in points.

        Ties with the best do not count (either is right); 0 when every play ties.
        """
        best = self.best.value
        for c in self.choices[1:]:
            diff = to_points(best - c.value, self.position.unit)
            if diff >= TIE:
                return diff
        return 0.0

    @property
    def forced(self) -> bool:
        """Only one legal play, or only plays of equal value: nothing to decide."""
        return len(self.choices) == 1 or self.gap < TIE

    def choices_for(self, keep: tuple[int, ...]) -> tuple[Choice, ...]:
        return tuple(c for c in self.choices if c.keep == keep)

    def choice(self, keep: tuple[int, ...], action: Action) -> Choice:
        """The legal play that sets aside ``keep`` and then does ``action``."""
        keep = tuple(sorted(keep))
        for c in self.choices:
            if c.keep == keep and c.action == action:
                return c
        if not self.choices_for(keep):
            raise DrillError(f"setting aside {keep} is not a play of this position")
        raise DrillError(f"you cannot bank {self.choices_for(keep)[0].points_after:,} here")


def _choices(play: Play) -> list[tuple[Choice, bool]]:
    """The bank and roll choices after one set-aside, each with whether it is the solver's action."""
    v = play.value
    made = []
    for action, value in (("bank", v.bank), ("roll", v.roll)):
        if value is None:
            continue
        choice = Choice(play.keep, play.score, action, play.points_after, play.dice_left, value)  # type: ignore[arg-type]
        made.append((choice, action == v.action))
    return made


@lru_cache(maxsize=4096)
def decision_for(position: Position) -> Decision:
    """Value every legal play of ``position`` exactly, best first.

    Equal values keep the solver's order: its set-aside order from :func:`hint`, and its
    action (rolling on an exact tie) before the other.
    """
    p = position
    h = hint(p.roll, p.points, p.rules, opening=p.opening, need=p.need)
    plays = h.plays if p.kept is None else tuple(x for x in h.plays if x.keep == tuple(sorted(p.kept)))
    ranked: list[tuple[float, int, int, Choice]] = []
    for i, play in enumerate(plays):
        for choice, preferred in _choices(play):
            ranked.append((-choice.value, i, 0 if preferred else 1, choice))
    ranked.sort(key=lambda r: r[:3])
    return Decision(p, h, tuple(r[3] for r in ranked))


def to_points(diff: float, unit: Unit) -> float:
    """A difference of values in points: chances count by :data:`POINTS_PER_PERCENTAGE_POINT`."""
    return diff if unit == "points" else 100 * diff * POINTS_PER_PERCENTAGE_POINT


# -- grading


def grade_for(lost: float, unit: Unit) -> Grade:
    """The grade of a play that gives up ``lost``: points, or percentage points for a chance."""
    bounds = POINT_GRADES if unit == "points" else CHANCE_GRADES
    for bound, grade in zip(bounds, GRADES, strict=False):
        if lost < bound:
            return grade
    return "blunder"


@dataclass(frozen=True)
class Grading:
    """A graded play: what was chosen, what was best, and what it gave up.

    ``lost`` is in the position's display unit: points of expected turn score, or
    percentage points of the chance of passing the leader.
    """

    decision: Decision
    chosen: Choice
    lost: float
    grade: Grade

    @property
    def position(self) -> Position:
        return self.decision.position

    @property
    def best(self) -> Choice:
        return self.decision.best

    @property
    def right(self) -> bool:
        return self.grade in RIGHT

    @property
    def points_lost(self) -> float:
        """The loss in points (a percentage point counts as :data:`POINTS_PER_PERCENTAGE_POINT`)."""
        return self.lost if self.position.unit == "points" else self.lost * POINTS_PER_PERCENTAGE_POINT


def grade(decision: Decision, keep: tuple[int, ...], action: Action) -> Grading:
    """Grade the play ``keep`` + ``action`` against the best play of the decision."""
    chosen = decision.choice(keep, action)
    diff = max(0.0, decision.best.value - chosen.value)
    lost = diff if decision.position.unit == "points" else 100 * diff
    return Grading(decision, chosen, lost, grade_for(lost, decision.position.unit))


@dataclass(frozen=True)
class StrategyNote:
    """The bank threshold the player should have used for the dice they would roll.

    ``roll_while_at_most``: the largest turn total at which rolling ``dice_to_roll`` dice is
    at least as good as banking (None: banking is always at least as good). In a final round
    it is one step short of ``need``: roll until the turn passes the leader, then bank.
    """

    dice_to_roll: int
    roll_while_at_most: int | None
    points_after: int
    action: Action
    opening: int
    need: int | None


def strategy_notes(g: Grading) -> tuple[StrategyNote, ...]:
    """Thresholds for the dice the best play rolls, and for the player's if that differs."""
    p = g.position
    solution = solve(p.rules, p.objective)
    notes: list[StrategyNote] = []
    for choice in (g.best, g.chosen):
        n = choice.dice_to_roll
        if any(note.dice_to_roll == n for note in notes):
            continue
        best_here = g.decision.choices_for(choice.keep)[0]
        notes.append(
            StrategyNote(
                n, solution.roll_while_at_most(n), choice.points_after, best_here.action, p.opening, p.need
            )
        )
    return tuple(notes)


# -- the session summary


@dataclass(frozen=True)
class Summary:
    """What a session of drills came to.

    ``average_points_lost`` covers expected-score decisions and ``average_chance_lost``
    (percentage points) final-round ones; ``average_loss`` covers all in points and sets
    the ``rating``. ``worst`` is the decision that gave up the most, with its number in the
    session; None when every decision was best or fine.
    """

    decisions: int
    grades: dict[Grade, int]
    point_decisions: int
    chance_decisions: int
    average_points_lost: float | None
    average_chance_lost: float | None
    average_loss: float | None
    rating: str | None
    worst: tuple[int, Grading] | None


def rating_for(average_loss: float) -> str:
    for bound, name in RATINGS:
        if average_loss < bound:
            return name
    return RATINGS[-1][1]


def summarize(gradings: Sequence[Grading]) -> Summary:
    def mean(values: list[float]) -> float | None:
        return sum(values) / len(values) if values else None

    grades = {g: 0 for g in GRADES}
    for x in gradings:
        grades[x.grade] += 1
    loss = mean([x.points_lost for x in gradings])
    worst = max(enumerate(gradings, 1), key=lambda e: (e[1].points_lost, -e[0]), default=None)
    by_points = [x.lost for x in gradings if x.position.unit == "points"]
    by_chance = [x.lost for x in gradings if x.position.unit == "chance"]
    return Summary(
        decisions=len(gradings),
        grades=grades,
        point_decisions=len(by_points),
        chance_decisions=len(by_chance),
        average_points_lost=mean(by_points),
        average_chance_lost=mean(by_chance),
        average_loss=loss,
        rating=None if loss is None else rating_for(loss),
        worst=worst if worst is not None and not worst[1].right else None,
    )


# -- generation: playing turns forward


def _policy(h: Hint, stream: Stream, style: str, stop: int) -> tuple[Play, Action]:
    """How a player of ``style`` plays a roll: perfect, greedy, bold or careless."""
    if style == "perfect":
        play = h.plays[0]
        return play, play.value.action
    if style == "greedy":  # keep every point, bank at a modest total
        play = max(h.plays, key=lambda x: (x.score, x.dice_to_roll))
    elif style == "bold":  # keep as few dice as possible, chase a big turn
        play = min(h.plays, key=lambda x: (len(x.keep), -x.score))
    else:
        play = stream.choice(h.plays)
        stop = stream.choice((0, stop, 2 * stop))
    if play.value.bank is None or play.dice_left == 0 or play.points_after < stop:
        return play, "roll"
    return play, "bank"


_STYLES = ("perfect", "greedy", "bold", "careless")
_STYLE_WEIGHTS = (4.0, 3.0, 2.0, 1.0)
_MODEST_STOPS = (300, 350, 400, 500, 600, 800)
_BOLD_STOPS = (1000, 1500, 2000, 3000)
MAX_ROLLS = 40


@dataclass(frozen=True)
class _Setting:
    """What the turns of one kind of drill are played for."""

    opening: int = 0
    leader: int | None = None
    banked: int | None = None

    @property
    def need(self) -> int | None:
        return None if self.leader is None or self.banked is None else round_up(self.leader - self.banked + 1)


def _setting(rules: Rules, kind: Kind, stream: Stream) -> _Setting:
    if kind == "opening":
        return _Setting(opening=opening_minimum(rules))
    if kind == "final-round":
        # The leader has reached the target (taken as at least 1,000 for tiny house targets).
        leader = max(rules.target, 1000) + STEP * stream.randint(0, 30)
        deficit = STEP * stream.randint(6, 40)
        return _Setting(leader=leader, banked=leader - deficit)
    return _Setting()


def play_turn(rules: Rules, kind: Kind, setting: _Setting, stream: Stream) -> Iterator[Position]:
    """Play one turn forward and yield the positions of ``kind`` it passes through.

    The player's style is drawn per turn (mostly perfect or greedy, some bold, a few
    careless), so the positions are ones real play reaches: low and high turn totals,
    hot dice, and the Farkle that ends a turn.
    """
    style = stream.weighted(_STYLES, _STYLE_WEIGHTS)
    need = setting.need
    stop = need or stream.choice(_BOLD_STOPS if style == "bold" else _MODEST_STOPS)
    stop = max(stop, setting.opening)
    t, n = 0, 6
    for _ in range(MAX_ROLLS):
        roll = stream.dice(n)
        h = hint(roll, t, rules, opening=setting.opening, need=need)
        if h.farkle:
            return
        play, action = _policy(h, stream, style, stop)
        if kind == "bank-or-roll":
            yield Position(rules, kind, t, roll, kept=play.keep)
        else:
            yield Position(
                rules, kind, t, roll, opening=setting.opening, leader=setting.leader, banked=setting.banked
            )
        if action == "bank":
            return
        t, n = play.points_after, play.dice_to_roll


def worth_asking(decision: Decision) -> bool:
    """A real decision that drills its kind.

    Not forced; a keep drill has more than one set-aside to choose from; an opening drill
    starts below the minimum; a final-round drill has not passed the leader yet.
    """
    p = decision.position
    if decision.forced:
        return False
    if p.kind == "keep":
        return len(decision.keeps) > 1
    if p.kind == "opening":
        return p.points < p.opening
    if p.kind == "final-round":
        return p.points < (p.need or 0)
    return True


def fits(decision: Decision, level: Level | None) -> bool:
    """A decision worth asking, as close as ``level`` asks."""
    if not worth_asking(decision):
        return False
    if level is None:
        return True
    low, high = LEVEL_GAPS[level]
    return low <= decision.gap < high


def closeness(decision: Decision) -> float:
    """Close decisions are where players err, so they are drawn more often."""
    return 1.0 / (1.0 + decision.gap / CLOSE)


POOL = 12
MAX_TURNS = 80
_TURNS_PER_SETTING = 10


def generate(
    rules: Rules,
    kind: Kind,
    stream: Stream,
    *,
    level: Level | None = None,
    avoid: frozenset[str] | set[str] = frozenset(),
    families: Mapping[str, float] | None = None,
) -> Position:
    """A position of ``kind`` that real play reaches, drawn from ``stream``.

    Turns are played forward until :data:`POOL` candidates fit the level (or
    :data:`MAX_TURNS` turns are played); one is drawn, weighted toward close decisions
    and toward the ``families`` given extra weight (positions like ones the player missed).
    Positions whose key is in ``avoid`` are not drawn again.
    """
    pool: list[tuple[Position, float]] = []
    fallback: list[tuple[Position, float]] = []
    setting = _setting(rules, kind, stream)
    for turn in range(MAX_TURNS):
        if turn and turn % _TURNS_PER_SETTING == 0:
            setting = _setting(rules, kind, stream)
        for position in play_turn(rules, kind, setting, stream):
            if position.item in avoid:
                continue
            d = decision_for(position)
            if not worth_asking(d):
                continue
            weight = closeness(d) * (families or {}).get(position.family, 1.0)
            (pool if fits(d, level) else fallback).append((position, weight))
        if len(pool) >= POOL:
            break
    if pool:
        return stream.weighted([c[0] for c in pool], [c[1] for c in pool])
    if not fallback:
        raise DrillError(f"no {kind} decision found under {rules.name} rules")
    # No turn reached the level (rare): the decision nearest to it.
    return min(fallback, key=lambda c: _distance(decision_for(c[0]).gap, level))[0]


def _distance(gap: float, level: Level | None) -> float:
    """How far a gap is outside a level's range (0 inside it)."""
    if level is None:
        return 0.0
    low, high = LEVEL_GAPS[level]
    return max(low - gap, gap - high, 0.0)


# -- built-in teaching positions


def teaching_positions(rules: Rules) -> tuple[Position, ...]:
    """The classic positions every player should meet, as far as ``rules`` allow them.

    Keep one 1 or the 1 and the 5; keep three 2s or the 1; two dice left at 250 against
    one die left at 250 (one die that scores brings hot dice); six dice to roll at 2,000;
    a 1 and a 5 that could bring hot dice; a final round where only passing counts; an
    opening turn short of the minimum.
    """
    opening = opening_minimum(rules)
    hot_start = 2000 - rules.triples[0]
    specs: list[dict[str, Any]] = [
        {"kind": "keep", "points": 0, "roll": (1, 5, 2, 2, 3, 6), "title": "one 1, or the 1 and the 5?"},
        {"kind": "keep", "points": 0, "roll": (2, 1, 2, 4, 2, 6), "title": "three 2s, or just the 1?"},
        {"kind": "keep", "points": 300, "roll": (1, 5), "title": "a 1 and a 5 at 300"},
        {"kind": "bank-or-roll", "points": 200, "roll": (5, 3, 4), "kept": (5,), "title": "two dice at 250"},
        {"kind": "bank-or-roll", "points": 200, "roll": (4, 5), "kept": (5,), "title": "one die at 250"},
        {
            "kind": "bank-or-roll",
            "points": hot_start,
            "roll": (1, 1, 1),
            "kept": (1, 1, 1),
            "title": "six dice at 2,000",
        },
        {
            "kind": "final-round",
            "points": 500,
            "roll": (5, 2, 3, 4),
            "leader": rules.target,
            "banked": rules.target - 1000,
            "title": "1,000 behind in the final round",
        },
        {
            "kind": "opening",
            "points": 350,
            "roll": (1, 3, 5, 4),
            "opening": opening,
            "title": f"short of the {opening:,} opening",
        },
    ]
    made = []
    for spec in specs:
        try:
            position = Position(rules=rules, **spec)
        except (DrillError, ValueError):
            continue  # not possible under these rules (say, three 1s worth 2,000 or more)
        if worth_asking(decision_for(position)):
            made.append(position)
    return tuple(made)


# -- a session


#: The share of drills drawn from the teaching positions not yet asked in a session.
TEACHING_SHARE = 0.15


@dataclass
class Plan:
    """The drills of one session, made one at a time so the session can adapt.

    With ``adaptive``: positions from ``review`` (due again after a miss in an earlier
    session) are interleaved, up to a third of the session; kinds the player has mastered
    (``mastery``: recent accuracy per kind) come up less; and after a miss, positions like
    the missed one (same :attr:`Position.family`) are drawn more. Without it the drills
    depend on ``stream`` alone, so a seed gives the same session on every machine.
    """

    rules: Rules
    stream: Stream
    count: int
    kinds: tuple[Kind, ...] = KINDS
    level: Level | None = None
    adaptive: bool = False
    review: Sequence[Position] = ()
    mastery: Mapping[str, float] = field(default_factory=dict)
    _asked: set[str] = field(default_factory=set, init=False)
    _misses: dict[str, int] = field(default_factory=dict, init=False)

    def __iter__(self) -> Iterator[Position]:
        teaching = [p for p in teaching_positions(self.rules) if p.kind in self.kinds]
        review = [p for p in self.review if p.kind in self.kinds and fits(decision_for(p), self.level)]
        review = review if self.adaptive else []
        review = review[: self.count // 3]
        for i in range(self.count):
            stream = self.stream.child(f"drill-{i}")
            position = review.pop(0) if review and i % 2 == 1 else self._draw(stream, teaching)
            self._asked.add(position.item)
            yield position

    def _draw(self, stream: Stream, teaching: list[Position]) -> Position:
        kind = stream.weighted(self.kinds, [self._kind_weight(k) for k in self.kinds])
        fresh = [
            p
            for p in teaching
            if p.kind == kind and p.item not in self._asked and fits(decision_for(p), self.level)
        ]
        if fresh and stream.random() < TEACHING_SHARE:
            return stream.choice(fresh)
        families = {f: 1.0 + 3.0 * min(n, 3) for f, n in self._misses.items()} if self.adaptive else None
        return generate(self.rules, kind, stream, level=self.level, avoid=self._asked, families=families)

    def _kind_weight(self, kind: Kind) -> float:
        if not self.adaptive:
            return 1.0
        # Unknown kinds count as half mastered; a mastered kind still comes up half as often.
        return 2.0 - self.mastery.get(kind, 0.5)

    def answered(self, g: Grading) -> None:
        """Learn from an answer: a miss makes positions like it come up more."""
        if not self.adaptive:
            return
        family = g.position.family
        if g.right:
            if family in self._misses:
                self._misses[family] = max(0, self._misses[family] - 1)
        else:
            self._misses[family] = self._misses.get(family, 0) + 1
