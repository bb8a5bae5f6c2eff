"""The ten-turn game engine: transitions, saved state, perfect play and the review of decisions."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date

import pytest

from farkle_trainer.engine.dice import counts_of
from farkle_trainer.engine.grading import Unit, grade_for
from farkle_trainer.engine.plays import hint
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.engine.solver import Objective
from farkle_trainer.engine.tables import Tables
from farkle_trainer.training.games import match as game
from farkle_trainer.training.games import tenturns
from farkle_trainer.training.games.analysis import review, review_move
from farkle_trainer.training.games.dice import DiceSource, daily_source, seeded_source
from farkle_trainer.training.games.match import MatchState, Move
from farkle_trainer.training.games.setup import TEN_TURNS, MatchError


def rolls(*table: Sequence[int]):
    """A source whose roll ``r`` shows ``table[r - 1]`` (place 1 first)."""

    def die(roll: int, place: int) -> int:
        return table[roll - 1][place - 1]

    return die


def test_a_turn_banked() -> None:
    source = rolls([1, 5, 2, 3, 4, 6], [1, 1, 1, 2, 3], [2, 2, 3, 4, 4, 6])
    state = game.new_match(TEN_TURNS)
    assert state.phase == "roll" and state.turn == 1 and state.dice == 6
    state = game.roll(state, source)
    assert state.phase == "pick" and state.roll == (1, 5, 2, 3, 4, 6) and state.rolls == 1
    state = game.set_aside(state, [5, 1])
    assert state.phase == "choose" and state.kept == (1, 5) and state.points == 150 and state.dice == 4
    assert state.stake == 0 and state.kept_points == 150
    state = game.roll_on(state, source)
    assert state.roll == (1, 1, 1, 2) and state.rolls == 2 and state.stake == 150
    state = game.set_aside(state, (1, 1, 1))
    assert state.points == 1150 and state.dice == 1
    state = game.bank(state)
    assert state.turn == 2 and state.banked == 1150 and state.points == 0 and state.dice == 6
    assert state.marks == (".",) and state.turn_scores == (1150,)
    assert state.log == (
        Move(1, 1, (1, 5, 2, 3, 4, 6), 0, (1, 5), "roll"),
        Move(1, 2, (1, 1, 1, 2), 150, (1, 1, 1), "bank"),
    )
    # The next turn starts on roll 3: a Farkle, which ends it at once.
    state = game.roll(state, source)
    assert state.turn == 3 and state.marks == (".", "F") and state.turn_scores == (1150, 0)
    assert state.log[-1] == Move(2, 3, (2, 2, 3, 4, 4, 6), 0, (), "farkle")
    assert [m.action for m in state.decisions] == ["roll", "bank"]


def test_a_farkle_loses_the_turn_points() -> None:
    source = rolls([5, 2, 2, 3, 4, 6], [2, 3, 4, 6, 6])
    state = game.set_aside(game.roll(game.new_match(TEN_TURNS), source), (5,))
    state = game.roll_on(state, source)
    assert state.turn == 2 and state.banked == 0 and state.turn_scores == (0,) and state.marks == ("F",)
    assert state.log[-1] == Move(1, 2, (2, 3, 4, 6, 6), 50, (), "farkle")
    assert state.phase == "roll"


def test_hot_dice_roll_all_six_again() -> None:
    source = rolls([1, 1, 1, 5, 5, 5], [1, 2, 3, 4, 6, 6], [2, 3, 4, 6, 6, 3])
    state = game.set_aside(game.roll(game.new_match(TEN_TURNS), source), (1, 1, 1, 5, 5, 5))
    assert state.dice_left == 0 and state.dice == 6 and state.hot and state.points == 2500  # two triplets
    state = game.roll_on(state, source)
    assert len(state.roll) == 6
    state = game.bank(game.set_aside(state, (1,)))
    assert state.banked == 2600 and state.marks == ("H",)
    # Hot dice and then a Farkle: the turn is marked by the Farkle that ended it.
    source = rolls([1, 2, 3, 4, 5, 6], [2, 2, 3, 3, 4, 6])
    state = game.roll_on(
        game.set_aside(game.roll(game.new_match(TEN_TURNS), source), (1, 2, 3, 4, 5, 6)), source
    )
    assert state.marks == ("F",) and state.banked == 0


def test_keeping_fewer_dice_shows_the_first_places_of_the_same_next_roll() -> None:
    source = daily_source(date(2026, 11, 29))
    start = game.roll(game.new_match(TEN_TURNS), source)
    assert start.roll == (4, 1, 4, 3, 1, 4)
    one = game.roll_on(game.set_aside(start, (1,)), source)
    two = game.roll_on(game.set_aside(start, (1, 1)), source)
    four = game.roll_on(game.set_aside(start, (1, 4, 4, 4)), source)
    assert one.roll == (6, 4, 1, 2, 3) and two.roll == (6, 4, 1, 2)
    assert four.log[-1].roll == (6, 4) and four.log[-1].action == "farkle"


@pytest.mark.parametrize(
    ("faces", "message"),
    [
        ((), "at least one scoring die"),
        ((1, 1), "not all in the roll"),
        ((2,), "a single 2 scores nothing"),
        ((5, 3), "a single 3 scores nothing"),
    ],
)
def test_a_set_aside_must_be_in_the_roll_and_score(faces: tuple[int, ...], message: str) -> None:
    state = game.roll(game.new_match(TEN_TURNS), rolls([1, 5, 2, 3, 4, 6]))
    with pytest.raises(MatchError, match=message):
        game.set_aside(state, faces)
    assert issubclass(MatchError, ValueError)


@pytest.mark.parametrize("faces", [(), (1, 1), (2,), (5, 3), (7,)])
def test_the_daily_game_and_whole_games_refuse_a_pick_in_the_same_words(faces: tuple[int, ...]) -> None:
    from farkle_trainer.training.games.setup import Player, for_day, new_setup

    roll = (1, 5, 2, 3, 4, 6)
    daily_game = game.roll(game.new_match(for_day(date(2026, 11, 29))), rolls(roll))
    whole_game = game.roll(game.new_match(new_setup((Player("Ana"), Player("Ben")))), rolls(roll))
    said: list[str] = []
    for check in (
        lambda: game.set_aside(daily_game, faces),
        lambda: game.set_aside(whole_game, faces),
    ):
        with pytest.raises(MatchError) as refused:
            check()
        said.append(str(refused.value))
    assert said[0] == said[1]


def test_moves_out_of_turn_are_refused() -> None:
    source = rolls([1, 5, 2, 3, 4, 6])
    state = game.new_match(TEN_TURNS)
    with pytest.raises(MatchError, match="waits to roll"):
        game.bank(state)
    with pytest.raises(MatchError, match="waits to roll"):
        game.set_aside(state, (1,))
    picking = game.roll(state, source)
    with pytest.raises(MatchError, match="waits to set dice aside"):
        game.roll_on(picking, source)
    with pytest.raises(MatchError, match="waits to set dice aside"):
        game.roll(picking, source)
    choosing = game.set_aside(picking, (1,))
    with pytest.raises(MatchError, match="waits to bank or roll on"):
        game.set_aside(choosing, (5,))


def step(state: MatchState, source: DiceSource, bank_at: int) -> MatchState:
    """A simple player's next action: the most points from each roll, bank at ``bank_at``."""
    if state.phase == "roll":
        return game.roll(state, source)
    if state.phase == "pick":
        best = score_table(TEN_TURNS.rules).best_selection(counts_of(state.roll))
        assert best is not None
        return game.set_aside(state, best.dice)
    return game.bank(state) if state.points >= bank_at else game.roll_on(state, source)


