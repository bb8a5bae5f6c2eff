"""Bank-or-roll drills: decisions that real play reaches, drawn one at a time for a session.

The decisions themselves (:class:`~farkle_trainer.engine.decisions.Position`, their plays
and grading) are engine values; this module finds positions worth asking by playing turns
forward, keeps the built-in teaching positions, plans an adaptive session and sums it up.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from farkle_trainer.engine.decisions import (
    KINDS,
    Decision,
    DrillError,
    Grading,
    Kind,
    Position,
    decision_for,
)
from farkle_trainer.engine.grading import GRADES, Grade, Unit, rating_for
from farkle_trainer.engine.kinds import TURN_KINDS
from farkle_trainer.engine.notation import Action
from farkle_trainer.engine.ranked import Option, Ranked, ranked_plays
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.training.drills.kinds import Setting, spec_of

if TYPE_CHECKING:
    from farkle_trainer.engine.tables import Tables


class Level(StrEnum):
    """How close the decisions of a session are."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


LEVELS: tuple[Level, ...] = tuple(Level)

#: Difficulty by how far the best play is ahead of the next best one (points).
LEVEL_GAPS: dict[Level, tuple[float, float]] = {
    Level.EASY: (40.0, float("inf")),
    Level.MEDIUM: (10.0, 40.0),
    Level.HARD: (0.0, 10.0),
}
#: Generation prefers close decisions: a candidate's weight is 1 / (1 + gap / CLOSE).
CLOSE = 15.0

# -- the session summary


@dataclass(frozen=True)
class Summary:
    """What a session of drills came to.

    ``average_points_lost`` covers expected-score decisions, ``average_chance_lost``
    (percentage points) final-round ones, ``average_win_lost`` (percentage points) game
    ones and ``average_turns_lost`` solo ones; ``average_loss`` covers all in points and
    sets the ``rating``. ``worst`` is the decision that gave up the most, with its number in the
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
    win_decisions: int = 0
    average_win_lost: float | None = None
    turn_decisions: int = 0
    average_turns_lost: float | None = None
    #: What a turn (points) or a solo game (turns) of such decisions would come to against
    #: perfect play (see :class:`DrillStrength`).
    strengths: tuple[DrillStrength, ...] = ()


@dataclass(frozen=True)
class DrillStrength:
    """A session's decisions of one unit against perfect play, as a whole turn or game of them
    would go: a drill is one decision, and a turn of perfect play makes ``decisions_per`` of them
    on average (a solo game to ``target`` from 0, for turns), exactly as the tables count them.
    Were each to give up what the session's gave up on average, the turn would be expected to
    score ``perfect`` (the expected score of a turn from six dice) less that many losses; the
    solo game to take ``perfect`` turns (from 0) plus that many. Drills ask the decisions that are
    hard, close ones first, more often than play does: the figure follows a learner from
    session to session, and reads below what their play of whole turns gives."""

    unit: Unit
    decisions: int
    average_lost: float
    perfect: float
    decisions_per: float
    target: int | None = None

    @property
    def expected_result(self) -> float:
        given_up = self.decisions_per * self.average_lost
        return self.perfect + given_up if self.unit == Unit.TURNS else self.perfect - given_up


def drill_strengths(tables: Tables, gradings: Sequence[Grading]) -> tuple[DrillStrength, ...]:
    """The session's :class:`DrillStrength` in points (the turn's decisions: bank or roll, keep,
    opening) and in turns (solo), each where its decisions share one table (and for solo one
    target and opening minimum): a session of one's mistakes may mix them. The decisions of a
    game or a final round get none: how many a two-player game takes is not counted."""
    from farkle_trainer.engine.situations import FewestTurns
    from farkle_trainer.engine.solver import Objective

    found = []
    points = [g for g in gradings if g.position.unit == Unit.POINTS]
    if points and len({g.position.rules for g in points}) == 1:
        turn = tables.turn(points[0].position.rules, Objective.expected())
        average = sum(g.lost for g in points) / len(points)
        perfect, per = turn.expected_turn_score, turn.decisions_per_turn
        found.append(DrillStrength(Unit.POINTS, len(points), average, perfect, per))
    solo = [g.position.situation for g in gradings if isinstance(g.position.situation, FewestTurns)]
    games = {(s.rules, s.target, s.opening) for s in solo}
    if len(games) == 1:
        rules, target, opening = games.pop()
        table = tables.solo(rules, target, opening)
        average = sum(g.lost for g in gradings if g.position.unit == Unit.TURNS) / len(solo)
        found.append(
            DrillStrength(
                Unit.TURNS, len(solo), average, table.expected_turns(0), table.expected_decisions(0), target
            )
        )
    return tuple(found)


def summarize(tables: Tables, gradings: Sequence[Grading]) -> Summary:
    def mean(values: list[float]) -> float | None:
        return sum(values) / len(values) if values else None

    grades = {g: 0 for g in GRADES}
    for x in gradings:
        grades[x.grade] += 1
    loss = mean([x.points_lost for x in gradings])
    worst = max(enumerate(gradings, 1), key=lambda e: (e[1].points_lost, -e[0]), default=None)
    by_points = [x.lost for x in gradings if x.position.unit == Unit.POINTS]
    by_chance = [x.lost for x in gradings if x.position.unit == Unit.CHANCE]
    by_win = [x.lost for x in gradings if x.position.unit == Unit.WIN]
    by_turns = [x.lost for x in gradings if x.position.unit == Unit.TURNS]
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
        win_decisions=len(by_win),
        average_win_lost=mean(by_win),
        turn_decisions=len(by_turns),
        average_turns_lost=mean(by_turns),
        strengths=drill_strengths(tables, gradings),
    )


# -- generation: playing turns forward


def _policy(r: Ranked, stream: Stream, style: str, stop: int) -> tuple[Option, Action]:
    """How a player of ``style`` plays a roll: perfect, greedy, bold or careless."""
    if style == "perfect":
        play = r.options[0]
        return play, play.action
    if style == "greedy":  # keep every point, bank at a modest total
        play = max(r.options, key=lambda x: (x.score, x.dice_to_roll))
    elif style == "bold":  # keep as few dice as possible, chase a big turn
        play = min(r.options, key=lambda x: (len(x.keep), -x.score))
    else:
        play = stream.choice(r.options)
        stop = stream.choice((0, stop, 2 * stop))
    if play.bank is None or play.dice_left == 0 or play.points_after < stop:
        return play, "roll"
    return play, "bank"


_STYLES = ("perfect", "greedy", "bold", "careless")
_STYLE_WEIGHTS = (4.0, 3.0, 2.0, 1.0)
_MODEST_STOPS = (300, 350, 400, 500, 600, 800)
_BOLD_STOPS = (1000, 1500, 2000, 3000)
MAX_ROLLS = 40


def play_turn(
    tables: Tables, rules: Rules, kind: Kind, setting: Setting, stream: Stream
) -> Iterator[Position]:
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
        ranked = ranked_plays(tables, setting.turn(rules, t), roll)
        if ranked.is_farkle:
            return
        play, action = _policy(ranked, stream, style, stop)
        yield spec_of(kind).position(rules, kind, t, roll, play, setting)
        if action == "bank":
            return
        t, n = play.points_after, play.dice_to_roll


def worth_asking(decision: Decision) -> bool:
    """A real decision that drills its kind: not forced, and a choice of its kind.

    A keep drill has more than one set-aside to choose from; an opening drill starts below
    the minimum; a final-round drill has not passed the leader yet (see ``kinds``).
    """
    return not decision.forced and spec_of(decision.position.kind).worth_asking(decision)


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


def generate(
    tables: Tables,
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
    spec = spec_of(kind)
    setting = spec.setting(tables, rules, stream)
    for turn in range(MAX_TURNS):
        if turn and turn % spec.turns_per_setting == 0:
            setting = spec.setting(tables, rules, stream)
        for position in play_turn(tables, rules, kind, setting, stream):
            if position.item in avoid:
                continue
            d = decision_for(tables, position)
            if not worth_asking(d):
                continue
            weight = closeness(d) * spec.emphasis(d) * (families or {}).get(position.family, 1.0)
            (pool if fits(d, level) else fallback).append((position, weight))
        if len(pool) >= POOL:
            break
    if pool:
        return stream.weighted([c[0] for c in pool], [c[1] for c in pool])
    if not fallback:
        raise DrillError(f"no {kind} decision found under {rules.name} rules")
    # No turn reached the level (rare): the decision nearest to it.
    return min(fallback, key=lambda c: _distance(decision_for(tables, c[0]).gap, level))[0]


def _distance(gap: float, level: Level | None) -> float:
    """How far a gap is outside a level's range (0 inside it)."""
    if level is None:
        return 0.0
    low, high = LEVEL_GAPS[level]
    return max(low - gap, gap - high, 0.0)


