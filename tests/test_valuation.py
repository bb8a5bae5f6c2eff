"""One valuation: values that know their unit, a situation per goal, one valuer over each table,
and every play of a roll ranked.

Every play's value is checked against its table read directly (the turn solution, the game and
the solo tables), the order against the rule written out here, and the value of a roll before
it is thrown against the mean over every fair roll of what it is worth once thrown (one step of
the Bellman equation, worked out here: the luck of the dice averages 0).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from farkle_trainer import load_rules
from farkle_trainer.engine.dice import counts_of, multisets, roll_chance
from farkle_trainer.engine.farkles import Runs
from farkle_trainer.engine.grading import Grade, Unit
from farkle_trainer.engine.house import farkle_cost, least_bank, opened_matters
from farkle_trainer.engine.ranked import Ranked, ranked_plays
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.situations import (
    FewestTurns,
    ReachTotal,
    Situation,
    SituationError,
    TurnPoints,
    WinGame,
    situation,
)
from farkle_trainer.engine.solver import Objective
from farkle_trainer.engine.tables import Tables
from farkle_trainer.engine.value import Value

CLASSIC = load_rules("classic")
SHORT = CLASSIC.with_house_rules(target=2000)
PENALTY = CLASSIC.with_house_rules(three_farkle_penalty=1000)
#: A short game with both house rules: opening 350, three Farkles in a row cost 500.
KNOCKED = CLASSIC.with_house_rules(target=1000, opening_minimum=350, three_farkle_penalty=500)


# -- values


def test_values_compare_by_how_good_they_are_and_only_within_their_unit() -> None:
    assert Value(Unit.POINTS, 450.0) < Value(Unit.POINTS, 500.0)
    assert Value(Unit.WIN, 0.6) > Value(Unit.WIN, 0.5)
    # Fewer turns are better: the smaller amount is the greater value.
    assert Value(Unit.TURNS, 4.0) > Value(Unit.TURNS, 4.5)
    assert max(Value(Unit.TURNS, 4.5), Value(Unit.TURNS, 4.0)) == Value(Unit.TURNS, 4.0)
    assert Value(Unit.CHANCE, 0.5) == Value(Unit.CHANCE, 0.5) and float(Value(Unit.CHANCE, 0.5)) == 0.5
    with pytest.raises(TypeError):
        _ = Value(Unit.WIN, 0.5) < Value(Unit.CHANCE, 0.6)
    with pytest.raises(TypeError):
        Value(Unit.POINTS, 1.0).loss_to(Value(Unit.TURNS, 1.0))


def test_a_loss_and_the_luck_come_out_in_the_units_display_scale() -> None:
    assert Value(Unit.WIN, 0.40).loss_to(Value(Unit.WIN, 0.43)) == pytest.approx(3.0)
    assert Value(Unit.CHANCE, 0.40).loss_to(Value(Unit.CHANCE, 0.43)) == pytest.approx(3.0)
    assert Value(Unit.POINTS, 500.0).loss_to(Value(Unit.POINTS, 542.5)) == 42.5
    assert Value(Unit.TURNS, 5.25).loss_to(Value(Unit.TURNS, 5.0)) == 0.25
    # A better play gives up nothing.
    assert Value(Unit.TURNS, 5.0).loss_to(Value(Unit.TURNS, 5.25)) == 0.0
    assert Value(Unit.POINTS, 550.0).gain_over(Value(Unit.POINTS, 500.0)) == 50.0
    assert Value(Unit.TURNS, 4.0).gain_over(Value(Unit.TURNS, 4.5)) == 0.5
    assert Value(Unit.WIN, 0.25).gain_over(Value(Unit.WIN, 0.5)) == -25.0
    assert Value(Unit.WIN, 0.5).grade_to(Value(Unit.WIN, 0.505)) == Grade.INACCURACY  # 0.25 to 1 pp
    assert Value(Unit.POINTS, 500.0).grade_to(Value(Unit.POINTS, 561.0)) == Grade.BLUNDER


# -- the rules of a game: who is held by the opening minimum, what a Farkle costs


def test_the_opening_minimum_holds_a_player_until_they_have_opened() -> None:
    house = CLASSIC.with_house_rules(opening_minimum=500)
    assert least_bank(house, 0) == 500
    assert least_bank(house, 50) == 0
    # Knocked back to 0 by the penalty: opened already.
    assert least_bank(house, 0, Runs(my_opened=True)) == 0
    assert least_bank(CLASSIC, 0) == 0
    # A game's own opening minimum, where it is given apart from the rules.
    assert least_bank(CLASSIC, 0, opening=350) == 350 and least_bank(house, 0, opening=0) == 0
    # Only then does a player knocked back to 0 stand apart from one who never banked.
    assert opened_matters(house) and opened_matters(CLASSIC, opening=350)
    assert not opened_matters(CLASSIC) and not opened_matters(house, opening=0)
    assert situation(house, 0, Unit.POINTS) == TurnPoints(house, 0, opening=500)
    assert situation(house, 0, Unit.POINTS, score=700) == TurnPoints(house, 0)
    assert situation(house, 300, Unit.CHANCE, leader=10_200) == ReachTotal(house, 300, 10_250, 500)
    assert situation(house, 300, Unit.CHANCE, score=9_020, leader=10_000) == ReachTotal(house, 300, 1000)


def test_a_third_farkle_costs_the_penalty_never_more_than_is_banked_and_nothing_in_a_last_turn() -> None:
    cases = [
        (700, Runs(my_farkles=2), 0, 700),
        (3000, Runs(my_farkles=2), 0, 1000),
        (3000, Runs(my_farkles=1), 0, 0),
        (0, Runs(my_farkles=2), 0, 0),
        (3000, Runs(my_farkles=2), 10_000, 0),  # the leader has reached the target: a last turn
        (3000, Runs(my_farkles=2, opponent_farkles=2), 9_950, 1000),
    ]
    for score, runs, leader, cost in cases:
        assert farkle_cost(PENALTY, score, runs, last_turn=leader >= 10_000) == cost
        made = situation(PENALTY, 300, Unit.POINTS, score=score, runs=runs, leader=leader)
        assert made == TurnPoints(PENALTY, 300, farkle_cost=cost)
    assert farkle_cost(CLASSIC, 3000, Runs(my_farkles=2)) == 0


def test_a_game_situation_is_played_for_the_game_and_knows_its_last_turn() -> None:
    made = situation(SHORT, 200, Unit.WIN, score=1200, leader=1900)
    assert made == WinGame(SHORT, 200, 2000, 0, 1200, 1900) and not made.last_turn
    assert situation(SHORT, 200, Unit.WIN, score=1200, leader=2100).last_turn  # type: ignore[union-attr]
    assert situation(SHORT, 0, Unit.TURNS, score=1200) == FewestTurns(SHORT, 0, 2000, 0, 1200)


@pytest.mark.parametrize(
    "make",
    [
        lambda: TurnPoints(CLASSIC, 30),
        lambda: TurnPoints(CLASSIC, 0, opening=25),
        lambda: TurnPoints(CLASSIC, 0, farkle_cost=-500),
        lambda: ReachTotal(CLASSIC, 0, 0),
        lambda: WinGame(SHORT, 0, 2000, 0, 2000, 0),  # at the target already
        lambda: WinGame(SHORT, 0, 950, 0, 0, 0),  # no game is that short
        lambda: WinGame(SHORT, 0, 2000, 2050, 0, 0),  # an opening minimum above the target
        lambda: WinGame(SHORT, 0, 2000, 0, 0, 25),
        lambda: WinGame(SHORT, 0, 2000, 0, 0, 0, Runs(my_farkles=1)),  # no penalty
        lambda: WinGame(KNOCKED, 0, 1000, 350, 100, 0, Runs(my_opened=True)),  # opened on 100?
        lambda: FewestTurns(KNOCKED, 0, 1000, 350, 0, Runs(opponent_farkles=1)),
        lambda: FewestTurns(SHORT, 0, 2000, 0, -50),
    ],
)
def test_impossible_situations_are_refused(make: object) -> None:
    with pytest.raises(SituationError):
        make()  # type: ignore[operator]


# -- every play of a roll, valued by its table read directly


def table_values(tables: Tables, s: Situation, t: int, n: int) -> tuple[float | None, float]:
    """What banking ``t`` and rolling ``n`` dice are worth, asked of the situation's table itself."""
    if isinstance(s, TurnPoints | ReachTotal):
        objective = (
            Objective.reach(s.need, opening=s.opening)
            if isinstance(s, ReachTotal)
            else Objective.expected(opening=s.opening, farkle_value=-s.farkle_cost)
        )
        solution = tables.turn(s.rules, objective)
        return solution.bank_value(t), solution.roll_value(t, n)
    if isinstance(s, FewestTurns):
        solo = tables.solo(s.rules, s.target, s.opening)
        return solo.bank_value(s.score, t, s.runs), solo.roll_value(s.score, t, n, s.runs)
    table = tables.game(s.rules, s.target, s.opening)
    if s.last_turn:
        opened = s.score > 0 or bool(s.runs.my_opened) or not s.opening
        behind = s.opponent - s.score
        bank = table.final_bank_value(behind, t, opened=opened)
        return bank, table.final_roll_value(behind, t, n, opened=opened)
    bank = table.bank_value(s.score, s.opponent, t, s.runs)
    return bank, table.roll_value(s.score, s.opponent, t, n, s.runs)