def steady(state: MatchState, source: DiceSource) -> MatchState:
    """A simple player who banks at 300 or more, to the end of the game."""
    while not state.over:
        state = step(state, source, 300)
    return state


def test_a_whole_game_is_ten_turns() -> None:
    state = steady(game.new_match(TEN_TURNS), daily_source(date(2026, 11, 29)))
    assert state.over and state.phase == "over" and state.turn == 11
    assert state.banked == 4550 == sum(state.turn_scores)
    assert "".join(state.marks) == "..F...H.FF"
    assert [t["score"] for t in tenturns.turn_summaries(state)] == list(state.turn_scores)
    for move in (game.bank, lambda s: game.roll(s, daily_source(date(2026, 11, 29)))):
        with pytest.raises(MatchError, match="the game is over"):
            move(state)


def test_the_state_survives_json_at_every_step() -> None:
    source = daily_source(date(2026, 11, 1))
    state = game.new_match(TEN_TURNS)
    seen = 0
    while not state.over:
        data = json.loads(json.dumps(state.to_dict()))
        assert MatchState.from_dict(data) == state
        seen += 1
        state = step(state, source, 500)
    assert MatchState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    assert seen > 25


@pytest.mark.parametrize(
    "change",
    [
        {"version": 99},
        {"roll": [7]},
        {"turn": 12},
        {"scores": [1]},
        {"log": [{"turn": 1}]},
        {"log": [{"turn": 1, "roll_number": 1, "roll": [1], "points": 0, "keep": [1], "action": "jump"}]},
    ],
)
def test_a_damaged_saved_state_is_refused(change: dict[str, object]) -> None:
    data = game.new_match(TEN_TURNS).to_dict() | change
    with pytest.raises(MatchError, match="the saved game cannot be read"):
        MatchState.from_dict(data)
    with pytest.raises(MatchError, match="cannot be read"):
        MatchState.from_dict({"turn": 1})


def test_seeded_sources_are_pure_functions_of_roll_and_place() -> None:
    source = seeded_source(Stream("code:ABC123"))
    again = seeded_source(Stream("code:ABC123"))
    faces = [source(r, p) for r in range(1, 20) for p in range(1, 7)]
    assert faces == [again(r, p) for r in range(1, 20) for p in range(1, 7)]
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert source(3, 2) == source(3, 2)
    assert [source(1, p) for p in range(1, 7)] != [
        seeded_source(Stream("code:XYZ"))(1, p) for p in range(1, 7)
    ]


