"""The kinds of drill: each declared once, with what training needs to know about it.

A kind's :class:`KindSpec` says what it is called on screen, what the turns that reach its
positions are played for, how a position is taken from such a turn, when a decision is
worth asking, how much more often it is drawn, and the built-in teaching positions of the
kind. The kind itself, and what makes a position of it valid and how it is solved, are the
engine's
(:class:`~farkle_trainer.engine.decisions.Kind`, :class:`~farkle_trainer.engine.decisions.Position`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from farkle_trainer.engine.decisions import (
    Decision,
    DrillError,
    Kind,
    Position,
    opening_minimum,
    points_choice,
)
from farkle_trainer.engine.farkles import NO_RUNS, Runs
from farkle_trainer.engine.gameplan import TableKind
from farkle_trainer.engine.house import least_bank
from farkle_trainer.engine.ranked import Option
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.engine.situations import ReachTotal, TurnPoints, need_to_pass
from farkle_trainer.engine.solver import STEP
from farkle_trainer.engine.tables import Tables
from farkle_trainer.training.drills.scores import Start, game_scores, solo_score


@dataclass(frozen=True)
class Setting:
    """What the turns of one kind of drill are played for.

    ``opening`` is the minimum the turn itself must reach before it may bank. Game and solo
    turns are played at the banked scores of a game in progress (``banked``, ``opponent``)
    to its ``target``.
    """

    opening: int = 0
    leader: int | None = None
    banked: int | None = None
    opponent: int | None = None
    target: int | None = None
    runs: Runs = NO_RUNS

    @property
    def need(self) -> int | None:
        return None if self.leader is None or self.banked is None else need_to_pass(self.leader, self.banked)

    def turn(self, rules: Rules, points: int) -> TurnPoints | ReachTotal:
        """What the turn is played for with ``points`` at stake: passing the leader, or expected
        points, under the opening minimum."""
        need = self.need
        if need is None:
            return TurnPoints(rules, points, self.opening)
        return ReachTotal(rules, points, need, self.opening)


# -- settings


def _opening(tables: Tables, rules: Rules, stream: Stream) -> Setting:
    return Setting(opening=opening_minimum(rules))


def _final_round(tables: Tables, rules: Rules, stream: Stream) -> Setting:
    # The leader has reached the target (taken as at least 1,000 for tiny house targets).
    target = max(rules.target, 1000)
    leader = target + STEP * stream.randint(0, 30)
    # A player can be no further behind than 0 banked; the draw is kept so seeds stay the same.
    deficit = min(STEP * stream.randint(6, 40), leader)
    banked = leader - deficit
    if banked >= target:
        # A player at the target would have ended the game: both scores move down together,
        # keeping what the turn must make, so the player is just below it.
        leader, banked = leader - (banked - target + STEP), target - STEP
    return Setting(leader=leader, banked=banked)


def _target(rules: Rules) -> int:
    from farkle_trainer.engine.rules import MAX_TARGET, MIN_TARGET

    if not MIN_TARGET <= rules.target <= MAX_TARGET:
        raise DrillError(
            f"game and solo drills play to a target from {MIN_TARGET:,} to {MAX_TARGET:,}, "
            f"not {rules.target:,}: choose one with --target"
        )
    return rules.target


#: How a turn start of a game in progress is drawn (see :class:`~.scores.Start`).
ScoreDraw = Callable[[Tables, Rules, int, Stream], Start]


def _at_drawn_scores(draw: ScoreDraw, tables: Tables, rules: Rules, stream: Stream) -> Setting:
    target = _target(rules)
    start = draw(tables, rules, target, stream)
    return Setting(
        opening=least_bank(rules, start.banked, start.runs),
        banked=start.banked,
        opponent=start.opponent,
        target=target,
        runs=start.runs,
    )


# -- positions along a turn


def _after_keeping(
    rules: Rules, kind: Kind, points: int, roll: tuple[int, ...], play: Option, setting: Setting
) -> Position:
    """Bank or roll is asked once the dice are set aside, so the position holds the keep."""
    return Position(rules, kind, points, roll, kept=play.keep)


def _before_keeping(
    rules: Rules, kind: Kind, points: int, roll: tuple[int, ...], play: Option, setting: Setting
) -> Position:
    return Position(
        rules, kind, points, roll, opening=setting.opening, leader=setting.leader, banked=setting.banked
    )


def _at_scores(
    rules: Rules, kind: Kind, points: int, roll: tuple[int, ...], play: Option, setting: Setting
) -> Position:
    return Position(
        rules,
        kind,
        points,
        roll,
        opening=rules.opening_minimum,
        banked=setting.banked,
        opponent=setting.opponent,
        target=setting.target,
        runs=setting.runs,
    )


# -- worth asking: not forced (checked by the drills), and a real choice of its kind


def _several_keeps(d: Decision) -> bool:
    return len(d.keeps) > 1


def _below_opening(d: Decision) -> bool:
    return d.position.points < d.position.opening


def _behind_leader(d: Decision) -> bool:
    return d.position.points < (d.position.need or 0)


# -- emphasis


#: How much more often a game or solo decision is drawn where expected points and the
#: goal disagree: the decisions these drills exist for.
DISAGREE_WEIGHT = 4.0


def _where_points_mislead(d: Decision) -> float:
    return DISAGREE_WEIGHT if points_choice(d) is not None else 1.0


# -- teaching positions


def _teach_bank_or_roll(rules: Rules) -> list[dict[str, Any]]:
    return [
        {"points": 200, "roll": (5, 3, 4), "kept": (5,), "title": "two dice at 250"},
        {"points": 200, "roll": (4, 5), "kept": (5,), "title": "one die at 250"},
        {
            "points": 2000 - rules.triples[0],
            "roll": (1, 1, 1),
            "kept": (1, 1, 1),
            "title": "six dice at 2,000",
        },
    ]


def _teach_keep(rules: Rules) -> list[dict[str, Any]]:
    return [
        {"points": 0, "roll": (1, 5, 2, 2, 3, 6), "title": "one 1, or the 1 and the 5?"},
        {"points": 0, "roll": (2, 1, 2, 4, 2, 6), "title": "three 2s, or just the 1?"},
        {"points": 300, "roll": (1, 5), "title": "a 1 and a 5 at 300"},
    ]


def _teach_final_round(rules: Rules) -> list[dict[str, Any]]:
    banked = max(0, rules.target - 1000)
    return [
        {
            "points": 500,
            "roll": (5, 2, 3, 4),
            "leader": rules.target,
            "banked": banked,
            "title": f"{rules.target - banked:,} behind in the final round",
        }
    ]


def _teach_opening(rules: Rules) -> list[dict[str, Any]]:
    opening = opening_minimum(rules)
    return [
        {
            "points": 350,
            "roll": (1, 3, 5, 4),
            "opening": opening,
            "title": f"short of the {opening:,} opening",
        }
    ]


@dataclass(frozen=True)
class KindSpec:
    """Everything training knows about one kind of drill; what is left out is what most kinds do.

    ``teaching`` gives the fields of each teaching position (less ``rules`` and ``kind``),
    in the order they are offered; one the table does not allow is left out.
    ``emphasis`` multiplies the chance that a decision found in play is drawn, and
    ``turns_per_setting`` is how many turns are played before a new setting is drawn, by
    ``setting`` (which may play a game forward, valued in the tables it is given).
    ``needs_target``: the kind plays to the rules' target, so a session records it.
    ``solves``: the game tables its positions are graded by, solved (or loaded) before the first
    one is asked (see :mod:`farkle_trainer.training.solving`).
    """

    kind: Kind
    name: str
    setting: Callable[[Tables, Rules, Stream], Setting] = lambda tables, rules, stream: Setting()
    position: Callable[[Rules, Kind, int, tuple[int, ...], Option, Setting], Position] = _before_keeping
    worth_asking: Callable[[Decision], bool] = lambda d: True
    teaching: Callable[[Rules], list[dict[str, Any]]] = lambda rules: []
    emphasis: Callable[[Decision], float] = lambda d: 1.0
    turns_per_setting: int = 10
    needs_target: bool = False
    solves: tuple[TableKind, ...] = ()


def spec_of(kind: Kind | str) -> KindSpec:
    return KIND_SPECS[Kind(kind)]


def _played_to_target(kind: Kind, name: str, scores: ScoreDraw, solves: TableKind) -> KindSpec:
    """A kind played at the banked scores of a game in progress, to the rules' target.

    Each turn gets new scores, and decisions where expected points mislead come up more.
    None of its positions is built in: their worth depends on the target, which a session
    may change.
    """
    return KindSpec(
        kind,
        name,
        setting=partial(_at_drawn_scores, scores),
        position=_at_scores,
        emphasis=_where_points_mislead,
        turns_per_setting=1,
        needs_target=True,
        solves=(solves,),
    )


#: The registry: one entry per kind, in :class:`Kind` order.
KIND_SPECS: Mapping[Kind, KindSpec] = {
    spec.kind: spec
    for spec in (
        KindSpec(Kind.BANK_OR_ROLL, "bank or roll", position=_after_keeping, teaching=_teach_bank_or_roll),
        KindSpec(Kind.KEEP, "keep", worth_asking=_several_keeps, teaching=_teach_keep),
        KindSpec(
            Kind.FINAL_ROUND,
            "final round",
            setting=_final_round,
            worth_asking=_behind_leader,
            teaching=_teach_final_round,
        ),
        KindSpec(
            Kind.OPENING, "opening", setting=_opening, worth_asking=_below_opening, teaching=_teach_opening
        ),
        _played_to_target(Kind.GAME, "game", game_scores, "game"),
        _played_to_target(Kind.SOLO, "solo", solo_score, "solo"),
    )
}
