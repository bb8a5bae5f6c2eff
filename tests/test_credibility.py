"""Whether a game's dice could be fair: a fair game passes but for less than one game in a billion
(each bet worth at most 1 on fair dice, worked out here from every roll; Ville's inequality
checked exactly on a short game; many fair games played out), and forged dice fail."""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from fractions import Fraction
from functools import cache

import pytest

from farkle_trainer import load_rules, score
from farkle_trainer.engine import credibility
from farkle_trainer.engine.credibility import BOLDNESS, THRESHOLD, dice_evidence, tails
from farkle_trainer.engine.rules import PRESETS, Rules
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.training.games import computers
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games.dice import Seeded, seeded_source
from farkle_trainer.training.games.setup import Level, Player, new_setup

CLASSIC = load_rules("classic")
SIX_ONES = (1, 1, 1, 1, 1, 1)
#: A roll of six dice in which nothing scores under any preset: two pairs and two singles.
FARKLE_6 = (2, 2, 3, 3, 4, 6)


@cache
def best_of(rules: Rules, roll: tuple[int, ...]) -> int:
    """The most ``roll`` can set aside, from the public scoring function: every part of it tried."""
    best = 0
    for mask in range(1, 2 ** len(roll)):
        part = [d for i, d in enumerate(roll) if mask >> i & 1]
        points = score(part, rules)
        if points is not None:
            best = max(best, points)
    return best


@cache
def distribution(rules: Rules, dice: int) -> dict[int, tuple[Fraction, tuple[int, ...]]]:
    """Each value of :func:`best_of` over every ordered fair roll of ``dice`` dice: its chance,
    and one roll that gives it."""
    found: dict[int, list[object]] = {}
    chance: dict[int, Fraction] = defaultdict(Fraction)
    for roll in itertools.product(range(1, 7), repeat=dice):
        key = tuple(sorted(roll))
        value = best_of(rules, key)
        chance[value] += Fraction(1, 6**dice)
        found.setdefault(value, [key])
    return {v: (chance[v], tuple(found[v][0])) for v in sorted(chance)}  # type: ignore[arg-type]


def test_six_ones_and_a_six_dice_farkle_have_their_textbook_chances() -> None:
    sixes = distribution(CLASSIC, 6)
    # Six of a kind (3,000) is the most six dice set aside on classic: 6 rolls of 46,656.
    assert max(sixes) == 3000 and sixes[3000][0] == Fraction(6, 6**6)
    assert sixes[0][0] == Fraction(5, 216)  # the seeds' Farkle chance with six dice
    assert best_of(CLASSIC, FARKLE_6) == 0


@pytest.mark.parametrize("name", list(PRESETS))
@pytest.mark.parametrize("dice", [1, 2, 3, 4, 5, 6])
def test_the_tails_are_those_of_every_fair_roll(name: str, dice: int) -> None:
    rules = PRESETS[name]
    dist = distribution(rules, dice)
    t = tails(rules, dice)
    assert set(t.upper) == set(t.lower) == set(dist)
    for value in dist:
        upper = sum(p for v, (p, _) in dist.items() if v >= value)
        lower = sum(p for v, (p, _) in dist.items() if v <= value)
        assert t.upper[value] == pytest.approx(float(upper), rel=1e-12)
        assert t.lower[value] == pytest.approx(float(lower), rel=1e-12)


@pytest.mark.parametrize("name", list(PRESETS))
@pytest.mark.parametrize("dice", [1, 2, 3, 4, 5, 6])
def test_every_bet_is_worth_at_most_one_on_fair_dice(name: str, dice: int) -> None:
    """The lemma the test rests on: whatever the number of dice, a bet ``k * tail**(k - 1)`` on a
    fair roll is worth at most 1 on average, on either tail (the sum below is a lower Riemann sum
    of the integral of ``k * u**(k - 1)`` from 0 to 1, which is 1)."""
    dist = distribution(PRESETS[name], dice)
    for k in BOLDNESS:
        for side in ("upper", "lower"):
            mean = 0.0
            for value, (p, _) in dist.items():
                tail = sum(q for v, (q, _) in dist.items() if (v >= value if side == "upper" else v <= value))
                mean += float(p) * k * float(tail) ** (k - 1)
            assert mean <= 1 + 1e-12, (k, side, mean)


