"""Result files: what a student hands in after a session on a class code.

A student's run can end in a *result file*: a versioned JSON document with the name, code,
activity, rules, every answer (question, item, answer, correct answer, right or not, grade,
points lost and their unit), the score, the totals lost and the times. A final round's loss
is a chance, in percentage points, and is totalled apart from points (``chance_lost``).

The ``checksum`` is ``sha256:`` and the SHA-256 of the canonical JSON (sorted keys, no
spaces, UTF-8) of everything else in the document, so a file edited by hand no longer
matches and is reported as such; reformatting the JSON changes nothing. It detects careless
edits and damage, it proves nothing: anyone can recompute it. What a file's answers prove is
checked by grading them again (:mod:`farkle_trainer.training.classroom.verify`).

Version 2 keeps each decision's play (``keep`` and ``action``) so it can be replayed; files
of version 1 are still read, and reported as not verifiable. Version 3 was written since
final-round drills put the player below the target: a version 2 drill file is read but not
verified (its final rounds were drawn the older way), its quizzes and challenges still are.
Version 4 names a challenge's figure of the solver's own game on the class's dice
``solver_game_score``, as the report does; versions up to 3 called it ``perfect_score``, and
are read as they are.

:class:`ResultRecorder` rewrites the file after every answer of a session, so a session cut
short still leaves the answers given, and never over another session's result saved there since.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from farkle_trainer.engine.errors import InputError
from farkle_trainer.store.files import FileTooLarge, NotARegularFile, file_beside, read_text, write_whole
from farkle_trainer.store.rows import LOSS_UNITS, LossUnit
from farkle_trainer.training.classroom.codes import (
    ACTIVITIES,
    ACTIVITY_NAMES,
    Activity,
    ClassCodeError,
    StudentNameError,
    normalize_code,
    parse_name,
    same_student,
)
from farkle_trainer.training.record import AnswerRecord

RESULT_FORMAT = "farkle-trainer result"
RESULT_VERSION = 4
#: The versions this program reads: version 1 lacks the plays, so it is read but not verified.
READABLE_VERSIONS = (1, 2, 3, 4)
#: The key of the solver's own game on a challenge's dice, by the versions that wrote it.
SOLVER_GAME_KEY = "solver_game_score"
_OLDER_SOLVER_GAME_KEY = "perfect_score"
CHECKSUM_PREFIX = "sha256:"
#: Totals are the exact sum rounded once to two decimals; files written before losses were kept
#: exact hold losses rounded to two decimals, whose sum may differ from the total by this.
_LOSS_SLACK = 0.011


class ResultError(InputError):
    """A file that cannot be counted as a result; ``kind`` says why (a :data:`ProblemKind`)."""

    def __init__(self, kind: ProblemKind, message: str):
        super().__init__(message)
        self.kind = kind


class NotAResult(ResultError):
    """A file that is no result document at all: not a file that can be read, not JSON, or a
    document of another kind."""


# -- results


@dataclass(frozen=True)
class Result:
    """What a student hands in: who, which code and activity, every answer and the totals.

    ``score`` is the number of right answers in a quiz or drills, and the points banked in a
    challenge (``solver_game_score``: what the solver's own game banked on the class's dice, a
    finished challenge's). ``planned`` is
    how many questions the session had (turns, for a challenge); ``complete`` says it ran to
    its end. Times are UTC, as ``2026-11-29T10:15:00Z``.
    """

    name: str | None
    code: str
    activity: Activity
    rules: str
    settings: Mapping[str, Any]
    planned: int
    answers: tuple[AnswerRecord, ...]
    score: int
    complete: bool
    started: str
    finished: str | None
    solver_game_score: int | None = None
    #: The result format the file was written in (older ones cannot all be checked).
    version: int = field(default=RESULT_VERSION, compare=False)

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
        """Percentage points of chances (to pass a leader, or to win a game) given up in all; None
        when there were none."""
        return _total(self.answers, "percentage points")


def _total(answers: Iterable[AnswerRecord], unit: LossUnit) -> float | None:
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
    from farkle_trainer.version import __version__

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
        "answers": [a.entry() for a in r.answers],
        "right": r.right,
        "score": r.score,
        SOLVER_GAME_KEY: r.solver_game_score,
        "points_lost": r.points_lost,
        "chance_lost": r.chance_lost,
    }
    doc["checksum"] = checksum(doc)
    return doc


def _result_bytes(r: Result) -> bytes:
    return (json.dumps(result_document(r), indent=2, ensure_ascii=False) + "\n").encode()


def write_result(path: Path, r: Result) -> None:
    """Write a result file whole or not at all (a new file is renamed over the old one)."""
    write_whole(path, _result_bytes(r))


def file_contents(path: Path) -> bytes | None:
    """What is at ``path`` now, to tell later whether it has changed; None when nothing is.

    A regular file is known by its bytes. Anything else, or a file that cannot be read, is
    not read (a pipe would wait forever) but known by what it is and when it last changed,
    which is enough to see that it is no longer the same.
    """
    try:
        st = path.stat()
    except OSError:
        # Nothing, or nothing this program can see: a new file goes only where none is.
        return None
    if stat.S_ISREG(st.st_mode):
        try:
            with path.open("rb") as fh:
                return fh.read(MAX_RESULT_FILE + 1)
        except OSError:
            pass
    return f"{st.st_mode} {st.st_dev} {st.st_ino} {st.st_size} {st.st_mtime_ns}".encode()


def replace_result(path: Path, r: Result, *, held: bytes | None) -> bytes | None:
    """Write ``r`` at ``path`` only if the file there still holds ``held`` (or nothing).

    Another session writing the same file in between is not written over: None says so.
    Otherwise the bytes written, which the next write expects to find there.
    """
    data = _result_bytes(r)
    tmp = file_beside(path, data)
    try:
        now = file_contents(path)
        if now is None:
            placed = _create(tmp, path)
        elif now == held:
            os.replace(tmp, path)
            placed = True
        else:
            placed = False
    finally:
        tmp.unlink(missing_ok=True)
    return data if placed else None


def _create(tmp: Path, path: Path) -> bool:
    """Put ``tmp`` at ``path`` unless a file appeared there meanwhile (False then).

    A hard link is made only where nothing is, in one step, so two sessions that both found
    no file cannot both write it; where hard links are not supported, a plain replace.
    """
    try:
        os.link(tmp, path)
    except FileExistsError:
        return False
    except OSError:
        os.replace(tmp, path)
    return True


def check_result_path(
    path: Path,
    *,
    code: str,
    activity: Activity,
    name: str | None = None,
    force: bool = False,
) -> Result | None:
    """Refuse, before any question is asked, a place a result cannot be written to.

    The name must end in ``.json`` and its folder must exist. A file already there is
    replaced only when it is a valid result of the same code and activity and (when the name
    is known yet) the same student, or with ``force``: anything else may be someone's work.
    Returns the result that would be replaced (None without a file, or with ``force``), for
    the caller to ask before a finished one is.
    """
    if path.is_dir():
        raise ResultError("unwritable", f"{path} is a folder: give a file name, like {path / 'ana.json'}")
    if path.suffix.lower() != ".json":
        raise ResultError("unwritable", f"a result file's name ends in .json, like ana.json, not {path.name}")
    if not path.parent.is_dir():
        raise ResultError("unwritable", f"there is no folder {path.parent} to save {path.name} in")
    earlier = None
    if path.exists() and not force:
        earlier = check_replaceable(path, code=code, activity=activity, name=name)
    if not os.access(path.parent, os.W_OK):
        raise ResultError("unwritable", f"cannot write in the folder {path.parent}")
    return earlier


def check_replaceable(path: Path, *, code: str, activity: Activity, name: str | None) -> Result:
    """Refuse to replace ``path`` unless it holds this student's result for this code and activity.

    Returns that result: whether it is finished is the caller's to weigh.
    """
    keep = "choose another name, or add --force to replace it"
    try:
        earlier = read_result(path)
    except ResultError:
        raise ResultError("unwritable", f"{path} exists and is not a valid result file: {keep}") from None
    if earlier.code != normalize_code(code) or earlier.activity != activity:
        what = f"a {ACTIVITY_NAMES[earlier.activity]} result for class code {earlier.code}"
        raise ResultError("unwritable", f"{path} holds {what}: {keep}")
    if name is not None and same_student(earlier.name or "") != same_student(name):
        who = earlier.name or "a student with no name"
        raise ResultError("unwritable", f"{path} holds the result of {who!r}, not {name!r}: {keep}")
    return earlier


def finished_words(r: Result) -> str:
    """How a finished result went, in a few words: ``5 of 5 right``, ``4,550 points``."""
    if r.activity == "challenge":
        return f"{r.score:,} points"
    right = "best or fine" if r.activity == "decide" else "right"
    return f"{r.right} of {r.planned} {right}"


# -- reading and checking a result file


ProblemKind = Literal[
    "unwritable",
    "unreadable",
    "not-json",
    "not-result",
    "newer",
    "tampered",
    "wrong",
    "other-code",
    "duplicate",
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


def _answer(data: Any, number: int) -> AnswerRecord:
    if not isinstance(data, dict):
        raise ResultError("not-result", f"not a result file: answer {number} is not valid")
    lost = _need(data, "points_lost", (int, float), optional=True)
    unit = data.get("unit", "points")
    if unit not in LOSS_UNITS:
        raise ResultError("not-result", f"not a result file: answer {number} has an unknown unit")
    return AnswerRecord(
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
        **_play(data, number),
    )


def _play(data: Mapping[str, Any], number: int) -> dict[str, Any]:
    """A decision's ``keep`` and ``action``, when the entry has them (version 2 decisions)."""
    if "keep" not in data and "action" not in data:
        return {}
    keep = data.get("keep")
    action = data.get("action")
    if (
        not isinstance(keep, list)
        or not all(isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= 6 for f in keep)
        or action not in ("bank", "roll")
    ):
        raise ResultError("not-result", f"not a result file: answer {number} has a play that is not valid")
    return {"keep": tuple(keep), "action": action}


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
        raise NotAResult("not-json", f"not JSON{where}: not a result file") from None
    except RecursionError:
        raise NotAResult("not-result", "nested too deeply to be a result file") from None
    if not isinstance(data, dict) or data.get("format") != RESULT_FORMAT:
        raise NotAResult("not-result", "not a farkle-trainer result file")
    version = data.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > RESULT_VERSION:
        raise ResultError(
            "newer", f"written by a newer farkle-trainer (result version {version}): upgrade to read it"
        )
    if version not in READABLE_VERSIONS or isinstance(version, bool):
        raise ResultError("not-result", f"not a result file this version can read (version {version!r})")
    stored = data.get("checksum")
    if not isinstance(stored, str):
        raise ResultError("tampered", "edited or damaged: it has no checksum")
    try:
        computed = checksum(data)
    except UnicodeEncodeError:
        # A lone surrogate ("\ud800") is valid JSON but no text: this program never writes one.
        raise ResultError(
            "not-result", "not a result file: it holds text that is not valid Unicode"
        ) from None
    except RecursionError:
        raise ResultError("not-result", "nested too deeply to be a result file") from None
    if stored != computed:
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
    if name is not None:
        try:
            name = parse_name(name)
        except StudentNameError as exc:
            raise ResultError(
                "not-result", f"not a result file: its name is not one a student can type ({exc})"
            ) from None
    solver_game = _need(data, _solver_game_key(version), int, optional=True)
    for key in ("started", "finished"):
        moment = data.get(key)
        if isinstance(moment, str) and not _is_time(moment):
            raise ResultError("tampered", f"edited: its {key} time {moment[:30]!r} is not a time")
    result = Result(
        name=name,
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
        solver_game_score=solver_game,
        version=version,
    )
    _check_totals(result, data)
    return result


def _solver_game_key(version: int) -> str:
    """Where a result of ``version`` keeps the solver's own game on a challenge's dice."""
    return SOLVER_GAME_KEY if version >= 4 else _OLDER_SOLVER_GAME_KEY


def _is_time(text: str) -> bool:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return False
    return moment.tzinfo is not None


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
        and (r.activity == "challenge" or r.solver_game_score is None)
        and [a.number for a in r.answers] == list(range(1, len(r.answers) + 1))
    )
    if not adds_up:
        raise ResultError("tampered", "edited: its totals do not add up to its answers")


