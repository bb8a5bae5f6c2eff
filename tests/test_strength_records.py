"""The play against perfect play across games, in ``stats`` (official results) and ``progress``
(training): means, standard errors, intervals and rating differences worked out here by hand,
each game's figure from the game tables and the turn solver read directly, and which games
count where."""

from __future__ import annotations

import io
import json
import math
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from farkle_trainer.cli import app
from farkle_trainer.engine.dice import counts_of
from farkle_trainer.engine.grading import Unit
from farkle_trainer.engine.rules import PRESETS
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.solver import Objective
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.db import Store
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games.analysis import Strength
from farkle_trainer.training.games.daily import next_attempt
from farkle_trainer.training.games.dice import Seeded
from farkle_trainer.training.games.setup import Form, Level, Player, Setup, new_setup
from farkle_trainer.training.games.strength import Figure, Kind, What, lines, rating_difference
from farkle_trainer.ui.views import strength as view
from tests.factories import fifty_a_roll_days, game_banking  # noqa: F401 - a fixture used by name
from tests.plays import HARD_1000, HARD_2000, drawn_seed, greedy_script  # noqa: F401 - drawn_seed is autouse

runner = CliRunner()


def run(args: list[str], lines_in: list[str] = ()) -> str:  # type: ignore[assignment]
    done = runner.invoke(app, args, input="".join(f"{line}\n" for line in lines_in))
    assert done.exit_code == 0, done.output
    return done.stdout


def won(seat: int, given_up: float, start: float) -> Strength:
    return Strength(seat, Unit.WIN, start, given_up, 10, 8, 0.0, 1.0, 1.0)


# -- across games, by hand


def test_the_mean_its_error_interval_and_rating_difference_by_hand() -> None:
    match = Kind(What.MATCH, "classic", target=10_000)
    ten = Kind(What.TEN_TURNS, "classic")
    monday, next_monday = date(2026, 11, 2), date(2026, 11, 9)
    figures = [
        Figure(match, monday, won(0, 2.0, 0.5325)),
        Figure(match, monday, won(1, 4.0, 0.4675)),
        Figure(match, next_monday, won(0, 6.0, 0.5325)),
        Figure(ten, next_monday, Strength(0, Unit.POINTS, 5935.77, 100.0, 20, 10, 50.0, 5885.0, 5835.0)),
        Figure(ten, next_monday, Strength(0, Unit.POINTS, 5935.77, 300.0, 20, 10, -80.0, 5555.0, 5635.0)),
    ]
    two, solo = lines(figures)
    # Taking each seat in turn: 1/2 less the mean given up, 4 pp: 46%.
    assert two.mean == pytest.approx(0.46, abs=1e-15)
    # The games give 48%, 46% and 44%: a standard deviation of 2 pp, over the root of 3.
    assert two.standard_error == pytest.approx(0.02 / math.sqrt(3), abs=1e-15)
    assert two.interval == pytest.approx(
        (0.46 - 1.96 * 0.02 / math.sqrt(3), 0.46 + 1.96 * 0.02 / math.sqrt(3))
    )
    assert two.rating == pytest.approx(400 * math.log10(0.46 / 0.54), abs=1e-12)
    assert two.rating == pytest.approx(-27.86, abs=0.01)
    assert (two.perfect, two.given_up) == (0.5, pytest.approx(4.0))
    assert two.start_chance == pytest.approx((0.5325 + 0.4675 + 0.5325) / 3)
    assert two.expected_result == pytest.approx((0.5125 + 0.4275 + 0.4725) / 3)
    assert [(w.week, w.games, w.mean) for w in two.weeks] == [
        (monday, 2, pytest.approx(0.47)),
        (next_monday, 1, pytest.approx(0.44)),
    ]
    # Points: the mean of 5,835.77 and 5,635.77, the deviation of two games 141.42: an error of 100.
    assert solo.mean == pytest.approx(5735.77) and solo.standard_error == pytest.approx(100.0)
    assert (solo.perfect, solo.rating, solo.start_chance) == (pytest.approx(5935.77), None, None)
    # One game alone has no interval.
    (one,) = lines(figures[:1])
    assert one.standard_error is None and one.interval is None and one.rating_interval is None