def _path_chances(plan: list[tuple[int, int]], adaptive: bool) -> list[tuple[Fraction, list]]:
    """Every sequence of what a short game's rolls set aside, with its exact chance and one roll
    for each: ``plan`` gives each roll's seat and dice; ``adaptive`` makes the third roll throw
    two dice after a second roll that scored, six after a Farkle (a player's choice that depends
    on what was seen)."""
    paths: list[tuple[Fraction, list]] = [(Fraction(1), [])]
    for i, (seat, dice) in enumerate(plan):
        grown = []
        for chance, rolls in paths:
            n = dice
            if adaptive and i == 2:
                n = 6 if best_of(CLASSIC, tuple(sorted(rolls[-1][1]))) == 0 else 2
            for p, roll in distribution(CLASSIC, n).values():
                grown.append((chance * p, [*rolls, (seat, roll)]))
        paths = grown
    return paths


@pytest.mark.parametrize("adaptive", [False, True])
def test_ville_s_bound_holds_exactly_on_a_short_game(adaptive: bool) -> None:
    """The chance that the test's stakes ever reach ``c`` is at most ``1 / c``: worked out over
    every outcome of a four-roll game of two players (what each roll sets aside is all the test
    sees)."""
    paths = _path_chances([(0, 6), (1, 6), (0, 2), (1, 1)], adaptive)
    assert sum(p for p, _ in paths) == 1
    peaks = [(p, dice_evidence(CLASSIC, 2, rolls).peak) for p, rolls in paths]
    reached_something = False
    for c in (1.5, 2, 4, 8, 16, 64):
        chance = sum(p for p, peak in peaks if peak >= math.log(c))
        assert chance <= Fraction(1) / Fraction(c), (c, float(chance))
        reached_something |= chance > 0
    assert reached_something  # the game is long enough for the bound to mean something


def fair_game(i: int, target: int = 10_000) -> m.MatchState:
    """A whole game on fair dice (a seeded stream stands in for the operating system's), both
    players keeping every scoring die and banking as Easy does."""
    setup = new_setup((Player("You"), Player("Easy", Level.EASY)), target=target)
    source = seeded_source(Stream(f"fair game {i}"))
    state = m.new_match(setup)
    while not state.over:
        if state.phase == "roll":
            state = m.roll(state, source)
        else:
            choice = computers.easy(state)
            state = m.play(state, source, choice.keep, choice.action)
    return state


def game_evidence(state: m.MatchState) -> credibility.Evidence:
    return dice_evidence(state.rules, state.setup.size, [(move.seat, move.roll) for move in state.log])


def test_many_fair_games_all_pass() -> None:
    peaks = [game_evidence(fair_game(i)).peak for i in range(400)]
    assert all(p < math.log(THRESHOLD) for p in peaks)
    # Far from it: the stakes of a fair game are seldom worth even 100 at any point.
    assert max(peaks) < math.log(100)
    assert sum(p >= math.log(10) for p in peaks) <= 400 / 10


def forged(target: int, turns: int) -> m.MatchState:
    """A game whose rolls were written by hand: six 1s for the person every roll (a single 1 kept
    and banked), a Farkle for the computer every roll."""
    setup = new_setup((Player("You"), Player("Hard", Level.HARD)), target=target, dice=Seeded("x"))
    claims = []
    for _ in range(turns):
        claims += [m.Claim(0, SIX_ONES, (1,), "bank"), m.Claim(1, FARKLE_6, (), "farkle")]
    from farkle_trainer.training.games.dice import recorded_source

    return m.replay(setup, claims, source=recorded_source(dict(enumerate((c.roll for c in claims), 1))))


def test_six_ones_for_one_side_and_farkles_for_the_other_fail() -> None:
    evidence = game_evidence(forged(2_000, 20))
    assert not evidence.credible
    assert (evidence.seat, evidence.lucky) == (0, True)


def test_farkles_alone_for_one_side_fail_within_a_few_dozen_rolls() -> None:
    rolls = [(1, FARKLE_6)] * 30
    evidence = dice_evidence(CLASSIC, 2, rolls)
    assert not evidence.credible and (evidence.seat, evidence.lucky) == (1, False)
    # Each such roll is worth 3.3 to the most cautious bet: a handful is no proof.
    assert dice_evidence(CLASSIC, 2, rolls[:5]).credible
    per_roll = 0.5 * (5 / 216) ** -0.5
    assert credibility.log_bet(5 / 216, 0.5) == pytest.approx(math.log(per_roll))


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one player"):
        dice_evidence(CLASSIC, 0, [])
    with pytest.raises(ValueError, match="seat 2"):
        dice_evidence(CLASSIC, 2, [(2, SIX_ONES)])
    with pytest.raises(ValueError, match="1 to 6 dice"):
        tails(CLASSIC, 7)
