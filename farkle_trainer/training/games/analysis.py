"""A finished game, analysed: every decision graded, the luck of the dice, the chances.

The game's unit (:func:`game_unit`) is what its decisions are worth:

* a two-player game to the target: the chance of winning (:attr:`Unit.WIN`, shown in
  percentage points), exact from the game solver, under the three-Farkle penalty with both
  players' runs of Farkles;
* solo for the fewest turns: the expected number of turns still needed (:attr:`Unit.TURNS`);
* otherwise (three or four players, solo for ten turns): the expected points the turn banks
  (:attr:`Unit.POINTS`), with the opening minimum and, on a turn that can bring the penalty,
  a Farkle worth minus the points it would cost (never in a last turn, whose Farkle just
  ends the game).

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

These hold for a game played to its end. A game given up (or set aside) is analysed too, up
to where it stopped: its decisions were made and can be learned from, but the resignation
itself gave up what the dice and the decisions had left, so the accounts no longer add up.

A player's strength in a game (:class:`Strength`) leaves the dice out. Against exact play the
expected sum of what a player's decisions give up equals how far their expected result falls
short of perfect play's from the same seat (the performance-difference identity of Markov
decision processes), so a game's **expected result against perfect play** is perfect play's
expectation from the seat less what the decisions gave up: a chance of winning (two players),
the points of ten turns, or the turns to the target (``expected + given up``). With three or
four players the chance of winning is not solved (Hard plays a two-player stand-in against the
leader): the figure is in points, over the turns before the final round, whose last turns are
played to pass the leader, not for points.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from farkle_trainer.engine.farkles import NO_RUNS, Runs
from farkle_trainer.engine.grading import GRADES, Grade, Unit, in_points, rating_for
from farkle_trainer.engine.house import opened
from farkle_trainer.engine.ranked import Ranked, prepare, ranked_plays
from farkle_trainer.engine.situations import Situation, SituationError, situation
from farkle_trainer.engine.solver import Objective
from farkle_trainer.training.games.match import (
    MatchState,
    Move,
    final_winners,
    move_runs,
)
from farkle_trainer.training.games.setup import SOLO_TURNS, Form, MatchError, Setup

if TYPE_CHECKING:
    from farkle_trainer.engine.tables import Tables

Decision = Literal["bank", "roll"]


def game_unit(setup: Setup) -> Unit:
    """What the decisions and luck of a game are measured in (see the module's list)."""
    if setup.form == Form.MATCH and setup.size == 2:
        return Unit.WIN
    if setup.form == Form.FEWEST_TURNS:
        return Unit.TURNS
    return Unit.POINTS


def grading_unit(setup: Setup, move: Move) -> Unit:
    """The unit one decision is graded in."""
    unit = game_unit(setup)
    return Unit.CHANCE if unit == Unit.POINTS and move.last_turn else unit


def situation_of(setup: Setup, move: Move, unit: Unit | None = None, runs: Runs = NO_RUNS) -> Situation:
    """What the mover of ``move`` plays for, valued in ``unit`` (default the game's).

    ``runs``: the mover's and the rival's Farkles in a row and who of them had opened (see
    :func:`~farkle_trainer.training.games.match.move_runs`).
    """
    return situation(
        setup.rules,
        move.points,
        game_unit(setup) if unit is None else unit,
        score=move.score,
        leader=move.leader,
        runs=runs,
        target=setup.target,
        opening=setup.opening,
    )


def values(
    tables: Tables, setup: Setup, move: Move, unit: Unit | None = None, runs: Runs = NO_RUNS
) -> Ranked:
    """Every play of one roll of a game for its mover, ranked, in ``unit`` (default the
    game's), with what the roll was worth before it was thrown and what a Farkle is worth."""
    return ranked_plays(tables, situation_of(setup, move, unit, runs), move.roll)


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


def review_move(tables: Tables, setup: Setup, move: Move, runs: Runs = NO_RUNS) -> Review:
    """Grade one decision (a coach can call this right after it is made).

    Graded in points, a decision gets the grade and the loss the keep drill of its roll and
    turn points gets in ``decide``: the same exact values of the same plays. ``runs``: as for
    :func:`values`.
    """
    if not move.decision:
        raise MatchError("a Farkle is not a decision")
    return _graded(move, values(tables, setup, move, grading_unit(setup, move), runs))


def _graded(move: Move, v: Ranked) -> Review:
    """The decision ``move`` made among the plays ``v`` (its roll's, in its grading unit)."""
    unit = v.unit
    assert move.action != "farkle" and v.best is not None
    try:
        chosen = v.choice(move.keep, move.action)
    except SituationError as refused:
        raise MatchError(str(refused)) from None
    best = v.best
    lost = v.loss(chosen)
    return Review(
        move, unit, chosen.value.amount, best.keep, best.action, best.value.amount, lost, v.grade(chosen)
    )


@dataclass(frozen=True)
class Step:
    """One move of a game as a walk through it shows it: the roll, and for a decision its
    grade against the best play (None for a Farkle, which is no decision).

    ``plays``: every play of the roll for its mover, ranked, in the unit the move is graded in
    (:func:`grading_unit`), with what the roll was worth before it was thrown. ``luck``: what
    the dice gave the mover, the roll's value once thrown (its best play's, or the Farkle's)
    less its value before, in that unit's display scale (percentage points for a chance; for
    turns, the turns the dice saved). Where the move is graded in the game's unit, a player's
    moves' luck adds up to their :attr:`Account.luck`.
    """

    move: Move
    review: Review | None
    plays: Ranked
    luck: float


def step_of(tables: Tables, setup: Setup, move: Move, runs: Runs = NO_RUNS) -> Step:
    """One move, valued for its mover and graded as a person's decision is, whoever made it."""
    plays = values(tables, setup, move, grading_unit(setup, move), runs)
    return Step(move, _graded(move, plays) if move.decision else None, plays, plays.luck)


def steps(tables: Tables, state: MatchState) -> tuple[Step, ...]:
    """Every move of the game in order, each decision graded as a person's is, whoever made it."""
    return tuple(
        step_of(tables, state.setup, m, runs) for m, runs in zip(state.log, move_runs(state), strict=True)
    )


def review(tables: Tables, state: MatchState) -> tuple[Review, ...]:
    """Every decision of the people playing, graded, in the order they were made."""
    people = state.setup.players
    return tuple(
        review_move(tables, state.setup, m, runs)
        for m, runs in zip(state.log, move_runs(state), strict=True)
        if m.decision and people[m.seat].human
    )


@dataclass(frozen=True)
class Summary:
    """A person's decisions in one game: grades, error rate and rating on ``decide``'s scale.

    ``average_loss`` is in points, a chance's percentage point counted as in ratings: the
    rating reads it. ``average_in_unit`` is the same average in ``loss_unit``, the unit the
    decisions were shown in (percentage points for a chance); when they were shown in more
    than one (``mixed``: points, and chances in last turns) it is the average in points.
    ``errors`` counts the decisions graded an inaccuracy or worse, ``gave_up`` every one that
    gave up anything.
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
    #: Decisions that gave up anything at all, an inaccuracy or not (``errors`` counts those
    #: graded an inaccuracy or worse).
    gave_up: int = 0


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
        gave_up=sum(1 for r in mine if r.gave_up > 0),
    )


def grade_counts(steps: Sequence[Step], seat: int) -> dict[Grade, int]:
    """How many of the decisions of ``seat`` (a person's or a computer's) got each grade."""
    counts = {g: 0 for g in GRADES}
    for s in steps:
        if s.review is not None and s.move.seat == seat:
            counts[s.review.grade] += 1
    return counts


# -- luck and the account


@dataclass(frozen=True)
class Account:
    """One player's game in the game's unit (see the module's identities).

    ``expected``: the sum of the player's turn-start values (points), the expected turns
    from 0 (turns), or 100 x their chance of winning before the first roll (a two-player
    game). ``luck``: the sum of their rolls' luck. ``given_up``: the sum of what all their
    decisions gave up, computers' included. ``result``: the final score, the turns taken, or
    100 x the result of the game; None for a game set aside, which has none.
    """

    seat: int
    unit: Unit
    expected: float
    luck: float
    given_up: float
    result: float | None


@dataclass(frozen=True)
class Strength:
    """One player's play in a game played to its end, against perfect play (see the module's
    identity), in the game's unit.

    ``perfect``: what perfect play expects from the player's seat: the chance of winning before
    the first roll (0 to 1, two players), the points of the player's turns (the sum of each
    turn's expected score from where it started), or the turns to the target from 0.
    ``given_up``: what the player's decisions gave up, in the display scale (percentage points
    of a chance), ``decisions`` how many they made and ``turns`` over how many turns. With three or
    four players (``final_round_left_out``) these count the turns before the final round only.

    ``luck``: the luck of all the player's rolls, display scale. ``result``: the game's result
    in the unit's own terms (1, 0 or a share of a shared win; the score; the turns taken), and
    ``luck_adjusted`` the same with the luck of the dice taken out, as GNU Backgammon counts it:
    the player's own, and in a two-player game the opponent's too.
    """

    seat: int
    unit: Unit
    perfect: float
    given_up: float
    decisions: int
    turns: int
    luck: float
    result: float
    luck_adjusted: float
    final_round_left_out: bool = False

    @property
    def expected_result(self) -> float:
        """The result the player's decisions were expected to give against perfect play, in the
        unit's own terms: perfect play's expectation less what the decisions gave up (for
        turns, plus). One game's figure is an estimate: it can fall below 0 (a two-player game
        whose luck was thrown away), its mean over games cannot."""
        if self.unit == Unit.WIN:
            return self.perfect - self.given_up / 100
        if self.unit == Unit.TURNS:
            return self.perfect + self.given_up
        return self.perfect - self.given_up

    @property
    def start_chance(self) -> float | None:
        """The seat's exact chance of winning before the first roll (two players only)."""
        return self.perfect if self.unit == Unit.WIN else None