# -- perfect play


def solver_policy_score(tables: Tables, source: DiceSource) -> int:
    """Perfect play replayed straight from the solved table, without hints.py."""
    solution = tables.turn(TEN_TURNS.rules, Objective.expected())
    table = score_table(TEN_TURNS.rules)
    banked, roll_number = 0, 0
    for _turn in range(10):
        points, dice = 0, 6
        while True:
            roll_number += 1
            roll = tuple(source(roll_number, place) for place in range(1, dice + 1))
            choices = table.selections(counts_of(roll))
            if not choices:
                break
            left = {c: len(roll) - len(c.dice) for c in choices}
            best = max(choices, key=lambda c: solution.value_after(points + c.points, left[c] or 6))
            points += best.points
            dice = left[best] or 6
            if not solution.should_roll(points, dice):
                banked += points
                break
    return banked


@pytest.mark.parametrize(
    "source",
    [
        daily_source(date(2026, 11, 29)),
        daily_source(date(2026, 11, 1)),
        daily_source(date(2025, 3, 14)),
        seeded_source(Stream("code:PERFECT")),
    ],
    ids=["2026-11-29", "2026-11-01", "2025-03-14", "seeded"],
)
def test_perfect_play_is_the_solver_policy_replayed(tables: Tables, source: DiceSource) -> None:
    perfect = tenturns.perfect_game(tables, source)
    assert perfect.over
    assert tenturns.perfect_play(tables, source) == perfect.banked == solver_policy_score(tables, source)
    # Perfect play gives up nothing by its own measure.
    assert all(r.gave_up == 0 for r in review(tables, perfect))


def test_perfect_play_on_a_known_day(tables: Tables) -> None:
    assert tenturns.perfect_play(tables, daily_source(date(2026, 11, 29))) == 5600


# -- the review


def test_review_grades_each_decision_against_hint(tables: Tables) -> None:
    state = steady(game.new_match(TEN_TURNS), daily_source(date(2026, 11, 29)))
    reviews = review(tables, state)
    assert [r.move for r in reviews] == list(state.decisions)
    for r in reviews:
        h = hint(tables, r.move.roll, r.move.points, TEN_TURNS.rules)
        assert h.best is not None
        play = next(p for p in h.plays if p.keep == r.move.keep)
        chosen = play.expected.bank if r.move.action == "bank" else play.expected.roll
        assert r.chosen == chosen and r.best_value == h.best.expected.best
        assert r.gave_up == pytest.approx(max(0.0, h.best.expected.best - chosen), abs=1e-6)
        assert r.grade == grade_for(max(0.0, h.best.expected.best - chosen), Unit.POINTS)
    assert any(r.gave_up > 0 for r in reviews)


def test_banking_hot_dice_early_is_a_mistake(tables: Tables) -> None:
    move = Move(2, 4, (1, 2, 3, 4, 5, 6), 0, (1, 2, 3, 4, 5, 6), "bank")
    r = review_move(tables, TEN_TURNS, move)
    assert r.best_keep == (1, 2, 3, 4, 5, 6) and r.best_action == "roll"
    assert r.chosen == 1500.0 and r.gave_up == pytest.approx(447.28, abs=0.005)
    same = review_move(tables, TEN_TURNS, Move(2, 4, (1, 2, 3, 4, 5, 6), 0, (1, 2, 3, 4, 5, 6), "roll"))
    assert same.gave_up == 0
    with pytest.raises(MatchError):
        review_move(tables, TEN_TURNS, Move(1, 1, (2, 3, 4, 6, 6, 2), 0, (), "farkle"))


@pytest.mark.parametrize("points", [0, 300, 1_000])
def test_every_play_is_graded_exactly_as_its_keep_drill(tables: Tables, points: int) -> None:
    """The one review grades a ten-turn decision as ``decide`` grades the same keep drill: the
    same values, the same loss, the same grade and the same best play, for every play of every roll."""
    from itertools import combinations_with_replacement

    from farkle_trainer.engine.decisions import Kind, Position, decision_for, grade

    for n in range(1, 7):
        for roll in combinations_with_replacement(range(1, 7), n):
            if score_table(TEN_TURNS.rules).is_farkle(counts_of(roll)):
                continue
            d = decision_for(tables, Position(TEN_TURNS.rules, Kind.KEEP, points, roll))
            for choice in d.choices:
                drill = grade(d, choice.keep, choice.action)
                r = review_move(tables, TEN_TURNS, Move(1, 1, roll, points, choice.keep, choice.action))
                assert (r.chosen, r.best_value, r.lost, r.grade) == (
                    drill.chosen.value.amount,
                    drill.best.value.amount,
                    drill.lost,
                    drill.grade,
                )
                assert (r.best_keep, r.best_action) == (drill.best.keep, drill.best.action)
