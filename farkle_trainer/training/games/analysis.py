"""A finished game, analysed: every decision graded, the luck of the dice, the chances.

The game's unit (:func:`game_unit`) is what its decisions are worth:

* a two-player game to the target: the chance of winning (:attr:`Unit.WIN`, shown in
  percentage points), exact from the game solver;
* solo for the fewest turns: the expected number of turns still needed (:attr:`Unit.TURNS`);
* otherwise (three or four players, solo for ten turns, and any game with the three-Farkle
  penalty, which the game solver does not cover): the expected points the turn banks
  (:attr:`Unit.POINTS`), with the opening minimum and, on a turn that can bring the penalty,
  a Farkle worth minus the points it would cost.

In a game valued in points a decision of a last turn is graded by the chance of passing the
leader (:attr:`Unit.CHANCE`), since there the points banked behind the leader are worth
nothing; its luck and :class:`Account` stay in points.

Luck, exactly: a roll of ``n`` dice with ``t`` at stake is worth ``V_before`` (the expected
value of rolling them with best play after) before it is thrown and ``V_after`` (the value
of its best play, or of the Farkle) after. Its luck is ``V_after - V_before`` (for turns,
``V_before - V_after``: the turns the dice saved). A decision gives up ``V_after`` minus
the value of the play made. Within a turn these telescope, so for each player:

* points: final score = :attr:`Account.expected` (the sum of each turn's expected score at
  its start) + luck - given up;
* turns: turns taken = :attr:`Account.expected` (the expected turns from 0) - luck + given up;
* two players: 100 x the result of one player (1, 0 or 1/2) = 100 x their chance at the
  start + their luck - what they gave up - the opponent's luck + what the opponent gave up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from farkle_trainer.engine.dice import counts_of
from farkle_trainer.engine.game import game_plays, solve_game, solve_solo
from farkle_trainer.engine.grading import GRADES, Grade, Unit, grade_for, in_points, loss, rating_for
from farkle_trainer.engine.plays import hint
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.solver import STEP, Objective, solve
from farkle_trainer.training.games.match import FARKLES_FOR_PENALTY, MatchState, Move
from farkle_trainer.training.games.setup import Form, MatchError, Setup

Decision = Literal["bank", "roll"]


def game_unit(setup: Setup) -> Unit:
    """What the decisions and luck of a game are measured in (see the module's list)."""
    if setup.penalty:
        return Unit.POINTS
    if setup.form == Form.MATCH and setup.size == 2:
        return Unit.WIN
    if setup.form == Form.FEWEST_TURNS:
        return Unit.TURNS
    return Unit.POINTS


def grading_unit(setup: Setup, move: Move) -> Unit:
    """The unit one decision is graded in."""
    unit = game_unit(setup)
    return Unit.CHANCE if unit == Unit.POINTS and move.last_turn else unit


@dataclass(frozen=True)
class Values:
    """One roll's values for the mover, in the unit's own terms (a chance from 0 to 1,
    points, or turns still needed after this one).

    ``options`` maps each scoring selection (faces, ascending) to the value of banking after
    it (None where not allowed) and of rolling on.
    """

    unit: Unit
    before: float
    farkle: float
    options: dict[tuple[int, ...], tuple[float | None, float]]

    def better(self, a: float, b: float) -> bool:
        return a < b if self.unit == Unit.TURNS else a > b

    def value(self, keep: tuple[int, ...], action: Decision) -> float:
        bank, roll = self.options[keep]
        if action == "bank":
            if bank is None:
                raise MatchError("that bank was not allowed")
            return bank
        return roll

    @property
    def best(self) -> tuple[tuple[int, ...], Decision, float]:
        """The best play: its keep, action and value (the first of equals, rolling on first)."""
        candidates: list[tuple[tuple[int, ...], Decision, float]] = []
        for keep, (bank, roll) in self.options.items():
            candidates.append((keep, "roll", roll))
            if bank is not None:
                candidates.append((keep, "bank", bank))
        if not candidates:
            raise MatchError("a Farkle has no plays")
        found = candidates[0]
        for candidate in candidates[1:]:
            if self.better(candidate[2], found[2]) and abs(candidate[2] - found[2]) > 1e-12:
                found = candidate
        return found

    @property
    def after(self) -> float:
        """The roll's value once thrown: its best play's, or the Farkle's."""
        return self.best[2] if self.options else self.farkle

    @property
    def luck(self) -> float:
        """What the dice gave, in the unit shown (percentage points of a chance)."""
        raw = self.before - self.after if self.unit == Unit.TURNS else self.after - self.before
        return raw if self.unit in (Unit.POINTS, Unit.TURNS) else 100 * raw


def values(setup: Setup, move: Move, unit: Unit | None = None) -> Values:
    """The values of one roll of a game for its mover, in ``unit`` (default the game's)."""
    unit = game_unit(setup) if unit is None else unit
    rules = setup.rules
    me, leader = move.score, move.leader
    n, t = len(move.roll), move.points
    opening = setup.opening if me == 0 else 0
    splits = score_table(rules).selections(counts_of(move.roll))
    options: dict[tuple[int, ...], tuple[float | None, float]] = {}
    if unit == Unit.WIN:
        table = solve_game(rules, setup.target, setup.opening)
        plays = game_plays(counts_of(move.roll), t, me, leader, table, last_turn=move.last_turn)
        options = {p.keep: (p.bank, p.roll) for p in plays.plays}
        if move.last_turn:
            before = table.final_roll_value(leader - me, t, n, opened=me > 0)
            farkle = 0.0
        else:
            before = table.roll_value(me, leader, t, n)
            farkle = 1.0 - table.win_chance(leader, me)
    elif unit == Unit.TURNS:
        solo = solve_solo(rules, setup.target, setup.opening)
        for s in splits:
            after = t + s.points
            options[s.dice] = (solo.bank_value(me, after), solo.roll_value(me, after, (n - len(s.dice)) or 6))
        before = solo.roll_value(me, t, n)
        farkle = solo.expected_turns(me)
    elif unit == Unit.CHANCE:
        h = hint(move.roll, t, rules, opening=opening, need=leader - me + STEP)
        for p in h.plays:
            assert p.chance is not None
            options[p.keep] = (p.chance.bank, p.chance.roll)
        reach = solve(rules, Objective.reach(leader - me + STEP, opening=opening))
        before = reach.roll_value(t, n)
        farkle = 0.0
    else:
        penalty = setup.penalty and move.farkles == FARKLES_FOR_PENALTY - 1
        farkle_value = -min(setup.penalty, me) if penalty else 0
        solution = solve(rules, Objective.expected(opening=opening, farkle_value=farkle_value))
        for s in splits:
            after = t + s.points
            options[s.dice] = (solution.bank_value(after), solution.roll_value(after, (n - len(s.dice)) or 6))
        before = solution.roll_value(t, n)
        farkle = float(farkle_value)
    return Values(unit, before, farkle, options)


# -- decisions


@dataclass(frozen=True)
class Review:
    """One decision of a person, graded by what it gave up against the best play.

    ``chosen`` and ``best_value`` are in the unit's own terms; ``lost`` in the unit shown
    (percentage points for a chance).
    """

    move: Move
    unit: Unit
    chosen: float
    best_keep: tuple[int, ...]
    best_action: Decision
    best_value: float
    lost: float
    grade: Grade

    @property
    def right(self) -> bool:
        return self.grade.right

    @property
    def gave_up(self) -> float:
        """What the decision gave up, counting nothing for a best play (a hair under the best value)."""
        return 0.0 if self.grade == Grade.BEST else self.lost

    @property
    def points_lost(self) -> float:
        """The loss on the points scale ratings use (see :func:`in_points`)."""
        return in_points(self.lost, self.unit)


def review_move(setup: Setup, move: Move) -> Review:
    """Grade one decision (a coach can call this right after it is made).

    Graded in points, a decision gets the grade and the loss the keep drill of its roll and
    turn points gets in ``decide``: the same exact values of the same plays.
    """
    if not move.decision:
        raise MatchError("a Farkle is not a decision")
    unit = grading_unit(setup, move)
    v = values(setup, move, unit)
    assert move.action != "farkle"
    chosen = v.value(move.keep, move.action)
    keep, action, best = v.best
    lost = loss(best, chosen, unit)
    return Review(move, unit, chosen, keep, action, best, lost, grade_for(lost, unit))


def review(state: MatchState) -> tuple[Review, ...]:
    """Every decision of the people playing, graded, in the order they were made."""
    people = state.setup.players
    return tuple(review_move(state.setup, m) for m in state.decisions if people[m.seat].human)


@dataclass(frozen=True)
class Summary:
    """A person's decisions in one game: grades, error rate and rating on ``decide``'s scale.

    ``average_loss`` is in points, a chance's percentage point counted as in ratings: the
    rating reads it. ``average_in_unit`` is the same average in ``loss_unit``, the unit the
    decisions were shown in (percentage points for a chance); when they were shown in more
    than one (``mixed``: points, and chances in last turns) it is the average in points.
    """

    seat: int
    decisions: int
    grades: dict[Grade, int]
    errors: int
    error_rate: float | None
    average_loss: float | None
    rating: str | None
    loss_unit: Unit = Unit.POINTS
    average_in_unit: float | None = None
    mixed: bool = False


def summarize(seat: int, reviews: Sequence[Review]) -> Summary:
    mine = [r for r in reviews if r.move.seat == seat]
    grades = {g: 0 for g in GRADES}
    for r in mine:
        grades[r.grade] += 1
    errors = sum(1 for r in mine if not r.right)
    average = sum(r.points_lost for r in mine) / len(mine) if mine else None
    units = {r.unit for r in mine}
    unit = next(iter(units)) if len(units) == 1 else Unit.POINTS
    in_unit = average if unit == Unit.POINTS or not mine else sum(r.lost for r in mine) / len(mine)
    return Summary(
        seat=seat,
        decisions=len(mine),
        grades=grades,
        errors=errors,
        error_rate=errors / len(mine) if mine else None,
        average_loss=average,
        rating=None if average is None else rating_for(average),
        loss_unit=unit,
        average_in_unit=in_unit,
        mixed=len(units) > 1,
    )


# -- luck and the account


@dataclass(frozen=True)
class Account:
    """One player's game in the game's unit (see the module's identities).

    ``expected``: the sum of the player's turn-start values (points), the expected turns
    from 0 (turns), or 100 x their chance of winning before the first roll (a two-player
    game). ``luck``: the sum of their rolls' luck. ``given_up``: the sum of what all their
    decisions gave up, computers' included. ``result``: the final score, the turns taken, or
    100 x the result of the game.
    """

    seat: int
    unit: Unit
    expected: float
    luck: float
    given_up: float
    result: float


@dataclass(frozen=True)
class Analysis:
    """A finished game: each person's decisions worst first, their summaries, every
    player's account, and the chance of winning through the game (two players)."""

    unit: Unit
    reviews: tuple[Review, ...]
    summaries: tuple[Summary, ...]
    accounts: tuple[Account, ...]
    chances: tuple[tuple[int, float], ...]
    chart_seat: int


def analyse(state: MatchState) -> Analysis:
    """Analyse a finished game."""
    if not state.over:
        raise MatchError("a game is analysed once it is over")
    setup = state.setup
    unit = game_unit(setup)
    by_move = [values(setup, m, unit) for m in state.log]
    reviews = sorted(review(state), key=lambda r: -r.points_lost)
    accounts = tuple(_account(state, seat, unit, by_move) for seat in range(setup.size))
    chart_seat = setup.humans[0] if setup.humans else 0
    return Analysis(
        unit=unit,
        reviews=tuple(reviews),
        summaries=tuple(summarize(seat, reviews) for seat in setup.humans),
        accounts=accounts,
        chances=win_chances(state, chart_seat) if unit == Unit.WIN else (),
        chart_seat=chart_seat,
    )


def _account(state: MatchState, seat: int, unit: Unit, by_move: Sequence[Values]) -> Account:
    setup = state.setup
    luck = 0.0
    given_up = 0.0
    starts = 0.0
    seen: set[int] = set()
    for move, v in zip(state.log, by_move, strict=True):
        if move.seat != seat:
            continue
        luck += v.luck
        if move.turn not in seen:
            seen.add(move.turn)
            starts += v.before
        if move.decision:
            assert move.action != "farkle"
            given_up += loss(v.after, v.value(move.keep, move.action), unit)
    if unit == Unit.WIN:
        first = solve_game(setup.rules, setup.target, setup.opening).first_player_chance
        expected = 100 * (first if seat == 0 else 1.0 - first)
        result = 100 * state.result(seat)
    elif unit == Unit.TURNS:
        expected = solve_solo(setup.rules, setup.target, setup.opening).expected_turns(0)
        result = float(state.turns[seat])
    else:
        expected = starts
        result = float(state.scores[seat])
    return Account(seat, unit, expected, luck, given_up, result)


def win_chances(state: MatchState, seat: int) -> tuple[tuple[int, float], ...]:
    """``(turn, chance)``: the chance that ``seat`` wins a two-player game as each turn
    starts, and its result (1, 0 or 1/2) after the last turn."""
    setup = state.setup
    if game_unit(setup) != Unit.WIN:
        raise MatchError("win chances are for two-player games without the three-Farkle penalty")
    table = solve_game(setup.rules, setup.target, setup.opening)
    points: list[tuple[int, float]] = []
    seen: set[int] = set()
    for move in state.log:
        if move.turn in seen:
            continue
        seen.add(move.turn)
        me, other = move.score, move.leader
        if move.last_turn:
            chance = table.final_turn_chance(other - me, opened=me > 0)
        else:
            chance = table.win_chance(me, other)
        points.append((move.turn, chance if move.seat == seat else 1.0 - chance))
    if state.over:
        points.append((state.turn, state.result(seat)))
    return tuple(points)