def farkle_value(tables: Tables, s: Situation) -> float:
    """What a Farkle leaves, asked of the table: minus the cost in points, nothing to pass a leader,
    the opponent's turn (or the game over, in a last turn), the turns still to go in solo."""
    if isinstance(s, TurnPoints):
        return -float(s.farkle_cost)
    if isinstance(s, ReachTotal):
        return 0.0
    if isinstance(s, FewestTurns):
        return tables.solo(s.rules, s.target, s.opening).farkle_value(s.score, s.runs)
    if s.last_turn:
        return 0.0
    return tables.game(s.rules, s.target, s.opening).farkle_value(s.score, s.opponent, s.runs)


def check_plays(tables: Tables, s: Situation, roll: tuple[int, ...]) -> Ranked:
    """Every play of ``roll`` is worth what the table says, the set-asides and the plays are in
    the order of the module's rule, and the roll is worth the table's roll of its dice."""
    ranked = ranked_plays(tables, s, roll)
    unit = s.unit
    better = (lambda v: v) if unit.lower_is_better else (lambda v: -v)
    expected = (
        tables.turn(s.rules, Objective.expected(opening=s.opening)) if isinstance(s, ReachTotal) else None
    )
    rows = []
    for split in score_table(s.rules).selections(counts_of(roll)):
        left = len(roll) - len(split.dice)
        t = s.points + split.points
        bank, rolled = table_values(tables, s, t, left or 6)
        best = rolled if bank is None else (min if unit.lower_is_better else max)(bank, rolled)
        second = 0.0 if expected is None else expected.value_after(t, left or 6)
        rows.append(
            ((better(best), -second, -split.points, -(left or 6), split.dice), split.dice, bank, rolled)
        )
    rows.sort()
    assert [o.keep for o in ranked.options] == [keep for _, keep, _, _ in rows]
    plays = []
    for i, (_, keep, bank, rolled) in enumerate(rows):
        option = ranked.options[i]
        assert option.roll == Value(unit, rolled)
        assert option.bank == (None if bank is None else Value(unit, bank))
        plays.append((better(rolled), i, 0 if option.action == "roll" else 1, keep, "roll"))
        if bank is not None:
            plays.append((better(bank), i, 0 if option.action == "bank" else 1, keep, "bank"))
    plays.sort()
    assert [(c.keep, c.action) for c in ranked.candidates] == [(k, a) for *_, k, a in plays]
    assert ranked.before == Value(unit, table_values(tables, s, s.points, len(roll))[1])
    assert ranked.farkle == Value(unit, farkle_value(tables, s))
    if ranked.best is not None:
        for c in ranked.candidates:
            assert ranked.loss(c) == c.value.loss_to(ranked.best.value) >= 0
        assert ranked.loss(ranked.best) == 0 and ranked.grade(ranked.best) == Grade.BEST
    return ranked


