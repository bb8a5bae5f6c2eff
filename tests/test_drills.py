"""Drills: positions, exact grading, generation from seeds, the session summary."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from dataclasses import fields
from itertools import product
from pathlib import Path

import pytest

from farkle_trainer import load_rules
from farkle_trainer.engine.decisions import (
    KINDS,
    DrillError,
    Position,
    decision_for,
    grade,
    position_data,
    position_from_data,
    strategy_notes,
)
from farkle_trainer.engine.dice import counts_of
from farkle_trainer.engine.grading import CHANCE_GRADES, POINT_GRADES, grade_for, rating_for
from farkle_trainer.engine.kinds import TURN_KINDS
from farkle_trainer.engine.plays import hint
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.engine.solver import Objective
from farkle_trainer.engine.tables import Tables
from farkle_trainer.training.drills import drills as drills_module
from farkle_trainer.training.drills.drills import (
    LEVEL_GAPS,
    Plan,
    fits,
    generate,
    summarize,
    teaching_positions,
    worth_asking,
)
from farkle_trainer.training.drills.kinds import KIND_SPECS, KindSpec
from farkle_trainer.training.progress import DECIDE_TOPICS

CLASSIC = load_rules("classic")
MULTIPLIER = load_rules("multiplier")


def values(tables: Tables, position: Position) -> dict[tuple[tuple[int, ...], str], float]:
    return {(c.keep, c.action): c.value.amount for c in decision_for(tables, position).choices}


# -- hand-checked positions


def test_keep_the_1_under_multiplier(tables: Tables) -> None:
    """The seed's example: from 1-5-2-2-3-6, keeping only the 1 is worth about 400, 1 and 5 about 310."""
    p = Position(MULTIPLIER, "keep", 0, (1, 5, 2, 2, 3, 6))
    v = values(tables, p)
    assert v[(1,), "roll"] == pytest.approx(400, abs=5)
    assert v[(1, 5), "roll"] == pytest.approx(310, abs=5)
    d = decision_for(tables, p)
    assert (d.best.keep, d.best.action) == ((1,), "roll")
    best = grade(d, (1,), "roll")
    assert best.grade == "best" and best.lost == 0 and best.right
    both = grade(d, (5, 1), "roll")  # any order of the same dice
    assert both.lost == pytest.approx(v[(1,), "roll"] - v[(1, 5), "roll"])
    assert both.lost == pytest.approx(92.38, abs=0.01) and both.grade == "blunder" and not both.right
    five = grade(d, (5,), "roll")
    assert five.lost == pytest.approx(35.75, abs=0.01) and five.grade == "mistake"
    assert grade(d, (1, 5), "bank").lost == pytest.approx(v[(1,), "roll"] - 150)


def by_hand_roll_value(tables: Tables, t: int, n: int) -> float:
    """Rolling ``n`` dice at ``t`` under classic, over all 6**n ordered outcomes, played on
    perfectly afterwards (the solver's values after each set-aside)."""
    table = score_table(CLASSIC)
    after = tables.turn(CLASSIC, Objective.expected())
    total = 0.0
    for dice in product(range(1, 7), repeat=n):
        options = [
            after.value_after(t + s.points, (n - len(s.dice)) or 6) for s in table.selections(counts_of(dice))
        ]
        total += max(options, default=0.0)
    return total / 6**n


