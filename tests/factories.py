"""Small builders shared by several test files."""

from __future__ import annotations

import io
from datetime import date

import pytest
from prompt_toolkit.input import PipeInput
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from farkle_trainer.engine.rules import Rules, rules_from_mapping
from farkle_trainer.store.rules import load_rules
from farkle_trainer.training.classroom.results import Result
from farkle_trainer.training.games import dice as game_dice
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games.dice import DiceSource
from farkle_trainer.training.games.setup import SOLO_TURNS, for_day
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


#: What the dice of :func:`fifty_a_roll` show besides the 5: nothing among them scores, with or without it.
NOT_SCORING = (2, 3, 4, 6, 2)


def fifty_a_roll(roll_number: int, place: int) -> int:
    """Dice on which every roll shows a 5 (first) among dice that do not score: each roll is worth
    50, so a ten-turn game can bank any multiple of 50 from 500 up (see :func:`game_banking`)."""
    return 5 if place == 1 else NOT_SCORING[place - 2]


@pytest.fixture
def fifty_a_roll_days(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every day's daily dice are :func:`fifty_a_roll`'s, so an official result of any score has
    a game that gives it (the stats count only results their moves give)."""

    def days(day: date) -> DiceSource:
        return fifty_a_roll

    monkeypatch.setattr(game_dice, "daily_source", days)


def game_banking(day: date, score: int) -> m.MatchState:
    """The daily game of ``day``, on :func:`fifty_a_roll`'s dice, that banks ``score``: the first
    turn rolls on until it holds all but 50 for each turn after it, which bank 50 each."""
    chain = score // 50 - (SOLO_TURNS - 1)
    assert score % 50 == 0 and chain >= 1, f"{score:,} cannot be banked on these dice"
    state = m.to_decision(m.new_match(for_day(day)), fifty_a_roll)
    for action in ["roll"] * (chain - 1) + ["bank"] * SOLO_TURNS:
        state = m.to_decision(m.play(state, fifty_a_roll, (5,), action), fifty_a_roll)
    assert state.over and state.banked == score
    return state
