"""A whole game played from Python, one decision at a time (``farkle_trainer.new_game``)."""

from __future__ import annotations

import json
from itertools import product
from pathlib import Path

import pytest

from farkle_trainer import Decision, GameError, Level, load_rules, new_game, score
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.engine.tables import Tables
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games.dice import ClassCode, Seeded
from farkle_trainer.training.games.gamefile import read_game_file
from farkle_trainer.training.games.setup import Form


def sub_rolls(roll: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Every non-empty set of dice that can be taken from ``roll``, as sorted faces."""
    return {
        tuple(sorted(d for d, on in zip(roll, mask, strict=True) if on))
        for mask in product((False, True), repeat=len(roll))
        if any(mask)
    }


def test_the_first_roll_is_the_seed_s_and_the_game_says_where_it_stands() -> None:
    game = new_game(["Ana", Level.EASY, Level.EASY], target=2000, seed=11)
    stream = Stream("match:11")
    assert game.roll == tuple(stream.child(f"1:{place}").randint(1, 6) for place in range(1, 7))
    assert [p.name for p in game.players] == ["Ana", "Easy", "Easy 2"]
    assert (game.turn, game.player.name, game.points, game.scores) == (1, "Ana", 0, (0, 0, 0))
    assert game.setup.dice == Seeded("11", chosen=True) and game.setup.target == 2000
    assert new_game(["Ana", Level.EASY], seed=11).roll == game.roll


@pytest.mark.parametrize("seed", range(8))
def test_the_decisions_are_every_set_aside_that_scores_banked_only_where_the_opening_allows(
    seed: int,
) -> None:
    rules = load_rules("classic")
    game = new_game(["Ana", "Ben"], rules, target=2000, opening=500, seed=seed)
    for _ in range(12):
        if game.over:
            break
        # Written apart from the game: any dice of the roll whose every die scores, rolled on;
        # banked when the player has banked before or the turn reaches the opening minimum.
        scoring = {keep: score(keep, rules) for keep in sub_rolls(game.roll)}
        opened = game.scores[game.players.index(game.player)] > 0
        expected = set()
        for keep, points in scoring.items():
            if points is None:
                continue
            expected.add(Decision(keep, "roll"))
            if opened or game.points + points >= 500:
                expected.add(Decision(keep, "bank"))
        assert set(game.decisions) == expected and len(game.decisions) == len(expected)
        game.push(game.decisions[-1])  # the fewest points, rolled on: many turns, many Farkles


def test_a_decision_the_rules_do_not_allow_changes_nothing() -> None:
    game = new_game(["You", Level.EASY], target=1000, seed=3)
    assert game.roll == (6, 3, 3, 1, 6, 3)
    before = game.state
    for wrong, said in [
        (Decision((3, 3), "roll"), "two 3s score nothing"),
        (Decision((5,), "bank"), "not all in the roll"),
        (Decision((), "roll"), "set aside at least one scoring die"),
    ]:
        with pytest.raises(GameError, match=said):
            game.push(wrong)
        assert game.state == before
    with pytest.raises(GameError, match="not a computer's turn"):
        game.computer_decision()
    with pytest.raises(GameError, match="banks or rolls on"):
        Decision((1,), "stay")  # type: ignore[arg-type]


def test_a_game_played_out_gives_the_scores_its_plays_are_worth() -> None:
    game = new_game(["You", Level.EASY], target=1000, seed=3)
    game.push(Decision((3, 1, 3, 3), "bank"))  # three 3s 300 + a 1 100
    assert game.scores == (400, 0) and game.player.name == "Easy"
    assert game.play_computers() == (Decision((5, 6, 6, 6), "bank"),)  # three 6s 600 + a 5 50
    assert game.roll == (3, 1, 1, 5, 2, 1)
    game.push(Decision((1, 1, 1, 5), "bank"))  # three 1s 1,000 + a 5 50: past the target
    assert game.scores == (1450, 650) and not game.over  # Easy has one last turn
    game.play_computers()
    assert game.over and game.winners == (game.players[0],) and game.decisions == ()
    with pytest.raises(GameError, match="over"):
        game.push(Decision((1,), "roll"))


def test_one_person_plays_solo_ten_turns_or_to_a_target() -> None:
    ten = new_game(["You"], seed=5)
    assert ten.setup.form == Form.TEN_TURNS
    while not ten.over:
        ten.push(next(d for d in ten.decisions if d.action == "bank"))
    turns = max(move.turn for move in ten.moves)
    assert turns == 10 and ten.scores[0] > 0 and ten.winners == ten.players
    assert new_game(["You"], target=2000, seed=5).setup.form == Form.FEWEST_TURNS


def test_a_class_code_deals_the_class_dice() -> None:
    game = new_game(["You", Level.HARD], code="math-7b")
    assert game.setup.dice == ClassCode("MATH7B")
    with pytest.raises(GameError, match="one place"):
        new_game(seed=1, code="MATH7B")
    with pytest.raises(GameError, match="a solo game has exactly one player, a person"):
        new_game([Level.HARD])


def test_a_saved_game_replays_from_its_file(tables: Tables, tmp_path: Path) -> None:
    game = new_game(["You", Level.EASY], target=1000, seed=3)
    game.push(Decision((1, 3, 3, 3), "bank"))
    game.play_computers()
    path = tmp_path / "game.json"
    game.save(path)
    assert json.loads(path.read_text())["over"] is False
    replayed = read_game_file(tables, path).state
    # The file holds the moves; the roll showing is thrown again from the same dice.
    assert (replayed.log, replayed.scores, replayed.turn) == (game.moves, game.scores, game.turn)
    assert m.to_decision(replayed, game.setup.source()) == game.state


@pytest.mark.parametrize(
    ("call", "said"),
    [
        (lambda: new_game("Bo"), "players is a list of players in seat order"),
        (lambda: new_game(5), "players is a list of players in seat order"),  # type: ignore[arg-type]
        (lambda: new_game(["You", None]), "a player is a name, a Level or a Player, not None"),  # type: ignore[list-item]
        (lambda: new_game(code=7), "a class code is text"),  # type: ignore[arg-type]
        (lambda: new_game(tables="mine"), "tables is a Tables"),  # type: ignore[arg-type]
        (lambda: new_game(tables=[]), "tables is a Tables"),  # type: ignore[arg-type]
    ],
)
def test_arguments_of_the_wrong_kind_are_refused_at_once_with_one_line(call: object, said: str) -> None:
    with pytest.raises(GameError, match=said) as refused:
        call()  # type: ignore[operator]
    assert "\n" not in str(refused.value)


def test_win_chance_refuses_tables_that_are_not_tables() -> None:
    from farkle_trainer import win_chance
    from farkle_trainer.engine.gameplan import GameSolverError

    for wrong in (5, "", []):
        with pytest.raises(GameSolverError, match="tables is a Tables"):
            win_chance(0, 0, "classic", 1000, tables=wrong)  # type: ignore[arg-type]


@pytest.mark.parametrize("dice", [5, None, "115", [None, 1], [1, "5"], [1, 1.5]])
def test_score_and_explain_refuse_what_are_not_dice_alike(dice: object) -> None:
    from farkle_trainer import DiceError, explain

    for function in (score, explain):
        with pytest.raises(DiceError, match=r"die face|not dice"):
            function(dice)  # type: ignore[arg-type]
