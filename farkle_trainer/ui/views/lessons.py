"""How lessons look: the list with each lesson's status, and one lesson."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from farkle_trainer.training.lessons import Lesson
from farkle_trainer.ui.views.fit import fit, wrap

if TYPE_CHECKING:
    from markdown_it.token import Token
    from rich.console import Console, ConsoleOptions, RenderableType, RenderResult

#: A lesson's status for a learner, from training progress.


def list_text(
    lessons: tuple[Lesson, ...], status: dict[int, str], rules_name: str, width: int | None = None
) -> str:
    """One line a lesson; where that is wider than ``width``, its drill on a line of its own."""
    out = [f"Lessons ({rules_name} rules). Read one with: farkle-train learn NUMBER", ""]
    rows = [f"  {n.number}. {n.title:<30} {status[n.number]:<10} {n.practice}" for n in lessons]
    if width is None or max(len(row) for row in rows) <= width:
        return "\n".join([*out, *rows])
    for lesson in lessons:
        out += [f"  {lesson.number}. {lesson.title} ({status[lesson.number]})", f"     {lesson.practice}"]
    return "\n".join(out)


def list_data(lessons: tuple[Lesson, ...], status: dict[int, str], rules_name: str) -> dict[str, Any]:
    """``learn --json``: each lesson with the learner's status (``new``, ``read``, ``practised``)."""
    return {
        "rules": rules_name,
        "lessons": [
            {
                "number": n.number,
                "name": n.slug,
                "title": n.title,
                "status": status[n.number],
                "practice": n.practice,
            }
            for n in lessons
        ],
    }


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
    return fit(table, lambda width: list_text(lessons, status, rules_name, width))


def lesson_text(markdown: str) -> str:
    """A lesson as plain text: no Markdown syntax left for a screen reader to read aloud.

    Headings become lines of their own, emphasis and code marks are dropped, tables become
    aligned columns, list items keep a ``- `` (or ``1. ``) mark, and code blocks (the
    commands to try) are indented.
    """
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").enable("table").parse(markdown)
    blocks: list[list[str]] = []
    lists: list[list[int]] = []  # per open list: [next number], or [] for a bullet list
    listing: list[str] = []  # the lines of the outermost open list
    table: list[list[str]] = []
    in_cell = False
    mark = ""
    for token in tokens:
        kind = token.type
        if kind in ("bullet_list_open", "ordered_list_open"):
            if not lists:
                listing = []
            start = token.attrs.get("start", 1) if kind == "ordered_list_open" else None
            lists.append([] if start is None else [int(start)])
        elif kind in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
            if not lists:
                blocks.append(listing)
        elif kind == "list_item_open":
            counter = lists[-1]
            mark = f"{counter[0]}. " if counter else "- "
            if counter:
                counter[0] += 1
        elif kind == "table_open":
            table = []
        elif kind == "tr_open":
            table.append([])
        elif kind in ("th_open", "td_open"):
            in_cell = True
        elif kind in ("th_close", "td_close"):
            in_cell = False
        elif kind == "table_close":
            blocks.append(_aligned(table))
        elif kind == "inline":
            text = _inline_text(token.children or [])
            if in_cell:
                table[-1].append(text)
            elif lists:
                indent = "  " * (len(lists) - 1)
                first, *rest = text.split("\n")
                lead = mark or " " * 2
                listing.append(indent + lead + first)
                listing += [indent + " " * len(lead) + line for line in rest]
                mark = ""
            else:
                blocks.append(text.split("\n"))
        elif kind in ("code_block", "fence"):
            blocks.append(["    " + line for line in token.content.rstrip("\n").split("\n")])
    return "\n\n".join("\n".join(block) for block in blocks if block)


def _inline_text(children: list[Token]) -> str:
    """An inline run without its marks: emphasis and code marks dropped, soft breaks as spaces."""
    out = []
    for child in children:
        kind = child.type
        if kind in ("text", "code_inline", "html_inline"):
            out.append(child.content)
        elif kind == "softbreak":
            out.append(" ")
        elif kind == "hardbreak":
            out.append("\n")
    return "".join(out)


def _aligned(rows: list[list[str]]) -> list[str]:
    """Table rows as columns padded to their widest cell, two spaces apart."""
    if not rows:
        return []
    widths = [max(len(r[c]) for r in rows if c < len(r)) for c in range(max(len(r) for r in rows))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=False)).rstrip() for r in rows]


def lesson_rich(markdown: str) -> RenderableType:
    return _LessonView(markdown)


class _LessonView:
    """A lesson drawn as Markdown, or as its plain text where the screen is too narrow for a
    table in it (rich would cut the table's numbers short with "…")."""

    def __init__(self, markdown: str) -> None:
        self.markdown = markdown

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.markdown import Markdown
        from rich.segment import Segment
        from rich.text import Text

        lines = console.render_lines(Markdown(self.markdown), options, pad=False)
        if any("…" in segment.text for line in lines for segment in line):
            for text in lesson_text(self.markdown).split("\n"):
                yield from wrap(Text(text), options.max_width)
            return
        for segments in lines:
            yield from segments
            yield Segment.line()
