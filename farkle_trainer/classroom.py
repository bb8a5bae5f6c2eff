"""Classroom practice: class codes, result files and the class report.

A class code names one set of questions for everyone who types it, like a seed given as
text. Codes are case-insensitive, spaces and hyphens in them are ignored, and they hold 3
to 12 letters and digits (``math 7b``, ``MATH-7B`` and ``MATH7B`` are one code). Each
activity draws from its own stream of the code (:func:`code_stream`), so the scoring quiz,
the drills and the challenge of one code are independent of each other and of every seed.

A student's run can end in a *result file*: a versioned JSON document with the name, code,
activity, rules, every answer (question, item, answer, correct answer, right or not, grade,
points lost and their unit), the score, the totals lost and the times. A final round's loss
is a chance, in percentage points, and is totalled apart from points (``chance_lost``).

The ``checksum`` is ``sha256:`` and the SHA-256 of the canonical JSON (sorted keys, no
spaces, UTF-8) of everything else in the document, so a file edited by hand no longer
matches and is reported as such; reformatting the JSON changes nothing. It detects edits,
it hides nothing: anyone with this program can compute a checksum, so it is no signature,
and the totals are checked against the answers as well.

:func:`class_report` reads a pile of result files into plain data for the teacher: a row
per student (score, accuracy, points lost), a row per question (how many got it right, the
most common wrong answer) and one line for each file that could not be counted.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from .answers import AnswerError
from .frontend import Frontend
from .seeded import Stream
from .store import LOSS_UNITS, LossUnit

if TYPE_CHECKING:
    from rich.console import RenderableType

    from .drills import Grading, Kind, Plan
    from .drills import Level as DrillLevel
    from .game import GameState, Move, Review
    from .quiz import Answered, Level, Quiz
    from .rules import Rules
    from .store import Store

Activity = Literal["score", "decide", "challenge"]
ACTIVITIES: tuple[Activity, ...] = ("score", "decide", "challenge")
ACTIVITY_NAMES: dict[str, str] = {
    "score": "scoring quiz",
    "decide": "bank-or-roll drills",
    "challenge": "class challenge",
}

CODE_MIN = 3
CODE_MAX = 12
#: Generated codes use no vowels (so they never spell a word) and none of 0/O, 1/I/L.
CODE_ALPHABET = "BCDFGHJKMNPQRSTVWXYZ23456789"
NEW_CODE_LENGTH = 6

NAME_MAX = 40

RESULT_FORMAT = "farkle-trainer result"
RESULT_VERSION = 1
CHECKSUM_PREFIX = "sha256:"
#: Totals are kept to two decimals; a sum of rounded losses may differ from the rounded sum by this.
_LOSS_SLACK = 0.011

T = TypeVar("T")


class ClassCodeError(ValueError):
    """Text that is not a class code: it says what a code looks like."""


class StudentNameError(ValueError):
    """A student name that cannot go on a result."""


class ResultError(ValueError):
    """A file that cannot be counted as a result; ``kind`` says why (a :data:`ProblemKind`)."""

    def __init__(self, kind: ProblemKind, message: str):
        super().__init__(message)
        self.kind = kind


# -- class codes


def normalize_code(text: str) -> str:
    """The code as everyone's copy agrees on it: upper case, spaces and hyphens dropped.

    >>> normalize_code(" math-7b ")
    'MATH7B'
    """
    cleaned = re.sub(r"[\s\-]+", "", text)
    bad = re.search(r"[^A-Za-z0-9]", cleaned)
    if bad:
        raise ClassCodeError(
            f"a class code has only letters and digits (spaces and hyphens are ignored), not {bad[0]!r}"
        )
    if not CODE_MIN <= len(cleaned) <= CODE_MAX:
        got = f"not {len(cleaned)}" if cleaned else "like MATH7B"
        raise ClassCodeError(f"a class code has {CODE_MIN} to {CODE_MAX} letters and digits, {got}")
    return cleaned.upper()


def new_code(stream: Stream | None = None, length: int = NEW_CODE_LENGTH) -> str:
    """A fresh code that is safe to read aloud or copy from a board (see :data:`CODE_ALPHABET`).

    Drawn from the system's secure randomness, or from ``stream`` for a reproducible one.
    """
    below = stream.below if stream is not None else secrets.randbelow
    return "".join(CODE_ALPHABET[below(len(CODE_ALPHABET))] for _ in range(length))


def code_stream(code: str, activity: Activity) -> Stream:
    """Where an activity's questions or dice come from for a class code: ``code:MATH7B:score``."""
    if activity not in ACTIVITIES:
        raise ValueError(f"unknown activity {activity!r}")
    return Stream(f"code:{normalize_code(code)}:{activity}")


