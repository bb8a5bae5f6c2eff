"""Analysis of a finished game: grades on the right scale, luck that adds up exactly, the chart."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from matches import person, play_out

from farkle_trainer.engine.dice import counts_of
from farkle_trainer.engine.farkles import Runs
from farkle_trainer.engine.game import GameTable
from farkle_trainer.engine.grading import Grade, Unit, grade_for, in_points, rating_figure, rating_for
from farkle_trainer.engine.plays import hint
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.engine.solver import Objective
from farkle_trainer.engine.tables import Tables
from farkle_trainer.training.games import analysis as a
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games.dice import Seeded
from farkle_trainer.training.games.setup import Form, Level, MatchError, Player, new_setup

ANN, BOB = Player("Ann"), Player("Bob")


def played(tables: Tables, players, seed: str, **kw) -> m.MatchState:
    kw.setdefault("target", 2_000)
    s = new_setup(players, dice=Seeded(seed), **kw)
    return play_out(tables, m.new_match(s), s.source(), person(Stream(f"person-{seed}")))


def table_plays(table: GameTable, x: m.Move, runs: Runs) -> dict[tuple[tuple[int, ...], str], float]:
    """The chance of winning of every play of a two-player move, read from the table: in a last
    turn the chance of passing the leader (a player on 0 under the opening minimum who has not
    opened may not bank below it)."""
    opened = x.score > 0 or bool(runs.my_opened)
    found = {}
    for s in score_table(table.rules).selections(counts_of(x.roll)):
        t, n = x.points + s.points, (len(x.roll) - len(s.dice)) or 6
        if x.last_turn:
            bank = table.final_bank_value(x.leader - x.score, t, opened=opened)
            found[(s.dice, "roll")] = table.final_roll_value(x.leader - x.score, t, n, opened=opened)
        else:
            bank = table.bank_value(x.score, x.leader, t, runs)
            found[(s.dice, "roll")] = table.roll_value(x.score, x.leader, t, n, runs)
        if bank is not None:
            found[(s.dice, "bank")] = bank
    return found


@pytest.mark.parametrize(
    ("lost", "unit", "grade"),
    [
        (0.0049, Unit.WIN, Grade.BEST),
        (0.005, Unit.WIN, Grade.FINE),
        (0.25, Unit.WIN, Grade.INACCURACY),
        (0.99, Unit.WIN, Grade.INACCURACY),
        (1.0, Unit.WIN, Grade.MISTAKE),
        (3.0, Unit.WIN, Grade.BLUNDER),
        (0.0004, Unit.TURNS, Grade.BEST),
        (0.0199, Unit.TURNS, Grade.FINE),
        (0.02, Unit.TURNS, Grade.INACCURACY),
        (0.08, Unit.TURNS, Grade.MISTAKE),
        (0.24, Unit.TURNS, Grade.BLUNDER),
    ],
)
def test_game_and_turn_grade_scales(lost: float, unit: Unit, grade: Grade) -> None:
    assert grade_for(lost, unit) == grade


def test_game_units() -> None:
    hal = Player("Hal", Level.MEDIUM)
    assert a.game_unit(new_setup((ANN, hal))) == Unit.WIN
    assert a.game_unit(new_setup((ANN, hal), penalty=500)) == Unit.WIN
    assert a.game_unit(new_setup((ANN, BOB, hal))) == Unit.POINTS
    assert a.game_unit(new_setup((ANN,), form=Form.FEWEST_TURNS)) == Unit.TURNS
    assert a.game_unit(new_setup((ANN,), form=Form.TEN_TURNS)) == Unit.POINTS


@pytest.mark.parametrize(("seed", "penalty"), [("g1", 0), ("g2", 0), ("g3", 0), ("g5", 500), ("g7", 1000)])
def test_two_player_analysis_adds_up_to_the_result(tables: Tables, seed: str, penalty: int) -> None:
    state = played(tables, (ANN, Player("Hal", Level.HARD)), seed, opening=350, penalty=penalty)
    table = tables.game(state.setup.rules, 2_000, 350)
    an = a.analyse(tables, state)
    assert an.unit == Unit.WIN and an.chart_seat == 0
    me, them = an.accounts
    # 100 x result = 100 x W(0, 0) + own luck - own losses - the opponent's luck + their losses.
    assert me.expected == pytest.approx(100 * table.win_chance(0, 0), abs=1e-12)
    for x, y in ((me, them), (them, me)):
        assert x.result == pytest.approx(x.expected + x.luck - x.given_up - y.luck + y.given_up, abs=1e-7)
    assert me.result + them.result == 100
    assert them.given_up == pytest.approx(0, abs=1e-9)  # Hard is the exact policy

    # Scores, runs of Farkles and who has opened, replayed here from the moves.
    scores, farkles, banked = [0, 0], [0, 0], [False, False]
    runs_at = []
    for x in state.log:
        other = 1 - x.seat

        def knocked(i: int) -> bool | None:
            return True if penalty and scores[i] == 0 and banked[i] else None

        runs_at.append(
            Runs(farkles[x.seat], farkles[other], knocked(x.seat), knocked(other)) if penalty else Runs()
        )
        if x.action == "bank":
            scores[x.seat] += x.points + _points(state, x.keep)
            farkles[x.seat], banked[x.seat] = 0, True
        elif x.action == "farkle":
            farkles[x.seat] += 1
            if farkles[x.seat] == 3:
                scores[x.seat] = max(0, scores[x.seat] - penalty)
                farkles[x.seat] = 0
    assert scores == list(state.scores)

    # Each review against the table read directly: every play's chance, the best of them.
    runs_of = {id(x): r for x, r in zip(state.log, runs_at, strict=True)}
    for r in an.reviews:
        x = r.move
        plays = table_plays(table, x, runs_of[id(x)])
        value = plays[(x.keep, x.action)]
        assert r.lost == pytest.approx(100 * (max(plays.values()) - value), abs=1e-9)
        assert r.grade == grade_for(r.lost, Unit.WIN)
    assert [r.points_lost for r in an.reviews] == sorted((r.points_lost for r in an.reviews), reverse=True)

    # The chart: the chance at each turn start, from the table.
    expected = []
    for x, runs in zip(state.log, runs_at, strict=True):
        if x.points == 0 and len(x.roll) == 6 and (not expected or expected[-1][0] != x.turn):
            mover, other = x.scores[x.seat], x.scores[1 - x.seat]
            if x.last_turn:
                chance = table.final_turn_chance(other - mover, opened=mover > 0 or bool(runs.my_opened))
            else:
                chance = table.win_chance(mover, other, runs)
            expected.append((x.turn, chance if x.seat == 0 else 1 - chance))
    expected.append((state.turn, state.result(0)))
    assert [t for t, _ in an.chances] == [t for t, _ in expected] == list(range(1, state.turn + 1))
    assert [c for _, c in an.chances] == pytest.approx([c for _, c in expected], abs=1e-12)
    if penalty:  # the seeds are chosen so that a third Farkle in a row costs the penalty
        assert any(
            r.my_farkles == 2 and x.action == "farkle" for x, r in zip(state.log, runs_at, strict=True)
        )


@pytest.mark.parametrize("seed", ["p1", "p2"])
def test_points_analysis_adds_up_to_every_score(tables: Tables, seed: str) -> None:
    players = (ANN, Player("Med", Level.MEDIUM), Player("Eve", Level.EASY))
    state = played(tables, players, seed, opening=350, penalty=500)
    an = a.analyse(tables, state)
    assert an.unit == Unit.POINTS and an.chances == ()
    for acc in an.accounts:
        assert acc.result == state.scores[acc.seat]
        assert acc.result == pytest.approx(acc.expected + acc.luck - acc.given_up, abs=1e-7)
    # The luck of each roll, independently: best play's value after minus rolling's value before.
    luck = 0.0
    for x in state.log:
        if x.seat != 1:
            continue
        opening = 350 if x.score == 0 else 0
        farkle_value = -min(500, x.score) if x.farkles == 2 else 0
        sol = tables.turn(state.rules, Objective.expected(opening=opening, farkle_value=farkle_value))
        before = sol.roll_value(x.points, len(x.roll))
        splits = score_table(state.rules).selections(counts_of(x.roll))
        after = (
            max(sol.value_after(x.points + s.points, (len(x.roll) - len(s.dice)) or 6) for s in splits)
            if splits
            else farkle_value
        )
        luck += after - before
    assert an.accounts[1].luck == pytest.approx(luck, abs=1e-9)


@pytest.mark.parametrize("seed", ["f145", "f163"])
def test_a_last_turns_farkle_costs_no_penalty_in_the_game_or_its_analysis(tables: Tables, seed: str) -> None:
    state = played(tables, (ANN, BOB, Player("Cat")), seed, target=1_000, penalty=500)
    # The seeds are chosen so that a last turn ends in a third Farkle in a row, with more banked
    # than the penalty would take.
    (last,) = [x for x in state.log if x.last_turn and x.action == "farkle" and x.farkles == 2]
    assert last.score > 500 and state.scores[last.seat] == last.score
    an = a.analyse(tables, state)
    for acc in an.accounts:
        assert acc.result == pytest.approx(acc.expected + acc.luck - acc.given_up, abs=1e-7)
    # The roll that Farkled, valued independently: the turn's expected score with a Farkle worth
    # nothing beyond the turn, and the Farkle itself worth 0.
    runs = dict(zip(state.log, m.move_runs(state), strict=True))[last]
    assert runs.my_farkles == 2
    v = a.values(tables, state.setup, last, runs=runs)
    plain = tables.turn(state.rules, Objective.expected())
    assert v.farkle.amount == 0.0
    assert v.luck == pytest.approx(-plain.roll_value(last.points, len(last.roll)), abs=1e-9)


def test_last_turns_in_a_points_game_are_graded_by_the_chance_of_passing(tables: Tables) -> None:
    for seed in ("l1", "l2", "l3", "l4"):
        state = played(tables, (Player("Med", Level.MEDIUM), ANN, BOB), seed)
        last = [r for r in a.analyse(tables, state).reviews if r.move.last_turn]
        for r in last:
            x = r.move
            h = hint(tables, x.roll, x.points, state.rules, need=x.leader - x.score + 50)
            assert r.unit == Unit.CHANCE and h.best is not None
            chosen = next(p for p in h.plays if p.keep == x.keep)
            assert chosen.chance is not None
            value = chosen.chance.bank if x.action == "bank" else chosen.chance.roll
            assert value is not None
            assert r.lost == pytest.approx(100 * (h.best.value.best - value), abs=1e-9)
        if last:
            return
    pytest.fail("no game reached a person's last turn")


def test_fewest_turns_analysis_adds_up_to_the_turns_taken(tables: Tables) -> None:
    for seed in ("t1", "t2"):
        state = played(tables, (ANN,), seed, form=Form.FEWEST_TURNS, opening=500)
        solo = tables.solo(state.setup.rules, 2_000, 500)
        an = a.analyse(tables, state)
        (acc,) = an.accounts
        assert an.unit == Unit.TURNS and acc.expected == solo.expected_turns(0)
        assert acc.result == state.turns[0]
        assert acc.result == pytest.approx(acc.expected - acc.luck + acc.given_up, abs=1e-7)
        assert acc.given_up == pytest.approx(sum(r.lost for r in an.reviews), abs=1e-9)
        for r in an.reviews:
            x = r.move
            bank = solo.bank_value(x.score, x.points + _points(state, x.keep))
            roll = solo.roll_value(
                x.score, x.points + _points(state, x.keep), (len(x.roll) - len(x.keep)) or 6
            )
            assert r.chosen == (bank if x.action == "bank" else roll)


def _points(state: m.MatchState, keep: tuple[int, ...]) -> int:
    split = score_table(state.rules).split(counts_of(keep))
    assert split is not None
    return split.points


def test_ten_turns_analysis_and_the_summary(tables: Tables) -> None:
    state = played(tables, (ANN,), "ten", form=Form.TEN_TURNS)
    an = a.analyse(tables, state)
    (acc,) = an.accounts
    assert acc.result == pytest.approx(acc.expected + acc.luck - acc.given_up, abs=1e-7)
    assert acc.expected == pytest.approx(
        10 * tables.turn(state.rules, Objective.expected()).roll_value(0, 6), abs=1e-9
    )
    (summary,) = an.summaries
    reviews = an.reviews
    assert summary.decisions == len(reviews) == len(state.decisions)
    assert summary.errors == sum(1 for r in reviews if r.grade not in (Grade.BEST, Grade.FINE))
    assert summary.error_rate == summary.errors / summary.decisions
    average = sum(in_points(r.lost, r.unit) for r in reviews) / len(reviews)
    assert summary.average_loss == pytest.approx(average)
    assert summary.rating == rating_for(average)
    assert sum(summary.grades.values()) == summary.decisions


def test_only_people_are_reviewed_and_only_finished_games_analysed(tables: Tables) -> None:
    s = new_setup((Player("Hal", Level.HARD), ANN), target=1_500, dice=Seeded("who"))
    with pytest.raises(MatchError, match="over"):
        a.analyse(tables, m.new_match(s))
    state = played(tables, (Player("Hal", Level.HARD), ANN), "who", target=1_500)
    an = a.analyse(tables, state)
    assert an.chart_seat == 1 and all(r.move.seat == 1 for r in an.reviews)
    assert an.chances[-1] == (state.turn, state.result(1))
    assert [s.seat for s in an.summaries] == [1]
    with pytest.raises(MatchError, match="Farkle"):
        a.review_move(tables, state.setup, next(x for x in state.log if x.action == "farkle"))


def test_a_two_player_summary_averages_in_percentage_points_and_rates_on_the_points_scale(
    tables: Tables,
) -> None:
    for seed in ("g1", "g2", "g3"):
        state = played(tables, (ANN, Player("Hal", Level.HARD)), seed, opening=350)
        an = a.analyse(tables, state)
        (summary,) = an.summaries
        reviews = an.reviews
        if not reviews:
            continue
        average = sum(r.lost for r in reviews) / len(reviews)
        assert summary.loss_unit == Unit.WIN and not summary.mixed
        assert summary.average_in_unit == pytest.approx(average)
        assert summary.average_loss == pytest.approx(in_points(average, Unit.WIN))
        assert summary.rating == rating_for(in_points(average, Unit.WIN))
        return
    pytest.fail("no game had a decision")


def test_a_summary_of_points_and_last_turn_chances_averages_in_points(tables: Tables) -> None:
    for seed in ("l1", "l2", "l3", "l4"):
        state = played(tables, (Player("Med", Level.MEDIUM), ANN, BOB), seed)
        an = a.analyse(tables, state)
        mixed = [s for s in an.summaries if len({r.unit for r in an.reviews if r.move.seat == s.seat}) > 1]
        for summary in mixed:
            assert summary.mixed and summary.loss_unit == Unit.POINTS
            assert summary.average_in_unit == summary.average_loss
        if mixed:
            return
    pytest.fail("no person's decisions mixed points and chances")


@pytest.mark.parametrize(
    ("average", "unit", "shown"),
    [
        (2.999, Unit.POINTS, "2.999"),
        (0.1499, Unit.WIN, "0.1499"),  # 2.998 points: expert, never shown as 0.15 (advanced)
        (0.15, Unit.WIN, "0.15"),
        (0.2999, Unit.CHANCE, "0.2999"),
        (0.01199, Unit.TURNS, "0.01199"),
        (0.0112, Unit.TURNS, "0.011"),
    ],
)
def test_a_rating_figure_never_disagrees_with_its_rating(average: float, unit: Unit, shown: str) -> None:
    assert rating_figure(average, unit) == shown


def _fair_rolls(n: int) -> list[tuple[tuple[int, ...], float]]:
    """Every roll of ``n`` fair dice as a multiset, with its exact probability."""
    from itertools import combinations_with_replacement

    found = []
    for faces in combinations_with_replacement(range(1, 7), n):
        ways = math.factorial(n)
        for face in set(faces):
            ways //= math.factorial(faces.count(face))
        found.append((faces, ways / 6**n))
    return found


@pytest.mark.parametrize(
    ("players", "seed", "kw"),
    [
        ((ANN, Player("Hal", Level.HARD)), "g1", {}),
        ((ANN, Player("Hal", Level.MEDIUM)), "g7", {"penalty": 1000}),
        ((ANN, BOB, Player("Eve", Level.EASY)), "p3", {}),
        ((ANN,), "s2", {"form": Form.FEWEST_TURNS}),
    ],
)
def test_each_moves_luck_is_its_roll_against_every_fair_roll(tables: Tables, players, seed: str, kw) -> None:
    state = played(tables, players, seed, **kw)
    an = a.analyse(tables, state)
    assert [s.move for s in an.steps] == list(state.log)
    luck = [0.0] * len(players)
    for step, runs in zip(an.steps, m.move_runs(state), strict=True):
        x = step.move
        unit = a.grading_unit(state.setup, x)
        assert step.plays.unit == unit
        # What the dice were worth before the roll: the mean, over every fair roll of these dice,
        # of the value of that roll's best play (a Farkle's, where nothing scores).
        mean = sum(
            p * a.values(tables, state.setup, replace(x, roll=r), unit, runs).after.amount
            for r, p in _fair_rolls(len(x.roll))
        )
        thrown = a.values(tables, state.setup, x, unit, runs).after.amount
        gained = mean - thrown if unit == Unit.TURNS else thrown - mean
        assert step.luck == pytest.approx(
            100 * gained if unit in (Unit.WIN, Unit.CHANCE) else gained, abs=1e-7
        )
        if unit == an.unit:
            luck[x.seat] += step.luck
    # A player's moves' luck adds up to their account's, wherever the move is in the game's unit.
    if all(a.grading_unit(state.setup, x) == an.unit for x in state.log):
        assert luck == pytest.approx([acc.luck for acc in an.accounts], abs=1e-7)
    else:
        assert any(s.plays.unit == Unit.CHANCE for s in an.steps)
