"""A class at work: students answer ``score``/``decide`` with a code, the teacher runs ``class report``."""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import farkle_trainer.training.classroom.entry as class_entry_module
from farkle_trainer import load_rules
from farkle_trainer.cli import app
from farkle_trainer.engine.decisions import decision_for
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.paths import store_path
from farkle_trainer.training.classroom.codes import CODE_ALPHABET
from farkle_trainer.training.classroom.report import class_report
from farkle_trainer.training.classroom.results import checksum, read_result
from farkle_trainer.training.classroom.worksheet import decide_sheet, score_sheet
from farkle_trainer.ui.views.classroom import report_rich

runner = CliRunner()
CLASSIC = load_rules("classic")
NOON = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
#: The right answers to MATH7B's first three scoring questions, as typed.
RIGHT = [e.answer for e in score_sheet("MATH7B", CLASSIC, count=3).entries]


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch) -> list[datetime]:
    now = [NOON]
    monkeypatch.setattr(class_entry_module, "clock", lambda: now[0])
    return now


def invoke(args: list[str], stdin: str = "") -> tuple[int, str, str]:
    result = runner.invoke(app, args, input=stdin)
    return result.exit_code, result.stdout, result.stderr


def take_quiz(
    folder: Path, name: str, typed: list[str], code: str = "MATH7B", file: str | None = None
) -> str:
    path = folder / (file or f"{name.lower()}.json")
    args = ["score", "--code", code, "--count", "3", "--plain", "--name", name, "--save-result", str(path)]
    exit_code, out, err = invoke(args, "".join(t + "\n" for t in typed))
    assert exit_code == 0, out + err
    return out


def test_two_students_get_the_same_quiz(tmp_path: Path) -> None:
    ana = take_quiz(tmp_path, "Ana", RIGHT)
    ben = take_quiz(tmp_path, "Ben", RIGHT)
    assert ana.replace("Ana", "Ben").replace("ana.json", "ben.json") == ben
    assert (
        ana.splitlines()[0] == "Scoring quiz: 3 questions on classic rules (class code MATH7B, medium level)."
    )
    assert ana.splitlines()[-1] == (
        "Result for class MATH7B: Ana, scoring quiz, 3 of 3 right. "
        f"Saved to {tmp_path / 'ana.json'} for your teacher."
    )
    a, b = read_result(tmp_path / "ana.json"), read_result(tmp_path / "ben.json")
    assert a.answers == b.answers and a.score == 3 and a.complete
    assert [x.question for x in a.answers] == [q.text for q in score_sheet("MATH7B", CLASSIC, count=3).items]


def test_a_code_is_kept_with_the_session_and_never_adapts(farkle_home: Path) -> None:
    invoke(["score", "--count", "2", "--plain"], "0\n0\n")  # some history to adapt to
    _, first, _ = invoke(["score", "--code", "MATH7B", "--count", "3", "--plain"], "")
    _, again, _ = invoke(["score", "--code", "MATH7B", "--count", "3", "--plain"], "")
    assert first == again and "matched to your progress" not in first
    assert "To hand it in as a file, add --save-result FILE.json." not in first  # nothing answered
    db = sqlite3.connect(store_path(farkle_home))
    try:
        rows = db.execute("SELECT kind, seed, code, params FROM sessions ORDER BY id").fetchall()
    finally:
        db.close()
    assert [(r[0], r[2]) for r in rows] == [("score", None), ("score", "MATH7B"), ("score", "MATH7B")]
    assert rows[1][1] is None and json.loads(rows[1][3])["adaptive"] is False


