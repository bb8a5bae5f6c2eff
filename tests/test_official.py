"""Official results are what their moves replay to: a store edited by hand changes nothing that
counts, rated dice cannot be known in advance, a rated game stays rated, and nothing of a game
is lost between its last action and its record."""

from __future__ import annotations

import io
import json
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

import farkle_trainer.training.record as record_module
from farkle_trainer.cli import app
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.db import Store
from farkle_trainer.store.paths import FILE_NAME
from farkle_trainer.training.games import dice
from farkle_trainer.training.games import dice as game_dice
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games.daily import next_attempt
from farkle_trainer.training.games.dice import Drawn, Seeded, seeded_source
from farkle_trainer.training.games.gamefile import write_game_file
from farkle_trainer.training.games.play import official_game_stats, stored
from farkle_trainer.training.games.setup import Form, Level, Player, Setup, dealt, new_setup
from farkle_trainer.training.progress import load_progress
from farkle_trainer.ui.views import records as view
from tests.factories import fifty_a_roll_days, game_banking  # noqa: F401 - a fixture used by name
from tests.plays import HARD_2000, drawn_seed, greedy_script  # noqa: F401 - drawn_seed is autouse

runner = CliRunner()


def hard_setup(seed: str = "3") -> Setup:
    return new_setup((Player("You"), Player("Hard", Level.HARD)), target=2000, dice=Seeded(seed))


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


@pytest.fixture
def sql(farkle_home: Path) -> Iterator[sqlite3.Connection]:
    """The store as anyone can edit it, outside the program."""
    Store.open(farkle_home).close()
    with closing(sqlite3.connect(farkle_home / FILE_NAME, isolation_level=None)) as db:
        yield db


