"""Recompute, don't trust: a result's claims checked against the code's own questions.

A class code fixes every question and every die, so nothing a result file says needs to be
taken on trust except its answers. :func:`verify` asks the code's questions again with the
file's settings and grades the file's answers with the quiz's own grader, the drill's
grading, or a replay of the challenge's moves on the code's dice; then it compares what
follows with what the file claims: each answer's question, grade, right or wrong and loss,
the score, ``complete`` and the solver's own game on the class's dice.

What this proves is that the answers are answers to the code's questions and are graded
right. It cannot prove who gave them (the name is what the student typed) or when
(``started`` and ``finished`` come from the student's clock).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from farkle_trainer.engine.decisions import KINDS, Kind, decision_for, grade
from farkle_trainer.engine.dice import counts_of, is_subset
from farkle_trainer.engine.errors import FarkleError
from farkle_trainer.engine.notation import parse_number, parse_yes_no
from farkle_trainer.engine.rules import PRESETS, Rules
from farkle_trainer.training.classroom.challenge import CHALLENGE_RULES
from farkle_trainer.training.classroom.codes import ACTIVITY_NAMES, class_drills, class_quiz
from farkle_trainer.training.classroom.results import Result, ResultError
from farkle_trainer.training.drills.drills import Level as DrillLevel
from farkle_trainer.training.drills.words import question_line
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games.analysis import review_move
from farkle_trainer.training.games.setup import SOLO_TURNS, for_challenge
from farkle_trainer.training.games.tenturns import perfect_play
from farkle_trainer.training.quizzes.questions import LEVELS, Answer, Question
from farkle_trainer.training.quizzes.quiz import MAX_COUNT, Answered, next_question
from farkle_trainer.training.quizzes.quiz import grade as grade_quiz
from farkle_trainer.training.quizzes.topics import TOPICS
from farkle_trainer.training.record import AnswerRecord

if TYPE_CHECKING:
    from farkle_trainer.engine.tables import Tables

#: The oldest result version whose quizzes and challenges a code still asks the same way, and
#: the oldest whose drills it does (final rounds were drawn another way before).
_SAME_QUESTIONS_SINCE = 2
_SAME_DRILLS_SINCE = 3
#: What a report says of a result it reads but cannot check.
OLDER_FORMAT = "not verifiable (older format)"


class ClaimError(ResultError):
    """A result whose claims do not follow from its answers."""

    def __init__(self, message: str):
        super().__init__("wrong", f"does not add up: {message}")


def verify(tables: Tables, r: Result) -> str | None:
    """Check every claim of ``r`` against its code's questions; :class:`ClaimError` for the first false one.

    Returns None when everything was checked, or why it could not be (an older format, a
    rule set that is not a preset: its table is not known here).
    """
    if _older(r):
        return OLDER_FORMAT
    rules = PRESETS.get(r.rules)
    if r.activity == "challenge":
        # Always played on classic: checked even when it names another table, and refused then.
        _verify_challenge(tables, r)
    elif rules is None:
        return f"not verifiable (rules {r.rules!r} are not a preset)"
    else:
        count = _count(r)
        if r.planned != count:
            raise ClaimError(f"it plans {r.planned} questions, but its settings ask {count}")
        if len(r.answers) > count:
            raise ClaimError(f"{len(r.answers)} answers to {count} questions")
        if r.complete != (len(r.answers) == count):
            said = "complete" if r.complete else "stopped"
            raise ClaimError(f"marked {said} with {len(r.answers)} of {count} answers")
        expected = (
            _quiz_records(r, rules, count)
            if r.activity == "score"
            else _drill_records(tables, r, rules, count)
        )
        _compare(r.answers, expected)
    return None


def _older(r: Result) -> bool:
    """Whether ``r`` is of a format whose answers cannot be checked: version 1 keeps no plays,
    and version 2 drew final-round drills another way. Version 3 changed only that, version 4
    only a key's name: older quizzes and challenges are the same questions and are checked."""
    since = _SAME_DRILLS_SINCE if r.activity == "decide" else _SAME_QUESTIONS_SINCE
    return r.version < since


# -- settings


def _setting(r: Result, key: str) -> Any:
    return r.settings.get(key)