def test_two_students_get_the_same_drills(tables: Tables, tmp_path: Path) -> None:
    sheet = decide_sheet(tables, "MATH7B", CLASSIC, count=3)
    typed = []
    for p in sheet.items:
        best = decision_for(tables, p).best  # type: ignore[arg-type]
        if p.kept is None and len(decision_for(tables, p).keeps) > 1:  # type: ignore[arg-type, union-attr]
            typed.append(" ".join(map(str, best.keep)))
        if len(decision_for(tables, p).choices_for(best.keep)) > 1:  # type: ignore[arg-type]
            typed.append(best.action[0])
    outs = []
    for name in ("Ana", "Ben"):
        args = ["decide", "--code", "math7b", "--count", "3", "--plain", "--name", name]
        exit_code, out, _ = invoke(
            [*args, "--save-result", str(tmp_path / f"{name}.json")], "\n".join(typed) + "\n"
        )
        assert exit_code == 0
        outs.append(out)
    assert outs[0].replace("Ana", "Ben") == outs[1]
    assert outs[0].splitlines()[0] == "Bank-or-roll drills: 3 decisions on classic rules (class code MATH7B)."
    assert "Session: 3 decisions: 3 best" in outs[0]
    r = read_result(tmp_path / "Ana.json")
    assert r.activity == "decide" and r.score == 3 and r.points_lost == 0.0
    # The first decision is a final round: its loss is a chance, never added to points.
    assert r.answers[0].unit == "percentage points" and r.chance_lost == 0.0
    exit_code, report, _ = invoke(["class", "report", str(tmp_path), "--plain"], "")
    assert exit_code == 0
    # A decision counts when it is the best play or a fine one, and the report says so.
    assert "      Best or fine: 2 of 2." in report.splitlines()
    # Each question is a sentence of its own: one that ends with the roll does not run into its answer.
    asked = [line.split(". ", 1)[1] for line in report.splitlines() if re.match(r" +\d+\. ", line)]
    assert len(asked) == 3 and all(line.rsplit(" Best: ", 1)[0].endswith(".") for line in asked)
    ends_with_the_roll = [a for a in r.answers if a.question[-1].isdigit()]
    assert ends_with_the_roll and all(f"{a.question}. Best: " in report for a in ends_with_the_roll)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["score", "--code", "MATH7B", "--seed", "3"], "--code and --seed both choose the questions"),
        (["decide", "--code", "MATH7B", "--seed", "3"], "--code and --seed both choose the questions"),
        (
            ["score", "--save-result", "a.json", "--name", "Ana"],
            "--save-result, --name and --force go with --code",
        ),
        (["decide", "--name", "Ana"], "--save-result, --name and --force go with --code"),
        (["score", "--code", "MATH7B", "--save-result", "a.json"], "--save-result needs --name NAME"),
        (["score", "--code", "x"], "--code: a class code has 3 to 12 letters and digits, not 1"),
        (["decide", "--code", "MATH7B", "--save-result", "/nonexistent/a.json", "--name", "A"], "no folder"),
    ],
)
def test_class_options_are_checked_before_any_question(args: list[str], message: str) -> None:
    exit_code, out, err = invoke([*args, "--plain"])
    assert exit_code == 2 and out == ""
    assert err.startswith("Error: ") and message in err and err.count("\n") == 1


