"""``score``: scoring quizzes, graded at once and explained, recorded as training progress."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Annotated

import typer

from farkle_trainer.cli.classroom import CodeOpt, NameOpt, SaveResultOpt, class_entry, end_result
from farkle_trainer.cli.common import PlainOpt, RulesOpt, app, load, user_errors
from farkle_trainer.cli.records import DataDirOpt, open_store_or_explain, store_errors
from farkle_trainer.ui.terminal import fail, is_terminal

if TYPE_CHECKING:
    from farkle_trainer.engine.rules import Rules
    from farkle_trainer.engine.seeded import Stream
    from farkle_trainer.store.db import Store
    from farkle_trainer.training.frontend import Frontend
    from farkle_trainer.training.quizzes.questions import Level, Question
    from farkle_trainer.training.quizzes.quiz import Answered, Quiz

TopicOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--topic",
        "-t",
        metavar="TOPIC",
        help="worth, valid, farkle, best or combos; repeat it or use commas (default: all, mixed).",
        show_default=False,
    ),
]
LevelOpt = Annotated[
    str | None,
    typer.Option(
        "--level",
        metavar="easy|medium|hard",
        help="Fix the difficulty (default: each topic's level follows your progress; medium with --seed).",
        show_default=False,
    ),
]
CountOpt = Annotated[
    int, typer.Option("--count", "-n", metavar="N", min=1, max=100, help="How many questions, 1 to 100.")
]
SeedOpt = Annotated[
    int | None,
    typer.Option(
        "--seed",
        metavar="SEED",
        min=0,
        help="A whole number: the same seed gives the same questions on any machine, whatever your "
        "progress, so a class can take one quiz.",
        show_default=False,
    ),
]

#: Due items read from the store; those of other tables or topics are skipped.
DUE_LOOKAHEAD = 200


def quiz_stream(seed: int) -> Stream:
    """Where a quiz's questions come from: a seed names one quiz, the same on every machine."""
    from farkle_trainer.engine.seeded import Stream

    return Stream(f"score:{seed}")


def record_answer(store: Store, session_id: int, a: Answered) -> None:
    """Keep one graded answer as training progress, the moment it is given."""
    store.record_answer(
        session_id,
        topic=a.question.topic,
        item=a.question.item,
        question=a.question.text,
        answer=a.grade.answer,
        correct_answer=a.grade.correct_answer,
        correct=a.grade.correct,
        grade="right" if a.grade.correct else "wrong",
        extra=a.question.extra(),
    )


def play_quiz(front: Frontend, quiz: Quiz, record: Callable[[Answered], None]) -> tuple[list[Answered], int]:
    """Ask the quiz through ``front``, recording each answer before showing its grading.

    Returns the answers and the exit code: 0 when done or input ran out, 130 after Ctrl-C.
    """
    from farkle_trainer.training.frontend import run_rounds
    from farkle_trainer.training.quizzes.quiz import Answered, answer_with, grade, next_question, returning
    from farkle_trainer.ui.views import quiz as view

    history: list[Answered] = []

    def questions() -> Iterator[Question]:
        while (q := next_question(quiz, history)) is not None:
            yield q

    def play(q: Question) -> Answered:
        text = view.prompt(
            q, len(history) + 1, quiz.count, plain=front.plain, returning=returning(quiz, history, q)
        )
        done = Answered(q, grade(q, answer_with(front, q, text)))
        record(done)
        history.append(done)
        front.show(view.feedback_text(done.grade), lambda: view.feedback_rich(done.grade))
        return done

    rounds = run_rounds(questions(), play)
    if rounds.interrupted and front.plain:
        front.say()  # Ctrl-C left the cursor after the unanswered question
    return history, rounds.exit_code


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
    import secrets

    from farkle_trainer.training.classroom.codes import class_quiz
    from farkle_trainer.training.progress import topic_mastery
    from farkle_trainer.training.quizzes.questions import revive
    from farkle_trainer.training.quizzes.quiz import make_quiz

    if code is not None:
        return class_quiz(code, rules, count=count, topics=topics, level=level), None
    if seed is not None:
        return make_quiz(rules, quiz_stream(seed), count=count, topics=topics, level=level), seed
    drawn = secrets.randbelow(10**9)
    due = [
        q
        for item in store.due_items("score", limit=DUE_LOOKAHEAD)
        if (q := revive(item.extra, rules, topics))
    ]
    quiz = make_quiz(
        rules,
        quiz_stream(drawn),
        count=count,
        topics=topics,
        level=level,
        mastery=topic_mastery(store, "score"),
        reviews=due,
    )
    return quiz, drawn


@app.command()
def score(
    topic: TopicOpt = None,
    level: LevelOpt = None,
    count: CountOpt = 10,
    seed: SeedOpt = None,
    code: CodeOpt = None,
    save_result: SaveResultOpt = None,
    name: NameOpt = None,
    rules: RulesOpt = "classic",
    plain: PlainOpt = False,
    data_dir: DataDirOpt = None,
) -> None:
    """Scoring quizzes: what dice are worth, what can be set aside, Farkles, combinations.

    Each answer is graded at once with the split that explains it. Without --seed the quiz
    adapts: missed questions come back, mastered topics come up less. Ctrl-C or end of input
    stops early; every answer given is kept as training progress.
    Example: farkle-train score --topic combos --rules fixed
    """
    from farkle_trainer.training.classroom.results import quiz_answer
    from farkle_trainer.training.frontend import choose_frontend
    from farkle_trainer.training.quizzes.questions import QuizError
    from farkle_trainer.training.quizzes.quiz import parse_level, parse_topics, summarize
    from farkle_trainer.ui.views import quiz as view
    from farkle_trainer.ui.views.classroom import score_intro

    with user_errors():
        table = load(rules)
        try:
            topics = parse_topics(topic)
            fixed_level = parse_level(level)
        except QuizError as exc:
            fail(str(exc))
        entry = class_entry(code, seed=seed, save_result=save_result, name=name)
        class_code = entry.code if entry else None
        front = choose_frontend(plain)
        with open_store_or_explain(data_dir, plain=front.plain) as store, store_errors():
            quiz, used_seed = plan(
                store,
                table,
                seed=seed,
                count=count,
                topics=topics,
                level=fixed_level,
                code=class_code,
            )
            settings = {"topics": list(topics), "level": fixed_level, "count": count}
            if entry is None:
                front.say(view.intro_text(quiz, None if quiz.adaptive else used_seed))
                result = None
            else:
                front.say(score_intro(quiz, entry.code))
                result = entry.begin(front, "score", rules=table.name, settings=settings, planned=count)
            session = store.start_session(
                "score",
                rules=table.name,
                seed=used_seed,
                code=class_code,
                params={
                    "topics": list(topics),
                    "level": fixed_level,
                    "count": count,
                    "adaptive": quiz.adaptive,
                },
            )

            def record(a: Answered) -> None:
                record_answer(store, session, a)
                if result is not None:
                    result.add(quiz_answer(a))

            started = time.monotonic()
            history, exit_code = play_quiz(front, quiz, record)
            # Time spent by a pipe is no one's time: only answers typed on a terminal are timed.
            seconds = time.monotonic() - started if is_terminal(sys.stdin) else None
            if len(history) == quiz.count:
                store.finish_session(session)
    summary = summarize(quiz, history, seconds=seconds, rules_option=rules)
    front.show(view.summary_text(summary), lambda: view.summary_rich(summary))
    if result is not None:
        with user_errors():
            end_result(front, result, len(history) == quiz.count)
    if exit_code:
        raise typer.Exit(exit_code)
