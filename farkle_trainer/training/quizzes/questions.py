"""What every quiz question shares: the table's rules by level, the question, its grade.

A question is a topic, the dice it shows and the table it is asked on. What each topic
asks, how its dice are drawn and how an answer is graded is declared once per topic in
:mod:`farkle_trainer.training.quizzes.topics`; this module holds what the topics draw on.

Dice come from fair rolls (a multiset drawn with its exact chance, conditioned on what the
question needs) and, for some topics, from one scoring rule of the table picked on purpose
(:func:`targeted_set`), so every rule of the chosen table turns up.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import KW_ONLY, dataclass, field
from typing import Any, Literal

from farkle_trainer.engine.dice import Counts, counts_of, faces_of, multisets, roll_chance, size
from farkle_trainer.engine.errors import InputError
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.scoring import Split, score_table
from farkle_trainer.engine.seeded import Stream

Level = Literal["easy", "medium", "hard"]
Form = Literal["points", "yes-no", "dice"]

LEVELS: tuple[Level, ...] = ("easy", "medium", "hard")
#: Share of the questions of a rule-targeting topic built around one rule of the table, so every
#: rule is met; the rest come from fair rolls alone.
TARGETED_SHARE = 0.5
#: Tries at drawing a question that fits: a ``best`` roll built around one rule, or a question
#: not asked yet in a session.
DRAW_TRIES = 20


class QuizError(InputError):
    """A quiz that cannot be set up or graded: an unknown topic or level, or a bad question count."""


# -- the table's scoring rules, by level


def table_rules(rules: Rules) -> tuple[str, ...]:
    """Every scoring rule of a table, named as in :meth:`Rules.table` ("three 4s", "three pairs")."""
    return tuple(name for name, value in rules.table() if value != "-")


def rules_in(split: Split | None) -> frozenset[str]:
    """The table rules a split uses."""
    return frozenset() if split is None else frozenset(g.rule for g in split.groups)


_HARD_RULES = {"six of a kind", "straight 1-6", "three pairs", "four of a kind and a pair", "two triplets"}
_MEDIUM_RULES = {"four of a kind", "five of a kind", "straight 1-5", "straight 2-6"}


def rule_level(rule: str) -> Level:
    """Singles and three of a kind are easy; four and five alike and short straights medium; the rest hard."""
    if rule in _HARD_RULES:
        return "hard"
    if rule in _MEDIUM_RULES:
        return "medium"
    return "easy"


def at_most(level: Level) -> set[Level]:
    return set(LEVELS[: LEVELS.index(level) + 1])


def allowed_rules(rules: Rules, level: Level) -> tuple[str, ...]:
    """The rules of the table that questions of ``level`` may use."""
    upto = at_most(level)
    return tuple(r for r in table_rules(rules) if rule_level(r) in upto)


def _kind(rule: str) -> str:
    """Rules that are one idea for the learner, to weigh them as one: the six triples, the two singles."""
    if rule.startswith("single"):
        return "single"
    if re.fullmatch(r"three [1-6]s", rule):
        return "three of a kind"
    return rule


def rule_size(rule: str) -> int:
    """How many dice a rule of the table takes."""
    if rule.startswith("single"):
        return 1
    if rule.startswith("three ") and rule != "three pairs":
        return 3
    if rule.startswith("four of a kind") and rule != "four of a kind and a pair":
        return 4
    if rule in ("five of a kind", "straight 1-5", "straight 2-6"):
        return 5
    return 6


def rule_dice(rule: str, stream: Stream) -> tuple[int, ...]:
    """Dice that score by ``rule``, faces drawn where the rule leaves them open."""
    faces = [1, 2, 3, 4, 5, 6]
    if rule in ("single 1", "single 5"):
        return (int(rule[-1]),)
    if m := re.fullmatch(r"three ([1-6])s", rule):
        return (int(m[1]),) * 3
    if m := re.fullmatch(r"(four|five|six) of a kind", rule):
        return (stream.randint(1, 6),) * {"four": 4, "five": 5, "six": 6}[m[1]]
    if rule == "straight 1-6":
        return (1, 2, 3, 4, 5, 6)
    if rule == "straight 1-5":
        return (1, 2, 3, 4, 5)
    if rule == "straight 2-6":
        return (2, 3, 4, 5, 6)
    stream.shuffle(faces)
    if rule == "three pairs":
        return tuple(sorted(faces[:3] * 2))
    if rule == "four of a kind and a pair":
        return tuple(sorted((faces[0],) * 4 + (faces[1],) * 2))
    if rule == "two triplets":
        return tuple(sorted((faces[0],) * 3 + (faces[1],) * 3))
    raise QuizError(f"no dice for the rule {rule!r}")


# -- questions


def dashed(dice: Iterable[int]) -> str:
    """Dice as the quiz writes them: ``1-1-5``."""
    return "-".join(str(d) for d in dice)


def spaced(dice: Iterable[int]) -> str:
    """Dice as typed or picked: ``1 1 5``."""
    return " ".join(str(d) for d in dice)


def points_text(value: int) -> str:
    return f"{value:,}"


@dataclass(frozen=True)
class Question:
    """One quiz question: a topic, the dice shown (a roll keeps its order) and the table.

    ``combo`` names the combination a ``combos`` question is about. ``item`` is the stable
    key the review schedule knows the question by: the same dice on the same table and
    topic are the same item, whatever order they were shown in. ``form`` and ``text`` come
    from the topic's entry in the registry, which builds every question
    (:func:`farkle_trainer.training.quizzes.topics.question`).
    """

    topic: str
    dice: tuple[int, ...]
    rules: Rules = field(repr=False)
    level: Level = "medium"
    combo: str | None = None
    _: KW_ONLY
    form: Form = field(repr=False, compare=False)
    #: The question in words, as recorded with the answer.
    text: str = field(repr=False, compare=False)

    @property
    def counts(self) -> Counts:
        return counts_of(self.dice)

    @property
    def item(self) -> str:
        return f"{self.topic}:{dashed(sorted(self.dice))}@{self.rules.name}"

    def extra(self) -> dict[str, Any]:
        """What the store keeps to ask this question again (see ``topics.revive``)."""
        return {
            "topic": self.topic,
            "dice": list(self.dice),
            "level": self.level,
            "combo": self.combo,
            "rules": self.rules.name,
        }


def fair_roll(stream: Stream, n: int, accept: Callable[[Counts], bool]) -> Counts | None:
    """A roll of ``n`` fair dice given that ``accept`` takes it: each multiset with its exact chance."""
    found = [c for c in multisets(n) if accept(c)]
    if not found:
        return None
    return stream.weighted(found, [float(roll_chance(c)) for c in found])


def as_rolled(stream: Stream, counts: Counts) -> tuple[int, ...]:
    """The dice of a multiset in the order a roll might show them."""
    faces = list(faces_of(counts))
    stream.shuffle(faces)
    return tuple(faces)


def targeted_set(rules: Rules, level: Level, stream: Stream, low: int, high: int) -> tuple[int, ...]:
    """A scoring set built around one rule of the table, padded with 1s and 5s to a size in range."""
    candidates = [r for r in allowed_rules(rules, level) if rule_size(r) <= high]
    kinds = sorted({_kind(r) for r in candidates})
    # Three of a kind, the group met most in play, comes up twice as often as each other kind.
    weights = [2.0 if k == "three of a kind" else 1.0 for k in kinds]
    kind = stream.weighted(kinds, weights)
    rule = stream.choice([r for r in candidates if _kind(r) == kind])
    dice = list(rule_dice(rule, stream))
    target = stream.randint(max(low, len(dice)), max(high, len(dice)))
    while len(dice) < target:
        dice.append(stream.choice((1, 5)))
    return tuple(sorted(dice))


def fits_level(split: Split | None, rules: Rules, level: Level) -> bool:
    return rules_in(split) <= set(allowed_rules(rules, level))


# -- grading

Answer = int | bool | tuple[int, ...]


@dataclass(frozen=True)
class Grade:
    """The grading of one answer: right or not, the right answer, and why.

    ``split`` is the split that explains the right answer (None when the dice cannot
    score). ``explanation`` is a few sentences; ``notes`` name the trap behind a common
    wrong answer and are worth showing when the answer was wrong.
    """

    correct: bool
    answer: str
    correct_answer: str
    explanation: tuple[str, ...]
    split: Split | None
    notes: tuple[str, ...] = ()
    said: str = ""

    @property
    def verdict(self) -> str:
        """``Right.`` or ``Wrong: you said 1,000.``"""
        return "Right." if self.correct else f"Wrong: {self.said or 'you said ' + self.answer}."


_ALIKE = {4: "four", 5: "five", 6: "six"}


def _of_a_kind_notes(counts: Counts, rules: Rules, used: frozenset[str]) -> list[str]:
    """The table's rule for four, five or six alike, for each such group the split scores."""
    notes = []
    for index, count in enumerate(counts):
        name = f"{_ALIKE.get(count, '')} of a kind"
        if count < 4 or name not in used:
            continue
        face = index + 1
        value = rules.of_a_kind_points(face, count)
        assert value is not None
        if rules.of_a_kind == "fixed":
            notes.append(f"{name.capitalize()} is {points_text(value)} whatever the face.")
        else:
            triple = rules.triples[index]
            times = value // triple
            notes.append(
                f"{name.capitalize()} is {times} times the face's three of a kind: "
                f"{_ALIKE[count]} {face}s are {times} x {points_text(triple)} = {points_text(value)}."
            )
    return notes