ROLLS = st.lists(st.integers(1, 6), min_size=1, max_size=6).map(tuple)
LEVELS = st.integers(0, 40).map(lambda k: 50 * k)


@st.composite
def turn_situations(draw: st.DrawFn) -> Situation:
    points = draw(LEVELS)
    if draw(st.booleans()):
        need = draw(st.sampled_from((300, 1000, 2050)))
        return ReachTotal(CLASSIC, points, need, draw(st.sampled_from((0, 500))))
    opening = draw(st.sampled_from((0, 500)))
    return TurnPoints(PENALTY, points, opening, draw(st.sampled_from((0, 300, 1000))))


@st.composite
def game_situations(draw: st.DrawFn) -> Situation:
    points = draw(LEVELS)
    if draw(st.booleans()):
        score = 50 * draw(st.integers(0, 39))
        last = draw(st.booleans())
        opponent = 2000 + 50 * draw(st.integers(0, 10)) if last else 50 * draw(st.integers(0, 39))
        return WinGame(SHORT, points, 2000, 0, score, opponent)
    score, opponent = (50 * draw(st.sampled_from((0, 0, 7, 12, 19))) for _ in range(2))
    runs = Runs(
        draw(st.integers(0, 2)),
        draw(st.integers(0, 2)),
        draw(st.sampled_from((True, None))) if score == 0 else None,
        draw(st.sampled_from((True, None))) if opponent == 0 else None,
    )
    if draw(st.booleans()):
        return FewestTurns(KNOCKED, points, 1000, 350, score, Runs(runs.my_farkles, 0, runs.my_opened))
    return WinGame(KNOCKED, points, 1000, 350, score, opponent, runs)


