"""Classroom practice: class codes, student names and the class challenge.

A class code names one set of questions for everyone who types it, like a seed given as
text. Codes are case-insensitive, spaces and hyphens in them are ignored, and they hold 3
to 12 letters and digits (``math 7b``, ``MATH-7B`` and ``MATH7B`` are one code). Each
activity draws from its own stream of the code (:func:`code_stream`), so the scoring quiz,
the drills and the challenge of one code are independent of each other and of every seed.

What a student hands in is a result file (:mod:`farkle_trainer.training.classroom.results`); the teacher reads
a class's files with :mod:`farkle_trainer.training.classroom.report`.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from farkle_trainer.engine.errors import InputError
from farkle_trainer.engine.seeded import Stream

if TYPE_CHECKING:
    from farkle_trainer.engine.decisions import Kind
    from farkle_trainer.engine.rules import Rules
    from farkle_trainer.engine.tables import Tables
    from farkle_trainer.training.drills.drills import Level as DrillLevel
    from farkle_trainer.training.drills.drills import Plan
    from farkle_trainer.training.frontend import Frontend
    from farkle_trainer.training.quizzes.questions import Level
    from farkle_trainer.training.quizzes.quiz import Quiz

Activity = Literal["score", "decide", "challenge"]
ACTIVITIES: tuple[Activity, ...] = ("score", "decide", "challenge")
ACTIVITY_NAMES: dict[str, str] = {
    "score": "scoring quiz",
    "decide": "bank-or-roll drills",
    "challenge": "class challenge",
}

CODE_MIN = 3
CODE_MAX = 12
#: Generated codes use no vowels (so they never spell a word) and none of 0/O, 1/I/L.
CODE_ALPHABET = "BCDFGHJKMNPQRSTVWXYZ23456789"
NEW_CODE_LENGTH = 6

NAME_MAX = 40


class ClassCodeError(InputError):
    """Text that is not a class code: it says what a code looks like."""


class StudentNameError(InputError):
    """A student name that cannot go on a result."""


# -- class codes


def normalize_code(text: str) -> str:
    """The code as everyone's copy agrees on it: upper case, spaces and hyphens dropped.

    >>> normalize_code(" math-7b ")
    'MATH7B'
    """
    cleaned = re.sub(r"[\s\-]+", "", text)
    bad = re.search(r"[^A-Za-z0-9]", cleaned)
    if bad:
        raise ClassCodeError(
            f"a class code has only letters and digits (spaces and hyphens are ignored), not {bad[0]!r}"
        )
    if not CODE_MIN <= len(cleaned) <= CODE_MAX:
        got = f"not {len(cleaned)}" if cleaned else "like MATH7B"
        raise ClassCodeError(f"a class code has {CODE_MIN} to {CODE_MAX} letters and digits, {got}")
    return cleaned.upper()


def new_code(stream: Stream | None = None, length: int = NEW_CODE_LENGTH) -> str:
    """A fresh code that is safe to read aloud or copy from a board (see :data:`CODE_ALPHABET`).

    Drawn from the system's secure randomness, or from ``stream`` for a reproducible one.
    """
    below = stream.below if stream is not None else secrets.randbelow
    return "".join(CODE_ALPHABET[below(len(CODE_ALPHABET))] for _ in range(length))


#: Streams of a code with no result file: ``play --code`` (the class's same game against a computer).
GAME_STREAMS: tuple[str, ...] = ("play",)


def code_stream(code: str, activity: Activity | Literal["play"]) -> Stream:
    """Where an activity's questions or dice come from for a class code: ``code:MATH7B:score``."""
    if activity not in ACTIVITIES and activity not in GAME_STREAMS:
        raise ValueError(f"unknown activity {activity!r}")
    return Stream(f"code:{normalize_code(code)}:{activity}")


def class_quiz(code: str, rules: Rules, *, count: int, topics: Sequence[str], level: Level | None) -> Quiz:
    """The scoring quiz of a code: fixed by the code alone, never adapted to a player."""
    from farkle_trainer.training.quizzes.quiz import make_quiz

    return make_quiz(rules, code_stream(code, "score"), count=count, topics=topics, level=level)


def class_drills(
    tables: Tables, code: str, rules: Rules, *, count: int, kinds: tuple[Kind, ...], level: DrillLevel | None
) -> Plan:
    """The drills of a code: fixed by the code alone, never adapted to a player."""
    from farkle_trainer.training.drills.drills import Plan

    return Plan(tables, rules, code_stream(code, "decide"), count, kinds, level)


# -- names


def parse_name(text: str) -> str:
    """A student's name as it goes on a result: spaces tidied, 1 to 40 printable characters."""
    name = " ".join(text.split())
    if not name:
        raise StudentNameError("type your name, as your teacher will see it")
    if len(name) > NAME_MAX:
        raise StudentNameError(f"a name has at most {NAME_MAX} characters")
    if not name.isprintable():
        raise StudentNameError("a name has only printable characters")
    return name


def same_student(name: str) -> str:
    """The key two results of one student share: case and spacing do not matter."""
    return " ".join(name.split()).casefold()


def ask_name(front: Frontend) -> str:
    """Ask the student's name through a front end (asked again until it is usable)."""
    return front.ask("Your name (for your teacher):", parse_name)


# -- the class challenge
