"""Computer players: Easy's thresholds, Medium's expected score, Hard's chance of winning, and
that a computer sees only what a person sees."""

from __future__ import annotations

from dataclasses import replace

import pytest
from matches import person, play_out

from farkle_trainer.engine.dice import counts_of
from farkle_trainer.engine.game import game_plays, solve_game
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.engine.solver import Objective, solve
from farkle_trainer.training.games import computers
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games.setup import Level, MatchError, Player, new_setup

ANN = Player("Ann")
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


def test_easy_keeps_every_scoring_die() -> None:
    assert computers.choose(showing((ANN, EASY), (1, 5, 2, 2, 3, 6))) == computers.Choice((1, 5), "roll")
    assert computers.choose(showing((ANN, EASY), (1, 1, 1, 5, 2, 3))) == computers.Choice(
        (1, 1, 1, 5), "bank"
    )
    assert computers.choose(showing((ANN, EASY), (2, 2, 3, 3, 6, 6))).keep == (2, 2, 3, 3, 6, 6)


@pytest.mark.parametrize(
    ("left", "threshold"), [(6, 2_000), (5, 2_000), (4, 1_000), (3, 400), (2, 300), (1, 300)]
)
def test_easy_banks_at_its_thresholds(left: int, threshold: int) -> None:
    roll = (1, 2, 3, 4, 6, 6)[: left + 1] if left < 6 else (1, 1, 1, 5, 5, 5)
    kept = score_table(new_setup((ANN, EASY)).rules).split(counts_of((1,) if left < 6 else roll))
    assert kept is not None
    for total, action in ((threshold - 50, "roll"), (threshold, "bank"), (threshold + 500, "bank")):
        state = showing((ANN, EASY), roll, points=total - kept.points, scores=(0, 100))
        assert computers.choose(state).action == action


def test_easy_respects_the_opening_minimum_and_plays_to_pass_in_its_last_turn() -> None:
    state = showing((ANN, EASY), (1, 2), points=400, opening=1_000)
    assert computers.choose(state) == computers.Choice((1,), "roll")
    state = showing((ANN, EASY), (1, 2), points=400, scores=(2_300, 1_500), last=True)
    assert computers.choose(state).action == "roll"  # 2,000 would still be behind
    state = showing((ANN, EASY), (1, 2), points=750, scores=(2_300, 1_500), last=True)
    assert computers.choose(state).action == "bank"


def _expected_values(state: m.MatchState) -> dict[tuple[tuple[int, ...], str], float]:
    opening = state.setup.opening if state.scores[state.seat] == 0 else 0
    sol = solve(state.rules, Objective.expected(opening=opening))
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
def test_medium_plays_the_best_expected_score(roll, points, opening) -> None:
    state = showing((ANN, MEDIUM), roll, points=points, opening=opening)
    values = _expected_values(state)
    choice = computers.choose(state)
    assert values[(choice.keep, choice.action)] == pytest.approx(max(values.values()), abs=1e-9)


def test_hard_plays_the_best_chance_of_winning() -> None:
    table = solve_game(new_setup((ANN, HARD), target=2_000).rules, 2_000, 0)
    for roll, points, scores in (
        ((1, 5, 2, 2, 3, 6), 0, (0, 0)),
        ((1, 5, 5), 300, (1_500, 200)),
        ((5, 2), 400, (1_200, 1_500)),
    ):
        state = showing((ANN, HARD), roll, points=points, scores=scores)
        choice = computers.choose(state)
        plays = game_plays(counts_of(roll), points, scores[1], scores[0], table)
        value = {(p.keep, "roll"): p.roll for p in plays.plays} | {
            (p.keep, "bank"): p.bank for p in plays.plays if p.bank is not None
        }
        assert value[(choice.keep, choice.action)] == pytest.approx(max(value.values()), abs=1e-12)


def test_hard_plays_its_last_turn_to_pass_the_leader() -> None:
    table = solve_game(new_setup((ANN, HARD), target=2_000).rules, 2_000, 0)
    state = showing((ANN, HARD), (1, 5, 5, 2, 3, 4), points=0, scores=(2_300, 1_500), last=True)
    choice = computers.choose(state)
    best = max(
        (table.final_roll_value(800, p.points_after, p.dice_to_roll), p.keep)
        for p in game_plays(counts_of(state.roll), 0, 1_500, 2_300, table, last_turn=True).plays
    )
    assert choice.keep == best[1] and choice.action == "roll"
    state = showing((ANN, HARD), (1, 5), points=800, scores=(2_300, 1_500), last=True)
    assert computers.choose(state) == computers.Choice((1, 5), "bank")  # 2,450 passes 2,300


def test_hard_with_more_players_plays_against_the_leader() -> None:
    table = solve_game(new_setup((ANN, HARD), target=2_000).rules, 2_000, 0)
    players = (ANN, HARD, Player("Bob"))
    for roll, points, scores in (((5, 2), 300, (1_750, 1_200, 300)), ((1, 2, 3), 450, (200, 1_000, 1_850))):
        state = showing(players, roll, points=points, scores=scores)
        plays = game_plays(counts_of(roll), points, scores[1], max(scores[0], scores[2]), table)
        best = plays.best
        assert best is not None
        assert computers.choose(state) == computers.Choice(best.keep, best.action)


def test_only_a_computer_chooses_and_only_with_dice_showing() -> None:
    with pytest.raises(MatchError, match="person"):
        computers.choose(showing((ANN, EASY), (1, 2), seat=0))
    with pytest.raises(MatchError, match="dice are showing"):
        computers.choose(m.new_match(new_setup((ANN, EASY))))
    with pytest.raises(MatchError, match="not a computer"):
        computers.step(m.new_match(new_setup((ANN, EASY))), lambda r, p: 1)


@pytest.mark.parametrize("level", list(Level))
def test_a_computer_never_knows_a_roll_in_advance(level: Level) -> None:
    """Two dice sources that agree up to roll ``k`` give the same game up to roll ``k``."""
    s = new_setup((Player("One", level), Player("Two", level)), target=1_500, seed="same")
    base = s.source()
    first = play_out(m.new_match(s), base, person(Stream("unused")))
    cut = len(first.log) // 2

    def changed(roll: int, place: int) -> int:
        return base(roll, place) if roll <= cut else 7 - base(roll, place)

    second = m.new_match(s)
    while second.rolls < cut or second.phase == "pick":
        second = computers.step(second, changed)
    assert second.log[: cut - 1] == first.log[: cut - 1]
    assert second.rolls == cut or second.rolls == cut + 1


def test_computers_play_whole_games_of_every_size() -> None:
    players = (
        Player("A", Level.EASY),
        Player("B", Level.MEDIUM),
        Player("C", Level.HARD),
        Player("D", Level.EASY),
    )
    for size in (2, 3, 4):
        s = new_setup(players[:size], target=1_500, opening=350, seed=f"n{size}")
        state = computers.play_computers(m.new_match(s), s.source())
        assert state.over and max(state.scores) >= 1_500
        assert all(x.decision is False or x.keep for x in state.log)