def test_two_dice_at_250_bank_one_die_at_250_roll(tables: Tables) -> None:
    two = Position(CLASSIC, "bank-or-roll", 200, (5, 3, 4), kept=(5,))
    one = Position(CLASSIC, "bank-or-roll", 200, (4, 5), kept=(5,))
    assert two.at_stake == one.at_stake == 250
    assert (two.dice_to_roll, one.dice_to_roll) == (2, 1)
    v2, v1 = values(tables, two), values(tables, one)
    assert v2[(5,), "bank"] == v1[(5,), "bank"] == 250
    assert v2[(5,), "roll"] == pytest.approx(by_hand_roll_value(tables, 250, 2))
    assert v1[(5,), "roll"] == pytest.approx(by_hand_roll_value(tables, 250, 1))
    # One die: a 1 or a 5 (one chance in three) scores and brings hot dice.
    hot = tables.turn(CLASSIC, Objective.expected())
    assert v1[(5,), "roll"] == pytest.approx((hot.value_after(350, 6) + hot.value_after(300, 6)) / 6)
    assert decision_for(tables, two).best.action == "bank" and decision_for(tables, one).best.action == "roll"
    close = grade(decision_for(tables, two), (5,), "roll")
    assert close.lost == pytest.approx(0.83, abs=0.01) and close.grade == "fine" and close.right
    costly = grade(decision_for(tables, one), (5,), "bank")
    assert costly.lost == pytest.approx(39.41, abs=0.01) and costly.grade == "mistake"


def test_hot_dice_at_2000_rolls_six(tables: Tables) -> None:
    p = Position(CLASSIC, "bank-or-roll", 1000, (1, 1, 1), kept=(1, 1, 1))
    assert p.at_stake == 2000 and p.dice_to_roll == 6
    d = decision_for(tables, p)
    assert d.best.action == "roll" and d.best.hot_dice
    assert d.best.value.amount == pytest.approx(by_hand_roll_value(tables, 2000, 6))


def test_a_bank_or_roll_drill_only_offers_its_set_aside(tables: Tables) -> None:
    p = Position(CLASSIC, "bank-or-roll", 0, (1, 5, 2, 2, 3, 6), kept=(1,))
    d = decision_for(tables, p)
    assert {c.keep for c in d.choices} == {(1,)} and len(d.choices) == 2
    with pytest.raises(DrillError, match="not a play"):
        grade(d, (1, 5), "roll")


# -- final round: the chance of passing, not the expected score


def test_final_round_banks_only_when_it_passes(tables: Tables) -> None:
    p = Position(CLASSIC, "final-round", 500, (5, 2, 3, 4), leader=10_000, banked=9_000)
    assert p.need == 1050 and p.unit == "chance"
    d = decision_for(tables, p)
    assert (d.best.keep, d.best.action) == ((5,), "roll")
    # The expected score says bank 550 with three dice left; in the final round that loses.
    assert hint(tables, (5, 2, 3, 4), 500, CLASSIC).best.value.action == "bank"
    reach = tables.turn(CLASSIC, Objective.reach(1050))
    assert d.best.value.amount == pytest.approx(reach.roll_value(550, 3))
    banked = grade(d, (5,), "bank")
    assert banked.chosen.value.amount == 0.0
    assert banked.lost == pytest.approx(100 * d.best.value.amount) and banked.grade == "blunder"


def test_final_round_keeps_differently_from_expected_score(tables: Tables) -> None:
    """Needing 500 from 1-2-2-5: the 1 alone is best for points, the 1 and the 5 for passing."""
    assert hint(tables, (1, 2, 2, 5), 0, CLASSIC).best.keep == (1,)
    p = Position(CLASSIC, "final-round", 0, (1, 2, 2, 5), leader=10_000, banked=9_550)
    assert p.need == 500  # passing 10,000 from 9,550 takes 451, and points come in fifties
    d = decision_for(tables, p)
    assert (d.best.keep, d.best.action) == ((1, 5), "roll")
    g = grade(d, (1,), "roll")
    assert g.lost == pytest.approx(0.96, abs=0.01)  # percentage points
    assert g.grade == "inaccuracy" and g.points_lost == pytest.approx(10 * g.lost)


def test_final_round_need_is_strictly_more_than_the_lead() -> None:
    assert Position(CLASSIC, "final-round", 0, (1,), leader=10_000, banked=9_000).need == 1050
    assert Position(CLASSIC, "final-round", 0, (1,), leader=10_000, banked=9_020).need == 1000
    with pytest.raises(DrillError, match="leader"):
        Position(CLASSIC, "final-round", 0, (1,), leader=9_000, banked=9_000)


