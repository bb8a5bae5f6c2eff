"""The game solver against plain computations written here: brute force, Bellman, turn solver."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import farkle_trainer
from farkle_trainer.engine import game as gs
from farkle_trainer.engine.dice import multisets, roll_chance
from farkle_trainer.engine.farkles import NO_RUNS
from farkle_trainer.engine.game.cuts import Game
from farkle_trainer.engine.game.solve import slope_step, solve_totals
from farkle_trainer.engine.rules import PRESETS, Rules
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.solver import Objective
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.tables import DiskTables, _digest, cache_dir

CLASSIC = PRESETS["classic"]


# -- plain helpers: every roll on its own (no merging), every selection, a ragged maximum


#: Rolls with as many selections as each other: (points, dice to roll next), both (selections, rolls).
Group = tuple[np.ndarray, np.ndarray]


@cache
def plain_rolls(rules: Rules) -> tuple[tuple[Group, ...], np.ndarray, np.ndarray, int]:
    """Every scoring roll on its own (no merging) with every selection.

    (groups, chance matrix (6, rolls), Farkle chance by dice, max points). Rolls are grouped
    by how many selections they have, so each roll's best is the maximum down a full array;
    the matrix's columns are the rolls group by group.
    """
    table = score_table(rules)
    by_count: dict[int, list[tuple[int, float, list[tuple[int, int]]]]] = {}
    farkle = np.zeros(6)
    for n in range(1, 7):
        for roll in multisets(n):
            selections = table.selections(roll)
            if not selections:
                farkle[n - 1] += float(roll_chance(roll))
                continue
            options = [(s.points // 50, (n - len(s.dice)) or 6) for s in selections]
            by_count.setdefault(len(options), []).append((n, float(roll_chance(roll)), options))
    groups: list[Group] = []
    chances: list[tuple[int, float]] = []
    for count in sorted(by_count):
        rolls = by_count[count]
        points = np.array([[o[k][0] for _, _, o in rolls] for k in range(count)])
        dice = np.array([[o[k][1] for _, _, o in rolls] for k in range(count)])
        groups.append((points, dice))
        chances += [(n, p) for n, p, _ in rolls]
    matrix = np.zeros((6, len(chances)))
    for i, (n, p) in enumerate(chances):
        matrix[n - 1, i] = p
    return tuple(groups), matrix, farkle, max(int(points.max()) for points, _ in groups)


def roll_values(rules: Rules, after: np.ndarray, pos: int) -> np.ndarray:
    """Values of rolling 1..6 dice (rows): each roll's best of ``after[pos + points, dice - 1]``."""
    groups, matrix, _, _ = plain_rolls(rules)
    rows = after.reshape(-1, after.shape[-1])
    best = [
        rows.take(((pos + points) * 6 + dice - 1).ravel(), axis=0).reshape(*points.shape, -1).max(axis=0)
        for points, dice in groups
    ]
    return matrix @ np.concatenate(best)


@cache
def plain_final_turn(rules: Rules, leads: int, opening: int | None) -> np.ndarray:
    """G[d]: the trailer's chance (ties one half) to pass a lead of d levels in one turn.

    ``opening``: the trailer is on 0 and may not bank below it. Turn points run up to
    ``leads + max points``; from one level past the lead banking wins outright.
    """
    maxp = plain_rolls(rules)[3]
    height = leads + 2 * maxp + 2
    d = np.arange(leads)
    u = np.arange(height)[:, None]
    bank = np.where(u > d, 1.0, np.where(u == d, 0.5, 0.0))
    if opening is not None:
        bank = np.where(u >= opening, bank, -np.inf)
    after = np.repeat(bank[:, None, :], 6, axis=1)
    start = np.zeros(leads)
    for pos in range(leads + maxp, -1, -1):
        row = roll_values(rules, after, pos)
        won = (pos > d) & np.isfinite(bank[pos])
        after[pos] = np.where(won, 1.0, np.maximum(row, bank[pos]))
        if pos == 0:
            start = row[5]
    return start


