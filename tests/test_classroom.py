"""Class codes, result files and the class report as plain data."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from farkle_trainer import load_rules
from farkle_trainer.classroom import (
    CODE_ALPHABET,
    ClassCodeError,
    Result,
    ResultAnswer,
    ResultError,
    ResultRecorder,
    StudentNameError,
    build_report,
    check_result_path,
    checksum,
    class_drills,
    class_quiz,
    class_report,
    code_stream,
    new_code,
    normalize_code,
    parse_name,
    parse_result,
    read_result,
    result_document,
    write_result,
)
from farkle_trainer.drills import KINDS
from farkle_trainer.game import seeded_source
from farkle_trainer.quiz import TOPICS, fixed_questions
from farkle_trainer.render_classroom import questions_csv, report_text, students_csv
from farkle_trainer.render_drills import question_line
from farkle_trainer.seeded import Stream

CLASSIC = load_rules("classic")
NOON = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


# -- codes


@pytest.mark.parametrize("text", ["MATH7B", "math7b", " Math 7b ", "MATH-7B", "m-a-t-h 7 b"])
def test_a_code_is_case_and_space_insensitive(text: str) -> None:
    assert normalize_code(text) == "MATH7B"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "3 to 12 letters and digits, like MATH7B"),
        ("AB", "3 to 12 letters and digits, not 2"),
        ("ABCDEFGHIJKLM", "not 13"),
        ("MATH_7B", "only letters and digits"),
        ("MATH!", "not '!'"),
        ("MÄTH7B", "not 'Ä'"),
    ],
)
def test_a_bad_code_says_what_a_code_is(text: str, message: str) -> None:
    with pytest.raises(ClassCodeError, match=message):
        normalize_code(text)


def test_new_codes_are_readable_and_valid() -> None:
    for look_alike in "0O1IL":
        assert look_alike not in CODE_ALPHABET
    assert not set("AEIOU") & set(CODE_ALPHABET)
    for i in range(200):
        code = new_code(Stream(f"test:{i}"))
        assert len(code) == 6 and set(code) <= set(CODE_ALPHABET)
        assert normalize_code(code) == code
    assert new_code(Stream("pinned")) == new_code(Stream("pinned"))
    assert len({new_code() for _ in range(20)}) > 1


def test_each_activity_has_its_own_stream_of_the_code() -> None:
    draws = {a: code_stream("math7b", a).below(10**12) for a in ("score", "decide", "challenge")}
    assert len(set(draws.values())) == 3
    assert code_stream("math7b", "score").seed == "code:MATH7B:score"
    assert code_stream("MATH 7B", "score").below(10**12) == draws["score"]
    with pytest.raises(ValueError):
        code_stream("MATH7B", "daily")  # type: ignore[arg-type]


# -- the same code, the same questions


def quiz_texts(code: str, count: int = 10) -> list[str]:
    return [
        q.text for q in fixed_questions(class_quiz(code, CLASSIC, count=count, topics=TOPICS, level=None))
    ]


def drill_lines(code: str, count: int = 5) -> list[str]:
    return [question_line(p) for p in class_drills(code, CLASSIC, count=count, kinds=KINDS, level=None)]


def challenge_rolls(code: str) -> list[list[int]]:
    source = seeded_source(code_stream(code, "challenge"))
    return [[source(roll, place) for place in range(1, 7)] for roll in range(1, 4)]


def test_pinned_questions_for_one_code() -> None:
    # Pinned: a class given MATH7B must get these on every machine and every release.
    assert quiz_texts("MATH7B") == [
        "What are 1-2-2-2 worth?",
        "You rolled 4-2-1-4-2-4: set aside the most points.",
        "Is 3-6-6-4-2 a Farkle?",
        "What are 1-1-3-3-6-6 worth, all set aside together? (0 if they can't be)",
        "Can you set aside 2-5-6?",
        "You rolled 6-5-6-1: set aside the most points.",
        "What are 5-5-5 worth?",
        "What are 1-1-1-1 worth, all set aside together? (0 if they can't be)",
        "Can you set aside 3-3-3?",
        "Is 3-3-6-1 a Farkle?",
    ]
    assert drill_lines("MATH7B") == [
        "Final round: the leader has 10,800 and you have 9,750 banked, so you need 1,100 this turn to pass. "
        "Nothing set aside yet this turn. You roll 6 dice: 2 3 1 4 3 5",
        "200 points set aside this turn. You rolled 6 4 1 and set aside 1: 300 points at stake, 2 dice left.",
        "You have nothing banked yet: you cannot bank a turn worth less than 500. "
        "350 points set aside this turn. You roll 4 dice: 1 3 5 4",
        "Nothing set aside yet this turn. You roll 6 dice: 4 1 3 5 3 4",
        "100 points set aside this turn. You roll 4 dice: 1 4 1 2",
    ]
    assert challenge_rolls("MATH7B") == [[6, 5, 1, 3, 2, 1], [3, 4, 3, 6, 1, 6], [5, 1, 5, 2, 5, 3]]


def test_spellings_of_one_code_agree_and_other_codes_differ() -> None:
    assert quiz_texts("math-7b") == quiz_texts("MATH7B")
    assert drill_lines("Math 7B") == drill_lines("MATH7B")
    assert challenge_rolls("math7b") == challenge_rolls("MATH7B")
    assert quiz_texts("MATH7C") != quiz_texts("MATH7B")
    assert drill_lines("MATH7C") != drill_lines("MATH7B")
    assert challenge_rolls("MATH7C") != challenge_rolls("MATH7B")


def test_a_code_is_not_a_seed() -> None:
    from farkle_trainer.cli.score import quiz_stream
    from farkle_trainer.quiz import make_quiz

    seeded = [q.text for q in fixed_questions(make_quiz(CLASSIC, quiz_stream(7), count=10))]
    assert quiz_texts("7AA") != seeded


def test_the_same_code_gives_the_same_questions_in_another_process() -> None:
    program = (
        "import json; from farkle_trainer import load_rules; "
        "from farkle_trainer.classroom import class_quiz, class_drills, code_stream; "
        "from farkle_trainer.quiz import TOPICS, fixed_questions; from farkle_trainer.drills import KINDS; "
        "from farkle_trainer.render_drills import question_line; "
        "from farkle_trainer.game import seeded_source; "
        "r = load_rules('classic'); "
        "quiz = class_quiz('MATH7B', r, count=10, topics=TOPICS, level=None); "
        "q = [x.text for x in fixed_questions(quiz)]; "
        "d = [question_line(p) for p in class_drills('MATH7B', r, count=5, kinds=KINDS, level=None)]; "
        "s = seeded_source(code_stream('MATH7B', 'challenge')); "
        "c = [[s(n, p) for p in range(1, 7)] for n in range(1, 4)]; "
        "print(json.dumps([q, d, c]))"
    )
    # Another string-hash seed: set and dict order must not leak into the draws.
    out = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "4242"},
    )
    assert json.loads(out.stdout) == [quiz_texts("MATH7B"), drill_lines("MATH7B"), challenge_rolls("MATH7B")]


# -- names


def test_names_are_tidied_and_checked() -> None:
    assert parse_name("  Ana   María ") == "Ana María"
    for bad in ("", "   ", "x" * 41, "Ana\x07"):
        with pytest.raises(StudentNameError):
            parse_name(bad)


# -- result files


def answer(number: int, item: str, given: str, right: str, lost: float | None = None) -> ResultAnswer:
    return ResultAnswer(
        number=number,
        topic="worth",
        question=f"Question {item}?",
        item=item,
        answer=given,
        correct_answer=right,
        correct=given == right,
        grade="right" if given == right else "wrong",
        points_lost=lost,
    )


def result(
    name: str | None,
    answers: list[tuple[str, str]],
    *,
    code: str = "MATH7B",
    activity: str = "score",
    started: str = "2026-11-29T12:00:00Z",
    planned: int | None = None,
) -> Result:
    made = tuple(answer(i, item, given, "right") for i, (item, given) in enumerate(answers, 1))
    return Result(
        name=name,
        code=code,
        activity=activity,  # type: ignore[arg-type]
        rules="classic",
        settings={"count": len(answers)},
        planned=planned if planned is not None else len(answers),
        answers=made,
        score=sum(a.correct for a in made),
        complete=planned is None,
        started=started,
        finished=None if planned is not None else "2026-11-29T12:05:00Z",
    )


def test_a_result_file_round_trips(tmp_path: Path) -> None:
    r = result("Ana", [("q1", "right"), ("q2", "5")])
    path = tmp_path / "ana.json"
    umask = os.umask(0o022)
    try:
        write_result(path, r)
    finally:
        os.umask(umask)
    doc = json.loads(path.read_text())
    assert doc["format"] == "farkle-trainer result" and doc["version"] == 1
    assert doc["checksum"] == checksum(doc) and doc["checksum"].startswith("sha256:")
    assert list(doc)[-1] == "checksum"
    assert {"name", "code", "activity", "rules", "answers", "score", "points_lost", "started"} <= set(doc)
    assert read_result(path) == r
    assert [p.name for p in tmp_path.iterdir()] == ["ana.json"]  # no temporary file left behind
    assert path.stat().st_mode & 0o777 == 0o644  # a new file like any other: the teacher can read it


def test_reformatting_a_file_keeps_it_valid(tmp_path: Path) -> None:
    doc = result_document(result("Ana", [("q1", "right")]))
    assert parse_result(json.dumps(doc, sort_keys=True)) == parse_result(json.dumps(doc, indent=4))


@pytest.mark.parametrize(
    ("edit", "kind", "message"),
    [
        (
            lambda d: d["answers"][1].update(answer="right", correct=True),
            "tampered",
            "checksum does not match",
        ),
        (lambda d: d.update(score=2), "tampered", "checksum does not match"),
        (lambda d: d.update(name="Someone Else"), "tampered", "checksum does not match"),
        (lambda d: d.pop("checksum"), "tampered", "no checksum"),
        (lambda d: d.update(version=2), "newer", "newer farkle-trainer"),
        (lambda d: d.update(format="something else"), "not-result", "not a farkle-trainer result"),
    ],
)
def test_an_edited_file_is_recognised(edit: Callable[[dict], object], kind: str, message: str) -> None:
    doc = result_document(result("Ana", [("q1", "right"), ("q2", "5")]))
    edit(doc)
    with pytest.raises(ResultError, match=message) as caught:
        parse_result(json.dumps(doc))
    assert caught.value.kind == kind


def test_an_edit_with_a_recomputed_checksum_must_still_add_up() -> None:
    doc = result_document(result("Ana", [("q1", "right"), ("q2", "5")]))
    doc["answers"][1].update(answer="right", correct=True)
    doc["checksum"] = checksum(doc)
    with pytest.raises(ResultError, match="totals do not add up") as caught:
        parse_result(json.dumps(doc))
    assert caught.value.kind == "tampered"


@pytest.mark.parametrize(
    ("text", "kind"),
    [("not json at all", "not-json"), ("[1, 2]", "not-result"), ('{"name": "Ana"}', "not-result")],
)
def test_files_that_are_not_results(text: str, kind: str) -> None:
    with pytest.raises(ResultError) as caught:
        parse_result(text)
    assert caught.value.kind == kind


def test_where_a_result_may_be_written(tmp_path: Path) -> None:
    check_result_path(tmp_path / "ana.json")
    with pytest.raises(ResultError, match=r"ends in \.json"):
        check_result_path(tmp_path / "ana.txt")
    with pytest.raises(ResultError, match="no folder"):
        check_result_path(tmp_path / "missing" / "ana.json")
    with pytest.raises(ResultError, match="is a folder"):
        check_result_path(tmp_path)
    other = tmp_path / "settings.json"
    other.write_text('{"theme": "dark"}')
    with pytest.raises(ResultError, match="exists and is not a result file"):
        check_result_path(other)
    earlier = tmp_path / "earlier.json"
    write_result(earlier, result("Ana", [("q1", "right")]))
    check_result_path(earlier)  # an earlier result may be replaced


def test_the_recorder_keeps_the_file_current(tmp_path: Path) -> None:
    path = tmp_path / "ana.json"
    times = iter([NOON, NOON.replace(minute=1), NOON.replace(minute=2), NOON.replace(minute=3)])
    rec = ResultRecorder(
        code="MATH7B",
        activity="score",
        rules="classic",
        settings={"count": 2},
        planned=2,
        name="Ana",
        path=path,
        clock=lambda: next(times),
    )
    rec.add(answer(0, "q1", "right", "right"))
    partial = read_result(path)
    assert not partial.complete and partial.finished is None and len(partial.answers) == 1
    rec.add(answer(0, "q2", "5", "right"))
    done = rec.finish(complete=True)
    assert read_result(path) == done
    assert [a.number for a in done.answers] == [1, 2]
    assert done.score == 1 and done.started == "2026-11-29T12:00:00Z" and done.complete
    assert rec.saved and rec.error is None


def test_a_write_that_fails_is_reported_once_not_raised(tmp_path: Path) -> None:
    rec = ResultRecorder(
        code="MATH7B",
        activity="score",
        rules="classic",
        settings={},
        planned=1,
        path=tmp_path / "gone" / "a.json",
    )
    rec.add(answer(0, "q1", "right", "right"))
    assert rec.error is not None and "could not save the result" in rec.error
    assert not rec.saved


# -- the report


def test_the_report_per_student_and_per_question() -> None:
    results = [
        ("ana.json", result("Ana", [("q1", "right"), ("q2", "right"), ("q3", "7")])),
        ("ben.json", result("Ben", [("q1", "right"), ("q2", "5"), ("q3", "7")])),
        ("cleo.json", result("Cleo", [("q1", "4"), ("q2", "5"), ("q3", "8")])),
    ]
    report = build_report(results)
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


def test_the_report_leaves_out_other_codes_and_second_attempts() -> None:
    first = result("Ana", [("q1", "right")], started="2026-11-29T12:00:00Z")
    again = result(" ana ", [("q1", "4")], started="2026-11-29T12:30:00Z")
    results = [
        ("b/ana-again.json", again),
        ("a/ana.json", first),
        ("c/ana-copy.json", first),
        ("dan.json", result("Dan", [("q1", "right")], code="OTHER1")),
        ("ben-challenge.json", result("Ben", [("q9", "right")], activity="challenge")),
    ]
    report = build_report(results)
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
    assert build_report(results, code="other1").sections[0].students[0].name == "Dan"


def test_the_report_over_files_and_folders(tmp_path: Path) -> None:
    folder = tmp_path / "results"
    (folder / "period2").mkdir(parents=True)
    write_result(folder / "ana.json", result("Ana", [("q1", "right")]))
    write_result(folder / "period2" / "ben.json", result("Ben", [("q1", "4")]))
    (folder / "notes.txt").write_text("not read: not .json")
    (folder / "broken.json").write_text("{")
    report = class_report([folder, folder / "ana.json", tmp_path / "missing.json"])
    assert report.counted == 2
    assert [(Path(p.path).name, p.kind) for p in report.problems] == [
        ("missing.json", "unreadable"),
        ("broken.json", "not-json"),
    ]
    text = report_text(report)
    assert text.splitlines()[0] == "Class MATH7B: 2 results counted; 2 files left out:"
    assert "  Ana      1 of 1      100%" in text.splitlines()


def test_csv_for_a_spreadsheet() -> None:
    results = [
        ("ana.json", result("=cmd()", [("q1", "right"), ("q2", "5")])),
        ("ben.json", result("Ben", [("q1", "right")], planned=2)),
    ]
    report = build_report(results)
    out = io.StringIO()
    assert students_csv(report, out) == 2
    lines = out.getvalue().splitlines()
    assert lines[0] == (
        "code,activity,rules,name,score,right,answered,planned,accuracy_percent,points_lost,"
        "chance_lost_percentage_points,complete,perfect_score,file"
    )
    assert lines[1] == "MATH7B,score,classic,'=cmd(),1,1,2,2,50.0,,,yes,,ana.json"
    assert lines[2] == "MATH7B,score,classic,Ben,1,1,1,2,100.0,,,no,,ben.json"
    out = io.StringIO()
    assert questions_csv(report, out) == 2
    assert out.getvalue().splitlines()[2] == "MATH7B,score,classic,2,Question q2?,q2,right,1,0,5,1"
