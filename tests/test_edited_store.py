"""A store edited by hand, outside the program: every command goes on, or says in one line what is
wrong and how to go on; nothing it does not understand ends in a traceback or a hang."""

from __future__ import annotations

import csv
import json
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from farkle_trainer.cli import app
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.db import Store
from farkle_trainer.store.paths import FILE_NAME
from farkle_trainer.training.games.daily import next_attempt
from farkle_trainer.training.games.dice import Seeded
from farkle_trainer.training.games.play import stored
from farkle_trainer.training.games.setup import Level, Player, new_setup
from tests.factories import fifty_a_roll_days, game_banking  # noqa: F401 - a fixture used by name
from tests.plays import HARD_2000, drawn_seed, greedy_script  # noqa: F401 - drawn_seed is autouse

runner = CliRunner()


def run(args: list[str], lines: list[str] = []) -> tuple[int, str]:  # noqa: B006 - never changed
    """A command's exit code and output; it must end as a command ends, never by an exception."""
    result = runner.invoke(app, args, input="".join(line + "\n" for line in lines))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


@pytest.fixture
def sql(farkle_home: Path) -> Iterator[sqlite3.Connection]:
    """The store as anyone can edit it, outside the program."""
    Store.open(farkle_home).close()
    with closing(sqlite3.connect(farkle_home / FILE_NAME, isolation_level=None)) as db:
        yield db


def stats() -> dict[str, Any]:
    code, out = run(["stats", "--json"])
    assert code == 0, out
    data: dict[str, Any] = json.loads(out)
    return data


#: The scripts below are played as the module loads, before the run's tables are in place: in
#: tables held in memory alone.
SCRIPTED = Tables()
#: A rated game against Hard to 2,000 that the person loses, banking from 500 up on seed 3's dice.
LOSING, LOST = greedy_script(
    SCRIPTED,
    new_setup((Player("You"), Player("Hard", Level.HARD)), target=2000, dice=Seeded("3")),
    bank_at=500,
)


def play_official_daily(score: int) -> str:
    """Today's official daily game, played to ``score`` and finished; its date."""
    today = datetime.now(UTC).date()
    with Store.open() as store:
        attempt = next_attempt(store, today, today)
        version = store.save_daily_state(
            attempt.id, game_banking(today, score).to_dict(), version=attempt.version
        )
        store.finish_daily(attempt.id, score=score, perfect_score=None, marks="", turns=[], version=version)
    return today.isoformat()


# -- a rated game copied


#: The same game played to a win: it keeps the most points of each roll and banks from 300.
WINNING, WON = greedy_script(
    SCRIPTED,
    new_setup((Player("You"), Player("Hard", Level.HARD)), target=2000, dice=Seeded("3")),
    bank_at=300,
)
GAME_COLUMNS = (
    "kind, level, rated, session_id, started_at, updated_at, finished_at, state, version, outcome, score"
)


def test_a_rated_game_copied_in_the_store_counts_once(sql: sqlite3.Connection) -> None:
    assert WON.winners() == (0,)
    dice = sum(len(move.roll) for move in WON.log)
    assert 6**dice > 10**9  # fair dice throw these rolls twice less than once in a billion games
    run(HARD_2000, WINNING)
    sql.execute(f"INSERT INTO games ({GAME_COLUMNS}) SELECT {GAME_COLUMNS} FROM games")
    sql.execute(f"INSERT INTO games ({GAME_COLUMNS}) SELECT {GAME_COLUMNS} FROM games WHERE id = 1")
    data = stats()
    (level,) = data["rated_games"]["levels"]
    assert (level["played"], level["wins"]) == (1, 1)
    why = (
        "its rolls are game 1's, die for die: "
        "fair dice throw the same rolls twice less than once in 1,000,000,000 games"
    )
    assert data["rated_games"]["unverifiable"] == [{"game": 2, "reason": why}, {"game": 3, "reason": why}]
    (match,) = data["strength"]
    assert (match["what"], match["games"]) == ("match", 1)


