"""The game solver under the three-Farkle penalty, against computations written here.

The brute force below shares nothing with the solver but the scoring rules: it enumerates
every roll itself, plays every turn position by position, and repeats value iteration over
every turn start until nothing moves.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import numba
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from farkle_trainer import win_chance
from farkle_trainer.engine.dice import multisets, roll_chance
from farkle_trainer.engine.farkles import NO_RUNS, Runs
from farkle_trainer.engine.game import runs as solver_runs
from farkle_trainer.engine.game.seats import seats_for
from farkle_trainer.engine.game.turns import evaluate
from farkle_trainer.engine.rules import PRESETS, Rules
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.tables import Tables

CLASSIC = PRESETS["classic"]
PENALTY = 1000


def with_penalty(opening: int = 0, penalty: int = PENALTY) -> Rules:
    return CLASSIC.with_house_rules(three_farkle_penalty=penalty, opening_minimum=opening)


# -- the brute force


@cache
def rolls(rules: Rules) -> tuple[np.ndarray, ...]:
    """Rolls of 1..6 dice that offer the same options, merged: (dice, chance, option starts,
    option points in levels, option dice to roll next), and the Farkle chance by dice."""
    table = score_table(rules)
    merged: dict[tuple[int, frozenset[tuple[int, int]]], float] = {}
    farkle = np.zeros(7)
    for n in range(1, 7):
        for roll in multisets(n):
            options = frozenset((s.points // 50, (n - len(s.dice)) or 6) for s in table.selections(roll))
            if options:
                merged[(n, options)] = merged.get((n, options), 0.0) + float(roll_chance(roll))
            else:
                farkle[n] += float(roll_chance(roll))
    keys = sorted(merged, key=lambda k: (k[0], sorted(k[1])))
    starts = np.cumsum([0] + [len(k[1]) for k in keys])
    points = np.array([p for k in keys for p, _ in sorted(k[1])])
    dice = np.array([d for k in keys for _, d in sorted(k[1])])
    return (np.array([k[0] for k in keys]), np.array([merged[k] for k in keys]), starts, points, dice, farkle)


@numba.njit(cache=True)
def last_turn(ns, chances, starts, points, dice, size, tie):  # type: ignore[no-untyped-def]
    """value[m, n]: the chance of winning a last turn, rolling n dice with m levels still
    missing to tie (a tie counts 1/2), or, without ``tie``, of reaching m."""
    value = np.zeros((size, 7))
    for m in range(size):
        for i in range(len(chances)):
            best = 0.0
            for o in range(starts[i], starts[i + 1]):
                left = m - points[o]
                k = dice[o]
                v = (
                    1.0
                    if left < 0
                    else (max(0.5, value[0, k]) if tie else 1.0)
                    if left == 0
                    else value[left, k]
                )
                best = max(best, v)
            value[m, ns[i]] += chances[i] * best
    return value


@numba.njit(cache=True)
def game_sweep(w, order, score, opened, knocked, levels, opening, g_open, g_closed, first, roll):  # type: ignore[no-untyped-def]
    """One pass of value iteration over every turn start, in place; the largest change."""
    _, chances, starts, points, dice, farkle = roll
    maxp = points.max()
    after = np.empty((levels + len(g_open) + maxp + 2, 7))
    moved = 0.0
    for k in range(len(order)):
        u, r, v, q = order[k]
        a, b = score[u], score[v]
        z = 1.0 - (w[v, q, u, r + 1] if r < 2 else w[v, q, knocked[u], 0])
        g = g_open if opened[v] else g_closed
        # Past the target, banking is surely best once the opponent's last turn is less likely
        # to pass than the next roll is to Farkle: a roll is worth at most (1 - f) + f z.
        lead = 0
        while lead < len(g) - 1 and g[lead] > farkle[6] * (1.0 - z):
            lead += 1
        top = max(levels, b + lead)
        for pos in range(top + maxp, a - 1, -1):
            bank = -1.0
            if pos > a and (opened[u] or pos >= opening):
                bank = 1.0 - (w[v, q, pos, 0] if pos < levels else g[pos - b])
            for n in range(1, 7):
                if pos > top:
                    after[pos, n] = bank
                    continue
                value = farkle[n] * z
                for i in range(first[n], first[n + 1]):
                    best = -1.0
                    for o in range(starts[i], starts[i + 1]):
                        best = max(best, after[pos + points[o], dice[o]])
                    value += chances[i] * best
                after[pos, n] = max(bank, value)
                if pos == a and n == 6:
                    moved = max(moved, abs(value - w[u, r, v, q]))
                    w[u, r, v, q] = value
    return moved


@cache
def brute_force(rules: Rules, target: int, opening: int) -> np.ndarray:
    """Every W(u, r, v, q) by value iteration; standings as the solver's (index ``levels`` is
    "on 0, opened"), built here from the rules of the game."""
    levels, o, p = target // 50, opening // 50, rules.three_farkle_penalty // 50
    size = levels + (1 if o and p else 0)
    score = np.array([u if u < levels else 0 for u in range(size)])
    opened = np.array([u > 0 or o == 0 for u in range(size)])
    knocked = np.array(
        [s - p if s > p else (levels if size > levels and opened[u] else 0) for u, s in enumerate(score)]
    )
    roll = rolls(rules)
    lead_cap = 600  # 30,000 points: G is below 1e-14 there
    tie = last_turn(*roll[:5], lead_cap, True)
    reach = last_turn(*roll[:5], lead_cap, False)
    g_open = tie[:, 6].copy()
    g_closed = np.where(np.arange(lead_cap) < o, reach[o, 6], g_open)
    first = np.searchsorted(roll[0], np.arange(8))
    states = [(u, r, v, q) for u in range(size) for r in range(3) for v in range(size) for q in range(3)]
    # Later states first (a higher total; a Farkle's next state first): fewer passes.
    states.sort(key=lambda x: (-(score[x[0]] + score[x[2]]), min(4 - 2 * x[1], 5 - 2 * x[3])))
    order = np.array(states)
    w = np.full((size, 3, size, 3), 0.5)
    for _ in range(200):
        if game_sweep(w, order, score, opened, knocked, levels, o, g_open, g_closed, first, roll) < 1e-12:
            return w
    raise AssertionError("the brute force did not converge")


@pytest.mark.parametrize("opening", [0, 500])
def test_the_game_under_the_penalty_matches_brute_force(tables: Tables, opening: int) -> None:
    rules = with_penalty(opening)
    table = tables.game(rules, 1000)
    expected = brute_force(rules, 1000, opening)
    assert table.values.shape == expected.shape
    assert np.abs(table.values - expected).max() < 1e-10
    # The penalty matters: two Farkles in a row cost the mover, and more so with points banked.
    assert table.win_chance(900, 900, Runs(my_farkles=2)) < table.win_chance(900, 900) - 0.01


def test_win_chance_on_0_but_opened_is_the_brute_forces_row_of_it() -> None:
    rules = with_penalty(500)
    expected = brute_force(rules, 1000, 500)
    opened = 20  # the brute force's standing "on 0, opened" in a game of 20 levels
    for b in range(0, 1000, 50):
        for r in range(3):
            for q in range(3):
                mine = win_chance(0, b, rules, 1000, my_farkles=r, opponent_farkles=q, my_opened=True)
                assert mine == pytest.approx(expected[opened, r, b // 50, q], abs=1e-10)
                theirs = win_chance(b, 0, rules, 1000, my_farkles=r, opponent_farkles=q, opponent_opened=True)
                assert theirs == pytest.approx(expected[b // 50, r, opened, q], abs=1e-10)
    # Not opened is the default on 0, and False says it too; on a score above 0 it cannot be.
    assert win_chance(0, 500, rules, 1000) == pytest.approx(expected[0, 0, 10, 0], abs=1e-10)
    assert win_chance(0, 500, rules, 1000, my_opened=False) == win_chance(0, 500, rules, 1000)
    assert expected[opened, 0, 10, 0] > expected[0, 0, 10, 0]
    with pytest.raises(ValueError, match="my_opened cannot be False for a score of 500"):
        win_chance(500, 0, rules, 1000, my_opened=False)
    with pytest.raises(ValueError, match="opponent_opened is True, False or None, not 'yes'"):
        win_chance(0, 0, rules, 1000, opponent_opened="yes")  # type: ignore[arg-type]


def test_every_turn_start_satisfies_its_equation(tables: Tables) -> None:
    """The turn-start equations at every state of a real table, evaluated anew: by the compiled
    loop at every state, and by the separate numpy loop at a spread of them."""
    rules = with_penalty(500)
    table = tables.game(rules, 2000)
    game = tables.setting(rules, 40, 10, 20)
    u, r, v, q = solver_runs.states(game)
    start = evaluate(game, table.values, u, r, v, q, loop=tables.loop()).start
    assert np.abs(start - table.values[u, r, v, q]).max() < 1e-10
    some = np.arange(0, len(u), 37)
    assert solver_runs.residual(game, table.values, u[some], r[some], v[some], q[some]) < 1e-10


def test_runs_without_a_cost_give_the_plain_game(tables: Tables) -> None:
    """Counting Farkles that cost nothing changes no chance: the runs machinery against the
    plain solver."""
    plain = tables.game(CLASSIC, 1500)
    game = tables.setting(CLASSIC, 30, 0)
    free = replace(seats_for(30, 0, 0), runs=3)
    w = solver_runs.solve_runs(replace(game, seats=free), plain.chances, loop=tables.loop())
    assert np.abs(w - plain.chances[:, None, :, None]).max() < 1e-11


def test_penalty_zero_is_the_plain_table(tables: Tables) -> None:
    plain = tables.game(CLASSIC, 2000)
    assert tables.game(with_penalty(penalty=0), 2000).values.shape == (40, 1, 40, 1)
    assert np.array_equal(tables.game(with_penalty(penalty=0), 2000).chances, plain.chances)


@given(st.data())
def test_more_farkles_in_a_row_never_help(tables: Tables, data: st.DataObject) -> None:
    table = tables.game(with_penalty(500), 2000)
    my, theirs = (data.draw(st.integers(0, 39)) * 50 for _ in range(2))
    runs = [Runs(my_farkles=k) for k in range(3)]
    mine = [table.win_chance(my, theirs, r) for r in runs]
    assert mine[0] >= mine[1] - 1e-12 and mine[1] >= mine[2] - 1e-12
    against = [table.win_chance(my, theirs, r.swapped()) for r in runs]
    assert against[0] <= against[1] + 1e-12 and against[1] <= against[2] + 1e-12
    # A turn's start is rolling six dice with nothing at stake.
    for r in runs:
        assert table.roll_value(my, theirs, 0, 6, r) == pytest.approx(
            table.win_chance(my, theirs, r), abs=1e-10
        )


def test_a_player_knocked_back_to_0_has_opened(tables: Tables) -> None:
    table = tables.game(with_penalty(500), 2000)
    opened = Runs(my_opened=True)
    # Opened, a player on 0 may bank 50; one who has not opened may not bank below 500.
    assert table.bank_value(0, 1500, 50, opened) is not None
    assert table.bank_value(0, 1500, 50) is None
    assert table.win_chance(0, 1500, opened) > table.win_chance(0, 1500)


def test_runs_are_checked() -> None:
    with pytest.raises(ValueError, match="0 to 2"):
        Runs(my_farkles=3)
    with pytest.raises(ValueError, match="0 to 2"):
        Runs(opponent_farkles=-1)
    assert Runs(1, 2, True, None).swapped() == Runs(2, 1, None, True)
    assert Runs() == NO_RUNS


# -- solo


@numba.njit(cache=True)
def solo_sweep(e, penalty, first, roll):  # type: ignore[no-untyped-def]
    """One pass of value iteration over E(s, r), in place; the largest change."""
    _, chances, starts, points, dice, farkle = roll
    levels = e.shape[0]
    after = np.zeros((levels + points.max() + 1, 7))  # at the target nothing is left to do
    moved = 0.0
    for s in range(levels - 1, -1, -1):
        for r in range(2, -1, -1):
            farkled = e[s, r + 1] if r < 2 else e[max(0, s - penalty), 0]
            for pos in range(levels - 1, s - 1, -1):
                bank = e[pos, 0] if pos > s else np.inf
                for n in range(1, 7):
                    value = farkle[n] * farkled
                    for i in range(first[n], first[n + 1]):
                        best = np.inf
                        for o in range(starts[i], starts[i + 1]):
                            best = min(best, after[pos + points[o], dice[o]])
                        value += chances[i] * best
                    after[pos, n] = min(bank, value)
                    if pos == s and n == 6:
                        moved = max(moved, abs(1.0 + value - e[s, r]))
                        e[s, r] = 1.0 + value
    return moved


def solo_brute_force(rules: Rules, target: int) -> np.ndarray:
    """E(s, r) by value iteration: expected turns to the target from s with r Farkles in a row."""
    roll = rolls(rules)
    first = np.searchsorted(roll[0], np.arange(8))
    e = np.full((target // 50, 3), 20.0)
    for _ in range(5000):
        if solo_sweep(e, rules.three_farkle_penalty // 50, first, roll) < 1e-13:
            return e
    raise AssertionError("the brute force did not converge")


def test_solo_under_the_penalty_matches_brute_force(tables: Tables) -> None:
    rules = with_penalty()
    table = tables.solo(rules, 1000)
    expected = solo_brute_force(rules, 1000)
    assert np.abs(table.turns - expected).max() < 1e-9
    assert table.expected_turns(900, Runs(my_farkles=2)) > table.expected_turns(900)
