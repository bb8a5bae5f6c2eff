"""Joining a class code: the ``--code``, ``--save-result``, ``--name`` and ``--force`` a student
gives ``score``, ``decide`` or ``challenge``, checked before anything is asked."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from farkle_trainer.engine.errors import InputError
from farkle_trainer.training.classroom.codes import (
    ClassCodeError,
    StudentNameError,
    ask_name,
    normalize_code,
    parse_name,
)
from farkle_trainer.training.classroom.results import (
    ResultError,
    ResultRecorder,
    check_replaceable,
    check_result_path,
    file_contents,
)
from farkle_trainer.training.frontend import INTERRUPTED, EndOfInput, Stopped

if TYPE_CHECKING:
    from farkle_trainer.training.classroom.codes import Activity
    from farkle_trainer.training.frontend import Frontend


def clock() -> datetime:
    """The time written on result files (tests put a fixed clock here)."""
    return datetime.now(UTC)


@dataclass(frozen=True)
class ClassEntry:
    """What a student asked for with ``--code``: the code, the result file, the name if given."""

    code: str
    save_to: Path | None
    name: str | None
    activity: Activity
    force: bool = False

    def begin(
        self,
        front: Frontend,
        *,
        rules: str,
        settings: dict[str, Any],
        planned: int,
    ) -> ResultRecorder:
        """Start recording the session's result, asking the name first if it is needed.

        Ctrl-C or the end of input at the name stops the command before anything is recorded.
        """
        name = self.name
        # Read before any check: a file that changes after it is not written over.
        held = None if self.save_to is None else file_contents(self.save_to)
        if name is None and self.save_to is not None:
            try:
                name = ask_name(front)
            except (KeyboardInterrupt, EndOfInput) as stop:
                interrupted = isinstance(stop, KeyboardInterrupt)
                if interrupted and front.plain:
                    front.say()
                front.say("No name given, so nothing was started.")
                raise Stopped(INTERRUPTED if interrupted else 0) from None
            if self.save_to.exists() and not self.force:
                # Only now is the name known: the file there must be this student's.
                try:
                    check_replaceable(self.save_to, code=self.code, activity=self.activity, name=name)
                except ResultError as exc:
                    raise InputError(f"--save-result: {exc}") from None
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
    with ``force``.
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
        if save_result is not None:
            check_result_path(save_result, code=normalized, activity=activity, name=given, force=force)
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
    return ClassEntry(normalized, save_result, given, activity, force)
