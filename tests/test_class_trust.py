"""Recompute, don't trust: forged, hostile and clobbering files against the class report.

Every forged file here is made the way anyone could: a real result edited, and its checksum
computed again from the documented rule (SHA-256 of the canonical JSON without the checksum).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from factories import coded_quiz
from rich.console import Console
from test_challenge_cli import greedy, script
from test_daily_cli import read_until
from typer.testing import CliRunner

import farkle_trainer.cli.classcode as classcode_cli
import farkle_trainer.training.classroom.entry as class_entry_module
from farkle_trainer.cli import app
from farkle_trainer.engine.tables import Tables
from farkle_trainer.training.classroom.report import class_report
from farkle_trainer.training.classroom.results import read_result, result_document, write_result
from farkle_trainer.ui.views.classroom import report_rich, report_text

runner = CliRunner()
NOON = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(class_entry_module, "clock", lambda: NOON)


def invoke(args: list[str], stdin: str = "") -> tuple[int, str, str]:
    result = runner.invoke(app, args, input=stdin)
    return result.exit_code, result.stdout, result.stderr


def seal(doc: dict[str, Any]) -> dict[str, Any]:
    """The checksum rule, done by hand: what a forger does after an edit."""
    body = {k: v for k, v in doc.items() if k != "checksum"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    doc["checksum"] = "sha256:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return doc


def forge(path: Path, edit: Callable[[dict[str, Any]], object]) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    edit(doc)
    path.write_text(json.dumps(seal(doc)), encoding="utf-8")


def problems(tables: Tables, folder: Path) -> dict[str, tuple[str, str]]:
    return {Path(p.path).name: (p.kind, p.message) for p in class_report(tables, [folder]).problems}


# -- 1. one bad file is one line


def test_hostile_files_are_one_line_each_and_the_rest_is_reported(tmp_path: Path) -> None:
    folder = tmp_path / "results"
    folder.mkdir()
    write_result(folder / "ana.json", coded_quiz("Ana", [True, False, True]))
    (folder / "deep.json").write_text("[" * 200_000 + "]" * 200_000)
    # A result document with a part too deep to load.
    sealed = json.dumps(result_document(coded_quiz("Deb", [True])))
    (folder / "deep-result.json").write_text(sealed[:-1] + ', "extra": ' + "[" * 5_000 + "]" * 5_000 + "}")
    lone = result_document(coded_quiz("Ben", [True]))
    lone["name"] = "\ud800"
    (folder / "surrogate.json").write_text(json.dumps(seal(lone)))  # ASCII: "\ud800" escaped
    os.mkfifo(folder / "pipe.json")  # never opened: it would wait for a writer forever
    (folder / "box.json").mkdir()
    (folder / "gone.json").symlink_to(tmp_path / "nowhere")
    (folder / "huge.json").write_text(" " * (5 * 2**20))
    code, out, err = invoke(["class", "report", str(folder), "--plain"])
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Class MATH7B: 1 result counted; 7 files left out:"
    assert sorted(line.split(": ", 1)[1] for line in lines[1:8]) == [
        "a folder, not a result file",
        "a link to nothing: not a result file",
        "nested too deeply to be a result file",
        "nested too deeply to be a result file",
        "not a regular file: not a result file",
        "not a result file: it holds text that is not valid Unicode",
        "too large to be a result file (over 4 MB)",
    ]
    assert "  Ana      2 of 3       67%" in lines


def test_a_fifo_named_as_a_result_is_one_line_never_a_wait(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    code, _, err = invoke(["class", "report", str(fifo), "--plain"])
    assert code == 2
    assert err == f"Error: no result to report: {fifo}: not a regular file: not a result file\n"


def test_a_file_name_that_is_not_utf8_still_goes_to_the_csv(tmp_path: Path) -> None:
    folder = tmp_path / "results"
    folder.mkdir()
    write_result(folder / os.fsdecode(b"caf\xe9.json"), coded_quiz("Ana", [True]))
    write_result(folder / "ben.json", coded_quiz("Ben", [False]))
    target = tmp_path / "class.csv"
    code, _, err = invoke(["class", "report", str(folder), "--plain", "--csv", str(target)])
    assert code == 0, err
    rows = list(csv.DictReader(target.open(encoding="utf-8", newline="")))
    assert [(r["name"], Path(r["file"]).name) for r in rows] == [
        ("Ana", "caf\\xe9.json"),
        ("Ben", "ben.json"),
    ]


# -- 2. every claim follows from the answers


@pytest.fixture
def quiz_file(tmp_path: Path) -> Path:
    path = tmp_path / "ana.json"
    write_result(path, coded_quiz("Ana", [True, False, True]))
    return path


def test_genuine_results_of_every_activity_verify(tables: Tables, tmp_path: Path) -> None:
    lines, game = script(tables, "MATH7B", greedy)
    assert (
        invoke(
            ["challenge", "MATH7B", "--plain", "--name", "Cleo", "--save-result", str(tmp_path / "c.json")],
            "".join(x + "\n" for x in lines),
        )[0]
        == 0
    )
    typed = "b\nr\nb\n1\nb\n"
    args = ["decide", "--code", "MATH7B", "--count", "3", "--plain", "--name", "Ben"]
    assert invoke([*args, "--save-result", str(tmp_path / "d.json")], typed)[0] == 0
    write_result(tmp_path / "q.json", coded_quiz("Ana", [True, False]))
    report = class_report(tables, [tmp_path])
    assert report.problems == () and report.counted == 3
    assert report.unchecked == ()
    assert report.sections[2].students[0].score == game.banked


def test_an_answer_flipped_to_right_is_caught(tables: Tables, quiz_file: Path) -> None:
    def flip(doc: dict[str, Any]) -> None:
        doc["answers"][1].update(correct=True, grade="right")
        doc["right"] = doc["score"] = 3

    forge(quiz_file, flip)
    kind, message = problems(tables, quiz_file.parent)["ana.json"]
    assert kind == "wrong"
    assert message == "does not add up: answer 2 has right or wrong right; graded again it is wrong"


def test_a_changed_answer_or_question_is_caught(tables: Tables, quiz_file: Path) -> None:
    forge(quiz_file, lambda d: d["answers"][1].update(correct_answer=d["answers"][1]["answer"]))
    assert problems(tables, quiz_file.parent)["ana.json"][1].startswith(
        "does not add up: answer 2 has right answer"
    )
    write_result(quiz_file, coded_quiz("Ana", [True, False, True]))
    forge(
        quiz_file,
        lambda d: d["answers"][0].update(question="What are 1-1-1 worth?", item="worth:1-1-1@classic"),
    )
    assert problems(tables, quiz_file.parent)["ana.json"] == (
        "wrong",
        "does not add up: answer 1 is not to the class code's question 1",
    )


def test_complete_after_two_of_five_is_caught(tables: Tables, tmp_path: Path) -> None:
    path = tmp_path / "ana.json"
    write_result(path, coded_quiz("Ana", [True, True], count=5))
    forge(path, lambda d: d.update(complete=True, finished="2026-11-29T12:05:00Z"))
    assert problems(tables, tmp_path)["ana.json"] == (
        "wrong",
        "does not add up: marked complete with 2 of 5 answers",
    )
    forge(path, lambda d: d.update(planned=2))
    assert (
        problems(tables, tmp_path)["ana.json"][1]
        == "does not add up: it plans 2 questions, but its settings ask 5"
    )


def test_a_challenge_score_the_moves_do_not_give_is_caught(tables: Tables, tmp_path: Path) -> None:
    path = tmp_path / "cleo.json"
    typed = "1 1\nr\n1 5 5 5\nb\nq\n"
    assert (
        invoke(["challenge", "MATH7B", "--plain", "--name", "Cleo", "--save-result", str(path)], typed)[0]
        == 0
    )
    assert problems(tables, tmp_path) == {}
    forge(path, lambda d: d.update(score=99_999))
    assert problems(tables, tmp_path)["cleo.json"] == (
        "wrong",
        "does not add up: a score of 99,999, but its moves bank 600",
    )
    forge(path, lambda d: d.update(score=600, complete=True, solver_game_score=600))
    assert (
        problems(tables, tmp_path)["cleo.json"][1]
        == "does not add up: marked complete, but its moves stop in turn 3 of 10"
    )
    forge(
        path, lambda d: (d.update(complete=False, solver_game_score=None), d["answers"][0].update(keep=[1]))
    )
    assert problems(tables, tmp_path)["cleo.json"][1].startswith("does not add up: answer 1 has ")


def test_a_drill_play_that_does_not_match_its_grade_is_caught(tables: Tables, tmp_path: Path) -> None:
    path = tmp_path / "ben.json"
    args = [
        "decide",
        "--code",
        "MATH7B",
        "--count",
        "1",
        "--plain",
        "--name",
        "Ben",
        "--save-result",
        str(path),
    ]
    assert invoke(args, "b\nr\n1\nb\n")[0] == 0
    assert problems(tables, tmp_path) == {}
    forge(
        path,
        lambda d: d["answers"][0].update(action="roll" if d["answers"][0]["action"] == "bank" else "bank"),
    )
    assert problems(tables, tmp_path)["ben.json"][1].startswith("does not add up: answer 1 has ")


def test_an_older_file_is_listed_apart_with_no_score(tables: Tables, quiz_file: Path, tmp_path: Path) -> None:
    # Version 1 keeps no plays, so nothing can check it: every answer flipped to right.
    def flip(doc: dict[str, Any]) -> None:
        doc.update(version=1)
        for a in doc["answers"]:
            a.update(correct=True, grade="right", answer=a["correct_answer"])
        doc["right"] = doc["score"] = 3

    forge(quiz_file, flip)
    write_result(tmp_path / "ben.json", coded_quiz("Ben", [True, False, False]))
    report = class_report(tables, [tmp_path])
    lines = report_text(report).splitlines()
    assert lines[:4] == [
        "Class MATH7B: 1 result counted; 1 result not checked.",
        "",
        "Not checked, so not counted (no score, in no count or total):",
        f"  {quiz_file}: Ana, scoring quiz (classic rules): not verifiable (older format)",
    ]
    assert "Scoring quiz (classic rules): 1 student." in lines
    assert not any(line.startswith("  Ana ") for line in lines)
    # Each question counts Ben alone: Ana's answers are in no count.
    counts = [line.split(".")[0].strip() for line in lines if line.startswith("      Right: ")]
    assert counts == ["Right: 1 of 1", "Right: 0 of 1", "Right: 0 of 1"]
    console = Console(file=io.StringIO(), width=200, color_system=None, record=True)
    console.print(report_rich(report))
    shown = console.export_text()
    assert "not verifiable (older format)" in shown and "100%" not in shown
    target = tmp_path.parent / "class.csv"
    assert invoke(["class", "report", str(tmp_path), "--csv", str(target), "--plain"])[0] == 0
    rows = list(csv.DictReader(target.open(encoding="utf-8", newline="")))
    assert [(r["name"], r["score"], r["right"], r["accuracy_percent"], r["checked"]) for r in rows] == [
        ("Ben", "1", "1", "33.3", "yes"),
        ("Ana", "", "", "", "not verifiable (older format)"),
    ]
    code, out, _ = invoke(["class", "report", str(tmp_path), "--json"])
    data = json.loads(out)
    assert code == 0 and data["counted"] == 1
    assert [s["name"] for sec in data["sections"] for s in sec["students"]] == ["Ben"]
    assert data["not_checked"] == [
        {
            "name": "Ana",
            "activity": "score",
            "rules": "classic",
            "reason": "not verifiable (older format)",
            "file": str(quiz_file),
        }
    ]


def test_a_challenge_on_another_table_is_refused_not_counted(tables: Tables, tmp_path: Path) -> None:
    path = tmp_path / "cleo.json"
    typed = "1 1\nr\n1 5 5 5\nb\nq\n"
    args = ["challenge", "MATH7B", "--plain", "--name", "Cleo", "--save-result", str(path)]
    assert invoke(args, typed)[0] == 0
    # A challenge is always classic: one claiming a house table is checked all the same.
    forge(path, lambda d: d.update(rules="myhouse", score=99_999))
    assert problems(tables, tmp_path)["cleo.json"] == (
        "wrong",
        "does not add up: a challenge is 10 turns on classic rules",
    )
    report = class_report(tables, [tmp_path])
    assert report.counted == 0 and report.unchecked == ()
    code, _, err = invoke(["class", "report", str(tmp_path), "--plain"])
    assert code == 2 and "99,999" not in err and "a challenge is 10 turns on classic rules" in err


# -- 3. text from a file is shown, never obeyed


def test_control_characters_from_files_are_escaped(tables: Tables, tmp_path: Path) -> None:
    folder = tmp_path / "results"
    folder.mkdir()
    write_result(folder / "ana.json", coded_quiz("Ana\x1b[2J\x1b]0;pwned\x07", [True]))
    write_result(folder / "ben.json", coded_quiz("Ben", [True]))
    (folder / "x\nClass MATH7B: 9 results counted.json").write_text("{")
    report = class_report(tables, [folder])
    text = report_text(report)
    assert "\x1b" not in text and "\x07" not in text
    # A name no student could type is not a student's: the file is left out, in one line.
    assert any(
        line.endswith(
            "ana.json: not a result file: its name is not one a student can type "
            "(a name has only printable characters)"
        )
        for line in text.splitlines()
    )
    assert any(
        line.endswith("x\\nClass MATH7B: 9 results counted.json: not JSON (line 1): not a result file")
        for line in text.splitlines()
    )
    console = Console(file=io.StringIO(), width=200, color_system="truecolor")
    console.print(report_rich(report))
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    assert "\x07" not in shown and "\x1b]0" not in shown
    target = tmp_path / "class.csv"
    assert invoke(["class", "report", str(folder), "--plain", "--csv", str(target)])[0] == 0
    assert "\x1b" not in target.read_text(encoding="utf-8")


# -- 4. nothing clobbered


def test_a_result_file_is_never_someone_elses(tmp_path: Path) -> None:
    ben = tmp_path / "ben.json"
    write_result(ben, coded_quiz("Ben", [True]))
    before = ben.read_bytes()
    args = [
        "score",
        "--code",
        "MATH7B",
        "--count",
        "1",
        "--plain",
        "--name",
        "Ana",
        "--save-result",
        str(ben),
    ]
    code, out, err = invoke(args, "1\n")
    assert (code, out) == (2, "")
    refusal = f"{ben} holds the result of 'Ben', not 'Ana': choose another name, or add --force to replace it"
    assert err == f"Error: --save-result: {refusal}\n"
    cleo = tmp_path / "cleo.json"
    assert (
        invoke(
            ["challenge", "MATH7B", "--plain", "--name", "Cleo", "--save-result", str(cleo)], "1 1\nr\nq\n"
        )[0]
        == 0
    )
    code, _, err = invoke(
        [
            "score",
            "--code",
            "MATH7B",
            "--count",
            "1",
            "--plain",
            "--name",
            "Cleo",
            "--save-result",
            str(cleo),
        ],
        "1\n",
    )
    assert code == 2 and f"{cleo} holds a class challenge result for class code MATH7B" in err
    assert ben.read_bytes() == before
    # --force replaces anything.
    assert invoke([*args, "--force"], "1\n")[0] == 0
    assert json.loads(ben.read_text())["name"] == "Ana"


def test_a_finished_result_is_replaced_only_when_its_student_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ana = tmp_path / "ana.json"
    args = [
        "score",
        "--code",
        "MATH7B",
        "--count",
        "2",
        "--plain",
        "--name",
        "Ana",
        "--save-result",
        str(ana),
    ]
    # A stopped result is the same student's to take again, as often as they like.
    assert invoke(args, "1\n")[0] == 0
    assert invoke(args, "1\n")[0] == 0
    assert invoke(args, "1\n1\n")[0] == 0
    finished = ana.read_bytes()
    assert json.loads(finished)["complete"]
    # Through a pipe no one can say yes: refused before anything is asked.
    code, out, err = invoke(args, "1\nq\n")
    assert (code, out) == (2, "")
    assert err == (
        f"Error: --save-result: {ana} already holds your finished result (0 of 2 right): "
        "choose another file name, or add --force to start again and replace it\n"
    )
    assert ana.read_bytes() == finished
    # On a terminal the student is asked, and no is the answer Enter gives.
    monkeypatch.setattr(classcode_cli, "is_terminal", lambda stream: True)
    question = f"{ana} already holds your finished result (0 of 2 right); start again and replace it? (y/N)"
    for typed in ("\n", "no\n", ""):
        code, out, _ = invoke(args, typed)
        assert code == 0 and question in out
        assert out.splitlines()[-1] == f"Nothing was started: {ana} keeps your finished result."
        assert ana.read_bytes() == finished
    code, out, _ = invoke(args, "yes\n1\nq\n")
    assert code == 0 and "stopped after 1 of 2" in out.splitlines()[-1]
    assert not json.loads(ana.read_text())["complete"]
    # A name asked on the terminal is checked the same way.
    assert invoke(args, "yes\n1\n1\n")[0] == 0
    finished = ana.read_bytes()
    code, out, _ = invoke([*args[:6], "--save-result", str(ana)], " ana \n\n")
    assert code == 0 and question in out and ana.read_bytes() == finished
    # --force replaces it without a question.
    code, out, _ = invoke([*args, "--force"], "1\nq\n")
    assert code == 0 and "already holds" not in out
    assert not json.loads(ana.read_text())["complete"]


def test_two_students_saving_to_one_file_at_once_lose_nothing_unsaid(tmp_path: Path) -> None:
    race = tmp_path / "race.json"

    def student(name: str) -> subprocess.Popen[bytes]:
        command = [sys.executable, "-m", "farkle_trainer", "score", "--code", "MATH7B", "--count", "3"]
        command += ["--plain", "--name", name, "--save-result", str(race)]
        env = {**os.environ, "FARKLE_TRAIN_HOME": str(tmp_path / name)}
        return subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
        )

    ana, ben = student("Ana"), student("Ben")
    try:
        # Both are at their first question: both found no file there.
        read_until(ana, "1/3 ", timeout=60)
        read_until(ben, "1/3 ", timeout=60)
        assert not race.exists()
        assert ana.stdin is not None
        ana.stdin.write(b"1 2 2 2\n")
        ana.stdin.flush()
        read_until(ana, "2/3 ", timeout=60)
        assert read_result(race).name == "Ana"
        ben_out, ben_err = ben.communicate(b"1\nyes\n1100\n", timeout=60)
        ana_out, ana_err = ana.communicate(b"no\n1000\n", timeout=60)
    finally:
        for proc in (ana, ben):
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)
    assert ben.returncode == 2
    assert ben_out.decode().splitlines()[-1] == "Result for class MATH7B: Ben, scoring quiz, 0 of 3 right."
    assert ben_err.decode() == (
        f"Error: this result was NOT saved to {race}: another student's result ('Ana') is there now and "
        "was not written over; to save yours, run the command again with another --save-result file name\n"
    )
    assert ana.returncode == 0, ana_err.decode()
    assert ana_out.decode().splitlines()[-1].endswith(f"3 of 3 right. Saved to {race} for your teacher.")
    kept = read_result(race)
    assert kept.name == "Ana" and kept.complete and kept.right == 3
    assert [p.name for p in tmp_path.iterdir() if p.is_file()] == ["race.json"]


def test_reports_keys_and_exports_never_write_over_a_file(tmp_path: Path) -> None:
    folder = tmp_path / "results"
    folder.mkdir()
    ana = folder / "ana.json"
    write_result(ana, coded_quiz("Ana", [True]))
    kept = ana.read_bytes()
    for option in ("--csv", "--questions-csv"):
        code, out, err = invoke(["class", "report", str(folder), "--plain", option, str(ana)])
        assert (code, out) == (2, "")
        assert err == f"Error: {option}: {ana} exists: choose another name, or add --force to replace it\n"
    key = tmp_path / "key.md"
    key.write_text("mine")
    code, _, err = invoke(["worksheet", "--code", "MATH7B", "--count", "1", "--key", str(key)])
    assert code == 2 and "--key: " in err and key.read_text() == "mine"
    code, _, err = invoke(["progress", "--export", str(key.with_suffix(".csv")), "--force"])
    assert code == 0
    code, _, err = invoke(["progress", "--export", str(key.with_suffix(".csv"))])
    assert code == 2 and "--export: " in err and "--force" in err
    assert ana.read_bytes() == kept
    target = tmp_path / "class.csv"
    target.write_text("old")
    assert invoke(["class", "report", str(folder), "--plain", "--csv", str(target), "--force"])[0] == 0
    assert target.read_text().startswith("code,activity")


def test_a_version_2_quiz_is_still_verified_and_a_version_2_drill_is_not(
    tables: Tables, tmp_path: Path
) -> None:
    from farkle_trainer.training.classroom.verify import OLDER_FORMAT, verify

    quiz = replace(coded_quiz("Ana", [True, False, True]), version=2)
    assert verify(tables, quiz) is None
    drill = replace(quiz, activity="decide")
    assert verify(tables, drill) == OLDER_FORMAT


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"name": "Z" * 300},
            "not a result file: its name is not one a student can type (a name has at most 40 characters)",
        ),
        ({"started": "yesterday"}, "edited: its started time 'yesterday' is not a time"),
        ({"started": "0"}, "edited: its started time '0' is not a time"),
        ({"finished": "\x1b[31m"}, "edited: its finished time '\\x1b[31m' is not a time"),
        ({"solver_game_score": 99999}, "edited: its totals do not add up to its answers"),
    ],
)
def test_a_result_whose_fields_no_session_writes_is_left_out(
    tables: Tables, tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    folder = tmp_path / "results"
    folder.mkdir()
    write_result(folder / "ana.json", coded_quiz("Ana", [True, True]))
    doc = result_document(coded_quiz("Eve", [True, True]))
    doc.update(change)
    (folder / "eve.json").write_text(json.dumps(seal(doc)))
    found = problems(tables, folder)
    assert found == {"eve.json": (found["eve.json"][0], message)}
