"""Scoring: the seeds' worked examples, exact Farkle odds, and properties."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from farkle_trainer import DiceError, explain, load_rules, score
from farkle_trainer.engine.dice import counts_of, faces_of, multisets, sub_multisets
from farkle_trainer.engine.rules import PRESETS, Rules
from farkle_trainer.engine.scoring import score_table

CLASSIC = load_rules("classic")
FIXED = load_rules("fixed")
DOUBLING = load_rules("doubling")
MULTIPLIER = load_rules("multiplier")

dice_lists = st.lists(st.integers(1, 6), min_size=1, max_size=6)
presets = st.sampled_from(sorted(PRESETS.values(), key=lambda r: r.name))


@pytest.mark.parametrize(
    ("dice", "rules", "expected"),
    [
        # Seed 000 (classic, the Farkle Challenge table).
        ([1], CLASSIC, 100),
        ([5], CLASSIC, 50),
        ([1, 1, 1], CLASSIC, 1000),
        ([2, 2, 2], CLASSIC, 200),
        ([6, 6, 6], CLASSIC, 600),
        ([3, 3, 3, 3], CLASSIC, 1000),
        ([4, 4, 4, 4, 4], CLASSIC, 2000),
        ([2, 2, 2, 2, 2, 2], CLASSIC, 3000),
        ([1, 2, 3, 4, 5, 6], CLASSIC, 1500),
        ([2, 2, 4, 4, 6, 6], CLASSIC, 1500),
        ([3, 3, 3, 5, 5, 5], CLASSIC, 2500),
        ([1, 1, 1, 1], CLASSIC, 1100),  # three 1s + a 1 beats four of a kind
        ([2, 2, 2, 2, 3, 3], CLASSIC, None),  # not three pairs: the 3s score nothing
        ([2, 2, 2, 2], CLASSIC, 1000),
        # Seed 003 (the fixed table).
        ([1, 1, 1, 1, 5, 5], FIXED, 1500),
        ([2, 2, 3, 3, 4, 4], FIXED, 1500),
        ([5, 5, 5, 1], FIXED, 600),
        ([1, 1, 1, 5, 5, 5], FIXED, 2500),
        ([2, 2, 3, 4, 6, 6], FIXED, None),
        ([1, 1, 1, 1], FIXED, 1100),
        ([2, 2, 2, 2, 3, 3], FIXED, 1500),
        # Seed 002 (doubling): four 2s 400, four 1s 2,000, three pairs 1,000.
        ([2, 2, 2, 2], DOUBLING, 400),
        ([1, 1, 1, 1], DOUBLING, 2000),
        ([3, 3, 3, 3, 3, 3], DOUBLING, 2400),
        ([3, 3, 3, 3, 3], DOUBLING, 1200),
        ([2, 2, 4, 4, 6, 6], DOUBLING, 1000),
        ([1, 1, 1, 5, 5, 5], DOUBLING, 1500),  # no two triplets: 1,000 + 500
        # Seed 001 (multiplier): four/five/six of a kind 2x/3x/4x.
        ([4, 4, 4, 4], MULTIPLIER, 800),
        ([4, 4, 4, 4, 4], MULTIPLIER, 1200),
        ([4, 4, 4, 4, 4, 4], MULTIPLIER, 1600),
        ([1, 1, 1, 1, 1, 1], MULTIPLIER, 4000),
        ([1, 2, 3, 4, 5, 6], MULTIPLIER, 1500),
        ([1, 1, 5, 5, 6, 6], MULTIPLIER, 1500),
        # Mixed splits.
        ([1, 5, 5, 5], CLASSIC, 600),
        ([1, 1, 5, 5], CLASSIC, 300),
        ([1, 1, 1, 1, 5, 5], CLASSIC, 1200),
        ([2, 5], CLASSIC, None),
    ],
)
def test_worked_examples(dice: list[int], rules: Rules, expected: int | None) -> None:
    assert score(dice, rules) == expected


def test_four_2s_and_two_3s_under_classic_names_the_dead_dice() -> None:
    result = explain([2, 2, 2, 2, 3, 3], CLASSIC)
    assert result.score is None
    assert result.scoring_part is not None
    assert result.scoring_part.points == 1000
    assert [g.name for g in result.scoring_part.groups] == ["four 2s"]
    assert [d.dice for d in result.dead] == [(3, 3)]
    assert "3s score only" in result.dead[0].reason
    assert result.best is not None and result.best.dice == (2, 2, 2, 2)


def test_explain_gives_the_split() -> None:
    result = explain([1, 1, 1, 1, 5, 5], CLASSIC)
    assert result.split is not None
    assert result.split.describe() == "three 1s 1,000 + single 1 100 + single 5 50 + single 5 50"
    assert not result.farkle


def test_a_farkle_roll() -> None:
    result = explain([2, 2, 3, 4, 6, 6], CLASSIC)
    assert result.farkle
    assert result.best is None
    assert sorted(d for dead in result.dead for d in dead.dice) == [2, 2, 3, 4, 6, 6]
    assert result.dead[0].reason.startswith("two 2s score nothing")


def test_single_die_reason() -> None:
    (dead,) = explain([2, 5], CLASSIC).dead
    assert dead.reason.startswith("a single 2 scores nothing")


def test_score_accepts_a_preset_name_and_rejects_bad_faces() -> None:
    assert score([1, 5], "multiplier") == 150
    assert score([]) is None
    with pytest.raises(DiceError):
        score([7])
    with pytest.raises(DiceError):
        score([1] * 7)


@pytest.mark.parametrize("rules", PRESETS.values(), ids=PRESETS.keys())
def test_farkle_chances_are_exact(rules: Rules) -> None:
    table = score_table(rules)
    expected = {
        6: Fraction(5, 216),
        5: Fraction(25, 324),
        4: Fraction(17, 108),
        3: Fraction(5, 18),
        2: Fraction(4, 9),
        1: Fraction(2, 3),
    }
    assert {n: table.farkle_chance(n) for n in range(1, 7)} == expected


def test_without_straight_and_pairs_six_dice_farkle_more_often() -> None:
    plain = Rules(name="bare", straight=None, three_pairs=None, two_triplets=None)
    assert score_table(plain).farkle_chance(6) > Fraction(5, 216)


# -- an independent reference: try every partition of the dice into groups


def _group_points(block: tuple[int, ...], rules: Rules) -> int | None:
    """Points of one block scored as a single combination, or None."""
    c = counts_of(block)
    n = len(block)
    faces = [f for f in range(1, 7) if c[f - 1]]
    if n == 1 and block[0] in (1, 5):
        return rules.single_one if block[0] == 1 else rules.single_five
    if len(faces) == 1 and n >= 3:
        return rules.of_a_kind_points(faces[0], n)
    if n == 6 and len(faces) == 6:
        return rules.straight
    if n == 5 and c == (1, 1, 1, 1, 1, 0):
        return rules.partial_straight_low
    if n == 5 and c == (0, 1, 1, 1, 1, 1):
        return rules.partial_straight_high
    if n == 6 and sorted(k for k in c if k) == [2, 2, 2]:
        return rules.three_pairs
    if n == 6 and sorted(k for k in c if k) == [2, 4]:
        return rules.four_of_a_kind_and_pair
    if n == 6 and sorted(k for k in c if k) == [3, 3]:
        return rules.two_triplets
    return None


def _partitions(items: list[int]) -> list[list[list[int]]]:
    if not items:
        return [[]]
    first, rest = items[0], items[1:]
    out = []
    for part in _partitions(rest):
        out.append([[first], *part])
        for i in range(len(part)):
            out.append([*part[:i], [first, *part[i]], *part[i + 1 :]])
    return out


def _reference_score(dice: tuple[int, ...], rules: Rules) -> int | None:
    best = None
    for partition in _partitions(list(dice)):
        values = [_group_points(tuple(sorted(b)), rules) for b in partition]
        if all(v is not None for v in values):
            total = sum(values)  # type: ignore[arg-type]
            best = total if best is None else max(best, total)
    return best


VARIANT = Rules(
    name="variant",
    triples=(300, 200, 300, 400, 500, 600),
    straight=2500,
    three_pairs=750,
    four_of_a_kind_and_pair=1500,
    partial_straight_low=500,
    partial_straight_high=750,
)


@pytest.mark.parametrize("rules", [*PRESETS.values(), VARIANT], ids=[*PRESETS.keys(), "variant"])
def test_every_selection_matches_brute_force_partitions(rules: Rules) -> None:
    table = score_table(rules)
    for n in range(1, 7):
        for counts in multisets(n):
            split = table.split(counts)
            expected = _reference_score(faces_of(counts), rules)
            assert (split.points if split else None) == expected, faces_of(counts)
            if split is not None:
                used = sorted(d for g in split.groups for d in g.dice)
                assert used == list(faces_of(counts))
                assert sum(g.points for g in split.groups) == split.points


@given(dice_lists, presets, st.randoms())
def test_order_never_matters(dice: list[int], rules: Rules, rnd) -> None:  # type: ignore[no-untyped-def]
    shuffled = dice[:]
    rnd.shuffle(shuffled)
    assert score(dice, rules) == score(shuffled, rules)


@given(dice_lists, presets)
def test_farkle_exactly_when_no_scoring_selection(dice: list[int], rules: Rules) -> None:
    table = score_table(rules)
    counts = counts_of(dice)
    has_scoring_subset = any(score(faces_of(c), rules) for c in sub_multisets(counts))
    assert table.is_farkle(counts) == (not has_scoring_subset)
    # Only 1s, 5s and three or more alike can rescue a roll of fewer than six dice.
    if len(dice) < 6:
        rescued = 1 in dice or 5 in dice or max(counts) >= 3
        assert table.is_farkle(counts) == (not rescued)


@given(dice_lists, presets, st.data())
def test_joining_two_selections_never_scores_less(dice: list[int], rules: Rules, data) -> None:  # type: ignore[no-untyped-def]
    k = data.draw(st.integers(0, len(dice)))
    picks = data.draw(st.permutations(range(len(dice))))
    a = [dice[i] for i in picks[:k]]
    b = [dice[i] for i in picks[k:]]
    sa, sb = score(a, rules), score(b, rules)
    if sa is not None and sb is not None:
        joined = score(dice, rules)
        assert joined is not None and joined >= sa + sb


@given(dice_lists, presets)
def test_the_scoring_part_and_dead_dice_make_up_the_selection(dice: list[int], rules: Rules) -> None:
    result = explain(dice, rules)
    part = result.scoring_part.dice if result.scoring_part else ()
    dead = tuple(d for x in result.dead for d in x.dice)
    assert sorted(part + dead) == sorted(dice)
    assert (result.score is None) == bool(dead)
    assert all(d not in (1, 5) for d in dead)


@given(st.lists(st.integers(1, 6), min_size=1, max_size=6), presets)
def test_best_selection_is_the_most_points(dice: list[int], rules: Rules) -> None:
    table = score_table(rules)
    counts = counts_of(dice)
    best = table.best_selection(counts)
    scores = [score(faces_of(c), rules) for c in sub_multisets(counts)]
    valid = [s for s in scores if s]
    assert (best.points if best else None) == (max(valid) if valid else None)


def test_selections_are_distinct_multisets() -> None:
    table = score_table(CLASSIC)
    selections = table.selections(counts_of([1, 1, 5, 5, 2, 3]))
    keeps = [s.dice for s in selections]
    assert len(keeps) == len(set(keeps))
    assert set(keeps) == {(1,), (5,), (1, 1), (5, 5), (1, 5), (1, 1, 5), (1, 5, 5), (1, 1, 5, 5)}


def test_six_alike_are_six_of_a_kind_not_two_triplets() -> None:
    result = explain([4] * 6, CLASSIC)
    assert result.split is not None
    assert [g.name for g in result.split.groups] == ["six 4s"]
    assert result.split.points == 3000


def test_three_pairs_need_three_faces() -> None:
    assert score([2, 2, 2, 2, 6, 6], "doubling") is None
    assert score([3, 3, 3, 3, 3, 3], "classic") == 3000
