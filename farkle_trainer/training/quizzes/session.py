"""A scoring-quiz session: the quiz a seed, a class code or the learner's progress calls for,
asked and graded one question at a time, each answer recorded as it is given."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import TYPE_CHECKING, Final, Protocol

from farkle_trainer.engine.seeded import Stream
from farkle_trainer.training.frontend import STOP_NOTE, Rounds
from farkle_trainer.training.progress import topic_mastery
from farkle_trainer.training.quizzes.questions import Grade, Level, Question
from farkle_trainer.training.quizzes.quiz import (
    Answered,
    Quiz,
    answer_with,
    grade,
    make_quiz,
    next_question,
    returning,
)
from farkle_trainer.training.quizzes.topics import revive
from farkle_trainer.training.record import AnswerRecord

if TYPE_CHECKING:
    from rich.console import RenderableType

    from farkle_trainer.engine.rules import Rules
    from farkle_trainer.store.db import Store
    from farkle_trainer.training.frontend import Frontend
    from farkle_trainer.training.session import Session

KIND: Final = "score"
#: Due items read from the store; those of other tables or topics are skipped.
DUE_LOOKAHEAD = 200


class QuizView(Protocol):
    """How a front end words a question and its grading."""

    def prompt(self, q: Question, number: int, count: int, *, returning: str | None = None) -> str: ...
    def feedback_text(self, g: Grade) -> str: ...
    def feedback_rich(self, g: Grade) -> RenderableType: ...


def quiz_stream(seed: int) -> Stream:
    """Where a quiz's questions come from: a seed names one quiz, the same on every machine."""
    return Stream(f"score:{seed}")


def plan(
    store: Store,
    rules: Rules,
    *,
    seed: int | None,
    count: int,
    topics: tuple[str, ...],
    level: Level | None,
    code: str | None = None,
) -> tuple[Quiz, int | None]:
    """The session's quiz and its seed: fixed by ``seed`` or a class ``code`` (no seed then),
    else matched to the store's history."""
    from farkle_trainer.training.classroom.codes import class_quiz

    if code is not None:
        return class_quiz(code, rules, count=count, topics=topics, level=level), None
    if seed is not None:
        return make_quiz(rules, quiz_stream(seed), count=count, topics=topics, level=level), seed
    drawn = secrets.randbelow(10**9)
    due = [
        q for item in store.due_items(KIND, limit=DUE_LOOKAHEAD) if (q := revive(item.extra, rules, topics))
    ]
    quiz = make_quiz(
        rules,
        quiz_stream(drawn),
        count=count,
        topics=topics,
        level=level,
        mastery=topic_mastery(store, KIND),
        reviews=due,
    )
    return quiz, drawn


def play_quiz(front: Frontend, view: QuizView, quiz: Quiz, session: Session) -> Rounds[Answered]:
    """Ask the quiz through ``front``, recording each answer before showing its grading."""
    history: list[Answered] = []

    def questions() -> Iterator[Question]:
        while (q := next_question(quiz, history)) is not None:
            yield q

    def play(q: Question) -> Answered:
        text = view.prompt(q, len(history) + 1, quiz.count, returning=returning(quiz, history, q))
        done = Answered(q, grade(q, answer_with(front, q, text)))
        session.record(AnswerRecord.of_quiz(done))
        history.append(done)
        front.show(view.feedback_text(done.grade), lambda: view.feedback_rich(done.grade))
        return done

    front.say(STOP_NOTE)
    rounds = session.run(questions(), play)
    if rounds.interrupted and front.plain:
        front.say()  # Ctrl-C left the cursor after the unanswered question
    return rounds
