"""Scoring questions: the table's rules by level, and the questions drawn on them.

A question is a topic, the dice it shows and the table it is asked on. Five kinds of
question (topics), each drawn from a :class:`~farkle_trainer.engine.seeded.Stream`:

* ``worth``: what a set-aside is worth (every die in it scores);
* ``valid``: can these dice all be set aside together (and which die breaks it);
* ``farkle``: is this roll a Farkle;
* ``best``: pick the dice worth the most points from a roll;
* ``combos``: the six-dice combinations and their traps (three pairs against four of a kind
  and a pair, two triplets against six of a kind, four 1s, straights and near straights),
  answered in points, 0 when the dice cannot all be set aside.

Dice come from fair rolls (a multiset drawn with its exact chance, conditioned on what the
question needs) and, for half the ``worth``, ``valid`` and ``best`` questions, from one
scoring rule of the table picked on purpose, so every rule of the chosen table turns up.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from farkle_trainer.engine.dice import Counts, counts_of, faces_of, multisets, roll_chance
from farkle_trainer.engine.errors import InputError
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.scoring import Split, score_table
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.training.progress import SCORE_TOPICS

Level = Literal["easy", "medium", "hard"]
Form = Literal["points", "yes-no", "dice"]

TOPICS: tuple[str, ...] = SCORE_TOPICS
LEVELS: tuple[Level, ...] = ("easy", "medium", "hard")
FORMS: dict[str, Form] = {
    "worth": "points",
    "valid": "yes-no",
    "farkle": "yes-no",
    "best": "dice",
    "combos": "points",
}

#: How many dice a question shows, by topic and level.
SIZES: dict[str, dict[Level, tuple[int, int]]] = {
    "worth": {"easy": (1, 3), "medium": (3, 5), "hard": (4, 6)},
    "valid": {"easy": (2, 3), "medium": (3, 5), "hard": (4, 6)},
    "farkle": {"easy": (1, 3), "medium": (3, 5), "hard": (5, 6)},
    "best": {"easy": (2, 4), "medium": (4, 6), "hard": (5, 6)},
}
#: Share of worth, valid and best questions built around one rule of the table, so every rule
#: is met; the rest come from fair rolls alone.
TARGETED_SHARE = 0.5
#: Tries at drawing a question that fits: a ``best`` roll built around one rule, or a question
#: not asked yet in a session.
DRAW_TRIES = 20


class QuizError(InputError):
    """A quiz that cannot be set up: an unknown topic or level, or a bad question count."""


# -- the table's scoring rules, by level


def table_rules(rules: Rules) -> tuple[str, ...]:
    """Every scoring rule of a table, named as in :meth:`Rules.table` ("three 4s", "three pairs")."""
    return tuple(name for name, value in rules.table() if value != "-")


_OF_A_KIND = re.compile(r"(four|five|six) [1-6]s")


def rule_of(group_name: str) -> str:
    """The table rule a scoring group comes under: ``"four 2s"`` -> ``"four of a kind"``."""
    if " and a pair of " in group_name:
        return "four of a kind and a pair"
    m = _OF_A_KIND.fullmatch(group_name)
    if m:
        return f"{m[1]} of a kind"
    return group_name


def rules_in(split: Split | None) -> frozenset[str]:
    """The table rules a split uses."""
    return frozenset() if split is None else frozenset(rule_of(g.name) for g in split.groups)


_HARD_RULES = {"six of a kind", "straight 1-6", "three pairs", "four of a kind and a pair", "two triplets"}
_MEDIUM_RULES = {"four of a kind", "five of a kind", "straight 1-5", "straight 2-6"}


def rule_level(rule: str) -> Level:
    """Singles and three of a kind are easy; four and five alike and short straights medium; the rest hard."""
    if rule in _HARD_RULES:
        return "hard"
    if rule in _MEDIUM_RULES:
        return "medium"
    return "easy"


def _at_most(level: Level) -> set[Level]:
    return set(LEVELS[: LEVELS.index(level) + 1])


def allowed_rules(rules: Rules, level: Level) -> tuple[str, ...]:
    """The rules of the table that questions of ``level`` may use."""
    upto = _at_most(level)
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


def _rule_dice(rule: str, stream: Stream) -> tuple[int, ...]:
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
    topic are the same item, whatever order they were shown in.
    """

    topic: str
    dice: tuple[int, ...]
    rules: Rules = field(repr=False)
    level: Level = "medium"
    combo: str | None = None

    @property
    def form(self) -> Form:
        return FORMS[self.topic]

    @property
    def counts(self) -> Counts:
        return counts_of(self.dice)

    @property
    def item(self) -> str:
        return f"{self.topic}:{dashed(sorted(self.dice))}@{self.rules.name}"

    @property
    def text(self) -> str:
        """The question in words, as recorded with the answer."""
        d = dashed(self.dice)
        if self.topic == "worth":
            return f"What are {d} worth?"
        if self.topic == "valid":
            return f"Can you set aside {d}?"
        if self.topic == "farkle":
            return f"Is {d} a Farkle?"
        if self.topic == "best":
            return f"You rolled {d}: set aside the most points."
        return f"What are {d} worth, all set aside together? (0 if they can't be)"

    def extra(self) -> dict[str, Any]:
        """What the store keeps to ask this question again (see :func:`revive`)."""
        return {
            "topic": self.topic,
            "dice": list(self.dice),
            "level": self.level,
            "combo": self.combo,
            "rules": self.rules.name,
        }


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
    if not isinstance(topic, str) or topic not in topics or level not in LEVELS or not isinstance(dice, list):
        return None
    if not 1 <= len(dice) <= 6 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
        return None
    if combo is not None and not isinstance(combo, str):
        return None
    q = Question(topic, tuple(dice), rules, level, combo)
    return q if fits(q) else None


