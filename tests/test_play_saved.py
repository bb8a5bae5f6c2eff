"""``play`` again, ``--save``, ``--code``, and the saved games: ``games`` and ``review``."""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.input import PipeInput
from rich.console import Console
from typer.testing import CliRunner

import farkle_trainer.cli.play as play_cli
import farkle_trainer.cli.review as review_cli
from farkle_trainer.cli import app
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.db import Store
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games.analysis import analyse
from farkle_trainer.training.games.dice import ClassCode, Dice, Seeded
from farkle_trainer.training.games.gamefile import read_game_file
from farkle_trainer.training.games.setup import Level, Player, Setup, new_setup
from farkle_trainer.ui.terminal import InteractiveFrontend
from tests.factories import interactive_frontend
from tests.plays import HARD_1000, HARD_2000, drawn_seed, greedy_script  # noqa: F401 - drawn_seed is autouse

runner = CliRunner()


SEED_3 = Seeded("3")


def hard_setup(dice: Dice = SEED_3, target: int = 1000) -> Setup:
    return new_setup((Player("You"), Player("Hard", Level.HARD)), target=target, dice=dice)


def run(args: list[str], lines: tuple[str, ...] | list[str] = ()) -> tuple[int, str]:
    result = runner.invoke(app, args, input="".join(line + "\n" for line in lines))
    return result.exit_code, result.output


# -- play again


def test_play_again_rotates_the_seats_on_the_same_seed(tables: Tables, farkle_home: Path) -> None:
    chosen = hard_setup(Seeded("3", chosen=True))
    first, _ = greedy_script(tables, chosen)
    second, final = greedy_script(tables, chosen.rotated())
    code, out = run([*HARD_1000, "--seed", "3"], [*first, "y", *second, "n"])
    assert code == 0, out
    assert "Play again? (the other player starts) (y/N) y\nFarkle to 1,000: Hard (computer) and You" in out
    assert "Turn 1, Hard to roll. Scores: Hard 0, You 0.\nHard rolls 6 dice: a:6 b:3 c:3 d:1 e:6 f:3" in out
    assert out.rstrip().endswith("Play again? (the other player starts) (y/N) n")
    with Store.open(farkle_home) as store:
        new, old = store.games()
        assert m.MatchState.from_dict(new.state or {}) == final
        assert [p["name"] for p in (old.state or {})["setup"]["players"]] == ["You", "Hard"]


