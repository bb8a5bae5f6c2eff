"""Every way to play a roll, valued exactly."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from farkle_trainer import load_rules
from farkle_trainer.engine.plays import hint, round_up
from farkle_trainer.engine.solver import Objective
from farkle_trainer.engine.tables import Tables

CLASSIC = load_rules("classic")
MULTIPLIER = load_rules("multiplier")


def test_the_seed_roll_lists_three_plays_best_first(tables: Tables) -> None:
    h = hint(tables, [1, 5, 2, 2, 3, 6], 0, MULTIPLIER)
    assert [p.keep for p in h.plays] == [(1,), (5,), (1, 5)]
    best = h.best
    assert best is not None and best.keep == (1,)
    assert best.dice_left == 5 and best.expected.action == "roll"
    assert best.expected.best == pytest.approx(402.03, abs=0.01)
    both = h.plays[2]
    assert both.expected.best == pytest.approx(309.65, abs=0.01)
    assert h.gives_up(both) == pytest.approx(best.expected.best - both.expected.best)


def test_values_come_from_the_solver(tables: Tables) -> None:
    h = hint(tables, [1, 5, 2, 2, 3, 6], 300, CLASSIC)
    solution = tables.turn(CLASSIC)
    for p in h.plays:
        assert p.points_after == 300 + p.score
        assert p.expected.bank == p.points_after
        assert p.expected.roll == solution.roll_value(p.points_after, p.dice_to_roll)
        assert p.expected.best == max(p.expected.bank, p.expected.roll)


def test_hot_dice_leave_zero_dice_and_roll_six(tables: Tables) -> None:
    h = hint(tables, [1, 1, 1, 5, 5, 5], 0, CLASSIC)
    assert h.best is not None
    assert h.best.keep == (1, 1, 1, 5, 5, 5)
    assert h.best.dice_left == 0 and h.best.dice_to_roll == 6
    assert h.best.expected.roll == tables.turn(CLASSIC).roll_value(2500, 6)


def test_a_farkle_has_no_plays(tables: Tables) -> None:
    h = hint(tables, [2, 3, 4, 6], 500, CLASSIC)
    assert h.farkle and h.best is None and h.plays == ()


def test_two_dice_at_a_high_total_bank(tables: Tables) -> None:
    h = hint(tables, [1, 4], 1000, CLASSIC)
    assert h.best is not None and h.best.expected.action == "bank"


def test_the_opening_minimum_refuses_banking(tables: Tables) -> None:
    h = hint(tables, [5, 2, 3], 300, CLASSIC, opening=500)
    (play,) = h.plays
    assert play.expected.bank is None
    assert play.expected.action == "roll"
    free = hint(tables, [5, 2, 3], 300, CLASSIC)
    assert free.plays[0].expected.action == "bank"


def test_need_ranks_by_chance_and_can_disagree_with_expected_score(tables: Tables) -> None:
    # 1,000 at stake with 1-5 left on two dice: banking is best for expected score,
    # but a player who needs 1,500 must roll on.
    ev = hint(tables, [1, 5, 2, 3], 1000, CLASSIC)
    assert ev.best is not None and ev.best.expected.action == "bank"
    need = hint(tables, [1, 5, 2, 3], 1000, CLASSIC, need=1500)
    assert need.objective == Objective.reach(1500)
    best = need.best
    assert best is not None and best.chance is not None
    assert best.chance.action == "roll"
    assert 0 < best.chance.best < 1
    chances = [p.value.best for p in need.plays]
    assert chances == sorted(chances, reverse=True)


def test_need_already_met_is_certain(tables: Tables) -> None:
    h = hint(tables, [1, 2, 3], 1300, CLASSIC, need=1350)
    assert h.best is not None and h.best.chance is not None
    assert h.best.chance.best == 1.0 and h.best.chance.action == "bank"


def test_need_rounds_up_to_fifties() -> None:
    assert round_up(1330) == 1350
    assert round_up(1350) == 1350
    assert round_up(None) == 0


def test_bad_points_are_refused(tables: Tables) -> None:
    with pytest.raises(ValueError):
        hint(tables, [1], 75, CLASSIC)
    with pytest.raises(ValueError):
        hint(tables, [], 0, CLASSIC)


@given(
    st.lists(st.integers(1, 6), min_size=1, max_size=6),
    st.integers(0, 80).map(lambda k: 50 * k),
)
def test_plays_are_distinct_sorted_and_losses_non_negative(
    tables: Tables, roll: list[int], points: int
) -> None:
    h = hint(tables, roll, points, CLASSIC)
    keeps = [p.keep for p in h.plays]
    assert len(keeps) == len(set(keeps))
    values = [p.expected.best for p in h.plays]
    assert values == sorted(values, reverse=True)
    assert all(h.gives_up(p) >= 0 for p in h.plays)
    for p in h.plays:
        assert p.dice_left == len(roll) - len(p.keep)
        assert p.expected.best >= p.points_after
