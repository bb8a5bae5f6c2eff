"""Game and solo drills: positions of real games graded by the chance of winning, or by turns.

Every value is checked against the game solver's tables read directly (or one step of the
Bellman equation worked out here over every roll), never against the drill's own numbers.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from farkle_trainer import load_rules
from farkle_trainer.cli import app
from farkle_trainer.engine.decisions import (
    DrillError,
    Kind,
    Position,
    decision_for,
    grade,
    play_words,
    points_choice,
    position_data,
    position_from_data,
)
from farkle_trainer.engine.dice import counts_of, multisets, roll_chance
from farkle_trainer.engine.farkles import Runs
from farkle_trainer.engine.gamehint import game_hint
from farkle_trainer.engine.grading import (
    POINT_GRADES,
    POINTS_PER_TURN,
    POINTS_PER_WIN_PERCENTAGE_POINT,
    TURN_GRADES,
    WIN_GRADES,
    Unit,
    grade_for,
    in_points,
)
from farkle_trainer.engine.kinds import TURN_KINDS
from farkle_trainer.engine.plays import hint
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.engine.situations import TurnPoints
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.db import Store
from farkle_trainer.training.classroom.codes import class_drills
from farkle_trainer.training.classroom.report import class_report
from farkle_trainer.training.classroom.worksheet import decide_sheet
from farkle_trainer.training.drills.drills import Plan, generate, summarize, worth_asking
from farkle_trainer.training.drills.kinds import DISAGREE_WEIGHT, spec_of
from farkle_trainer.training.drills.session import drill_stream, parse_kinds
from farkle_trainer.training.drills.words import question_line, situation_lines
from farkle_trainer.training.progress import export_answers
from farkle_trainer.ui.views import drills as view

runner = CliRunner()
CLASSIC = load_rules("classic")
SHORT = CLASSIC.with_house_rules(target=2000)
OPENING = CLASSIC.with_house_rules(target=1000, opening_minimum=350)

#: 800 set aside at 1,250 to 1,750 in a game to 2,000: points bank 950, winning rolls on.
DISAGREE = Position(CLASSIC, Kind.GAME, 800, (1, 5, 2, 3, 6), banked=1250, opponent=1750, target=2000)


def game_value(tables: Tables, a: int, b: int, t: int, n: int, action: str) -> float:
    """A play's chance of winning read from the table.

    Banking below the target hands the opponent the turn: 1 - W(b, a + t). Banking to the
    target gives the opponent one last turn to pass a + t: 1 - their chance of doing it.
    """
    table = tables.game(CLASSIC, 2000)
    if action == "bank":
        if a + t < 2000:
            return 1.0 - table.win_chance(b, a + t)
        return 1.0 - table.final_turn_chance(a + t - b)
    return table.roll_value(a, b, t, n)


# -- the values and the grading


def test_every_game_play_is_worth_the_tables_chance_and_loses_the_difference(tables: Tables) -> None:
    d = decision_for(tables, DISAGREE)
    table = score_table(CLASSIC)
    expected = {}
    for split in table.selections(counts_of(DISAGREE.roll)):
        t = DISAGREE.points + split.points
        left = len(DISAGREE.roll) - len(split.dice)
        for action in ("bank", "roll"):
            expected[(split.dice, action)] = game_value(tables, 1250, 1750, t, left or 6, action)
    assert {(c.keep, c.action): c.value.amount for c in d.choices} == pytest.approx(expected, abs=1e-15)
    best = max(expected.values())
    assert d.best.value.amount == best
    for c in d.choices:
        g = grade(d, c.keep, c.action)
        assert g.lost == pytest.approx(100 * (best - expected[(c.keep, c.action)]), abs=1e-12)
        assert g.grade == grade_for(g.lost, Unit.WIN)


def test_a_roll_on_is_worth_every_roll_of_the_dice(tables: Tables) -> None:
    """One Bellman step by hand: the chance of rolling on from the tables after each roll."""
    table = tables.game(CLASSIC, 2000)
    a, b, t, n = 1250, 1750, 900, 4
    scoring = score_table(CLASSIC)
    total = 0.0
    for roll in multisets(n):
        chance = float(roll_chance(roll))
        selections = scoring.selections(roll)
        if not selections:
            total += chance * (1.0 - table.win_chance(b, a))
            continue
        best = 0.0
        for s in selections:
            after = t + s.points
            left = (n - len(s.dice)) or 6
            best = max(
                best, game_value(tables, a, b, after, left, "bank"), table.roll_value(a, b, after, left)
            )
        total += chance * best
    d = decision_for(tables, DISAGREE)
    assert d.choice((1,), "roll").value.amount == pytest.approx(total, abs=1e-9)


def test_points_and_winning_disagree_and_the_grading_says_so(tables: Tables) -> None:
    d = decision_for(tables, DISAGREE)
    h = hint(tables, DISAGREE.roll, DISAGREE.points, CLASSIC)
    assert (h.plays[0].keep, h.plays[0].value.action) == ((1, 5), "bank")
    assert (d.best.keep, d.best.action) == ((1,), "roll")
    other = points_choice(d)
    assert other is not None and (other.keep, other.action) == ((1, 5), "bank")
    g = grade(d, (1, 5), "bank")
    # Banking 950 reaches 2,200: the opponent gets one last turn to pass a lead of 450.
    lost = 100 * (d.best.value.amount - (1.0 - tables.game(CLASSIC, 2000).final_turn_chance(450)))
    assert g.lost == pytest.approx(lost, abs=1e-12) and not g.right
    text = view.grading_text(g)
    assert (
        f"For points you would keep 1 5 and bank 950; to win, keep 1 and roll 4 dice "
        f"(playing for points gives up {lost:.2f} percentage points)."
    ) in text
    # Where they agree nothing is said.
    calm = Position(CLASSIC, Kind.GAME, 0, (1, 5, 2, 2, 3, 6), banked=0, opponent=0, target=2000)
    assert points_choice(decision_for(tables, calm)) is None
    assert "For points" not in view.grading_text(grade(decision_for(tables, calm), (1,), "roll"))


def test_solo_plays_are_worth_the_expected_turns_still_needed(tables: Tables) -> None:
    p = Position(CLASSIC, Kind.SOLO, 300, (1, 5, 2, 3), banked=1500, target=2000)
    solo = tables.solo(CLASSIC, 2000)
    d = decision_for(tables, p)
    # After banking 450 the score is 1,950: E(1,950) turns to go; rolling is the table's value.
    assert d.choice((1, 5), "bank").value.amount == solo.expected_turns(1950)
    assert d.choice((1,), "roll").value.amount == solo.roll_value(1500, 400, 3)
    assert d.best.value.amount == min(c.value.amount for c in d.choices)
    g = grade(d, (1, 5), "bank")
    assert g.lost == pytest.approx(solo.expected_turns(1950) - d.best.value.amount, abs=1e-15)
    assert g.grade == grade_for(g.lost, Unit.TURNS)
    assert g.points_lost == pytest.approx(g.lost * POINTS_PER_TURN)
    assert (d.best.keep, d.best.action) == ((1,), "roll")
    text = view.grading_text(g)
    assert "For points you would keep 1 5 and bank 450; for the fewest turns, keep 1 and roll 3 dice" in text
    assert f"{g.lost:.3f} turns lost" in text


def test_reaching_the_target_in_solo_ends_it(tables: Tables) -> None:
    # Hot dice at 1,500 + 1,150 banked: expected points roll all six again; the target banks now.
    p = Position(CLASSIC, Kind.SOLO, 0, (2, 2, 4, 4, 5, 5), banked=1150, target=2000)
    d = decision_for(tables, p)
    assert (d.best.action, d.best.value.amount) == ("bank", 0.0)
    assert points_choice(d) == d.choice((2, 2, 4, 4, 5, 5), "roll")


@pytest.mark.parametrize(
    ("lost", "expected"),
    [
        (0.0, "best"),
        (0.0049, "best"),
        (0.005, "fine"),
        (0.2499, "fine"),
        (0.25, "inaccuracy"),
        (0.999, "inaccuracy"),
        (1.0, "mistake"),
        (2.99, "mistake"),
        (3.0, "blunder"),
    ],
)
def test_win_grades_in_percentage_points(lost: float, expected: str) -> None:
    assert grade_for(lost, Unit.WIN) == expected


@pytest.mark.parametrize(
    ("lost", "expected"),
    [
        (0.0, "best"),
        (0.00049, "best"),
        (0.0005, "fine"),
        (0.0199, "fine"),
        (0.02, "inaccuracy"),
        (0.0799, "inaccuracy"),
        (0.08, "mistake"),
        (0.2399, "mistake"),
        (0.24, "blunder"),
    ],
)
def test_turn_grades(lost: float, expected: str) -> None:
    assert grade_for(lost, Unit.TURNS) == expected


def test_the_new_scales_share_their_ratio_with_points() -> None:
    assert [POINTS_PER_WIN_PERCENTAGE_POINT * c for c in WIN_GRADES[1:]] == list(POINT_GRADES[1:])
    assert [round(POINTS_PER_TURN * c, 9) for c in TURN_GRADES[1:]] == list(POINT_GRADES[1:])
    assert in_points(1.0, Unit.WIN) == POINTS_PER_WIN_PERCENTAGE_POINT


# -- positions


def test_game_and_solo_positions_round_trip_and_have_their_own_keys() -> None:
    solo = Position(CLASSIC, Kind.SOLO, 300, (1, 5, 2, 3), banked=1500, target=2000)
    for p in (DISAGREE, solo):
        data = json.loads(json.dumps(position_data(p)))
        assert position_from_data(data, CLASSIC) == p
    assert DISAGREE.item == "game:classic:800:12356:scores1250-1750-to2000"
    assert solo.item == "solo:classic:300:1235:score1500-to2000"
    assert DISAGREE.unit == Unit.WIN and solo.unit == Unit.TURNS


def test_a_last_turn_is_worth_passing_the_opponent_and_a_tie_shares_the_win(tables: Tables) -> None:
    """The opponent has reached 2,300 in a game to 2,000: banking is worth 1 past them, a half
    level with them and nothing short of them; rolling on is the table's last-turn chance."""
    table = tables.game(CLASSIC, 2000)
    for points, bank in ((500, 0.5), (550, 1.0), (450, 0.0)):
        p = Position(CLASSIC, Kind.GAME, points, (1, 2, 3, 4, 6), banked=1700, opponent=2300, target=2000)
        assert p.last_turn
        d = decision_for(tables, p)
        t = points + 100
        assert d.choice((1,), "bank").value.amount == bank
        roll = table.final_roll_value(2300 - 1700, t, 4)
        assert d.choice((1,), "roll").value.amount == roll
        assert d.best.value.amount == max(bank, roll)
        g = grade(d, (1,), "bank")
        assert g.lost == pytest.approx(100 * (max(bank, roll) - bank), abs=1e-12)
    tie = Position(CLASSIC, Kind.GAME, 500, (1, 2, 3, 4, 6), banked=1700, opponent=2300, target=2000)
    assert situation_lines(tie)[:2] == [
        "Your last turn in a game to 2,000: your opponent reached it with 2,300, and you have 1,700 banked.",
        "You need 650 this turn to win; 600 ties, and a tie shares the win.",
    ]
    assert tie.item == "game:classic:500:12346:scores1700-2300-to2000"
    assert position_from_data(json.loads(json.dumps(position_data(tie))), CLASSIC) == tie
    for opponent in (2325, 2000 + 20_050):
        with pytest.raises(DrillError, match="reached the target"):
            Position(CLASSIC, Kind.GAME, 500, (1, 2), banked=1700, opponent=opponent, target=2000)


