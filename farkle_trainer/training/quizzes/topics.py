"""The quiz topics: each declared once, with everything about it.

A topic's :class:`TopicSpec` says how its answer is given (its form), how many dice its
questions show at each level, how a question is drawn, how it reads, when a stored question
still fits, how an answer is graded and what the right answer is. Adding a topic is a member
of :class:`Topic` and the function that draws its questions, declared with
:func:`declare_topic` (its wording, how it is answered, its sizes and when a question fits);
nothing else switches on the topic.

* ``worth``: what a set-aside is worth (every die in it scores);
* ``valid``: can these dice all be set aside together (and which die breaks it);
* ``farkle``: is this roll a Farkle;
* ``best``: pick the dice worth the most points from a roll;
* ``combos``: the six-dice combinations and their traps (three pairs against four of a kind
  and a pair, two triplets against six of a kind, four 1s, straights and near straights),
  answered in points, 0 when the dice cannot all be set aside.

Answers are graded against :func:`~farkle_trainer.engine.scoring.score_table`, never stored.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from farkle_trainer.engine.dice import Counts, counts_of, faces_of
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.scoring import Split, explain, score_table
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.training.quizzes.questions import (
    DRAW_TRIES,
    LEVELS,
    TARGETED_SHARE,
    Answer,
    Form,
    Grade,
    Level,
    Question,
    QuizError,
    as_rolled,
    at_most,
    dashed,
    fair_roll,
    fits_level,
    points_text,
    rule_dice,
    spaced,
    targeted_set,
    trap_notes,
)


class Topic(StrEnum):
    """The quiz topics, in the order menus, summaries and the store list them."""

    WORTH = "worth"
    VALID = "valid"
    FARKLE = "farkle"
    BEST = "best"
    COMBOS = "combos"


#: Every topic's name, in order.
TOPICS: tuple[str, ...] = tuple(t.value for t in Topic)


#: Draws a question of one topic at a level, from a stream alone.
Maker = Callable[[Rules, Level, Stream], Question]


@dataclass(frozen=True)
class TopicSpec:
    """Everything about one topic.

    ``text`` is the question in words, ``{dice}`` standing for the dice as shown.
    ``sizes`` bounds how many dice a question shows, by level (a ``valid`` question
    borrowed from ``combos`` shows the combination's dice).
    """

    topic: Topic
    form: Form
    sizes: Mapping[Level, tuple[int, int]]
    make: Maker
    text: str
    fits: Callable[[Question], bool]
    grade: Callable[[Question, Answer], Grade]
    #: The right answer, from the scoring table alone (a worksheet's key).
    key: Callable[[Question], Answer]


#: The registry: one entry per topic, in :class:`Topic` order, each declared on its maker
#: (see :func:`declare_topic`).
SPECS: dict[Topic, TopicSpec] = {}


def question(
    topic: str, dice: tuple[int, ...], rules: Rules, level: Level = "medium", combo: str | None = None
) -> Question:
    """The question ``topic`` asks about ``dice``, worded and formed as its spec says."""
    spec = spec_of(topic)
    return Question(
        str(spec.topic), dice, rules, level, combo, form=spec.form, text=spec.text.format(dice=dashed(dice))
    )


def spec_of(topic: str) -> TopicSpec:
    """The spec of ``topic``; an unknown topic is refused, never asked or graded as another."""
    try:
        return SPECS[Topic(topic)]
    except ValueError:
        raise QuizError(f"unknown topic {topic!r}: choose from {', '.join(TOPICS)}") from None


def make_question(topic: str, rules: Rules, level: Level, stream: Stream) -> Question:
    """A question on ``topic`` at ``level``, drawn from ``stream`` alone."""
    return spec_of(topic).make(rules, level, stream)


def revive(extra: Mapping[str, Any] | None, rules: Rules, topics: Sequence[str] = TOPICS) -> Question | None:
    """The question a stored item asks, or None when it does not fit this quiz.

    Items from another table, from a topic not being drilled, or whose dice no longer
    make the question sensible (a ``worth`` set that does not score under a changed
    rule file) are left for another session.
    """
    if not extra or extra.get("rules") != rules.name:
        return None
    topic = extra.get("topic")
    dice = extra.get("dice")
    level = extra.get("level", "medium")
    combo = extra.get("combo")
    if not isinstance(topic, str) or topic not in topics or topic not in TOPICS:
        return None
    if level not in LEVELS or not isinstance(dice, list):
        return None
    if not 1 <= len(dice) <= 6 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
        return None
    if combo is not None and not isinstance(combo, str):
        return None
    q = question(topic, tuple(dice), rules, level, combo)
    return q if spec_of(topic).fits(q) else None


# -- when a question fits


def _always(q: Question) -> bool:
    return True


def _scores_whole(q: Question) -> bool:
    """A ``worth`` set must score as a whole."""
    return score_table(q.rules).split(q.counts) is not None


def _has_a_score(q: Question) -> bool:
    """A ``best`` roll must have something to set aside."""
    return not score_table(q.rules).is_farkle(q.counts)


# -- grading


def _yes_no(value: bool) -> str:
    return "yes" if value else "no"


def _cannot(dice: tuple[int, ...], rules: Rules) -> list[str]:
    """Why a set of dice cannot all be set aside: each dead die, and what the rest scores."""
    e = explain(dice, rules)
    lines = [f"{dashed(d.dice)}: {d.reason}." for d in e.dead]
    if e.scoring_part is not None:
        part = e.scoring_part
        lines.append(f"The rest, {dashed(part.dice)}, scores {points_text(part.points)}: {part.describe()}.")
    return lines


def _farkle_reason(n: int, rules: Rules) -> str:
    """What a Farkle of ``n`` dice lacks, in the table's terms."""
    lacks = ["no 1 or 5"]
    if n >= 3:
        lacks.append("no three alike")
    if n >= 5 and (rules.partial_straight_low or rules.partial_straight_high):
        lacks.append("no five-dice straight")
    if n == 6:
        six = [name for name, on in (("straight", rules.straight), ("three pairs", rules.three_pairs)) if on]
        if six:
            lacks.append("no " + " or ".join(six))
    return ", ".join(lacks)


def _for(split: Split) -> str:
    """``1-5 for 150: single 1 100 + single 5 50``."""
    return f"{dashed(split.dice)} for {points_text(split.points)}: {split.describe()}"


def _grade_points(q: Question, answer: Answer) -> Grade:
    assert isinstance(answer, int) and not isinstance(answer, bool)
    split = score_table(q.rules).split(q.counts)
    d = dashed(q.dice)
    if split is None:
        right = 0
        lines = [f"0 points: {d} can't all be set aside.", *_cannot(q.dice, q.rules)]
    else:
        right = split.points
        lines = [f"{d} are worth {points_text(right)}: {split.describe()}."]
    notes = trap_notes(q.counts, q.rules)
    return Grade(answer == right, points_text(answer), points_text(right), tuple(lines), split, notes)


def _grade_valid(q: Question, answer: Answer) -> Grade:
    assert isinstance(answer, bool)
    split = score_table(q.rules).split(q.counts)
    valid = split is not None
    if split is not None:
        lines = [f"Yes: every die scores, {points_text(split.points)} in all: {split.describe()}."]
    else:
        lines = [f"No: {dashed(q.dice)} can't all be set aside.", *_cannot(q.dice, q.rules)]
        split = explain(q.dice, q.rules).scoring_part
    notes = trap_notes(q.counts, q.rules)
    return Grade(answer == valid, _yes_no(answer), _yes_no(valid), tuple(lines), split, notes)


def _grade_farkle(q: Question, answer: Answer) -> Grade:
    assert isinstance(answer, bool)
    best = score_table(q.rules).best_selection(q.counts)
    if best is None:
        reason = _farkle_reason(len(q.dice), q.rules)
        lines = [f"Yes, a Farkle: nothing in {dashed(q.dice)} scores ({reason})."]
    else:
        lines = [f"No: you can set aside {_for(best)}."]
    farkle = best is None
    notes = trap_notes(q.counts, q.rules)
    return Grade(answer == farkle, _yes_no(answer), _yes_no(farkle), tuple(lines), best, notes)


def _grade_best(q: Question, answer: Answer) -> Grade:
    assert isinstance(answer, tuple)
    table = score_table(q.rules)
    best = table.best_selection(q.counts)
    assert best is not None, "a best question is never asked about a Farkle"
    picked = table.split(counts_of(answer))
    right = picked is not None and picked.points == best.points
    said = f"you picked {dashed(answer)}" + (f", worth {points_text(picked.points)}" if picked else "")
    notes = trap_notes(q.counts, q.rules)
    lines = (f"The most is {_for(best)}.",)
    return Grade(right, spaced(answer), spaced(best.dice), lines, best, notes, said)


def _key_points(q: Question) -> Answer:
    split = score_table(q.rules).split(q.counts)
    return 0 if split is None else split.points


def _key_valid(q: Question) -> Answer:
    return score_table(q.rules).split(q.counts) is not None


def _key_farkle(q: Question) -> Answer:
    return score_table(q.rules).is_farkle(q.counts)


def _key_best(q: Question) -> Answer:
    best = score_table(q.rules).best_selection(q.counts)
    assert best is not None, "a best question is never asked about a Farkle"
    return best.dice


# -- declaring a topic


@dataclass(frozen=True)
class Answering:
    """How a topic is answered: the form of the answer, its grader and its key.

    Topics that are answered alike share one (``worth`` and ``combos`` are both answered in
    points, 0 when the dice cannot all be set aside).
    """

    form: Form
    grade: Callable[[Question, Answer], Grade]
    key: Callable[[Question], Answer]


_IN_POINTS = Answering("points", _grade_points, _key_points)
_ALL_SCORE = Answering("yes-no", _grade_valid, _key_valid)
_NONE_SCORES = Answering("yes-no", _grade_farkle, _key_farkle)
_MOST_POINTS = Answering("dice", _grade_best, _key_best)


def declare_topic(
    topic: Topic,
    text: str,
    answering: Answering,
    sizes: tuple[tuple[int, int], ...],
    fits: Callable[[Question], bool] = _always,
) -> Callable[[Maker], Maker]:
    """Enter ``topic`` in :data:`SPECS`, its questions drawn by the function this decorates.

    ``sizes`` are the fewest and most dice shown at each level, in :data:`LEVELS` order.
    """

    def enter(make: Maker) -> Maker:
        by_level = dict(zip(LEVELS, sizes, strict=True))
        SPECS[topic] = TopicSpec(
            topic, answering.form, by_level, make, text, fits, answering.grade, answering.key
        )
        return make

    return enter


# -- drawing questions


@declare_topic(Topic.WORTH, "What are {dice} worth?", _IN_POINTS, ((1, 3), (3, 5), (4, 6)), _scores_whole)
def _make_worth(rules: Rules, level: Level, stream: Stream) -> Question:
    """What is this set-aside worth? Every die in it scores."""
    table = score_table(rules)
    low, high = SPECS[Topic.WORTH].sizes[level]
    n = stream.randint(low, high)
    counts = None
    if stream.random() >= TARGETED_SHARE:
        counts = fair_roll(
            stream,
            n,
            lambda c: (s := table.split(c)) is not None and fits_level(s, rules, level),
        )
    dice = faces_of(counts) if counts else targeted_set(rules, level, stream, low, high)
    return question(Topic.WORTH, dice, rules, level)


@declare_topic(Topic.VALID, "Can you set aside {dice}?", _ALL_SCORE, ((2, 3), (3, 5), (4, 6)))
def _make_valid(rules: Rules, level: Level, stream: Stream) -> Question:
    """Can these dice all be set aside? Half the time they can; when not, some of them do score."""
    table = score_table(rules)
    valid = stream.random() < 0.5
    if level == "hard" and stream.random() < 1 / 3:
        combo = _make_combos(rules, level, stream)
        return question(Topic.VALID, combo.dice, rules, level, combo.combo)
    low, high = SPECS[Topic.VALID].sizes[level]
    n = stream.randint(low, high)

    def accept(c: Counts) -> bool:
        split = table.split(c)
        if valid:
            return split is not None and fits_level(split, rules, level)
        part = table.scoring_part(c)
        return split is None and part is not None and len(part.dice) > 0 and fits_level(part, rules, level)

    counts = None
    if stream.random() >= TARGETED_SHARE or not valid:
        counts = fair_roll(stream, n, accept)
    if counts is None:
        return question(Topic.VALID, targeted_set(rules, level, stream, low, high), rules, level)
    return question(Topic.VALID, faces_of(counts), rules, level)


@declare_topic(Topic.FARKLE, "Is {dice} a Farkle?", _NONE_SCORES, ((1, 3), (3, 5), (5, 6)))
def _make_farkle(rules: Rules, level: Level, stream: Stream) -> Question:
    """Is this roll a Farkle? Half of them are. Hard rolls that score often have no 1 or 5."""
    table = score_table(rules)
    low, high = SPECS[Topic.FARKLE].sizes[level]
    n = stream.randint(low, high)
    farkle = stream.random() < 0.5
    no_singles = level == "hard" and not farkle and stream.random() < 2 / 3

    def accept(c: Counts) -> bool:
        if table.is_farkle(c) != farkle:
            return False
        return not no_singles or (c[0] == 0 and c[4] == 0)

    counts = fair_roll(stream, n, accept) or fair_roll(stream, n, lambda c: table.is_farkle(c) == farkle)
    assert counts is not None, "every size from 1 to 6 has rolls that score and rolls that do not"
    return question(Topic.FARKLE, as_rolled(stream, counts), rules, level)


@declare_topic(
    Topic.BEST,
    "You rolled {dice}: set aside the most points.",
    _MOST_POINTS,
    ((2, 4), (4, 6), (5, 6)),
    _has_a_score,
)
def _make_best(rules: Rules, level: Level, stream: Stream) -> Question:
    """Set aside the most points from a roll with at least two ways to score."""
    table = score_table(rules)
    low, high = SPECS[Topic.BEST].sizes[level]
    n = stream.randint(low, high)

    def accept(c: Counts) -> bool:
        chosen = table.selections(c)
        if len(chosen) < 2:
            return False
        best = chosen[0]
        if level == "hard":
            return any(not g.name.startswith("single") for g in best.groups)
        return fits_level(best, rules, level)

    if stream.random() < TARGETED_SHARE:
        for _ in range(DRAW_TRIES):
            core = targeted_set(rules, level, stream, 1, n)
            counts = counts_of(core + stream.dice(n - len(core)))
            if accept(counts):
                return question(Topic.BEST, as_rolled(stream, counts), rules, level)
    fair = fair_roll(stream, n, accept) or fair_roll(stream, n, lambda c: len(table.selections(c)) >= 2)
    assert fair is not None, "every size from 2 to 6 has rolls with two ways to score"
    return question(Topic.BEST, as_rolled(stream, fair), rules, level)


def _near_straight(stream: Stream) -> tuple[int, ...]:
    """Six dice one face short of a straight: one face missing, another doubled."""
    faces = [1, 2, 3, 4, 5, 6]
    missing = faces.pop(stream.below(6))
    return tuple(sorted([*faces, stream.choice([f for f in faces if f != missing])]))


def _short_straight(stream: Stream) -> tuple[int, ...]:
    return stream.choice(((1, 2, 3, 4, 5), (2, 3, 4, 5, 6)))


def _four_ones(stream: Stream) -> tuple[int, ...]:
    return (1, 1, 1, 1) + ((5,) if stream.random() < 0.5 else ())


#: The combinations a ``combos`` question is about, the easiest level that asks each, and its dice.
COMBOS: dict[str, tuple[Level, Callable[[Stream], tuple[int, ...]]]] = {
    "straight": ("easy", lambda s: rule_dice("straight 1-6", s)),
    "three pairs": ("easy", lambda s: rule_dice("three pairs", s)),
    "two triplets": ("easy", lambda s: rule_dice("two triplets", s)),
    "six of a kind": ("easy", lambda s: rule_dice("six of a kind", s)),
    "four 1s": ("medium", _four_ones),
    "five of a kind": ("medium", lambda s: rule_dice("five of a kind", s)),
    "four of a kind and a pair": ("medium", lambda s: rule_dice("four of a kind and a pair", s)),
    "near straight": ("hard", _near_straight),
    "short straight": ("hard", _short_straight),
}


@declare_topic(
    Topic.COMBOS,
    "What are {dice} worth, all set aside together? (0 if they can't be)",
    _IN_POINTS,
    # What the combinations of each level show: six dice at first, then four 1s and
    # five alike, then short straights.
    ((6, 6), (4, 6), (4, 6)),
)
def _make_combos(rules: Rules, level: Level, stream: Stream) -> Question:
    """A combination or a look-alike, answered in points (0 if not every die can score).

    Every combination is asked whatever the table: under ``classic``, 2-2-2-2-3-3 is a
    question whose answer is 0, because the table has no four of a kind and a pair.
    """
    upto = at_most(level)
    names = [name for name, (lvl, _) in COMBOS.items() if lvl in upto]
    name = stream.choice(names)
    return question(Topic.COMBOS, COMBOS[name][1](stream), rules, level, name)
