"""Computer players: Easy's thresholds, Medium's expected score, Hard's chance of winning, and
that a computer sees only what a person sees."""

from __future__ import annotations

import math
from dataclasses import replace
from functools import cache
from itertools import product

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from matches import person, play_out
from profiles import examples

from farkle_trainer.engine.dice import counts_of, multisets, roll_chance
from farkle_trainer.engine.game import GameTable
from farkle_trainer.engine.rules import PRESETS
from farkle_trainer.engine.scoring import score, score_table
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.engine.solver import Objective, Solution
from farkle_trainer.engine.tables import Tables
from farkle_trainer.training.games import computers
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games.dice import Seeded
from farkle_trainer.training.games.setup import Level, MatchError, Player, new_setup

ANN = Player("Ann")
CLASSIC = PRESETS["classic"]
EASY, MEDIUM, HARD = Player("Eve", Level.EASY), Player("Med", Level.MEDIUM), Player("Hal", Level.HARD)


def showing(players, roll, points=0, scores=None, seat=1, last=False, **kw) -> m.MatchState:
    """A state where ``seat`` has ``roll`` showing with ``points`` at stake."""
    kw.setdefault("target", 2_000)
    s = new_setup(players, **kw)
    state = m.new_match(s)
    scores = scores or (0,) * s.size
    closer = next(i for i, x in enumerate(scores) if x >= s.target) if last else None
    return replace(
        state, seat=seat, scores=scores, roll=tuple(roll), points=points, dice=len(roll), closer=closer
    )


def test_easy_keeps_every_scoring_die(tables: Tables) -> None:
    assert computers.choose(tables, showing((ANN, EASY), (1, 5, 2, 2, 3, 6))) == computers.Choice(
        (1, 5), "roll"
    )
    assert computers.choose(tables, showing((ANN, EASY), (1, 1, 1, 5, 2, 3))) == computers.Choice(
        (1, 1, 1, 5), "bank"
    )
    assert computers.choose(tables, showing((ANN, EASY), (2, 2, 3, 3, 6, 6))).keep == (2, 2, 3, 3, 6, 6)


@pytest.mark.parametrize(
    ("left", "threshold"), [(6, 2_000), (5, 2_000), (4, 1_000), (3, 400), (2, 300), (1, 300)]
)
def test_easy_banks_at_its_thresholds(tables: Tables, left: int, threshold: int) -> None:
    roll = (1, 2, 3, 4, 6, 6)[: left + 1] if left < 6 else (1, 1, 1, 5, 5, 5)
    kept = score_table(new_setup((ANN, EASY)).rules).split(counts_of((1,) if left < 6 else roll))
    assert kept is not None
    for total, action in ((threshold - 50, "roll"), (threshold, "bank"), (threshold + 500, "bank")):
        state = showing((ANN, EASY), roll, points=total - kept.points, scores=(0, 100))
        assert computers.choose(tables, state).action == action


def test_easy_respects_the_opening_minimum_and_plays_to_pass_in_its_last_turn(tables: Tables) -> None:
    state = showing((ANN, EASY), (1, 2), points=400, opening=1_000)
    assert computers.choose(tables, state) == computers.Choice((1,), "roll")
    state = showing((ANN, EASY), (1, 2), points=400, scores=(2_300, 1_500), last=True)
    assert computers.choose(tables, state).action == "roll"  # 2,000 would still be behind
    state = showing((ANN, EASY), (1, 2), points=750, scores=(2_300, 1_500), last=True)
    assert computers.choose(tables, state).action == "bank"


def _expected_values(tables: Tables, state: m.MatchState) -> dict[tuple[tuple[int, ...], str], float]:
    opening = state.setup.opening if state.scores[state.seat] == 0 else 0
    sol = tables.turn(state.rules, Objective.expected(opening=opening))
    out = {}
    for s in score_table(state.rules).selections(counts_of(state.roll)):
        t, n = state.points + s.points, (len(state.roll) - len(s.dice)) or 6
        out[(s.dice, "roll")] = sol.roll_value(t, n)
        if sol.bank_value(t) is not None:
            out[(s.dice, "bank")] = float(t)
    return out


@pytest.mark.parametrize(
    ("roll", "points", "opening"),
    [
        ((1, 5, 2, 2, 3, 6), 0, 0),
        ((1, 1, 5, 3, 4, 6), 0, 500),
        ((5, 5, 2), 300, 0),
        ((1, 5, 5, 2, 3), 250, 350),
    ],
)
def test_medium_plays_the_best_expected_score(tables: Tables, roll, points, opening) -> None:
    state = showing((ANN, MEDIUM), roll, points=points, opening=opening)
    values = _expected_values(tables, state)
    choice = computers.choose(tables, state)
    assert values[(choice.keep, choice.action)] == pytest.approx(max(values.values()), abs=1e-9)


