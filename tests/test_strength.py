"""A player's strength against perfect play, and the luck of the dice, checked against
computations written here: the performance-difference identity on a small game evaluated
exactly, luck that averages 0 over every fair roll, and each game's figures adding up."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from math import factorial, prod
from pathlib import Path

import numpy as np
import pytest
from matches import person, play_out
from typer.testing import CliRunner

from farkle_trainer.cli import app
from farkle_trainer.engine.dice import counts_of
from farkle_trainer.engine.game import GameTable
from farkle_trainer.engine.grading import Unit
from farkle_trainer.engine.ranked import ranked_plays
from farkle_trainer.engine.rules import PRESETS, Rules
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.engine.situations import FewestTurns, ReachTotal, Situation, TurnPoints, WinGame
from farkle_trainer.engine.solver import Objective
from farkle_trainer.engine.tables import Tables
from farkle_trainer.training.games import analysis as a
from farkle_trainer.training.games import computers
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games.dice import Seeded
from farkle_trainer.training.games.setup import Form, Level, Player, new_setup
from farkle_trainer.ui.views import review as view
from tests.plays import HARD_1000, drawn_seed, greedy_script  # noqa: F401 - drawn_seed is autouse

CLASSIC = PRESETS["classic"]
runner = CliRunner()


def fair_rolls(n: int) -> Iterator[tuple[tuple[int, ...], float]]:
    """Every multiset of ``n`` dice, with the chance that ``n`` fair dice show it."""
    for roll in combinations_with_replacement(range(1, 7), n):
        ways = factorial(n) / prod(factorial(c) for c in Counter(roll).values())
        yield roll, ways / 6**n


# -- luck: the value of the roll thrown, less the mean over every fair roll


LUCK_SITUATIONS: list[Situation] = [
    TurnPoints(CLASSIC, 0),
    TurnPoints(CLASSIC, 350),
    TurnPoints(CLASSIC, 200, opening=500),
    TurnPoints(CLASSIC.with_house_rules(three_farkle_penalty=500), 300, farkle_cost=500),
    ReachTotal(CLASSIC, 150, 1_000),
    WinGame(CLASSIC, 0, 10_000, 0, 0, 0),
    WinGame(CLASSIC, 300, 10_000, 0, 8_500, 9_200),
    WinGame(CLASSIC, 250, 10_000, 0, 9_000, 10_300),  # a last turn: pass the leader
    FewestTurns(CLASSIC, 200, 2_000, 0, 1_200),
]


@pytest.mark.parametrize("situation", LUCK_SITUATIONS, ids=lambda s: f"{type(s).__name__}-{s.points}")
def test_luck_averages_exactly_zero_over_every_fair_roll(tables: Tables, situation: Situation) -> None:
    for n in range(1, 7):
        rolls = list(fair_rolls(n))
        assert sum(p for _, p in rolls) == pytest.approx(1.0, abs=1e-14)
        mean = sum(p * ranked_plays(tables, situation, roll).luck for roll, p in rolls)
        # Luck is shown in percentage points of a chance: 1e-9 pp is a chance of 1e-11.
        assert mean == pytest.approx(0.0, abs=1e-9), (situation, n)


# -- the performance-difference identity, on a game to 1,000 evaluated exactly here

TARGET = 1_000
SMALL = CLASSIC.with_house_rules(target=TARGET)


@dataclass(frozen=True)
class Rolls:
    """The non-Farkle rolls of some number of dice, merged by the options they offer (what
    follows a set-aside depends only on its points and the dice left to roll, six after hot
    dice): each set's chance, and its options in a row, padded (``valid`` says which are real)."""

    chance: np.ndarray
    points: np.ndarray
    left: np.ndarray
    valid: np.ndarray
    farkle: float