def class_quiz(code: str, rules: Rules, *, count: int, topics: Sequence[str], level: Level | None) -> Quiz:
    """The scoring quiz of a code: fixed by the code alone, never adapted to a player."""
    from .quiz import make_quiz

    return make_quiz(rules, code_stream(code, "score"), count=count, topics=topics, level=level)


def class_drills(
    code: str, rules: Rules, *, count: int, kinds: tuple[Kind, ...], level: DrillLevel | None
) -> Plan:
    """The drills of a code: fixed by the code alone, never adapted to a player."""
    from .drills import Plan

    return Plan(rules, code_stream(code, "decide"), count, kinds, level)


# -- names


def parse_name(text: str) -> str:
    """A student's name as it goes on a result: spaces tidied, 1 to 40 printable characters."""
    name = " ".join(text.split())
    if not name:
        raise StudentNameError("type your name, as your teacher will see it")
    if len(name) > NAME_MAX:
        raise StudentNameError(f"a name has at most {NAME_MAX} characters")
    if not name.isprintable():
        raise StudentNameError("a name has only printable characters")
    return name


def same_student(name: str) -> str:
    """The key two results of one student share: case and spacing do not matter."""
    return " ".join(name.split()).casefold()


def ask_name(front: Frontend) -> str:
    """Ask the student's name through a front end (asked again until it is usable)."""
    return front.ask("Your name (for your teacher):", parse_name)


# -- results


@dataclass(frozen=True)
class ResultAnswer:
    """One answer as a result file keeps it.

    ``number`` is its place in the student's session (1, 2, ...); ``item`` the stable key of
    the question, the same for every student who met it. ``points_lost`` is what the
    answer gave up in ``unit``: points of expected turn score, or percentage points of the
    chance of passing the leader in a final round; None for questions that are only right
    or wrong.
    """

    number: int
    topic: str
    question: str
    item: str
    answer: str
    correct_answer: str
    correct: bool
    grade: str
    points_lost: float | None = None
    unit: LossUnit = "points"

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "topic": self.topic,
            "question": self.question,
            "item": self.item,
            "answer": self.answer,
            "correct_answer": self.correct_answer,
            "correct": self.correct,
            "grade": self.grade,
            "points_lost": self.points_lost,
            "unit": self.unit,
        }


@dataclass(frozen=True)
class Result:
    """What a student hands in: who, which code and activity, every answer and the totals.

    ``score`` is the number of right answers in a quiz or drills, and the points banked in a
    challenge (``perfect_score``: what perfect play banked on the same dice). ``planned`` is
    how many questions the session had (turns, for a challenge); ``complete`` says it ran to
    its end. Times are UTC, as ``2026-11-29T10:15:00Z``.
    """

    name: str | None
    code: str
    activity: Activity
    rules: str
    settings: Mapping[str, Any]
    planned: int
    answers: tuple[ResultAnswer, ...]
    score: int
    complete: bool
    started: str
    finished: str | None
    perfect_score: int | None = None

    @property
    def right(self) -> int:
        return sum(a.correct for a in self.answers)

    @property
    def accuracy(self) -> float | None:
        return self.right / len(self.answers) if self.answers else None

    @property
    def points_lost(self) -> float | None:
        """Points of expected turn score given up in all; None when nothing was graded in points."""
        return _total(self.answers, "points")

    @property
    def chance_lost(self) -> float | None:
        """Percentage points of final-round chances given up in all; None when there were none."""
        return _total(self.answers, "percentage points")