PENALTY = CLASSIC.with_house_rules(three_farkle_penalty=1000)


def test_a_last_turns_play_for_points_counts_no_penalty_as_the_hint_does(tables: Tables) -> None:
    """Two Farkles in a row, 300 banked, the opponent on 2,000: in a last turn a Farkle just ends
    the game, so playing for points rolls on too. Counting the penalty it would bank 200."""
    rules = PENALTY.with_house_rules(target=2000)
    p = Position(rules, Kind.GAME, 0, (1, 1, 2), banked=300, opponent=2000, target=2000, runs=Runs(2))
    assert p.last_turn and p.points_situation.farkle_cost == 0
    d = decision_for(tables, p)
    assert d.best.action == "roll"
    assert points_choice(d) is None
    assert "For points" not in view.grading_text(grade(d, (1, 1), "bank"))
    h = game_hint(tables, (1, 1, 2), 0, rules, 300, 2000, target=2000, last_turn=True, runs=Runs(2))
    assert not h.objectives_differ


def test_a_keep_position_with_a_third_farkle_at_stake_counts_what_it_costs(tables: Tables) -> None:
    """Two Farkles in a row and 700 banked: a Farkle now costs the turn and 700 more."""
    p = Position(PENALTY, Kind.KEEP, 300, (1, 5, 2, 3), banked=700, runs=Runs(my_farkles=2))
    assert p.third_farkle and p.situation == TurnPoints(PENALTY, 300, farkle_cost=700)
    d = decision_for(tables, p)
    h = hint(tables, p.roll, 300, PENALTY, farkle_value=-700)
    expected = {}
    for play in h.plays:
        expected[(play.keep, "roll")] = play.value.roll
        expected[(play.keep, "bank")] = play.value.bank
    assert {(c.keep, c.action): c.value.amount for c in d.choices} == expected
    plain = decision_for(tables, Position(PENALTY, Kind.KEEP, 300, (1, 5, 2, 3)))
    assert plain.choice((1,), "roll").value.amount > d.choice((1,), "roll").value.amount
    assert situation_lines(p)[0] == (
        "You have 700 banked (2 Farkles in a row): a Farkle now costs 700 more "
        "(three in a row cost 1,000, never below 0)."
    )
    assert p.item == "keep:classic:300:1235:banked700:runs2-0-None-None"
    assert position_from_data(json.loads(json.dumps(position_data(p))), PENALTY) == p
    for bad in (
        {"rules": CLASSIC, "banked": 700, "runs": Runs(my_farkles=2)},  # no penalty
        {"rules": PENALTY, "banked": 700, "runs": Runs(my_farkles=1)},  # a Farkle costs nothing more
        {"rules": PENALTY, "banked": 0, "runs": Runs(my_farkles=2)},  # nothing to lose
        {"rules": PENALTY, "banked": 700},
        {"rules": PENALTY, "runs": Runs(my_farkles=2)},
    ):
        with pytest.raises(DrillError):
            Position(kind=Kind.KEEP, points=300, roll=(1, 5, 2, 3), **bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "bad",
    [
        {"kind": "game", "banked": 0, "opponent": 0},  # no target
        {"kind": "game", "banked": 0, "target": 2000},  # no opponent
        {"kind": "game", "banked": 2000, "opponent": 0, "target": 2000},  # at the target already
        {"kind": "game", "banked": 25, "opponent": 0, "target": 2000},
        {"kind": "game", "banked": 0, "opponent": 0, "target": 950},
        {"kind": "solo", "banked": 0, "opponent": 0, "target": 2000},
        {"kind": "keep", "banked": 0},
        {"kind": "keep", "target": 2000},
    ],
)
def test_impossible_game_positions_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(DrillError):
        Position(CLASSIC, points=0, roll=(1, 2), **bad)  # type: ignore[arg-type]


