"""The daily game's history: every play listed with the other games and reviewed again, a practice
play started over, a badly played game's account, and no option offered that does nothing."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner

import farkle_trainer.cli.daily as daily_cli
from farkle_trainer.cli import app
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.db import Store
from farkle_trainer.training.games.setup import for_day
from farkle_trainer.training.games.tenturns import Account
from farkle_trainer.ui.views import daily as view
from tests.plays import greedy_script
from tests.test_daily_cli import NOON, SCORE_LINE, SCRIPT, SHARE, feed

runner = CliRunner()
PAST = "2026-11-01"


@pytest.fixture(autouse=True)
def noon(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(daily_cli, "clock", lambda: NOON)


def run(*args: str, input: str = "") -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


# -- listed and reviewed again


def test_games_lists_the_daily_games_and_review_opens_them(farkle_home: Path) -> None:
    code, played, err = run("daily", "--plain", input=feed(SCRIPT))
    assert code == 0, err
    run("daily", "--replay", "--plain", input="1 1\nq\n")
    code, out, _ = run("games", "--plain")
    assert code == 0
    assert out.splitlines() == [
        "Saved games, newest first (2); farkle-train review ID shows one again:",
        "Daily d2, 2026-11-29 12:00 UTC: practice of 2026-11-29; unfinished (turn 1 of 10).",
        "Daily d1, 2026-11-29 12:00 UTC: official game of 2026-11-29; 4,550 in 10 turns.",
    ]
    code, review, err = run("review", "d1", "--plain")
    assert code == 0, err
    lines = review.splitlines()
    assert lines[0] == (
        "Daily d1, the official game of 2026-11-29, started 2026-11-29 12:00 UTC "
        "(every move checked on the day's dice)."
    )
    # The end of the game, as it was shown then, and its share line.
    end = played.splitlines()
    assert lines[1:-2] == end[end.index(SCORE_LINE) : end.index(SHARE) - 2]
    assert lines[-2:] == [
        SHARE,
        "6 of your decisions, inaccuracies or worse, are personal positions: farkle-train decide --mistakes "
        "drills them when they are due (6 due now); farkle-train progress shows what is due.",
    ]
    assert run("review", "2026-11-29", "--plain")[1] == review
    code, _, err = run("review", "d2", "--plain")
    assert code == 2 and "daily game d2 is not over: carry on with it with farkle-train daily --replay" in err
    data = json.loads(run("games", "--json")[1])
    assert [(d["id"], d["official"], d["score"], d["over"]) for d in data["daily"]] == [
        ("d2", False, 0, False),
        ("d1", True, 4550, True),
    ]
    review_data = json.loads(run("review", "d1", "--json")[1])
    assert review_data["daily"] == {"id": "d1", "date": "2026-11-29", "official": True}
    assert review_data["scores"] == {"You": 4550} and review_data["analysis"]["unit"] == "points"
    # A past day's game is carried on by its date.
    run("daily", "--date", "2026-11-01", "--plain", input="q\n")
    code, _, err = run("review", "d3", "--plain")
    assert (
        code == 2
        and "daily game d3 is not over: carry on with it with farkle-train daily --date 2026-11-01" in err
    )


def test_a_daily_game_is_reviewed_move_by_move(farkle_home: Path) -> None:
    run("daily", "--plain", input=feed(SCRIPT))
    code, out, err = run("review", "d1", "--moves", "--plain")
    assert code == 0, err
    heads = [line for line in out.splitlines() if line.startswith("Move ")]
    assert heads[0] == "Move 1 of 20, turn 1 (0 banked): You roll 4 1 4 3 1 4."
    assert len(heads) == 20  # 17 decisions and 3 Farkles


def test_no_daily_game_of_a_day_is_said_so(farkle_home: Path) -> None:
    code, _, err = run("review", "2026-11-28", "--plain")
    assert code == 2 and err.startswith("Error: there is no daily game of 2026-11-28 here")
    code, _, err = run("review", "d9", "--plain")
    assert code == 2 and err.startswith("Error: there is no daily game d9")


# -- a practice play started over


def test_restart_during_practice_plays_the_day_again_from_turn_1(farkle_home: Path) -> None:
    code, out, err = run("daily", "--date", PAST, "--plain", input="5 5 5 5\nb\nrestart\n\nrestart\ny\nq\n")
    assert code == 0, err
    assert (
        "Set aside: restart\n"
        "Play the day's game again from turn 1? This play is closed where it stands. (y/N) \n" in out
    )
    assert "This play is closed at turn 2 of 10, 1,000 banked. The day's game starts again:" in out
    after = out[out.index("The day's game starts again:") :]
    assert "Turn 1 of 10, 0 banked. Roll: a:5 b:3 c:3 d:5 e:5 f:5" in after
    with Store.open(farkle_home) as store:
        first, second = sorted(store.daily_attempts(), key=lambda a: a.id)
        assert first.finished and first.score == 1000 and not first.official
        assert not second.finished and not second.official
    games = run("games", "--plain")[1]
    assert (
        "Daily d1, 2026-11-29 12:00 UTC: practice of 2026-11-01; 1,000, closed to play again at turn 2."
        in games
    )


def test_daily_replay_restart_closes_the_practice_play(farkle_home: Path) -> None:
    run("daily", "--plain", input=feed(SCRIPT))
    run("daily", "--replay", "--plain", input="1 1\nr\nq\n")
    code, out, err = run("daily", "--replay", "--restart", "--plain", input="q\n")
    assert code == 0, err
    assert out.startswith("This play is closed at turn ")
    assert "Turn 1 of 10, 0 banked. Roll: a:4 b:1 c:4 d:3 e:1 f:4" in out
    with Store.open(farkle_home) as store:
        practice = [a for a in store.daily_attempts() if not a.official]
        assert [a.finished for a in sorted(practice, key=lambda a: a.id)] == [True, False]


def test_the_official_game_does_not_start_again(farkle_home: Path) -> None:
    code, out, _ = run("daily", "--plain", input="restart\nq\n")
    assert code == 0
    assert "Set aside: restart\n  (the official game is played once and cannot start again)" in out
    code, _, err = run("daily", "--date", "2026-11-29", "--restart", "--plain", input="q\n")
    assert code == 2 and "the official game is played once" in err
    code, _, err = run("daily", "--restart", "--plain")
    assert code == 2 and "give it with --replay or --date" in err


# -- a badly played game


def test_the_account_of_a_badly_played_game_says_how_far_below_perfect_play_it_is() -> None:
    lines = view.account_lines(Account(score=0, given_up=11_306.38, perfect_expected=5_935.77))
    assert lines[1] == (
        "You scored 0, 5,935.77 below that: your decisions gave up 11,306.38 expected points, and the "
        "luck of the dice was +5,370.61 (0 on average)."
    )


def test_never_banking_reads_as_a_score_below_perfect_play(tables: Tables, farkle_home: Path) -> None:
    lines, final = greedy_script(tables, for_day(date.fromisoformat(PAST)), bank_at=10**6)
    assert final.banked == 0
    code, out, err = run("daily", "--date", PAST, "--plain", input=feed(lines))
    assert code == 0, err
    assert "You scored 0, 5,935.77 below that: your decisions gave up " in out
    assert not re.search(r"expected to score -", out)


# -- options that do nothing


@pytest.mark.parametrize("command", [["daily"], ["challenge"], ["stats"]])
def test_rules_are_not_offered_where_they_change_nothing(command: list[str]) -> None:
    code, out, _ = run(*command, "--help")
    assert code == 0 and "--rules" not in out and "Not used" not in out