# -- Medium under the three-Farkle penalty, against a brute force written here


@cache
def set_asides(counts: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every set-aside of a roll (counts of 1s to 6s) with its points, found by scoring every
    part of the roll in turn."""
    found = []
    for take in product(*(range(c + 1) for c in counts)):
        kept = tuple(face for face, k in enumerate(take, 1) for _ in range(k))
        points = score(kept, CLASSIC) if kept else None
        if points is not None:
            found.append((kept, points))
    return tuple(found)


def rolling(sol: Solution, t: int, n: int, farkle: int, opening: int) -> float:
    """The value of rolling ``n`` dice with ``t`` at stake, one step the slow way: every roll,
    every set-aside of it, then banking (where the opening minimum allows) or rolling on at the
    solver's value; a Farkle is worth ``farkle``."""
    total = 0.0
    for roll in multisets(n):
        chance = float(roll_chance(roll))
        options = set_asides(roll)
        if not options:
            total += chance * farkle
            continue
        best = -math.inf
        for kept, points in options:
            after, left = t + points, (n - len(kept)) or 6
            on = sol.roll_value(after, left)
            best = max(best, on if after < opening else max(after, on))
        total += chance * best
    return total


def medium_values(tables: Tables, state: m.MatchState) -> dict[tuple[tuple[int, ...], str], float]:
    """Every play of the dice showing, valued by the expected turn score of the rules in force:
    a Farkle that would be the third in a row costs the penalty, at most what is banked."""
    banked = state.scores[state.seat]
    farkle = -min(state.setup.penalty, banked) if state.farkles[state.seat] == 2 else 0
    opening = 0 if banked else state.setup.opening
    sol = tables.turn(state.rules, Objective.expected(opening=opening, farkle_value=farkle))
    values = {}
    for kept, points in set_asides(counts_of(state.roll)):
        t, n = state.points + points, (len(state.roll) - len(kept)) or 6
        # The solver's value of rolling on, checked against its equation with this Farkle's cost.
        on = sol.roll_value(t, n)
        assert on == pytest.approx(rolling(sol, t, n, farkle, opening), rel=1e-12, abs=1e-9)
        values[(kept, "roll")] = on
        if t >= opening:
            values[(kept, "bank")] = float(t)
    return values


def medium_on(roll, points: int, banked: int, farkles: int, penalty: int, opening: int = 0) -> m.MatchState:
    state = showing(
        (ANN, MEDIUM), roll, points=points, scores=(1_000, banked), penalty=penalty, opening=opening
    )
    return replace(state, farkles=(0, farkles))


@pytest.mark.parametrize("penalty", [500, 1_000])
def test_medium_on_its_third_farkle_in_a_row_counts_the_penalty(tables: Tables, penalty: int) -> None:
    # On 500 after two Farkles in a row, one 1 kept to roll 5 dice on is worth 309.5 once a
    # Farkle costs the 500: banking 1 1 2 2 2 for 400 is better.
    state = medium_on((1, 1, 2, 2, 2, 4), 0, 500, 2, penalty)
    values = medium_values(tables, state)
    assert values[((1,), "roll")] == pytest.approx(309.5, abs=0.05)
    assert max(values, key=values.__getitem__) == ((1, 1, 2, 2, 2), "bank")
    assert computers.choose(tables, state) == computers.Choice((1, 1, 2, 2, 2), "bank")
    # One Farkle fewer, the penalty is a turn away: keeping the 1 and rolling on is best.
    assert computers.choose(tables, replace(state, farkles=(0, 1))) == computers.Choice((1,), "roll")


@settings(max_examples=examples(1 / 2))
@given(
    roll=st.lists(st.integers(1, 6), min_size=1, max_size=6),
    points=st.integers(0, 30).map(lambda k: 50 * k),
    banked=st.integers(0, 39).map(lambda k: 50 * k),
    farkles=st.sampled_from([0, 1, 2, 2]),
    penalty=st.sampled_from([500, 1_000]),
    opening=st.sampled_from([0, 350, 500]),
)
def test_medium_plays_the_best_expected_score_of_the_rules_in_force(
    tables: Tables, roll: list[int], points: int, banked: int, farkles: int, penalty: int, opening: int
) -> None:
    assume(set_asides(counts_of(roll)))
    state = medium_on(roll, points, banked, farkles, penalty, opening)
    values = medium_values(tables, state)
    choice = computers.choose(tables, state)
    assert values[(choice.keep, choice.action)] == pytest.approx(max(values.values()), abs=1e-9)


def chances(
    table: GameTable, roll: tuple[int, ...], points: int, me: int, leader: int
) -> dict[tuple[tuple[int, ...], str], float]:
    """The chance of winning of every play of ``roll``, read from the table."""
    found = {}
    for s in score_table(table.rules).selections(counts_of(roll)):
        t, n = points + s.points, (len(roll) - len(s.dice)) or 6
        found[(s.dice, "roll")] = table.roll_value(me, leader, t, n)
        bank = table.bank_value(me, leader, t)
        if bank is not None:
            found[(s.dice, "bank")] = bank
    return found


def test_hard_plays_the_best_chance_of_winning(tables: Tables) -> None:
    table = tables.game(new_setup((ANN, HARD), target=2_000).rules, 2_000, 0)
    for roll, points, scores in (
        ((1, 5, 2, 2, 3, 6), 0, (0, 0)),
        ((1, 5, 5), 300, (1_500, 200)),
        ((5, 2), 400, (1_200, 1_500)),
    ):
        state = showing((ANN, HARD), roll, points=points, scores=scores)
        choice = computers.choose(tables, state)
        value = chances(table, roll, points, scores[1], scores[0])
        assert value[(choice.keep, choice.action)] == pytest.approx(max(value.values()), abs=1e-12)


def test_hard_plays_its_last_turn_to_pass_the_leader(tables: Tables) -> None:
    table = tables.game(new_setup((ANN, HARD), target=2_000).rules, 2_000, 0)
    state = showing((ANN, HARD), (1, 5, 5, 2, 3, 4), points=0, scores=(2_300, 1_500), last=True)
    choice = computers.choose(tables, state)
    best = max(
        (table.final_roll_value(800, s.points, (6 - len(s.dice)) or 6), s.dice)
        for s in score_table(table.rules).selections(counts_of(state.roll))
    )
    assert choice.keep == best[1] and choice.action == "roll"
    state = showing((ANN, HARD), (1, 5), points=800, scores=(2_300, 1_500), last=True)
    assert computers.choose(tables, state) == computers.Choice((1, 5), "bank")  # 2,450 passes 2,300


def test_hard_with_more_players_plays_against_the_leader(tables: Tables) -> None:
    table = tables.game(new_setup((ANN, HARD), target=2_000).rules, 2_000, 0)
    players = (ANN, HARD, Player("Bob"))
    for roll, points, scores in (((5, 2), 300, (1_750, 1_200, 300)), ((1, 2, 3), 450, (200, 1_000, 1_850))):
        state = showing(players, roll, points=points, scores=scores)
        value = chances(table, roll, points, scores[1], max(scores[0], scores[2]))
        choice = computers.choose(tables, state)
        assert value[(choice.keep, choice.action)] == pytest.approx(max(value.values()), abs=1e-12)


def test_only_a_computer_chooses_and_only_with_dice_showing(tables: Tables) -> None:
    with pytest.raises(MatchError, match="person"):
        computers.choose(tables, showing((ANN, EASY), (1, 2), seat=0))
    with pytest.raises(MatchError, match="dice are showing"):
        computers.choose(tables, m.new_match(new_setup((ANN, EASY))))
    with pytest.raises(MatchError, match="not a computer"):
        computers.step(tables, m.new_match(new_setup((ANN, EASY))), lambda r, p: 1)


@pytest.mark.parametrize("level", list(Level))
def test_a_computer_never_knows_a_roll_in_advance(tables: Tables, level: Level) -> None:
    """Two dice sources that agree up to roll ``k`` give the same game up to roll ``k``."""
    s = new_setup((Player("One", level), Player("Two", level)), target=1_500, dice=Seeded("same"))
    base = s.source()
    first = play_out(tables, m.new_match(s), base, person(Stream("unused")))
    cut = len(first.log) // 2

    def changed(roll: int, place: int) -> int:
        return base(roll, place) if roll <= cut else 7 - base(roll, place)

    second = m.new_match(s)
    while second.rolls < cut or second.phase == "pick":
        second = computers.step(tables, second, changed)
    assert second.log[: cut - 1] == first.log[: cut - 1]
    assert second.rolls == cut or second.rolls == cut + 1


def test_computers_play_whole_games_of_every_size(tables: Tables) -> None:
    players = (
        Player("A", Level.EASY),
        Player("B", Level.MEDIUM),
        Player("C", Level.HARD),
        Player("D", Level.EASY),
    )
    for size in (2, 3, 4):
        s = new_setup(players[:size], target=1_500, opening=350, dice=Seeded(f"n{size}"))
        state = computers.play_computers(tables, m.new_match(s), s.source())
        assert state.over and max(state.scores) >= 1_500
        assert all(x.decision is False or x.keep for x in state.log)
