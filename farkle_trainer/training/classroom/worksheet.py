"""Worksheets: a class code's questions on paper, with an answer key.

A worksheet for a code holds exactly the questions ``farkle-train score --code CODE`` (or
``decide --code CODE``) asks with the same count, topics, level and rules, so a class can
practise on paper and on screen alike. The key gives each answer as it would be typed, with
the explanation the quiz grading gives (for a decision, the exact value of the best play and
of the next best one). It comes after a page break, or goes to a file of its own.

Markdown marks the page break with ``<div style="page-break-after: always;"></div>``
(browsers and most Markdown-to-PDF tools honour it), and ends the lines of a question with a
backslash, CommonMark's line break; plain text breaks the page with a form feed, which
printers honour.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from farkle_trainer.training.classroom.codes import class_drills, class_quiz, normalize_code
from farkle_trainer.training.quizzes.questions import Question, points_text, spaced
from farkle_trainer.training.quizzes.quiz import fixed_questions, grade
from farkle_trainer.training.quizzes.topics import TOPICS, spec_of

if TYPE_CHECKING:
    from farkle_trainer.engine.decisions import Kind, Position
    from farkle_trainer.engine.rules import Rules
    from farkle_trainer.engine.tables import Tables
    from farkle_trainer.training.drills.drills import Level as DrillLevel
    from farkle_trainer.training.quizzes.questions import Level
    from farkle_trainer.training.quizzes.quiz import Answer

SheetKind = Literal["score", "decide"]
Format = Literal["markdown", "text"]

MARKDOWN_PAGE_BREAK = '<div style="page-break-after: always;"></div>'
TEXT_PAGE_BREAK = "\f"
BLANK = "__________"


@dataclass(frozen=True)
class Entry:
    """One question on the sheet: its lines, the space to answer in, and its key."""

    number: int
    lines: tuple[str, ...]
    blank: str
    answer: str
    why: tuple[str, ...]


@dataclass(frozen=True)
class Worksheet:
    """The questions of one code and activity, ready to print.

    ``items`` are the questions (or drill positions) themselves, in order; ``command`` is the
    command that asks the same ones on screen.
    """

    kind: SheetKind
    code: str
    rules: str
    description: str
    command: str
    entries: tuple[Entry, ...]
    items: tuple[Question | Position, ...]


# -- the answer to each question


def key_answer(q: Question) -> Answer:
    """The right answer to a quiz question, from the scoring table alone."""
    return spec_of(q.topic).key(q)


def typed(answer: Answer) -> str:
    """An answer as a student would type it: ``1,100``, ``yes``, ``1 5 5``."""
    if isinstance(answer, bool):
        return "yes" if answer else "no"
    if isinstance(answer, int):
        return points_text(answer)
    return spaced(answer)


_BLANKS = {"points": f"{BLANK} points", "yes-no": "yes / no", "dice": f"Set aside: {BLANK}"}


def _quiz_entry(number: int, q: Question) -> Entry:
    answer = key_answer(q)
    g = grade(q, answer)
    assert g.correct, f"the key's answer to {q.text!r} must be graded right"
    return Entry(number, (q.text,), _BLANKS[q.form], typed(answer), g.explanation)


def _drill_entry(tables: Tables, number: int, p: Position) -> Entry:
    from farkle_trainer.engine.decisions import decision_for, play_words
    from farkle_trainer.training.drills.words import measure, situation_lines, value_text

    d = decision_for(tables, p)
    best = d.best
    why = [f"{measure(p.unit).capitalize()} {value_text(best.value)}."]
    runner_up = next((c for c in d.choices[1:] if d.ranked.loss(c) > 0), None)
    if runner_up is not None:
        why.append(f"Next best: {play_words(p, runner_up)}, {value_text(runner_up.value)}.")
    lines = tuple(situation_lines(p)) + ((f"(A classic position: {p.title}.)",) if p.title else ())
    blank = "Bank / roll" if p.kept is not None else f"Keep {BLANK}, then bank / roll"
    return Entry(number, lines, blank, play_words(p, best), tuple(why))


# -- making a worksheet


def _command(words: Sequence[str]) -> str:
    return " ".join(shlex.quote(w) for w in words)


def _rules_words(rules: Rules, option: str | None) -> list[str]:
    """``--rules`` as the student must type it: a preset's name, or the rule file given."""
    given = option if option is not None else rules.name
    return [] if given.strip().lower() == "classic" else ["--rules", given]


def _sheet(
    kind: SheetKind,
    code: str,
    count: int,
    rules: Rules,
    rules_option: str | None,
    options: list[str],
    description: str,
    entries: Iterable[Entry],
    items: tuple[Question | Position, ...],
) -> Worksheet:
    """The sheet of ``items``, and the command that asks them on screen: ``farkle-train KIND
    --code CODE --count N``, then ``options`` and ``--rules``."""
    words = ["farkle-train", kind, "--code", code, "--count", str(count), *options]
    command = _command(words + _rules_words(rules, rules_option))
    return Worksheet(kind, code, rules.name, description, command, tuple(entries), items)


