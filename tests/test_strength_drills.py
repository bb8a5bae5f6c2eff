"""Drills against perfect play: how many decisions a turn and a solo game of perfect play take,
counted here state by state, and a session's figure from them."""

from __future__ import annotations

from collections import Counter
from functools import cache

import numpy as np
import pytest

from farkle_trainer.engine.decisions import Kind, Position, decision_for, grade
from farkle_trainer.engine.dice import counts_of
from farkle_trainer.engine.farkles import Runs
from farkle_trainer.engine.grading import Unit
from farkle_trainer.engine.ranked import ranked_plays
from farkle_trainer.engine.rules import PRESETS, Rules
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.situations import TurnPoints
from farkle_trainer.engine.solver import Objective, Solution
from farkle_trainer.engine.tables import Tables
from farkle_trainer.training.drills.drills import summarize
from farkle_trainer.ui.views import drills as view
from tests.test_strength import fair_rolls

CLASSIC = PRESETS["classic"]

#: A roll's options: (points, dice to roll next, six after hot dice), the most points first.
Options = tuple[tuple[int, int], ...]


@cache
def option_sets(rules: Rules, n: int) -> tuple[tuple[Options, float], ...]:
    """The non-Farkle rolls of ``n`` dice merged by their options, with their chances."""
    merged: Counter[Options] = Counter()
    for roll, p in fair_rolls(n):
        found = score_table(rules).selections(counts_of(roll))
        if found:
            merged[tuple(sorted({(s.points, (n - len(s.dice)) or 6) for s in found}, reverse=True))] += p
    return tuple(merged.items())


def farkle_chance(rules: Rules, n: int) -> float:
    return 1.0 - sum(p for _, p in option_sets(rules, n))


def turn_decisions(sol: Solution) -> float:
    """The expected decisions of a turn from six dice, every state's chance of being reached
    carried forward from the lowest total up; each roll's best set-aside (the most points, then
    the most dice, among equals) and rolling on where that is as good as banking."""
    rules = sol.rules
    mass: dict[int, Counter[int]] = {0: Counter({6: 1.0})}
    decisions = 0.0
    while mass:
        t = min(mass)
        for n, here in mass.pop(t).items():
            decisions += here * (1 - farkle_chance(rules, n))
            for options, p in option_sets(rules, n):
                points, left = max(options, key=lambda o: (sol.value_after(t + o[0], o[1]), o))
                if sol.should_roll(t + points, left):
                    mass.setdefault(t + points, Counter())[left] += here * p
    return decisions


@pytest.mark.parametrize("name", ["classic", "multiplier"])
def test_a_turn_of_perfect_play_makes_its_decisions_as_counted_state_by_state(
    tables: Tables, name: str
) -> None:
    sol = tables.turn(PRESETS[name], Objective.expected())
    assert sol.decisions_per_turn == pytest.approx(turn_decisions(sol), abs=1e-9)
    assert 2.0 < sol.decisions_per_turn < 2.5


def test_the_count_plays_each_roll_as_the_computers_and_hints_do(tables: Tables) -> None:
    """The set-aside and the action the count takes are the table's own play of the roll."""
    sol = tables.turn(CLASSIC, Objective.expected())
    for t in (0, 300, 1_000, 2_500):
        for n in (2, 4, 6):
            for options, _ in option_sets(CLASSIC, n)[::7]:
                points, left = max(options, key=lambda o: (sol.value_after(t + o[0], o[1]), o))
                roll = next(r for r, _ in fair_rolls(n) if _options(CLASSIC, r) == options)
                play = ranked_plays(tables, TurnPoints(CLASSIC, t), roll).table_play
                assert play is not None
                assert (play.score, play.dice_to_roll) == (points, left)
                assert play.action == ("roll" if sol.should_roll(t + points, left) else "bank")


def _options(rules: Rules, roll: tuple[int, ...]) -> Options:
    n = len(roll)
    found = score_table(rules).selections(counts_of(roll))
    return tuple(sorted({(s.points, (n - len(s.dice)) or 6) for s in found}, reverse=True))