@given(turn_situations(), ROLLS)
def test_every_play_in_a_turn_is_worth_the_solutions_value(
    tables: Tables, s: Situation, roll: tuple[int, ...]
) -> None:
    check_plays(tables, s, roll)


@given(game_situations(), ROLLS)
def test_every_play_in_a_game_is_worth_the_tables_value(
    tables: Tables, s: Situation, roll: tuple[int, ...]
) -> None:
    check_plays(tables, s, roll)


def test_solo_plays_are_worth_the_solo_tables_turns(tables: Tables) -> None:
    for points, score, roll in (
        (300, 1500, (1, 5, 2, 3)),
        (0, 1150, (2, 2, 4, 4, 5, 5)),
        (0, 0, (1, 2, 3, 4, 6)),
    ):
        ranked = check_plays(tables, FewestTurns(SHORT, points, 2000, 0, score), roll)
        assert ranked.best is not None and ranked.best.value == max(c.value for c in ranked.candidates)


# -- the value before a roll: the mean over every fair roll of its value once thrown


@pytest.mark.parametrize(
    ("s", "n"),
    [
        (TurnPoints(CLASSIC, 300), 3),
        (TurnPoints(PENALTY, 0, opening=500, farkle_cost=700), 4),
        (ReachTotal(CLASSIC, 400, 1000), 3),
        (WinGame(SHORT, 250, 2000, 0, 1200, 1700), 3),
        (WinGame(SHORT, 150, 2000, 0, 1200, 2250), 4),  # a last turn
        (WinGame(KNOCKED, 100, 1000, 350, 0, 400, Runs(2, 1, True, None)), 3),
        (FewestTurns(SHORT, 300, 2000, 0, 1500), 3),
        (FewestTurns(KNOCKED, 0, 1000, 350, 0, Runs(2)), 2),
    ],
    ids=["points", "opening and penalty", "reach", "game", "last turn", "game runs", "solo", "solo runs"],
)
def test_the_value_before_a_roll_is_the_mean_of_its_value_once_thrown(
    tables: Tables, s: Situation, n: int
) -> None:
    mean = 0.0
    luck = 0.0
    for counts in multisets(n):
        roll = tuple(face for face in range(1, 7) for _ in range(counts[face - 1]))
        ranked = ranked_plays(tables, s, roll)
        chance = float(roll_chance(counts))
        mean += chance * ranked.after.amount
        luck += chance * ranked.luck
        assert ranked.before == ranked_plays(tables, s, (1,) * n).before
    before = ranked_plays(tables, s, (1,) * n).before
    assert mean == pytest.approx(before.amount, abs=1e-9)
    assert luck == pytest.approx(0.0, abs=1e-7)


def test_a_farkle_is_worth_the_farkle_and_its_luck_is_what_it_took(tables: Tables) -> None:
    ranked = ranked_plays(tables, TurnPoints(PENALTY, 500, farkle_cost=700), (2, 3, 4, 6))
    assert ranked.is_farkle and ranked.best is None and ranked.candidates == ()
    assert ranked.after == ranked.farkle == Value(Unit.POINTS, -700.0)
    assert ranked.luck == -700.0 - tables.turn(PENALTY, Objective.expected(farkle_value=-700)).roll_value(
        500, 4
    )


def test_a_play_is_found_by_its_dice_and_action_and_a_missing_one_is_refused(tables: Tables) -> None:
    ranked = ranked_plays(tables, TurnPoints(CLASSIC, 350, opening=500), (1, 3, 5, 4))
    assert ranked.choice((5, 1), "bank").points_after == 500
    assert set(ranked.keeps) == {(1, 5), (1,), (5,)}
    with pytest.raises(SituationError, match="cannot bank 450"):
        ranked.choice((1,), "bank")
    with pytest.raises(SituationError, match="not a play"):
        ranked.choice((3,), "roll")
    only = ranked.only((5, 1))
    assert {c.keep for c in only.candidates} == {(1, 5)} and only.before == ranked.before


def test_a_table_plays_its_own_action_after_the_best_set_aside(tables: Tables) -> None:
    # 800 at stake, 1,250 to 1,750 in a game to 2,000: winning rolls the 4 dice the 1 leaves.
    ranked = ranked_plays(tables, WinGame(SHORT, 800, 2000, 0, 1250, 1750), (1, 5, 2, 3, 6))
    play = ranked.table_play
    assert play is not None and (play.keep, play.action) == ((1,), "roll")
    assert ranked.best is not None and (ranked.best.keep, ranked.best.action) == ((1,), "roll")
    assert ranked_plays(tables, TurnPoints(CLASSIC, 0), (2, 3, 4, 6, 6, 3)).table_play is None