def test_the_rating_difference_is_the_chess_players_one() -> None:
    # 64% is about 100 points: 400 log10(0.64 / 0.36) = 99.95.
    assert rating_difference(0.64) == pytest.approx(99.95, abs=0.01)
    assert rating_difference(0.5) == 0.0
    assert rating_difference(0.25) == pytest.approx(-400 * math.log10(3))
    assert (
        rating_difference(0.0) is None and rating_difference(1.0) is None and rating_difference(1.2) is None
    )


def test_the_weeks_are_a_table_in_plain_text_and_a_chart_on_a_terminal() -> None:
    match = Kind(What.MATCH, "classic", target=2_000)
    figures = [Figure(match, date(2026, 11, 2 + 7 * n), won(n % 2, float(n), 0.56)) for n in range(4)]
    found = lines(figures)
    text = "\n".join(view.strength_lines(found))
    assert "by week (from Monday, UTC): Nov 2 50.00% (1), Nov 9 49.00% (1), Nov 16 48.00% (1)" in text
    assert "a rating difference of -10" in text
    console = Console(file=io.StringIO(), width=100, color_system=None, record=True)
    console.print(view.strength_rich(found))
    drawn = console.export_text()
    assert "perfect play, 50.00%" in drawn and "Nov 23" in drawn and "two players, classic to 2,000" in drawn
    # Too narrow for a chart: the weeks in words.
    console = Console(file=io.StringIO(), width=36, color_system=None, record=True)
    console.print(view.strength_rich(found))
    assert "Nov 2 50.00% (1), Nov 9 49.00% (1)" in " ".join(console.export_text().split())


# -- each game's figure, from the tables


def person_losses(tables: Tables, state: m.MatchState) -> float:
    """The percentage points of win chance the first person's decisions gave up in a two-player
    game without house rules, read from the game table."""
    table = tables.game(state.rules, state.setup.target, 0)
    seat = state.setup.humans[0]
    lost = 0.0
    for x in state.log:
        if x.seat != seat or not x.decision:
            continue
        values = {}
        for split in score_table(state.rules).selections(counts_of(x.roll)):
            t, n = x.points + split.points, (len(x.roll) - len(split.dice)) or 6
            if x.last_turn:
                bank = table.final_bank_value(x.leader - x.score, t)
                values[(split.dice, "roll")] = table.final_roll_value(x.leader - x.score, t, n)
            else:
                bank = table.bank_value(x.score, x.leader, t)
                values[(split.dice, "roll")] = table.roll_value(x.score, x.leader, t, n)
            if bank is not None:
                values[(split.dice, "bank")] = bank
        lost += 100 * (max(values.values()) - values[(x.keep, x.action)])
    return lost


def ten_turn_losses(tables: Tables, state: m.MatchState) -> float:
    """The expected points a ten-turn game's decisions gave up, from the turn solver."""
    sol = tables.turn(state.rules, Objective.expected())
    lost = 0.0
    for x in state.log:
        if not x.decision:
            continue
        n = len(x.roll)
        values = {}
        for split in score_table(state.rules).selections(counts_of(x.roll)):
            t = x.points + split.points
            values[(split.dice, "roll")] = sol.roll_value(t, (n - len(split.dice)) or 6)
            values[(split.dice, "bank")] = float(t)
        lost += max(values.values()) - values[(x.keep, x.action)]
    return lost


def hard_setup(target: int) -> Setup:
    return new_setup((Player("You"), Player("Hard", Level.HARD)), target=target, dice=Seeded("3"))