@cache
def rolls_of(n: int) -> Rolls:
    merged: dict[tuple[tuple[int, int], ...], float] = {}
    for roll, p in fair_rolls(n):
        found = score_table(SMALL).selections(counts_of(roll))
        if found:
            key = tuple(sorted({(s.points, (n - len(s.dice)) or 6) for s in found}))
            merged[key] = merged.get(key, 0.0) + p
    width = max(len(options) for options in merged)
    points = np.zeros((len(merged), width), dtype=np.int64)
    left = np.ones((len(merged), width), dtype=np.int64)
    valid = np.zeros((len(merged), width), dtype=bool)
    for i, options in enumerate(merged):
        for k, (score, dice) in enumerate(options):
            points[i, k], left[i, k], valid[i, k] = score, dice, True
    chance = np.array(list(merged.values()))
    return Rolls(chance, points, left, valid, 1.0 - float(chance.sum()))


class Chances:
    """The table's chance of winning after banking and after rolling on, for one player's
    position (``bank(t)``, ``roll(t, n)``), read once per turn total and kept in arrays."""

    def __init__(self, bank: Callable[[int], float | None], roll: Callable[[int, int], float]) -> None:
        self._bank, self._roll = bank, roll
        self.banked = np.empty(0)
        self.rolled = np.empty((0, 6))

    def at(self, after: np.ndarray, left: np.ndarray, valid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """What banking and rolling on are worth after each option (``-inf``: not a move)."""
        need = int(after.max()) // 50 + 1
        if need > len(self.banked):
            # Twenty levels to spare, the highest read first: the table values a turn up to the
            # highest total it is asked about, once.
            levels = range(len(self.banked), need + 20)
            banked = [self._bank(level * 50) for level in levels]
            self.banked = np.concatenate([self.banked, [-np.inf if b is None else b for b in banked]])
            rolled = [[self._roll(level * 50, d) for d in range(1, 7)] for level in reversed(levels)]
            self.rolled = np.concatenate([self.rolled, np.array(rolled[::-1])])
        level = after // 50
        bank = np.where(valid, self.banked[level], -np.inf)
        roll = np.where(valid, self.rolled[level, left - 1], -np.inf)
        return bank, roll


def position(table: GameTable, me: int, other: int) -> Chances:
    """The player on ``me`` against ``other``: before the final round, or in the last turn
    (``other`` at the target or past it), where only the points behind count."""
    if other >= TARGET:
        return Chances(
            lambda t: table.final_bank_value(other - me, t),
            lambda t, n: table.final_roll_value(other - me, t, n),
        )
    return Chances(lambda t: table.bank_value(me, other, t), lambda t, n: table.roll_value(me, other, t, n))


#: A player's plays of the rolls of ``n`` dice with ``t`` at stake: for each merged roll, the
#: option taken and whether they bank (else roll on), given what each play is worth.
Policy = Callable[[int, int, Rolls, np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]


def best(t: int, n: int, rolls: Rolls, bank: np.ndarray, roll: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Hard: the best chance of winning, rolling on where it is as good as banking."""
    taken = np.argmax(np.maximum(bank, roll), axis=1)
    rows = np.arange(len(taken))
    return taken, bank[rows, taken] > roll[rows, taken]


def bank_at_once(
    t: int, n: int, rolls: Rolls, bank: np.ndarray, roll: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Always bank at once, the most points the roll offers."""
    taken = np.argmax(np.where(rolls.valid, rolls.points, -1), axis=1)
    return taken, np.ones(len(taken), dtype=bool)


#: Easy's bank thresholds by the dice left to roll (six after hot dice).
EASY_AT = np.array([0, *(computers.EASY_BANK_AT[d] for d in range(1, 7))])


def easy_like(
    t: int, n: int, rolls: Rolls, bank: np.ndarray, roll: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Easy's play: every scoring die (the most points among them), then bank at Easy's
    thresholds, in a last turn too (where Easy itself rolls until it is ahead)."""
    kept = np.where(rolls.left == 6, 6 + 1, -rolls.left)  # hot dice keeps them all
    order = np.where(rolls.valid, kept * 10_000 + rolls.points, -(10**9))
    taken = np.argmax(order, axis=1)
    rows = np.arange(len(taken))
    after = t + rolls.points[rows, taken]
    return taken, after >= EASY_AT[rolls.left[rows, taken]]


def turn(policy: Policy, chances: Chances, *, losses: bool = False) -> tuple[float, dict[int, float], float]:
    """A turn from six dice, played by ``policy`` in the position ``chances`` values: the chance
    it ends in a Farkle, the chance it banks each total, and (``losses``) the expected sum of the
    percentage points of win chance its decisions give up against the best play. Turn points
    only grow, so each state is reached from lower totals alone: lowest first."""
    mass = np.zeros((1, 7))  # by total (in fifties) and dice to roll
    mass[0, 6] = 1.0
    banked = np.zeros(1)
    farkled, lost, level = 0.0, 0.0, 0
    while level < len(mass):
        for n in np.flatnonzero(mass[level]):
            here = mass[level, n]
            t = 50 * level
            rolls = rolls_of(int(n))
            farkled += here * rolls.farkle
            bank, roll = chances.at(t + rolls.points, rolls.left, rolls.valid)
            taken, banks = policy(t, int(n), rolls, bank, roll)
            rows = np.arange(len(taken))
            chance = here * rolls.chance
            if losses:
                value = np.where(banks, bank[rows, taken], roll[rows, taken])
                lost += 100 * float(chance @ (np.maximum(bank, roll).max(axis=1) - value))
            after = (t + rolls.points[rows, taken]) // 50
            top = int(after.max()) + 1
            if top > len(mass):
                mass = np.concatenate([mass, np.zeros((top - len(mass), 7))])
                banked = np.concatenate([banked, np.zeros(top - len(banked))])
            np.add.at(banked, after[banks], chance[banks])
            np.add.at(mass, (after[~banks], rolls.left[rows, taken][~banks]), chance[~banks])
        level += 1
    return farkled, {50 * int(i): float(banked[i]) for i in np.flatnonzero(banked)}, lost


def exact_game(table: GameTable, policy: Policy, me: int, other: int) -> tuple[float, float]:
    """The chance that a player of ``policy`` about to start a turn on ``me`` beats Hard on
    ``other``, and the expected sum of the percentage points of win chance their decisions
    give up, both exact: every pair of scores from the highest down, each Farkle pair (the
    player's turn and Hard's at the same scores) solved as the two equations it is."""
    vp: dict[tuple[int, int], float] = {}  # the player to start a turn
    lp: dict[tuple[int, int], float] = {}
    vh: dict[tuple[int, int], float] = {}  # Hard to start a turn
    lh: dict[tuple[int, int], float] = {}

    @cache
    def player_last_turn(behind: int) -> tuple[float, float]:
        """The player's last turn ``behind`` Hard: the chance of passing (a tie counts one
        half) and what their decisions give up."""
        _, banked, lost = turn(policy, position(table, TARGET, TARGET + behind), losses=True)
        won = sum(c * (1.0 if t > behind else 0.5 if t == behind else 0.0) for t, c in banked.items())
        return won, lost

    @cache
    def hard_last_turn(behind: int) -> float:
        """The player's chance once they lead by ``behind`` and Hard has its last turn."""
        farkled, banked, _ = turn(best, position(table, TARGET, TARGET + behind))
        return farkled + sum(
            c * (1.0 if behind > t else 0.5 if behind == t else 0.0) for t, c in banked.items()
        )

    scores = range(TARGET - 50, -1, -50)
    for p in scores:
        for h in scores:
            if p < me or h < other:
                continue
            # The player's turn: a Farkle passes to Hard at the same scores.
            f_p, banked, lost_p = turn(policy, position(table, p, h), losses=True)
            a_p, b_p = 0.0, lost_p
            for t, c in banked.items():
                if p + t >= TARGET:
                    a_p += c * hard_last_turn(p + t - h)
                else:
                    a_p += c * vh[(p + t, h)]
                    b_p += c * lh[(p + t, h)]
            # Hard's turn: a Farkle passes back.
            f_h, banked, _ = turn(best, position(table, h, p))
            a_h, b_h = 0.0, 0.0
            for t, c in banked.items():
                if h + t >= TARGET:
                    won, lost = player_last_turn(h + t - p)
                    a_h, b_h = a_h + c * won, b_h + c * lost
                else:
                    a_h += c * vp[(p, h + t)]
                    b_h += c * lp[(p, h + t)]
            # vp = a_p + f_p vh, vh = a_h + f_h vp (and the same for the losses).
            vp[(p, h)] = (a_p + f_p * a_h) / (1 - f_p * f_h)
            vh[(p, h)] = a_h + f_h * vp[(p, h)]
            lp[(p, h)] = (b_p + f_p * b_h) / (1 - f_p * f_h)
            lh[(p, h)] = b_h + f_h * lp[(p, h)]
    return vp[(me, other)], lp[(me, other)]


@pytest.mark.parametrize(
    ("policy", "me", "other"),
    [(bank_at_once, 700, 650), (easy_like, 800, 750)],
    ids=["bank-at-once", "easy"],
)
def test_the_expected_result_against_hard_is_the_start_chance_less_the_expected_losses(
    tables: Tables, policy: Policy, me: int, other: int
) -> None:
    """The performance-difference identity, on a game to 1,000 from a position late enough to
    evaluate exactly here: a fixed, poor policy against Hard wins exactly the table's chance
    from the position less the expected win chance its decisions give up."""
    table = tables.game(SMALL, TARGET, 0)
    result, lost = exact_game(table, policy, me, other)
    start = table.win_chance(me, other)
    assert lost > 1.0  # the policy is a poor one: the identity is not 0 = 0
    assert result == pytest.approx(start - lost / 100, abs=1e-9)


def test_over_seeded_games_the_figure_and_the_results_agree(tables: Tables) -> None:
    """Over seeded games of Easy against Hard to 1,000, each game's expected result against
    perfect play and its actual result differ by the luck of the dice alone (Hard gives up
    nothing), which averages 0: the means agree within three standard errors of the
    difference, and the figure's own standard error is the smaller by far."""
    players = (Player("Eve", Level.EASY), Player("Hal", Level.HARD))
    figures, results = [], []
    for n in range(150):
        setup = new_setup(players, target=TARGET, dice=Seeded(f"e{n}"))
        state = computers.play_computers(tables, m.new_match(setup), setup.source())
        eve = a.game_strengths(tables, state)[0]
        figures.append(eve.expected_result)
        results.append(eve.result)

    def mean_and_se(xs: list[float]) -> tuple[float, float]:
        mean = sum(xs) / len(xs)
        return mean, (sum((x - mean) ** 2 for x in xs) / (len(xs) - 1) / len(xs)) ** 0.5

    figure, figure_se = mean_and_se(figures)
    _, diff_se = mean_and_se([r - f for r, f in zip(results, figures, strict=True)])
    result, result_se = mean_and_se(results)
    assert abs(result - figure) < 3 * diff_se
    assert figure_se < result_se / 2
    # Easy gives up a good part of the first player's 57.77%.
    assert tables.game(SMALL, TARGET, 0).first_player_chance - figure > 0.05


# -- each game's figures


def played(tables: Tables, players: tuple[Player, ...], seed: str, **kw: object) -> m.MatchState:
    kw.setdefault("target", 2_000)
    s = new_setup(players, dice=Seeded(seed), **kw)  # type: ignore[arg-type]
    return play_out(tables, m.new_match(s), s.source(), person(Stream(f"person-{seed}")))


ANN, BOB = Player("Ann"), Player("Bob")


def _split(rules: Rules, keep: tuple[int, ...]) -> int:
    split = score_table(rules).split(counts_of(keep))
    assert split is not None
    return split.points


@pytest.mark.parametrize("seed", ["g1", "g2", "g3"])
def test_two_player_figures_add_up(tables: Tables, seed: str) -> None:
    state = played(tables, (ANN, Player("Hal", Level.HARD)), seed)
    table = tables.game(state.setup.rules, 2_000, 0)
    an = a.analyse(tables, state)
    ann, hal = an.strengths
    assert ann.unit == Unit.WIN and ann.start_chance == pytest.approx(table.first_player_chance, abs=1e-15)
    assert hal.start_chance == pytest.approx(1 - table.first_player_chance, abs=1e-15)
    for s, acc in zip(an.strengths, an.accounts, strict=True):
        assert s.expected_result == pytest.approx(s.perfect - s.given_up / 100, abs=1e-15)
        assert s.given_up == pytest.approx(acc.given_up, abs=1e-12)
        assert s.result == state.result(s.seat)
        assert s.decisions == sum(1 for x in state.log if x.seat == s.seat and x.decision)
    # Luck taken out of the result leaves the start less what each side gave up.
    assert ann.luck_adjusted == pytest.approx(ann.perfect - ann.given_up / 100 + hal.given_up / 100, abs=1e-9)
    assert hal.given_up == pytest.approx(0.0, abs=1e-9)  # Hard plays the table exactly
    assert ann.luck_adjusted == pytest.approx(ann.expected_result, abs=1e-9)
    assert ann.luck_adjusted + hal.luck_adjusted == pytest.approx(1.0, abs=1e-9)
    # The luck of each move adds up to each player's.
    for seat in (0, 1):
        mine = sum(step.luck for step in an.steps if step.move.seat == seat)
        assert mine == pytest.approx(an.strengths[seat].luck, abs=1e-12)


def test_solo_figures_are_perfect_play_less_what_the_decisions_gave_up(tables: Tables) -> None:
    ten = played(tables, (ANN,), "ten", form=Form.TEN_TURNS)
    (s,) = a.analyse(tables, ten).strengths
    perfect = 10 * tables.turn(ten.rules, Objective.expected()).roll_value(0, 6)
    assert (s.unit, s.perfect) == (Unit.POINTS, pytest.approx(perfect, abs=1e-9))
    assert s.expected_result == pytest.approx(perfect - s.given_up, abs=1e-9)
    assert s.luck_adjusted == pytest.approx(s.expected_result, abs=1e-7)  # the score less its luck
    assert s.result == ten.scores[0]
    fewest = played(tables, (ANN,), "t1", form=Form.FEWEST_TURNS, opening=500)
    (s,) = a.analyse(tables, fewest).strengths
    turns = tables.solo(fewest.rules, 2_000, 500).expected_turns(0)
    assert (s.unit, s.perfect) == (Unit.TURNS, turns)
    assert s.expected_result == pytest.approx(turns + s.given_up, abs=1e-12)
    assert s.luck_adjusted == pytest.approx(s.expected_result, abs=1e-7)
    assert s.result == fewest.turns[0]


@pytest.mark.parametrize("seed", ["p1", "p2"])
def test_with_three_players_the_figure_counts_points_before_the_final_round(
    tables: Tables, seed: str
) -> None:
    """Perfect play's points of each turn before the final round from where it started, less
    what the decisions of those turns gave up in points, worked out here from the turn solver."""
    players = (ANN, Player("Med", Level.MEDIUM), Player("Eve", Level.EASY))
    state = played(tables, players, seed, opening=350, penalty=500)
    an = a.analyse(tables, state)
    assert any(x.last_turn for x in state.log)
    for s in an.strengths:
        perfect = given_up = 0.0
        turns: set[int] = set()
        for x in state.log:
            if x.seat != s.seat or x.last_turn:
                continue
            opening = 350 if x.score == 0 else 0
            farkle_value = -min(500, x.score) if x.farkles == 2 else 0
            sol = tables.turn(state.rules, Objective.expected(opening=opening, farkle_value=farkle_value))
            if x.turn not in turns:
                turns.add(x.turn)
                perfect += sol.roll_value(0, 6)
            if x.decision:
                n = len(x.roll)
                best = max(
                    sol.value_after(x.points + sp.points, (n - len(sp.dice)) or 6)
                    for sp in score_table(state.rules).selections(counts_of(x.roll))
                )
                t = x.points + _split(state.rules, x.keep)
                bank = sol.bank_value(t)
                chosen = bank if x.action == "bank" else sol.roll_value(t, (n - len(x.keep)) or 6)
                assert chosen is not None
                given_up += best - chosen
        assert s.final_round_left_out and s.turns == len(turns)
        assert s.perfect == pytest.approx(perfect, abs=1e-9)
        assert s.given_up == pytest.approx(given_up, abs=1e-9)
        assert s.expected_result == pytest.approx(perfect - given_up, abs=1e-9)
        assert s.luck_adjusted == pytest.approx(state.scores[s.seat] - s.luck, abs=1e-9)


def test_a_game_not_played_to_its_end_has_no_figure(tables: Tables) -> None:
    s = new_setup((ANN, Player("Hal", Level.HARD)), target=1_000, dice=Seeded("r"))
    state = m.roll(m.new_match(s), s.source())
    best = max(score_table(s.rules).selections(counts_of(state.roll)), key=lambda sp: sp.points)
    state = m.bank(m.set_aside(state, best.dice))
    an = a.analyse(tables, state, resigned=0)
    assert an.strengths == ()
    assert not any("against perfect play" in line for line in view.analysis_lines(state, an))


def test_the_figure_is_said_after_the_game_and_carried_by_review_json(
    tables: Tables, farkle_home: Path
) -> None:
    lines, final = greedy_script(
        tables, new_setup((Player("You"), Player("Hard", Level.HARD)), target=1000, dice=Seeded("3"))
    )
    done = runner.invoke(app, HARD_1000, input="".join(f"{line}\n" for line in lines))
    assert done.exit_code == 0, done.output
    start = tables.game(SMALL, TARGET, 0).first_player_chance
    lost = sum(r.lost for r in a.analyse(tables, final).reviews)
    line = (
        f"Your play this game: {100 * (start - lost / 100):.2f}% against perfect play (perfect play from "
        f"your seat: {100 * start:.2f}%, less {lost:.2f} pp your decisions gave up)."
    )
    assert line in done.output
    assert "; accuracy" not in done.output
    data = json.loads(runner.invoke(app, ["review", "1", "--json"]).stdout)
    analysis = data["analysis"]
    assert [s["player"] for s in analysis["strength"]] == ["You", "Hard"]
    for s, seat_start in zip(analysis["strength"], (start, 1 - start), strict=True):
        assert s["unit"] == "win" and s["start_chance"] == pytest.approx(seat_start, abs=1e-15)
        assert s["expected_result"] == pytest.approx(s["start_chance"] - s["given_up"] / 100, abs=1e-15)
    assert analysis["strength"][0]["given_up"] == pytest.approx(lost, abs=1e-12)
    # The luck of every move, adding up to each player's.
    by_move = data["moves"]
    assert [(x["turn"], x["roll_number"]) for x in by_move] == [(x.turn, x.roll_number) for x in final.log]
    assert {x["unit"] for x in by_move} == {"win"}
    for account in analysis["accounts"]:
        mine = [x["luck"] for x in by_move if x["player"] == account["player"]]
        assert sum(mine) == pytest.approx(account["luck"], abs=1e-12)
    assert all("accuracy" not in s for s in analysis["summaries"])
