"""``farkle-train play`` as a user meets it: through a pipe, on a terminal, stopped, killed and resumed."""

from __future__ import annotations

import io
import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from prompt_toolkit.input import PipeInput
from rich.console import Console
from typer.testing import CliRunner

import farkle_trainer.cli.play as play_cli
from farkle_trainer.cli import app
from farkle_trainer.engine.rules import PRESETS
from farkle_trainer.engine.solver import Objective
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.db import Store
from farkle_trainer.training import solving
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games.dice import Seeded
from farkle_trainer.training.games.setup import Form, Level, Player, Setup, dealt, new_setup
from farkle_trainer.training.progress import load_progress
from farkle_trainer.ui.terminal import InteractiveFrontend
from tests.factories import interactive_frontend
from tests.plays import HARD_1000, HARD_2000, drawn_seed, greedy_script  # noqa: F401 - drawn_seed is autouse

runner = CliRunner()


def hard_setup(seed: str = "3", target: int = 1000) -> Setup:
    return new_setup((Player("You"), Player("Hard", Level.HARD)), target=target, dice=Seeded(seed))


def run(args: list[str], lines: list[str]) -> tuple[int, str]:
    result = runner.invoke(app, args, input="".join(line + "\n" for line in lines))
    return result.exit_code, result.output


def test_a_whole_rated_game_against_hard(tables: Tables, farkle_home: Path) -> None:
    lines, final = greedy_script(tables, hard_setup(target=2000))
    code, out = run(HARD_2000, lines)
    assert code == 0, out
    assert "Rated game: it counts in stats" in out
    assert "Turn 1, You to roll. Scores: You 0, Hard 0." in out
    assert "You roll 6 dice: a:6 b:3 c:3 d:1 e:6 f:3" in out
    assert "Bank 400 or roll 2 dice (Farkle chance 44.44%)? (b/r) b" in out
    assert "Hard sets aside 5 6 6 6 (650 at stake) and banks: Hard 650." in out
    assert "You have reached 2,000: everyone else gets one last turn." in out
    assert "Game over: You win. Scores: You 2,150, Hard 1,650." in out
    assert "You: error rate 60.00% (3 of 5)" in out
    assert (
        "Your chance of winning through the game, at the start of each turn whoever rolls it:" in out
        and "  end of the game:       100.00%" in out
    )
    assert final.scores == (2150, 1650)
    with Store.open(farkle_home) as store:
        (game,) = store.games()
        assert game.finished and game.rated and game.outcome == "win" and game.score == 2150
        # The same game, on dice drawn as they were rolled: the store keeps no seed of it.
        assert m.MatchState.from_dict(game.state or {}) == replace(final, setup=dealt(final.setup))
        assert (game.state or {})["setup"]["seed"] == ""
        assert load_progress(store).answers == 0  # a rated game is never progress


def test_bad_answers_are_asked_again_and_the_coach_answers_h(tables: Tables, farkle_home: Path) -> None:
    lines, _ = greedy_script(tables, hard_setup())
    answers = ["", "9", "r", "1 1", "h", lines[0], "maybe", "h", "u", lines[0], *lines[1:]]
    code, out = run([*HARD_1000, "--seed", "3"], answers)
    assert code == 0, out
    assert "Set aside: \n  (pick at least one die" in out
    assert "Set aside: 9\n  (9 is not a die face: faces are 1 to 6)" in out
    assert "Set aside: r\n  (set dice aside first" in out
    assert "Set aside: 1 1\n  (the roll 6 3 3 1 6 3 has only one 1, not two)" in out
    assert "Coach (chance of winning):" in out
    assert "(b/r) maybe\n  (type b to bank or r to roll on, u to take back the set-aside" in out
    assert "  with 1 3 3 3 set aside: bank " in out
    assert "Game over: You win." in out
    with Store.open(farkle_home) as store:
        (game,) = store.games()
        assert not game.rated and game.outcome == "over"
        assert load_progress(store).answers == 2


