"""What dice are worth: the best split of a selection, the scoring selections of a roll.

Rulings (DESIGN.md, Rules):

* Only 1s and 5s score alone; other faces score only in a group.
* Every die set aside must score, and a selection is scored by the split that
  gives the most points (four 1s under ``classic`` are three 1s + a 1 = 1,100).
* Three pairs are three different faces; two triplets are two different faces;
  four of a kind with a pair is its own combination only where the table has it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from types import MappingProxyType

from farkle_trainer.engine.dice import (
    FACES,
    Counts,
    counts_of,
    faces_of,
    is_subset,
    minus,
    multisets,
    roll_chance,
    size,
    sub_multisets,
)
from farkle_trainer.engine.rules import Rules, preset

_COUNT_WORDS = MappingProxyType({1: "single", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"})


@dataclass(frozen=True)
class Group:
    """One scoring combination inside a split, e.g. ``three 1s`` = 1,000.

    ``rule`` is the row of the scoring table it comes under, as :meth:`Rules.table` names it
    (``four 2s`` comes under ``four of a kind``), so nothing reads it back out of the name.
    """

    name: str
    dice: tuple[int, ...]
    points: int
    rule: str = field(default="", compare=False)


@dataclass(frozen=True)
class Split:
    """The best way to score a selection: its groups and their total."""

    dice: tuple[int, ...]
    groups: tuple[Group, ...]
    points: int

    @property
    def counts(self) -> Counts:
        return counts_of(self.dice)

    def describe(self) -> str:
        """``"three 1s 1,000 + single 5 50"``."""
        return " + ".join(f"{g.name} {g.points:,}" for g in self.groups)


@dataclass(frozen=True)
class DeadDice:
    """Dice in a selection that cannot score, with the reason in words."""

    dice: tuple[int, ...]
    reason: str


@dataclass(frozen=True)
class Explanation:
    """Everything ``explain`` says about a set of dice."""

    dice: tuple[int, ...]
    split: Split | None  # None when some die cannot score
    scoring_part: Split | None  # the most dice of the selection that do score
    dead: tuple[DeadDice, ...]
    farkle: bool  # if these dice were a roll, nothing in it scores
    best: Split | None  # the highest-scoring selection if these dice were a roll

    @property
    def score(self) -> int | None:
        return None if self.split is None else self.split.points


def _candidate_groups(counts: Counts, rules: Rules) -> list[tuple[Counts, Group]]:
    """Every scoring combination contained in ``counts``."""
    groups: list[tuple[Counts, Group]] = []

    def add(part: list[int], name: str, points: int | None, rule: str | None = None) -> None:
        c: Counts = (part[0], part[1], part[2], part[3], part[4], part[5])
        if points is not None and is_subset(c, counts):
            groups.append((c, Group(name, faces_of(c), points, rule or name)))

    def only(face: int, k: int) -> list[int]:
        part = [0] * 6
        part[face - 1] = k
        return part

    add(only(1, 1), "single 1", rules.single_one)
    add(only(5, 1), "single 5", rules.single_five)
    for face in FACES:
        for k in range(3, counts[face - 1] + 1):
            rule = f"three {face}s" if k == 3 else f"{_COUNT_WORDS[k]} of a kind"
            add(only(face, k), f"{_COUNT_WORDS[k]} {face}s", rules.of_a_kind_points(face, k), rule)
    add([1, 1, 1, 1, 1, 0], "straight 1-5", rules.partial_straight_low)
    add([0, 1, 1, 1, 1, 1], "straight 2-6", rules.partial_straight_high)
    if size(counts) == 6:
        add([1] * 6, "straight 1-6", rules.straight)
        pairs = [f for f in FACES if counts[f - 1] == 2]
        if len(pairs) == 3:
            add(list(counts), "three pairs", rules.three_pairs)
        fours = [f for f in FACES if counts[f - 1] == 4]
        if fours and pairs:
            add(
                list(counts),
                f"four {fours[0]}s and a pair of {pairs[0]}s",
                rules.four_of_a_kind_and_pair,
                "four of a kind and a pair",
            )
        triples = [f for f in FACES if counts[f - 1] == 3]
        if len(triples) == 2:
            add(list(counts), "two triplets", rules.two_triplets)
    return groups


class ScoreTable:
    """The best split of every multiset of up to six dice under one rule set.

    There are only 924 such multisets. Each is worked out the first time it is asked for
    (from its own sub-multisets) and then kept, so a single roll costs its 64 sub-multisets
    at most, and every later question is a dictionary look-up.
    """

    def __init__(self, rules: Rules):
        self.rules = rules
        self._best: dict[Counts, Split | None] = {}

    def _get(self, counts: Counts) -> Split | None:
        try:
            return self._best[counts]
        except KeyError:
            best = self._best[counts] = self._solve(counts)
            return best

    def _solve(self, counts: Counts) -> Split | None:
        if not any(counts):
            return Split((), (), 0)
        best: Split | None = None
        for part, group in _candidate_groups(counts, self.rules):
            rest = self._get(minus(counts, part))
            if rest is None:
                continue
            points = group.points + rest.points
            groups = tuple(sorted((group, *rest.groups), key=lambda g: (-g.points, g.dice)))
            if best is None or (points, -len(groups)) > (best.points, -len(best.groups)):
                best = Split(faces_of(counts), groups, points)
        return best

    def split(self, counts: Counts) -> Split | None:
        """The best split of a selection, or None if some die in it cannot score."""
        if len(counts) != 6 or size(counts) > 6 or min(counts) < 0:
            raise KeyError(counts)
        return self._get(counts)

    @cache  # noqa: B019 - one table per rule set, kept for the life of the process
    def selections(self, roll: Counts) -> tuple[Split, ...]:
        """Every distinct scoring selection of a roll, most points first."""
        found = [s for c in sub_multisets(roll) if (s := self.split(c)) is not None and s.points > 0]
        return tuple(sorted(found, key=lambda s: (-s.points, len(s.dice), s.dice)))

    def is_farkle(self, roll: Counts) -> bool:
        """A Farkle: a roll in which no die and no group scores."""
        return not self.selections(roll)

    def best_selection(self, roll: Counts) -> Split | None:
        """The selection worth the most points (fewest dice on a tie), or None on a Farkle."""
        chosen = self.selections(roll)
        return chosen[0] if chosen else None

    def scoring_part(self, counts: Counts) -> Split | None:
        """The largest part of a selection that scores (most dice, then most points)."""
        parts = [s for c in sub_multisets(counts) if (s := self.split(c)) is not None]
        if not parts:
            return None
        return max(parts, key=lambda s: (len(s.dice), s.points))

    def farkle_chance(self, n: int) -> Fraction:
        """The exact chance that a roll of ``n`` fair dice scores nothing."""
        return sum((roll_chance(c) for c in multisets(n) if self.is_farkle(c)), start=Fraction(0))


@cache
def score_table(rules: Rules) -> ScoreTable:
    """The (cached) score table for a rule set."""
    return ScoreTable(rules)


def score(dice: Iterable[int], rules: Rules | str | None = None) -> int | None:
    """The points a selection of dice is worth when set aside together.

    Returns None when some die in it cannot score (or the selection is empty). ``rules``:
    rules or a preset's name (default ``classic``). Raises
    :class:`~farkle_trainer.engine.dice.DiceError` for a face outside 1..6 or more than six
    dice.
    """
    from farkle_trainer.engine.dice import DiceError

    counts = counts_of(dice)
    if size(counts) > 6:
        raise DiceError(f"{size(counts)} dice given: Farkle uses at most 6")
    split = score_table(preset(rules)).split(counts)
    if split is None or not split.dice:
        return None
    return split.points


def _dead_reason(face: int, count: int, rules: Rules) -> str:
    """Why ``count`` dice of ``face`` left over in a selection score nothing."""
    what = f"a single {face} scores nothing" if count == 1 else f"{_COUNT_WORDS[count]} {face}s score nothing"
    ways = ["as three or more alike"]
    if count == 2 and rules.three_pairs is not None:
        ways.append("in three pairs")
    if rules.straight is not None:
        ways.append("in a straight")
    how = ways[0] if len(ways) == 1 else ", ".join(ways[:-1]) + " or " + ways[-1]
    return f"{what}: {face}s score only {how}"


def explain(dice: Iterable[int], rules: Rules | str | None = None) -> Explanation:
    """Score a set of dice and say why: the best split, or which dice cannot score.

    Also treats the dice as a roll: is it a Farkle, and what is the best set-aside. ``rules``:
    rules or a preset's name (default ``classic``).
    """
    rules = preset(rules)
    table = score_table(rules)
    counts = counts_of(dice)
    faces = faces_of(counts)
    if size(counts) > 6:
        from farkle_trainer.engine.dice import DiceError

        raise DiceError(f"{size(counts)} dice given: Farkle uses at most 6")
    split = table.split(counts)
    if split is not None and not split.dice:
        split = None
    part = table.scoring_part(counts) if split is None else split
    dead_counts = minus(counts, part.counts) if part is not None else counts
    dead = tuple(
        DeadDice((face,) * k, _dead_reason(face, k, rules))
        for face, k in zip(FACES, dead_counts, strict=True)
        if k
    )
    if part is not None and not part.dice:
        part = None
    return Explanation(
        dice=faces,
        split=split,
        scoring_part=part,
        dead=dead,
        farkle=table.is_farkle(counts),
        best=table.best_selection(counts),
    )
