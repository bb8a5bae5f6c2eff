"""The class report as plain data, and as text and CSV for the teacher."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from factories import coded_quiz, result

from farkle_trainer.engine.tables import Tables
from farkle_trainer.training.classroom.report import build_report, class_report
from farkle_trainer.training.classroom.results import write_result
from farkle_trainer.ui.views.classroom import questions_csv, report_text, students_csv


def test_the_report_per_student_and_per_question(tables: Tables) -> None:
    results = [
        ("ana.json", result("Ana", [("q1", "right"), ("q2", "right"), ("q3", "7")])),
        ("ben.json", result("Ben", [("q1", "right"), ("q2", "5"), ("q3", "7")])),
        ("cleo.json", result("Cleo", [("q1", "4"), ("q2", "5"), ("q3", "8")])),
    ]
    report = build_report(tables, results)
    assert report.code == "MATH7B" and report.counted == 3 and report.problems == ()
    (section,) = report.sections
    assert [(s.name, s.right, s.answered, s.accuracy) for s in section.students] == [
        ("Ana", 2, 3, pytest.approx(2 / 3)),
        ("Ben", 1, 3, pytest.approx(1 / 3)),
        ("Cleo", 0, 3, 0.0),
    ]
    assert [
        (q.number, q.right, q.asked, q.common_wrong, q.common_wrong_count) for q in section.questions
    ] == [
        (1, 2, 3, "4", 1),
        (2, 1, 3, "5", 2),
        (3, 0, 3, "7", 2),
    ]


def test_the_report_leaves_out_other_codes_and_second_attempts(tables: Tables) -> None:
    first = result("Ana", [("q1", "right")], started="2026-11-29T12:00:00Z")
    again = result(" ana ", [("q1", "4")], started="2026-11-29T12:30:00Z")
    results = [
        ("b/ana-again.json", again),
        ("a/ana.json", first),
        ("c/ana-copy.json", first),
        ("dan.json", result("Dan", [("q1", "right")], code="OTHER1")),
        ("ben-challenge.json", result("Ben", [("q9", "right")], activity="challenge")),
    ]
    report = build_report(tables, results)
    assert report.code == "MATH7B"
    assert [(p.path, p.kind) for p in report.problems] == [
        ("b/ana-again.json", "duplicate"),
        ("c/ana-copy.json", "duplicate"),
        ("dan.json", "other-code"),
    ]
    assert (
        "Ana already has a scoring quiz result in a/ana.json (the one started first"
        in report.problems[0].line
    )
    assert report.problems[1].message == "a copy of a/ana.json, which is counted"
    assert "a result for class code OTHER1, not MATH7B" in report.problems[2].message
    assert [(s.activity, [st.name for st in s.students]) for s in report.sections] == [
        ("score", ["Ana"]),
        ("challenge", ["Ben"]),
    ]
    # The report's code can be chosen: then MATH7B's results are the other ones.
    assert build_report(tables, results, code="other1").sections[0].students[0].name == "Dan"


def test_the_report_over_files_and_folders(tables: Tables, tmp_path: Path) -> None:
    folder = tmp_path / "results"
    (folder / "period2").mkdir(parents=True)
    write_result(folder / "ana.json", coded_quiz("Ana", [True]))
    write_result(folder / "period2" / "ben.json", coded_quiz("Ben", [False]))
    (folder / "notes.txt").write_text("not read: not .json")
    (folder / "broken.json").write_text("{")
    report = class_report(tables, [folder, folder / "ana.json", tmp_path / "missing.json"])
    assert report.counted == 2
    assert [(Path(p.path).name, p.kind) for p in report.problems] == [
        ("missing.json", "unreadable"),
        ("broken.json", "not-json"),
    ]
    text = report_text(report)
    assert text.splitlines()[0] == "Class MATH7B: 2 results counted; 2 files left out:"
    assert "  Ana      1 of 1      100%" in text.splitlines()


def test_csv_for_a_spreadsheet(tables: Tables) -> None:
    results = [
        ("ana.json", result("=cmd()", [("q1", "right"), ("q2", "5")])),
        ("ben.json", result("Ben", [("q1", "right")], planned=2)),
    ]
    report = build_report(tables, results)
    out = io.StringIO()
    assert students_csv(report, out) == 2
    lines = out.getvalue().splitlines()
    assert lines[0] == (
        "code,activity,rules,name,score,right,answered,planned,accuracy_percent,points_lost,"
        "chance_lost_percentage_points,complete,perfect_play_expected,solver_game_score,checked,file"
    )
    assert lines[1] == "MATH7B,score,classic,'=cmd(),1,1,2,2,50.0,,,yes,,,yes,ana.json"
    assert lines[2] == "MATH7B,score,classic,Ben,1,1,1,2,100.0,,,no,,,yes,ben.json"
    out = io.StringIO()
    assert questions_csv(report, out) == 2
    assert out.getvalue().splitlines()[2] == "MATH7B,score,classic,2,Question q2?,q2,right,1,0,5,1"


def test_a_challenge_section_names_each_figure_of_perfect_play(tables: Tables) -> None:
    from dataclasses import replace

    from farkle_trainer.engine.rules import PRESETS
    from farkle_trainer.engine.solver import Objective
    from farkle_trainer.training.games.setup import for_challenge
    from farkle_trainer.training.games.tenturns import perfect_game
    from farkle_trainer.ui.views.classroom import perfect_play_lines, section_heading

    expected = 10 * tables.turn(PRESETS["classic"], Objective.expected()).roll_value(0, 6)
    solver_game = perfect_game(tables, for_challenge("MATH7B").source())
    assert solver_game.over and solver_game.banked > 0
    claimed = replace(result("Ben", [("q9", "right")], activity="challenge"), solver_game_score=99_999)
    (section,) = build_report(tables, [("ben.json", claimed)]).sections
    assert section_heading(section) == "Class challenge (classic rules): 1 student."
    # The solver's own game is played again on the code's dice: a file's figure is never taken.
    assert perfect_play_lines(section) == [
        f"Perfect play is expected to score {expected:,.2f} over 10 turns (an average over all dice).",
        f"The solver's own game on the class's dice scored {solver_game.banked:,}: one game, not a ceiling.",
    ]


def test_totals_are_exact_sums_rounded_once(tables: Tables, tmp_path: Path) -> None:
    from dataclasses import replace

    from factories import answer

    from farkle_trainer.training.classroom.results import read_result
    from farkle_trainer.ui.views.classroom import result_line

    losses = [0.3351, 0.3351, 0.3351, 2916.7009 - 3 * 0.3351]
    made = tuple(answer(i, f"q{i}", "4", "right", lost) for i, lost in enumerate(losses, 1))
    r = replace(result("Ana", [], activity="challenge"), answers=made, planned=len(made), score=4150)
    path = tmp_path / "ana.json"
    write_result(path, r)
    back = read_result(path)
    exact = sum(losses)
    assert f"{exact:.2f}" == "2916.70"
    # Rounded one by one the same losses would add up to 2,916.72.
    assert f"{sum(round(x, 2) for x in losses):.2f}" == "2916.72"
    assert back.points_lost == pytest.approx(2916.70)
    assert "2,916.70 expected points given up" in result_line(back, saved_to=None)
    (section,) = build_report(tables, [("ana.json", back)]).sections
    assert section.students[0].points_lost == pytest.approx(2916.70)
    assert "2,916.70" in report_text(build_report(tables, [("ana.json", back)]))


def test_a_result_nothing_could_check_is_listed_apart_and_in_no_count(tables: Tables) -> None:
    results = [
        ("ana.json", result("Ana", [("q1", "right"), ("q2", "right")])),
        ("eve.json", result("Eve", [("q1", "right"), ("q2", "right")])),
    ]
    report = build_report(tables, results, unverified={"eve.json": "not verifiable (older format)"})
    assert report.counted == 1
    (section,) = report.sections
    assert [s.name for s in section.students] == ["Ana"]
    assert [(q.asked, q.right, q.common_wrong) for q in section.questions] == [(1, 1, None), (1, 1, None)]
    (eve,) = report.unchecked
    assert (eve.name, eve.path, eve.reason) == ("Eve", "eve.json", "not verifiable (older format)")
    out = io.StringIO()
    assert students_csv(report, out) == 2
    assert out.getvalue().splitlines()[2] == (
        "MATH7B,score,classic,Eve,,,,,,,,,,,not verifiable (older format),eve.json"
    )
    text = report_text(report).splitlines()
    assert text[0] == "Class MATH7B: 1 result counted; 1 result not checked."
    assert "  eve.json: Eve, scoring quiz (classic rules): not verifiable (older format)" in text
    assert "Scoring quiz (classic rules): 1 student." in text