def test_two_rated_games_given_up_on_one_same_roll_both_count() -> None:
    # Six dice are thrown the same twice once in 46,656 pairs of games: that is no copy.
    for _ in range(2):
        assert run(HARD_2000, ["resign", "y"])[0] == 0
    (level,) = stats()["rated_games"]["levels"]
    assert (level["played"], level["losses"], level["resigned"]) == (2, 2, 2)


# -- numbers JSON reads that no game holds


def test_a_rated_game_whose_state_an_edit_gave_infinity_counts_as_resigned(sql: sqlite3.Connection) -> None:
    run(HARD_2000, LOSING)
    sql.execute("UPDATE games SET state = replace(state, '\"turn\":1,', '\"turn\":Infinity,')")
    (level,) = stats()["rated_games"]["levels"]
    assert (level["played"], level["losses"], level["resigned"]) == (1, 1, 1)
    code, out = run(["review", "1", "--plain"])
    assert code == 2
    assert out.strip() == (
        "Error: saved game 1 cannot be read: a value in it is not one a saved game holds "
        "(cannot convert float infinity to integer)"
    )
    code, out = run(["games", "--plain"])
    assert code == 0 and "Game 1," in out


@pytest.mark.usefixtures("fifty_a_roll_days")
def test_an_official_daily_game_whose_state_an_edit_gave_infinity_is_not_counted(
    sql: sqlite3.Connection,
) -> None:
    day = play_official_daily(4550)
    sql.execute("UPDATE daily_attempts SET state = replace(state, '\"points\":0,', '\"points\":Infinity,')")
    data = stats()
    assert (data["games_played"], data["unverifiable"]) == (0, [day])
    assert run(["games", "--plain"])[0] == 0
    assert run(["daily", "--status", "--json"])[0] == 0
    code, out = run(["review", "d1", "--plain"])
    assert (code, out.strip()) == (2, "Error: daily game d1 cannot be reviewed: its saved game is damaged")


@pytest.mark.usefixtures("fifty_a_roll_days")
@pytest.mark.parametrize(
    "edit", ["score = 999999", "score = 'lots'", "state = json_set(state, '$.banked', 9000), score = 9000"]
)
def test_today_s_official_result_an_edit_changed_is_not_said_as_done_with_it(
    sql: sqlite3.Connection, edit: str
) -> None:
    play_official_daily(4550)
    sql.execute(f"UPDATE daily_attempts SET {edit}")
    code, out = run(["daily", "--status", "--json"])
    data = json.loads(out)
    assert code == 0 and (data["state"], data["score"], data["share"]) == ("damaged", None, None)
    assert data["current_streak"] == 0
    code, out = run(["daily", "--plain"])
    assert code == 0 and "its saved moves do not give the score stored" in out
    assert "999,999" not in out and "9,000" not in out and "done" not in out


@pytest.mark.usefixtures("fifty_a_roll_days")
def test_a_daily_game_whose_date_an_edit_made_no_date_is_listed_as_damaged(sql: sqlite3.Connection) -> None:
    play_official_daily(4550)
    sql.execute("UPDATE daily_attempts SET date = 'someday'")
    assert stats()["unverifiable"] == ["someday"]
    code, out = run(["games", "--plain"])
    assert code == 0
    assert out.splitlines()[1].endswith(
        "official game of someday; its saved game is damaged and scores nothing."
    )
    code, out = run(["review", "d1", "--plain"])
    assert (code, out.strip()) == (2, "Error: daily game d1 cannot be reviewed: its saved game is damaged")


@pytest.mark.usefixtures("fifty_a_roll_days")
def test_a_copy_of_an_official_daily_game_made_past_its_unique_index_counts_once(
    sql: sqlite3.Connection,
) -> None:
    play_official_daily(4550)
    columns = "date, official, rules, started_at, updated_at, finished_at, state, score, marks, turns"
    sql.execute("DROP INDEX one_official_attempt_per_date")
    sql.execute(f"INSERT INTO daily_attempts ({columns}) SELECT {columns} FROM daily_attempts")
    data = stats()
    assert (data["games_played"], data["average_score"], data["unverifiable"]) == (1, 4550, [])
    (daily,) = data["strength"]
    assert (daily["what"], daily["games"]) == ("ten-turns", 1)


