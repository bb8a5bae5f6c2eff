"""How classroom practice reads: coded sessions' lines, the challenge, and the class report.

The report has a plain view (lines for ``--plain``, a pipe or a screen reader), a rich
view (tables on a terminal) and CSV files for a spreadsheet, all built from the same
:class:`~farkle_trainer.training.classroom.codes.ClassReport`. Every string in it that comes
from a file (names, answers, questions, paths) goes through
:func:`~farkle_trainer.ui.views.safe.safe` on its way out.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable, Sequence
from operator import attrgetter
from typing import IO, TYPE_CHECKING, Any

from farkle_trainer.training.classroom.codes import ACTIVITY_NAMES
from farkle_trainer.training.classroom.report import (
    ClassReport,
    Problem,
    QuestionRow,
    Section,
    StudentRow,
    Unchecked,
)
from farkle_trainer.training.classroom.results import Result
from farkle_trainer.training.games.analysis import Review
from farkle_trainer.training.games.match import MatchState
from farkle_trainer.training.games.setup import SOLO_TURNS as TURNS
from farkle_trainer.ui.views.daily import HOW_TO_PLAY, game_over_lines, plural
from farkle_trainer.ui.views.engine import ev, points
from farkle_trainer.ui.views.fit import fit
from farkle_trainer.ui.views.records import columns
from farkle_trainer.ui.views.safe import safe

if TYPE_CHECKING:
    from rich.console import RenderableType

    from farkle_trainer.training.games.tenturns import Account
    from farkle_trainer.training.quizzes.quiz import Quiz


# -- coded sessions


def score_intro(quiz: Quiz, code: str) -> str:
    """``Scoring quiz: 10 questions on classic rules (class code MATH7B, medium level).``"""
    levels = " and ".join(sorted(set(quiz.levels.values())))
    many = plural(quiz.count, "question")
    return f"Scoring quiz: {many} on {quiz.rules.name} rules (class code {code}, {levels} level)."


def decide_intro(code: str, count: int, rules: str) -> str:
    return f"Bank-or-roll drills: {plural(count, 'decision')} on {rules} rules (class code {code})."


def challenge_intro(code: str) -> str:
    return "\n".join(
        [
            f"Farkle class challenge {code}: ten turns on the class's dice, the same for everyone.",
            "Practice: recorded as training progress, never in stats. No hints: everyone plays on their own.",
            f"{HOW_TO_PLAY} q stops.",
        ]
    )


def share_line(code: str, state: MatchState) -> str:
    """``Farkle class MATH7B: 4,550 in 10 turns | F . . H . . . . . .``: the game without spoilers."""
    marks = " ".join(state.marks)
    return f"Farkle class {code}: {points(state.banked)} in {len(state.marks)} turns | {marks}"


def challenge_summary(code: str, state: MatchState, split: Account, reviews: Sequence[Review]) -> str:
    out = game_over_lines(state, split, reviews)
    out.append("Practice: recorded as training progress, not in stats.")
    out.append(share_line(code, state))
    return "\n".join(out)


def challenge_stopped(code: str, state: MatchState) -> str:
    where = f"turn {min(state.turn, TURNS)} of {TURNS} with {points(state.banked)} banked"
    return f"Challenge stopped at {where}. To play it again from turn 1: farkle-train challenge {code}"


def challenge_kept(game: int, state: MatchState) -> str:
    """Where the challenge is kept, to look at again."""
    shown = "as it ended" if state.over else "up to where it stopped"
    return f"Kept as game {game} in farkle-train games: farkle-train review {game} shows it {shown}."


def _result_words(r: Result) -> str:
    if r.activity == "challenge":
        what = f"{points(r.score)} points" if r.complete else f"stopped with {points(r.score)} banked"
        lost = r.points_lost or 0.0
        return f"{what}, {ev(lost)} expected points given up"
    right = "best or fine" if r.activity == "decide" else "right"
    done = f"{r.right} of {r.planned} {right}"
    if not r.complete:
        done = f"stopped after {len(r.answers)} of {r.planned}, {r.right} {right}"
    losses = []
    if r.points_lost is not None:
        losses.append(f"{ev(r.points_lost)} points lost")
    if r.chance_lost is not None:
        losses.append(f"{r.chance_lost:.2f} percentage points of chances to pass or to win lost")
    return ", ".join([done, *losses])


def result_line(r: Result, *, saved_to: str | None, file_given: bool = False) -> str:
    """The one line that ends a coded session: what the result is, and where it went.

    ``file_given`` without ``saved_to``: a file was asked for but not written, and the error
    that follows says why, so the line does not suggest asking for one.
    """
    if not r.answers:
        return "Nothing was answered, so there is no result to hand in."
    who = f"{r.name}, " if r.name else ""
    line = f"Result for class {r.code}: {who}{ACTIVITY_NAMES[r.activity]}, {_result_words(r)}."
    if saved_to is not None:
        return f"{line} Saved to {saved_to} for your teacher."
    if file_given:
        return line
    return f"{line} To hand it in as a file, add --save-result FILE.json."


# -- a class code for the teacher


def code_commands(code: str) -> dict[str, str]:
    """What students and the teacher type with a fresh code, by what it is for."""
    return {
        "score": f"farkle-train score --code {code} --save-result NAME.json",
        "decide": f"farkle-train decide --code {code} --save-result NAME.json",
        "challenge": f"farkle-train challenge {code} --save-result NAME.json",
        "worksheet": f"farkle-train worksheet --code {code}",
        "report": "farkle-train class report FOLDER",
    }


def code_text(code: str) -> str:
    commands = code_commands(code)
    return "\n".join(
        [
            "Students type it in:",
            *(f"  {commands[activity]}" for activity in ("score", "decide", "challenge")),
            f"A worksheet with the same questions: {commands['worksheet']}",
            f"Then collect the result files in a folder and run: {commands['report']}",
        ]
    )


def code_data(code: str) -> dict[str, Any]:
    return {"code": code, "commands": code_commands(code)}


# -- the class report


def _score(s: StudentRow, activity: str) -> str:
    if activity == "challenge":
        return points(s.score)
    return f"{s.right} of {s.planned}"


def _accuracy(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _lost(value: float | None) -> str:
    return "-" if value is None else ev(value)


def _note(s: StudentRow, activity: str) -> str:
    if s.complete:
        return ""
    return "stopped before the end" if activity == "challenge" else f"stopped after {s.answered}"


def _has_points(section: Section) -> bool:
    return any(s.points_lost is not None for s in section.students)


def _has_chances(section: Section) -> bool:
    return any(s.chance_lost is not None for s in section.students)


def _has_notes(section: Section) -> bool:
    return any(not s.complete for s in section.students)


def student_columns(section: Section) -> list[str]:
    """The columns a section needs: a scoring quiz loses no points, only drills have final rounds."""
    accuracy = "best or fine" if section.activity == "challenge" else "accuracy"
    lost = ["points lost"] if _has_points(section) else []
    chance = ["chance lost"] if _has_chances(section) else []
    note = [""] if _has_notes(section) else []
    return ["student", "score", accuracy, *lost, *chance, *note]


def student_cells(section: Section, s: StudentRow) -> list[str]:
    """A student's row; a final round's lost chance, in percentage points, has a column of its own."""
    a = section.activity
    lost = [_lost(s.points_lost)] if _has_points(section) else []
    chance = [_chance(s.chance_lost)] if _has_chances(section) else []
    note = [_note(s, a)] if _has_notes(section) else []
    return [safe(s.name), _score(s, a), _accuracy(s.accuracy), *lost, *chance, *note]


def _chance(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f} pp"


def section_heading(section: Section) -> str:
    name = ACTIVITY_NAMES[section.activity]
    rules = safe(section.rules)
    return f"{name[0].upper()}{name[1:]} ({rules} rules): {plural(len(section.students), 'student')}."


def perfect_play_lines(section: Section) -> list[str]:
    """A challenge's two figures of perfect play, each named for what it is."""
    out = []
    if section.perfect_play_expected is not None:
        expected = ev(section.perfect_play_expected)
        out.append(
            f"Perfect play is expected to score {expected} over {TURNS} turns (an average over all dice)."
        )
    if section.solver_game_score is not None:
        out.append(
            f"The solver's own game on the class's dice scored {points(section.solver_game_score)}: "
            "one game, not a ceiling."
        )
    return out