def _count(r: Result) -> int:
    count = _setting(r, "count")
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_COUNT:
        raise ClaimError(f"its settings' count {count!r} is not 1 to {MAX_COUNT}")
    return count


def _choices(r: Result, key: str, allowed: Sequence[str]) -> tuple[str, ...]:
    values = _setting(r, key)
    if not isinstance(values, list) or not values or any(v not in allowed for v in values):
        raise ClaimError(f"its settings' {key} {values!r} are not {', '.join(allowed)}")
    return tuple(values)


def _with_target(r: Result, rules: Rules) -> Rules:
    """The rules with the target and the three-Farkle penalty the settings name (game and solo
    drills keep them there)."""
    penalty = _setting(r, "penalty")
    if penalty is not None:
        if penalty not in (500, 1000) or isinstance(penalty, bool):
            raise ClaimError(f"its settings' penalty {penalty!r} is not 500 or 1,000")
        rules = rules.with_house_rules(three_farkle_penalty=penalty)
    target = _setting(r, "target")
    if target is None:
        return rules
    from farkle_trainer.engine.rules import MAX_TARGET, MIN_TARGET

    if (
        isinstance(target, bool)
        or not isinstance(target, int)
        or target % 50
        or not MIN_TARGET <= target <= MAX_TARGET
    ):
        raise ClaimError(
            f"its settings' target {target!r} is not a multiple of 50 from {MIN_TARGET:,} to {MAX_TARGET:,}"
        )
    return rules.with_house_rules(target=target)


def _level(r: Result) -> str | None:
    level = _setting(r, "level")
    if level is not None and level not in LEVELS:
        raise ClaimError(f"its settings' level {level!r} is not easy, medium or hard")
    return level


# -- asking the code's questions again


def _quiz_records(r: Result, rules: Rules, count: int) -> Iterator[AnswerRecord | str]:
    """The code's quiz asked again, each of the file's answers graded by the quiz's own grader."""
    topics = _choices(r, "topics", TOPICS)
    quiz = class_quiz(r.code, rules, count=count, topics=topics, level=_level(r))  # type: ignore[arg-type]
    history: list[Answered] = []
    for a in r.answers:
        q = next_question(quiz, history)
        assert q is not None, "a quiz asks as many questions as its count"
        if (a.topic, a.item, a.question) != (q.topic, q.item, q.text):
            yield _not_the_codes(a)
            return
        answer = _parse_answer(q, a.answer)
        if answer is None:
            yield f"answer {a.number}, {a.answer!r}, is not an answer this quiz takes"
            return
        done = Answered(q, grade_quiz(q, answer))
        history.append(done)
        yield AnswerRecord.of_quiz(done)


def _parse_answer(q: Question, text: str) -> Answer | None:
    """The answer as typed, from its text in the file; None when the quiz would not have taken it."""
    parse: Callable[[str], Answer] = {"points": parse_number, "yes-no": parse_yes_no}.get(q.form, _dice)
    try:
        answer = parse(text)
    except (FarkleError, ValueError):
        return None
    if isinstance(answer, tuple) and not (answer and is_subset(counts_of(answer), q.counts)):
        return None
    return answer


def _dice(text: str) -> tuple[int, ...]:
    faces = tuple(int(word) for word in text.split())
    counts_of(faces)  # refuses anything that is not a die face
    return faces


def _drill_records(tables: Tables, r: Result, rules: Rules, count: int) -> Iterator[AnswerRecord | str]:
    """The code's drills asked again, each of the file's plays graded by the drill's grading."""
    kinds = tuple(Kind(k) for k in _choices(r, "kinds", KINDS))
    rules = _with_target(r, rules)
    level = _level(r)
    plan = class_drills(
        tables, r.code, rules, count=count, kinds=kinds, level=None if level is None else DrillLevel(level)
    )
    for a, p in zip(r.answers, plan, strict=False):
        if (a.topic, a.item, a.question) != (p.kind, p.item, question_line(p)):
            yield _not_the_codes(a)
            return
        if a.keep is None or a.action not in ("bank", "roll"):
            yield f"answer {a.number} does not say its play"
            return
        try:
            g = grade(decision_for(tables, p), a.keep, a.action)  # type: ignore[arg-type]
        except FarkleError:
            yield f"answer {a.number}'s play is not a play of its position"
            return
        yield AnswerRecord.of_drill(g)


