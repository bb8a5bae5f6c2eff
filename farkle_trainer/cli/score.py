"""``score``: scoring quizzes, graded at once and explained, recorded as training progress."""

from __future__ import annotations

import sys
import time
from typing import Annotated

import typer

from farkle_trainer.cli.app import command_group
from farkle_trainer.cli.classcode import SessionOptions, end_result, start_session
from farkle_trainer.cli.completion import complete_topics
from farkle_trainer.cli.options import (
    count_option,
    json_option,
    level_option,
    one_of,
    seed_option,
    topic_option,
)
from farkle_trainer.cli.rules import load
from farkle_trainer.cli.storage import open_store_or_explain
from farkle_trainer.training.quizzes.topics import TOPICS
from farkle_trainer.ui.terminal import is_terminal

app = command_group()


TopicOpt = Annotated[
    list[str] | None,
    topic_option(f"{one_of(TOPICS)}; repeat it or use commas (default: all, mixed).", complete_topics),
]
LevelOpt = Annotated[
    str | None,
    level_option(
        "Fix the difficulty (default: each topic's level follows your progress; medium with --seed)."
    ),
]
CountOpt = Annotated[int, count_option("questions")]
SeedOpt = Annotated[
    int | None,
    seed_option(
        "A whole number: the same seed gives the same questions on any machine, whatever your "
        "progress, so a class can take one quiz."
    ),
]


SummaryJsonOpt = Annotated[
    bool,
    json_option(
        "Ask on standard error as usual, and print the summary, with every answer, as JSON on "
        "standard output at the end."
    ),
]


@app.command(short_help="Scoring quizzes: what dice are worth.")
def score(
    topic: TopicOpt = None,
    level: LevelOpt = None,
    count: CountOpt = 10,
    seed: SeedOpt = None,
    json: SummaryJsonOpt = False,
    *,
    options: SessionOptions,
) -> None:
    """Scoring quizzes: what dice are worth, what can be set aside, Farkles, combinations.

    Each answer is graded at once with the split that explains it. Without --seed the quiz
    adapts: missed questions come back, mastered topics come up less. Ctrl-C or end of input
    stops early; every answer given is kept as training progress.
    Example: farkle-train score --topic combos --rules fixed
    """
    from farkle_trainer.training.quizzes.quiz import parse_level, parse_topics, summarize
    from farkle_trainer.training.quizzes.session import KIND, plan, play_quiz
    from farkle_trainer.ui.aside import open_terminal_aside, print_data
    from farkle_trainer.ui.terminal import open_terminal
    from farkle_trainer.ui.views import quiz as view
    from farkle_trainer.ui.views.classroom import score_intro

    table = load(options.rules)
    topics = parse_topics(topic)
    fixed_level = parse_level(level)
    entry = options.class_entry("score", seed=seed)
    class_code = entry.code if entry else None
    front = open_terminal_aside(options.plain) if json else open_terminal(options.plain)
    with open_store_or_explain(options.data_dir, front) as store:
        quiz, used_seed = plan(
            store, table, seed=seed, count=count, topics=topics, level=fixed_level, code=class_code
        )
        settings = {"topics": list(topics), "level": fixed_level, "count": count}
        if entry is None:
            front.say(view.intro_text(quiz, None if quiz.adaptive else used_seed, fixed_level))
        else:
            front.say(score_intro(quiz, entry.code))
        session = start_session(
            store, KIND, table, count, entry, front, seed=used_seed, settings=settings, adaptive=quiz.adaptive
        )
        started = time.monotonic()
        rounds = play_quiz(front, view, quiz, session)
        history = rounds.results
        # Time spent by a pipe is no one's time: only answers typed on a terminal are timed.
        seconds = time.monotonic() - started if is_terminal(sys.stdin) else None
        if len(history) == quiz.count:
            session.finish()
    summary = summarize(quiz, history, seconds=seconds, rules_option=options.rules)
    front.show(view.summary_text(summary), lambda: view.summary_rich(summary))
    if json:
        context = {"activity": KIND, "rules": table.name, "seed": used_seed, "code": class_code}
        print_data(context | view.summary_data(summary, history))
    if session.result is not None:
        end_result(front, session.result, len(history) == quiz.count)
    if rounds.exit_code:
        raise typer.Exit(rounds.exit_code)