# -- the opening minimum


def test_opening_minimum_forbids_banking_below_it(tables: Tables) -> None:
    p = Position(CLASSIC, "opening", 350, (1, 3, 5, 4), opening=500)
    v = values(tables, p)
    assert ((1,), "bank") not in v and ((5,), "bank") not in v  # 450 and 400: below 500
    assert v[(1, 5), "bank"] == 500
    d = decision_for(tables, p)
    assert (d.best.keep, d.best.action) == ((1, 5), "bank")
    with pytest.raises(DrillError, match="cannot bank 450"):
        grade(d, (1,), "bank")
    # Without the minimum, banking 450 is allowed and is second best.
    free = values(tables, Position(CLASSIC, "keep", 350, (1, 3, 5, 4)))
    assert free[(1,), "bank"] == 450


def test_opening_values_are_the_solvers(tables: Tables) -> None:
    p = Position(CLASSIC, "opening", 0, (1, 5, 2, 2, 3, 6), opening=500)
    h = hint(tables, (1, 5, 2, 2, 3, 6), 0, CLASSIC, opening=500)
    v = values(tables, p)
    assert v == {(x.keep, "roll"): x.expected.roll for x in h.plays}
    assert v[(1,), "roll"] == pytest.approx(370.34, abs=0.01)
    assert v[(1,), "roll"] < values(tables, Position(CLASSIC, "keep", 0, (1, 5, 2, 2, 3, 6)))[(1,), "roll"]


def test_a_forced_decision_is_not_worth_asking(tables: Tables) -> None:
    # 400 under a 500 opening, only the 5 scores: set it aside and roll, nothing else is legal.
    forced = Position(CLASSIC, "opening", 350, (5, 2, 3), opening=500)
    d = decision_for(tables, forced)
    assert len(d.choices) == 1 and d.forced and not worth_asking(d)
    # A keep drill needs a choice of dice, not only bank or roll.
    one_keep = decision_for(tables, Position(CLASSIC, "keep", 0, (5, 2, 3)))
    assert not one_keep.forced and not worth_asking(one_keep)


# -- grades and ratings


@pytest.mark.parametrize(
    ("lost", "expected"),
    [
        (0.0, "best"),
        (0.004, "best"),
        (0.005, "fine"),
        (4.99, "fine"),
        (5.0, "inaccuracy"),
        (19.99, "inaccuracy"),
        (20.0, "mistake"),
        (59.99, "mistake"),
        (60.0, "blunder"),
        (500.0, "blunder"),
    ],
)
def test_point_grades(lost: float, expected: str) -> None:
    assert grade_for(lost, "points") == expected


@pytest.mark.parametrize(
    ("lost", "expected"),
    [
        (0.0, "best"),
        (0.49, "fine"),
        (0.5, "inaccuracy"),
        (2.0, "mistake"),
        (5.99, "mistake"),
        (6.0, "blunder"),
    ],
)
def test_chance_grades_in_percentage_points(lost: float, expected: str) -> None:
    assert grade_for(lost, "chance") == expected


def test_the_two_grade_scales_share_one_ratio() -> None:
    assert [10 * c for c in CHANCE_GRADES[1:]] == list(POINT_GRADES[1:])


@pytest.mark.parametrize(
    ("loss", "rating"),
    [
        (0.0, "solver"),
        (2.5, "expert"),
        (6.0, "advanced"),
        (14.0, "intermediate"),
        (29.0, "casual"),
        (30, "beginner"),
    ],
)
def test_rating_scale(loss: float, rating: str) -> None:
    assert rating_for(loss) == rating


