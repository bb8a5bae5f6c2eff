"""The three-Farkle penalty from the command line: hint, strategy --game, decide, learn and play."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from farkle_trainer import win_chance
from farkle_trainer.cli import app
from farkle_trainer.engine.decisions import Position, decision_for
from farkle_trainer.engine.farkles import Runs
from farkle_trainer.engine.rules import PRESETS
from farkle_trainer.engine.solver import Objective
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.db import Store
from farkle_trainer.training.drills.drills import Plan
from farkle_trainer.training.drills.session import drill_stream

PENALTY = PRESETS["classic"].with_house_rules(three_farkle_penalty=1000)
runner = CliRunner()


def best_answers(tables: Tables, drills: list[Position]) -> str:
    """What a player types for the best play of each drill: the dice when asked, then b or r."""
    lines = []
    for p in drills:
        d = decision_for(tables, p)
        best = d.best
        if len(d.keeps) > 1:
            lines.append(" ".join(map(str, best.keep)))
        if any(c.action == "bank" for c in d.choices_for(best.keep)):
            lines.append(best.action[0])
    return "".join(f"{line}\n" for line in lines)


def run(*args: str, stdin: str = "") -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_the_hint_ranks_plays_by_the_runs_of_farkles(tables: Tables) -> None:
    args = ["hint", "1", "5", "2", "2", "3", "6", "--points", "600", "--score", "1200", "--opponent", "1500"]
    args += ["--target", "2000", "--penalty", "1000", "--json"]
    code, out, err = run(*args, "--farkles", "2", "--opponent-farkles", "1")
    assert code == 0, err
    data = json.loads(out)
    assert (data["penalty"], data["farkles"], data["opponent_farkles"]) == (1000, 2, 1)
    table = tables.game(PENALTY, 2000)
    runs = Runs(2, 1)
    for option in data["options"]:
        t = option["points_after"]
        to_roll = option["dice_left"] or 6
        assert option["win_chance"]["bank"] == pytest.approx(table.bank_value(1200, 1500, t, runs), abs=1e-12)
        assert option["win_chance"]["roll"] == pytest.approx(
            table.roll_value(1200, 1500, t, to_roll, runs), abs=1e-12
        )
    # After two Farkles in a row banking the 750 wins most; with none, rolling on does.
    assert (data["options"][0]["keep"], data["best_action"]) == ([1, 5], "bank")
    code, out, _ = run(*args)
    assert json.loads(out)["best_action"] == "roll"


def test_a_last_turns_hint_shows_the_run_and_that_a_farkle_now_just_ends_the_game(tables: Tables) -> None:
    args = ["hint", "4", "3", "3", "6", "3", "4", "--score", "700", "--opponent", "3650", "--target", "2000"]
    args += ["--penalty", "1000", "--last-turn"]
    code, out, err = run(*args, "--farkles", "2", "--opponent-farkles", "2", "--plain")
    assert code == 0, err
    assert out.splitlines()[1:3] == [
        "Your final turn: the opponent reached 3,650, you have 700 (2 Farkles in a row); values are "
        "chances of passing them (a tie counts one half).",
        "Three Farkles in a row cost 1,000, but not in a last turn: a Farkle now just ends the game.",
    ]
    # The points figures count a Farkle as the game does there: the turn's points lost, no more.
    data = json.loads(run(*args, "--farkles", "2", "--json")[1])
    plain = tables.turn(PENALTY, Objective.expected())
    for option in data["options"]:
        t = option["points_after"]
        assert (option["bank_ev"], option["roll_ev"]) == (t, plain.roll_value(t, option["dice_left"] or 6))
    assert json.loads(run(*args, "--json")[1])["options"] == data["options"]
    assert (data["points_best"], data["points_action"]) == ([3, 3, 3], "roll")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--farkles", "3"], "--farkles is how many turns in a row ended in a Farkle so far: 0, 1 or 2"),
        (["--opponent-farkles", "x"], "--opponent-farkles is how many turns in a row"),
        (["--penalty", "700"], "--penalty is 500 or 1000 points (0 for none), not 700"),
    ],
)
def test_bad_runs_and_penalties_are_one_line(extra: list[str], message: str) -> None:
    args = ["hint", "1", "5", "--score", "0", "--opponent", "0", "--target", "2000", "--penalty", "1000"]
    code, out, err = run(*args, *extra)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and message in err


def test_runs_need_a_game_and_the_penalty() -> None:
    code, _, err = run("hint", "1", "5", "--farkles", "1")
    assert code == 2 and "give --score and --opponent too" in err
    code, _, err = run(
        "hint", "1", "5", "--score", "0", "--opponent", "0", "--target", "2000", "--farkles", "1"
    )
    assert code == 2 and "count only with the three-Farkle penalty" in err
    code, _, err = run("strategy", "--penalty", "1000")
    assert code == 2 and "add --game" in err


OPENED = ["hint", "1", "5", "2", "2", "3", "6", "--target", "1000", "--penalty", "1000", "--opening", "500"]


def test_the_hint_on_0_but_opened_values_the_plays_of_that_state(tables: Tables) -> None:
    code, out, err = run(*OPENED, "--score", "0", "--opponent", "600", "--farkles", "1", "--opened", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert (data["opened"], data["opponent_opened"]) == (True, True)
    table = tables.game(PENALTY.with_house_rules(opening_minimum=500), 1000)
    opened = Runs(my_farkles=1, my_opened=True)
    for option in data["options"]:
        t = option["points_after"]
        # Opened, any total banks: to 0 + t against 600, the opponent's turn (their run is 0).
        bank = 1 - win_chance(600, t, PENALTY, 1000, opening=500)
        assert t < 500 and option["win_chance"]["bank"] == pytest.approx(bank, abs=1e-12)
        assert option["win_chance"]["roll"] == pytest.approx(
            table.roll_value(0, 600, t, option["dice_left"] or 6, opened), abs=1e-12
        )
        assert option["bank_ev"] == t  # the turn solver's opening minimum is off too
    not_opened = json.loads(run(*OPENED, "--score", "0", "--opponent", "600", "--farkles", "1", "--json")[1])
    assert not_opened["opened"] is False
    assert all(o["win_chance"]["bank"] is None and o["bank_ev"] is None for o in not_opened["options"])
    code, out, err = run(
        *OPENED, "--score", "0", "--opponent", "0", "--opened", "--opponent-opened", "--plain"
    )
    assert code == 0, err
    assert out.splitlines()[3:5] == [
        "You have opened already (the penalty knocked you back to 0): the opening minimum of 500 no longer "
        "holds you.",
        "The opponent has opened already (the penalty knocked them back to 0).",
    ]
    data = json.loads(run(*OPENED, "--score", "0", "--opponent", "0", "--opponent-opened", "--json")[1])
    assert data["options"][0]["win_chance"]["best"] == pytest.approx(
        table.roll_value(0, 0, 100, 5, Runs(opponent_opened=True)), abs=1e-12
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["hint", "1", "5", "--opened"], "who has opened describe a game: give --score and --opponent too"),
        (
            ["hint", "1", "5", "--score", "0", "--opponent", "0", "--opening", "500", "--opened"],
            "--opened is for a player knocked back to 0 by the three-Farkle penalty: add --penalty 500",
        ),
        (
            ["hint", "1", "5", "--score", "0", "--opponent", "0", "--penalty", "500", "--opponent-opened"],
            "--opponent-opened matters only under an opening minimum",
        ),
        (
            [*OPENED, "--score", "0", "--opponent", "700", "--opponent-opened"],
            "--opponent-opened is for a player on 0: one with 700 banked has opened already",
        ),
        (
            [*OPENED, "--score", "0", "--opponent", "1200", "--last-turn", "--opponent-opened"],
            "--opponent-opened is for a player on 0: one with 1,200 banked has opened already",
        ),
    ],
)
def test_opened_where_nobody_on_0_can_have_is_one_line(args: list[str], message: str) -> None:
    code, out, err = run(*args, "--target", "1000") if "--target" not in args else run(*args)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and message in err


def test_strategy_shows_how_the_thresholds_move_with_farkles_in_a_row(tables: Tables) -> None:
    code, out, err = run("strategy", "--game", "--target", "2000", "--penalty", "1000", "--json")
    assert code == 0, err
    data = json.loads(out)
    table = tables.game(PENALTY, 2000)
    assert data["penalty"] == 1000 and data["first_player_chance"] == table.first_player_chance
    rows = data["thresholds_by_farkles"]
    assert [r["farkles"] for r in rows] == [0, 1, 2]
    for row in rows:
        runs = Runs(my_farkles=row["farkles"])
        for n in range(1, 7):
            expected = table.roll_while_at_most(row["score"], row["opponent"], n, runs)
            assert row["roll_while_at_most"][str(n)] == expected
    # After two Farkles in a row the last dice are never worth rolling there.
    assert rows[2]["roll_while_at_most"]["1"] is None and rows[0]["roll_while_at_most"]["1"] is not None
    code, out, _ = run("strategy", "--game", "--target", "2000", "--penalty", "1000", "--plain")
    assert "The same at 1,000 v 1,000, by Farkles in a row so far: after two, a third costs 1,000." in out
    assert (
        json.loads(run("strategy", "--game", "--target", "2000", "--json")[1])["thresholds_by_farkles"] == []
    )


def test_game_drills_under_the_penalty_come_with_the_runs(tables: Tables, farkle_home: Path) -> None:
    rules = PENALTY.with_house_rules(target=2000)
    drills = list(Plan(tables, rules, drill_stream(3), 8, ("game",), None))  # type: ignore[arg-type]
    assert any(p.runs.my_farkles or p.runs.opponent_farkles for p in drills)
    args = ["decide", "--kind", "game", "--target", "2000", "--penalty", "1000", "--count", "8"]
    code, out, err = run(*args, "--seed", "3", "--plain", stdin=best_answers(tables, drills))
    assert code == 0, err
    assert out.count("Best: that is the best play.") == 8
    assert out.count("Three Farkles in a row cost 1,000 (never below 0).") == 8
    assert "Farkles in a row)" in out or "Farkle in a row)" in out
    with Store.open(farkle_home) as store:
        rows = [r for r in store.answer_rows() if r.kind == "decide"]
    assert len(rows) == 8 and all(r.points_lost == 0 for r in rows)
    runs = [json.loads(r.extra or "{}")["position"]["runs"] for r in rows]
    assert runs == [None if p.runs == Runs() else vars(p.runs) for p in drills]


def test_learn_7_and_its_drill_under_the_penalty(tables: Tables) -> None:
    code, out, err = run("learn", "7", "--penalty", "1000", "--plain")
    assert code == 0, err
    table = tables.game(PENALTY, 2000)
    assert f"At 0 to 0 the first player wins {100 * table.first_player_chance:.2f}% of games" in out


def test_hard_plays_a_game_under_the_penalty(farkle_home: Path) -> None:
    args = [
        "play",
        "--vs",
        "hard",
        "--penalty",
        "1000",
        "--opening",
        "500",
        "--target",
        "1000",
        "--seed",
        "5",
    ]
    code, out, err = run(*args, "--plain", "--fast", stdin="resign\ny\nn\n")
    assert code == 0, err
    assert "three Farkles in a row cost 1,000" in out
    assert "Hard wins" in out