def test_the_coach_is_off_in_a_rated_game_and_h_leaves_it_rated(tables: Tables, farkle_home: Path) -> None:
    lines, _ = greedy_script(tables, hard_setup(target=2000))
    # h on the last decision of a game, lost or not, cannot turn it into training.
    code, out = run(HARD_2000, ["h", *lines[:-1], "h", lines[-1]])
    assert code == 0, out
    header = out.splitlines()[:3]
    assert header[1].startswith("Rated game: it counts in stats (no coach and no hints")
    assert "farkle-train play --coach" in header[1] and "h asks the coach" not in header[2]
    refusal = (
        "\n  (the coach is off in a rated game: finish this one or resign it, and then farkle-train play "
        "--coach starts a coached game)"
    )
    assert out.count(refusal) == 2 and "Coach (" not in out
    assert "Game over: You win." in out
    with Store.open(farkle_home) as store:
        (game,) = store.games()
        assert game.rated and game.outcome == "win" and (game.state or {})["hints"] == 0
        assert load_progress(store).answers == 0
    code, out = run(["stats", "--json"], [])
    assert json.loads(out)["rated_games"]["levels"][0]["wins"] == 1


def test_asking_for_the_coach_with_a_rated_game_unfinished_says_how_to_get_one(farkle_home: Path) -> None:
    code, out = run(HARD_2000, ["q"])
    assert code == 0, out
    # Enter carries the rated game on: its h must not send the player back to the same command.
    code, out = run(["play", "--coach", "--plain"], ["", "h", "q"])
    assert code == 0, out
    lines = out.splitlines()
    asked = lines.index("Carry on with it? (n: it counts as resigned) (Y/n) ")
    assert lines[asked - 1] == (
        "It is rated, so it has no coach: for the coached game you asked for, answer n (the rated game "
        "then counts as resigned)."
    )
    assert lines[asked + 1 : asked + 3] == [
        "Carrying on with the saved game, in its own settings.",
        "Note: the saved game keeps its own players and settings, so --coach is not used.",
    ]
    assert "finish this one or resign it, and then farkle-train play --coach starts a coached game" in out
    # The way the line gives: n, and the coached game starts.
    code, out = run(["play", "--coach", "--vs", "hard", "--target", "2000", "--plain"], ["n", "h", "q"])
    assert code == 0, out
    assert "The unfinished rated game 1 counts as resigned." in out and "Coach (" in out
    with Store.open(farkle_home) as store:
        coached, rated_game = store.games()
        assert rated_game.rated and rated_game.outcome == "resigned"
        assert not coached.rated and coached.finished_at is None


def test_q_saves_and_resume_carries_on_the_same_roll(tables: Tables, farkle_home: Path) -> None:
    lines, _ = greedy_script(tables, hard_setup())
    code, out = run(HARD_1000, [lines[0], "q"])
    assert code == 0
    assert out.rstrip().endswith("Carry on with: farkle-train play --resume")
    code, out = run(["play", "--resume", "--plain"], lines[1:])
    assert code == 0, out
    assert "Carrying on where the game stopped: turn 1, You 0, Hard 0." in out
    assert "You roll 6 dice: a:6 b:3 c:3 d:1 e:6 f:3\nSet aside 1 3 3 3 for 400" in out
    assert "Game over: You win. Scores: You 1,450, Hard 650." in out


def test_resume_says_the_options_for_a_new_game_are_not_used(tables: Tables) -> None:
    lines, _ = greedy_script(tables, hard_setup())
    run(HARD_1000, [lines[0], "q"])
    args = ["play", "--resume", "--plain", "--vs", "easy", "--target", "2000", "--rules", "fixed", "--fast"]
    code, out = run(args, lines[1:])
    assert code == 0, out
    assert out.splitlines()[0] == (
        "Note: the saved game keeps its own players and settings, so --vs, --target and --rules are not used."
    )
    assert "Game over: You win. Scores: You 1,450, Hard 650." in out
    code, out = run(["play", "--resume", "--plain", "--vs", "easy"], [])
    assert code == 2 and out.startswith("Error: there is no unfinished game"), out


def test_a_new_game_offers_the_unfinished_one_and_counts_a_rated_one_resigned(
    tables: Tables, farkle_home: Path
) -> None:
    lines, _ = greedy_script(tables, hard_setup(target=2000))
    run(HARD_2000, [lines[0], "q"])
    code, out = run(HARD_2000, ["perhaps", "n", "q"])
    assert code == 0, out
    assert "Starting a new game instead counts it as resigned (a loss)." in out
    assert "Carry on with it? (n: it counts as resigned) (Y/n) perhaps\n  (type y for yes or n for no)" in out
    assert "The unfinished rated game 1 counts as resigned." in out
    with Store.open(farkle_home) as store:
        old, new = store.get_game(1), store.get_game(2)
        assert old.finished and old.outcome == "resigned" and old.rated
        assert not new.finished