@dataclass(frozen=True)
class Analysis:
    """A game analysed: each person's decisions worst first, their summaries, every player's
    account, and the chance of winning through the game (two players).

    ``resigned`` is the seat that gave the game up, ``stopped`` says it was set aside before
    its end (neither for a game played to its end).
    """

    unit: Unit
    reviews: tuple[Review, ...]
    summaries: tuple[Summary, ...]
    accounts: tuple[Account, ...]
    chances: tuple[tuple[int, float], ...]
    chart_seat: int
    resigned: int | None = None
    stopped: bool = False
    #: A solo game's: what perfect play expects of it before its first roll (see
    #: :func:`perfect_expectation`).
    perfect: float | None = None
    #: Every move in order, each with its plays and its luck (see :class:`Step`).
    steps: tuple[Step, ...] = ()
    #: Every player's :class:`Strength`, by seat; none for a game that did not reach its end.
    strengths: tuple[Strength, ...] = ()

    def strength_of(self, seat: int) -> Strength | None:
        return next((x for x in self.strengths if x.seat == seat), None)


def perfect_expectation(tables: Tables, setup: Setup) -> float | None:
    """What perfect play expects of a solo game before its first roll, exactly: the score of
    ten turns (ten times the expected score of a turn), or the turns to reach the target from 0
    (the solo solver's). None for a game to the target, and for ten turns under an opening
    minimum or the three-Farkle penalty, where a turn's value depends on where it starts (what
    the turns were worth from there is each account's ``expected``)."""
    if setup.form == Form.FEWEST_TURNS:
        return tables.solo(setup.rules, setup.target, setup.opening).expected_turns(0)
    if setup.form == Form.TEN_TURNS and not (setup.opening or setup.penalty):
        return SOLO_TURNS * tables.turn(setup.rules, Objective.expected()).expected_turn_score
    return None


