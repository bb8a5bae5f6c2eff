"""One graded answer, as every activity records it: a progress row and a result-file entry.

Quizzes, drills, daily practice and class challenges all turn an answer into an
:class:`AnswerRecord` here, and nowhere else; the store keeps it as a row, a result file as
an entry, with the same fields spelled once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from farkle_trainer.engine.grading import Unit
from farkle_trainer.engine.notation import decision_item, decision_question, move_words
from farkle_trainer.store.rows import LossUnit, Mistake

if TYPE_CHECKING:
    from farkle_trainer.engine.decisions import Grading
    from farkle_trainer.store.db import Store
    from farkle_trainer.training.games.analysis import Review
    from farkle_trainer.training.quizzes.quiz import Answered

#: The topic of a decision graded in expected points: every one of the ten-turn game (daily
#: practice, class challenge), and those of whole games valued in points.
GAME_TOPIC = "bank-or-roll"
#: The topic of a decision in a whole game, by what it is graded in.
MATCH_TOPICS: Mapping[str, str] = {
    "points": GAME_TOPIC,
    "chance": "final-round",
    "win": "game",
    "turns": "solo",
}

#: How the store and result files name the unit of each kind of value.
UNIT_LOSSES: dict[Unit, LossUnit] = {
    Unit.POINTS: "points",
    Unit.CHANCE: "percentage points",
    Unit.WIN: "percentage points",
    Unit.TURNS: "turns",
}


#: The fields of an answer that the store records and a result file writes, in the file's order.
_KEPT = ("topic", "question", "item", "answer", "correct_answer", "correct", "grade", "points_lost", "unit")


@dataclass(frozen=True)
class AnswerRecord:
    """One answer: the question, what was answered, what was right, and what it gave up.

    ``item`` is the stable key of the question, the same for everyone who meets it.
    ``points_lost`` is the exact loss in ``unit`` (expected points, or percentage points of
    a chance), None for questions that are only right or wrong. ``extra`` is what the store
    needs to ask the question again; result files leave it out. ``number`` is the answer's
    place in a result file (1, 2, ...), 0 until it is placed there. ``keep`` and ``action``
    are the play of a decision (dice set aside, bank or roll), None for a scoring question:
    a result file keeps them so the play can be graded again. ``mistake`` is the personal
    position of a decision graded an inaccuracy or worse (see
    :mod:`farkle_trainer.training.mistakes`), kept by the store with the answer; result files
    leave it out. ``personal`` is a drill's position as a personal position: the one card of the
    position, which a miss makes from the drill's card and every later answer reviews (see
    :meth:`~farkle_trainer.store.db.Store.record_answer`).
    """

    topic: str
    item: str
    question: str
    answer: str
    correct_answer: str
    correct: bool
    grade: str
    points_lost: float | None = None
    unit: LossUnit = "points"
    extra: Mapping[str, Any] | None = field(default=None, compare=False)
    number: int = 0
    keep: tuple[int, ...] | None = None
    action: str | None = None
    mistake: Mistake | None = field(default=None, compare=False)
    personal: Mistake | None = field(default=None, compare=False)

    @classmethod
    def of_quiz(cls, a: Answered) -> AnswerRecord:
        """A scoring question, right or wrong."""
        q, g = a.question, a.grade
        return cls(
            topic=q.topic,
            item=q.item,
            question=q.text,
            answer=g.answer,
            correct_answer=g.correct_answer,
            correct=g.correct,
            grade="right" if g.correct else "wrong",
            extra=q.extra(),
        )

    @classmethod
    def of_drill(cls, g: Grading) -> AnswerRecord:
        """A drill's decision, graded by what it gave up (a chance in percentage points, a solo
        decision in turns)."""
        from farkle_trainer.engine.decisions import play_words, position_data
        from farkle_trainer.training.drills.words import question_line

        p = g.position
        return cls(
            topic=p.kind,
            item=p.item,
            question=question_line(p),
            answer=play_words(p, g.chosen),
            correct_answer=play_words(p, g.best),
            correct=g.right,
            grade=g.grade,
            points_lost=g.lost,
            unit=UNIT_LOSSES[p.unit],
            extra={
                "position": position_data(p),
                "keep": list(g.chosen.keep),
                "action": g.chosen.action,
                "value": g.chosen.value.amount,
                "best_value": g.best.value.amount,
            },
            keep=tuple(g.chosen.keep),
            action=g.chosen.action,
        )

    @classmethod
    def of_game(cls, r: Review, **context: Any) -> AnswerRecord:
        """A decision of the ten-turn game on shared dice (daily practice, a class challenge),
        graded in points; ``context`` (the date, the class code) joins the move as that game
        keeps it."""
        return replace(cls.of_match(r), extra={**context, **r.move.to_dict(solo=True)})

    @classmethod
    def of_match(cls, r: Review, **context: Any) -> AnswerRecord:
        """A person's decision in a whole game, under the topic of what it is graded by.

        Chances (of winning, of passing the leader) are kept in percentage points; turns of a
        solo game on the points scale ratings use, with the turns themselves in ``extra``.
        """
        from farkle_trainer.engine.grading import Unit, in_points

        m = r.move
        left = len(m.roll) - len(m.keep)
        chance = r.unit in (Unit.WIN, Unit.CHANCE)
        unit: LossUnit = "percentage points" if chance else "points"
        lost = in_points(r.lost, r.unit) if r.unit == Unit.TURNS else r.lost
        return cls(
            topic=MATCH_TOPICS[r.unit.value],
            item=decision_item(m.roll, m.points),
            question=decision_question(m.roll, m.points),
            answer=move_words(m.keep, m.action, left),
            correct_answer=move_words(r.best_keep, r.best_action, len(m.roll) - len(r.best_keep)),
            correct=r.right,
            grade=r.grade,
            points_lost=lost,
            unit=unit,
            extra={**context, **m.to_dict(), "graded_in": r.unit.value, "lost": r.lost},
            keep=tuple(m.keep),
            action=m.action,
        )

    @classmethod
    def of_personal(cls, g: Grading, item: str, rules: Mapping[str, Any]) -> AnswerRecord:
        """A personal position asked again (``decide --mistakes``): a drill whose ``item`` is the
        position's own key, with the rules it keeps (see :mod:`farkle_trainer.training.mistakes`)."""
        drill = cls.of_drill(g)
        return replace(drill, item=item, extra={**(drill.extra or {}), "rules": dict(rules)})

    def numbered(self, number: int) -> AnswerRecord:
        return replace(self, number=number)

    def with_mistake(self, mistake: Mistake | None) -> AnswerRecord:
        return replace(self, mistake=mistake)

    def of_position(self, personal: Mistake) -> AnswerRecord:
        """The answer to a drill whose position, missed, is the personal position ``personal``."""
        return replace(self, personal=personal)

    def save(self, store: Store, session_id: int) -> None:
        """Keep the answer as training progress, the moment it is given (its personal position
        with it, if it was a mistake)."""
        store.record_answer(
            session_id,
            **self._kept(),
            extra=None if self.extra is None else dict(self.extra),
            mistake=self.mistake,
            personal=self.personal,
        )

    def _kept(self) -> dict[str, Any]:
        """What the store and a result file both keep of an answer, in a result file's order."""
        return {name: getattr(self, name) for name in _KEPT}

    def entry(self) -> dict[str, Any]:
        """The answer as a result file keeps it: the loss exact, so a total over files is the sum of
        exact losses, rounded once."""
        entry: dict[str, Any] = {"number": self.number, **self._kept()}
        if self.keep is not None:
            entry["keep"] = list(self.keep)
            entry["action"] = self.action
        return entry
