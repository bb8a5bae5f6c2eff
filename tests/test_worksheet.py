"""Worksheets: the code's questions on paper, and a key that the graders agree with."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from farkle_trainer import load_rules
from farkle_trainer.cli import app
from farkle_trainer.engine.decisions import Position, decision_for
from farkle_trainer.engine.decisions import grade as grade_play
from farkle_trainer.engine.kinds import TURN_KINDS
from farkle_trainer.engine.notation import parse_number, parse_selection, parse_yes_no
from farkle_trainer.engine.tables import Tables
from farkle_trainer.training.classroom.codes import class_drills, class_quiz
from farkle_trainer.training.classroom.worksheet import (
    MARKDOWN_PAGE_BREAK,
    TEXT_PAGE_BREAK,
    answer_key,
    decide_sheet,
    score_sheet,
    sheet,
)
from farkle_trainer.training.quizzes.questions import Question
from farkle_trainer.training.quizzes.quiz import fixed_questions
from farkle_trainer.training.quizzes.quiz import grade as grade_answer
from farkle_trainer.training.quizzes.topics import TOPICS

runner = CliRunner()
CLASSIC = load_rules("classic")
FIXED = load_rules("fixed")


def read_typed(q: Question, text: str) -> int | bool | tuple[int, ...]:
    """The key's answer read back the way the quiz reads a typed answer."""
    if q.form == "points":
        return parse_number(text)
    if q.form == "yes-no":
        return parse_yes_no(text)
    return parse_selection(text, q.dice)


_PLAY = re.compile(r"(?:keep (?P<keep>[1-6](?: [1-6])*) and )?(?P<action>bank|roll)\b.*")


def read_play(p: Position, text: str) -> tuple[tuple[int, ...], str]:
    """``keep 1 5 and roll 4 dice`` -> ((1, 5), "roll"); a bank-or-roll drill keeps its set-aside."""
    m = _PLAY.fullmatch(text)
    assert m, text
    keep = tuple(int(d) for d in m["keep"].split()) if m["keep"] else tuple(sorted(p.kept or ()))
    return keep, m["action"]


@pytest.mark.parametrize("rules", [CLASSIC, FIXED], ids=["classic", "fixed"])
@pytest.mark.parametrize("code", ["MATH7B", "ROOM12", "K7PQ3R"])
def test_the_score_key_is_graded_right_by_the_quiz(code: str, rules: object) -> None:
    w = score_sheet(code, rules, count=30)  # type: ignore[arg-type]
    quiz = class_quiz(code, rules, count=30, topics=TOPICS, level=None)  # type: ignore[arg-type]
    assert list(w.items) == fixed_questions(quiz)
    assert {q.topic for q in w.items} == set(TOPICS)  # type: ignore[union-attr]
    for q, entry in zip(w.items, w.entries, strict=True):
        assert isinstance(q, Question)
        g = grade_answer(q, read_typed(q, entry.answer))
        assert g.correct, (q.text, entry.answer)
        assert entry.why == g.explanation
        assert entry.lines == (q.text,)


@pytest.mark.parametrize("code", ["MATH7B", "ROOM12"])
def test_the_decide_key_is_the_solvers_best_play(tables: Tables, code: str) -> None:
    w = decide_sheet(tables, code, CLASSIC, count=12)
    assert list(w.items) == list(class_drills(tables, code, CLASSIC, count=12, kinds=TURN_KINDS, level=None))
    for p, entry in zip(w.items, w.entries, strict=True):
        assert isinstance(p, Position)
        keep, action = read_play(p, entry.answer)
        g = grade_play(decision_for(tables, p), keep, action)  # type: ignore[arg-type]
        assert g.grade == "best" and g.lost == 0, (p, entry.answer)


def test_options_choose_the_questions_and_name_the_command(tables: Tables) -> None:
    w = score_sheet("math7b", FIXED, count=4, topics=("combos",), level="hard")
    assert w.command == "farkle-train score --code MATH7B --count 4 --topic combos --level hard --rules fixed"
    assert all(q.topic == "combos" and q.level == "hard" for q in w.items)  # type: ignore[union-attr]
    d = decide_sheet(tables, "math7b", CLASSIC, count=3, kinds=("keep",), level="easy")
    assert d.command == "farkle-train decide --code MATH7B --count 3 --kind keep --level easy"
    assert all(p.kind == "keep" for p in d.items)  # type: ignore[union-attr]


def test_markdown_with_the_key_after_a_page_break() -> None:
    w = score_sheet("MATH7B", CLASSIC, count=3)
    text = sheet(w)
    before, after = text.split(MARKDOWN_PAGE_BREAK)
    assert before.startswith("# Farkle worksheet MATH7B\n")
    assert "Name: ____" in before and "**" not in before
    for e in w.entries:
        assert f"{e.number}. {e.lines[0]}" in before
        assert f"{e.number}. **{e.answer}**." in after
    assert after.lstrip().startswith("# Answer key: worksheet MATH7B")
    assert sheet(w, key=False) == before.rstrip("\n") + "\n"
    assert answer_key(w) == after.lstrip("\n")