def test_who_has_opened_is_said_and_enforced(tables: Tables) -> None:
    p = Position(OPENING, Kind.GAME, 200, (1, 3, 4), banked=0, opponent=0, target=1000, opening=350)
    lines = situation_lines(p)
    assert lines[:3] == [
        "Game to 1,000 against one opponent: you have 0 banked, your opponent 0.",
        "You have not opened yet: you cannot bank a turn worth less than 350.",
        "Your opponent has not opened yet (opening minimum 350).",
    ]
    d = decision_for(tables, p)
    assert [c.action for c in d.choices] == ["roll"]  # 300 is short of the minimum
    table = tables.game(OPENING)
    assert d.best.value.amount == table.roll_value(0, 0, 300, 2)


def test_a_player_knocked_back_to_0_is_told_in_words_that_they_have_opened(tables: Tables) -> None:
    rules = OPENING.with_house_rules(three_farkle_penalty=500)
    runs = Runs(my_farkles=0, opponent_farkles=1, my_opened=True, opponent_opened=True)
    p = Position(rules, Kind.GAME, 200, (1, 3, 4), banked=0, opponent=0, target=1000, opening=350, runs=runs)
    assert situation_lines(p)[:4] == [
        "Game to 1,000 against one opponent: you have 0 banked, your opponent 0 (1 Farkle in a row).",
        "Three Farkles in a row cost 500 (never below 0).",
        "You have opened already (the penalty knocked you back to 0): the opening minimum of 350 no "
        "longer holds you.",
        "Your opponent has opened already (the penalty knocked them back to 0).",
    ]
    d = decision_for(tables, p)
    assert {c.action for c in d.choices} == {"bank", "roll"}  # 300 banks: the minimum holds no more
    table = tables.game(rules)
    # Banked, 300 against 0: the opponent's turn, their run of 1 and opened, this player's run over.
    assert d.choice((1,), "bank").value.amount == 1 - table.win_chance(0, 300, Runs(1, 0, True, None))
    solo = Position(
        rules, Kind.SOLO, 0, (1, 3, 4), banked=0, target=1000, opening=350, runs=Runs(my_opened=True)
    )
    assert "You have opened already (the penalty knocked you back to 0)" in question_line(solo)


