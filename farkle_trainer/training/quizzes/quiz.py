"""Scoring quizzes: answering, the adaptive schedule and the session summary.

The questions and their grading come from :mod:`farkle_trainer.training.quizzes.topics`.

A :class:`Quiz` is the plan of one session; :func:`next_question` reads it with the answers
given so far and says what to ask next. Nothing here reads or writes anything: the command
hands in the store's history (due items, topic mastery) and records the answers.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from farkle_trainer.engine.dice import counts_of
from farkle_trainer.engine.notation import AnswerError, parse_number
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.scoring import explain, score_table
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.training.progress import MASTERED, Suggestion
from farkle_trainer.training.quizzes.questions import (
    DRAW_TRIES,
    LEVELS,
    Answer,
    Grade,
    Level,
    Question,
    QuizError,
)
from farkle_trainer.training.quizzes.topics import TOPICS, make_question, spec_of

if TYPE_CHECKING:
    from farkle_trainer.training.frontend import Frontend

#: A question missed in a session comes back after this many other questions...
REASK_GAP = 3
#: ...taking at most this share of the session's questions.
REASK_SHARE = 1 / 3
#: At most this share of a session goes to items due from earlier sessions.
REVIEW_SHARE = 0.4
#: A mastered topic comes up this much as often as a new one; a weak one (below ``WEAK``) twice.
MASTERED_WEIGHT = 0.25
WEAK = 0.6
WEAK_WEIGHT = 2.0
MAX_COUNT = 100


# -- grading


def grade(q: Question, answer: Answer) -> Grade:
    """Grade an answer to ``q`` as its topic says; a topic not in the registry is refused."""
    return spec_of(q.topic).grade(q, answer)


def check_pick(q: Question, picked: tuple[int, ...]) -> None:
    """Refuse a pick that cannot be set aside (every die set aside must score), saying why."""
    if not picked:
        raise AnswerError("pick at least one die")
    if score_table(q.rules).split(counts_of(picked)) is not None:
        return
    dead = explain(picked, q.rules).dead
    why = " and ".join(d.reason.split(": ")[0] for d in dead)
    raise AnswerError(f"every die set aside must score, and {why}; pick again")


def answer_with(front: Frontend, q: Question, prompt: str) -> Answer:
    """Ask ``q`` through a front end, which asks again until the answer is well formed."""
    if q.form == "points":
        return front.ask(prompt, parse_number)
    if q.form == "yes-no":
        return front.yes_no(prompt)
    return front.pick_dice(prompt, q.dice, lambda picked: check_pick(q, picked))


# -- the session: planning, the schedule, the summary


@dataclass(frozen=True)
class Answered:
    """One question as it was answered."""

    question: Question
    grade: Grade


@dataclass(frozen=True)
class Quiz:
    """The plan of one session.

    ``slots`` are the topics of the new questions in order; ``reviews`` are items due from
    earlier sessions, asked at ``review_at`` places. With ``reask`` a missed question comes
    back ``REASK_GAP`` questions later (sooner in a short quiz), for up to ``REASK_SHARE``
    of the questions. New questions are drawn from ``stream.child(...)`` only, so each
    depends on the seed and its place alone.
    """

    rules: Rules
    stream: Stream = field(repr=False, compare=False)
    count: int
    slots: tuple[str, ...]
    levels: Mapping[str, Level]
    reviews: tuple[Question, ...] = ()
    review_at: tuple[int, ...] = ()
    reask: bool = False
    adaptive: bool = False

    @property
    def topics(self) -> tuple[str, ...]:
        return tuple(t for t in TOPICS if t in self.levels)


def parse_topics(values: Iterable[str] | None) -> tuple[str, ...]:
    """Topics named on the command line, repeated or comma separated; none means all of them."""
    chosen: list[str] = []
    for value in values or ():
        for word in re.split(r"[\s,]+", value.strip().lower()):
            if not word:
                continue
            if word not in TOPICS:
                raise QuizError(f"unknown topic {word!r}: choose from {', '.join(TOPICS)}")
            if word not in chosen:
                chosen.append(word)
    return tuple(t for t in TOPICS if t in chosen) or TOPICS


def parse_level(value: str | None) -> Level | None:
    if value is None:
        return None
    word = value.strip().lower()
    for level in LEVELS:
        if word == level:
            return level
    raise QuizError(f"unknown level {value!r}: choose easy, medium or hard")


def level_for(mastery: float | None) -> Level:
    """The adaptive level of a topic: easy below ``WEAK`` recent accuracy, hard once mastered."""
    if mastery is None:
        return "medium"
    if mastery < WEAK:
        return "easy"
    if mastery >= MASTERED:
        return "hard"
    return "medium"


def topic_weight(mastery: float | None) -> float:
    """How often a topic comes up: less once mastered, more while weak."""
    if mastery is None:
        return 1.0
    if mastery >= MASTERED:
        return MASTERED_WEIGHT
    if mastery < WEAK:
        return WEAK_WEIGHT
    return 1.0


def apportion(topics: Sequence[str], weights: Sequence[float], count: int, stream: Stream) -> tuple[str, ...]:
    """``count`` topics in the proportions of ``weights`` (largest remainders), in a shuffled order."""
    if count <= 0:
        return ()
    order = list(range(len(topics)))
    stream.shuffle(order)  # breaks ties between equal remainders
    total = sum(weights)
    shares = [count * w / total for w in weights]
    quotas = [int(s) for s in shares]
    by_remainder = sorted(order, key=lambda i: -(shares[i] - quotas[i]))
    for i in by_remainder[: count - sum(quotas)]:
        quotas[i] += 1
    slots = [topics[i] for i in range(len(topics)) for _ in range(quotas[i])]
    stream.shuffle(slots)
    # Every topic's first question comes before any topic's second, so each is met early.
    firsts = [i for i, t in enumerate(slots) if slots.index(t) == i]
    return tuple([slots[i] for i in firsts] + [t for i, t in enumerate(slots) if i not in firsts])


def make_quiz(
    rules: Rules,
    stream: Stream,
    *,
    count: int = 10,
    topics: Sequence[str] = TOPICS,
    level: Level | None = None,
    mastery: Mapping[str, float] | None = None,
    reviews: Sequence[Question] = (),
) -> Quiz:
    """Plan a session of ``count`` questions on ``topics``.

    Without ``mastery`` the quiz is fixed: the seed alone decides every question, topics
    are mixed evenly and ``level`` (default medium) is used throughout, so a class with
    one seed gets one quiz. With ``mastery`` (the store's recent accuracy per topic) it
    adapts: each topic's level follows its mastery unless ``level`` is given, mastered
    topics come up less and weak ones more, up to ``REVIEW_SHARE`` of the questions are
    ``reviews`` due from earlier sessions, and missed questions come back.
    """
    if not 1 <= count <= MAX_COUNT:
        raise QuizError(f"a quiz has 1 to {MAX_COUNT} questions, not {count}")
    topics = tuple(t for t in TOPICS if t in topics)
    if not topics:
        raise QuizError(f"choose at least one topic: {', '.join(TOPICS)}")
    adaptive = mastery is not None
    known = mastery or {}
    levels: dict[str, Level] = {
        t: level if level is not None else level_for(known.get(t)) if adaptive else "medium" for t in topics
    }
    used = [r for r in reviews if r.topic in topics][: int(count * REVIEW_SHARE)] if adaptive else []
    weights = [topic_weight(known.get(t)) if adaptive else 1.0 for t in topics]
    slots = apportion(topics, weights, count - len(used), stream.child("topics"))
    review_at = tuple(j * count // len(used) for j in range(len(used))) if used else ()
    return Quiz(
        rules=rules,
        stream=stream,
        count=count,
        slots=slots,
        levels=levels,
        reviews=tuple(used),
        review_at=review_at,
        reask=adaptive,
        adaptive=adaptive,
    )


def _repeats(history: Sequence[Answered]) -> int:
    seen: set[str] = set()
    repeats = 0
    for a in history:
        item = a.question.item
        repeats += item in seen
        seen.add(item)
    return repeats


def pending_reasks(history: Sequence[Answered]) -> list[tuple[int, Question]]:
    """Questions missed at their first asking this session and not asked again, oldest first."""
    first: dict[str, int] = {}
    pending: dict[str, tuple[int, Question]] = {}
    for i, a in enumerate(history):
        item = a.question.item
        if item in first:
            pending.pop(item, None)
            continue
        first[item] = i
        if not a.grade.correct:
            pending[item] = (i, a.question)
    return sorted(pending.values(), key=lambda p: p[0])


def next_question(quiz: Quiz, history: Sequence[Answered]) -> Question | None:
    """What to ask after ``history`` (the answers so far), or None when the quiz is over.

    A pure function of the plan and the answers: the same answers give the same questions.
    """
    i = len(history)
    if i >= quiz.count:
        return None
    repeats = _repeats(history)
    room = max(1, int(quiz.count * REASK_SHARE)) - repeats
    if quiz.reask and room > 0 and (pending := pending_reasks(history)):
        since, missed = pending[0]
        # Back after REASK_GAP other questions, or sooner if the quiz would end first,
        # but never straight after its own answer.
        last_chance = quiz.count - i <= min(len(pending), room) and i - since > 1
        if i - since > REASK_GAP or last_chance:
            return missed
    k = i - repeats  # places of the plan used so far
    if k in quiz.review_at:
        return quiz.reviews[quiz.review_at.index(k)]
    fresh = k - sum(1 for j in quiz.review_at if j < k)
    topic = quiz.slots[min(fresh, len(quiz.slots) - 1)]
    asked = {a.question.item for a in history} | {r.item for r in quiz.reviews}
    q = make_question(topic, quiz.rules, quiz.levels[topic], quiz.stream.child(f"q{fresh}"))
    for attempt in range(1, DRAW_TRIES):
        if q.item not in asked:
            break
        q = make_question(topic, quiz.rules, quiz.levels[topic], quiz.stream.child(f"q{fresh}/{attempt}"))
    return q


def returning(quiz: Quiz, history: Sequence[Answered], q: Question) -> str | None:
    """``"again"`` for a question missed earlier this session, ``"review"`` for one due from before."""
    if any(a.question.item == q.item for a in history):
        return "again"
    if q in quiz.reviews:
        return "review"
    return None


def fixed_questions(quiz: Quiz) -> list[Question]:
    """Every question of a quiz answered right throughout: the questions a seed stands for."""
    history: list[Answered] = []
    while (q := next_question(quiz, history)) is not None:
        history.append(Answered(q, Grade(True, "", "", (), None)))
    return [a.question for a in history]


@dataclass(frozen=True)
class TopicScore:
    topic: str
    asked: int
    right: int


@dataclass(frozen=True)
class Summary:
    """The end of a session: how it went, by topic, and what to drill next.

    ``seconds`` is None when the answers were not timed (they came from a pipe).
    """

    count: int
    asked: int
    right: int
    topics: tuple[TopicScore, ...]
    missed: tuple[TopicScore, ...]
    seconds: float | None
    stopped: bool
    suggestion: Suggestion | None
    #: Every answer that was wrong, in the order given, with the right answer in its grade.
    wrong: tuple[Answered, ...] = ()

    @property
    def per_question(self) -> float | None:
        return None if self.seconds is None or not self.asked else self.seconds / self.asked


def summarize(
    quiz: Quiz,
    history: Sequence[Answered],
    *,
    seconds: float | None = None,
    rules_option: str | None = None,
) -> Summary:
    """Score, time, topics missed (most missed first) and a suggestion of what to drill next.

    ``rules_option`` is what ``--rules`` was given, repeated in the suggested command.
    """
    topics = []
    for t in TOPICS:
        answers = [a for a in history if a.question.topic == t]
        if answers:
            topics.append(TopicScore(t, len(answers), sum(a.grade.correct for a in answers)))
    missed = sorted(
        (t for t in topics if t.right < t.asked),
        key=lambda t: (-(t.asked - t.right), t.right / t.asked, TOPICS.index(t.topic)),
    )
    right = sum(a.grade.correct for a in history)
    suffix = "" if rules_option in (None, "classic") else f" --rules {shlex.quote(str(rules_option))}"
    suggestion: Suggestion | None = None
    if missed:
        worst = missed[0]
        suggestion = Suggestion(
            f"farkle-train score --topic {worst.topic}{suffix}",
            f"you missed {worst.asked - worst.right} of {worst.asked} {worst.topic} "
            f"question{'s' if worst.asked > 1 else ''}",
        )
    elif history and len(history) == quiz.count:
        if all(quiz.levels[t] == "hard" for t in quiz.topics):
            suggestion = Suggestion(
                f"farkle-train decide{suffix}", "scoring is going well: practise bank-or-roll decisions"
            )
        else:
            suggestion = Suggestion(f"farkle-train score --level hard{suffix}", "every answer was right")
    return Summary(
        count=quiz.count,
        asked=len(history),
        right=right,
        topics=tuple(topics),
        missed=tuple(missed),
        seconds=seconds,
        stopped=len(history) < quiz.count,
        suggestion=suggestion,
        wrong=tuple(a for a in history if not a.grade.correct),
    )