# -- built-in teaching positions


def teaching_positions(tables: Tables, rules: Rules) -> tuple[Position, ...]:
    """The classic positions every player should meet, as far as ``rules`` allow them.

    Keep one 1 or the 1 and the 5; keep three 2s or the 1; two dice left at 250 against
    one die left at 250 (one die that scores brings hot dice); six dice to roll at 2,000;
    a 1 and a 5 that could bring hot dice; a final round where only passing counts; an
    opening turn short of the minimum.
    """
    made = []
    for kind in KINDS:
        for fields in spec_of(kind).teaching(rules):
            try:
                position = Position(rules=rules, kind=kind, **fields)
            except (DrillError, ValueError):
                continue  # not possible under these rules (say, three 1s worth 2,000 or more)
            if worth_asking(decision_for(tables, position)):
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
    depend on ``stream`` alone, so a seed gives the same session on every machine. Every
    position is valued in ``tables``.
    """

    tables: Tables
    rules: Rules
    stream: Stream
    count: int
    kinds: tuple[Kind, ...] = TURN_KINDS
    level: Level | None = None
    adaptive: bool = False
    review: Sequence[Position] = ()
    mastery: Mapping[str, float] = field(default_factory=dict)
    _asked: set[str] = field(default_factory=set, init=False)
    _misses: dict[str, int] = field(default_factory=dict, init=False)

    def __iter__(self) -> Iterator[Position]:
        tables = self.tables
        teaching = [p for p in teaching_positions(tables, self.rules) if p.kind in self.kinds]
        review = [
            p for p in self.review if p.kind in self.kinds and fits(decision_for(tables, p), self.level)
        ]
        review = review if self.adaptive else []
        review = review[: self.count // 3]
        for i in range(self.count):
            stream = self.stream.child(f"drill-{i}")
            position = review.pop(0) if review and i % 2 == 1 else self._draw(tables, stream, teaching)
            self._asked.add(position.item)
            yield position

    def _draw(self, tables: Tables, stream: Stream, teaching: list[Position]) -> Position:
        kind = stream.weighted(self.kinds, [self._kind_weight(k) for k in self.kinds])
        fresh = [
            p
            for p in teaching
            if p.kind == kind and p.item not in self._asked and fits(decision_for(self.tables, p), self.level)
        ]
        if fresh and stream.random() < TEACHING_SHARE:
            return stream.choice(fresh)
        families = {f: 1.0 + 3.0 * min(n, 3) for f, n in self._misses.items()} if self.adaptive else None
        return generate(
            tables, self.rules, kind, stream, level=self.level, avoid=self._asked, families=families
        )

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
