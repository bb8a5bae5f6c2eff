"""Class codes and student names: the same code gives everyone the same questions."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from farkle_trainer import load_rules
from farkle_trainer.engine.kinds import TURN_KINDS
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.engine.tables import Tables
from farkle_trainer.training.classroom.codes import (
    CODE_ALPHABET,
    ClassCodeError,
    StudentNameError,
    class_drills,
    class_quiz,
    code_stream,
    new_code,
    normalize_code,
    parse_name,
)
from farkle_trainer.training.games.dice import seeded_source
from farkle_trainer.training.quizzes.quiz import fixed_questions
from farkle_trainer.training.quizzes.topics import TOPICS
from farkle_trainer.ui.views.drills import question_line

CLASSIC = load_rules("classic")


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


def drill_lines(tables: Tables, code: str, count: int = 5) -> list[str]:
    return [
        question_line(p)
        for p in class_drills(tables, code, CLASSIC, count=count, kinds=TURN_KINDS, level=None)
    ]


def challenge_rolls(code: str) -> list[list[int]]:
    source = seeded_source(code_stream(code, "challenge"))
    return [[source(roll, place) for place in range(1, 7)] for roll in range(1, 4)]


def test_pinned_questions_for_one_code(tables: Tables) -> None:
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
    assert drill_lines(tables, "MATH7B") == [
        "Final round: the leader has 10,800 and you have 9,750 banked, so you need 1,100 this turn to pass. "
        "Nothing set aside yet this turn. You roll 6 dice: 2 3 1 4 3 5",
        "200 points set aside this turn. You rolled 6 4 1 and set aside 1: 300 points at stake, 2 dice left.",
        "You have nothing banked yet: you cannot bank a turn worth less than 500. "
        "350 points set aside this turn. You roll 4 dice: 1 3 5 4",
        "Nothing set aside yet this turn. You roll 6 dice: 4 1 3 5 3 4",
        "100 points set aside this turn. You roll 4 dice: 1 4 1 2",
    ]
    assert challenge_rolls("MATH7B") == [[6, 5, 1, 3, 2, 1], [3, 4, 3, 6, 1, 6], [5, 1, 5, 2, 5, 3]]


def test_spellings_of_one_code_agree_and_other_codes_differ(tables: Tables) -> None:
    assert quiz_texts("math-7b") == quiz_texts("MATH7B")
    assert drill_lines(tables, "Math 7B") == drill_lines(tables, "MATH7B")
    assert challenge_rolls("math7b") == challenge_rolls("MATH7B")
    assert quiz_texts("MATH7C") != quiz_texts("MATH7B")
    assert drill_lines(tables, "MATH7C") != drill_lines(tables, "MATH7B")
    assert challenge_rolls("MATH7C") != challenge_rolls("MATH7B")


def test_a_code_is_not_a_seed() -> None:
    from farkle_trainer.training.quizzes.quiz import make_quiz
    from farkle_trainer.training.quizzes.session import quiz_stream

    seeded = [q.text for q in fixed_questions(make_quiz(CLASSIC, quiz_stream(7), count=10))]
    assert quiz_texts("7AA") != seeded


def test_the_same_code_gives_the_same_questions_in_another_process(tables: Tables) -> None:
    program = (
        "import json; from farkle_trainer import load_rules; "
        "from farkle_trainer.training.classroom.codes import class_quiz, class_drills, code_stream; "
        "from farkle_trainer.training.quizzes.topics import TOPICS; "
        "from farkle_trainer.training.quizzes.quiz import fixed_questions; "
        "from farkle_trainer.engine.kinds import TURN_KINDS; "
        "from farkle_trainer.ui.views.drills import question_line; "
        "from farkle_trainer.training.games.dice import seeded_source; "
        "r = load_rules('classic'); "
        "quiz = class_quiz('MATH7B', r, count=10, topics=TOPICS, level=None); "
        "q = [x.text for x in fixed_questions(quiz)]; "
        "from farkle_trainer.engine.tables import Tables; "
        "d = class_drills(Tables(), 'MATH7B', r, count=5, kinds=TURN_KINDS, level=None); "
        "d = [question_line(p) for p in d]; "
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
    assert json.loads(out.stdout) == [
        quiz_texts("MATH7B"),
        drill_lines(tables, "MATH7B"),
        challenge_rolls("MATH7B"),
    ]


# -- names


def test_names_are_tidied_and_checked() -> None:
    assert parse_name("  Ana   María ") == "Ana María"
    for bad in ("", "   ", "x" * 41, "Ana\x07"):
        with pytest.raises(StudentNameError):
            parse_name(bad)