#: A result file holds one session's answers: a few kilobytes. Anything far larger is not one.
MAX_RESULT_FILE = 4 * 1024 * 1024


def read_result(path: Path) -> Result:
    """The result in ``path``: only a regular file of a sane size (anything else, or a file that
    cannot be read, is :class:`NotAResult`)."""
    try:
        text = read_text(path, MAX_RESULT_FILE)
    except NotARegularFile:
        raise NotAResult("unreadable", "not a regular file: not a result file") from None
    except FileTooLarge:
        too_large = f"too large to be a result file (over {MAX_RESULT_FILE // 2**20} MB)"
        raise NotAResult("not-result", too_large) from None
    except UnicodeDecodeError:
        raise NotAResult("not-json", "not JSON (not even text): not a result file") from None
    except OSError as exc:
        raise NotAResult("unreadable", f"cannot be read: {exc.strerror or exc}") from None
    return parse_result(text)


# -- recording a session's result as it goes


Clock = Callable[[], datetime]


def _system_clock() -> datetime:
    return datetime.now(UTC)


@dataclass
class ResultRecorder:
    """Collects a coded session's answers and keeps its result file (if any) up to date.

    The file is rewritten after every answer, marked incomplete until :meth:`finish`, so
    a closed terminal still leaves the answers given. Each write first checks that the file
    still holds what this session found there or last wrote: when another session has saved
    to it meanwhile, its result is not written over and this one is no longer written.
    A write that fails or is given up is remembered and reported once at the end
    (:attr:`error`); the session itself goes on.
    """

    code: str
    activity: Activity
    rules: str
    settings: Mapping[str, Any]
    planned: int
    name: str | None = None
    path: Path | None = None
    clock: Clock = _system_clock
    answers: list[AnswerRecord] = field(default_factory=list)
    error: str | None = None
    #: What the file's next write expects to find there: at first what it held when the
    #: session was allowed to replace it (:func:`file_contents`, read before it was checked,
    #: so a file changed since is not replaced), then what the session last wrote. None: no
    #: file, so only a new one is written.
    held: bytes | None = None
    _started: str = ""
    _score: int | None = None

    def __post_init__(self) -> None:
        self._started = _stamp(self.clock())

    def add(self, answer: AnswerRecord, *, score: int | None = None) -> None:
        """One more answer (``score``: a challenge's points banked so far)."""
        self.answers.append(answer.numbered(len(self.answers) + 1))
        if score is not None:
            self._score = score
        self._save(self.result(complete=False))

    def result(self, *, complete: bool, solver_game_score: int | None = None) -> Result:
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
            solver_game_score=solver_game_score,
        )

    def finish(
        self, *, complete: bool, score: int | None = None, solver_game_score: int | None = None
    ) -> Result:
        """The final result, written to the file if there is one and anything was answered."""
        if score is not None:
            self._score = score
        r = self.result(complete=complete, solver_game_score=solver_game_score)
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
            written = replace_result(self.path, r, held=self.held)
        except OSError as exc:
            self.error = self._could_not(exc)
            return
        if written is None:
            self.error = self._taken(self.path)
        else:
            self.held = written

    def _could_not(self, exc: OSError) -> str:
        return f"could not save the result to {self.path}: {exc.strerror or exc}"

    def _taken(self, path: Path) -> str:
        """Why this result is not in ``path``, and how to save it after all."""
        try:
            there = read_result(path)
        except ResultError:
            what = "another file"
        else:
            if same_student(there.name or "") == same_student(self.name or ""):
                what = "your result from another session"
            else:
                what = f"another student's result ({there.name or 'no name'!r})"
        return (
            f"this result was NOT saved to {path}: {what} is there now and was not written over; "
            "to save yours, run the command again with another --save-result file name"
        )