def fits(q: Question) -> bool:
    """A ``worth`` set must score as a whole; a ``best`` roll must have something to set aside."""
    table = score_table(q.rules)
    if q.topic == "worth":
        return table.split(q.counts) is not None
    if q.topic == "best":
        return not table.is_farkle(q.counts)
    return True


def _fair(stream: Stream, n: int, accept: Callable[[Counts], bool]) -> Counts | None:
    """A roll of ``n`` fair dice given that ``accept`` takes it: each multiset with its exact chance."""
    found = [c for c in multisets(n) if accept(c)]
    if not found:
        return None
    return stream.weighted(found, [float(roll_chance(c)) for c in found])


def _as_rolled(stream: Stream, counts: Counts) -> tuple[int, ...]:
    """The dice of a multiset in the order a roll might show them."""
    faces = list(faces_of(counts))
    stream.shuffle(faces)
    return tuple(faces)


def _targeted_set(rules: Rules, level: Level, stream: Stream, low: int, high: int) -> tuple[int, ...]:
    """A scoring set built around one rule of the table, padded with 1s and 5s to a size in range."""
    candidates = [r for r in allowed_rules(rules, level) if rule_size(r) <= high]
    kinds = sorted({_kind(r) for r in candidates})
    # Three of a kind, the group met most in play, comes up twice as often as each other kind.
    weights = [2.0 if k == "three of a kind" else 1.0 for k in kinds]
    kind = stream.weighted(kinds, weights)
    rule = stream.choice([r for r in candidates if _kind(r) == kind])
    dice = list(_rule_dice(rule, stream))
    target = stream.randint(max(low, len(dice)), max(high, len(dice)))
    while len(dice) < target:
        dice.append(stream.choice((1, 5)))
    return tuple(sorted(dice))


def _fits_level(split: Split | None, rules: Rules, level: Level) -> bool:
    return rules_in(split) <= set(allowed_rules(rules, level))


def make_worth(rules: Rules, level: Level, stream: Stream) -> Question:
    """What is this set-aside worth? Every die in it scores."""
    table = score_table(rules)
    low, high = SIZES["worth"][level]
    n = stream.randint(low, high)
    counts = None
    if stream.random() >= TARGETED_SHARE:
        counts = _fair(
            stream,
            n,
            lambda c: (s := table.split(c)) is not None and _fits_level(s, rules, level),
        )
    dice = faces_of(counts) if counts else _targeted_set(rules, level, stream, low, high)
    return Question("worth", dice, rules, level)