def interrupted(*args: object) -> None:
    """A solve stopped by Ctrl-C."""
    raise KeyboardInterrupt


def test_ctrl_c_while_the_game_is_solved_saves_nothing(
    farkle_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The first game to a target solves its table first, behind a bar: no die has been seen.
    monkeypatch.setattr(solving, "solve_all", interrupted)
    code, out = run(HARD_1000, [])
    assert code == 130
    assert "Nothing was started." in out
    with Store.open(farkle_home) as store:
        assert store.games() == []


def test_ctrl_c_while_the_game_is_solved_keeps_the_unfinished_game(
    farkle_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run(HARD_1000, ["q"])
    monkeypatch.setattr(solving, "solve_all", interrupted)
    code, out = run(HARD_1000, ["n"])
    assert code == 130
    assert "Nothing was started; the unfinished game is kept." in out
    assert "counts as resigned." not in out
    with Store.open(farkle_home) as store:
        (game,) = store.games()
        assert not game.finished


def test_resign_after_confirmation(farkle_home: Path) -> None:
    code, out = run(HARD_2000, ["resign", "n", "resign", "y"])
    assert code == 0, out
    assert "Resign this game? It counts as a loss. (y/N) n" in out
    assert "You resigned: Hard wins. Scores: You 0, Hard 0." in out
    with Store.open(farkle_home) as store:
        assert store.get_game(1).outcome == "resigned"


PASS_AND_PLAY = ["play", "--seed", "1", "--target", "1000", "--plain", "--players"]


def test_in_pass_and_play_the_other_player_wins_when_one_resigns(farkle_home: Path) -> None:
    import json

    code, out = run([*PASS_AND_PLAY, "Ana,Ben"], ["1", "b", "resign", "y", "n"])
    assert code == 0, out
    assert "Resign this game? Then Ana wins. (y/N) y" in out
    assert "Ben resigned: Ana wins. Scores: Ana 100, Ben 0." in out
    review = json.loads(runner.invoke(app, ["review", "1", "--json"]).stdout)
    assert review["resigned"] == "Ben" and review["winners"] == ["Ana"]
    (game,) = json.loads(runner.invoke(app, ["games", "--json"]).stdout)["games"]
    assert game["winners"] == ["Ana"] and game["result"] == "Ben resigned, Ana wins"


def test_with_three_players_a_resignation_ends_the_game_and_the_leader_of_the_others_wins() -> None:
    code, out = run([*PASS_AND_PLAY, "Ana,Ben,Cy"], ["1", "b", "resign", "y", "n"])
    assert code == 0, out
    assert "Resign this game? It ends here for everyone, and Ana wins. (y/N) y" in out
    assert "Ben resigned: Ana wins. Scores: Ana 100, Ben 0, Cy 0." in out


def test_equal_leaders_share_the_win_when_one_resigns() -> None:
    code, out = run([*PASS_AND_PLAY, "Ana,Ben,Cy"], ["resign", "y", "n"])
    assert code == 0, out
    assert "Ana resigned: Ben and Cy share the win. Scores: Ana 0, Ben 0, Cy 0." in out


def test_a_training_game_resigned_is_not_called_a_loss() -> None:
    code, out = run([*HARD_1000, "--seed", "3"], ["resign", "y", "n"])
    assert code == 0, out
    assert "Resign this game? Then Hard wins. (y/N) y" in out and "loss" not in out
    assert "You resigned: Hard wins. Scores: You 0, Hard 0." in out
    code, out = run(["play", "--solo", "--seed", "3", "--plain"], ["resign", "y", "n"])
    assert code == 0, out
    assert "Resign this game? (y/N) y" in out
    assert "Game given up after 0 turns, on 0." in out and "Game over" not in out


def test_a_resigned_game_of_one_turn_is_reviewed_in_the_singular() -> None:
    run([*PASS_AND_PLAY, "Ana,Ben"], ["1", "b", "resign", "y", "n"])
    code, out = run(["review", "1", "--plain"], [])
    assert code == 0, out
    assert out.splitlines()[0].endswith(": Ana and Ben (classic table); 1 turn played.")


def test_u_with_nothing_set_aside_says_there_is_nothing_to_change() -> None:
    code, out = run(HARD_1000, ["u", "q"])
    assert code == 0, out
    assert "Set aside: u\n  (nothing is set aside yet, so there is nothing to change: " in out
    assert "is not a place" not in out


@pytest.mark.parametrize("bank_at", [0, 1000])
def test_more_costly_decisions_than_shown_are_counted_and_told_apart(tables: Tables, bank_at: int) -> None:
    import re

    setup = new_setup((Player("You"),), form=Form.TEN_TURNS, dice=Seeded("5", chosen=True))
    lines, state = greedy_script(tables, setup, bank_at=bank_at)
    code, out = run(["play", "--solo", "--seed", "5", "--plain"], [*lines, "n"])
    assert code == 0, out
    counted = re.search(r"\n  and (\d+) more:\n((?:    .*\n)+)", out)
    assert counted is not None, out
    rest = counted[2].splitlines()
    assert len(rest) == int(counted[1]) and "mores" not in out
    # Each names its decision by turn, player, roll and points at stake: a turn alone would not.
    decisions = {
        f"    Turn {move.turn}, You rolled {' '.join(map(str, move.roll))} with {move.points:,} at stake"
        for move in state.log
        if move.decision
    }
    where = [line.split(": gives up ")[0] for line in rest]
    assert set(where) <= decisions and len(set(where)) == len(where)
    assert all(re.fullmatch(r".*: gives up [\d,]+\.\d\d points", line) for line in rest)
    turns = [w.split(",")[0] for w in where]
    assert bank_at == 0 or len(set(turns)) < len(turns)  # one turn's decisions, told apart by roll


def test_resume_without_a_game_is_an_error() -> None:
    code, out = run(["play", "--resume", "--plain"], [])
    assert code == 2 and "there is no unfinished game" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--vs", "expert"], "--vs takes easy, medium or hard"),
        (["--vs", "easy,easy,hard,medium"], "up to three computers"),
        (["--solo", "--vs", "hard"], "--solo is a game for one"),
        (["--players", "Ana,Ben,Cy", "--vs", "easy,hard"], "at most 4 players"),
        (["--players", "Ana"], "a game needs two players"),
        (["--players", "Ana,ana"], "two players cannot share a name"),
        (["--players", "Ana\x1b[41m,Ben"], "a player's name cannot contain control characters"),
        (["--players", "An\ta,Ben"], "a player's name cannot contain control characters"),
        (["--players", "An\ra,Ben"], "a player's name cannot contain control characters"),
        (["--players", f"{'A' * 500},Ben"], "a player's name has at most 20 characters, not 500"),
        (["--target", "70"], "--target must be a multiple of 50"),
        (["--target", "500"], "--target must be a multiple of 50 from 1,000"),
        (["--penalty", "300"], "the three-Farkle penalty is 0, 500 or 1,000"),
    ],
)
def test_setups_that_cannot_be_played(args: list[str], message: str) -> None:
    code, out = run(["play", "--plain", *args], [])
    assert code == 2 and message in out, out
    assert out.startswith("Error: ") and len(out.splitlines()) == 1 and "\x1b" not in out, out