def _total(answers: Iterable[ResultAnswer], unit: LossUnit) -> float | None:
    # A chance is never added to points: each unit has its own total.
    losses = [a.points_lost for a in answers if a.points_lost is not None and a.unit == unit]
    return round(sum(losses), 2) if losses else None


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def canonical(data: Mapping[str, Any]) -> bytes:
    """The one byte form of a document that its checksum covers: sorted keys, no spaces, UTF-8."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def checksum(data: Mapping[str, Any]) -> str:
    """``sha256:<hex>`` of the canonical JSON of ``data`` without its own ``checksum``."""
    body = {k: v for k, v in data.items() if k != "checksum"}
    return CHECKSUM_PREFIX + hashlib.sha256(canonical(body)).hexdigest()


def result_document(r: Result) -> dict[str, Any]:
    """The JSON document of a result, checksum last."""
    from . import __version__

    doc: dict[str, Any] = {
        "format": RESULT_FORMAT,
        "version": RESULT_VERSION,
        "program": f"farkle-trainer {__version__}",
        "name": r.name,
        "code": r.code,
        "activity": r.activity,
        "rules": r.rules,
        "settings": dict(r.settings),
        "planned": r.planned,
        "complete": r.complete,
        "started": r.started,
        "finished": r.finished,
        "answers": [a.to_dict() for a in r.answers],
        "right": r.right,
        "score": r.score,
        "perfect_score": r.perfect_score,
        "points_lost": r.points_lost,
        "chance_lost": r.chance_lost,
    }
    doc["checksum"] = checksum(doc)
    return doc


def write_result(path: Path, r: Result) -> None:
    """Write a result file whole or not at all (a new file is renamed over the old one)."""
    text = json.dumps(result_document(r), indent=2, ensure_ascii=False) + "\n"
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    # Created like any new file (0666 less the umask), so a teacher can read what is handed in.
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def check_result_path(path: Path) -> None:
    """Refuse, before any question is asked, a place a result cannot be written to.

    The name must end in ``.json``, its folder must exist, and a file already there must be
    an earlier result (it is replaced), never some other file.
    """
    if path.is_dir():
        raise ResultError("unwritable", f"{path} is a folder: give a file name, like {path / 'ana.json'}")
    if path.suffix.lower() != ".json":
        raise ResultError("unwritable", f"a result file's name ends in .json, like ana.json, not {path.name}")
    if not path.parent.is_dir():
        raise ResultError("unwritable", f"there is no folder {path.parent} to save {path.name} in")
    if path.exists():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError):
            data = None
        if not isinstance(data, dict) or data.get("format") != RESULT_FORMAT:
            raise ResultError("unwritable", f"{path} exists and is not a result file: choose another name")
    if not os.access(path.parent, os.W_OK):
        raise ResultError("unwritable", f"cannot write in the folder {path.parent}")


# -- reading and checking a result file


ProblemKind = Literal[
    "unwritable", "unreadable", "not-json", "not-result", "newer", "tampered", "other-code", "duplicate"
]


def _need(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], *, optional: bool = False) -> Any:
    value = data.get(key)
    if value is None and optional:
        return None
    # bool is an int in Python; a count must not be true or false.
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _types(kind)):
        raise ResultError("not-result", f"not a result file: its {key!r} is missing or not valid")
    return value


def _types(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _answer(data: Any, number: int) -> ResultAnswer:
    if not isinstance(data, dict):
        raise ResultError("not-result", f"not a result file: answer {number} is not valid")
    lost = _need(data, "points_lost", (int, float), optional=True)
    unit = data.get("unit", "points")
    if unit not in LOSS_UNITS:
        raise ResultError("not-result", f"not a result file: answer {number} has an unknown unit")
    return ResultAnswer(
        number=_need(data, "number", int),
        topic=_need(data, "topic", str),
        question=_need(data, "question", str),
        item=_need(data, "item", str),
        answer=_need(data, "answer", str),
        correct_answer=_need(data, "correct_answer", str),
        correct=_need(data, "correct", bool),
        grade=_need(data, "grade", str),
        points_lost=None if lost is None else float(lost),
        unit=unit,
    )


def parse_result(text: str) -> Result:
    """The result in a file's text; :class:`ResultError` saying why it cannot be counted.

    In order: not JSON; not a result document; written by a newer version; checksum
    missing or not matching (an edited file); fields missing or of the wrong type; totals
    that do not add up to the answers.
    """
    try:
        data = json.loads(text)
    except ValueError as exc:
        where = f" (line {exc.lineno})" if isinstance(exc, json.JSONDecodeError) else ""
        raise ResultError("not-json", f"not JSON{where}: not a result file") from None
    if not isinstance(data, dict) or data.get("format") != RESULT_FORMAT:
        raise ResultError("not-result", "not a farkle-trainer result file")
    version = data.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > RESULT_VERSION:
        raise ResultError(
            "newer", f"written by a newer farkle-trainer (result version {version}): upgrade to read it"
        )
    if version != RESULT_VERSION:
        raise ResultError("not-result", f"not a result file this version can read (version {version!r})")
    stored = data.get("checksum")
    if not isinstance(stored, str):
        raise ResultError("tampered", "edited or damaged: it has no checksum")
    if stored != checksum(data):
        raise ResultError("tampered", "edited by hand or damaged: its checksum does not match its contents")
    answers = tuple(_answer(a, i) for i, a in enumerate(_need(data, "answers", list), 1))
    activity = _need(data, "activity", str)
    if activity not in ACTIVITIES:
        raise ResultError("not-result", f"not a result file: unknown activity {activity!r}")
    try:
        code = normalize_code(_need(data, "code", str))
    except ClassCodeError:
        raise ResultError("not-result", "not a result file: its class code is not valid") from None
    name = _need(data, "name", str, optional=True)
    perfect = _need(data, "perfect_score", int, optional=True)
    result = Result(
        name=None if name is None else " ".join(name.split()) or None,
        code=code,
        activity=activity,
        rules=_need(data, "rules", str),
        settings=_need(data, "settings", dict),
        planned=_need(data, "planned", int),
        answers=answers,
        score=_need(data, "score", int),
        complete=_need(data, "complete", bool),
        started=_need(data, "started", str),
        finished=_need(data, "finished", str, optional=True),
        perfect_score=perfect,
    )
    _check_totals(result, data)
    return result


def _check_totals(r: Result, data: Mapping[str, Any]) -> None:
    def same(stored: Any, total: float | None) -> bool:
        if total is None:
            return stored is None
        return isinstance(stored, int | float) and abs(stored - total) <= _LOSS_SLACK

    adds_up = (
        same(data.get("points_lost"), r.points_lost)
        and same(data.get("chance_lost"), r.chance_lost)
        and data.get("right") == r.right
        and (r.activity == "challenge" or r.score == r.right)
        and [a.number for a in r.answers] == list(range(1, len(r.answers) + 1))
    )
    if not adds_up:
        raise ResultError("tampered", "edited: its totals do not add up to its answers")


def read_result(path: Path) -> Result:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ResultError("not-json", "not JSON (not even text): not a result file") from None
    except OSError as exc:
        raise ResultError("unreadable", f"cannot be read: {exc.strerror or exc}") from None
    return parse_result(text)


# -- recording a session's result as it goes


Clock = Callable[[], datetime]


def _system_clock() -> datetime:
    return datetime.now(UTC)


@dataclass
class ResultRecorder:
    """Collects a coded session's answers and keeps its result file (if any) up to date.

    The file is rewritten after every answer, marked incomplete until :meth:`finish`, so
    a closed terminal still leaves the answers given. A write that fails is remembered and
    reported once at the end (:attr:`error`); the session itself goes on.
    """

    code: str
    activity: Activity
    rules: str
    settings: Mapping[str, Any]
    planned: int
    name: str | None = None
    path: Path | None = None
    clock: Clock = _system_clock
    answers: list[ResultAnswer] = field(default_factory=list)
    error: str | None = None
    _started: str = ""
    _score: int | None = None

    def __post_init__(self) -> None:
        self._started = _stamp(self.clock())

    def add(self, answer: ResultAnswer, *, score: int | None = None) -> None:
        """One more answer (``score``: a challenge's points banked so far)."""
        self.answers.append(replace(answer, number=len(self.answers) + 1))
        if score is not None:
            self._score = score
        self._save(self.result(complete=False))

    def result(self, *, complete: bool, perfect_score: int | None = None) -> Result:
        right = sum(a.correct for a in self.answers)
        return Result(
            name=self.name,
            code=self.code,
            activity=self.activity,
            rules=self.rules,
            settings=dict(self.settings),
            planned=self.planned,
            answers=tuple(self.answers),
            score=right if self._score is None else self._score,
            complete=complete,
            started=self._started,
            finished=_stamp(self.clock()) if complete else None,
            perfect_score=perfect_score,
        )

    def finish(self, *, complete: bool, score: int | None = None, perfect_score: int | None = None) -> Result:
        """The final result, written to the file if there is one and anything was answered."""
        if score is not None:
            self._score = score
        r = self.result(complete=complete, perfect_score=perfect_score)
        if r.answers:
            self._save(r)
        return r

    @property
    def saved(self) -> bool:
        return self.path is not None and self.error is None and bool(self.answers)

    def _save(self, r: Result) -> None:
        if self.path is None or self.error is not None:
            return
        try:
            write_result(self.path, r)
        except OSError as exc:
            self.error = f"could not save the result to {self.path}: {exc.strerror or exc}"


def quiz_answer(a: Answered) -> ResultAnswer:
    """A graded scoring question as a result keeps it."""
    q, g = a.question, a.grade
    return ResultAnswer(
        number=0,
        topic=q.topic,
        question=q.text,
        item=q.item,
        answer=g.answer,
        correct_answer=g.correct_answer,
        correct=g.correct,
        grade="right" if g.correct else "wrong",
    )


def drill_answer(g: Grading) -> ResultAnswer:
    """A graded drill as a result keeps it (a final round's loss in percentage points)."""
    from .render_drills import play_words, question_line

    p = g.position
    return ResultAnswer(
        number=0,
        topic=p.kind,
        question=question_line(p),
        item=p.item,
        answer=play_words(p, g.chosen),
        correct_answer=play_words(p, g.best),
        correct=g.right,
        grade=g.grade,
        points_lost=round(g.lost, 2),
        unit="percentage points" if p.unit == "chance" else "points",
    )


def challenge_answer(r: Review) -> ResultAnswer:
    """A challenge decision, graded by the expected turn points it gave up."""
    from .render_daily import decision_item, decision_question, play_words

    m = r.move
    return ResultAnswer(
        number=0,
        topic="bank-or-roll",
        question=decision_question(m),
        item=decision_item(m),
        answer=play_words(m.keep, m.action, len(m.roll) - len(m.keep)),
        correct_answer=play_words(r.best.keep, r.best_action, r.best.dice_left),
        correct=r.lost == 0,
        grade="best" if r.lost == 0 else "gave up points",
        points_lost=round(r.lost, 2),
    )


def record_challenge_decision(store: Store, session_id: int, code: str, r: Review) -> ResultAnswer:
    """Keep a challenge decision as training progress (kind ``challenge``), the moment it is made."""
    answer = challenge_answer(r)
    store.record_answer(
        session_id,
        topic=answer.topic,
        item=answer.item,
        question=answer.question,
        answer=answer.answer,
        correct_answer=answer.correct_answer,
        correct=answer.correct,
        grade=answer.grade,
        points_lost=r.lost,
        extra={"code": code, **r.move.to_dict()},
    )
    return answer


# -- the class challenge


@dataclass(frozen=True)
class ChallengeOutcome:
    """How a challenge ended: the game so far, perfect play on its dice (once over), the exit code."""

    state: GameState
    finished: bool
    perfect_score: int | None
    reviews: tuple[Review, ...]
    exit_code: int


CHALLENGE_RULES = "classic"


def play_challenge(
    front: Frontend,
    code: str,
    *,
    decided: Callable[[Review, int], None],
) -> ChallengeOutcome:
    """Play the ten-turn game on the code's dice, to the end or until the player stops.

    ``decided`` hears each decision once made (its review) and the points banked so far.
    Hints are off: a class challenge compares players on the same dice.
    """
    from . import game
    from .daily import play_game
    from .frontend import INTERRUPTED, EndOfInput

    source = game.seeded_source(code_stream(code, "challenge"))
    state = game.new_game()

    def save(s: GameState) -> None:
        nonlocal state
        state = s

    def on_decision(move: Move) -> None:
        decided(game.review_move(move), state.banked)

    try:
        play_game(_NoHints(front), state, source, hints=False, save=save, decided=on_decision)
    except (KeyboardInterrupt, EndOfInput) as stop:
        exit_code = INTERRUPTED if isinstance(stop, KeyboardInterrupt) else 0
        return ChallengeOutcome(state, False, None, (), exit_code)
    return ChallengeOutcome(state, True, game.perfect_play(source), game.review(state), 0)


class _NoHints(Frontend):
    """A front end whose typed answers refuse ``h`` with words that fit a class challenge."""

    def __init__(self, front: Frontend):
        self.front = front
        self.plain = front.plain

    def say(self, text: str = "", *, style: str | None = None) -> None:
        self.front.say(text, style=style)

    def show(self, text: str, renderable: Callable[[], RenderableType] | None = None) -> None:
        self.front.show(text, renderable)

    def ask(self, prompt: str, parse: Callable[[str], T]) -> T:
        def read(text: str) -> T:
            if text.strip().lower() in ("h", "hint", "?"):
                raise AnswerError("no hints in a class challenge: everyone plays on their own")
            return parse(text)

        return self.front.ask(prompt, read)

    def choose(self, prompt: str, choices: Sequence[tuple[str, T]], parse: Callable[[str], T]) -> T:
        return self.front.choose(prompt, choices, parse)

    def pick_dice(
        self, prompt: str, roll: tuple[int, ...], check: Callable[[tuple[int, ...]], None]
    ) -> tuple[int, ...]:
        return self.front.pick_dice(prompt, roll, check)


# -- the class report


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
    """One student's result: ``score`` as :class:`Result` has it, ``right`` of ``answered``."""

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
    perfect_score: int | None


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


@dataclass(frozen=True)
class ClassReport:
    """The report of one class code: a section per activity and rule set, and the files left out."""

    code: str | None
    sections: tuple[Section, ...]
    problems: tuple[Problem, ...]

    @property
    def counted(self) -> int:
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
            inside = sorted(
                (p for p in path.rglob("*") if p.suffix.lower() == ".json" and p.is_file()),
                key=lambda p: str(p.relative_to(path)).casefold(),
            )
            if not inside:
                problems.append(Problem(str(path), "unreadable", "a folder with no .json files"))
            for p in inside:
                add(p)
        elif path.exists():
            add(path)
        else:
            problems.append(Problem(str(path), "unreadable", "no such file or folder"))
    return found, problems


def class_report(paths: Sequence[Path], code: str | None = None) -> ClassReport:
    """Read result files and folders into the report of one class code.

    The report's code is ``code`` when given, else the code most files carry (the first
    file's on a tie). Each file that cannot be counted becomes a :class:`Problem` and the
    rest are still reported: not JSON, not a result, tampered, another code, or the same
    student's second result for an activity (the one started first is counted).
    """
    files, problems = result_files(paths)
    read: list[tuple[str, Result]] = []
    for path in files:
        try:
            read.append((str(path), read_result(path)))
        except ResultError as exc:
            problems.append(Problem(str(path), exc.kind, str(exc)))
    return build_report(read, problems, code=code, order=[str(p) for p in files])


def build_report(
    results: Sequence[tuple[str, Result]],
    problems: Sequence[Problem] = (),
    *,
    code: str | None = None,
    order: Sequence[str] | None = None,
) -> ClassReport:
    """The report over results already read (``(path, result)`` pairs).

    ``problems`` are files already found unreadable; ``order`` the paths in the order they were
    read, which the problems follow (default: the order of ``results``).
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
                    "(the one started first is counted)"
                )
            found.append(Problem(path, "duplicate", why))
        else:
            first[key] = (path, r)
    counted = [pr for pr in kept if first.get((pr[1].activity, same_student(pr[1].name or ""))) == pr]
    groups: dict[tuple[str, str], list[tuple[str, Result]]] = {}
    for path, r in counted:
        groups.setdefault((r.activity, r.rules), []).append((path, r))
    rank = {a: i for i, a in enumerate(ACTIVITIES)}
    sections = tuple(
        _section(activity, rules, group)  # type: ignore[arg-type]
        for (activity, rules), group in sorted(groups.items(), key=lambda kv: (rank[kv[0][0]], kv[0][1]))
    )
    place = {path: i for i, path in enumerate(order if order is not None else [p for p, _ in results])}
    # Paths that were never read (a missing file) come first, in the order they were named.
    found.sort(key=lambda p: place.get(p.path, -1))
    return ClassReport(code=wanted, sections=sections, problems=tuple(found))


def _most_common(codes: Sequence[str]) -> str | None:
    if not codes:
        return None
    counts = Counter(codes)
    top = max(counts.values())
    return next(c for c in codes if counts[c] == top)


def _section(activity: Activity, rules: str, group: Sequence[tuple[str, Result]]) -> Section:
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
                    perfect_score=r.perfect_score,
                )
                for path, r in group
            ),
            key=lambda s: (same_student(s.name), s.path),
        )
    )
    by_item: dict[str, list[ResultAnswer]] = {}
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
    return Section(activity, rules, students, tuple(r[2] for r in rows), min_asked)
