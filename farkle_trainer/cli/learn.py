"""``learn``: the lessons, with their figures filled in for the chosen rules."""

from __future__ import annotations

import os
import shlex
from typing import Annotated

import typer

from farkle_trainer.cli.app import command_group
from farkle_trainer.cli.errors import fail
from farkle_trainer.cli.options import DataDirOpt, PenaltyOpt, PlainOpt, RulesOpt, argument, json_option
from farkle_trainer.cli.params import number_or_text
from farkle_trainer.cli.rules import load, with_penalty
from farkle_trainer.cli.storage import open_store_or_explain
from farkle_trainer.ui.terminal import InteractiveFrontend, open_terminal

app = command_group()


def complete_lesson(incomplete: str) -> list[tuple[str, str]]:
    """What the shell offers for LESSON: the lessons' names (their numbers, once a digit is
    typed), each with its title where the shell shows one."""
    from farkle_trainer.training.lessons import all_lessons

    by_number = incomplete[:1].isdigit()
    offered = [(str(x.number) if by_number else x.slug, x.title) for x in all_lessons()]
    return [(word, title) for word, title in offered if word.startswith(incomplete.lower())]


LessonArg = Annotated[
    str | None, argument("LESSON", "A lesson's number or name; none lists them all.", complete_lesson)
]


@app.command(short_help="Lessons, each ending in its drill.")
def learn(
    lesson: LessonArg = None,
    rules: RulesOpt = "classic",
    penalty: PenaltyOpt = None,
    plain: PlainOpt = False,
    data_dir: DataDirOpt = None,
    json: Annotated[
        bool, json_option("Print the list of lessons, with your status in each, as JSON.")
    ] = False,
) -> None:
    """Lessons from the rules to good strategy, each ending in the drill that practises it.

    Example: farkle-train learn 3 --rules fixed
    """
    from farkle_trainer.training.lessons import (
        all_lessons,
        find_lesson,
        lesson_status,
    )
    from farkle_trainer.training.progress import load_progress
    from farkle_trainer.ui.views import lessons as render_lessons

    if json and lesson is not None:
        fail("--json lists the lessons: leave out LESSON (a lesson is read as text)")
    out = open_terminal(plain)
    table = with_penalty(load(rules), penalty)
    chosen = find_lesson(number_or_text(lesson)) if lesson is not None else None
    text = ""
    if chosen is not None:
        from farkle_trainer.cli.storage import solved_tables
        from farkle_trainer.training.solving import solve_all
        from farkle_trainer.ui.progress import solving

        tables = solved_tables(data_dir)
        # A lesson's game figures under other rules need their game solved first: said at once.
        needs = chosen.needs(tables, table)
        with solving(out, tables, needs) as told:
            solve_all(tables, needs, told)
            text = chosen.render(tables, table)
    store = open_store_or_explain(data_dir, out)
    with store:
        if chosen is None:
            lessons = all_lessons()
            progress = load_progress(store, detailed=False)
            status = lesson_status(
                lessons, store.lessons_read(), {(t.kind, t.topic) for t in progress.topics}
            )
            if json:
                out.json(render_lessons.list_data(lessons, status, table.name))
                return
            out.show(
                render_lessons.list_text(lessons, status, table.name),
                lambda: render_lessons.list_rich(lessons, status, table.name),
            )
            return
        store.record_lesson(chosen.number, chosen.slug, rules=table.name)
    if not isinstance(out, InteractiveFrontend):
        out.lines(render_lessons.lesson_text(text))
        return
    console = out.console
    renderable = render_lessons.lesson_rich(text)
    if len(console.render_lines(renderable, console.options)) > console.height:
        # The pager is less, which shows colour codes as text unless told -R.
        os.environ["LESS"] = f"{os.environ.get('LESS', '')} -R".strip()
        with console.pager(styles=True):
            console.print(renderable)
    else:
        console.print(renderable)
    if out.confirm(f"Start {chosen.practice} now?"):
        args = shlex.split(chosen.practice)[1:]
        if rules != "classic":
            args += ["--rules", rules]
        if penalty is not None and args[:1] == ["decide"]:
            args += ["--penalty", penalty]
        if data_dir is not None:
            args += ["--data-dir", str(data_dir)]
        from farkle_trainer.cli.app import app as farkle_train

        raise typer.Exit(farkle_train(args, standalone_mode=False) or 0)
