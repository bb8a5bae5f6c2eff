"""What a player about to roll is playing for: one variant per goal.

A situation is the moment before a roll: the rules, the turn points at stake and the goal
with what it depends on. Each variant checks itself when it is made and knows its unit and the
solved table that values it, asked of the caller's :class:`~farkle_trainer.engine.tables.Tables`
(:meth:`valuer`):

* :class:`TurnPoints`: the expected points the turn banks (:attr:`Unit.POINTS`), under the
  opening minimum in force and with what a Farkle costs beyond the turn's points;
* :class:`ReachTotal`: the chance of ending the turn with at least a total
  (:attr:`Unit.CHANCE`), as in a last turn behind a leader of three or four players;
* :class:`WinGame`: the chance of winning a two-player game (:attr:`Unit.WIN`); an opponent
  at the target or past it makes this the player's last turn, where a tie shares the win;
* :class:`FewestTurns`: solo, the expected turns still needed to reach the target after this
  one (:attr:`Unit.TURNS`, fewer is better).

The house rules are not goals of their own: the opening minimum holds a player in every goal
until they have opened, and the three-Farkle penalty makes a Farkle cost more. Where a game's
scores, runs and rules decide what holds, :func:`situation` asks
:mod:`~farkle_trainer.engine.house` (the least bank in force, what a Farkle costs).

A new goal is a variant here with its unit (and the unit's grade scale in
:mod:`~farkle_trainer.engine.grading`), a :class:`~farkle_trainer.engine.valuers.Valuer` over
its table, and its branch in :func:`situation` for the games played for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from farkle_trainer.engine.errors import InputError
from farkle_trainer.engine.farkles import NO_RUNS, Runs
from farkle_trainer.engine.grading import Unit
from farkle_trainer.engine.house import farkle_cost, least_bank, opened, opened_matters
from farkle_trainer.engine.rules import MAX_TARGET, MIN_TARGET, Rules
from farkle_trainer.engine.solver import STEP, Objective, round_up
from farkle_trainer.engine.valuers import (
    GameValuer,
    LastTurnValuer,
    SoloValuer,
    TurnValuer,
    Valuer,
)

if TYPE_CHECKING:
    from farkle_trainer.engine.tables import Tables


class SituationError(InputError):
    """A situation, or a play of one, that is not possible: scores off the table, dice not in
    the roll, dice that don't score, ..."""


def need_to_pass(leader: int, score: int) -> int:
    """The turn total a player on ``score`` needs to pass ``leader``: more than the lead, and
    turn points move in fifties."""
    return round_up(leader - score + 1)


# -- checks


def _multiple(value: object, what: str, *, positive: bool = False) -> None:
    least = STEP if positive else 0
    if not isinstance(value, int) or isinstance(value, bool) or value < least or value % STEP:
        kind = "positive" if positive else "non-negative"
        raise SituationError(f"{what} must be a {kind} multiple of {STEP}, not {value!r}")


def _check_turn(points: int, opening: int) -> None:
    _multiple(points, "turn points")
    _multiple(opening, "an opening minimum")


def _check_game(target: int, opening: int, score: int) -> None:
    whole = isinstance(target, int) and not isinstance(target, bool)
    if not whole or target % STEP or not MIN_TARGET <= target <= MAX_TARGET:
        raise SituationError(
            f"a game's target is a multiple of {STEP} from {MIN_TARGET:,} to {MAX_TARGET:,}, not {target!r}"
        )
    _multiple(score, "a banked score")
    if score >= target:
        raise SituationError(
            f"a banked score is a multiple of {STEP} below the target of {target:,}, not {score!r}"
        )
    if opening > target:
        raise SituationError("the opening minimum is above the target")


def _check_runs(rules: Rules, opening: int, scored: tuple[tuple[int, bool | None], ...]) -> None:
    """Runs of Farkles count only under the three-Farkle penalty, and only a player on 0 under
    an opening minimum can have opened or not (``scored``: each player's score and whether
    the runs say they have opened)."""
    if not rules.three_farkle_penalty:
        raise SituationError("runs of Farkles count only under the three-Farkle penalty")
    for score, said in scored:
        if said is not None and said != (score == 0 and opened_matters(rules, opening)):
            raise SituationError("only a player on 0 under an opening minimum can have opened or not")


# -- the goals


@dataclass(frozen=True)
class TurnPoints:
    """The expected points the turn banks: ``opening`` is the minimum in force (no bank below
    it), ``farkle_cost`` what a Farkle costs beyond the turn's points."""

    rules: Rules
    points: int
    opening: int = 0
    farkle_cost: int = 0
    unit: ClassVar[Unit] = Unit.POINTS

    def __post_init__(self) -> None:
        _check_turn(self.points, self.opening)
        _multiple(self.farkle_cost, "what a Farkle costs")

    def valuer(self, tables: Tables) -> Valuer:
        return TurnValuer(tables.turn(self.rules, self.objective))

    @property
    def objective(self) -> Objective:
        return Objective.expected(opening=self.opening, farkle_value=-self.farkle_cost)