# -- generation


def test_generated_game_positions_come_from_games_in_progress(tables: Tables) -> None:
    stream = Stream("games")
    drawn = [generate(tables, SHORT, Kind.GAME, stream) for _ in range(8)]
    assert len({(p.banked, p.opponent) for p in drawn}) > 4
    for p in drawn:
        assert p.target == 2000 and p.banked is not None and p.opponent is not None
        assert 0 <= p.banked < 2000 and 0 <= p.opponent < 2000
        assert worth_asking(decision_for(tables, p))
    solos = [generate(tables, SHORT, Kind.SOLO, stream) for _ in range(6)]
    assert all(p.kind == "solo" and p.banked is not None and p.banked < 2000 for p in solos)


def test_generation_leans_toward_points_and_winning_disagreeing(tables: Tables) -> None:
    spec = spec_of(Kind.GAME)
    assert spec.emphasis(decision_for(tables, DISAGREE)) == DISAGREE_WEIGHT
    calm = Position(CLASSIC, Kind.GAME, 0, (1, 5, 2, 2, 3, 6), banked=0, opponent=0, target=2000)
    assert spec.emphasis(decision_for(tables, calm)) == 1.0
    drawn = list(Plan(tables, SHORT, Stream("lean"), 12, (Kind.GAME,)))
    assert sum(points_choice(decision_for(tables, p)) is not None for p in drawn) >= 4