@pytest.mark.parametrize(
    ("seed", "shown"),
    [("-1", "-1"), ("99999999999999999999999999999", "99,999,999,999,999,999,999,999,999,999")],
)
def test_a_seed_out_of_range_is_refused_as_score_refuses_it(seed: str, shown: str) -> None:
    code, out = run(["play", "--plain", "--seed", seed], [])
    _, score = run(["score", "--plain", "--seed", seed], [])
    assert code == 2
    first = out.splitlines()[0]
    assert (
        first
        == f"Error: Invalid value for '--seed': must be from 0 to 9,223,372,036,854,775,807, not {shown}."
    )
    assert first == score.splitlines()[0]


def test_solo_ten_turns_is_training_and_records_its_decisions(tables: Tables, farkle_home: Path) -> None:
    setup = new_setup((Player("You"),), form=Form.TEN_TURNS, dice=Seeded("5"))
    lines, final = greedy_script(tables, setup)
    code, out = run(["play", "--solo", "--seed", "5", "--plain"], lines)
    assert code == 0, out
    assert "Farkle solo: 10 turns for the highest score (classic table)." in out
    assert "Training game (solo practice): recorded as progress, never in stats." in out
    assert f"Game over: {final.scores[0]:,} in 10 turns." in out
    with Store.open(farkle_home) as store:
        assert load_progress(store).answers == len(final.decisions)


