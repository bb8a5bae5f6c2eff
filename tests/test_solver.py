"""The exact turn solver: the seeds' figures, the Bellman equation, the cap, the cache."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from farkle_trainer import load_rules
from farkle_trainer.engine.dice import multisets, roll_chance, size
from farkle_trainer.engine.rules import PRESETS, Rules
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.solver import (
    Objective,
    Solution,
    compute,
    top_level,
)
from farkle_trainer.engine.tables import Tables

MULTIPLIER = load_rules("multiplier")
CLASSIC = load_rules("classic")

presets = st.sampled_from(sorted(PRESETS.values(), key=lambda r: r.name))
levels = st.integers(0, 400).map(lambda k: 50 * k)
dice_counts = st.integers(1, 6)


def test_multiplier_bank_thresholds_match_the_seed(tables: Tables) -> None:
    # Seed 001: roll while at most 3,050 with five dice left, 1,000 with four,
    # 400 with three, 200 with two and 250 with one.
    solution = tables.turn(MULTIPLIER)
    assert {n: solution.roll_while_at_most(n) for n in range(1, 6)} == {
        5: 3050,
        4: 1000,
        3: 400,
        2: 200,
        1: 250,
    }


def test_multiplier_turn_averages_about_580(tables: Tables) -> None:
    assert tables.turn(MULTIPLIER).expected_turn_score == pytest.approx(580, abs=5)


def test_multiplier_keep_only_the_1(tables: Tables) -> None:
    # Seed 001: from 1-5-2-2-3-6, keeping only the 1 averages about 400 for the turn,
    # keeping 1 and 5 about 310.
    solution = tables.turn(MULTIPLIER)
    keep_one = solution.value_after(100, 5)
    keep_both = solution.value_after(150, 4)
    assert keep_one == pytest.approx(400, abs=5)
    assert keep_both == pytest.approx(310, abs=5)
    assert keep_one > keep_both


def test_six_dice_almost_always_roll(tables: Tables) -> None:
    for rules in PRESETS.values():
        assert tables.turn(rules).roll_while_at_most(6) >= 10_000


def _bellman(solution: Solution, t: int, n: int) -> float:
    """One step of the recursion, done the slow way: every roll, every selection."""
    table = score_table(solution.rules)
    total = 0.0
    for roll in multisets(n):
        chance = float(roll_chance(roll))
        selections = table.selections(roll)
        if not selections:
            total += chance * solution.objective.farkle_value
            continue
        total += chance * max(
            solution.value_after(t + s.points, (n - size(s.counts)) or 6) for s in selections
        )
    return total


@given(presets, levels, dice_counts, st.sampled_from([0, 500, 1000]))
def test_values_satisfy_the_bellman_equation(
    tables: Tables, rules: Rules, t: int, n: int, opening: int
) -> None:
    solution = tables.turn(rules, Objective.expected(opening=opening))
    assert solution.roll_value(t, n) == pytest.approx(_bellman(solution, t, n), rel=1e-12, abs=1e-9)


@given(presets, st.integers(1, 60).map(lambda k: 50 * k), levels, dice_counts)
def test_chances_satisfy_the_bellman_equation(
    tables: Tables, rules: Rules, need: int, t: int, n: int
) -> None:
    solution = tables.turn(rules, Objective.reach(need))
    value = solution.roll_value(t, n)
    assert 0.0 <= value <= 1.0
    assert value == pytest.approx(_bellman(solution, t, n), rel=1e-12, abs=1e-12)


@given(presets, levels, dice_counts)
def test_a_state_is_never_worth_less_than_banking_it(tables: Tables, rules: Rules, t: int, n: int) -> None:
    solution = tables.turn(rules)
    assert solution.value_after(t, n) >= t
    # Rolling once and banking whatever scores is one way to play, so perfect play
    # is worth at least that.
    table = score_table(rules)
    once = sum(
        float(roll_chance(r)) * (t + table.selections(r)[0].points)
        for r in multisets(n)
        if not table.is_farkle(r)
    )
    assert solution.roll_value(t, n) >= once - 1e-9


@given(presets, levels, dice_counts)
def test_more_points_at_stake_is_never_worth_less(tables: Tables, rules: Rules, t: int, n: int) -> None:
    solution = tables.turn(rules)
    assert solution.roll_value(t + 50, n) >= solution.roll_value(t, n) - 1e-9


@pytest.mark.parametrize("rules", PRESETS.values(), ids=PRESETS.keys())
def test_banking_is_best_everywhere_above_the_top(tables: Tables, rules: Rules) -> None:
    solution = tables.turn(rules)
    for level in range(solution.top, solution.top + 200, 7):
        t = level * 50
        for n in range(1, 7):
            assert not solution.should_roll(t, n)


def test_a_higher_cap_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    base = compute(CLASSIC, Objective())
    import farkle_trainer.engine.solver as solver_module

    monkeypatch.setattr(solver_module, "top_level", lambda rules, objective: base.top + 150)
    higher = compute(CLASSIC, Objective())
    assert np.allclose(higher.values[: base.top, 1:], base.values[:, 1:], rtol=1e-13, atol=0)


def _exact_reach(rules: Rules, need: int) -> dict[tuple[int, int], Fraction]:
    """The chance of ending with ``need``, in exact fractions, by plain recursion."""
    table = score_table(rules)

    @cache
    def roll(t: int, n: int) -> Fraction:
        total = Fraction(0)
        for r in multisets(n):
            options = [after(t + s.points, (n - size(s.counts)) or 6) for s in table.selections(r)]
            if options:
                total += roll_chance(r) * max(options)
        return total

    def after(t: int, n: int) -> Fraction:
        return Fraction(1) if t >= need else roll(t, n)

    return {(t, n): roll(t, n) for t in range(0, need, 50) for n in range(1, 7)}


@pytest.mark.parametrize("rules", [CLASSIC, MULTIPLIER], ids=["classic", "multiplier"])
def test_reach_chances_equal_exact_fractions(tables: Tables, rules: Rules) -> None:
    exact = _exact_reach(rules, 300)
    solution = tables.turn(rules, Objective.reach(300))
    for (t, n), value in exact.items():
        assert solution.roll_value(t, n) == pytest.approx(float(value), rel=1e-14, abs=1e-15)
    # One hand-checkable case: with 250 at stake and one die, only a 1 or a 5 gets there.
    assert exact[(250, 1)] == Fraction(1, 3)


def test_one_die_at_250_needing_300_is_a_third(tables: Tables) -> None:
    assert tables.turn(CLASSIC, Objective.reach(300)).roll_value(250, 1) == pytest.approx(1 / 3)


def test_opening_minimum_forbids_banking_and_costs_value(tables: Tables) -> None:
    free = tables.turn(CLASSIC)
    opening = tables.turn(CLASSIC, Objective.expected(opening=500))
    assert opening.bank_value(300) is None
    assert opening.bank_value(500) == 500
    assert opening.should_roll(450, 1)  # no choice: banking is refused
    assert opening.expected_turn_score < free.expected_turn_score
    # Above the minimum, more points at stake make it the same game again.
    assert opening.roll_value(5000, 3) == pytest.approx(free.roll_value(5000, 3))


def test_a_farkle_penalty_makes_banking_earlier(tables: Tables) -> None:
    free = tables.turn(CLASSIC)
    penalty = tables.turn(CLASSIC, Objective.expected(farkle_value=-1000))
    for n in range(1, 7):
        # None: never roll, even with nothing at stake (one die, a third Farkle looming).
        assert (penalty.roll_while_at_most(n) or -1) <= (free.roll_while_at_most(n) or -1)
    assert penalty.roll_while_at_most(1) is None
    assert penalty.expected_turn_score < free.expected_turn_score


def test_top_level_covers_the_opening_and_need() -> None:
    assert top_level(CLASSIC, Objective.reach(1350)) == 27
    assert top_level(CLASSIC, Objective.expected(opening=50_000)) == 1000


def test_values_beyond_the_table_are_computed_exactly(tables: Tables) -> None:
    solution = tables.turn(CLASSIC)
    t = solution.top * 50 + 5000
    assert solution.roll_value(t, 6) == pytest.approx(_bellman(solution, t, 6), rel=1e-12)


def test_bad_states_are_refused(tables: Tables) -> None:
    solution = tables.turn(CLASSIC)
    with pytest.raises(ValueError):
        solution.roll_value(75, 3)
    with pytest.raises(ValueError):
        solution.roll_value(100, 7)
    with pytest.raises(ValueError):
        Objective.reach(0)