def analyse(
    tables: Tables, state: MatchState, *, resigned: int | None = None, stopped: bool = False
) -> Analysis:
    """Analyse a game that has ended: over, given up by the seat ``resigned``, or set aside
    (``stopped``) before its end; the last two up to where they stopped."""
    if not (state.over or resigned is not None or stopped):
        raise MatchError("a game is analysed once it is over, given up or set aside")
    if state.over:
        resigned, stopped = None, False
    setup = state.setup
    unit = game_unit(setup)
    moves = steps(tables, state)
    by_move = move_values(tables, state, moves)
    people = setup.players
    mine = (s.review for s in moves if s.review is not None and people[s.move.seat].human)
    reviews = sorted(mine, key=lambda r: -r.points_lost)
    ended = _results(state, resigned, stopped)
    accounts = tuple(_account(tables, state, seat, unit, by_move, ended) for seat in range(setup.size))
    strengths = strengths_of(state, by_move, accounts) if state.over else ()
    chart_seat = setup.humans[0] if setup.humans else 0
    return Analysis(
        unit=unit,
        reviews=tuple(reviews),
        summaries=tuple(summarize(seat, reviews) for seat in setup.humans),
        accounts=accounts,
        chances=win_chances(tables, state, chart_seat, resigned=resigned) if unit == Unit.WIN else (),
        chart_seat=chart_seat,
        resigned=resigned,
        stopped=stopped,
        perfect=perfect_expectation(tables, setup),
        steps=moves,
        strengths=strengths,
    )


