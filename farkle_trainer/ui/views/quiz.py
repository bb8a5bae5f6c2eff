"""How a scoring quiz looks: its prompts, the feedback after each answer, and the summary.

Each has a plain view (lines of text for ``--plain``, a pipe or a screen reader) and a
rich view (a short panel on a terminal), built from the same data.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from farkle_trainer.engine.notation import labelled_roll
from farkle_trainer.training.quizzes.questions import Grade, Question
from farkle_trainer.training.quizzes.quiz import Answered, Quiz, Summary
from farkle_trainer.training.record import AnswerRecord

if TYPE_CHECKING:
    from rich.console import RenderableType

#: Shown before a question that comes back: missed earlier in this session, or due from an earlier one.
RETURNING = {"again": "(again) ", "review": "(review) "}


def intro_text(quiz: Quiz, seed: int | None, level: str | None = None) -> str:
    """``Scoring quiz: 10 questions on classic rules (seed 7, medium level).``"""
    many = f"{quiz.count} question{'s' if quiz.count != 1 else ''}"
    head = f"Scoring quiz: {many} on {quiz.rules.name} rules"
    if not quiz.adaptive:
        levels = sorted(set(quiz.levels.values()))
        return f"{head} (seed {seed}, {' and '.join(levels)} level)."
    due = len(quiz.reviews)
    review = f", {due} from earlier sessions" if due else ""
    if level is not None and set(quiz.levels.values()) == {level}:
        return f"{head} at {level} level, topics matched to your progress{review}."
    return f"{head}, matched to your progress{review}."


def prompt(q: Question, number: int, count: int, *, returning: str | None = None) -> str:
    """The question as asked: numbered, on one line (a yes/no question is told how to answer
    where it is asked)."""
    head = f"{number}/{count} {RETURNING.get(returning or '', '')}"
    if q.form == "dice":
        return f"{head}You rolled {labelled_roll(q.dice)}. Set aside the most points:"
    return f"{head}{q.text}"


def feedback_lines(g: Grade) -> list[str]:
    """The verdict with the first sentence of the explanation, then the rest; traps when wrong."""
    first, *rest = g.explanation
    return [f"{g.verdict} {first}", *rest, *(() if g.correct else g.notes)]


def feedback_text(g: Grade) -> str:
    return "\n".join(f"  {line}" for line in feedback_lines(g))


def feedback_rich(g: Grade) -> RenderableType:
    from rich.panel import Panel
    from rich.text import Text

    first, *rest = g.explanation
    body = Text()
    body.append(g.verdict + " ", style="bold")
    body.append(first)
    for line in rest:
        body.append("\n" + line)
    if not g.correct:
        for note in g.notes:
            body.append("\n" + note, style="yellow")
    colour = "green" if g.correct else "red"
    return Panel.fit(body, title="right" if g.correct else "wrong", title_align="left", border_style=colour)


def duration(seconds: float) -> str:
    """``42 s``, ``3 min 05 s``, ``1 h 02 min``."""
    total = round(seconds)
    if total < 60:
        return f"{total} s"
    minutes, secs = divmod(total, 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def summary_lines(s: Summary) -> list[str]:
    if not s.asked:
        return ["Stopped before the first answer: nothing was recorded."]
    if s.stopped:
        lines = [f"Stopped after {s.asked} of {s.count} questions: {s.right} right."]
    else:
        lines = [f"Score: {s.right} of {s.count} right."]
    if s.seconds is not None and s.per_question is not None:
        each = f", {s.per_question:.0f} s a question" if s.asked > 1 else ""
        lines.append(f"Time: {duration(s.seconds)}{each}.")
    if s.missed:
        missed = ", ".join(f"{t.topic} {t.asked - t.right} of {t.asked}" for t in s.missed)
        lines.append(f"Missed: {missed}.")
    if s.wrong:
        lines.append("Missed questions, with the right answers:")
        for a in s.wrong:
            lines.append(f"  {a.question.text} You said {a.grade.answer}; right: {a.grade.correct_answer}.")
    if s.suggestion is not None:
        lines.append(f"Next: {s.suggestion.command} ({s.suggestion.reason}).")
    lines.append("Kept as training progress (see farkle-train progress); nothing counts in stats.")
    return lines


def summary_text(s: Summary) -> str:
    return "\n".join(summary_lines(s))


def summary_rich(s: Summary) -> RenderableType:
    from rich.panel import Panel
    from rich.text import Text

    lines = summary_lines(s)
    body = Text(lines[0], style="bold")
    for line in lines[1:]:
        body.append("\n" + line, style="dim" if line.startswith("Kept as") else "")
    return Panel.fit(body, title="summary", title_align="left")


def summary_data(s: Summary, history: Sequence[Answered]) -> dict[str, Any]:
    """``score --json``: the summary, and every answer as a result file keeps it."""
    return {
        "count": s.count,
        "asked": s.asked,
        "right": s.right,
        "stopped": s.stopped,
        "seconds": s.seconds,
        "topics": [{"topic": t.topic, "asked": t.asked, "right": t.right} for t in s.topics],
        "answers": [AnswerRecord.of_quiz(a).numbered(i).entry() for i, a in enumerate(history, 1)],
        "next": None
        if s.suggestion is None
        else {"command": s.suggestion.command, "reason": s.suggestion.reason},
    }