def test_a_game_on_a_chosen_seed_carried_on_is_played_again_on_that_seed(
    tables: Tables, farkle_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import secrets

    # A seed the program would draw now: never the chosen one.
    monkeypatch.setattr(secrets, "token_hex", lambda n: "abcdef01")
    chosen = hard_setup(Seeded("3", chosen=True))
    first, _ = greedy_script(tables, chosen)
    second, final = greedy_script(tables, chosen.rotated())
    run([*HARD_1000, "--seed", "3"], [first[0], "q"])
    code, out = run(["play", "--resume", "--plain"], [*first[1:], "y", second[0], "q"])
    assert code == 0, out
    assert "Turn 1, Hard to roll. Scores: Hard 0, You 0.\nHard rolls 6 dice: a:6 b:3 c:3 d:1 e:6 f:3" in out
    # The game played again carries on as any other.
    code, out = run(["play", "--resume", "--plain"], [*second[1:], "n"])
    assert code == 0, out
    assert "Carrying on where the game stopped" in out and "Game over" in out
    with Store.open(farkle_home) as store:
        assert m.MatchState.from_dict(store.games()[0].state or {}) == final


@pytest.mark.parametrize("answer", [["n"], ["q"], []])
def test_no_q_or_end_of_input_at_play_again_ends_quietly(
    tables: Tables, farkle_home: Path, answer: list[str]
) -> None:
    lines, _ = greedy_script(tables, hard_setup())
    code, out = run(HARD_1000, [*lines, *answer])
    assert code == 0, out
    assert out.rstrip().splitlines()[-1].startswith("Play again? (the other player starts) (y/N)")
    with Store.open(farkle_home) as store:
        assert len(store.games()) == 1 and store.unfinished_game() is None


def test_play_again_without_a_seed_draws_new_dice(farkle_home: Path) -> None:
    code, out = run(["play", "--solo", "--plain"], ["resign", "y", "maybe", "y", "resign", "y", "n"])
    assert code == 0, out
    assert "Play again? (y/N) maybe\n  (type y for yes or n for no)" in out
    with Store.open(farkle_home) as store:
        seeds = {(g.state or {})["setup"]["seed"] for g in store.games()}
    assert len(seeds) == 2


# -- games and review


def played_game(tables: Tables, farkle_home: Path) -> m.MatchState:
    lines, final = greedy_script(tables, hard_setup())
    code, out = run(HARD_1000, lines)
    assert code == 0, out
    return final


def rated_game(tables: Tables, farkle_home: Path) -> m.MatchState:
    lines, final = greedy_script(tables, hard_setup(target=2000))
    code, out = run(HARD_2000, lines)
    assert code == 0, out
    return final


def test_games_lists_finished_and_unfinished_games(tables: Tables, farkle_home: Path) -> None:
    assert run(["games", "--plain"]) == (
        0,
        "No saved games yet: play one with farkle-train play or farkle-train daily.\n",
    )
    rated_game(tables, farkle_home)
    run(["play", "--solo", "--seed", "5", "--plain"], ["q"])
    code, out = run(["games", "--plain"])
    assert code == 0, out
    lines = out.splitlines()
    assert lines[0] == "Saved games, newest first (2); farkle-train review ID shows one again:"
    assert lines[1].startswith("Game 2, ") and lines[1].endswith(
        ": You, training; unfinished (turn 1); 0 banked."
    )
    assert lines[2].endswith(": You and Hard (computer), rated; You win; You 2,150, Hard 1,650.")
    data = json.loads(runner.invoke(app, ["games", "--json"]).stdout)
    newest, oldest = data["games"]
    assert (
        newest["finished"] is False
        and newest["kind"] == "training"
        and newest["result"] == "unfinished (turn 1)"
    )
    assert oldest == oldest | {
        "id": 1,
        "kind": "rated",
        "game": "computer",
        "finished": True,
        "outcome": "win",
        "score": 2150,
        "scores": [2150, 1650],
        "winners": ["You"],
        "players": [{"name": "You", "level": None}, {"name": "Hard", "level": "hard"}],
        "target": 2000,
    }


@pytest.mark.parametrize("width", [100, 60])
def test_games_on_a_terminal_fit_its_width(
    tables: Tables, farkle_home: Path, monkeypatch: pytest.MonkeyPatch, width: int
) -> None:
    rated_game(tables, farkle_home)
    out = io.StringIO()
    front = InteractiveFrontend(Console(file=out, width=width, color_system=None))
    monkeypatch.setattr(review_cli, "open_terminal", lambda plain: front)
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0, result.output
    shown = out.getvalue().splitlines()
    assert max(len(line) for line in shown) <= width
    if width == 100:
        assert shown[0] == "Saved games, newest first (1); farkle-train review ID shows one again:"
        assert "┃ game ┃ started (UTC)    ┃ kind  ┃ result  ┃ scores                ┃" in shown
        assert any(line.endswith("│ rated │ You win │ You 2,150, Hard 1,650 │") for line in shown)
    else:
        # Too narrow for the table: the plain lines, each wrapped under its own start.
        assert shown[0].startswith("Saved games, newest first (1);")
        assert all(line.startswith(("Saved", "Game 1, ", "  ")) for line in shown), shown
        assert "You win; You 2,150, Hard 1,650." in " ".join(line.strip() for line in shown)


def test_review_shows_the_analysis_again(tables: Tables, farkle_home: Path) -> None:
    final = played_game(tables, farkle_home)
    code, out = run(["review", "1", "--plain"])
    assert code == 0, out
    assert out.splitlines()[0].endswith(": You and Hard (computer) (classic table); 4 turns played.")
    assert "Game over: You win. Scores: You 1,450, Hard 650." in out
    # The decisions are given in pp: so is their average (the rating reads it on the points scale).
    assert "You: error rate 0.00% (0 of 2); rating expert (0.07 pp given up a decision on average)." in out
    assert "Luck of the dice (against average, 0 on average): You +7.09 pp, Hard -35.28 pp." in out
    assert "  turn 4, Hard to roll:  61.95%\n  end of the game:      100.00%" in out
    data = json.loads(runner.invoke(app, ["review", "1", "--json"]).stdout)
    a = analyse(tables, final)
    assert data["winners"] == ["You"] and data["scores"] == {"You": 1450, "Hard": 650}
    assert data["analysis"]["unit"] == "win"
    (summary,) = data["analysis"]["summaries"]
    assert summary["average_loss_unit"] == "percentage points" and summary["rating"] == "expert"
    assert summary["average_loss"] == pytest.approx(sum(r.lost for r in a.reviews) / len(a.reviews))
    assert summary["average_points"] == pytest.approx(20 * summary["average_loss"])
    assert [d["lost"] for d in data["analysis"]["decisions"]] == [r.lost for r in a.reviews]
    assert [x["luck"] for x in data["analysis"]["accounts"]] == [x.luck for x in a.accounts]
    assert data["analysis"]["win_chances"]["by_turn"][-1] == {"turn": 5, "chance": 1.0}
    assert len(data["moves"]) == len(final.log)


def test_a_resigned_game_is_analysed_up_to_where_it_stopped(farkle_home: Path) -> None:
    # Banking 100 from 6 3 3 1 6 3 gives up win chance; two turns later the game is given up.
    code, out = run(HARD_1000, ["1", "b", "resign", "y"])
    assert code == 0, out
    ended = out[out.index("You resigned: Hard wins.") : out.index("Play again?")]
    assert "Decisions that gave up win chance: 1 of 1 (1 of them an inaccuracy or worse)" in ended
    assert "  Turn 1, You rolled 6 3 3 1 6 3 with 0 at stake:" in ended
    assert ended.endswith(
        "\n  turn 2, Hard to roll:  45.27%\n  resigned:               0.00%\n"
        "1 of your decisions, an inaccuracy or worse, is now a personal position: farkle-train decide "
        "--mistakes drills it now, and again whenever it is due; farkle-train progress shows what is due.\n"
    )
    code, again = run(["review", "1", "--plain"])
    assert code == 0, again
    # The review says the same, and whether the position is due now.
    assert again[again.index("You resigned") :] == ended.replace(
        "is now a personal position: farkle-train decide --mistakes drills it now, and again whenever it "
        "is due",
        "is a personal position: farkle-train decide --mistakes drills it when it is due (1 due now)",
    )
    data = json.loads(runner.invoke(app, ["review", "1", "--json"]).stdout)
    assert data["resigned"] == "You" and data["winners"] == ["Hard"]
    (decision,) = data["analysis"]["decisions"]
    assert decision["keep"] == [1] and decision["action"] == "bank" and decision["lost"] > 1
    assert data["analysis"]["win_chances"]["by_turn"][-1] == {"turn": 3, "chance": 0.0}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["review", "7"], "Error: there is no saved game 7: farkle-train games lists them"),
        (["review", "1"], "Error: game 1 is not over: carry on with it with farkle-train play --resume"),
        (["review", "game.txt"], "Error: GAME is a saved game's number, a daily game's d-number"),
        (["review", "nowhere.json"], "Error: there is no file nowhere.json"),
    ],
)
def test_review_refuses(farkle_home: Path, args: list[str], message: str) -> None:
    run(HARD_1000, ["q"])
    code, out = run([*args, "--plain"])
    assert code == 2 and out.startswith(message) and len(out.splitlines()) == 1, out