@cache
def solo_decisions(tables: Tables, penalty: int, target: int = 1_000) -> dict[tuple[int, int], float]:
    """The expected decisions from each standing (score, Farkles in a row) to the target, on
    ``classic`` with the penalty: each standing's turn played forward as the solo table plays it
    (the best set-aside, the most points then the most dice among equals; rolling on where that
    is as good as banking, never at the target), giving the chance of each way it ends and the
    decisions in it; then the equations of the standings, solved at once."""
    rules = CLASSIC.with_house_rules(three_farkle_penalty=penalty)
    table = tables.solo(rules, target, 0)
    runs = 3 if penalty else 1
    standings = [(s, r) for s in range(0, target, 50) for r in range(runs)]
    index = {x: i for i, x in enumerate(standings)}
    moves = np.zeros((len(standings), len(standings)))
    made = np.zeros(len(standings))
    for (s, r), i in index.items():
        own = Runs(my_farkles=r) if penalty else Runs()

        @cache
        def after(total: int, left: int, s: int = s, own: Runs = own) -> tuple[float, bool]:
            """Expected turns once set aside (fewer is better), and whether the table rolls on."""
            if s + total >= target:
                return 0.0, False
            return table.value_after(s, total, left, own), table.should_roll(s, total, left, own)

        mass: dict[int, Counter[int]] = {0: Counter({6: 1.0})}
        farkled = 0.0
        while mass:
            t = min(mass)
            for n, here in mass.pop(t).items():
                farkled += here * farkle_chance(rules, n)
                made[i] += here * (1 - farkle_chance(rules, n))
                for options, p in option_sets(rules, n):
                    points, left = min(options, key=lambda o: (after(t + o[0], o[1])[0], -o[0], -o[1]))
                    if after(t + points, left)[1]:
                        mass.setdefault(t + points, Counter())[left] += here * p
                    elif s + t + points < target:
                        moves[i, index[(s + t + points, 0)]] += here * p
        if r < runs - 1:
            moves[i, index[(s, r + 1)]] += farkled
        else:
            moves[i, index[(max(0, s - penalty), 0)]] += farkled
    counts = np.linalg.solve(np.eye(len(standings)) - moves, made)
    return {x: float(counts[i]) for x, i in index.items()}


@pytest.mark.parametrize("penalty", [0, 500])
def test_a_solo_game_of_perfect_play_makes_its_decisions_as_counted_standing_by_standing(
    tables: Tables,
    penalty: int,
) -> None:
    table = tables.solo(CLASSIC.with_house_rules(three_farkle_penalty=penalty), 1_000, 0)
    for (s, r), expected in solo_decisions(tables, penalty).items():
        own = Runs(my_farkles=r) if penalty else Runs()
        assert table.expected_decisions(s, own) == pytest.approx(expected, abs=1e-9), (s, r)
    assert table.expected_decisions(1_000) == 0.0


def test_a_sessions_figure_is_perfect_play_less_its_decisions_times_the_average_loss(tables: Tables) -> None:
    positions = [
        Position(CLASSIC, Kind.KEEP, 0, (1, 5, 2, 2, 3, 6)),
        Position(CLASSIC, Kind.BANK_OR_ROLL, 200, (5, 3, 4), kept=(5,)),
        Position(CLASSIC, Kind.SOLO, 50, (4, 6, 4, 1, 2), banked=850, target=1_000),
    ]
    decisions = [decision_for(tables, p) for p in positions]
    plays = [((1, 5), "bank"), ((5,), "bank"), ((1,), "roll")]
    gradings = [grade(d, keep, action) for d, (keep, action) in zip(decisions, plays, strict=True)]
    summary = summarize(tables, gradings)
    points, turns = summary.strengths
    sol = tables.turn(CLASSIC, Objective.expected())
    lost = (gradings[0].lost + gradings[1].lost) / 2
    assert (points.unit, points.decisions, points.average_lost) == (Unit.POINTS, 2, pytest.approx(lost))
    assert points.expected_result == pytest.approx(
        sol.expected_turn_score - turn_decisions(sol) * lost, abs=1e-9
    )
    solo = tables.solo(CLASSIC, 1_000, 0)
    assert (turns.unit, turns.target, turns.decisions) == (Unit.TURNS, 1_000, 1)
    assert turns.expected_result == pytest.approx(
        solo.expected_turns(0) + solo_decisions(tables, 0)[(0, 0)] * gradings[2].lost, abs=1e-9
    )
    lines = view.summary_lines(summary, planned=3, stopped=False)
    assert any(
        line.startswith(f"Against perfect play: {points.expected_result:,.2f} points a turn against 593.58")
        for line in lines
    )
    assert any(
        line.startswith(
            f"Against perfect play: {turns.expected_result:,.2f} turns to 1,000 against 2.45 (a solo game"
        )
        for line in lines
    )
    data = view.summary_data(summary, gradings, planned=3)
    assert [x["unit"] for x in data["strength"]] == ["points", "turns"]
    assert data["strength"][0]["expected_result"] == pytest.approx(points.expected_result)
    # A session of mistakes on two tables has no figure in points: its decisions add to nothing.
    other = grade(
        decision_for(tables, Position(PRESETS["fixed"], Kind.KEEP, 0, (1, 5, 2, 2, 3, 6))), (1, 5), "bank"
    )
    assert all(x.unit != Unit.POINTS for x in summarize(tables, [gradings[0], other]).strengths)