def rich_text(renderable: object) -> str:
    console = Console(width=100, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text()


#: The scripts below are played as the module loads, before the run's tables are in place: in
#: tables held in memory alone.
SCRIPTED = Tables()
#: A rated game against Hard that the person loses: banking only from 500 up, on seed 3's dice.
LOSING, LOST = greedy_script(SCRIPTED, hard_setup(), bank_at=500)


def test_the_losing_game_is_lost() -> None:
    assert LOST.over and LOST.scores == (700, 2400) and LOST.winners() == (1,)


# -- rated games as the store keeps them


def test_an_edited_score_in_a_saved_rated_game_is_not_played_on(sql: sqlite3.Connection) -> None:
    run(HARD_2000, [LOSING[0], "q"])
    (text,) = sql.execute("SELECT state FROM games").fetchone()
    forged = json.loads(text) | {"scores": [9950, 0]}
    sql.execute("UPDATE games SET state = ?", (json.dumps(forged),))
    code, out = run(["play", "--resume", "--plain"], LOSING[1:])
    assert code == 0, out
    assert "Carrying on where the game stopped: turn 1, You 0, Hard 0." in out
    assert "Game over: Hard wins. Scores: You 700, Hard 2,400." in out
    assert rated(stats()) == (1, 0, 1)


def test_an_edited_outcome_counts_as_what_the_moves_give(sql: sqlite3.Connection) -> None:
    run(HARD_2000, LOSING)
    sql.execute("UPDATE games SET outcome = 'win', score = 5000")
    data = stats()
    assert rated(data) == (1, 0, 1)
    assert data["rated_games"]["levels"][0]["best"] == 700


def test_a_rated_game_given_up_by_an_edit_of_its_state_counts_as_resigned(sql: sqlite3.Connection) -> None:
    # A game that did not end is a resignation, whatever its stored outcome says.
    run(HARD_2000, ["resign", "y"])
    sql.execute("UPDATE games SET outcome = 'win', score = 1450")
    (level,) = stats()["rated_games"]["levels"]
    assert (level["wins"], level["losses"], level["resigned"]) == (0, 1, 1)


def test_a_training_game_marked_rated_is_listed_apart_and_not_counted(
    tables: Tables, sql: sqlite3.Connection
) -> None:
    lines, _ = greedy_script(tables, hard_setup())
    run([*HARD_2000, "--seed", "3"], lines)
    run(HARD_2000, LOSING)
    sql.execute("UPDATE games SET rated = 1, outcome = 'win' WHERE id = 1")
    data = stats()
    assert rated(data) == (1, 0, 1)
    reason = "it is stored as rated, but its moves give a training game"
    assert data["rated_games"]["unverifiable"] == [{"game": 1, "reason": reason}]
    code, out = run(["stats", "--plain"])
    assert code == 0
    left_out = "Not counted: 1 game whose saved moves or dice do not bear out what the store says:"
    assert f"{left_out}\n  game 1: {reason}" in out
    with Store.open() as store:
        games = official_game_stats(tables, store)
    assert left_out in rich_text(view.game_stats_rich(games)) and games.played == 1


def test_a_rated_game_whose_moves_do_not_replay_is_listed_and_not_counted(sql: sqlite3.Connection) -> None:
    run(HARD_2000, LOSING)
    (text,) = sql.execute("SELECT state FROM games").fetchone()
    state = json.loads(text)
    state["log"][0]["keep"] = [1, 1, 1, 1]
    sql.execute("UPDATE games SET state = ?", (json.dumps(state),))
    data = stats()
    assert data["rated_games"]["played"] == 0
    (left_out,) = data["rated_games"]["unverifiable"]
    assert left_out["game"] == 1 and left_out["reason"].startswith("the saved game does not replay: move 1: ")
    _, out = run(["stats", "--plain"])
    assert "Rated games against the computer: none yet" in out and "  game 1: the saved game does not" in out
    _, out = run(["games", "--plain"])
    assert out.splitlines()[1].endswith(", rated: its saved moves do not replay.")


# -- daily results as the store keeps them


@pytest.mark.usefixtures("fifty_a_roll_days")
def test_a_daily_result_without_its_game_is_listed_and_not_counted(
    tables: Tables, sql: sqlite3.Connection
) -> None:
    today = datetime.now(UTC).date()
    with Store.open() as store:
        attempt = next_attempt(store, today, today)
        version = store.save_daily_state(
            attempt.id, game_banking(today, 4550).to_dict(), version=attempt.version
        )
        store.finish_daily(attempt.id, score=4550, perfect_score=None, marks="", turns=[], version=version)
    assert stats()["best"] == {"date": today.isoformat(), "score": 4550}
    sql.execute("UPDATE daily_attempts SET state = NULL, score = 1000950 WHERE official = 1")
    data = stats()
    assert (data["games_played"], data["best"], data["unverifiable"]) == (0, None, [today.isoformat()])
    _, out = run(["stats", "--plain"])
    left_out = (
        f"Not counted: the official game of {today.isoformat()}, "
        "whose saved moves do not give the score stored."
    )
    assert out.splitlines()[:2] == [
        "No official daily games yet. Play today's with: farkle-train daily",
        left_out,
    ]
    with Store.open() as store:
        from farkle_trainer.training.games.daily import official_stats

        summary = official_stats(tables, store, today)
    assert left_out in rich_text(view.stats_rich(summary)).replace("\n", " ").replace("  ", " ")


def test_an_official_game_never_rolled_and_closed_still_counts_as_its_0(
    tables: Tables, tmp_path: Path
) -> None:
    from farkle_trainer.training.games.daily import close_expired, official_stats

    day = date(2026, 11, 27)
    with Store.open(tmp_path, clock=lambda: datetime(2026, 11, 27, 8, tzinfo=UTC)) as store:
        next_attempt(store, day, day)
        assert close_expired(tables, store, datetime(2026, 11, 30, tzinfo=UTC)) == 1
        summary = official_stats(tables, store, date(2026, 11, 30))
    assert (summary.games_played, summary.unverifiable) == (1, ())
    assert summary.best is not None and summary.best.score == 0


# -- the dice of a rated game

#: The operating system's dice, as the module has them before a test's fixture stands in for them.
OS_DRAWN = dice.drawn_source


def test_a_rated_game_draws_its_dice_and_keeps_no_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    setup = dealt(hard_setup("whatever"))
    assert setup.dice == Drawn() and "whatever" not in json.dumps(setup.to_dict())
    # Only a game that will be rated: any other keeps its reproducible dice.
    training = new_setup((Player("You"),), form=Form.TEN_TURNS, dice=Seeded("5"))
    coached = new_setup((Player("You"), Player("Hard", Level.HARD)), dice=Seeded("5"), coached=True)
    assert dealt(training) == training and dealt(coached) == coached
    # Each die comes from the operating system's randomness as it is rolled.
    drawn = iter([0, 5, 2, 3, 4, 1])
    monkeypatch.setattr(dice.secrets, "randbelow", lambda n: next(drawn))
    rolled = m.roll(m.new_match(setup), OS_DRAWN())
    assert rolled.roll == (1, 6, 3, 4, 5, 2)


def test_a_rated_game_resumes_on_the_rolls_it_kept(
    monkeypatch: pytest.MonkeyPatch, farkle_home: Path
) -> None:
    run(HARD_2000, [LOSING[0], "q"])
    # Whatever the draw gives now, the roll showing is the one kept.
    monkeypatch.setattr(game_dice, "drawn_source", lambda: seeded_source(Stream("other")))
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


def test_a_saved_rated_game_on_a_seed_still_opens_and_replays(tables: Tables, farkle_home: Path) -> None:
    """Rated games were saved with a program-drawn seed before they drew their dice."""
    _, final = greedy_script(tables, hard_setup())
    # Each game on a seed of its own, as each drew its own: two on one seed are a copy.
    lines, other = greedy_script(tables, hard_setup("5"))
    assert other.winners() == (0,)
    with Store.open(farkle_home) as store:
        start = m.to_decision(m.new_match(hard_setup("5")), hard_setup("5").source())
        going_on = store.add_game(stored(start), kind="computer", level="hard", rated=True, rules="classic")
        done = store.add_game(stored(final), kind="computer", level="hard", rated=True, rules="classic")
        store.finish_game(done.id, stored(final), outcome="win", score=2150, version=done.version)
        del going_on
    data = stats()
    assert rated(data) == (1, 1, 0) and data["rated_games"]["unverifiable"] == []
    code, out = run(["play", "--resume", "--plain"], lines)
    assert code == 0, out
    assert "You roll 6 dice: a:6 b:3 c:6 d:2 e:2 f:3" in out and "Game over: You win." in out
    assert rated(stats()) == (2, 2, 0)


# -- a rated game stays rated


def test_h_on_the_last_turn_of_a_lost_rated_game_leaves_it_rated_and_lost() -> None:
    code, out = run(HARD_2000, [*LOSING[:-2], "h", *LOSING[-2:]])
    assert code == 0, out
    assert (
        "(the coach is off in a rated game: finish this one or resign it, and then farkle-train play "
        "--coach starts a coached game)" in out
    )
    assert "Game over: Hard wins." in out
    assert rated(stats()) == (1, 0, 1)


# -- nothing lost at the end of a game


def test_a_training_game_killed_between_its_end_and_its_answers_keeps_both(
    tables: Tables, monkeypatch: pytest.MonkeyPatch, farkle_home: Path
) -> None:
    setup = new_setup((Player("You"),), form=Form.TEN_TURNS, dice=Seeded("5", chosen=True))
    lines, final = greedy_script(tables, setup)
    decisions = len(final.decisions)
    assert decisions >= 2
    saves = 0

    def killed(self: object, store: object, session_id: int) -> None:
        # The process dies with half the game's answers written.
        nonlocal saves
        saves += 1
        if saves > decisions // 2:
            raise KeyboardInterrupt

    original = record_module.AnswerRecord.save
    monkeypatch.setattr(record_module.AnswerRecord, "save", killed)
    code, out = run(["play", "--solo", "--seed", "5", "--plain"], lines)
    assert code == 130, out
    with Store.open(farkle_home) as store:
        (row,) = store.games()
        assert not row.finished and load_progress(store).answers == 0
    monkeypatch.setattr(record_module.AnswerRecord, "save", original)
    code, out = run(["play", "--resume", "--plain"], ["n"])
    assert code == 0, out
    with Store.open(farkle_home) as store:
        (row,) = store.games()
        assert row.finished and row.outcome == "over"
        assert load_progress(store).answers == decisions


def test_a_damaged_unfinished_game_is_said_first_then_closed_with_its_state_kept(
    sql: sqlite3.Connection, farkle_home: Path
) -> None:
    run(HARD_2000, [LOSING[0], "q"])
    sql.execute("UPDATE games SET state = 'not json {'")
    code, out = run(HARD_2000, ["y", "q"])
    assert code == 0, out
    where = farkle_home / FILE_NAME
    lines = out.splitlines()
    assert lines[0].startswith("You have an unfinished game 1, against the computer (hard), rated, started ")
    assert lines[0].endswith(
        ", which cannot be carried on (saved game 1 cannot be read: its state is not valid JSON). "
        f"Starting a new game closes it as damaged, its saved state kept as it is in {where} (game 1); "
        "it counts as resigned (a loss)."
    )
    assert lines[1:3] == [
        "Start the new game? (n: nothing is started) (Y/n) y",
        "The unfinished game 1 is closed as damaged: it counts as resigned (a loss).",
    ]
    assert "Carry on with it?" not in out
    assert sql.execute("SELECT state, outcome FROM games WHERE id = 1").fetchone() == (
        "not json {",
        "damaged",
    )
    assert sql.execute("SELECT finished_at IS NULL FROM games WHERE id = 2").fetchone() == (1,)


def test_a_damaged_unfinished_rated_game_counts_as_resigned(sql: sqlite3.Connection) -> None:
    run(HARD_2000, [LOSING[0], "q"])
    sql.execute("UPDATE games SET state = 'not json {'")
    code, out = run(HARD_2000, ["y", "q"])
    assert code == 0, out
    data = stats()["rated_games"]
    assert rated({"rated_games": data}) == (1, 0, 1)
    (level,) = data["levels"]
    assert level == level | {"level": "hard", "rules": None, "target": None, "resigned": 1, "best": None}
    reason = "saved game 1 cannot be read: its state is not valid JSON"
    assert data["unread"] == [{"game": 1, "reason": reason}] and data["unverifiable"] == []
    _, out = run(["stats", "--plain"])
    assert (
        "  against hard, rules unknown: 1 game, 0 won, 1 lost (1 resigned)\n"
        "Counted as resigned: 1 damaged rated game:\n"
        f"  game 1: {reason}"
    ) in out


def test_a_finished_rated_game_made_unreadable_still_counts_as_a_loss(sql: sqlite3.Connection) -> None:
    run(HARD_2000, LOSING)
    sql.execute("UPDATE games SET state = '[1, 2, 3]', outcome = 'win'")
    data = stats()["rated_games"]
    assert rated({"rated_games": data}) == (1, 0, 1)
    assert data["unread"] == [
        {"game": 1, "reason": "saved game 1 cannot be read: its state is a JSON list, not an object"}
    ]


# -- a damaged game says what happened


def test_a_state_that_is_json_but_not_a_game_is_named_as_such(sql: sqlite3.Connection) -> None:
    run(HARD_2000, [LOSING[0], "q"])
    sql.execute("UPDATE games SET state = '[1, 2, 3]'")
    why = "saved game 1 cannot be read: its state is a JSON list, not an object"
    code, out = run(["review", "1", "--plain"])
    assert code == 2 and out.strip() == f"Error: {why}"
    code, out = run(["play", "--resume", "--plain"])
    assert code == 2 and out.strip() == (
        f"Error: the unfinished game 1 cannot be carried on ({why}); farkle-train play starts a new game "
        "and closes it as damaged: it counts as resigned (a loss)"
    )
    code, out = run(HARD_2000, ["n"])
    assert code == 0 and f"which cannot be carried on ({why})." in out
    assert out.rstrip().endswith("Nothing was started; the unfinished game is kept.")
    assert sql.execute("SELECT finished_at FROM games").fetchall() == [(None,)]


def test_a_state_missing_a_part_names_the_part(sql: sqlite3.Connection) -> None:
    run(HARD_2000, [LOSING[0], "q"])
    (text,) = sql.execute("SELECT state FROM games").fetchone()
    state = json.loads(text)
    del state["version"]
    sql.execute("UPDATE games SET state = ?", (json.dumps(state),))
    code, out = run(["review", "1", "--plain"])
    assert code == 2 and out.strip() == (
        "Error: saved game 1 cannot be read: it has no 'version', which every saved game has"
    )
    state |= {"version": 1, "turn": "two"}
    sql.execute("UPDATE games SET state = ?", (json.dumps(state),))
    code, out = run(["review", "1", "--plain"])
    assert code == 2 and "saved game 1 cannot be read: a value in it is not one a saved game holds (" in out
    assert "Error" not in out.replace("Error: ", "", 1)  # one line, no traceback


# -- a forged rated game


def stored_rated(claims: list[m.Claim], *, target: int = 2000) -> m.MatchState:
    """A rated game written into the store by hand, as someone editing it would: dice drawn, its
    moves legal on their own rolls, and recorded as a win."""
    setup = dealt(new_setup((Player("You"), Player("Hard", Level.HARD)), target=target))
    state = m.replay(setup, claims)
    with Store.open() as store:
        row = store.add_game(stored(state), kind="computer", level="hard", rated=True, rules="classic")
        store.finish_game(row.id, stored(state), outcome="win", score=state.scores[0], version=row.version)
    return state


def test_a_rated_game_whose_computer_does_not_play_its_own_moves_is_not_counted(tmp_path: Path) -> None:
    mine, its = (1, 1, 1, 5, 2, 3), (5, 2, 3, 4, 6, 6)
    # Hard keeps a single 5 and banks 50, every turn, for the person to win.
    hard = m.Claim(1, its, (5,), "bank")
    state = stored_rated(
        [m.Claim(0, mine, (1, 1, 1, 5), "bank"), hard, m.Claim(0, mine, (1, 1, 1, 5), "bank"), hard]
    )
    assert state.over and state.scores == (2100, 100)
    reason = "the saved game does not replay: move 2: Hard does not play that on these dice: it sets aside "
    data = stats()["rated_games"]
    assert data["played"] == 0
    (left_out,) = data["unverifiable"]
    assert left_out["game"] == 1 and left_out["reason"].startswith(reason)
    # review refuses it as it refuses the same game in a file, in the same words.
    code, out = run(["review", "1", "--plain"])
    assert code == 2 and out.startswith(f"Error: saved game 1 cannot be reviewed: {reason}")
    path = tmp_path / "forged.json"
    write_game_file(path, state)
    code, out = run(["review", str(path), "--plain"])
    said = left_out["reason"].removeprefix("the saved game does not replay: ")
    assert code == 2 and said in " ".join(out.split())


def test_a_rated_game_on_dice_no_fair_roll_gives_is_not_counted() -> None:
    # Six 1s for the person every roll, a Farkle for Hard every roll: forty rolls.
    claims = []
    for _ in range(20):
        claims += [m.Claim(0, (1, 1, 1, 1, 1, 1), (1,), "bank"), m.Claim(1, (2, 2, 3, 3, 4, 6), (), "farkle")]
    state = stored_rated(claims)
    assert state.over and state.scores == (2000, 0)
    data = stats()["rated_games"]
    assert data["played"] == 0
    assert data["unverifiable"] == [
        {
            "game": 1,
            "reason": "its dice are not credible: fair dice are this lucky for you less than once in "
            "1,000,000,000 games",
        }
    ]


# -- which games count, and where


def test_rated_games_are_reported_per_rule_set_and_target(tables: Tables) -> None:
    lines, _ = greedy_script(tables, hard_setup())
    run(HARD_2000, lines)  # a win to 2,000
    run(HARD_2000, ["resign", "y"])
    run(["play", "--vs", "hard", "--plain"], ["resign", "y"])  # to 10,000
    run(["play", "--vs", "hard", "--opening", "500", "--plain"], ["resign", "y"])
    data = stats()["rated_games"]
    keys = ("level", "rules", "opening", "penalty", "target", "played", "wins", "average_score", "best")
    assert [tuple(level[k] for k in keys) for level in data["levels"]] == [
        ("hard", "classic", 0, 0, 2000, 2, 1, 1075.0, 2150),
        ("hard", "classic", 0, 0, 10000, 1, 0, 0.0, 0),
        ("hard", "classic", 500, 0, 10000, 1, 0, 0.0, 0),
    ]
    assert (data["played"], data["current_streak"], data["longest_streak"]) == (4, 0, 1)
    _, out = run(["stats", "--plain"])
    resigned = "1 game, 0 won, 1 lost (1 resigned); average score 0, best 0"
    assert (
        "  against hard, classic to 2,000: 2 games, 1 won, 1 lost (1 resigned); average score 1,075, "
        f"best 2,150\n  against hard, classic to 10,000: {resigned}\n"
        f"  against hard, classic to 10,000, opening 500: {resigned}"
    ) in out


def test_a_game_on_a_rule_file_is_training(tmp_path: Path) -> None:
    mine = tmp_path / "mine.toml"
    mine.write_text('name = "mine"\n')  # classic's values, under a name of its own
    code, out = run([*HARD_2000, "--rules", str(mine)], ["resign", "y"])
    assert code == 0, out
    assert out.splitlines()[1] == (
        "Training game (the mine table is not a preset: rated games are on classic, fixed, doubling or "
        "multiplier): recorded as progress, never in stats."
    )
    assert "Rated game" not in out and "counts as a loss" not in out
    data = stats()["rated_games"]
    assert (data["played"], data["unverifiable"]) == (0, [])
    (game,) = json.loads(run(["games", "--json"])[1])["games"]
    assert game["kind"] == "training"


def test_a_game_an_earlier_version_rated_on_a_rule_file_is_training(tables: Tables, tmp_path: Path) -> None:
    mine = replace(hard_setup().rules, name="mine")
    setup = dealt(replace(hard_setup(), rules=mine))
    _, final = greedy_script(tables, replace(hard_setup(), rules=mine))
    start = m.to_decision(m.new_match(setup), hard_setup().source())
    with Store.open() as store:
        # As an earlier version kept them: rated, one won, one going on.
        done = store.add_game(stored(final), kind="computer", level="hard", rated=True, rules="mine")
        store.finish_game(done.id, stored(final), outcome="win", score=final.scores[0], version=done.version)
        store.add_game(stored(start), kind="computer", level="hard", rated=True, rules="mine")
    data = stats()["rated_games"]
    assert (data["played"], data["unverifiable"]) == (0, [])
    code, out = run(HARD_2000, ["n", "q"])
    assert code == 0, out
    assert ", training, started " in out.splitlines()[0] and ", rated, " not in out.splitlines()[0]
    assert "Carry on with it? (n: it is set aside) (Y/n) n" in out
    assert "counts as resigned" not in out