def trap_notes(counts: Counts, rules: Rules) -> tuple[str, ...]:
    """The rule behind the usual mistake with these dice, when they show a well-known trap."""
    notes: list[str] = []
    n = size(counts)
    shape = sorted((k for k in counts if k), reverse=True)
    split = score_table(rules).split(counts)
    used = rules_in(split)
    four_ones = rules.of_a_kind_points(1, 4)
    split_ones = rules.triples[0] + rules.single_one
    if counts[0] == 4 and four_ones is not None and split_ones > four_ones:
        notes.append(
            f"Four 1s score more as three 1s and a single 1 ({points_text(split_ones)}) "
            f"than as four of a kind ({points_text(four_ones)}): dice are split to score the most."
        )
    if n == 6 and shape == [4, 2]:
        if "four of a kind and a pair" in used:
            value = points_text(rules.four_of_a_kind_and_pair or 0)
            notes.append(f"Four of a kind and a pair score {value} together on this table.")
        elif rules.four_of_a_kind_and_pair is None:
            notes.append(
                "Four of a kind and a pair are not three pairs (those need three different faces), "
                "and this table has no four-of-a-kind-and-a-pair combination."
            )
    if n == 6 and shape == [2, 2, 2]:
        if rules.three_pairs is not None:
            notes.append(f"Any three pairs score {points_text(rules.three_pairs)}, whatever the faces.")
        else:
            notes.append("This table has no three-pairs combination.")
    if n == 6 and shape == [3, 3]:
        if "two triplets" in used:
            notes.append(f"Two triplets score {points_text(rules.two_triplets or 0)} together.")
        elif rules.two_triplets is None:
            notes.append(
                "This table has no two-triplets combination: each three of a kind scores on its own."
            )
    if n == 6 and shape == [6]:
        notes.append("Six alike are six of a kind, not two triplets: two triplets need two different faces.")
    notes += _of_a_kind_notes(counts, rules, used)
    faces = tuple(f for f in range(1, 7) if counts[f - 1])
    short = {(1, 2, 3, 4, 5): rules.partial_straight_low, (2, 3, 4, 5, 6): rules.partial_straight_high}
    if n >= 5 and len(faces) == 5 and short.get(faces) is None and (n == 6 or faces in short):
        notes.append("A straight needs all six faces, 1 to 6: 2s, 3s, 4s and 6s never score alone.")
    return tuple(notes)