@pytest.mark.parametrize("held", [True, False])
def test_a_daily_game_held_further_off_than_any_terminal_holds_it_is_not_held(
    sql: sqlite3.Connection, held: bool
) -> None:
    day = ["daily", "--date", "2026-11-01", "--plain"]
    assert run(day, ["q"])[0] == 0
    # Five minutes from now, as another terminal holds it; or the year 9999, as no terminal does.
    until = datetime.now(UTC) + timedelta(minutes=5) if held else datetime(9999, 12, 31, tzinfo=UTC)
    sql.execute(
        "UPDATE daily_attempts SET holder = 'elsewhere:1', held_until = ?",
        (until.isoformat(timespec="seconds"),),
    )
    code, out = run(day, ["q"])
    if held:
        assert code == 1 and "this game is open in another terminal" in out
    else:
        assert code == 0 and "Carrying on where you stopped: turn 1 of 10, 0 banked." in out


# -- the count of a saved game's writes


def test_a_game_whose_count_of_writes_an_edit_made_text_is_carried_on_to_its_end(
    sql: sqlite3.Connection,
) -> None:
    run(HARD_2000, [*LOSING[:2], "q"])
    sql.execute("UPDATE games SET version = 'lots'")
    code, out = run(["play", "--resume", "--plain"], LOSING[2:])
    assert code == 0 and "Game over: Hard wins." in out
    assert stats()["rated_games"]["levels"][0]["losses"] == 1


def test_a_daily_game_whose_count_of_writes_an_edit_made_text_is_carried_on(sql: sqlite3.Connection) -> None:
    day = ["daily", "--date", "2026-11-01", "--plain"]
    assert run(day, ["q"])[0] == 0
    sql.execute("UPDATE daily_attempts SET version = 'lots'")
    code, out = run(day, ["5 5 5 5", "b", "q"])
    assert code == 0 and "Banked 1,000: total 1,000 after turn 1 of 10." in out
    code, out = run(day, ["q"])
    assert code == 0 and "Turn 2 of 10, 1,000 banked." in out


def test_a_saved_roll_of_more_dice_than_a_roll_throws_is_named_and_never_quoted_whole(
    sql: sqlite3.Connection,
) -> None:
    run(HARD_2000, LOSING)
    (text,) = sql.execute("SELECT state FROM games").fetchone()
    state = json.loads(text)
    state["log"][1]["roll"] = [1] * 10_000
    sql.execute("UPDATE games SET state = ?", (json.dumps(state),))
    code, out = run(["review", "1", "--plain"])
    assert (code, out) == (
        2,
        "Error: saved game 1 cannot be read: a value in it is not one a saved game holds "
        "(10,000 dice where a roll throws at most 6)\n",
    )


# -- moves cut short


def test_a_finished_game_whose_moves_an_edit_cut_short_reads_as_given_up_everywhere(
    sql: sqlite3.Connection,
) -> None:
    run(HARD_2000, LOSING)
    (text,) = sql.execute("SELECT state FROM games").fetchone()
    state = json.loads(text)
    state["log"] = state["log"][:3]
    sql.execute("UPDATE games SET state = ?", (json.dumps(state),))
    # The stats count a rated game that did not end as resigned; the list and the review say so too.
    (level,) = stats()["rated_games"]["levels"]
    assert (level["played"], level["losses"], level["resigned"]) == (1, 1, 1)
    # The scores banked before the game's fourth move, as the game itself was played.
    you, hard = (f"{score:,}" for score in LOST.log[3].scores)
    code, out = run(["games", "--plain"])
    assert code == 0 and out.splitlines()[1].endswith(
        f"rated; You resigned, Hard wins; You {you}, Hard {hard}."
    )
    code, out = run(["review", "1", "--plain"])
    assert code == 0 and out.splitlines()[1] == f"You resigned: Hard wins. Scores: You {you}, Hard {hard}."
    code, out = run(["games", "--json"])
    assert json.loads(out)["games"][0]["winners"] == ["Hard"]