def questions_heading(section: Section) -> str:
    if section.activity == "challenge":
        if section.min_asked > 1:
            # Each player's rolls follow their own choices, so numbers skip the positions one met alone.
            return (
                "Positions met by two or more students (rolls depend on each player's choices), "
                "numbered by the decision where they first came:"
            )
        return "Positions met:"
    return "Questions:"


def question_lines(section: Section, q: QuestionRow) -> list[str]:
    best = "Best" if section.activity != "score" else "Answer"
    right = f"Right: {q.right} of {q.asked}." if section.activity == "score" else None
    if right is None:
        # A decision counts as right when it is the best play or a fine one (see grading).
        right = f"Best or fine: {q.right} of {q.asked}."
    if q.common_wrong is not None:
        right += f" Most common wrong answer: {_wrong(q)}."
    question = _sentence(safe(q.question))
    return [f"{q.number:>4}. {question} {best}: {safe(q.correct_answer)}.", f"      {right}"]


def _sentence(text: str) -> str:
    """A question as a sentence of its own: a drill's ends with the roll ("You roll 3 dice:
    3 4 1"), which would run into the answer after it."""
    return text if text.endswith((".", "?", "!")) else f"{text}."


def _wrong(q: QuestionRow) -> str:
    return (
        ""
        if q.common_wrong is None
        else f"{safe(q.common_wrong)} ({plural(q.common_wrong_count, 'student')})"
    )