def test_game_kinds_are_asked_by_name_only(tables: Tables) -> None:
    assert parse_kinds(None) == TURN_KINDS
    assert parse_kinds(["game,solo"]) == (Kind.GAME, Kind.SOLO)
    assert Plan(tables, CLASSIC, drill_stream(1), 3).kinds == TURN_KINDS


def test_a_target_out_of_the_solvers_range_is_refused(tables: Tables) -> None:
    with pytest.raises(DrillError, match="--target"):
        generate(tables, CLASSIC.with_house_rules(target=500), Kind.GAME, Stream("x"))


# -- the command


def run(args: list[str], answers: str = "") -> tuple[int, str, str]:
    result = runner.invoke(app, ["decide", *args], input=answers)
    return result.exit_code, result.stdout, result.stderr


def best_answers(tables: Tables, drills: list[Position]) -> str:
    lines = []
    for p in drills:
        d = decision_for(tables, p)
        if len(d.keeps) > 1:
            lines.append(" ".join(map(str, d.best.keep)))
        if any(c.action == "bank" for c in d.choices_for(d.best.keep)):
            lines.append(d.best.action[0])
    return "".join(f"{line}\n" for line in lines)


@pytest.mark.parametrize(("kind", "unit"), [("game", "percentage points"), ("solo", "turns")])
def test_a_game_session_is_graded_recorded_and_asked_again(
    tables: Tables, farkle_home: Path, kind: str, unit: str
) -> None:
    drills = list(Plan(tables, SHORT, drill_stream(5), 3, (Kind(kind),)))
    args = ["--kind", kind, "--target", "2000", "--seed", "5", "--count", "3", "--plain"]
    code, out, err = run(args, best_answers(tables, drills))
    assert code == 0, err
    assert out.count("Best: that is the best play.") == 3
    assert f"Decision 1 of 3: {kind} (classic rules)" in out
    assert situation_lines(drills[0])[0] in out
    path = farkle_home / "answers.json"
    with Store.open(farkle_home) as store:
        export_answers(store, path)
    rows = json.loads(path.read_text())
    assert [r["topic"] for r in rows] == [kind] * 3
    assert {r["unit"] for r in rows} == {unit}