# -- times an edit made no time


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory with a rated game lost, a quiz answer missed, a drill answered, a daily
    practice game under way and a blunder in a game's drill due again."""
    home = tmp_path_factory.mktemp("trained")
    with Store.open(home) as store:
        game = store.add_game(stored(LOST), kind="computer", level="hard", rated=True, rules="classic")
        store.finish_game(game.id, stored(LOST), outcome="loss", score=700, version=game.version)
    where = ["--plain", "--data-dir", str(home)]
    assert run(["score", "--topic", "worth", "--seed", "7", "--count", "1", *where], ["0"])[0] == 0
    assert run(["decide", "--kind", "keep", "--seed", "5", "--count", "1", *where], ["1", "b"])[0] == 0
    assert run(["daily", "--date", "2026-11-01", *where], ["5 5 5 5", "b", "q"])[0] == 0
    return home


@pytest.mark.parametrize(
    ("table", "column"),
    [
        ("answers", "answered_at"),
        ("sessions", "started_at"),
        ("items", "due_at"),
        ("items", "last_seen"),
        ("items", "reviewed_at"),
        ("daily_attempts", "started_at"),
        ("daily_attempts", "updated_at"),
        ("daily_attempts", "held_until"),
        ("games", "started_at"),
        ("games", "updated_at"),
        ("games", "finished_at"),
    ],
)
def test_a_time_an_edit_made_no_time_stops_nothing_and_each_reset_still_resets(
    trained: Path, farkle_home: Path, table: str, column: str
) -> None:
    shutil.copytree(trained, farkle_home)
    with closing(sqlite3.connect(farkle_home / FILE_NAME, isolation_level=None)) as db:
        db.execute(f"UPDATE {table} SET {column} = 'teatime'")
    for args, lines in [
        (["progress", "--plain"], []),
        (["progress", "--json"], []),
        (["stats", "--plain"], []),
        (["games", "--plain"], []),
        (["review", "1", "--plain"], []),
        (["decide", "--mistakes", "--plain"], ["q"]),
        (["daily", "--date", "2026-11-01", "--plain"], ["q"]),
        (["learn", "--plain"], []),
    ]:
        code, out = run(args, lines)
        assert code == 0, (args, out)
    for what in ("progress", "stats"):
        code, out = run(["reset", what, "--yes"])
        assert code == 0 and out.startswith("Deleted all"), out
    assert run(["stats", "--json"])[0] == run(["progress", "--json"])[0] == 0


def test_a_card_whose_due_time_an_edit_made_no_time_is_due_now(trained: Path, farkle_home: Path) -> None:
    shutil.copytree(trained, farkle_home)
    with closing(sqlite3.connect(farkle_home / FILE_NAME, isolation_level=None)) as db:
        reviewed = "SELECT count(*) FROM items WHERE kind IN ('score', 'decide', 'mistakes')"
        cards = db.execute(reviewed).fetchone()[0]
        db.execute("UPDATE items SET due_at = '2099-01-01T00:00:00+00:00'")
    assert cards >= 2 and json.loads(run(["progress", "--json"])[1])["due_now"] == 0
    with closing(sqlite3.connect(farkle_home / FILE_NAME, isolation_level=None)) as db:
        db.execute("UPDATE items SET due_at = 'teatime'")
    data = json.loads(run(["progress", "--json"])[1])
    assert (data["due_now"], data["due_today"]) == (cards, cards)
    code, out = run(["decide", "--mistakes", "--plain"], ["q"])
    assert code == 0 and "Your mistakes: 1 due" in out