def plain_turns(
    rules: Rules,
    w: np.ndarray,
    g_open: np.ndarray,
    g_closed: np.ndarray,
    opening: int,
    cap: int,
) -> np.ndarray:
    """One turn from every pair (a, b) given W at every turn start: the new W.

    Above ``cap`` positions the turn banks (the caller picks a cap high enough).
    """
    levels = len(w)
    _, _, farkle, maxp = plain_rolls(rules)
    a = np.repeat(np.arange(levels), levels)
    b = np.tile(np.arange(levels), levels)
    height = cap + maxp + 1
    pos = np.arange(height)[:, None]
    lead = np.clip(pos - b[None, :], 0, len(g_open) - 1)
    final = np.where(b[None, :] == 0, g_closed[lead], g_open[lead])
    inside = 1.0 - w[b[None, :], np.minimum(pos, levels - 1)]
    bank = np.where(pos < levels, inside, 1.0 - final)
    bank = np.where((a[None, :] == 0) & (pos < opening), -np.inf, bank)
    after = np.repeat(bank[:, None, :], 6, axis=1)
    lost = 1.0 - w[b, a]
    new = np.zeros(len(a))
    for p in range(cap, -1, -1):
        row = roll_values(rules, after, p) + farkle[:, None] * lost[None, :]
        after[p] = np.maximum(row, bank[p])
        new = np.where(a == p, row[5], new)
    return new.reshape(levels, levels)


def brute_force(rules: Rules, levels: int, opening: int, cap: int) -> np.ndarray:
    """Value iteration over whole turns from W = 1/2 until nothing moves.

    The turn banks from position ``cap`` up. That is exact when, at the fixed point, every
    pair has ``G(cap - b) <= f_6 * W(b, a)``: rolling on is worth at most ``f_n x + 1 - f_n``
    (x the Farkle value ``1 - W(b, a)``), banking ``1 - G``, and G only falls further up.
    """
    _, _, farkle, maxp = plain_rolls(rules)
    g_open = plain_final_turn(rules, cap + maxp + 1, None)
    g_closed = plain_final_turn(rules, cap + maxp + 1, opening) if opening else g_open
    w = np.full((levels, levels), 0.5)
    for _ in range(400):
        new = plain_turns(rules, w, g_open, g_closed, opening, cap)
        change = np.abs(new - w).max()
        w = new
        if change < 1e-14:
            break
    else:
        raise AssertionError("value iteration did not settle")
    b = np.arange(levels)
    g = np.where(b == 0, g_closed[cap - b], g_open[cap - b])
    assert (g[None, :] <= farkle.min() * w.T).all(), "the cap is too low for this game"
    return w


# -- the two-player game


@pytest.mark.parametrize("opening", [2])
def test_small_game_matches_brute_force(tables: Tables, opening: int) -> None:
    levels = 4  # a game to 200 points
    game = tables.setting(CLASSIC, levels, opening)
    solved, _ = solve_totals(game, loop=tables.loop())
    assert np.abs(solved - brute_force(CLASSIC, levels, opening, cap=levels + 100)).max() < 1e-9


@pytest.fixture(scope="module")
def table_2000() -> gs.GameTable:
    # Never the shipped table, so what is checked here is what the solver computes: nor the
    # shipped rolls and final turns. Solved once for the run (a worker that comes second reads
    # the first one's solve).
    return Tables(DiskTables(cache_dir(), ready=None)).game(CLASSIC, 2000)


def crude_cap(w: np.ndarray, g_open: np.ndarray, g_closed: np.ndarray, farkle: np.ndarray) -> int:
    """A position from which every turn banks (see :func:`brute_force`)."""
    levels = len(w)
    for cap in range(levels, len(g_open)):
        b = np.arange(levels)
        g = np.where(b == 0, g_closed[np.minimum(cap - b, len(g_open) - 1)], g_open[cap - b])
        if (g[None, :] <= farkle.min() * w.T).all():
            return cap
    raise AssertionError("no cap found")


def test_bellman_equations_hold_at_every_turn_start(table_2000: gs.GameTable) -> None:
    w = table_2000.chances
    _, _, farkle, _ = plain_rolls(CLASSIC)
    g = plain_final_turn(CLASSIC, 200, None)
    cap = crude_cap(w, g, g, farkle)
    new = plain_turns(CLASSIC, w, g, g, 0, cap)
    assert np.abs(new - w).max() < 1e-9