@dataclass(frozen=True)
class ReachTotal:
    """The chance of ending the turn with at least ``need`` turn points, ``opening`` the minimum
    in force. Equal chances are told apart by the expected points (see
    :meth:`~farkle_trainer.engine.valuers.Valuer.tiebreak`)."""

    rules: Rules
    points: int
    need: int
    opening: int = 0
    unit: ClassVar[Unit] = Unit.CHANCE

    def __post_init__(self) -> None:
        _check_turn(self.points, self.opening)
        _multiple(self.need, "the points needed", positive=True)

    def valuer(self, tables: Tables) -> Valuer:
        reach = tables.turn(self.rules, Objective.reach(self.need, opening=self.opening))
        return TurnValuer(reach, tables.turn(self.rules, Objective.expected(opening=self.opening)))


@dataclass(frozen=True)
class WinGame:
    """The chance of winning a two-player game to ``target``, the player on ``score`` and the
    opponent on ``opponent``; ``opening`` is the game's minimum, ``runs`` each player's
    Farkles in a row and who of them has opened on 0. An opponent at the target or past it
    has reached it: this is the player's last turn, where only passing them counts."""

    rules: Rules
    points: int
    target: int
    opening: int
    score: int
    opponent: int
    runs: Runs = NO_RUNS
    unit: ClassVar[Unit] = Unit.WIN

    def __post_init__(self) -> None:
        _check_turn(self.points, self.opening)
        _check_game(self.target, self.opening, self.score)
        _multiple(self.opponent, "the opponent's score")
        if self.runs != NO_RUNS:
            _check_runs(
                self.rules,
                self.opening,
                ((self.score, self.runs.my_opened), (self.opponent, self.runs.opponent_opened)),
            )

    @property
    def last_turn(self) -> bool:
        return self.opponent >= self.target

    def valuer(self, tables: Tables) -> Valuer:
        table = tables.game(self.rules, self.target, self.opening)
        if self.last_turn:
            return LastTurnValuer(table, self.opponent - self.score, opened(self.score, self.runs))
        return GameValuer(table, self.score, self.opponent, self.runs)


@dataclass(frozen=True)
class FewestTurns:
    """Solo to ``target`` in as few turns as possible, from ``score`` with ``runs`` (the
    player's own Farkles in a row and whether they have opened on 0)."""

    rules: Rules
    points: int
    target: int
    opening: int
    score: int
    runs: Runs = NO_RUNS
    unit: ClassVar[Unit] = Unit.TURNS

    def __post_init__(self) -> None:
        _check_turn(self.points, self.opening)
        _check_game(self.target, self.opening, self.score)
        if self.runs.opponent_farkles or self.runs.opponent_opened is not None:
            raise SituationError("solo has no opponent")
        if self.runs != NO_RUNS:
            _check_runs(self.rules, self.opening, ((self.score, self.runs.my_opened),))

    def valuer(self, tables: Tables) -> Valuer:
        return SoloValuer(tables.solo(self.rules, self.target, self.opening), self.score, self.runs)


Situation = TurnPoints | ReachTotal | WinGame | FewestTurns


def situation(
    rules: Rules,
    points: int,
    unit: Unit,
    *,
    score: int = 0,
    leader: int = 0,
    runs: Runs = NO_RUNS,
    target: int | None = None,
    opening: int | None = None,
) -> Situation:
    """The situation of a player on ``score`` about to roll with ``points`` at stake in a game,
    played for ``unit``.

    ``leader``: the best score among the others (the opponent's, in a two-player game); one at
    the target or past it makes this the player's last turn. ``runs``: the Farkles in a row
    and who has opened on 0, under the house rules. ``target`` and ``opening``: the game's
    (the rules' own by default). In points and chances the opening minimum in force and what
    a Farkle costs follow from these.
    """
    target = rules.target if target is None else target
    opening = rules.opening_minimum if opening is None else opening
    if unit == Unit.WIN:
        return WinGame(rules, points, target, opening, score, leader, runs)
    if unit == Unit.TURNS:
        return FewestTurns(rules, points, target, opening, score, runs)
    in_force = least_bank(rules, score, runs, opening=opening)
    if unit == Unit.CHANCE:
        return ReachTotal(rules, points, need_to_pass(leader, score), in_force)
    cost = farkle_cost(rules, score, runs, last_turn=leader >= target)
    return TurnPoints(rules, points, in_force, cost)