@pytest.mark.parametrize(
    "when", ["0001-01-01T00:00:00+00:00", "0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00"]
)
def test_a_time_an_edit_put_at_the_end_of_the_years_there_are_stops_nothing(
    trained: Path, farkle_home: Path, when: str
) -> None:
    shutil.copytree(trained, farkle_home)
    with closing(sqlite3.connect(farkle_home / FILE_NAME, isolation_level=None)) as db:
        cards = db.execute(
            "SELECT count(*) FROM items WHERE kind IN ('score', 'decide', 'mistakes')"
        ).fetchone()[0]
        for table, column in [("answers", "answered_at"), ("sessions", "started_at"), ("items", "due_at")]:
            db.execute(f"UPDATE {table} SET {column} = ?", (when,))
    for args in (
        ["progress", "--plain"],
        ["stats", "--plain"],
        ["games", "--plain"],
        ["review", "1", "--plain"],
    ):
        code, out = run(args)
        assert code == 0, (args, out)
    # In UTC each is long ago (the last one is in the year 10000, past the years there are):
    # every card is due now, in the count and in the drill alike.
    assert json.loads(run(["progress", "--json"])[1])["due_now"] == cards
    code, out = run(["decide", "--mistakes", "--plain"], ["q"])
    assert code == 0 and "Your mistakes: 1 due" in out


def test_a_card_due_in_an_offset_an_edit_gave_is_due_when_it_is_in_utc(
    trained: Path, farkle_home: Path
) -> None:
    shutil.copytree(trained, farkle_home)
    # Midnight tomorrow 23:59 ahead of UTC is a minute past midnight today in UTC: passed,
    # though its text sorts after now.
    later = (datetime.now(UTC) + timedelta(days=1)).date().isoformat()
    with closing(sqlite3.connect(farkle_home / FILE_NAME, isolation_level=None)) as db:
        db.execute("UPDATE items SET due_at = ? WHERE kind = 'mistakes'", (f"{later}T00:00:00+23:59",))
    code, out = run(["decide", "--mistakes", "--plain"], ["q"])
    assert code == 0 and "Your mistakes: 1 due" in out


# -- what a decision gave up


@pytest.mark.parametrize("lost", ["'lots'", "9e999", "-5", "1e12"])
def test_a_loss_an_edit_made_no_loss_counts_in_no_average(
    sql: sqlite3.Connection, tmp_path: Path, lost: str
) -> None:
    # README's drill: rolling 2 dice at 250 gives up 0.83 points.
    drill = ["decide", "--kind", "bank-or-roll", "--seed", "3", "--count", "1", "--plain"]
    for _ in range(2):
        assert run(drill, ["r"])[0] == 0
    sql.execute(f"UPDATE answers SET points_lost = {lost} WHERE id = 2")
    code, out = run(["progress", "--json"])
    assert code == 0, out
    data = json.loads(out)
    assert (data["answers"], data["decisions"]) == (2, 1)
    assert data["losses"] == [
        {"unit": "points", "decisions": 1, "average_lost": pytest.approx(0.83, abs=0.005)}
    ]
    assert run(["progress", "--plain"])[0] == 0
    code, out = run(["progress", "--export", str(tmp_path / "answers.csv")])
    assert code == 0
    with (tmp_path / "answers.csv").open(newline="") as f:
        assert [row["points_lost"] for row in csv.DictReader(f)] == ["0.83", ""]


# -- the review schedule's cards


def test_a_card_whose_note_is_json_but_no_object_asks_nothing_and_the_rest_go_on(
    sql: sqlite3.Connection,
) -> None:
    # A quiz question missed and a drill played fine leave cards that come back; an edit makes
    # what asks them again a JSON list.
    assert run(["score", "--topic", "worth", "--seed", "7", "--count", "1", "--plain"], ["0"])[0] == 0
    assert run(["decide", "--kind", "bank-or-roll", "--seed", "3", "--count", "1", "--plain"], ["r"])[0] == 0
    sql.execute("UPDATE items SET extra = '[1, 2]', due_at = '2000-01-01T00:00:00+00:00'")
    with Store.open() as store:
        assert [item.extra for item in store.due_items("score")] == [None]
        assert [item.extra for item in store.due_items("decide")] == [None]
    code, out = run(["score", "--topic", "worth", "--count", "1", "--plain"], ["q"])
    assert code == 0 and "1/1 What are" in out
    code, out = run(["decide", "--kind", "bank-or-roll", "--count", "1", "--plain"], ["q"])
    assert code == 0 and "Decision 1 of 1: bank or roll" in out