def make_valid(rules: Rules, level: Level, stream: Stream) -> Question:
    """Can these dice all be set aside? Half the time they can; when not, some of them do score."""
    table = score_table(rules)
    valid = stream.random() < 0.5
    if level == "hard" and stream.random() < 1 / 3:
        combo = make_combos(rules, level, stream)
        return Question("valid", combo.dice, rules, level, combo.combo)
    low, high = SIZES["valid"][level]
    n = stream.randint(low, high)

    def accept(c: Counts) -> bool:
        split = table.split(c)
        if valid:
            return split is not None and _fits_level(split, rules, level)
        part = table.scoring_part(c)
        return split is None and part is not None and len(part.dice) > 0 and _fits_level(part, rules, level)

    counts = None
    if stream.random() >= TARGETED_SHARE or not valid:
        counts = _fair(stream, n, accept)
    if counts is None:
        return Question("valid", _targeted_set(rules, level, stream, low, high), rules, level)
    return Question("valid", faces_of(counts), rules, level)


def make_farkle(rules: Rules, level: Level, stream: Stream) -> Question:
    """Is this roll a Farkle? Half of them are. Hard rolls that score often have no 1 or 5."""
    table = score_table(rules)
    low, high = SIZES["farkle"][level]
    n = stream.randint(low, high)
    farkle = stream.random() < 0.5
    no_singles = level == "hard" and not farkle and stream.random() < 2 / 3

    def accept(c: Counts) -> bool:
        if table.is_farkle(c) != farkle:
            return False
        return not no_singles or (c[0] == 0 and c[4] == 0)

    counts = _fair(stream, n, accept) or _fair(stream, n, lambda c: table.is_farkle(c) == farkle)
    assert counts is not None, "every size from 1 to 6 has rolls that score and rolls that do not"
    return Question("farkle", _as_rolled(stream, counts), rules, level)


def make_best(rules: Rules, level: Level, stream: Stream) -> Question:
    """Set aside the most points from a roll with at least two ways to score."""
    table = score_table(rules)
    low, high = SIZES["best"][level]
    n = stream.randint(low, high)

    def accept(c: Counts) -> bool:
        chosen = table.selections(c)
        if len(chosen) < 2:
            return False
        best = chosen[0]
        if level == "hard":
            return any(not g.name.startswith("single") for g in best.groups)
        return _fits_level(best, rules, level)

    if stream.random() < TARGETED_SHARE:
        for _ in range(DRAW_TRIES):
            core = _targeted_set(rules, level, stream, 1, n)
            counts = counts_of(core + stream.dice(n - len(core)))
            if accept(counts):
                return Question("best", _as_rolled(stream, counts), rules, level)
    fair = _fair(stream, n, accept) or _fair(stream, n, lambda c: len(table.selections(c)) >= 2)
    assert fair is not None, "every size from 2 to 6 has rolls with two ways to score"
    return Question("best", _as_rolled(stream, fair), rules, level)


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
    "straight": ("easy", lambda s: _rule_dice("straight 1-6", s)),
    "three pairs": ("easy", lambda s: _rule_dice("three pairs", s)),
    "two triplets": ("easy", lambda s: _rule_dice("two triplets", s)),
    "six of a kind": ("easy", lambda s: _rule_dice("six of a kind", s)),
    "four 1s": ("medium", _four_ones),
    "five of a kind": ("medium", lambda s: _rule_dice("five of a kind", s)),
    "four of a kind and a pair": ("medium", lambda s: _rule_dice("four of a kind and a pair", s)),
    "near straight": ("hard", _near_straight),
    "short straight": ("hard", _short_straight),
}


def make_combos(rules: Rules, level: Level, stream: Stream) -> Question:
    """A combination or a look-alike, answered in points (0 if not every die can score).

    Every combination is asked whatever the table: under ``classic``, 2-2-2-2-3-3 is a
    question whose answer is 0, because the table has no four of a kind and a pair.
    """
    upto = _at_most(level)
    names = [name for name, (lvl, _) in COMBOS.items() if lvl in upto]
    name = stream.choice(names)
    return Question("combos", COMBOS[name][1](stream), rules, level, name)


MAKERS: dict[str, Callable[[Rules, Level, Stream], Question]] = {
    "worth": make_worth,
    "valid": make_valid,
    "farkle": make_farkle,
    "best": make_best,
    "combos": make_combos,
}


def make_question(topic: str, rules: Rules, level: Level, stream: Stream) -> Question:
    """A question on ``topic`` at ``level``, drawn from ``stream`` alone."""
    if topic not in MAKERS:
        raise QuizError(f"unknown topic {topic!r}: choose from {', '.join(TOPICS)}")
    return MAKERS[topic](rules, level, stream)