def test_pass_and_play_with_a_computer(tables: Tables) -> None:
    setup = new_setup(
        (Player("Ana"), Player("Ben"), Player("Easy", Level.EASY)), target=1000, dice=Seeded("8")
    )
    lines, final = greedy_script(tables, setup)
    code, out = run(
        ["play", "--players", "Ana,Ben", "--vs", "easy", "--target", "1000", "--seed", "8", "--plain"], lines
    )
    assert code == 0, out
    assert "Farkle to 1,000: Ana, Ben and Easy (computer) (classic table)." in out
    assert "Training game (pass and play)" in out
    assert "Turn 2, Ben to roll." in out
    assert "Game over: " in out and "Luck of the dice" in out
    assert final.over


def test_the_coach_warns_after_a_costly_play() -> None:
    # Banking 100 with five dice to roll gives up far more than a mistake's worth of points.
    code, out = run(["play", "--solo", "--seed", "3", "--coach", "--plain"], ["1", "b", "q"])
    assert code == 0, out
    assert "The coach warns after a play that is a mistake or worse." in out
    assert "You roll 6 dice: a:6 b:3 c:3 d:1 e:6 f:3" in out
    assert (
        "Coach: that play gives up " in out
        and "(blunder); best was keep 1 and roll 5 dice (403.65 against 100.00)" in out
    )


# -- a killed process


def read_until(proc: subprocess.Popen[bytes], marker: bytes, timeout: float = 60.0) -> bytes:
    assert proc.stdout is not None
    seen = b""
    end = time.monotonic() + timeout
    while marker not in seen:
        assert time.monotonic() < end, seen.decode()
        ready, _, _ = select.select([proc.stdout], [], [], 0.5)
        if ready:
            chunk = os.read(proc.stdout.fileno(), 4096)
            assert chunk, seen.decode()
            seen += chunk
    return seen


def test_a_killed_game_resumes_on_the_same_roll(tables: Tables, farkle_home: Path) -> None:
    lines, _ = greedy_script(tables, hard_setup())
    env = {**os.environ, "FARKLE_TRAIN_HOME": str(farkle_home)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "farkle_trainer", *HARD_1000, "--seed", "3"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
    )
    assert proc.stdin is not None
    read_until(proc, b"Set aside:")
    proc.stdin.write(f"{lines[0]}\n".encode())
    proc.stdin.flush()
    read_until(proc, b"(b/r)")
    proc.kill()
    proc.wait()
    code, out = run(["play", "--resume", "--plain"], lines[1:])
    assert code == 0, out
    assert "You roll 6 dice: a:6 b:3 c:3 d:1 e:6 f:3\nSet aside 1 3 3 3 for 400" in out
    assert "Game over: You win. Scores: You 1,450, Hard 650." in out


# -- on a terminal


@pytest.fixture
def screen(pipe: PipeInput, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[PipeInput, io.StringIO]]:
    front, out = interactive_frontend(pipe)
    monkeypatch.setattr(play_cli, "open_terminal", lambda plain: front)
    monkeypatch.setattr(play_cli, "PAUSE_SECONDS", 0.0)
    yield pipe, out


def test_a_whole_game_on_a_terminal(tables: Tables, screen: tuple[PipeInput, io.StringIO]) -> None:
    inp, out = screen
    lines, _ = greedy_script(tables, hard_setup())
    inp.send_text("".join(line + "\r" for line in ["h", *lines, "n"]))
    result = runner.invoke(app, ["play", "--vs", "hard", "--seed", "3", "--target", "1000"])
    assert result.exit_code == 0, result.output
    shown = out.getvalue()
    assert "You roll 6 dice: a:6 b:3 c:3 d:1 e:6 f:3" in shown
    assert "Coach (chance of winning):" in shown
    assert "Game over: You win. Scores: You 1,450, Hard 650." in shown
    assert "Your chance of winning through the game, at the start of each turn whoever rolls it:" in shown
    # A chart with axes: the chance from 0% to 100%, an even chance marked, the turns along the bottom.
    chart = shown[
        shown.index("Your chance of winning through the game, at the start of each turn whoever rolls it:") :
    ].splitlines()[1:]
    assert any(line.startswith("100%┤") for line in chart) and any(line.startswith(" 50%┤") for line in chart)
    assert "  ┈┈ an even chance, 50%" in chart and "  ● your chance of winning" in chart
    assert any("1" in line and "end" in line and "└" not in line for line in chart)


