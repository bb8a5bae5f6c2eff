"""Joining a class code from ``score``, ``decide`` and ``challenge``: the options that go with
it, the session it starts and the result it ends."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from farkle_trainer.cli.errors import fail
from farkle_trainer.cli.groups import Options
from farkle_trainer.cli.options import (
    CodeOpt,
    DataDirOpt,
    ForceOpt,
    NameOpt,
    PlainOpt,
    RulesOpt,
    SaveResultOpt,
)
from farkle_trainer.ui.terminal import is_terminal

if TYPE_CHECKING:
    from farkle_trainer.engine.rules import Rules
    from farkle_trainer.store.db import Store
    from farkle_trainer.training.classroom.codes import Activity
    from farkle_trainer.training.classroom.entry import ClassEntry
    from farkle_trainer.training.classroom.results import ResultRecorder
    from farkle_trainer.training.frontend import Frontend
    from farkle_trainer.training.session import Session


@dataclass(frozen=True)
class ClassCodeOptions(Options):
    """``--code`` and what goes with it: the result file, the student's name, ``--force``."""

    code: CodeOpt = None
    save_result: SaveResultOpt = None
    name: NameOpt = None
    force: ForceOpt = False

    def class_entry(self, activity: Activity, *, seed: object = None) -> ClassEntry | None:
        """The class code options, checked before anything is asked (see the training module)."""
        from farkle_trainer.training.classroom.entry import class_entry as check

        return check(
            self.code,
            activity,
            seed=seed,
            save_result=self.save_result,
            name=self.name,
            force=self.force,
            can_ask=is_terminal(sys.stdin),
        )


@dataclass(frozen=True)
class SessionOptions(ClassCodeOptions):
    """What a session of ``score`` or ``decide`` takes besides its questions: a class code to
    join, the rules, plain text and the data directory."""

    rules: RulesOpt = "classic"
    plain: PlainOpt = False
    data_dir: DataDirOpt = None


def start_session(
    store: Store,
    kind: str,
    rules: Rules,
    planned: int,
    entry: ClassEntry | None,
    front: Frontend,
    *,
    seed: int | None,
    settings: dict[str, Any],
    adaptive: bool,
) -> Session:
    """Start recording a session of ``kind``, ``planned`` questions long; with a class code, its
    result too (the student's name asked first when it is needed). ``settings`` are kept with both."""
    from farkle_trainer.training.session import Session

    result = (
        None if entry is None else entry.begin(front, rules=rules.name, settings=settings, planned=planned)
    )
    code = None if entry is None else entry.code
    params = {**settings, "adaptive": adaptive}
    return Session.start(store, kind, rules=rules.name, seed=seed, code=code, params=params, result=result)


def end_result(front: Frontend, recorder: ResultRecorder, result_complete: bool, **totals: Any) -> None:
    """Finish the result, say where it went in one line, and fail if the file could not be written."""
    from farkle_trainer.ui.views import classroom as view

    result = recorder.finish(complete=result_complete, **totals)
    saved = str(recorder.path) if recorder.saved else None
    front.say(view.result_line(result, saved_to=saved, file_given=recorder.path is not None))
    if recorder.error is not None:
        fail(recorder.error)