def move_values(tables: Tables, state: MatchState, known: Sequence[Step] = ()) -> tuple[Ranked, ...]:
    """Every move's roll valued in the game's unit for its mover, in the order of the log.
    ``known``: the game's steps, if already valued; a step graded in the game's unit (all but
    a last turn's in a game valued in points) is not valued again."""
    setup = state.setup
    unit = game_unit(setup)
    moves = list(zip(state.log, move_runs(state), strict=True))
    reused = {i: s.plays for i, s in enumerate(known) if s.plays is not None and s.plays.unit == unit}
    wanted = {i: situation_of(setup, m, unit, runs) for i, (m, runs) in enumerate(moves) if i not in reused}
    prepare(tables, wanted.values())
    return tuple(
        reused[i] if i in reused else ranked_plays(tables, wanted[i], move.roll)
        for i, (move, _) in enumerate(moves)
    )


def game_strengths(tables: Tables, state: MatchState) -> tuple[Strength, ...]:
    """Every player's :class:`Strength` in a game played to its end, alone: what the figures
    across games read, without grading each decision as :func:`analyse` does."""
    if not state.over:
        raise MatchError("a game's strength is for a game played to its end")
    setup = state.setup
    unit = game_unit(setup)
    by_move = move_values(tables, state)
    ended = _results(state, None, False)
    accounts = tuple(_account(tables, state, seat, unit, by_move, ended) for seat in range(setup.size))
    return strengths_of(state, by_move, accounts)


def strengths_of(
    state: MatchState, by_move: Sequence[Ranked], accounts: Sequence[Account]
) -> tuple[Strength, ...]:
    """Each player's strength from the values of every move and the accounts of a game over."""
    return tuple(_strength(state, a, by_move, accounts) for a in accounts)