def test_plain_text_breaks_the_page_with_a_form_feed(tables: Tables) -> None:
    w = decide_sheet(tables, "MATH7B", CLASSIC, count=2)
    text = sheet(w, "text")
    before, after = text.split(TEXT_PAGE_BREAK)
    assert before.startswith("Farkle worksheet MATH7B: 2 bank-or-roll decisions on classic rules.\n")
    assert "<" not in text and "#" not in text and "**" not in text
    assert after.startswith("Answer key: worksheet MATH7B\n")
    assert "Keep __________, then bank / roll" in before or "Bank / roll" in before


# -- the command


def test_the_readme_example() -> None:
    result = runner.invoke(app, ["worksheet", "--code", "MATH7B", "--count", "3"])
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "# Farkle worksheet MATH7B\n"
        "\n"
        "3 scoring questions on classic rules (medium level). "
        "On screen: `farkle-train score --code MATH7B --count 3`\n"
        "\n"
        "Name: ____________________\n"
        "\n"
        "1. You rolled 1-2-4-2-2: set aside the most points.\\\n"
        "   Set aside: __________\n"
        "\n"
        "2. Can you set aside 1-1-1-1-2?\\\n"
        "   yes / no\n"
        "\n"
        "3. What are 1-1-1 worth?\\\n"
        "   __________ points\n"
        "\n"
        '<div style="page-break-after: always;"></div>\n'
        "\n"
        "# Answer key: worksheet MATH7B\n"
        "\n"
        "1. **1 2 2 2**. The most is 1-2-2-2 for 300: three 2s 200 + single 1 100.\n"
        "2. **no**. No: 1-1-1-1-2 can't all be set aside. 2: a single 2 scores nothing: 2s score only "
        "as three or more alike or in a straight. The rest, 1-1-1-1, scores 1,100: three 1s 1,000 + "
        "single 1 100.\n"
        "3. **1,000**. 1-1-1 are worth 1,000: three 1s 1,000.\n"
    )


def test_the_sheet_matches_what_score_asks() -> None:
    w = score_sheet("MATH7B", CLASSIC, count=5)
    typed = "".join(e.answer + "\n" for e in w.entries)
    result = runner.invoke(app, ["score", "--code", "math 7b", "--count", "5", "--plain"], input=typed)
    assert result.exit_code == 0, result.output
    assert "Score: 5 of 5 right." in result.stdout
    for q in w.items:
        assert q.text in result.stdout or "set aside the most points" in q.text  # type: ignore[union-attr]


def test_the_key_in_a_file_of_its_own(tables: Tables, tmp_path: Path) -> None:
    key = tmp_path / "key.txt"
    args = [
        "worksheet",
        "--code",
        "MATH7B",
        "--count",
        "4",
        "--kind",
        "decide",
        "--format",
        "text",
        "--key",
        str(key),
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert TEXT_PAGE_BREAK not in result.stdout and "Answer key" not in result.stdout
    assert result.stderr == f"Answer key written to {key}.\n"
    w = decide_sheet(tables, "MATH7B", CLASSIC, count=4)
    assert key.read_text() == answer_key(w, "text")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--code", "M!"], "--code: a class code has only letters and digits"),
        (["--code", "MATH7B", "--kind", "daily"], "--kind takes score or decide, not 'daily'"),
        (["--code", "MATH7B", "--topic", "keep"], "unknown topic 'keep'"),
        (["--code", "MATH7B", "--kind", "decide", "--topic", "worth"], "--topic of a decide worksheet takes"),
        (["--code", "MATH7B", "--format", "pdf"], "--format takes markdown or text, not 'pdf'"),
        (["--code", "MATH7B", "--rules", "nope"], "unknown rules 'nope'"),
        (
            ["--code", "MATH7B", "--key", "/nonexistent/dir/key.md"],
            "--key: cannot write /nonexistent/dir/key.md",
        ),
    ],
)
def test_bad_options_are_one_line_errors(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["worksheet", *args])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("Error: ") and message in result.stderr
    assert result.stderr.count("\n") == 1


def test_markdown_keeps_each_line_of_a_decision(tables: Tables) -> None:
    w = decide_sheet(tables, "MATH7B", CLASSIC, count=3)
    text = sheet(w, key=False)
    first = w.entries[0]
    assert len(first.lines) > 1
    assert f"1. {first.lines[0]}\\\n   {first.lines[1]}\\\n" in text
    assert f"   {first.blank}\n\n2. " in text


@pytest.mark.parametrize("fmt", ["markdown", "text"])
@pytest.mark.parametrize("kind", ["score", "decide"])
def test_each_answer_space_is_on_a_line_of_its_own(tables: Tables, fmt: str, kind: str) -> None:
    w = (
        score_sheet("MATH7B", CLASSIC, count=12)
        if kind == "score"
        else decide_sheet(tables, "MATH7B", CLASSIC, count=12)
    )
    assert any(len(e.lines) == 1 for e in w.entries)  # a one-line question is among them
    lines = sheet(w, fmt, key=False).splitlines()  # type: ignore[arg-type]
    for e in w.entries:
        at = next(
            i
            for i, line in enumerate(lines)
            if line.startswith(f"{e.number}. ") or line.startswith(f"{e.number:>2}. ")
        )
        question = lines[at : at + len(e.lines)]
        assert all(e.blank not in line for line in question), question
        # The line after the question's holds the answer space and nothing else.
        assert lines[at + len(e.lines)].strip() == e.blank
        assert lines[at + len(e.lines) + 1 :][:1] in ([""], [])