def test_ctrl_d_on_a_terminal_saves_the_game(
    screen: tuple[PipeInput, io.StringIO], farkle_home: Path
) -> None:
    inp, out = screen
    inp.send_text("1 3 3 3\r\x04")
    result = runner.invoke(app, ["play", "--vs", "hard", "--seed", "3", "--target", "1000", "--fast"])
    assert result.exit_code == 0, result.output
    assert "Carry on with: farkle-train play --resume" in out.getvalue()
    with Store.open(farkle_home) as store:
        game = store.unfinished_game()
        assert game is not None and m.MatchState.from_dict(game.state or {}).kept == (1, 3, 3, 3)


def test_rated_games_go_to_stats_and_training_games_never(tables: Tables, farkle_home: Path) -> None:
    import json

    lines, _ = greedy_script(tables, hard_setup(target=2000))
    run(HARD_2000, lines)  # a rated win
    run(HARD_2000, ["resign", "y"])  # a rated loss
    run(["play", "--solo", "--seed", "3", "--plain"], ["resign", "y"])  # training
    result = runner.invoke(app, ["stats", "--plain"])
    assert result.exit_code == 0, result.output
    assert (
        "Rated games against the computer (apart from the daily game): 2; wins in a row 0 (longest 1)."
        in result.output
    )
    assert (
        "  against hard, classic to 2,000: 2 games, 1 won, 1 lost (1 resigned); average score 1,075, "
        "best 2,150" in result.output
    )
    data = json.loads(runner.invoke(app, ["stats", "--json"]).stdout)
    assert data["rated_games"]["levels"] == [
        {
            "level": "hard",
            "rules": "classic",
            "opening": 0,
            "penalty": 0,
            "target": 2000,
            "played": 2,
            "wins": 1,
            "shared": 0,
            "losses": 1,
            "resigned": 1,
            "average_score": 1075.0,
            "best": 2150,
        }
    ]


@pytest.mark.parametrize("width", [100, 60])
def test_rated_games_in_stats_fit_a_terminal(
    tables: Tables, monkeypatch: pytest.MonkeyPatch, width: int
) -> None:
    import farkle_trainer.cli.records as records_cli

    lines, _ = greedy_script(tables, hard_setup(target=2000))
    run(HARD_2000, lines)  # a rated win
    run(HARD_2000, ["resign", "y"])  # a rated loss
    out = io.StringIO()
    front = InteractiveFrontend(Console(file=out, width=width, color_system=None))
    monkeypatch.setattr(records_cli, "open_terminal", lambda plain: front)
    result = runner.invoke(app, ["stats"])
    assert result.exit_code == 0, result.output
    shown = out.getvalue().splitlines()
    assert max(len(line) for line in shown) <= width
    rated = shown[shown.index("") + 1 :]
    # The play against perfect play follows, apart.
    assert rated[rated.index("") + 1].startswith("Your play against perfect play in official games")
    rated = rated[: rated.index("")]
    if width == 100:
        assert rated[:2] == [
            "Rated games against the computer (apart from the daily game)",
            "2 games; wins in a row 0 (longest 1).",
        ]
        assert "┃ level ┃ rules            ┃ games ┃ won ┃ lost ┃ resigned ┃ average ┃  best ┃" in rated
        assert "│ hard  │ classic to 2,000 │     2 │   1 │    1 │        1 │   1,075 │ 2,150 │" in rated
    else:
        # Too narrow for the table: the plain lines, each wrapped under its own start.
        assert rated[0].startswith("Rated games against the computer")
        assert all(line.startswith(("Rated", "  ")) for line in rated), rated
        assert "average score 1,075," in " ".join(line.strip() for line in rated)