def test_summary_counts_averages_and_the_worst_decision(tables: Tables) -> None:
    keep = decision_for(tables, Position(MULTIPLIER, "keep", 0, (1, 5, 2, 2, 3, 6)))
    final = decision_for(
        tables, Position(CLASSIC, "final-round", 0, (1, 2, 2, 5), leader=10_000, banked=9_550)
    )
    gradings = [grade(keep, (1,), "roll"), grade(keep, (1, 5), "roll"), grade(final, (1,), "roll")]
    s = summarize(tables, gradings)
    assert s.decisions == 3 and (s.point_decisions, s.chance_decisions) == (2, 1)
    assert s.grades == {"best": 1, "fine": 0, "inaccuracy": 1, "mistake": 0, "blunder": 1}
    assert s.average_points_lost == pytest.approx(92.38 / 2, abs=0.01)
    assert s.average_chance_lost == pytest.approx(gradings[2].lost)
    assert s.average_loss == pytest.approx((92.38 + 10 * gradings[2].lost) / 3, abs=0.01)
    assert s.rating == "beginner"
    assert s.worst == (2, gradings[1])
    perfect = summarize(tables, [grade(keep, (1,), "roll")])
    assert perfect.rating == "solver" and perfect.worst is None
    assert summarize(tables, []).decisions == 0 and summarize(tables, []).rating is None


def test_strategy_notes_name_the_threshold(tables: Tables) -> None:
    two = decision_for(tables, Position(CLASSIC, "bank-or-roll", 200, (5, 3, 4), kept=(5,)))
    (note,) = strategy_notes(tables, grade(two, (5,), "roll"))
    assert (note.dice_to_roll, note.roll_while_at_most, note.points_after, note.action) == (
        2,
        200,
        250,
        "bank",
    )
    keep = decision_for(tables, Position(MULTIPLIER, "keep", 0, (1, 5, 2, 2, 3, 6)))
    notes = strategy_notes(tables, grade(keep, (1, 5), "roll"))
    # The seed's thresholds: five dice 3,050, four dice 1,000.
    assert [(n.dice_to_roll, n.roll_while_at_most) for n in notes] == [(5, 3050), (4, 1000)]
    final = decision_for(
        tables, Position(CLASSIC, "final-round", 500, (5, 2, 3, 4), leader=10_000, banked=9_000)
    )
    (reach,) = strategy_notes(tables, grade(final, (5,), "bank"))
    assert reach.need == 1050 and reach.roll_while_at_most == 1000 and reach.action == "roll"


# -- positions as data


def test_position_data_round_trip() -> None:
    p = Position(CLASSIC, "final-round", 500, (5, 2, 3, 4), leader=10_000, banked=9_000, title="x")
    data = json.loads(json.dumps(position_data(p)))
    assert position_from_data(data, CLASSIC) == p
    assert position_from_data(data, MULTIPLIER) is None  # asked under other rules
    assert position_from_data({"rules": "classic"}, CLASSIC) is None
    assert p.item == "final-round:classic:500:2345:leader10000-banked9000"


@pytest.mark.parametrize(
    "bad",
    [
        {"kind": "bank-or-roll", "points": 0, "roll": (1, 2)},  # no set-aside given
        {"kind": "bank-or-roll", "points": 0, "roll": (1, 2), "kept": (2,)},  # does not score
        {"kind": "bank-or-roll", "points": 0, "roll": (1, 2), "kept": (5,)},  # not in the roll
        {"kind": "keep", "points": 30, "roll": (1, 2)},
        {"kind": "keep", "points": 0, "roll": (1, 2), "opening": 500},
        {"kind": "opening", "points": 0, "roll": (1, 2)},
        {"kind": "guess", "points": 0, "roll": (1, 2)},
    ],
)
def test_impossible_positions_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(DrillError):
        Position(CLASSIC, **bad)  # type: ignore[arg-type]


# -- generation


def session(tables: Tables, seed: str, count: int = 12, **kw: object) -> list[Position]:
    return list(Plan(tables, CLASSIC, Stream(seed), count, **kw))  # type: ignore[arg-type]