def test_a_session_position_is_stored_and_revived(tables: Tables, farkle_home: Path) -> None:
    drills = list(Plan(tables, SHORT, drill_stream(6), 2, (Kind.GAME,)))
    code, _, err = run(
        ["--kind", "game", "--target", "2000", "--seed", "6", "--count", "2", "--plain"],
        best_answers(tables, drills),
    )
    assert code == 0, err
    with sqlite3.connect(farkle_home / "farkle.sqlite3") as db:
        extras = [json.loads(row[0]) for row in db.execute("SELECT extra FROM answers ORDER BY id")]
    revived = [position_from_data(extra["position"], CLASSIC) for extra in extras]
    assert sorted(p.item for p in revived if p is not None) == sorted(p.item for p in drills)


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("950", "--target must be a multiple of 50 from 1,000 to 20,000"),
        ("1025", "multiple of 50"),
        ("25000", "1,000 to 20,000"),
    ],
)
def test_a_bad_target_is_one_line(target: str, message: str) -> None:
    code, out, err = run(["--kind", "game", "--target", target, "--plain"])
    assert code == 2 and out == "" and err.startswith("Error: ") and message in err


def test_the_summary_averages_each_unit_apart(tables: Tables) -> None:
    solo = Position(CLASSIC, Kind.SOLO, 300, (1, 5, 2, 3), banked=1500, target=2000)
    gradings = [
        grade(decision_for(tables, DISAGREE), (1, 5), "bank"),
        grade(decision_for(tables, solo), (1, 5), "bank"),
    ]
    s = summarize(tables, gradings)
    assert s.win_decisions == 1 and s.average_win_lost == gradings[0].lost
    assert s.turn_decisions == 1 and s.average_turns_lost == gradings[1].lost
    assert s.average_loss == pytest.approx((gradings[0].points_lost + gradings[1].points_lost) / 2)
    text = view.summary_text(s, planned=2)
    win = f"{gradings[0].lost:.2f} percentage points of the chance to win."
    assert f"Average loss over 1 game decision: {win}" in text
    assert f"Average loss over 1 solo decision: {gradings[1].lost:.3f} turns." in text
    assert "a percentage point to win counts as 20 points; a turn counts as 250 points" in text


# -- the classroom