def test_a_game_moved_on_in_another_terminal_is_never_saved_over(
    tables: Tables, farkle_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from farkle_trainer.ui import terminal

    class Elsewhere(terminal.PlainFrontend):
        """Before the first answer, another terminal saves the same game."""

        moved = False

        def _read(self, prompt: str) -> str:
            if not self.moved:
                self.moved = True
                with Store.open(farkle_home) as other:
                    (row,) = other.games()
                    other.save_game(row.id, row.state or {}, version=row.version, rated=row.rated)
            return super()._read(prompt)

    lines, _ = greedy_script(tables, hard_setup())
    out = io.StringIO()
    front = Elsewhere(io.StringIO("".join(f"{line}\n" for line in lines)), out, echo=True)
    monkeypatch.setattr(play_cli, "open_terminal", lambda plain: front)
    result = runner.invoke(app, HARD_1000)
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        "Error: game 1 was continued in another terminal; run farkle-train play --resume to see it"
    )
    with Store.open(farkle_home) as store:
        (row,) = store.games()
        assert not row.finished and row.version == 2


# -- what perfect play expects of a solo game


def test_ten_solo_turns_end_with_what_perfect_play_expects(tables: Tables) -> None:
    setup = new_setup((Player("You"),), form=Form.TEN_TURNS, dice=Seeded("5", chosen=True))
    lines, final = greedy_script(tables, setup, bank_at=300)
    code, out = run(["play", "--solo", "--seed", "5", "--plain"], [*lines, "n"])
    assert code == 0, out
    turn = tables.turn(PRESETS["classic"], Objective.expected()).expected_turn_score
    # Ten turns of 593.58 (the classic turn the seeds give): 5,935.77, to the cent.
    assert round(10 * turn, 2) == 5935.77
    gap = final.scores[0] - 10 * turn
    assert final.over and gap > 0
    lines_out = out.splitlines()
    assert lines_out[lines_out.index(f"Game over: {final.scores[0]:,} in 10 turns.") + 1] == (
        "Perfect play is expected to score 5,935.77 over 10 turns (10 x 593.58, the exact expected score "
        f"of a turn); your {final.scores[0]:,} is {gap:,.2f} above it."
    )
    # The review says it again.
    code, again = run(["review", "1", "--plain"], [])
    assert code == 0 and "Perfect play is expected to score 5,935.77 over 10 turns" in again
    code, data = run(["review", "1", "--json"], [])
    assert code == 0 and json.loads(data)["analysis"]["perfect_expected"] == 10 * turn


def test_solo_to_a_target_ends_with_the_turns_perfect_play_expects(tables: Tables) -> None:
    from tests.test_gamesolver import solo_turns_by_iteration

    setup = new_setup((Player("You"),), form=Form.FEWEST_TURNS, target=1000, dice=Seeded("5", chosen=True))
    lines, final = greedy_script(tables, setup, bank_at=300)
    code, out = run(["play", "--solo", "--target", "1000", "--seed", "5", "--plain"], [*lines, "n"])
    assert code == 0, out
    expected = tables.solo(PRESETS["classic"], 1000).expected_turns(0)
    # The solver's figure is the one a value iteration written apart from it reaches.
    assert expected == pytest.approx(solo_turns_by_iteration(20)[0], abs=1e-9)
    took = final.turns[0]
    gap = took - expected
    assert f"Perfect play is expected to reach 1,000 in {expected:.2f} turns (the exact expectation " in out
    assert f"from 0); you took {took}, {abs(gap):.2f} {'more' if gap > 0 else 'fewer'}.\n" in out


def test_ten_solo_turns_under_house_rules_say_what_each_turn_was_worth_from_its_start(tables: Tables) -> None:
    rules = PRESETS["classic"]
    setup = new_setup((Player("You"),), form=Form.TEN_TURNS, opening=500, dice=Seeded("5", chosen=True))
    lines, final = greedy_script(tables, setup, bank_at=500)
    code, out = run(["play", "--solo", "--opening", "500", "--seed", "5", "--plain"], [*lines, "n"])
    assert code == 0, out
    # Each turn from six dice and nothing at stake: under the opening minimum until a bank opens.
    starts, opened = 0.0, False
    for turn in range(1, 11):
        objective = Objective.expected() if opened else Objective.expected(opening=500)
        starts += tables.turn(rules, objective).roll_value(0, 6)
        opened = opened or any(mv.turn == turn and mv.action == "bank" for mv in final.log)
    assert opened
    assert (
        f"Played perfectly from where each of them started, your 10 turns were expected to score "
        f"{starts:,.2f} (under an opening minimum a turn is worth what its start allows)." in out
    )
    assert "Perfect play is expected to score" not in out
