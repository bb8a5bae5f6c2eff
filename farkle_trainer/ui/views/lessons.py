"""How lessons look: the list with each lesson's status, and one lesson."""

from __future__ import annotations

from typing import TYPE_CHECKING

from farkle_trainer.training.lessons import Lesson

if TYPE_CHECKING:
    from rich.console import RenderableType

#: A lesson's status for a learner, from training progress.


def list_text(lessons: tuple[Lesson, ...], status: dict[int, str], rules_name: str) -> str:
    out = [f"Lessons ({rules_name} rules). Read one with: farkle-train learn NUMBER", ""]
    for lesson in lessons:
        out.append(f"  {lesson.number}. {lesson.title:<30} {status[lesson.number]:<10} {lesson.practice}")
    return "\n".join(out)


def list_rich(lessons: tuple[Lesson, ...], status: dict[int, str], rules_name: str) -> RenderableType:
    from rich.table import Table

    table = Table(
        title=f"Lessons ({rules_name} rules)",
        title_justify="left",
        caption="Read one with: farkle-train learn NUMBER",
        caption_justify="left",
    )
    table.add_column("#", justify="right")
    table.add_column("lesson")
    table.add_column("status")
    table.add_column("practise with")
    styles = {"new": "bold", "read": "yellow", "practised": "green"}
    for lesson in lessons:
        state = status[lesson.number]
        table.add_row(str(lesson.number), lesson.title, f"[{styles[state]}]{state}[/]", lesson.practice)
    return table


def lesson_rich(markdown: str) -> RenderableType:
    from rich.markdown import Markdown

    return Markdown(markdown)