def test_the_same_seed_gives_the_same_drills(tables: Tables) -> None:
    assert session(tables, "decide:1") == session(tables, "decide:1")
    assert session(tables, "decide:1") != session(tables, "decide:2")


def test_the_same_seed_gives_the_same_drills_in_another_process(tables: Tables) -> None:
    code = (
        "from farkle_trainer import load_rules; from farkle_trainer.training.drills.drills import Plan;"
        "from farkle_trainer.engine.seeded import Stream; from farkle_trainer.engine.tables import Tables;"
        "print([p.item for p in Plan(Tables(), load_rules('classic'), Stream('decide:1'), 12)])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == str([p.item for p in session(tables, "decide:1")])


def test_every_kind_is_generated_and_none_is_forced(tables: Tables) -> None:
    drills = session(tables, "mix", 60)
    assert {p.kind for p in drills} == set(TURN_KINDS)
    assert len({p.item for p in drills}) == len(drills)  # no position twice in a session
    for p in drills:
        assert worth_asking(decision_for(tables, p)), p


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_levels_set_how_close_the_decisions_are(tables: Tables, level: str) -> None:
    low, high = LEVEL_GAPS[level]  # type: ignore[index]
    for p in session(tables, f"level-{level}", 16, level=level):
        assert low <= decision_for(tables, p).gap < high, p
        assert fits(decision_for(tables, p), level)  # type: ignore[arg-type]


def test_generation_reaches_hot_dice_and_high_totals(tables: Tables) -> None:
    stream = Stream("reach")
    drawn = [generate(tables, CLASSIC, "bank-or-roll", stream) for _ in range(150)]
    assert any(p.dice_to_roll == 6 for p in drawn)  # hot dice
    assert any(p.at_stake >= 1000 for p in drawn)
    finals = [generate(tables, CLASSIC, "final-round", stream) for _ in range(20)]
    assert all(p.points < (p.need or 0) and p.banked is not None for p in finals)
    openings = [generate(tables, CLASSIC, "opening", stream) for _ in range(20)]
    assert all(p.opening == 500 and p.points < 500 for p in openings)


def test_generation_prefers_close_decisions(tables: Tables) -> None:
    stream = Stream("close")
    gaps = sorted(decision_for(tables, generate(tables, CLASSIC, "keep", stream)).gap for _ in range(60))
    assert gaps[len(gaps) // 2] < 40


def test_teaching_positions(tables: Tables) -> None:
    for name in ("classic", "fixed", "doubling", "multiplier"):
        made = teaching_positions(tables, load_rules(name))
        assert {p.kind for p in made} == set(TURN_KINDS), name
        assert all(worth_asking(decision_for(tables, p)) for p in made)
    titles = {p.title: p for p in teaching_positions(tables, CLASSIC)}
    assert titles["one 1, or the 1 and the 5?"].roll == (1, 5, 2, 2, 3, 6)
    assert titles["six dice at 2,000"].at_stake == 2000
    assert titles["two dice at 250"].at_stake == titles["one die at 250"].at_stake == 250


def test_teaching_positions_follow_a_custom_opening(tables: Tables) -> None:
    house = CLASSIC.with_house_rules(opening_minimum=1000)
    (opening,) = [p for p in teaching_positions(tables, house) if p.kind == "opening"]
    assert opening.opening == 1000


# -- the kind registry


def test_every_kind_is_declared_once_in_the_registry_with_every_field(tables: Tables) -> None:
    assert tuple(KIND_SPECS) == KINDS
    short = CLASSIC.with_house_rules(target=1000)
    for kind, spec in KIND_SPECS.items():
        assert spec.kind is kind
        for f in fields(KindSpec):
            assert getattr(spec, f.name) is not None, (kind, f.name)
        position = generate(tables, short, kind, Stream(f"registry/{kind}"))
        assert position.kind == kind and spec.worth_asking(decision_for(tables, position))
        # Game and solo positions are worth what the session's target makes them: none is built in.
        assert bool(spec.teaching(CLASSIC)) == (kind in TURN_KINDS)
        assert spec.needs_target == (kind not in TURN_KINDS)
    # The store sits below training and keeps its own copy for progress summaries.
    assert DECIDE_TOPICS == KINDS


def test_nothing_in_training_or_the_views_switches_on_a_kind() -> None:
    package = Path(drills_module.__file__).parents[2]
    found = []
    for path in sorted([*(package / "training").rglob("*.py"), *(package / "ui").rglob("*.py")]):
        if path.name == "kinds.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            on_kind = any(
                (isinstance(n, ast.Attribute) and n.attr == "kind")
                or (isinstance(n, ast.Name) and n.id == "kind")
                for n in sides
            )
            if on_kind and any(isinstance(n, ast.Constant) and n.value in KINDS for n in sides):
                found.append(f"{path.relative_to(package)}:{node.lineno}")
    assert found == [], "kinds are declared in training/drills/kinds.py (and the engine's Kind)"


# -- adapting to the player


def test_misses_bring_back_positions_like_them(tables: Tables) -> None:
    plan = Plan(tables, CLASSIC, Stream("adapt"), 30, ("bank-or-roll",), adaptive=True)
    drills = iter(plan)
    first = next(drills)
    d = decision_for(tables, first)
    worst = d.choices[-1]
    plan.answered(grade(d, worst.keep, worst.action))
    later = [next(drills) for _ in range(29)]
    alike = sum(p.family == first.family for p in later)
    # The same session without the miss, for comparison.
    steady = Plan(tables, CLASSIC, Stream("adapt"), 30, ("bank-or-roll",))
    baseline = sum(p.family == first.family for p in list(steady)[1:])
    assert alike > baseline


def test_review_positions_come_back_between_new_ones(tables: Tables) -> None:
    review = [Position(CLASSIC, "keep", 0, (1, 5, 2, 2, 3, 6)), Position(CLASSIC, "keep", 0, (1, 2, 2, 5))]
    adaptive = list(Plan(tables, CLASSIC, Stream("review"), 6, adaptive=True, review=review))
    assert adaptive[1] == review[0] and adaptive[3] == review[1]
    fixed = list(Plan(tables, CLASSIC, Stream("review"), 6, review=review))
    assert review[1] not in fixed  # a seeded session is the same for everyone


def test_mastered_kinds_come_up_less(tables: Tables) -> None:
    mastery = {"bank-or-roll": 1.0, "keep": 1.0, "opening": 1.0, "final-round": 0.0}
    drills = list(Plan(tables, CLASSIC, Stream("mastery"), 40, adaptive=True, mastery=mastery))
    # Weights 1, 1, 1 and 2: the final round, never mastered, gets two fifths, not a quarter.
    assert sum(p.kind == "final-round" for p in drills) > len(drills) // 4


@pytest.mark.parametrize("target", [1000, 5000, 10_000])
def test_a_final_round_puts_the_player_below_the_target_and_the_leader_at_it(
    tables: Tables, target: int
) -> None:
    from farkle_trainer.engine.kinds import Kind
    from farkle_trainer.engine.rules import PRESETS
    from farkle_trainer.engine.seeded import Stream
    from farkle_trainer.training.drills.kinds import KIND_SPECS

    rules = PRESETS["classic"].with_house_rules(target=target)
    spec = KIND_SPECS[Kind.FINAL_ROUND]
    needs = set()
    for seed in range(300):
        setting = spec.setting(tables, rules, Stream(seed))
        assert setting.leader is not None and setting.banked is not None
        assert 0 <= setting.banked < target <= setting.leader, (seed, setting)
        needs.add(setting.leader - setting.banked)
    assert min(needs) >= 300 and max(needs) <= 2000 and len(needs) > 20