@pytest.mark.usefixtures("fifty_a_roll_days")
def test_stats_average_rated_games_and_official_daily_games(tables: Tables, farkle_home: Path) -> None:
    games = [greedy_script(tables, hard_setup(2_000), bank_at=bank) for bank in (300, 500)]
    for lines_in, _ in games:
        run(HARD_2000, lines_in)
    day = date(2026, 11, 2)
    with Store.open(clock=lambda: datetime(2026, 11, 2, 8, tzinfo=UTC)) as store:
        attempt = next_attempt(store, day, day)
        daily = game_banking(day, 1_000)
        version = store.save_daily_state(attempt.id, daily.to_dict(), version=attempt.version)
        store.finish_daily(attempt.id, score=1_000, perfect_score=None, marks="", turns=[], version=version)
    data = json.loads(run(["stats", "--json"]))
    two, ten = data["strength"]
    figures = [0.5 - person_losses(tables, state) / 100 for _, state in games]
    assert (two["what"], two["rules"], two["target"], two["games"]) == ("match", "classic", 2000, 2)
    assert two["mean"] == pytest.approx(sum(figures) / 2, abs=1e-12)
    assert two["standard_error"] == pytest.approx(abs(figures[0] - figures[1]) / 2, abs=1e-12)
    assert two["rating"] == pytest.approx(400 * math.log10(two["mean"] / (1 - two["mean"])), abs=1e-9)
    perfect = 10 * tables.turn(daily.rules, Objective.expected()).roll_value(0, 6)
    assert (ten["what"], ten["games"], ten["perfect"]) == ("ten-turns", 1, pytest.approx(perfect, abs=1e-9))
    assert ten["mean"] == pytest.approx(perfect - ten_turn_losses(tables, daily), abs=1e-9)
    assert ten["standard_error"] is None and ten["rating"] is None
    # Rated results stay as they were.
    assert data["rated_games"]["played"] == 2
    text = run(["stats", "--plain"])
    assert "Your play against perfect play in official games" in text
    assert f"two players, classic to 2,000: 2 games; {100 * two['mean']:.2f}% against perfect play" in text
    assert f"ten turns, classic: 1 game; {ten['mean']:,.2f} points a game" in text


def played(tables: Tables, setup: Setup, *args: str) -> m.MatchState:
    """``play`` with ``args``, answered by :func:`greedy_script` on ``setup``'s dice (no to a game
    more); the game it gives."""
    answers, game = greedy_script(tables, setup)
    run(["play", *args, "--plain"], [*answers, "n"])
    return game


def test_progress_averages_the_owners_training_games_only(tables: Tables, farkle_home: Path) -> None:
    solo = played(
        tables,
        new_setup((Player("You"),), form=Form.TEN_TURNS, dice=Seeded("11", chosen=True)),
        "--solo",
        "--seed",
        "11",
    )
    hard = played(tables, hard_setup(1_000), "--vs", "hard", "--target", "1000")
    # Pass and play and three players do not count.
    pair = new_setup((Player("Ann"), Player("Bob")), target=1_000, dice=Seeded("5", chosen=True))
    played(tables, pair, "--players", "Ann,Bob", "--target", "1000", "--seed", "5")
    players = (Player("You"), Player("Easy", Level.EASY), Player("Hard", Level.HARD))
    played(
        tables,
        new_setup(players, target=1_000, dice=Seeded("6", chosen=True)),
        "--vs",
        "easy,hard",
        "--target",
        "1000",
        "--seed",
        "6",
    )
    # Another rule set counts on its own line, and alone under --rules.
    fixed = new_setup(
        (Player("You"), Player("Hard", Level.HARD)),
        PRESETS["fixed"],
        target=1_000,
        dice=Seeded("7", chosen=True),
    )
    fixed_game = played(tables, fixed, "--vs", "hard", "--rules", "fixed", "--target", "1000", "--seed", "7")
    data = json.loads(run(["progress", "--json"]))
    kinds = [(x["what"], x["rules"], x["target"], x["games"]) for x in data["strength"]]
    assert kinds == [
        ("match", "classic", 1000, 1),
        ("match", "fixed", 1000, 1),
        ("ten-turns", "classic", None, 1),
    ]
    two, two_fixed, ten = data["strength"]
    assert two["mean"] == pytest.approx(0.5 - person_losses(tables, hard) / 100, abs=1e-12)
    assert two_fixed["mean"] == pytest.approx(0.5 - person_losses(tables, fixed_game) / 100, abs=1e-12)
    assert ten["mean"] == pytest.approx(ten["perfect"] - ten_turn_losses(tables, solo), abs=1e-9)
    only = json.loads(run(["progress", "--json", "--rules", "fixed"]))["strength"]
    assert [(x["rules"], x["games"]) for x in only] == [("fixed", 1)]
    text = run(["progress", "--plain"])
    assert "Your play against perfect play in training games" in text
    assert "two players, classic to 1,000: 1 game;" in text and "one game: no interval yet" in text