def _strength(
    state: MatchState, account: Account, by_move: Sequence[Ranked], accounts: Sequence[Account]
) -> Strength:
    setup = state.setup
    seat, unit = account.seat, account.unit
    assert account.result is not None
    others_luck = sum(a.luck for a in accounts if a.seat != seat)
    if unit == Unit.WIN:
        result = account.result / 100
        luck_adjusted = result - (account.luck - others_luck) / 100
    elif unit == Unit.TURNS:
        result = account.result
        luck_adjusted = result + account.luck
    else:
        result = account.result
        luck_adjusted = result - account.luck
    mine = [(m, v) for m, v in zip(state.log, by_move, strict=True) if m.seat == seat]
    left_out = unit == Unit.POINTS and setup.form == Form.MATCH
    if left_out:
        # The final round's last turns play to pass the leader, not for points.
        mine = [(m, v) for m, v in mine if not m.last_turn]
        starts: dict[int, float] = {}
        for m, v in mine:
            starts.setdefault(m.turn, v.before.amount)
        perfect = sum(starts.values())
        given_up = sum(_given_up(m, v) for m, v in mine if m.decision)
    else:
        perfect = account.expected / 100 if unit == Unit.WIN else account.expected
        given_up = account.given_up
    return Strength(
        seat=seat,
        unit=unit,
        perfect=perfect,
        given_up=given_up,
        decisions=sum(1 for m, _ in mine if m.decision),
        turns=len({m.turn for m, _ in mine}),
        luck=account.luck,
        result=result,
        luck_adjusted=luck_adjusted,
        final_round_left_out=left_out,
    )


def _given_up(move: Move, v: Ranked) -> float:
    """What the play of ``move`` gave up against the best play of its roll, display scale (exact:
    a hair's loss counts too, where a grade calls the play best)."""
    assert move.action != "farkle"
    return v.choice(move.keep, move.action).value.loss_to(v.after)


def _results(state: MatchState, resigned: int | None, stopped: bool) -> tuple[float, ...] | None:
    """What the game gave each seat (1, 0 or a share of a shared win); None for a game set aside."""
    if stopped:
        return None
    winners = final_winners(state, resigned)
    if winners is None:  # solo, given up: the score or the turns stand as they are
        return (0.0,) * state.setup.size
    return tuple(1.0 / len(winners) if seat in winners else 0.0 for seat in range(state.setup.size))


def _account(
    tables: Tables,
    state: MatchState,
    seat: int,
    unit: Unit,
    by_move: Sequence[Ranked],
    ended: tuple[float, ...] | None,
) -> Account:
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
            starts += v.before.amount
        if move.decision:
            given_up += _given_up(move, v)
    result: float | None
    if unit == Unit.WIN:
        first = tables.game(setup.rules, setup.target, setup.opening).first_player_chance
        expected = 100 * (first if seat == 0 else 1.0 - first)
        result = None if ended is None else 100 * ended[seat]
    elif unit == Unit.TURNS:
        expected = tables.solo(setup.rules, setup.target, setup.opening).expected_turns(0)
        result = float(state.turns[seat])
    else:
        expected = starts
        result = float(state.scores[seat])
    return Account(seat, unit, expected, luck, given_up, result)


def win_chances(
    tables: Tables, state: MatchState, seat: int, *, resigned: int | None = None
) -> tuple[tuple[int, float], ...]:
    """``(turn, chance)``: the chance that ``seat`` wins a two-player game as each turn
    starts, and its result (1, 0 or 1/2) after the last turn, or once the seat ``resigned``
    gave the game up (nothing after a game set aside)."""
    setup = state.setup
    if game_unit(setup) != Unit.WIN:
        raise MatchError("win chances are for two-player games")
    table = tables.game(setup.rules, setup.target, setup.opening)
    points: list[tuple[int, float]] = []
    seen: set[int] = set()
    for move, runs in zip(state.log, move_runs(state), strict=True):
        if move.turn in seen:
            continue
        seen.add(move.turn)
        me, other = move.score, move.leader
        if move.last_turn:
            chance = table.final_turn_chance(other - me, opened=opened(me, runs))
        else:
            chance = table.win_chance(me, other, runs)
        points.append((move.turn, chance if move.seat == seat else 1.0 - chance))
    winners = final_winners(state, resigned)
    if winners is not None:
        points.append((state.turn, 1.0 / len(winners) if seat in winners else 0.0))
    return tuple(points)