def test_a_class_code_gives_game_drills_that_verify(tables: Tables, tmp_path: Path) -> None:
    drills = list(class_drills(tables, "MATH7B", SHORT, count=2, kinds=(Kind.GAME,), level=None))
    path = tmp_path / "ben.json"
    args = ["--code", "MATH7B", "--kind", "game", "--target", "2000", "--count", "2", "--plain"]
    code, _, err = run([*args, "--name", "Ben", "--save-result", str(path)], best_answers(tables, drills))
    assert code == 0, err
    doc = json.loads(path.read_text())
    assert doc["settings"]["target"] == 2000
    assert [a["topic"] for a in doc["answers"]] == ["game", "game"]
    report = class_report(tables, [tmp_path])
    assert report.problems == () and report.counted == 1
    assert report.unchecked == ()


def test_a_worksheet_of_game_drills_gives_the_same_positions_and_command(tables: Tables) -> None:
    sheet = decide_sheet(tables, "MATH7B", SHORT, count=2, kinds=(Kind.GAME,), target_option=True)
    assert list(sheet.items) == list(
        class_drills(tables, "MATH7B", SHORT, count=2, kinds=(Kind.GAME,), level=None)
    )
    assert sheet.command == "farkle-train decide --code MATH7B --count 2 --kind game --target 2000"
    assert sheet.description == "2 bank-or-roll decisions in games to 2,000 on classic rules"
    first = sheet.entries[0]
    d = decision_for(tables, sheet.items[0])  # type: ignore[arg-type]
    assert first.answer == play_words(d.position, d.best)


def test_a_missed_game_position_comes_back_at_its_own_target_only(tables: Tables, farkle_home: Path) -> None:
    from farkle_trainer.training.drills.session import make_plan

    (missed,) = list(Plan(tables, SHORT, drill_stream(8), 1, (Kind.GAME,)))
    d = decision_for(tables, missed)
    worst = d.choices[-1]
    typed = [" ".join(map(str, worst.keep))] if len(d.keeps) > 1 else []
    if any(c.action == "bank" for c in d.choices_for(worst.keep)):
        typed.append(worst.action[0])
    args = ["--kind", "game", "--target", "2000", "--seed", "8", "--count", "1", "--plain"]
    assert run(args, "".join(f"{x}\n" for x in typed))[0] == 0
    with Store.open(farkle_home) as store:
        again = make_plan(tables, store, SHORT, (Kind.GAME,), None, 3, seed=1, adaptive=True)
        other_target = make_plan(tables, store, CLASSIC, (Kind.GAME,), None, 3, seed=1, adaptive=True)
        other_kind = make_plan(tables, store, SHORT, (Kind.KEEP,), None, 3, seed=1, adaptive=True)
    assert list(again.review) == [missed]
    assert list(other_target.review) == [] and list(other_kind.review) == []


@pytest.mark.own_table_cache
def test_a_first_solve_is_announced_once(tables: Tables) -> None:
    from farkle_trainer.engine.gameplan import to_solve
    from farkle_trainer.training.drills.session import prepare
    from farkle_trainer.training.solving import for_kinds

    rules = CLASSIC.with_house_rules(target=1050)  # a target no other test solves
    needs = for_kinds(tables, rules, (Kind.KEEP, Kind.GAME, Kind.SOLO))
    assert [t.kind for t in to_solve(needs)] == ["game", "solo"]
    prepare(tables, rules, (Kind.KEEP, Kind.GAME, Kind.SOLO))
    assert to_solve(for_kinds(tables, rules, (Kind.GAME,))) == ()
    assert for_kinds(tables, CLASSIC, (Kind.KEEP,)) == ()  # nothing to solve for a turn's drills


@pytest.mark.parametrize(
    ("args", "note"),
    [
        (
            ["--kind", "keep", "--target", "2000"],
            "Not used: --target (only game and solo drills play to a target).",
        ),
        (["--kind", "game", "--target", "2000", "--strategy"], "Not used: --strategy (in a game the bank"),
    ],
)
def test_an_option_that_changes_nothing_is_said_to(args: list[str], note: str) -> None:
    result = runner.invoke(app, ["decide", *args, "--count", "1", "--plain"], input="q\n")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(note)
    plain = runner.invoke(
        app, ["decide", "--kind", "game", "--target", "2000", "--count", "1", "--plain"], input="q\n"
    )
    assert "Not used" not in plain.stdout
