"""The class report: a pile of result files read into plain data for the teacher.

:func:`class_report` gives a row per student (score, accuracy, points lost), a row per
question (how many got it right, the most common wrong answer), the results that could not be
checked (listed apart: no score, and in no count or total) and one line for each file that could
not be counted.

A challenge has two figures of perfect play, named for what each is: what perfect play is
expected to score over ten turns (an expectation over all dice, the same for every class), and
what the solver's own game on the class's dice scored (one sample: luckier or unluckier dice
than average, so a student can beat it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from farkle_trainer.training.classroom.codes import (
    ACTIVITIES,
    ACTIVITY_NAMES,
    Activity,
    normalize_code,
    same_student,
)
from farkle_trainer.training.classroom.results import (
    ProblemKind,
    Result,
    ResultError,
    read_result,
)
from farkle_trainer.training.classroom.verify import verify
from farkle_trainer.training.games.setup import SOLO_TURNS as TURNS
from farkle_trainer.training.games.setup import for_challenge
from farkle_trainer.training.games.tenturns import expected_turn, perfect_play
from farkle_trainer.training.record import AnswerRecord

if TYPE_CHECKING:
    from farkle_trainer.engine.tables import Tables


@dataclass(frozen=True)
class Problem:
    """A file left out of the report, and why, in words for the teacher."""

    path: str
    kind: ProblemKind
    message: str

    @property
    def line(self) -> str:
        return f"{self.path}: {self.message}"


@dataclass(frozen=True)
class StudentRow:
    """One student's checked result: ``score`` as :class:`Result` has it, ``right`` of ``answered``."""

    name: str
    path: str
    answered: int
    planned: int
    right: int
    score: int
    accuracy: float | None
    points_lost: float | None
    chance_lost: float | None
    complete: bool


@dataclass(frozen=True)
class Unchecked:
    """A result read but not checked against its code's questions (an older format, a table
    that is not a preset): listed with why, never scored, and in no count or total."""

    path: str
    name: str
    activity: Activity
    rules: str
    reason: str


@dataclass(frozen=True)
class QuestionRow:
    """One question across the class: how many met it, how many got it right, the usual slip.

    ``number`` is where it came in the session (the first place any student met it).
    ``common_wrong`` is the wrong answer given most often (first met on a tie), with how
    many gave it; None when nobody got it wrong.
    """

    number: int
    question: str
    item: str
    correct_answer: str
    asked: int
    right: int
    common_wrong: str | None
    common_wrong_count: int


@dataclass(frozen=True)
class Section:
    """The results of one activity under one rule set."""

    activity: Activity
    rules: str
    students: tuple[StudentRow, ...]
    questions: tuple[QuestionRow, ...]
    #: Positions met by fewer students are left out of a challenge's questions (its rolls
    #: depend on each player's choices).
    min_asked: int = 1
    #: A challenge's: what perfect play is expected to score over its ten turns.
    perfect_play_expected: float | None = None
    #: A challenge's: what the solver's own game on the class's dice scored, played again on
    #: the code's dice (never a file's figure).
    solver_game_score: int | None = None


@dataclass(frozen=True)
class ClassReport:
    """The report of one class code: a section per activity and rule set, and the files left out."""

    code: str | None
    sections: tuple[Section, ...]
    problems: tuple[Problem, ...]
    unchecked: tuple[Unchecked, ...] = ()

    @property
    def counted(self) -> int:
        """Results checked and counted: those in the sections."""
        return sum(len(s.students) for s in self.sections)


def result_files(paths: Iterable[Path]) -> tuple[list[Path], list[Problem]]:
    """The files to read: each file named, and every ``*.json`` in a folder (and its subfolders).

    A file met twice (named and in a folder) is read once. A path that does not exist is a problem.
    """
    found: list[Path] = []
    problems: list[Problem] = []
    seen: set[Path] = set()

    def add(p: Path) -> None:
        key = p.resolve()
        if key not in seen:
            seen.add(key)
            found.append(p)

    for path in paths:
        if path.is_dir():
            named = sorted(
                (p for p in path.rglob("*") if p.suffix.lower() == ".json"),
                key=lambda p: str(p.relative_to(path)).casefold(),
            )
            inside = [p for p in named if p.is_file()]
            if not inside:
                problems.append(Problem(str(path), "unreadable", "a folder with no .json files"))
            for p in inside:
                add(p)
            for p in named:
                if not p.is_file():
                    # Named like a result but never read: a FIFO would wait, a device never end.
                    problems.append(Problem(str(p), "unreadable", _not_a_file(p)))
        elif path.exists():
            add(path)
        else:
            problems.append(Problem(str(path), "unreadable", "no such file or folder"))
    return found, problems


def _not_a_file(path: Path) -> str:
    if path.is_symlink() and not path.exists():
        return "a link to nothing: not a result file"
    if path.is_dir():
        return "a folder, not a result file"
    return "not a regular file: not a result file"


def class_report(tables: Tables, paths: Sequence[Path], code: str | None = None) -> ClassReport:
    """Read result files and folders into the report of one class code.

    The report's code is ``code`` when given, else the code most files carry (the first
    file's on a tie). Each result is graded again (:func:`verify`). Each file that cannot be
    counted becomes a :class:`Problem` and the rest are still reported: not JSON, not a
    result, tampered, claims that its answers do not bear out, another code, or the same
    student's second result for an activity (the one started first is counted).
    """
    files, problems = result_files(paths)
    read: list[tuple[str, Result]] = []
    unverified: dict[str, str] = {}
    for path in files:
        try:
            r = read_result(path)
            if note := verify(tables, r):
                unverified[str(path)] = note
            read.append((str(path), r))
        except ResultError as exc:
            problems.append(Problem(str(path), exc.kind, str(exc)))
    return build_report(
        tables, read, problems, code=code, order=[str(p) for p in files], unverified=unverified
    )


