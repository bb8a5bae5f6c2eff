"""``progress``, ``stats`` and ``reset`` from the command line: text, rich, JSON, export, errors."""

from __future__ import annotations

import csv
import io
import json
import os
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from farkle_trainer.cli import app
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.db import Store
from farkle_trainer.store.paths import FILE_NAME
from farkle_trainer.training.games import dice as game_dice
from farkle_trainer.training.games import tenturns
from farkle_trainer.training.games.daily import next_attempt, official_stats
from farkle_trainer.training.progress import GameStats, LevelRecord, load_progress
from farkle_trainer.ui.views import records as view
from tests.factories import fifty_a_roll_days, game_banking  # noqa: F401 - a fixture used by name

runner = CliRunner()
#: The official results below are games their moves give, on dice that can give any score.
pytestmark = pytest.mark.usefixtures("fifty_a_roll_days")


@pytest.fixture
def today() -> date:
    """The day the test runs on, read when it starts: a run that crosses midnight stays right."""
    return datetime.now(UTC).date()


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def rich_text(renderable: object) -> str:
    console = Console(width=80, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text()


def add_training(directory: Path | None = None) -> None:
    with Store.open(directory) as store:
        sid = store.start_session("score", rules="classic", params={})
        for n in range(6):
            store.record_answer(
                sid,
                topic="combos",
                item=f"c{n}",
                question=f"What is 1 1 1 5 worth? ({n})",
                answer="1,000",
                correct_answer="1,050",
                correct=n == 0,
                grade="right" if n == 0 else "wrong",
                points_lost=None,
            )
        for lost in (50.0, 20.0):
            did = store.start_session("decide", rules="classic", params={})
            store.record_answer(
                did,
                topic="final-round",
                item="f1",
                question="Bank 650 or roll 2?",
                answer="bank",
                correct_answer="roll",
                correct=False,
                grade="blunder",
                points_lost=lost,
            )


def add_official(day: date, score: int, directory: Path | None = None) -> None:
    moment = datetime(day.year, day.month, day.day, 8, tzinfo=UTC)
    with Store.open(directory, clock=lambda: moment) as store:
        attempt = next_attempt(store, day, store.now().date())
        game = game_banking(day, score).to_dict()
        version = store.save_daily_state(attempt.id, game, version=attempt.version)
        store.finish_daily(
            attempt.id,
            score=score,
            perfect_score=score + 300.5,
            marks="GGYB",
            turns=[],
            version=version,
        )


# -- progress


def test_progress_empty() -> None:
    code, out, _ = run("progress", "--plain")
    assert code == 0
    assert "No training recorded yet." in out
    assert "farkle-train score" in out


def test_progress_plain() -> None:
    add_training()
    code, out, _ = run("progress", "--plain")
    assert code == 0, out
    assert "Training progress: 8 answers in 3 sessions, 12% right." in out
    assert "Scoring: combos" in out and "Decisions: final-round" in out
    assert "Points lost per decision: 35.00 on average over 2 decisions" in out
    assert "50.00, 20.00 (improving)" in out
    assert "Practise next: farkle-train score --topic combos" in out
    # A 0% topic with too few answers to rank is named, with why it is not among the weakest.
    assert "Weakest topics: Scoring: combos (17% lately)." in out
    assert "Too few answers to rank yet (under 3): Decisions: final-round (0 of 2 right)." in out


def test_progress_json() -> None:
    add_training()
    code, out, _ = run("progress", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["answers"] == 8 and data["decisions"] == 2 and data["trend"] == "improving"
    assert data["weakest"][0] == {"kind": "score", "topic": "combos"}
    assert data["next"]["command"] == "farkle-train score --topic combos"
    assert {t["topic"] for t in data["topics"]} == {"combos", "final-round"}


def test_progress_rich() -> None:
    add_training()
    with Store.open() as store:
        text = rich_text(view.progress_rich(load_progress(store)))
    assert "Scoring: combos" in text and "17%" in text
    assert "Last 2 sessions" in text and "(improving)" in text
    assert "Practise next: farkle-train score --topic combos" in text
    assert max(len(line) for line in text.splitlines()) <= 80


@pytest.mark.parametrize("suffix", [".csv", ".json"])
def test_progress_export(tmp_path: Path, suffix: str) -> None:
    add_training()
    target = tmp_path / f"results{suffix}"
    code, out, _ = run("progress", "--export", str(target))
    assert code == 0
    assert out.strip() == f"Exported 8 training answers to {target}."
    if suffix == ".csv":
        with target.open(newline="") as f:
            rows = list(csv.DictReader(f))
    else:
        rows = json.loads(target.read_text())
    assert len(rows) == 8
    assert rows[-1]["topic"] == "final-round" and rows[-1]["grade"] == "blunder"
    assert {"time", "question", "answer", "correct_answer", "points_lost"} <= set(rows[0])
    code, out, _ = run("progress", "--export", str(target), "--json", "--force")
    assert code == 0 and json.loads(out) == {"exported": 8, "file": str(target)}


def test_progress_export_errors(tmp_path: Path, farkle_home: Path) -> None:
    code, out, err = run("progress", "--export", str(tmp_path / "results.xlsx"))
    assert code == 2 and out == ""
    assert err.strip() == "Error: cannot export to results.xlsx: the file name must end in .csv or .json"
    assert not farkle_home.exists()

    code, _, err = run("progress", "--export", str(tmp_path / "missing" / "results.csv"))
    assert code == 2
    assert err.startswith("Error: cannot write") and len(err.strip().splitlines()) == 1


# -- stats


def test_stats_empty(tables: Tables) -> None:
    code, out, _ = run("stats", "--plain")
    assert code == 0
    assert out.strip() == "No official daily games yet. Play today's with: farkle-train daily"
    with Store.open() as store:
        assert rich_text(view.stats_rich(official_stats(tables, store))).strip() == out.strip()
    code, out, _ = run("stats", "--json")
    assert json.loads(out)["games_played"] == 0


def test_stats_plain_and_json(tables: Tables, today: date) -> None:
    for back, score in [(3, 4200), (2, 5100), (1, 5600), (0, 11_000)]:
        add_official(today - timedelta(days=back), score)
    code, out, _ = run("stats", "--plain")
    assert code == 0
    assert "Official daily games played: 4." in out
    assert f"Today's game ({today.isoformat()} UTC): played." in out
    assert "Streak: 4 days (longest 4 days)." in out
    assert (
        f"Best: 11,000 on {today.isoformat()}. Average: 6,475 (perfect play is expected to score 5,935.77)."
        in out
    )
    assert "  4,000-4,999    1  " in out and "10,000+" in out
    assert "5,000-5,999    2  ##############################" in out
    # The marks are the moves' (a first turn of 211 rolls of one 5 each sets aside all six dice
    # 35 times, hot dice; each turn after it banks one 5), never the ones stored ("GGYB"); the
    # solver's own game is the one it plays on the day's dice, never the score stored with the
    # result (11,300.5), and is one sample, not a ceiling: in the JSON, not shown.
    assert f"{today.isoformat()}  11,000  H . . . . . . . . ." in out and "GGYB" not in out
    assert "11,300" not in out
    perfect = tenturns.perfect_play(tables, game_dice.daily_source(today))
    assert json.loads(run("stats", "--json")[1])["recent"][0]["perfect_score"] == perfect != 11_300.5

    data = json.loads(run("stats", "--json")[1])
    assert data["current_streak"] == 4 and data["best"] == {"date": today.isoformat(), "score": 11_000}
    assert data["histogram"][0] == {"from": 4000, "to": 4999, "count": 1}
    assert data["histogram"][-1] == {"from": 10_000, "to": None, "count": 1}


def test_stats_rich(tables: Tables, today: date) -> None:
    add_official(today - timedelta(days=1), 5200)
    with Store.open() as store:
        text = rich_text(view.stats_rich(official_stats(tables, store)))
    assert "Streak: 1 day" in text and "not played yet (farkle-train daily)" in text
    assert "5,000-5,999" in text and "█" in text
    assert "Recent days" in text and "5,200" in text and "5,500" not in text
    assert "perfect play is expected to score" in text and "5,935.77" in text


def test_averages_of_scores_read_as_points(tables: Tables, today: date) -> None:
    # Scores are whole points: an average has a decimal only where it is not whole, one at most.
    for back, score in [(2, 4200), (1, 5150), (0, 5600)]:
        add_official(today - timedelta(days=back), score)
    _, out, _ = run("stats", "--plain")
    expected = f"Average: {(4200 + 5150 + 5600) / 3:,.1f}"
    assert expected == "Average: 4,983.3" and expected in out
    with Store.open() as store:
        assert expected in rich_text(view.stats_rich(official_stats(tables, store)))
    assert json.loads(run("stats", "--json")[1])["average_score"] == pytest.approx(14950 / 3)
    games = GameStats(
        (LevelRecord("hard", 2, 1, 0, 1, 0, 4425.0, 4450), LevelRecord("easy", 2, 2, 0, 0, 0, 725.5, 800)),
        2,
        2,
    )
    lines = view.game_stats_text(games).splitlines()
    assert lines[1].endswith("average score 4,425, best 4,450")
    assert lines[2].endswith("average score 725.5, best 800")
    table = rich_text(view.game_stats_rich(games))
    assert "│   4,425 │" in table and "│   725.5 │" in table and ".00" not in table


def test_training_does_not_show_in_stats(today: date) -> None:
    add_training()
    with Store.open() as store:
        attempt = next_attempt(store, today - timedelta(days=1), store.now().date())
        store.finish_daily(
            attempt.id, score=9000, perfect_score=None, marks="", turns=[], version=attempt.version
        )
    assert json.loads(run("stats", "--json")[1])["games_played"] == 0


# -- the data directory


def test_data_dir_option(tmp_path: Path, farkle_home: Path) -> None:
    elsewhere = tmp_path / "classroom"
    add_training(elsewhere)
    assert json.loads(run("progress", "--json", "--data-dir", str(elsewhere))[1])["answers"] == 8
    assert json.loads(run("progress", "--json")[1])["answers"] == 0
    assert (elsewhere / FILE_NAME).is_file()


def test_environment_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, today: date) -> None:
    home = tmp_path / "other-home"
    monkeypatch.setenv("FARKLE_TRAIN_HOME", str(home))
    add_official(today, 5000)
    assert json.loads(run("stats", "--json")[1])["games_played"] == 1
    assert (home / FILE_NAME).is_file()


# -- reset


def test_reset_asks_first(today: date) -> None:
    add_training()
    add_official(today, 5000)
    code, out, err = run("reset", "progress", input="n\n")
    assert code == 1 and "Nothing deleted." in out
    assert "Delete all training progress (8 answers in 3 sessions; 7 cards of the review schedule)" in err
    code, out, err = run("reset", "progress")
    assert code == 2 and "Pass --yes" in err
    assert json.loads(run("progress", "--json")[1])["answers"] == 8

    code, out, _ = run("reset", "progress", input="y\n")
    assert code == 0
    assert out.strip() == (
        "Deleted all training progress (8 answers in 3 sessions; 7 cards of the review schedule). "
        "Official stats are kept."
    )
    assert json.loads(run("progress", "--json")[1])["answers"] == 0
    assert json.loads(run("stats", "--json")[1])["games_played"] == 1


def test_reset_stats_with_yes(today: date) -> None:
    add_training()
    add_official(today, 5000)
    code, out, _ = run("reset", "stats", "--yes")
    assert code == 0 and "Training progress is kept." in out
    assert json.loads(run("stats", "--json")[1])["games_played"] == 0
    assert json.loads(run("progress", "--json")[1])["answers"] == 8
    code, out, _ = run("reset", "stats", "--yes")
    assert code == 0 and out.strip() == "Nothing to reset: no official games."


#: A rated game against Hard to 2,000, in plain text.
RATED = ["play", "--vs", "hard", "--target", "2000", "--plain"]


def test_reset_stats_names_the_rated_games_it_deletes_with_or_without_a_daily_game(today: date) -> None:
    assert runner.invoke(app, RATED, input="resign\ny\n").exit_code == 0  # a rated loss
    assert runner.invoke(app, [*RATED, "--seed", "4"], input="resign\ny\n").exit_code == 0  # training
    assert runner.invoke(app, RATED, input="q\n").exit_code == 0  # a rated game, unfinished
    described = (
        "all official results (2 rated games with their moves, 1 of them unfinished; "
        "with the streaks and records they make)"
    )
    code, out, err = run("reset", "stats", input="n\n")
    assert code == 1 and out.strip() == "Nothing deleted."
    assert f"Delete {described} from " in err
    add_official(today, 5000)
    code, out, _ = run("reset", "stats", "--yes")
    assert code == 0
    assert out.strip() == (
        "Deleted all official results (1 official daily game; 2 rated games with their moves, 1 of them "
        "unfinished; with the streaks and records they make). Training progress is kept."
    )
    games = json.loads(run("games", "--json")[1])
    assert [(g["id"], g["kind"]) for g in games["games"]] == [(2, "training")] and games["daily"] == []
    assert json.loads(run("stats", "--json")[1])["rated_games"]["played"] == 0
    code, out, _ = run("reset", "stats", "--yes")
    assert code == 0 and out.strip() == "Nothing to reset: no official games."


def test_reset_progress_names_the_practice_daily_games_and_lessons_it_deletes(today: date) -> None:
    with Store.open() as store:
        practice = next_attempt(store, today - timedelta(days=1), today)  # a past day: practice
        assert not practice.official
    code, out, err = run("reset", "progress", input="n\n")
    assert code == 1 and "Delete all training progress (1 practice daily game) from " in err
    add_training()
    with Store.open() as store:
        store.record_lesson(1, "scoring", rules="classic")
    code, out, _ = run("reset", "progress", "--yes")
    assert code == 0
    assert out.strip() == (
        "Deleted all training progress (8 answers in 3 sessions; 7 cards of the review schedule; 1 practice "
        "daily game; 1 lesson read). Official stats are kept."
    )
    assert json.loads(run("games", "--json")[1])["daily"] == []
    with Store.open() as store:
        assert store.lessons_read() == set()


def test_reset_unknown_kind() -> None:
    code, out, err = run("reset", "everything", "--yes")
    assert code == 2 and out == ""
    assert err.strip() == "Error: reset takes progress or stats, not 'everything'"


# -- a damaged store


@pytest.fixture
def damaged(farkle_home: Path) -> Path:
    farkle_home.mkdir()
    path = farkle_home / FILE_NAME
    path.write_text("definitely not sqlite\n" * 50)
    return path


def test_damaged_store_without_an_answer(damaged: Path) -> None:
    before = damaged.read_bytes()
    code, out, err = run("stats")
    assert code == 2 and out == ""
    assert f"Error: {damaged} is not a usable farkle-trainer store: file is not a database." in err
    assert "Nothing was changed" in err and "Traceback" not in err
    assert damaged.read_bytes() == before
    assert list(damaged.parent.iterdir()) == [damaged]


def test_damaged_store_declined(damaged: Path) -> None:
    code, _, err = run("progress", input="n\n")
    assert code == 2 and "Nothing was changed." in err
    assert list(damaged.parent.iterdir()) == [damaged]


def test_damaged_store_set_aside_on_yes(damaged: Path) -> None:
    before = damaged.read_bytes()
    code, out, err = run("stats", "--json", input="y\n")
    assert code == 0, err
    assert json.loads(out)["games_played"] == 0
    kept = [p for p in damaged.parent.iterdir() if p.name.startswith(f"{FILE_NAME}.damaged-")]
    assert len(kept) == 1 and kept[0].read_bytes() == before
    assert f"Kept the damaged file as {kept[0]}" in err
    with Store.open() as store:
        assert load_progress(store).answers == 0


def test_a_final_round_loss_shows_in_percentage_points() -> None:
    with Store.open() as store:
        sid = store.start_session("decide", rules="classic")
        store.record_answer(
            sid, topic="final-round", item="f", question="q", answer="bank", correct_answer="roll",
            correct=False, grade="mistake", points_lost=4.0, unit="percentage points",
        )  # fmt: skip
    code, out, _ = run("progress", "--plain")
    assert code == 0
    line = next(x for x in out.splitlines() if "final-round" in x)
    assert line.rstrip().endswith("4.00 pp")
    data = json.loads(run("progress", "--json")[1])
    assert data["topics"][0]["loss_unit"] == "percentage points"


def test_progress_can_keep_to_one_rule_set() -> None:
    with Store.open() as store:
        for rules, correct in (("classic", True), ("fixed", False), ("fixed", False)):
            sid = store.start_session("score", rules=rules)
            store.record_answer(
                sid, topic="combos", item=f"c-{rules}", question="q", answer="a",
                correct_answer="a" if correct else "b", correct=correct,
                grade="right" if correct else "wrong",
            )  # fmt: skip
    every = json.loads(run("progress", "--json")[1])
    fixed = json.loads(run("progress", "--rules", "fixed", "--json")[1])
    assert (every["answers"], every["correct"], every["rules"]) == (3, 1, None)
    assert (fixed["answers"], fixed["correct"], fixed["rules"]) == (2, 0, "fixed")
    assert fixed["next"]["command"].endswith("--rules fixed")
    code, out, _ = run("progress", "--rules", "fixed", "--plain")
    assert code == 0 and out.startswith("Training on fixed rules only.\n")
    assert run("progress", "--rules", "vegas")[0] == 2


def test_stats_say_that_rules_do_not_change_them() -> None:
    code, out, err = run("stats", "--rules", "fixed", "--plain")
    assert code == 0
    assert "official daily games are always classic" in err
    assert out.startswith("No official daily games yet.")


def test_every_kind_of_session_has_a_name_in_progress() -> None:
    from farkle_trainer.store.daily import DAILY_PRACTICE
    from farkle_trainer.store.games import GAME_SESSION
    from farkle_trainer.training.drills.session import KIND as DECIDE
    from farkle_trainer.training.quizzes.session import KIND as SCORE
    from farkle_trainer.ui.views.records import KIND_LABELS

    for kind in (SCORE, DECIDE, DAILY_PRACTICE, GAME_SESSION, "challenge"):
        assert KIND_LABELS.get(kind, "").istitle() or KIND_LABELS.get(kind, "")[:1].isupper(), kind
    assert KIND_LABELS[GAME_SESSION] == "Whole games"


def test_an_answer_whose_time_an_edit_made_no_time_still_counts_in_no_week(farkle_home: Path) -> None:
    import sqlite3

    add_training()
    before = json.loads(runner.invoke(app, ["progress", "--json"]).stdout)
    with sqlite3.connect(farkle_home / "farkle.sqlite3") as db:
        db.execute("UPDATE answers SET answered_at = 'garbage' WHERE id = 1")
    result = runner.invoke(app, ["progress", "--json"])
    assert result.exit_code == 0, result.output
    after = json.loads(result.stdout)
    assert (after["answers"], after["correct"]) == (before["answers"], before["correct"])
    week_answers = sum(week["answers"] for week in after["weekly"])
    assert week_answers == sum(week["answers"] for week in before["weekly"]) - 1
    for command in (["progress"], ["learn", "--plain"]):
        assert runner.invoke(app, command).exit_code == 0


def test_force_never_writes_into_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "out.csv"
    os.mkfifo(fifo)
    result = runner.invoke(app, ["progress", "--export", str(fifo), "--force"])
    assert result.exit_code == 2
    assert result.stderr == f"Error: --export: {fifo} is not a regular file: give a file name\n"


def test_a_store_that_is_a_folder_says_the_way_on(farkle_home: Path) -> None:
    (farkle_home / FILE_NAME).mkdir(parents=True)
    result = runner.invoke(app, ["progress"])
    assert result.exit_code == 2
    assert result.stderr == (
        f"Error: {farkle_home / FILE_NAME} is a folder, not a farkle-trainer store: move it away, "
        "or keep your records elsewhere with --data-dir DIR\n"
    )


def test_reset_progress_names_the_cards_and_personal_positions_it_deletes(today: date) -> None:
    from farkle_trainer.store.rows import Mistake
    from farkle_trainer.store.schedule import MISTAKES

    # Personal positions an official game made: cards, with no answer kept.
    with Store.open() as store:
        for n in range(2):
            store.record_mistake(Mistake(f"p{n}", "keep", "q", "b", {"position": {}}))
    code, out, err = run("reset", "progress", input="n\n")
    assert code == 1 and out.strip() == "Nothing deleted."
    assert (
        "Delete all training progress (2 cards of the review schedule, all of them your personal positions) "
        in err
    )
    add_training()
    code, out, _ = run("reset", "progress", "--yes")
    assert code == 0
    assert out.strip() == (
        "Deleted all training progress (8 answers in 3 sessions; 9 cards of the review schedule, 2 of them "
        "your personal positions). Official stats are kept."
    )
    with Store.open() as store:
        assert store.card_counts() == {} and store.next_due(MISTAKES) is None
    code, out, _ = run("reset", "progress", "--yes")
    assert code == 0 and out.strip() == "Nothing to reset: no training answers."