def test_final_turn_against_the_plain_final_turn_and_the_turn_solver(
    tables: Tables, table_2000: gs.GameTable
) -> None:
    g = plain_final_turn(CLASSIC, 200, None)
    for lead in range(1, 200):
        assert table_2000.final_turn_chance(lead * 50) == pytest.approx(g[lead], abs=1e-12)
    # Ties count one half, so passing a lead lies between reaching one more level and tying.
    final = tables.final_turn(CLASSIC, 128)
    for need in (1, 2, 7, 20, 40, 80):
        reach = tables.turn(CLASSIC, Objective.reach(need * 50)).roll_value(0, 6)
        assert final.reach[need, 5] == pytest.approx(reach, abs=1e-12)
        beat = tables.turn(CLASSIC, Objective.reach((need + 1) * 50)).roll_value(0, 6)
        assert beat - 1e-12 <= table_2000.final_turn_chance(need * 50) <= reach + 1e-12


def test_values_inside_a_turn_are_consistent(table_2000: gs.GameTable) -> None:
    t = table_2000
    assert t.roll_value(0, 0, 0, 6) == pytest.approx(t.win_chance(0, 0), abs=1e-10)
    assert t.bank_value(300, 700, 0) is None
    assert t.bank_value(300, 700, 400) == pytest.approx(1 - t.win_chance(700, 700))
    # Banking to the target hands over the final turn.
    assert t.bank_value(1500, 900, 600) == pytest.approx(1 - t.final_turn_chance(1200))


@given(
    a=st.integers(0, 39).map(lambda k: 50 * k),
    b=st.integers(0, 39).map(lambda k: 50 * k),
    t=st.integers(1, 60).map(lambda k: 50 * k),
    n=st.integers(1, 6),
)
def test_turn_values_are_chances_and_fit_together(
    table_2000: gs.GameTable, a: int, b: int, t: int, n: int
) -> None:
    w = table_2000.win_chance(a, b)
    assert 0.0 <= w <= 1.0
    roll = table_2000.roll_value(a, b, t, n)
    bank = table_2000.bank_value(a, b, t)
    after = table_2000.value_after(a, b, t, n)
    assert 0.0 <= roll <= 1.0
    assert after == (roll if bank is None else max(bank, roll))
    if bank is not None and a + t < 2000:
        assert bank == pytest.approx(1 - table_2000.win_chance(b, a + t))


def test_strategy_picture(table_2000: gs.GameTable) -> None:
    grid = gs.win_grid(table_2000, 500)
    assert grid.scores == (0, 500, 1000, 1500)
    assert grid.chances[0][0] == table_2000.first_player_chance > 0.5
    h = table_2000.fair_head_start()
    assert h is not None and h > 0
    assert table_2000.win_chance(0, h) <= 0.5 < table_2000.win_chance(0, h - 50)
    assert table_2000.roll_while_at_most(0, 0, 6) is not None


@pytest.mark.own_table_cache
@pytest.mark.usefixtures("compiled_once")
def test_the_public_contract_and_the_disk_cache(table_2000: gs.GameTable) -> None:
    assert farkle_trainer.win_chance(0, 0, rules="classic", target=2000) == table_2000.first_player_chance
    # The disk cache alone (the shipped tables would answer for classic to 2,000).
    tables = Tables(DiskTables(cache_dir(), ready=None))
    tables.game(CLASSIC, 2000)
    path = next(cache_dir().glob("game-*.npz"))
    values = np.load(path)["values"]
    np.savez(path, values=values * 0.99, digest=np.array(_digest({"values": values * 0.99})))
    tables.forget()
    # A file that is whole but wrong fails the spot check and is solved again.
    assert tables.game(CLASSIC, 2000).first_player_chance == table_2000.first_player_chance


def test_bad_settings_are_refused(tables: Tables) -> None:
    with pytest.raises(gs.GameSolverError):
        tables.game(CLASSIC, 1025)
    with pytest.raises(gs.GameSolverError):
        tables.game(CLASSIC, 2000, opening=2500)


# -- solo


