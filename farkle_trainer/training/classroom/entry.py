"""Joining a class code: the ``--code``, ``--save-result``, ``--name`` and ``--force`` a student
gives ``score``, ``decide`` or ``challenge``, checked before anything is asked."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from farkle_trainer.engine.errors import InputError
from farkle_trainer.training.classroom.codes import (
    ClassCodeError,
    StudentNameError,
    ask_name,
    normalize_code,
    parse_name,
)
from farkle_trainer.training.classroom.results import (
    Result,
    ResultError,
    ResultRecorder,
    check_replaceable,
    check_result_path,
    file_contents,
    finished_words,
)
from farkle_trainer.training.frontend import INTERRUPTED, EndOfInput, Stopped

if TYPE_CHECKING:
    from farkle_trainer.training.classroom.codes import Activity
    from farkle_trainer.training.frontend import Frontend


T = TypeVar("T")


def clock() -> datetime:
    """The time written on result files (tests put a fixed clock here)."""
    return datetime.now(UTC)


@dataclass(frozen=True)
class ClassEntry:
    """What a student asked for with ``--code``: the code, the result file, the name if given.

    ``can_ask``: the answers come from a terminal, so a yes can be asked for.
    """

    code: str
    save_to: Path | None
    name: str | None
    activity: Activity
    force: bool = False
    can_ask: bool = True

    def begin(
        self,
        front: Frontend,
        *,
        rules: str,
        settings: dict[str, Any],
        planned: int,
    ) -> ResultRecorder:
        """Start recording the session's result, asking the name first if it is needed.

        The file at ``--save-result`` is checked again now that the name is known; a finished
        result there is replaced only after a yes. Ctrl-C or the end of input at either
        question stops the command before anything is recorded.
        """
        name = self.name
        if name is None and self.save_to is not None:
            name = self._ask(front, ask_name, "No name given, so nothing was started.")
        # Read before the check: a file that changes after it is not written over.
        held = None if self.save_to is None else file_contents(self.save_to)
        if self.save_to is not None and self.save_to.exists() and not self.force:
            try:
                earlier = check_replaceable(self.save_to, code=self.code, activity=self.activity, name=name)
            except ResultError as exc:
                raise InputError(f"--save-result: {exc}") from None
            if earlier.complete:
                self._confirm_replace(front, self.save_to, earlier)
        return ResultRecorder(
            code=self.code,
            activity=self.activity,
            rules=rules,
            settings=settings,
            planned=planned,
            name=name,
            path=self.save_to,
            clock=clock,
            held=held,
        )

    def _confirm_replace(self, front: Frontend, path: Path, earlier: Result) -> None:
        """A finished result is the one a student hands in: replaced only when they say so."""
        if not self.can_ask:
            raise InputError(f"--save-result: {finished_refusal(path, earlier)}")
        question = (
            f"{path} already holds your finished result ({finished_words(earlier)}); "
            "start again and replace it?"
        )
        kept = f"Nothing was started: {path} keeps your finished result."
        replace = self._ask(front, lambda f: f.yes_no(question, default=False), kept)
        if not replace:
            front.say(kept)
            raise Stopped(0)

    @staticmethod
    def _ask(front: Frontend, ask: Callable[[Frontend], T], stopped: str) -> T:
        """``ask(front)``; Ctrl-C or the end of input says ``stopped`` and ends the command."""
        try:
            return ask(front)
        except (KeyboardInterrupt, EndOfInput) as stop:
            interrupted = isinstance(stop, KeyboardInterrupt)
            if interrupted and front.plain:
                front.say()
            front.say(stopped)
            raise Stopped(INTERRUPTED if interrupted else 0) from None


def finished_refusal(path: Path, earlier: Result) -> str:
    """Why a finished result is not replaced when no one can be asked, and what to do instead."""
    return (
        f"{path} already holds your finished result ({finished_words(earlier)}): "
        "choose another file name, or add --force to start again and replace it"
    )


def class_entry(
    code: str | None,
    activity: Activity,
    *,
    seed: object = None,
    save_result: Path | None = None,
    name: str | None = None,
    force: bool = False,
    can_ask: bool = True,
) -> ClassEntry | None:
    """Check ``--code``, ``--save-result``, ``--name`` and ``--force`` before any question.

    None when no code was given (and none of the others). The name is needed with a result
    file: asked when someone can answer (``can_ask``: answers come from a terminal), so
    through a pipe it must come with ``--name``. A file already at ``--save-result`` is
    replaced only if it is the same student's result for the same code and activity, or
    with ``force``; a finished one only after a yes on a terminal (asked by
    :meth:`ClassEntry.begin`), so through a pipe it is refused here.
    """
    if code is None:
        if save_result is not None or name is not None or force:
            raise InputError(
                "--save-result, --name and --force go with --code CODE: a result belongs to a class code"
            )
        return None
    if seed is not None:
        raise InputError("--code and --seed both choose the questions: give one of them")
    try:
        normalized = normalize_code(code)
        given = None if name is None else parse_name(name)
        earlier = None
        if save_result is not None:
            earlier = check_result_path(
                save_result, code=normalized, activity=activity, name=given, force=force
            )
    except ClassCodeError as exc:
        raise InputError(f"--code: {exc}") from None
    except StudentNameError as exc:
        raise InputError(f"--name: {exc}") from None
    except ResultError as exc:
        raise InputError(f"--save-result: {exc}") from None
    if save_result is not None and given is None and not can_ask:
        raise InputError(
            "--save-result needs --name NAME when the answers do not come from a terminal (no one to ask)"
        )
    if save_result is not None and earlier is not None and earlier.complete and not can_ask:
        # Refused before anything is said: through a pipe no one could say yes later.
        raise InputError(f"--save-result: {finished_refusal(save_result, earlier)}")
    return ClassEntry(normalized, save_result, given, activity, force, can_ask)
