"""One training session: ask, grade, record, keep the result file, stop cleanly.

Quizzes, drills, daily practice and class challenges all run through :class:`Session`:
every answer becomes an :class:`~farkle_trainer.training.record.AnswerRecord`, kept in
the store and (with a class code) in the student's result file the moment it is given,
so Ctrl-C, the end of input or a closed terminal loses nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from farkle_trainer.training.frontend import Rounds, run_rounds

if TYPE_CHECKING:
    from farkle_trainer.store.db import Store
    from farkle_trainer.training.classroom.results import ResultRecorder
    from farkle_trainer.training.record import AnswerRecord

T = TypeVar("T")
R = TypeVar("R")


@dataclass
class Session:
    """A training session in the store, and the result file of a coded one."""

    store: Store
    id: int
    result: ResultRecorder | None = None
    answered: int = 0

    @classmethod
    def start(
        cls,
        store: Store,
        kind: str,
        *,
        rules: str,
        seed: int | None = None,
        code: str | None = None,
        params: dict[str, Any] | None = None,
        result: ResultRecorder | None = None,
    ) -> Session:
        return cls(store, store.start_session(kind, rules=rules, seed=seed, code=code, params=params), result)

    def record(self, answer: AnswerRecord, *, score: int | None = None) -> None:
        """Keep one answer as progress and in the result file (``score``: a game's points so far)."""
        answer.save(self.store, self.id)
        if self.result is not None:
            self.result.add(answer, score=score)
        self.answered += 1

    def run(self, items: Iterable[T], play: Callable[[T], R]) -> Rounds[R]:
        """Play each item in turn (``play`` records its answer); stop cleanly on Ctrl-C or end of input."""
        return run_rounds(items, play)

    def finish(self) -> None:
        self.store.finish_session(self.id)