def score_sheet(
    code: str,
    rules: Rules,
    *,
    count: int,
    topics: Sequence[str] = TOPICS,
    level: Level | None = None,
    rules_option: str | None = None,
) -> Worksheet:
    """The questions of ``farkle-train score --code CODE`` with the same options.

    ``rules_option`` is what ``--rules`` was given (a rule file's path), repeated in the command.
    """
    code = normalize_code(code)
    quiz = class_quiz(code, rules, count=count, topics=topics, level=level)
    questions = tuple(fixed_questions(quiz))
    options = []
    if tuple(topics) != TOPICS:
        options += ["--topic", ",".join(t for t in TOPICS if t in topics)]
    if level is not None:
        options += ["--level", level]
    levels = " and ".join(sorted(set(quiz.levels.values())))
    many = f"{count} scoring question{'s' if count != 1 else ''}"
    description = f"{many} on {rules.name} rules ({levels} level)"
    entries = (_quiz_entry(i, q) for i, q in enumerate(questions, 1))
    return _sheet("score", code, count, rules, rules_option, options, description, entries, questions)


def decide_sheet(
    tables: Tables,
    code: str,
    rules: Rules,
    *,
    count: int,
    kinds: tuple[Kind, ...] | None = None,
    level: DrillLevel | None = None,
    rules_option: str | None = None,
    target_option: bool = False,
) -> Worksheet:
    """The decisions of ``farkle-train decide --code CODE`` with the same options.

    ``target_option``: the target was given on the command line, so the command on the
    sheet gives it too."""
    from farkle_trainer.engine.kinds import TURN_KINDS
    from farkle_trainer.training.drills.kinds import spec_of

    code = normalize_code(code)
    chosen = kinds or TURN_KINDS
    positions = tuple(class_drills(tables, code, rules, count=count, kinds=chosen, level=level))
    options = []
    if chosen != TURN_KINDS:
        options += ["--kind", ",".join(chosen)]
    if level is not None:
        options += ["--level", level]
    if target_option and any(spec_of(k).needs_target for k in chosen):
        options += ["--target", str(rules.target)]
    many = f"{count} bank-or-roll decision{'s' if count != 1 else ''}"
    if target_option or any(spec_of(k).needs_target for k in chosen):
        many += f" in games to {rules.target:,}"
    description = f"{many} on {rules.name} rules"
    entries = (_drill_entry(tables, i, p) for i, p in enumerate(positions, 1))
    return _sheet("decide", code, count, rules, rules_option, options, description, entries, positions)


# -- on paper


def _sheet_markdown(w: Worksheet) -> list[str]:
    out = [
        f"# Farkle worksheet {w.code}",
        "",
        f"{w.description[0].upper()}{w.description[1:]}. On screen: `{w.command}`",
        "",
        f"Name: {BLANK}{BLANK}",
        "",
    ]
    for e in w.entries:
        first, *rest = e.lines
        # Indented lines stay in the list item; a trailing backslash keeps each on a line of its
        # own, the answer space too, so it never runs on from the question.
        lines = [f"{e.number}. {first}", *(f"   {line}" for line in rest), f"   {e.blank}"]
        out += [line + "\\" for line in lines[:-1]] + [lines[-1], ""]
    return out


def _key_markdown(w: Worksheet) -> list[str]:
    out = [f"# Answer key: worksheet {w.code}", ""]
    for e in w.entries:
        out.append(f"{e.number}. **{e.answer}**. {' '.join(e.why)}")
    out.append("")
    return out


def _sheet_text(w: Worksheet) -> list[str]:
    out = [
        f"Farkle worksheet {w.code}: {w.description}.",
        f"On screen: {w.command}",
        "",
        f"Name: {BLANK}{BLANK}",
        "",
    ]
    width = len(str(len(w.entries)))
    for e in w.entries:
        pad = " " * (width + 2)
        first, *rest = e.lines
        out.append(f"{e.number:>{width}}. {first}")
        out += [f"{pad}{line}" for line in rest]
        out.append(f"{pad}{e.blank}")
        out.append("")
    return out


def _key_text(w: Worksheet) -> list[str]:
    out = [f"Answer key: worksheet {w.code}", ""]
    width = len(str(len(w.entries)))
    for e in w.entries:
        out.append(f"{e.number:>{width}}. {e.answer}")
        out += [f"{' ' * (width + 2)}{line}" for line in e.why]
    out.append("")
    return out


def sheet(w: Worksheet, fmt: Format = "markdown", *, key: bool = True) -> str:
    """The worksheet to hand out, and (with ``key``) its answer key after a page break."""
    if fmt == "markdown":
        lines = _sheet_markdown(w) + ([MARKDOWN_PAGE_BREAK, "", *_key_markdown(w)] if key else [])
    else:
        lines = _sheet_text(w) + ([TEXT_PAGE_BREAK + _key_text(w)[0], *_key_text(w)[1:]] if key else [])
    return "\n".join(lines).rstrip("\n") + "\n"


def answer_key(w: Worksheet, fmt: Format = "markdown") -> str:
    """The answer key alone, for a file of its own."""
    lines = _key_markdown(w) if fmt == "markdown" else _key_text(w)
    return "\n".join(lines).rstrip("\n") + "\n"