def problem_line(p: Problem) -> str:
    """A file left out, and why: its path and any name in the message are shown escaped."""
    return safe(p.line)


UNCHECKED_HEADING = "Not checked, so not counted (no score, in no count or total):"


def unchecked_line(u: Unchecked) -> str:
    """``ana.json: Ana, scoring quiz: not verifiable (older format)``, escaped."""
    return safe(f"{u.path}: {u.name}, {ACTIVITY_NAMES[u.activity]} ({u.rules} rules): {u.reason}")


def headline(report: ClassReport) -> str:
    parts = [f"{plural(report.counted, 'result')} counted"]
    if report.unchecked:
        parts.append(f"{plural(len(report.unchecked), 'result')} not checked")
    if report.problems:
        parts.append(f"{plural(len(report.problems), 'file')} left out:")
    code = report.code or "(none)"
    return f"Class {code}: {'; '.join(parts)}" + ("" if report.problems else ".")


def report_lines(report: ClassReport) -> list[str]:
    out = [headline(report)]
    out += [f"  {problem_line(p)}" for p in report.problems]
    if report.unchecked:
        out += ["", UNCHECKED_HEADING, *(f"  {unchecked_line(u)}" for u in report.unchecked)]
    for section in report.sections:
        out += ["", section_heading(section), *perfect_play_lines(section)]
        rows = [student_columns(section)] + [student_cells(section, s) for s in section.students]
        out += [line.rstrip() for line in columns(rows)]
        out += ["", questions_heading(section)]
        for q in section.questions:
            out += question_lines(section, q)
    return out


def report_text(report: ClassReport) -> str:
    return "\n".join(report_lines(report))


def report_rich(report: ClassReport) -> RenderableType:
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    parts: list[RenderableType] = [Text(headline(report), style="bold")]
    for p in report.problems:
        parts.append(Text(f"  {problem_line(p)}", style="yellow"))
    if report.unchecked:
        parts += [Text(""), Text(UNCHECKED_HEADING, style="bold yellow")]
        parts += [Text(f"  {unchecked_line(u)}", style="yellow") for u in report.unchecked]
    for section in report.sections:
        # The heading is its own line: as a table title it would wrap at the narrow table's width.
        students = Table()
        for i, column in enumerate(student_columns(section)):
            students.add_column(column, justify="left" if i == 0 else "right")
        for s in section.students:
            # Text, not str: a cell given as str is read as rich markup, and names are not.
            students.add_row(*(Text(c) for c in student_cells(section, s)))
        questions = Table(title=questions_heading(section), title_justify="left")
        questions.add_column("#", justify="right")
        questions.add_column("question")
        questions.add_column("answer" if section.activity == "score" else "best play")
        questions.add_column("right" if section.activity == "score" else "played best", justify="right")
        questions.add_column("most common wrong answer")
        for q in section.questions:
            style = "red" if q.asked and q.right / q.asked < 0.5 else ""
            cells = (
                str(q.number),
                safe(q.question),
                safe(q.correct_answer),
                f"{q.right} of {q.asked}",
                _wrong(q),
            )
            questions.add_row(*(Text(c) for c in cells), style=style)
        parts += [Text(""), Text(section_heading(section), style="bold")]
        parts += [Text(line) for line in perfect_play_lines(section)]
        parts += [students, questions]
    return fit(Group(*parts), report_text(report))


# -- data for other programs: CSV for a spreadsheet, JSON

STUDENT_FIELDS = (
    "code",
    "activity",
    "rules",
    "name",
    "score",
    "right",
    "answered",
    "planned",
    "accuracy_percent",
    "points_lost",
    "chance_lost_percentage_points",
    "complete",
    "perfect_play_expected",
    "solver_game_score",
    "checked",
    "file",
)
QUESTION_FIELDS = (
    "code",
    "activity",
    "rules",
    "number",
    "question",
    "item",
    "correct_answer",
    "asked",
    "right",
    "common_wrong_answer",
    "common_wrong_count",
)