# -- --save and review FILE.json


def test_save_writes_the_game_as_it_goes_and_review_replays_it(
    tables: Tables, farkle_home: Path, tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    lines, final = greedy_script(tables, hard_setup(target=2000))
    code, out = run([*HARD_2000, "--save", str(path)], [lines[0], "q"])
    assert code == 0, out
    partial = json.loads(path.read_text())
    assert partial["over"] is False and partial["moves"] == []
    # A rated game keeps no seed: its rolls are drawn as they come.
    assert partial["setup"]["seed"] == "" and partial["setup"]["drawn"] is True
    code, out = run(["play", "--resume", "--plain", "--save", str(path)], lines[1:])
    assert code == 0, out
    assert f"The game is in {path}: farkle-train review {path} shows it again." in out
    saved = read_game_file(tables, path)
    assert saved.state.log == final.log and saved.state.scores == (2150, 1650) and saved.resigned is None
    code, from_file = run(["review", str(path), "--plain"])
    assert code == 0, from_file
    assert from_file.splitlines()[0].startswith(f"Game from {path} (every move checked on its dice)")
    _, from_store = run(["review", "1", "--plain"])
    # The same review; the stored game, which is yours, also says which of its decisions are your
    # personal positions (a file may be anyone's).
    kept = [line for line in from_store.splitlines() if "personal position" in line]
    assert kept == [
        "3 of your decisions, inaccuracies or worse, are personal positions: farkle-train decide --mistakes "
        "drills them when they are due (3 due now); farkle-train progress shows what is due."
    ]
    assert from_file.splitlines()[1:] == [line for line in from_store.splitlines()[1:] if line not in kept]


def test_a_resumed_game_keeps_writing_the_file_it_was_started_with(
    tables: Tables, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines, final = greedy_script(tables, hard_setup())
    monkeypatch.chdir(tmp_path)
    code, out = run([*HARD_1000, "--save", "g.json"], [lines[0], "q"])
    assert code == 0, out
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # the file is remembered where it is, not by a relative name
    code, out = run(["play", "--resume", "--plain"], [*lines[1:], "n"])
    assert code == 0, out
    path = tmp_path / "g.json"
    assert f"The game is in {path}: farkle-train review {path} shows it again." in out
    saved = read_game_file(tables, path)
    assert saved.state.over and saved.state.log == final.log
    assert not (elsewhere / "g.json").exists()


def test_a_resumed_game_offered_by_play_keeps_writing_its_file(tables: Tables, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    lines, final = greedy_script(tables, hard_setup())
    run([*HARD_1000, "--save", str(path)], [lines[0], "q"])
    code, out = run(HARD_1000, ["y", *lines[1:], "n"])
    assert code == 0, out
    assert read_game_file(tables, path).state.log == final.log


@pytest.mark.parametrize("other", ["notes", "game"])
def test_a_resumed_game_whose_file_was_replaced_says_it_is_not_written(
    tables: Tables, tmp_path: Path, other: str
) -> None:
    path = tmp_path / "g.json"
    lines, _ = greedy_script(tables, hard_setup())
    run([*HARD_1000, "--save", str(path)], [lines[0], "q"])
    if other == "notes":
        path.write_text('{"mine": true}\n')
    else:
        data = json.loads(path.read_text())
        data["setup"]["seed"] = "4"
        path.write_text(json.dumps(data))
    before = path.read_text()
    code, out = run(["play", "--resume", "--plain"], [*lines[1:], "n"])
    assert code == 0, out
    assert (
        f"Note: {path} no longer holds this game, so the game is not written there "
        "(add --save FILE.json to write it to a file)." in out
    )
    assert "Game over: You win." in out and "The game is in" not in out
    assert path.read_text() == before


def test_a_game_played_again_is_saved_to_a_numbered_file(tables: Tables, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    first, _ = greedy_script(tables, hard_setup())
    code, out = run([*HARD_1000, "--save", str(path)], [*first, "y", "resign", "y", "n"])
    assert code == 0, out
    assert read_game_file(tables, path).state.over
    second = read_game_file(tables, tmp_path / "game-2.json")
    assert second.resigned == 1 and second.state.setup.players[0].name == "Hard"
    assert json.loads((tmp_path / "game-2.json").read_text())["winners"] == [0]


def test_review_of_a_resigned_game_file_checks_its_winners(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    code, out = run([*HARD_1000, "--save", str(path)], ["resign", "y", "n"])
    assert code == 0, out
    data = json.loads(path.read_text())
    assert data["resigned"] == 0 and data["winners"] == [1]
    code, out = run(["review", str(path), "--plain"])
    assert code == 0 and "You resigned: Hard wins. Scores: You 0, Hard 0." in out, out
    # A file from before a resignation named its winners has none: it reads as the same game.
    path.write_text(json.dumps({**data, "winners": None}))
    code, again = run(["review", str(path), "--plain"])
    assert code == 0 and again == out, again
    path.write_text(json.dumps({**data, "winners": [0]}))
    code, out = run(["review", str(path), "--plain"])
    assert code == 2 and "the file gives the winners as [0], but its moves give Hard" in out, out


def test_save_never_replaces_a_file_it_did_not_write_unless_forced(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_text('{"mine": true}\n')
    code, out = run([*HARD_1000, "--save", str(path)], ["q"])
    assert code == 2 and out == (
        f"Error: {path} exists and is not a game file saved by farkle-train: "
        "choose another name, or add --force to replace it\n"
    )
    assert path.read_text() == '{"mine": true}\n'
    code, out = run([*HARD_1000, "--save", str(path), "--force"], ["q"])
    assert code == 0, out
    assert json.loads(path.read_text())["format"] == "farkle-train game"
    # Another game's file is someone's record too: only --force replaces it.
    code, out = run(["play", "--solo", "--seed", "1", "--plain", "--save", str(path)], ["n", "q"])
    assert code == 2 and out.endswith(
        f"Error: {path} holds another game: choose another name, or add --force to replace it\n"
    ), out
    assert json.loads(path.read_text())["setup"]["form"] == "match"
    code, out = run(["play", "--solo", "--seed", "1", "--plain", "--save", str(path), "--force"], ["n", "q"])
    assert code == 0, out
    assert json.loads(path.read_text())["setup"]["form"] == "ten-turns"


def test_save_never_replaces_another_game_file(farkle_home: Path, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    code, out = run([*HARD_1000, "--seed", "3", "--save", str(path)], ["q"])
    assert code == 0, out
    first = path.read_text()
    # The file is the unfinished game's: a new game in its place is refused before that game is closed.
    code, out = run([*HARD_1000, "--seed", "1", "--save", str(path)], ["n", "q"])
    assert code == 2 and out.endswith("choose another name, or add --force to replace it\n"), out
    assert path.read_text() == first
    with Store.open(farkle_home) as store:
        (game,) = store.games()
        assert not game.finished  # refused before the unfinished game was closed


def test_a_finished_game_file_is_never_replaced_by_a_new_game(tables: Tables, tmp_path: Path) -> None:
    path, data = finished_file(tables, tmp_path)
    code, out = run([*HARD_1000, "--save", str(path)], ["q"])
    assert code == 2 and out == (
        f"Error: {path} holds another game: choose another name, or add --force to replace it\n"
    ), out
    assert json.loads(path.read_text()) == data


def test_a_game_played_again_never_replaces_another_game_file(tables: Tables, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    finished_file(tables, tmp_path)
    other = tmp_path / "other.json"
    second = tmp_path / "other-2.json"
    second.write_text((tmp_path / "game.json").read_text())
    code, out = run([*HARD_1000, "--save", str(other)], ["resign", "y", "y"])
    assert code == 2 and out.endswith(
        f"Error: {second} holds another game: choose another name, or add --force to replace it\n"
    ), out
    assert second.read_text() == path.read_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--save", "game.txt"], "Error: a game file's name ends in .json, like game.json, not game.txt"),
        (["--save", "no/such/game.json"], "Error: there is no folder no/such to save game.json in"),
        (["--force"], "Error: --force goes with --save FILE.json"),
        (
            ["--code", "MATH7B", "--seed", "3"],
            "Error: --code and --seed both choose the dice: give one of them",
        ),
    ],
)
def test_play_options_that_cannot_be_used(args: list[str], message: str) -> None:
    code, out = run([*HARD_1000, *args])
    assert code == 2 and out.startswith(message) and len(out.splitlines()) == 1, out


def test_a_code_that_is_not_one_is_refused() -> None:
    code, out = run(["play", "--code", "M!", "--plain"])
    assert code == 2 and out.startswith("Error: a class code has only letters and digits"), out


def finished_file(tables: Tables, tmp_path: Path, *options: str) -> tuple[Path, dict[str, Any]]:
    path = tmp_path / "game.json"
    lines, _ = greedy_script(tables, hard_setup())
    code, out = run([*HARD_1000, *options, "--save", str(path)], lines)
    assert code == 0, out
    return path, json.loads(path.read_text())


def _set(data: dict[str, Any], change: str) -> None:
    moves = data["moves"]
    if change == "dice":
        moves[0]["roll"] = [1, 1, 1, 3, 6, 6]
    elif change == "keep":
        moves[0]["keep"] = [1, 1]
    elif change == "computer":
        moves[1]["action"] = "roll"
    elif change == "farkle":
        moves[0]["action"] = "farkle"
    elif change == "scores":
        data["scores"] = [1450, 2000]
    elif change == "winners":
        data["winners"] = [1]
    elif change == "short":
        data["moves"] = moves[:-1]
    elif change == "seed":
        data["setup"]["seed"] = "4"
    elif change == "bank":
        moves[0]["action"] = "roll"
    elif change == "escape":
        data["setup"]["players"][0]["name"] = "You\x1b[2J\x1b[41m"
    elif change == "long name":
        data["setup"]["players"][0]["name"] = "Y" * 500
    elif change == "single 75":
        data["setup"]["rules"]["single_one"] = 75
    elif change == "huge single":
        data["setup"]["rules"]["single_one"] = 10**15
    elif change == "huge triples":
        data["setup"]["rules"]["triples"] = [10**15] * 6
    elif change == "factor":
        factors = {"four_of_a_kind": 2, "five_of_a_kind": 3, "six_of_a_kind": 10**6}
        data["setup"]["rules"] |= {"of_a_kind": "multiply", **factors}
    elif change == "table name":
        data["setup"]["rules"]["name"] = "classic\x1b[2J"
    elif change == "hints":
        data["hints"] = 10**400
    elif change == "chosen seed":
        data["setup"] |= {"seed": str(2**64), "chosen_seed": True}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("dice", "move 1: the dice were 6 3 3 1 6 3, not 1 1 1 3 6 6"),
        ("keep", "move 1: 1 1 are not all in the roll 6 3 3 1 6 3"),
        ("computer", "move 2: Hard does not play that on these dice: it sets aside 5 6 6 6 and banks"),
        ("farkle", "move 1: 6 3 3 1 6 3 is not a Farkle"),
        ("scores", "the file gives the scores as [1450, 2000], but its moves give 1,450, 650"),
        ("winners", "the file gives the winners as [1], but its moves give You"),
        ("short", "the moves stop before move 6, the Farkle on 3 2 4 3"),
        ("seed", "move 1: the dice were"),
        ("bank", "move 2: it is player 1's move, not player 2's"),
        ("escape", "its setup cannot be read: a player's name cannot contain control characters"),
        ("long name", "its setup cannot be read: a player's name has at most 20 characters, not 500"),
        # A game file's rules are checked as a rule file's are, in the same words.
        (
            "single 75",
            "its setup cannot be read: the saved rules: singles.one: must be a multiple of 50, not 75",
        ),
        (
            "huge single",
            "its setup cannot be read: the saved rules: singles.one: must be between 50 and 10,000, "
            "not 1,000,000,000,000,000",
        ),
        (
            "huge triples",
            "its setup cannot be read: the saved rules: three_of_a_kind.one: must be between 50",
        ),
        ("factor", 'its setup cannot be read: the saved rules: of_a_kind.six: with mode = "multiply"'),
        ("table name", "its setup cannot be read: the rule table's name cannot contain control characters"),
        ("hints", "hints must be a count from 0 to 10,000"),
        (
            "chosen seed",
            "its setup cannot be read: a chosen seed is a whole number from 0 to 9,223,372,036,854,775,807",
        ),
    ],
)
def test_review_refuses_a_file_whose_moves_or_result_do_not_hold(
    tables: Tables, tmp_path: Path, change: str, message: str
) -> None:
    # On a seed, so the dice themselves are checked too.
    path, data = finished_file(tables, tmp_path, "--seed", "3")
    _set(data, change)
    path.write_text(json.dumps(data))
    code, out = run(["review", str(path), "--plain"])
    assert code == 2 and out.startswith(f"Error: {path}: {message}") and len(out.splitlines()) == 1, out
    assert "\x1b" not in out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "is not a game file: it is not JSON"),
        ('{"a": 1}', "is not a game file saved by farkle-train"),
        ("[" * 5000 + "]" * 5000, "is not a game file: it is nested too deeply"),
        ('{"pad": "' + "x" * (5 * 2**20) + '"}', "is too large to be a game file (over 4 MB)"),
    ],
    ids=["text", "other-json", "deep", "huge"],
)
def test_review_refuses_a_file_that_is_not_a_game(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "x.json"
    path.write_text(text)
    code, out = run(["review", str(path)])
    assert code == 2 and out == f"Error: {path} {message}\n"


def test_review_refuses_a_fifo_without_waiting(tmp_path: Path) -> None:
    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    code, out = run(["review", str(path)])
    assert code == 2 and out == f"Error: {path} is not a game file: it is not a regular file\n"


# -- a class code


def test_code_plays_the_class_game_on_the_code_dice(tables: Tables, tmp_path: Path) -> None:
    setup = hard_setup(ClassCode("MATH7B"))
    lines, final = greedy_script(tables, setup)
    path = tmp_path / "class.json"
    args = ["play", "--vs", "hard", "--code", "math-7b", "--target", "1000", "--plain", "--save", str(path)]
    code, out = run(args, lines)
    assert code == 0, out
    assert "Class code MATH7B: everyone who plays it gets the same dice." in out
    source = setup.source()
    first = " ".join(f"{'abcdef'[i]}:{source(1, i + 1)}" for i in range(6))
    assert f"You roll 6 dice: {first}" in out
    assert first != "a:6 b:3 c:3 d:1 e:6 f:3"  # not the dice of any seed given here
    saved = read_game_file(tables, path)
    assert saved.state.setup.class_code == "MATH7B" and saved.state.log == final.log


# -- on a terminal


@pytest.fixture
def screen(pipe: PipeInput, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[PipeInput, io.StringIO]]:
    front, out = interactive_frontend(pipe)
    monkeypatch.setattr(play_cli, "open_terminal", lambda plain: front)
    monkeypatch.setattr(review_cli, "open_terminal", lambda plain: front)
    monkeypatch.setattr(play_cli, "PAUSE_SECONDS", 0.0)
    yield pipe, out


def test_play_again_and_review_on_a_terminal(tables: Tables, screen: tuple[PipeInput, io.StringIO]) -> None:
    inp, out = screen
    lines, _ = greedy_script(tables, hard_setup())
    # A yes/no question takes one key: the Enter after the last y answers "Play again?" (no).
    inp.send_text("".join(line + "\r" for line in [*lines, "y", "resign", "y"]))
    result = runner.invoke(app, ["play", "--vs", "hard", "--seed", "3", "--target", "1000"])
    assert result.exit_code == 0, result.output
    shown = out.getvalue()
    assert "Game over: You win. Scores: You 1,450, Hard 650." in shown
    assert "Turn 1, Hard to roll. Scores: Hard 0, You 0." in shown
    assert "You resigned: Hard wins. Scores: Hard 400, You 0." in shown
    inp.send_text("q")  # the walk through the moves is offered after the analysis: not taken
    result = runner.invoke(app, ["review", "1"])
    assert result.exit_code == 0, result.output
    again = out.getvalue()[len(shown) :]
    assert "Game over: You win. Scores: You 1,450, Hard 650." in again
    # The chance of winning is a chart with axes, the turns and an even chance marked across.
    assert "100%┤" in again and " 50%┤" in again and "┈┈ an even chance, 50%" in again
    assert "Move 1 of" not in again
