"""Small builders shared by several test files."""

from __future__ import annotations

import io

from prompt_toolkit.input import PipeInput
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from farkle_trainer.engine.rules import Rules, rules_from_mapping
from farkle_trainer.store.rules import load_rules
from farkle_trainer.training.classroom.results import Result
from farkle_trainer.training.quizzes.questions import Question
from farkle_trainer.training.quizzes.topics import question
from farkle_trainer.training.record import AnswerRecord
from farkle_trainer.ui.terminal import InteractiveFrontend

CLASSIC = load_rules("classic")
#: A house table with the variants no preset has: short straights, three 1s at 300, no three pairs.
HOUSE = rules_from_mapping(
    {
        "name": "house",
        "three_of_a_kind": {"one": 300},
        "combinations": {
            "partial_straight_low": 500,
            "partial_straight_high": 750,
            "three_pairs": False,
            "straight": 2500,
        },
    }
)


def q(topic: str, dice: str, rules: Rules = CLASSIC) -> Question:
    return question(topic, tuple(int(c) for c in dice), rules)


def answer(number: int, item: str, given: str, right: str, lost: float | None = None) -> AnswerRecord:
    return AnswerRecord(
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


def interactive_frontend(pipe: PipeInput, width: int = 100) -> tuple[InteractiveFrontend, io.StringIO]:
    """The questionary front end reading keys from ``pipe``, printing to a fixed-width buffer."""
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None)
    return InteractiveFrontend(console, prompt_input=pipe, prompt_output=DummyOutput()), out


def coded_quiz(
    name: str | None,
    right: list[bool],
    *,
    code: str = "MATH7B",
    count: int | None = None,
    started: str = "2026-11-29T12:00:00Z",
) -> Result:
    """A scoring-quiz result as ``score --code`` makes it: the code's questions, answered right
    or wrong as ``right`` says (a wrong answer is the key's opposite, or a pick of one die)."""
    from farkle_trainer.training.classroom.codes import class_quiz
    from farkle_trainer.training.quizzes.quiz import Answered, grade, next_question
    from farkle_trainer.training.quizzes.topics import TOPICS, spec_of

    planned = len(right) if count is None else count
    quiz = class_quiz(code, CLASSIC, count=planned, topics=TOPICS, level=None)
    history: list[Answered] = []
    for ok in right:
        q = next_question(quiz, history)
        assert q is not None
        key = spec_of(q.topic).key(q)
        given = key
        if not ok:
            if isinstance(key, bool):
                given = not key
            elif isinstance(key, int):
                given = key + 50
            else:
                given = (1,) if 1 in q.dice else (5,)
        history.append(Answered(q, grade(q, given)))
        assert history[-1].grade.correct == ok
    answers = tuple(AnswerRecord.of_quiz(a).numbered(i) for i, a in enumerate(history, 1))
    complete = len(right) == planned
    return Result(
        name=name,
        code=code,
        activity="score",
        rules="classic",
        settings={"topics": list(TOPICS), "level": None, "count": planned},
        planned=planned,
        answers=answers,
        score=sum(a.correct for a in answers),
        complete=complete,
        started=started,
        finished="2026-11-29T12:05:00Z" if complete else None,
    )