def solo_turns_by_iteration(levels: int) -> np.ndarray:
    """Expected turns to reach ``levels`` fifties from each score on classic, by value iteration
    written here (a Farkle costs a turn), apart from the solo solver."""
    _, _, farkle, maxp = plain_rolls(CLASSIC)
    height = levels + maxp + 1
    pos = np.arange(height)[:, None]
    e = np.full(levels, 5.0)
    for _ in range(500):
        # Columns are starting scores; values are minus the turns needed after this one.
        bank = np.where(pos < levels, -np.append(e, 0.0)[np.minimum(pos, levels)], 0.0)
        bank = np.broadcast_to(bank, (height, levels))
        after = np.repeat(bank[:, None, :], 6, axis=1)
        new = np.empty(levels)
        for p in range(levels - 1, -1, -1):
            row = roll_values(CLASSIC, after, p) - farkle[:, None] * e[None, :]
            after[p] = np.maximum(row, bank[p])
            new[p] = 1.0 - row[5, p]
        change = np.abs(new - e).max()
        e = new
        if change < 1e-14:
            break
    return e


def test_solo_expected_turns_match_value_iteration(tables: Tables) -> None:
    e = solo_turns_by_iteration(20)  # to 1,000
    solo = tables.solo(CLASSIC, 1000)
    assert np.abs(solo.turns[:, 0] - e).max() < 1e-9
    assert solo.expected_turns(0) == pytest.approx(1 + solo.roll_value(0, 0, 6), abs=1e-9)
    assert solo.value_after(0, 300, 3) <= solo.bank_value(0, 300)


# -- the solves


@pytest.mark.own_table_cache
@pytest.mark.usefixtures("compiled_once")
def test_every_farkle_value_a_solve_evaluates_is_a_chance(monkeypatch: pytest.MonkeyPatch) -> None:
    # Far behind at a high target the opponent's chance comes within a hair of one; the slope's
    # second evaluation must then step down, never past one, where no cut certificate holds.
    seen: list[float] = []
    cut = Game.cut

    def checked(self: Game, a: np.ndarray, b: np.ndarray, farkle: np.ndarray) -> np.ndarray:
        seen.append(float(farkle.max()))
        return cut(self, a, b, farkle)

    monkeypatch.setattr(Game, "cut", checked)
    Tables(DiskTables(cache_dir())).game(CLASSIC, 1000, opening=1000)
    assert seen and max(seen) <= 1.0
    z = np.array([0.2, 1.0 - 2e-7, 1.0])
    assert np.all(z + slope_step(z) <= 1.0) and np.all(slope_step(z) != 0)


def test_targets_up_to_twenty_thousand_are_games(tables: Tables) -> None:
    assert CLASSIC.with_house_rules(target=20_000).target == 20_000
    with pytest.raises(ValueError, match="between 50 and 20,000"):
        CLASSIC.with_house_rules(target=20_050)
    with pytest.raises(gs.GameSolverError, match=r"from 1,000 to 20,000, not 500 \(the classic rules' own"):
        tables.game(CLASSIC.with_house_rules(target=500))


def test_turns_valued_together_agree_with_each_valued_alone(table_2000: gs.GameTable) -> None:
    # Each turn alone is the reference (its values meet the Bellman equations, checked above);
    # valued as many columns of one pass, as a solve runs them, a game's turns read the same,
    # to the rounding of a sum taken in another order.
    turns = [(mine, theirs, NO_RUNS) for mine in range(0, 2000, 350) for theirs in range(0, 2000, 450)]
    table_2000._pairs.clear()
    alone = {
        (mine, theirs, t, n): (
            table_2000.roll_value(mine, theirs, t, n),
            table_2000.bank_value(mine, theirs, t),
        )
        for mine, theirs, _ in turns
        for t in range(0, 2000 - mine + 300, 50)
        for n in range(1, 7)
    }
    table_2000._pairs.clear()
    table_2000.prepare([*turns, (2000, 0, NO_RUNS)])  # a score at the target is left to be refused
    assert len(table_2000._pairs) == len(turns)
    together = {key: (table_2000.roll_value(*key), table_2000.bank_value(*key[:3])) for key in alone}
    assert len(table_2000._pairs) == len(turns)  # every position was served by the pass
    for key, (roll, bank) in alone.items():
        assert together[key][0] == pytest.approx(roll, abs=1e-14), key
        assert (together[key][1] is None) == (bank is None), key
        assert bank is None or together[key][1] == pytest.approx(bank, abs=1e-14), key