def build_report(
    tables: Tables,
    results: Sequence[tuple[str, Result]],
    problems: Sequence[Problem] = (),
    *,
    code: str | None = None,
    order: Sequence[str] | None = None,
    unverified: Mapping[str, str] | None = None,
) -> ClassReport:
    """The report over results already read (``(path, result)`` pairs).

    ``problems`` are files already found unreadable; ``order`` the paths in the order they were
    read, which the problems follow (default: the order of ``results``); ``unverified`` why
    a path's result could not be checked.
    """
    found = list(problems)
    wanted = normalize_code(code) if code else _most_common([r.code for _, r in results])
    kept: list[tuple[str, Result]] = []
    for path, r in results:
        if r.code != wanted:
            found.append(
                Problem(path, "other-code", f"a result for class code {r.code}, not {wanted}: left out")
            )
        else:
            kept.append((path, r))
    first: dict[tuple[str, str], tuple[str, Result]] = {}
    for path, r in sorted(kept, key=lambda pr: pr[1].started):
        key = (r.activity, same_student(r.name or ""))
        if key in first:
            earlier, counted_result = first[key]
            who = counted_result.name or "a student with no name"
            if r == counted_result:
                why = f"a copy of {earlier}, which is counted"
            else:
                why = (
                    f"{who} already has a {ACTIVITY_NAMES[r.activity]} result in {earlier} "
                    "(the one started first by its own clock is counted: check with the student)"
                )
            found.append(Problem(path, "duplicate", why))
        else:
            first[key] = (path, r)
    counted = [pr for pr in kept if first.get((pr[1].activity, same_student(pr[1].name or ""))) == pr]
    why_not = unverified or {}
    groups: dict[tuple[str, str], list[tuple[str, Result]]] = {}
    for path, r in counted:
        if path not in why_not:
            groups.setdefault((r.activity, r.rules), []).append((path, r))
    rank: dict[str, int] = {a: i for i, a in enumerate(ACTIVITIES)}
    sections = tuple(
        _section(tables, activity, rules, group)  # type: ignore[arg-type]
        for (activity, rules), group in sorted(groups.items(), key=lambda kv: (rank[kv[0][0]], kv[0][1]))
    )
    unchecked = tuple(
        sorted(
            (
                Unchecked(path, r.name or "(no name)", r.activity, r.rules, why_not[path])
                for path, r in counted
                if path in why_not
            ),
            key=lambda u: (rank[u.activity], same_student(u.name), u.path),
        )
    )
    place = {path: i for i, path in enumerate(order if order is not None else [p for p, _ in results])}
    # Paths that were never read (a missing file) come first, in the order they were named.
    found.sort(key=lambda p: place.get(p.path, -1))
    return ClassReport(code=wanted, sections=sections, problems=tuple(found), unchecked=unchecked)


def _most_common(codes: Sequence[str]) -> str | None:
    if not codes:
        return None
    counts = Counter(codes)
    top = max(counts.values())
    return next(c for c in codes if counts[c] == top)


def _section(tables: Tables, activity: Activity, rules: str, group: Sequence[tuple[str, Result]]) -> Section:
    """The section of checked results ``group``: a result nothing could check is never in one."""
    students = tuple(
        sorted(
            (
                StudentRow(
                    name=r.name or "(no name)",
                    path=path,
                    answered=len(r.answers),
                    planned=r.planned,
                    right=r.right,
                    score=r.score,
                    accuracy=r.accuracy,
                    points_lost=r.points_lost,
                    chance_lost=r.chance_lost,
                    complete=r.complete,
                )
                for path, r in group
            ),
            key=lambda s: (same_student(s.name), s.path),
        )
    )
    by_item: dict[str, list[AnswerRecord]] = {}
    for _, r in sorted(group, key=lambda pr: same_student(pr[1].name or "")):
        for a in r.answers:
            by_item.setdefault(a.item, []).append(a)
    min_asked = 2 if activity == "challenge" and len(group) > 1 else 1
    rows = []
    for first_seen, (item, answers) in enumerate(by_item.items()):
        if len(answers) < min_asked:
            continue
        wrong = Counter(a.answer for a in answers if not a.correct)
        common = wrong.most_common(1)[0] if wrong else None
        rows.append(
            (
                min(a.number for a in answers),
                first_seen,
                QuestionRow(
                    number=min(a.number for a in answers),
                    question=answers[0].question,
                    item=item,
                    correct_answer=answers[0].correct_answer,
                    asked=len(answers),
                    right=sum(a.correct for a in answers),
                    common_wrong=common[0] if common else None,
                    common_wrong_count=common[1] if common else 0,
                ),
            )
        )
    rows.sort(key=lambda r: r[:2])
    if activity != "challenge":
        return Section(activity, rules, students, tuple(r[2] for r in rows), min_asked)
    return Section(
        activity,
        rules,
        students,
        tuple(r[2] for r in rows),
        min_asked,
        perfect_play_expected=TURNS * expected_turn(tables),
        solver_game_score=perfect_play(tables, for_challenge(group[0][1].code).source()),
    )