def test_a_result_that_cannot_be_written_is_reported_at_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import farkle_trainer.training.classroom.results as results

    def refuse(path: Path, result: object, *, held: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(results, "replace_result", refuse)
    args = ["score", "--code", "MATH7B", "--count", "3", "--plain", "--name", "Ana"]
    exit_code, out, err = invoke([*args, "--save-result", str(tmp_path / "a.json")], "\n".join(RIGHT) + "\n")
    assert exit_code == 2
    assert "Score: 3 of 3 right." in out and "Saved to" not in out and "add --save-result" not in out
    assert err == f"Error: could not save the result to {tmp_path / 'a.json'}: Permission denied\n"


# -- the report


@pytest.fixture
def folder(tmp_path: Path, clock: list[datetime]) -> Path:
    """A teacher's folder after a lesson: four results that count, and a file for each problem."""
    results = tmp_path / "results"
    results.mkdir()
    take_quiz(results, "Ana", RIGHT)
    take_quiz(results, "Ben", [RIGHT[0], "yes", "1,100"])
    take_quiz(results, "Cleo", [RIGHT[0], "yes", RIGHT[2]])
    take_quiz(results, "Dan", [RIGHT[0], RIGHT[1]], file="dan.json")  # stopped after two answers
    take_quiz(results, "Eve", RIGHT, code="OTHER1")
    clock[0] = NOON + timedelta(minutes=30)
    take_quiz(results, "ana", [*RIGHT[:1], "no", "1000"], file="ana-again.json")
    tampered = json.loads((results / "ben.json").read_text())
    tampered["answers"][2].update(answer="1,000", correct=True)
    tampered["right"] = tampered["score"] = 2
    (results / "ben-fixed.json").write_text(json.dumps(tampered, indent=2))
    (results / "notes.json").write_text("Remember: quiz on Friday\n")
    (results / "settings.json").write_text('{"theme": "dark"}\n')
    (results / "ignored.txt").write_text("not a .json file, so a folder's reading skips it\n")
    return results


def test_the_report_over_a_folder(folder: Path) -> None:
    exit_code, out, err = invoke(["class", "report", str(folder), "--plain"])
    assert exit_code == 0 and err == ""
    q1, q2, q3 = score_sheet("MATH7B", CLASSIC, count=3).entries
    assert out.splitlines() == [
        "Class MATH7B: 4 results counted; 5 files left out:",
        f"  {folder / 'ana-again.json'}: Ana already has a scoring quiz result in {folder / 'ana.json'} "
        "(the one started first by its own clock is counted: check with the student)",
        f"  {folder / 'ben-fixed.json'}: edited by hand or damaged: its checksum does not match its contents",
        f"  {folder / 'eve.json'}: a result for class code OTHER1, not MATH7B: left out",
        f"  {folder / 'notes.json'}: not JSON (line 1): not a result file",
        f"  {folder / 'settings.json'}: not a farkle-trainer result file",
        "",
        "Scoring quiz (classic rules): 4 students.",
        "  student   score  accuracy",
        "  Ana      3 of 3      100%",
        "  Ben      1 of 3       33%",
        "  Cleo     2 of 3       67%",
        "  Dan      2 of 3      100%  stopped after 2",
        "",
        "Questions:",
        f"   1. {q1.lines[0]} Answer: {q1.answer}.",
        "      Right: 4 of 4.",
        f"   2. {q2.lines[0]} Answer: {q2.answer}.",
        "      Right: 2 of 4. Most common wrong answer: yes (2 students).",
        f"   3. {q3.lines[0]} Answer: {q3.answer}.",
        "      Right: 2 of 3. Most common wrong answer: 1,100 (1 student).",
    ]


def test_csv_files_for_the_gradebook(folder: Path, tmp_path: Path) -> None:
    students, questions = tmp_path / "students.csv", tmp_path / "questions.csv"
    args = [
        "class",
        "report",
        str(folder),
        "--plain",
        "--csv",
        str(students),
        "--questions-csv",
        str(questions),
    ]
    exit_code, out, _ = invoke(args)
    assert exit_code == 0
    assert out.splitlines()[-2:] == [f"Wrote 4 rows to {students}.", f"Wrote 3 rows to {questions}."]
    rows = list(csv.DictReader(students.open()))
    assert [(r["name"], r["score"], r["accuracy_percent"], r["complete"]) for r in rows] == [
        ("Ana", "3", "100.0", "yes"),
        ("Ben", "1", "33.3", "yes"),
        ("Cleo", "2", "66.7", "yes"),
        ("Dan", "2", "100.0", "no"),
    ]
    assert {r["code"] for r in rows} == {"MATH7B"} and rows[0]["file"] == str(folder / "ana.json")
    qrows = list(csv.DictReader(questions.open()))
    assert [(r["number"], r["right"], r["asked"], r["common_wrong_answer"]) for r in qrows] == [
        ("1", "4", "4", ""),
        ("2", "2", "4", "yes"),
        ("3", "2", "3", "1,100"),
    ]


def test_the_report_for_another_code_and_single_files(folder: Path) -> None:
    exit_code, out, _ = invoke(["class", "report", str(folder), "--code", "other 1", "--plain"])
    assert exit_code == 0
    assert out.splitlines()[0] == "Class OTHER1: 1 result counted; 8 files left out:"
    assert "\n  Eve " in out and "Ana" not in out.split("Scoring quiz")[1]
    exit_code, out, _ = invoke(
        ["class", "report", str(folder / "ana.json"), str(folder / "ben.json"), "--plain"]
    )
    assert out.splitlines()[:2] == ["Class MATH7B: 2 results counted.", ""]


def test_a_tampered_file_is_flagged_even_with_a_new_checksum(tables: Tables, folder: Path) -> None:
    doc = json.loads((folder / "ben-fixed.json").read_text())
    doc["checksum"] = checksum(doc)  # someone who read the source; the totals still tell
    doc["right"] = 3
    doc["checksum"] = checksum(doc)
    (folder / "ben-fixed.json").write_text(json.dumps(doc))
    report = class_report(tables, [folder])
    (problem,) = [p for p in report.problems if p.path.endswith("ben-fixed.json")]
    assert problem.kind == "tampered"


def test_nothing_to_report_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    exit_code, out, err = invoke(["class", "report", str(tmp_path / "empty")])
    assert exit_code == 2 and out == ""
    assert err == f"Error: no result to report: {tmp_path / 'empty'}: a folder with no .json files\n"
    exit_code, _, err = invoke(["class", "report", str(tmp_path / "missing.json")])
    assert exit_code == 2 and "missing.json: no such file or folder" in err


def test_the_report_on_a_terminal(tables: Tables, folder: Path) -> None:
    console = Console(width=140, record=True, file=io.StringIO(), color_system=None)
    console.print(report_rich(class_report(tables, [folder])))
    lines = [line.rstrip() for line in console.export_text().splitlines()]
    assert lines[0] == "Class MATH7B: 4 results counted; 5 files left out:"
    start = lines.index("Scoring quiz (classic rules): 4 students.")
    assert lines[start + 1 : start + 9] == [
        "┏━━━━━━━━━┳━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┓",
        "┃ student ┃  score ┃ accuracy ┃                 ┃",
        "┡━━━━━━━━━╇━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━━━━━━━━┩",
        "│ Ana     │ 3 of 3 │     100% │                 │",
        "│ Ben     │ 1 of 3 │      33% │                 │",
        "│ Cleo    │ 2 of 3 │      67% │                 │",
        "│ Dan     │ 2 of 3 │     100% │ stopped after 2 │",
        "└─────────┴────────┴──────────┴─────────────────┘",
    ]
    assert any(
        line.startswith("│ 2 │ ") and line.endswith("│ 2 of 4 │ yes (2 students)         │") for line in lines
    )


def test_a_fresh_class_code() -> None:
    exit_code, out, err = invoke(["class", "code"])
    assert exit_code == 0
    code = out.strip()
    assert len(code) == 6 and set(code) <= set(CODE_ALPHABET)
    assert f"  farkle-train score --code {code} --save-result NAME.json" in err.splitlines()


def test_the_report_as_json(folder: Path) -> None:
    exit_code, out, err = invoke(["class", "report", str(folder), "--json"])
    assert exit_code == 0 and err == ""
    data = json.loads(out)
    # What each student typed, graded by hand against the key.
    typed = {"Ana": RIGHT, "Ben": [RIGHT[0], "yes", "1,100"], "Cleo": [RIGHT[0], "yes", RIGHT[2]]}
    typed["Dan"] = RIGHT[:2]
    (section,) = data["sections"]
    assert (data["code"], data["counted"], section["activity"], section["rules"]) == (
        "MATH7B",
        4,
        "score",
        "classic",
    )
    students = {s["name"]: s for s in section["students"]}
    assert list(students) == ["Ana", "Ben", "Cleo", "Dan"]
    for name, answers in typed.items():
        right = sum(given == key for given, key in zip(answers, RIGHT, strict=False))
        s = students[name]
        assert (s["right"], s["score"], s["answered"], s["planned"]) == (right, right, len(answers), 3)
        assert s["accuracy"] == pytest.approx(right / len(answers))
        assert s["complete"] == (len(answers) == 3) and s["file"].endswith(".json")
        assert s["points_lost"] is None and s["chance_lost"] is None
    assert section["perfect_play_expected"] is None and section["solver_game_score"] is None
    asked = [sum(len(a) > i for a in typed.values()) for i in range(3)]
    right = [sum(len(a) > i and a[i] == RIGHT[i] for a in typed.values()) for i in range(3)]
    assert [(q["number"], q["asked"], q["right"]) for q in section["questions"]] == [
        (1, asked[0], right[0]),
        (2, asked[1], right[1]),
        (3, asked[2], right[2]),
    ]
    assert [q["correct_answer"] for q in section["questions"]] == RIGHT
    assert (
        section["questions"][1]["common_wrong_answer"] == "yes"
        and section["questions"][1]["common_wrong_count"] == 2
    )
    assert [(Path(p["file"]).name, p["kind"]) for p in data["left_out"]] == [
        ("ana-again.json", "duplicate"),
        ("ben-fixed.json", "tampered"),
        ("eve.json", "other-code"),
        ("notes.json", "not-json"),
        ("settings.json", "not-result"),
    ]
    assert data["not_checked"] == []


def test_json_beside_a_csv_keeps_standard_output_to_the_json(folder: Path, tmp_path: Path) -> None:
    target = tmp_path / "students.csv"
    exit_code, out, err = invoke(["class", "report", str(folder), "--json", "--csv", str(target)])
    assert exit_code == 0
    assert json.loads(out)["counted"] == 4
    assert err == f"Wrote 4 rows to {target}.\n"


def test_a_challenge_names_perfect_play_the_same_in_report_csv_and_json(
    tables: Tables, tmp_path: Path
) -> None:
    from test_challenge_cli import greedy, perfect, script

    from farkle_trainer.engine.rules import PRESETS
    from farkle_trainer.engine.solver import Objective

    folder = tmp_path / "results"
    folder.mkdir()
    lines, game = script(tables, "MATH7B", greedy)
    args = ["challenge", "MATH7B", "--plain", "--name", "Cleo", "--save-result", str(folder / "cleo.json")]
    assert invoke(args, "".join(x + "\n" for x in lines))[0] == 0
    # The two figures, each worked out on its own: an expectation, and one game on these dice.
    expected = 10 * tables.turn(PRESETS["classic"], Objective.expected()).roll_value(0, 6)
    _, solver_game = script(tables, "MATH7B", perfect)
    said = [
        f"Perfect play is expected to score {expected:,.2f} over 10 turns (an average over all dice).",
        f"The solver's own game on the class's dice scored {solver_game.banked:,}: one game, not a ceiling.",
    ]
    target = tmp_path / "class.csv"
    exit_code, out, _ = invoke(["class", "report", str(folder), "--plain", "--csv", str(target)])
    assert exit_code == 0
    assert out.splitlines()[2:5] == ["Class challenge (classic rules): 1 student.", *said]
    assert f"  Cleo     {game.banked:,}" in out
    console = Console(width=200, record=True, file=io.StringIO(), color_system=None)
    console.print(report_rich(class_report(tables, [folder])))
    shown = [line.rstrip() for line in console.export_text().splitlines()]
    assert all(line in shown for line in said)
    (row,) = list(csv.DictReader(target.open()))
    assert "perfect_score" not in row
    assert (row["perfect_play_expected"], row["solver_game_score"]) == (
        f"{expected:.2f}",
        str(solver_game.banked),
    )
    assert row["score"] == str(game.banked)
    data = json.loads(invoke(["class", "report", str(folder), "--json"])[1])
    (section,) = data["sections"]
    assert section["perfect_play_expected"] == round(expected, 2)
    assert section["solver_game_score"] == solver_game.banked
    assert section["students"][0]["score"] == game.banked


def test_a_fresh_class_code_as_json() -> None:
    exit_code, out, err = invoke(["class", "code", "--json"])
    assert exit_code == 0 and err == ""
    data = json.loads(out)
    code = data["code"]
    assert len(code) == 6 and set(code) <= set(CODE_ALPHABET) and not set(code) & set("AEIOU01OIL")
    assert data["commands"] == {
        "score": f"farkle-train score --code {code} --save-result NAME.json",
        "decide": f"farkle-train decide --code {code} --save-result NAME.json",
        "challenge": f"farkle-train challenge {code} --save-result NAME.json",
        "worksheet": f"farkle-train worksheet --code {code}",
        "report": "farkle-train class report FOLDER",
    }