def _cell(value: Any) -> Any:
    """A value as a spreadsheet should take it: controls escaped, text that looks like a formula quoted."""
    if isinstance(value, str):
        value = safe(value)
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "" if value is None else value


def _write(
    stream: IO[str],
    fields: Sequence[str],
    report: ClassReport,
    rows: Callable[[Section], Iterable[Sequence[Any]]],
    after: Iterable[Sequence[Any]] = (),
) -> int:
    """Write the header ``fields``, then each of ``rows(section)`` after the report's code and
    the section's activity and rules, then the rows ``after`` (whole); returns how many rows
    were written."""
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(fields)
    n = 0
    for sec in report.sections:
        for row in rows(sec):
            writer.writerow([_cell(v) for v in (report.code, sec.activity, sec.rules, *row)])
            n += 1
    for row in after:
        writer.writerow([_cell(v) for v in row])
        n += 1
    return n


def _expected(section: Section) -> str | None:
    """Perfect play's expectation as every view shows it: to the hundredth."""
    return None if section.perfect_play_expected is None else f"{section.perfect_play_expected:.2f}"


def _student_row(section: Section, s: StudentRow) -> tuple[Any, ...]:
    return (
        s.name,
        s.score,
        s.right,
        s.answered,
        s.planned,
        "" if s.accuracy is None else f"{100 * s.accuracy:.1f}",
        "" if s.points_lost is None else f"{s.points_lost:.2f}",
        "" if s.chance_lost is None else f"{s.chance_lost:.2f}",
        s.complete,
        _expected(section),
        section.solver_game_score,
        "yes",
        s.path,
    )


def _unchecked_row(code: str | None, u: Unchecked) -> tuple[Any, ...]:
    """A result nothing could check: named, with why, and every figure empty so no sum takes it."""
    blank = ("",) * (STUDENT_FIELDS.index("checked") - STUDENT_FIELDS.index("score"))
    return (code, u.activity, u.rules, u.name, *blank, u.reason, u.path)


_QUESTION_CELLS = attrgetter("number", "question", "item", "correct_answer", "asked", "right", "common_wrong")


def students_csv(report: ClassReport, stream: IO[str]) -> int:
    """One row per student and activity (the gradebook), the results nothing could check last;
    returns how many rows were written."""
    return _write(
        stream,
        STUDENT_FIELDS,
        report,
        lambda sec: (_student_row(sec, s) for s in sec.students),
        after=(_unchecked_row(report.code, u) for u in report.unchecked),
    )


def questions_csv(report: ClassReport, stream: IO[str]) -> int:
    """One row per question and activity; returns how many rows were written."""
    return _write(
        stream,
        QUESTION_FIELDS,
        report,
        lambda sec: ((*_QUESTION_CELLS(q), q.common_wrong_count or "") for q in sec.questions),
    )


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def report_data(report: ClassReport) -> dict[str, Any]:
    """The report for other programs: the names of the CSV's columns, the figures of the report.

    Text from files is as the files hold it (JSON escapes what needs escaping).
    """
    return {
        "code": report.code,
        "counted": report.counted,
        "sections": [_section_data(sec) for sec in report.sections],
        "not_checked": [
            {"name": u.name, "activity": u.activity, "rules": u.rules, "reason": u.reason, "file": u.path}
            for u in report.unchecked
        ],
        "left_out": [{"file": p.path, "kind": p.kind, "reason": p.message} for p in report.problems],
    }


def _section_data(sec: Section) -> dict[str, Any]:
    return {
        "activity": sec.activity,
        "rules": sec.rules,
        "perfect_play_expected": _rounded(sec.perfect_play_expected),
        "solver_game_score": sec.solver_game_score,
        "students": [
            {
                "name": s.name,
                "score": s.score,
                "right": s.right,
                "answered": s.answered,
                "planned": s.planned,
                "accuracy": s.accuracy,
                "points_lost": s.points_lost,
                "chance_lost": s.chance_lost,
                "complete": s.complete,
                "file": s.path,
            }
            for s in sec.students
        ],
        "questions": [
            {
                "number": q.number,
                "question": q.question,
                "item": q.item,
                "correct_answer": q.correct_answer,
                "asked": q.asked,
                "right": q.right,
                "common_wrong_answer": q.common_wrong,
                "common_wrong_count": q.common_wrong_count,
            }
            for q in sec.questions
        ],
    }
