"""What a whole game says before it acts: a last turn's need, which games are rated (one rule,
said once), pass and play kept apart from the owner's progress, and what no to "Carry on with
it?" does."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import pytest
from prompt_toolkit.input import PipeInput
from typer.testing import CliRunner

from farkle_trainer.cli import app
from farkle_trainer.engine.rules import PRESETS, Rules, rules_from_mapping
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.db import Store
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games.dice import Seeded
from farkle_trainer.training.games.play import SET_ASIDE, official_game_stats
from farkle_trainer.training.games.setup import (
    GameKind,
    Level,
    OffRules,
    Player,
    is_rated,
    new_setup,
    off_rules,
)
from farkle_trainer.training.progress import load_progress
from farkle_trainer.ui.views.play import kind_line
from tests.plays import HARD_1000, HARD_2000, drawn_seed, greedy_script  # noqa: F401 - drawn_seed is autouse
from tests.test_play_cli import screen  # noqa: F401 - the play command on a terminal, as a fixture

runner = CliRunner()

#: Seed 30 to 1,000: Hard banks 1,000 on turn 2, and your last turn sets aside 1 4 4 4 for 500.
LAST_TURN = ["play", "--vs", "hard", "--seed", "30", "--target", "1000", "--plain"]
TO_LAST_TURN = ["1", "r", "1 4 4 4"]


def run(args: list[str], lines: list[str] = ()) -> tuple[int, str]:  # type: ignore[assignment]
    result = runner.invoke(app, args, input="".join(line + "\n" for line in lines))
    return result.exit_code, result.output


# -- the last turn


def test_a_last_turn_says_what_passing_the_leader_takes() -> None:
    code, out = run(LAST_TURN, [*TO_LAST_TURN, "q"])
    assert code == 0, out
    assert "Turn 3, You to roll (last turn: you need 1,050 to pass Hard). Scores: You 0, Hard 1,000." in out
    assert (
        "Set aside 1 4 4 4 for 500 (three 4s 400 + single 1 100): 500 at stake, 2 dice left. "
        "You need 550 more to pass Hard; banking now loses.\n"
        "Bank 500 and lose, or roll 2 dice (Farkle chance 44.44%)? (b/r) q" in out
    )


def test_banking_short_of_the_leader_is_asked_first_and_no_is_the_default(farkle_home: Path) -> None:
    question = "Bank 500 and lose to Hard? (y/N)"
    code, out = run(LAST_TURN, [*TO_LAST_TURN, "b", "", "b", "n", "r", "q"])
    assert code == 0, out
    assert out.count(question) == 2
    assert "You roll 2 dice, 500 at stake:" in out  # still your turn: the bank never happened
    with Store.open(farkle_home) as store:
        (row,) = store.games()
        assert not row.finished
    code, out = run(["play", "--resume", "--plain"], ["5", "b", "y", "n"])
    assert code == 0, out
    assert "You need 500 more to pass Hard; banking now loses." in out
    assert "Bank 550 and lose to Hard? (y/N) y" in out
    assert "Game over: Hard wins. Scores: You 550, Hard 1,000." in out


def test_a_bank_that_passes_or_ties_is_not_asked_about() -> None:
    from dataclasses import replace

    from farkle_trainer.ui.views import play as view

    setup = new_setup((Player("You"), Player("Hard", Level.HARD)), target=1000, dice=Seeded("30"))
    state = m.to_decision(m.new_match(setup), setup.source())
    assert view.short_bank_prompt(state) is None  # not a last turn
    # Your last turn on 950 against Hard's 1,000, with 50 and then 100 at stake.
    last = replace(state, scores=(950, 1000), turns=(1, 1), turn=3, points=50, closer=1)
    assert view.need_words(last) == "You need 50 more to pass Hard; banking now ties"
    assert view.short_bank_prompt(last) is None
    assert view.need_words(replace(last, points=100)) == "banking now passes Hard"
    assert view.short_bank_prompt(replace(last, points=0)) == "Bank 0 and lose to Hard?"


def test_on_a_terminal_the_last_turn_asks_too(screen: tuple[PipeInput, io.StringIO]) -> None:  # noqa: F811
    inp, out = screen
    inp.send_text("".join(line + "\r" for line in [*TO_LAST_TURN, "b", "", "r"]) + "\x04")
    result = runner.invoke(app, LAST_TURN[:-1])
    assert result.exit_code == 0, result.output
    shown = out.getvalue()
    assert "last turn: you need 1,050 to pass Hard" in shown
    assert "You need 550 more to pass Hard; banking now loses." in " ".join(shown.split())
    assert "You roll 2 dice, 500 at stake:" in shown and "Game over" not in shown


# -- which games are rated: one rule


@pytest.mark.parametrize(
    ("players", "rated"),
    [
        ((Player("You"), Player("Hard", Level.HARD)), True),
        ((Player("You"), Player("Easy", Level.EASY), Player("Hard", Level.HARD)), False),
        (
            (
                Player("You"),
                Player("Easy", Level.EASY),
                Player("Hard", Level.HARD),
                Player("M", Level.MEDIUM),
            ),
            False,
        ),
        ((Player("Ana"), Player("Ben")), False),
    ],
)
def test_only_one_person_against_one_computer_is_rated(players: tuple[Player, ...], rated: bool) -> None:
    assert is_rated(new_setup(players), hinted=False) is rated


@pytest.mark.parametrize(
    ("rules", "off"),
    [
        (PRESETS["classic"], None),
        (
            PRESETS["multiplier"].with_house_rules(
                target=5000, opening_minimum=350, three_farkle_penalty=500
            ),
            None,
        ),
        (
            PRESETS["doubling"].with_house_rules(
                target=2000, opening_minimum=1000, three_farkle_penalty=1000
            ),
            None,
        ),
        # The table: a single 1 worth 10,000.
        (rules_from_mapping({"name": "big", "singles": {"one": 10_000}}), OffRules.TABLE),
        # A preset's name does not make a table a preset: its values do.
        (rules_from_mapping({"name": "classic", "combinations": {"straight": 2500}}), OffRules.TABLE),
        (rules_from_mapping({"name": "mine"}), OffRules.TABLE),
        (PRESETS["fixed"].with_house_rules(target=1000), OffRules.TARGET),
        (PRESETS["fixed"].with_house_rules(target=7500), OffRules.TARGET),
        (PRESETS["classic"].with_house_rules(opening_minimum=400), OffRules.OPENING),
    ],
)
def test_only_presets_with_the_references_house_rules_are_rated(rules: Rules, off: OffRules | None) -> None:
    assert off_rules(rules) is off
    against_hard = replace(new_setup((Player("You"), Player("Hard", Level.HARD))), rules=rules)
    assert is_rated(against_hard, hinted=False) is (off is None)


def test_the_header_says_which_house_rule_keeps_a_game_from_being_rated() -> None:
    code, out = run(["play", "--vs", "easy", "--target", "1000", "--plain"], ["resign", "y", "n"])
    assert code == 0, out
    assert (
        "\nTraining game (a target of 1,000 is not rated: rated games go to 2,000, 5,000 or 10,000): "
        "recorded as progress, never in stats.\n"
    ) in out
    setup = new_setup((Player("You"), Player("Easy", Level.EASY)), target=2000, opening=400)
    assert kind_line(m.new_match(setup)) == (
        "Training game (an opening minimum of 400 is not rated: rated games have none, 350, 500 or 1,000): "
        "recorded as progress, never in stats."
    )


def test_the_help_the_header_and_stats_agree(farkle_home: Path) -> None:
    help_text = " ".join(runner.invoke(app, ["play", "--help"]).stdout.split())
    assert "one person against one computer" in help_text and "Against two or three computers" in help_text
    code, out = run(["play", "--vs", "easy,hard", "--target", "1000", "--plain"], ["resign", "y", "n"])
    assert code == 0, out
    assert "Training game (only a game against one computer is rated): recorded as progress" in out
    assert "Rated game" not in out and "counts as a loss" not in out
    stats = json.loads(runner.invoke(app, ["stats", "--json"]).stdout)
    assert stats["rated_games"]["levels"] == []
    (game,) = json.loads(runner.invoke(app, ["games", "--json"]).stdout)["games"]
    assert game["kind"] == "training"


def test_stats_leave_out_a_game_once_kept_as_rated_against_two_computers(
    tables: Tables, farkle_home: Path
) -> None:
    setup = new_setup(
        (Player("You"), Player("Easy", Level.EASY), Player("Hard", Level.HARD)), target=1000, dice=Seeded("s")
    )
    final = greedy_script(tables, setup)[1]
    assert setup.kind == GameKind.COMPUTER and final.over
    with Store.open(farkle_home) as store:
        # As an earlier version kept it: rated, with its win.
        row = store.add_game(final.to_dict(), kind="computer", level="easy,hard", rated=True, rules="classic")
        store.finish_game(row.id, final.to_dict(), outcome="win", score=final.scores[0], version=row.version)
        assert len(store.rated_games()) == 1
        stats = official_game_stats(tables, store)
        assert stats.played == 0 and stats.unverifiable == ()  # training by today's rule, not suspect


# -- pass and play


PASS_AND_PLAY = ["play", "--players", "Ana,Ben", "--seed", "8", "--target", "1000", "--plain"]


def test_pass_and_play_decisions_are_nobodys_progress(tables: Tables, farkle_home: Path) -> None:
    setup = new_setup((Player("Ana"), Player("Ben")), target=1000, dice=Seeded("8", chosen=True))
    lines, final = greedy_script(tables, setup)
    code, out = run(PASS_AND_PLAY, [*lines, "n"])
    assert code == 0, out
    assert (
        "Training game (pass and play): each person's decisions are in the analysis after the game and "
        "in farkle-train review, never in anyone's progress or stats." in out
    )
    # Each person's own summary, at the end and again in review.
    ana = sum(1 for mv in final.decisions if mv.seat == 0)
    ben = sum(1 for mv in final.decisions if mv.seat == 1)
    assert "Ana: error rate " in out and f" of {ana});" in out
    assert "Ben: error rate " in out and f" of {ben});" in out
    with Store.open(farkle_home) as store:
        assert load_progress(store).answers == 0
    review = json.loads(runner.invoke(app, ["review", "1", "--json"]).stdout)
    assert [(s["player"], s["decisions"]) for s in review["analysis"]["summaries"]] == [
        ("Ana", ana),
        ("Ben", ben),
    ]


def test_one_person_against_the_computer_is_still_progress(farkle_home: Path) -> None:
    code, out = run(
        ["play", "--players", "Ana", "--vs", "hard", "--seed", "3", "--target", "1000", "--plain"],
        ["1", "b", "q"],
    )
    assert code == 0, out
    assert "Training game (a chosen seed" in out
    run(["play", "--resume", "--plain"], ["resign", "y", "n"])
    with Store.open(farkle_home) as store:
        assert load_progress(store).answers == 1


# -- "Carry on with it?"


def test_no_to_carry_on_says_first_that_a_training_game_is_set_aside(farkle_home: Path) -> None:
    solo = ["play", "--solo", "--seed", "3", "--plain"]
    run(solo, ["1", "r", "q"])
    code, out = run(solo, ["n", "q"])
    assert code == 0, out
    assert "Starting a new game instead sets it aside: it stays in farkle-train games" in out
    assert "Carry on with it? (n: it is set aside) (Y/n) n" in out
    assert "The unfinished game 1 is set aside: farkle-train review 1 shows its decisions so far." in out
    with Store.open(farkle_home) as store:
        assert store.get_game(1).outcome == SET_ASIDE
    games = run(["games", "--plain"])[1]
    line = next(line for line in games.splitlines() if line.startswith("Game 1,"))
    assert "set aside at turn 1" in line and "resigned" not in line
    code, review = run(["review", "1", "--plain"])
    assert code == 0, review
    assert (
        "Game set aside at turn 1, unfinished. Scores: 0 banked.\n"
        "Perfect play is expected to score 5,935.77 over 10 turns (10 x 593.58, the exact expected score "
        "of a turn).\nThe only decision was the best play." in review
    )
    assert "resigned" not in review


def test_no_to_carry_on_says_first_that_a_rated_game_counts_as_resigned(farkle_home: Path) -> None:
    run(HARD_2000, ["q"])
    code, out = run(HARD_2000, ["n", "q"])
    assert code == 0, out
    assert "Carry on with it? (n: it counts as resigned) (Y/n) n" in out
    assert "The unfinished rated game 1 counts as resigned." in out


def test_restart_in_a_whole_game_says_what_to_do_instead() -> None:
    code, out = run(HARD_1000, ["restart", "q"])
    assert code == 0, out
    assert (
        "Set aside: restart\n  (a whole game does not start again: resign gives it up, q stops and saves it)"
        in out
    )
