"""Rated games: dice that cannot be known in advance, and a game that stays rated."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from farkle_trainer.cli import app
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.store.db import Store
from farkle_trainer.training.games import dice
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games import setup as game_setup
from farkle_trainer.training.games.dice import seeded_source
from farkle_trainer.training.games.setup import Form, Level, Player, Setup, dealt, new_setup
from tests.plays import HARD_1000, drawn_seed, greedy_script  # noqa: F401 - drawn_seed is autouse

runner = CliRunner()


def hard_setup(seed: str = "3") -> Setup:
    return new_setup((Player("You"), Player("Hard", Level.HARD)), target=1000, seed=seed)


def run(args: list[str], lines: list[str] = []) -> tuple[int, str]:  # noqa: B006 - never changed
    result = runner.invoke(app, args, input="".join(line + "\n" for line in lines))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


def stats() -> dict[str, Any]:
    code, out = run(["stats", "--json"])
    assert code == 0, out
    data: dict[str, Any] = json.loads(out)
    return data


def rated(data: dict[str, Any]) -> tuple[int, int, int]:
    """Rated games played, won and lost, as ``stats --json`` gives them."""
    levels = data["rated_games"]["levels"]
    played, won, lost = (sum(level[key] for level in levels) for key in ("played", "wins", "losses"))
    return played, won, lost


#: A rated game against Hard that the person loses: banking only from 500 up, on seed 3's dice.
LOSING, LOST = greedy_script(hard_setup(), bank_at=500)


def test_the_losing_game_is_lost() -> None:
    assert LOST.over and LOST.scores == (0, 1050) and LOST.winners() == (1,)


# -- the dice of a rated game


def test_a_rated_game_draws_its_dice_and_keeps_no_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    setup = dealt(hard_setup("whatever"))
    assert setup.drawn and setup.seed == "" and "whatever" not in json.dumps(setup.to_dict())
    # Only a game that will be rated: any other keeps its reproducible dice.
    training = new_setup((Player("You"),), form=Form.TEN_TURNS, seed="5")
    coached = new_setup((Player("You"), Player("Hard", Level.HARD)), seed="5", coached=True)
    assert dealt(training) == training and dealt(coached) == coached
    # Each die comes from the operating system's randomness as it is rolled.
    drawn = iter([0, 5, 2, 3, 4, 1])
    monkeypatch.setattr(dice.secrets, "randbelow", lambda n: next(drawn))
    rolled = m.roll(m.new_match(setup), dice.drawn_source())
    assert rolled.roll == (1, 6, 3, 4, 5, 2)


def test_a_rated_game_resumes_on_the_rolls_it_kept(
    monkeypatch: pytest.MonkeyPatch, farkle_home: Path
) -> None:
    run(HARD_1000, [LOSING[0], "q"])
    # Whatever the draw gives now, the roll showing is the one kept.
    monkeypatch.setattr(game_setup, "drawn_source", lambda: seeded_source(Stream("other")))
    code, out = run(["play", "--resume", "--plain"], ["r", "q"])
    assert code == 0, out
    assert "You roll 6 dice: a:6 b:3 c:3 d:1 e:6 f:3\nSet aside 1 3 3 3 for 400" in out
    with Store.open(farkle_home) as store:
        (row,) = store.games()
    assert (
        row.state is not None
        and row.state["setup"]["drawn"] is True
        and row.state["log"][0]["roll"] == [6, 3, 3, 1, 6, 3]
    )


# -- a rated game stays rated


def test_h_on_the_last_turn_of_a_lost_rated_game_leaves_it_rated_and_lost() -> None:
    code, out = run(HARD_1000, [*LOSING[:-1], "h", LOSING[-1]])
    assert code == 0, out
    assert (
        "(the coach is off in a rated game; for a coached game, start one with farkle-train play --coach)"
        in out
    )
    assert "Game over: Hard wins." in out
    assert rated(stats()) == (1, 0, 1)