def _not_the_codes(a: AnswerRecord) -> str:
    return f"answer {a.number} is not to the class code's question {a.number}"


# -- replaying a challenge


@dataclass(frozen=True)
class ChallengeGame:
    """The game a class challenge's result records, played again on the class's dice."""

    state: m.MatchState
    code: str
    name: str | None


def challenge_game(tables: Tables, r: Result) -> ChallengeGame:
    """The game of a challenge result, its moves played again on the class code's dice once
    every claim of the file is checked: :class:`ClaimError` for the first that is false, and a
    :class:`ResultError` for a result that is no challenge or keeps no moves."""
    if r.activity != "challenge":
        raise ResultError(
            "not-result",
            f"it holds a {ACTIVITY_NAMES[r.activity]} result, not a game (class report reads it)",
        )
    if _older(r):
        raise ResultError("not-result", "its result format is older and keeps no moves to play again")
    return ChallengeGame(_verify_challenge(tables, r), r.code, r.name)


def _verify_challenge(tables: Tables, r: Result) -> m.MatchState:
    """Replay the moves on the code's dice: each decision graded again, the score and the end;
    the game they make."""
    if r.rules != CHALLENGE_RULES or r.planned != SOLO_TURNS:
        raise ClaimError(f"a challenge is {SOLO_TURNS} turns on {CHALLENGE_RULES} rules")
    setup = for_challenge(r.code)
    source = setup.source()
    state = m.new_match(setup)
    expected: list[AnswerRecord | str] = []
    for a in r.answers:
        state = m.to_decision(state, source)
        if state.over:
            expected.append(f"answer {a.number} comes after the game is over")
            break
        if a.keep is None or a.action not in ("bank", "roll"):
            expected.append(f"answer {a.number} does not say its move")
            break
        before = len(state.log)
        try:
            state = m.play(state, source, a.keep, a.action)  # type: ignore[arg-type]
        except FarkleError:
            expected.append(f"answer {a.number}'s move cannot be played on the class's dice")
            break
        expected.append(AnswerRecord.of_game(review_move(tables, setup, state.log[before])))
    _compare(r.answers, expected)
    # Rolls that need no decision (a Farkle at the start of a turn) follow on their own.
    state = m.to_decision(state, source)
    if r.score != state.banked:
        raise ClaimError(f"a score of {r.score:,}, but its moves bank {state.banked:,}")
    if r.complete and not state.over:
        raise ClaimError(f"marked complete, but its moves stop in turn {state.turn} of {SOLO_TURNS}")
    solver_game = perfect_play(tables, source) if r.complete else None
    if r.solver_game_score != solver_game:
        raise ClaimError(
            f"the solver's own game on the class's dice scores {_points(solver_game)}, "
            f"not {_points(r.solver_game_score)}"
        )
    return state


def _points(value: int | None) -> str:
    return "nothing (the game is not over)" if value is None else f"{value:,}"


# -- comparing


#: What each field of an answer is called when it is not what grading gives.
_FIELDS = {
    "correct": "right or wrong",
    "grade": "grade",
    "correct_answer": "right answer",
    "points_lost": "points lost",
    "unit": "unit",
    "answer": "answer",
}


def _compare(
    given: Sequence[AnswerRecord], expected: Iterator[AnswerRecord | str] | list[AnswerRecord | str]
) -> None:
    """Each answer as the file has it against the same answer graded again."""
    for a, e in zip(given, expected, strict=False):
        if isinstance(e, str):
            raise ClaimError(e)
        want = e.numbered(a.number).entry()
        have = a.entry()
        for key, words in _FIELDS.items():
            if have.get(key) != want.get(key):
                said, graded = _shown(have.get(key)), _shown(want.get(key))
                raise ClaimError(f"answer {a.number} has {words} {said}; graded again it is {graded}")
        if have != want:
            raise ClaimError(_not_the_codes(a))


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "right" if value else "wrong"
    if isinstance(value, float):
        return f"{value:,.2f}"
    return "none" if value is None else repr(value)
