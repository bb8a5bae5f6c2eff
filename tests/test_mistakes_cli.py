"""``decide --mistakes`` as a user meets it: a game's mistakes come back, graded as the game
graded them; the daily game's, a challenge's and a drill's too; nothing of it in the stats."""

from __future__ import annotations

import json
import re
import sqlite3
from datetime import date
from pathlib import Path

import pytest
from plays import greedy_script
from test_challenge_cli import greedy
from test_challenge_cli import script as challenge_script
from test_daily_cli import NOON, SCRIPT, feed
from typer.testing import CliRunner

import farkle_trainer.cli.daily as daily_cli
from farkle_trainer.cli import app
from farkle_trainer.engine.decisions import decision_for
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.db import Store
from farkle_trainer.store.paths import store_path
from farkle_trainer.store.schedule import MISTAKES
from farkle_trainer.training.games import dice as game_dice
from farkle_trainer.training.games.analysis import Review, review
from farkle_trainer.training.games.daily import load_state
from farkle_trainer.training.games.dice import Seeded, seeded_source
from farkle_trainer.training.games.match import MatchState
from farkle_trainer.training.games.setup import Form, Level, Player, Setup, new_setup
from farkle_trainer.training.mistakes import game_position, personal_key
from farkle_trainer.training.progress import load_progress, load_stats
from farkle_trainer.ui.views.drills import NO_MISTAKES

runner = CliRunner()
#: ``play --solo --seed 7``: the ten-turn game on the dice of seed 7.
SOLO_7 = Setup((Player("You"),), form=Form.TEN_TURNS, dice=Seeded("7", chosen=True))


def cli(args: list[str], lines: list[str] | str = "") -> tuple[int, str, str]:
    stdin = lines if isinstance(lines, str) else feed(lines)
    result = runner.invoke(app, args, input=stdin)
    return result.exit_code, result.stdout, result.stderr


def mistakes_of(tables: Tables, state: MatchState) -> dict[str, Review]:
    """Each position the game's decisions graded an inaccuracy or worse were made in, by its key
    (the last such decision of a position), worked out from the game's own review."""
    found = {}
    for r in review(tables, state):
        if not r.right:
            found[personal_key(game_position(state.setup, r.move))] = r
    return found


def cards(home: Path) -> dict[str, tuple[int, int]]:
    """The personal positions' cards: (seen, wrong) by key."""
    with sqlite3.connect(store_path(home)) as db:
        rows = db.execute("SELECT item, seen, wrong FROM items WHERE kind = ?", (MISTAKES,)).fetchall()
    return {item: (seen, wrong) for item, seen, wrong in rows}


def answer_lines(tables: Tables, r: Review, keep: tuple[int, ...], action: str) -> list[str]:
    """What a person types in the drill of ``r``'s position to play ``keep`` and ``action``: the
    dice only where the drill asks for them."""
    d = decision_for(tables, game_position(SOLO_7, r.move))
    return ([" ".join(map(str, keep))] if len(d.keeps) > 1 else []) + [action[0]]


def test_a_game_with_a_blunder_comes_back_graded_as_the_game_graded_it(
    tables: Tables, farkle_home: Path
) -> None:
    lines, state = greedy_script(tables, SOLO_7, bank_at=100)
    code, out, err = cli(["play", "--solo", "--seed", "7", "--plain"], lines)
    assert code == 0, err
    expected = mistakes_of(tables, state)
    assert len(expected) >= 3
    assert {key: wrong for key, (_, wrong) in cards(farkle_home).items()} == {
        key: sum(
            1
            for r in review(tables, state)
            if not r.right and personal_key(game_position(SOLO_7, r.move)) == key
        )
        for key in expected
    }
    code, out, _ = cli(["progress", "--json"])
    data = json.loads(out)
    assert (data["due_now"], data["due_today"]) == (len(expected), len(expected))
    assert data["due_today_by_kind"] == {MISTAKES: len(expected)}
    assert data["forecast"] == [0] * 7
    assert (data["days_trained"], data["days_trained_last_28"], data["due_for_review"]) == (
        1,
        1,
        len(expected),
    )

    # The first asked is the first by key (every card was made at the game's end): replay the
    # game's own play there, and the drill grades it as the game did, in the same unit.
    first = min(expected)
    r = expected[first]
    played = answer_lines(tables, r, r.move.keep, r.move.action)
    code, out, err = cli(["decide", "--mistakes", "--count", "1", "--plain", "--json"], played)
    assert code == 0, err
    assert (
        err.splitlines()[0]
        == f"Your mistakes: 1 of the {len(expected)} due, the longest overdue first (--count for more)."
    )
    result = json.loads(out)
    [answer] = result["answers"]
    assert (result["activity"], answer["item"], answer["topic"]) == (MISTAKES, first, "keep")
    assert (answer["grade"], answer["points_lost"], answer["unit"]) == (r.grade.value, r.lost, "points")
    assert result["averages"] == [
        {"graded_by": "points", "unit": "points", "decisions": 1, "average_lost": r.lost}
    ]
    assert (
        cards(farkle_home)[first][1]
        == sum(
            1
            for m in review(tables, state)
            if not m.right and personal_key(game_position(SOLO_7, m.move)) == first
        )
        + 1
    )

    # Played the best way, it goes days out and the rest stay due.
    best = answer_lines(tables, r, r.best_keep, r.best_action)
    code, out, err = cli(["decide", "--mistakes", "--count", "1", "--plain"], best)
    assert code == 0, err
    assert "Best: that is the best play." in err + out
    with Store.open(farkle_home) as store:
        due = load_progress(store).due
        assert (due.now, due.due_today) == (len(expected) - 1, len(expected) - 1)
        assert sum(due.forecast) == 1
        # Training only: the stats never hear of it.
        assert load_stats(store).games_played == 0 and store.games()[0].rated is False


def test_nothing_due_says_so_and_when_the_next_comes_back(farkle_home: Path) -> None:
    code, out, err = cli(["decide", "--mistakes", "--plain"])
    assert (code, out, err) == (0, NO_MISTAKES + "\n", "")
    # A blunder in a drill, then the same position played well from the mistakes.
    code, out, _ = cli(["decide", "--kind", "keep", "--seed", "5", "--count", "1", "--plain"], ["1", "b"])
    assert code == 0 and "Blunder" in out
    code, out, _ = cli(["decide", "--mistakes", "--plain"], ["1", "r"])
    assert code == 0 and out.splitlines()[0] == "Your mistakes: 1 due, the longest overdue first."
    code, out, _ = cli(["decide", "--mistakes", "--plain"])
    assert code == 0
    assert re.fullmatch(
        r"No mistakes due now: the next comes back in 1 day, "
        r"on \d{4}-\d\d-\d\d at \d\d:\d\d UTC\.\n",
        out,
    ), out
    code, out, _ = cli(["decide", "--mistakes", "--kind", "game", "--plain"])
    assert code == 0 and out.startswith("No mistakes due now")


def test_a_kind_asked_for_leaves_the_others_due(farkle_home: Path) -> None:
    cli(["decide", "--kind", "keep", "--seed", "5", "--count", "1", "--plain"], ["1", "b"])
    code, out, _ = cli(["decide", "--mistakes", "--kind", "solo", "--plain"])
    assert (code, out) == (
        0,
        "None of your mistakes due now is a drill of solo; 1 of other kinds are: "
        "farkle-train decide --mistakes\n",
    )


def test_the_official_daily_games_mistakes_come_back_and_the_stats_stay(
    tables: Tables, monkeypatch: pytest.MonkeyPatch, farkle_home: Path
) -> None:
    monkeypatch.setattr(daily_cli, "clock", lambda: NOON)
    code, _, err = cli(["daily", "--plain"], SCRIPT)
    assert code == 0, err
    with Store.open(farkle_home, clock=lambda: NOON) as store:
        attempt = store.daily_attempt(date(2026, 11, 29), official=True)
        assert attempt is not None
        expected = mistakes_of(tables, load_state(attempt))
        stats = load_stats(store, date(2026, 11, 29))
        progress = load_progress(store)
    assert (stats.games_played, stats.best.score) == (1, 4550)  # type: ignore[union-attr]
    assert progress.answers == 0  # an official game's decisions are never training answers
    assert set(cards(farkle_home)) == set(expected) and len(expected) >= 3
    assert (progress.due.now, progress.due.today_by_kind) == (len(expected), ((MISTAKES, len(expected)),))


def test_a_challenges_mistakes_come_back(tables: Tables, farkle_home: Path) -> None:
    lines, state = challenge_script(tables, "MATH7B", greedy)
    code, _, err = cli(["challenge", "MATH7B", "--plain"], lines)
    assert code == 0, err
    expected = mistakes_of(tables, state)
    assert set(cards(farkle_home)) == set(expected) and expected


def test_options_that_fix_other_drills_are_refused_or_said_to_be_unused(farkle_home: Path) -> None:
    code, _, err = cli(["decide", "--mistakes", "--seed", "3"])
    assert (
        code == 2
        and err.strip() == "Error: --mistakes drills your own positions, for no class: leave out --seed"
    )
    code, _, err = cli(["decide", "--mistakes", "--code", "MATH7B", "--seed", "3", "--save-result", "a.json"])
    assert code == 2 and "leave out --seed, --code and --save-result" in err
    code, out, _ = cli(["decide", "--mistakes", "--json"])
    assert code == 0 and json.loads(out) == {
        "activity": "mistakes", "rules": None, "seed": None, "code": None, "planned": 0, "decisions": 0,
        "stopped": False, "grades": {"best": 0, "fine": 0, "inaccuracy": 0, "mistake": 0, "blunder": 0},
        "averages": [], "average_points": None, "rating": None, "strength": [], "worst": None,
        "answers": [],
    }  # fmt: skip
    code, out, _ = cli(["decide", "--mistakes", "--level", "hard", "--target", "2000", "--plain"])
    assert code == 0
    assert out.splitlines() == [
        "Not used: --level (your mistakes come back as they were made).",
        "Not used: --target (each of your mistakes keeps its own game's target).",
        NO_MISTAKES,
    ]


def test_a_mistake_under_a_rule_file_is_skipped_once_the_file_is_gone(
    tmp_path: Path, farkle_home: Path
) -> None:
    table = tmp_path / "kitchen.toml"
    table.write_text('name = "kitchen"\n[three_of_a_kind]\none = 300\n')
    code, out, _ = cli(
        ["decide", "--rules", str(table), "--kind", "keep", "--seed", "5", "--count", "1", "--plain"],
        ["5", "b"],
    )
    assert code == 0 and "(kitchen rules)" in out and "Blunder" in out
    assert len(cards(farkle_home)) == 1
    table.unlink()
    code, out, _ = cli(["decide", "--mistakes", "--plain"])
    assert (code, out.splitlines()) == (
        0,
        [
            f"Skipped 1 of your mistakes: the rule file {table} is gone or cannot be read.",
            "No other mistakes are due now.",
        ],
    )


def test_a_rated_games_mistakes_come_back_and_it_stays_rated(
    tables: Tables, monkeypatch: pytest.MonkeyPatch, farkle_home: Path
) -> None:
    # A rated game draws its dice as they are rolled: here, the dice of seed 3.
    monkeypatch.setattr(game_dice, "drawn_source", lambda: seeded_source(Stream("match:3")))
    setup = new_setup((Player("You"), Player("Hard", Level.HARD)), target=2000, dice=Seeded("3"))
    lines, state = greedy_script(tables, setup, bank_at=600)
    code, _, err = cli(["play", "--vs", "hard", "--target", "2000", "--plain"], lines)
    assert code == 0, err
    expected = mistakes_of(tables, state)
    assert set(cards(farkle_home)) == set(expected) and expected
    assert all(key.startswith("game:classic:") for key in expected)
    with Store.open(farkle_home) as store:
        [game] = store.games()
        assert game.rated and store.rated_games() == [game]
        assert load_progress(store).answers == 0  # a rated game's decisions are official


def test_a_game_on_a_rule_file_keeps_the_file_for_its_mistakes(
    tables: Tables, tmp_path: Path, farkle_home: Path
) -> None:
    from farkle_trainer import load_rules

    table = tmp_path / "kitchen.toml"
    table.write_text('name = "kitchen"\n[three_of_a_kind]\none = 300\n')
    setup = Setup((Player("You"),), load_rules(table), Form.TEN_TURNS, dice=Seeded("7", chosen=True))
    lines, state = greedy_script(tables, setup, bank_at=100)
    code, _, err = cli(["play", "--solo", "--seed", "7", "--rules", str(table), "--plain"], lines)
    assert code == 0, err
    expected = mistakes_of(tables, state)
    assert set(cards(farkle_home)) == set(expected) and expected
    with Store.open(farkle_home) as store:
        assert store.games()[0].state["rules_file"] == str(table)  # type: ignore[index]
        [item] = store.due_items(MISTAKES, limit=1)
        assert item.extra["rules"]["file"] == str(table)  # type: ignore[index]
    code, out, _ = cli(["decide", "--mistakes", "--count", "1", "--plain"], "q\n")
    assert code == 0 and "(kitchen rules)" in out
    table.write_text('name = "kitchen"\n[three_of_a_kind]\none = 400\n')
    code, out, _ = cli(["decide", "--mistakes", "--plain"])
    assert out.splitlines() == [
        f"Skipped {len(expected)} of your mistakes: the rule file {table} has changed since.",
        "No other mistakes are due now.",
    ]


@pytest.mark.parametrize(
    "carried_on", [["play", "--resume", "--plain"], ["play", "--solo", "--plain", "--seed", "7"]]
)
def test_a_game_on_a_rule_file_carried_on_and_played_again_keeps_the_file(
    tables: Tables, tmp_path: Path, farkle_home: Path, carried_on: list[str]
) -> None:
    from farkle_trainer import load_rules

    table = tmp_path / "kitchen.toml"
    table.write_text('name = "kitchen"\n[three_of_a_kind]\none = 300\n')
    setup = Setup((Player("You"),), load_rules(table), Form.TEN_TURNS, dice=Seeded("7", chosen=True))
    lines, _ = greedy_script(tables, setup, bank_at=100)
    code, _, err = cli(["play", "--solo", "--seed", "7", "--rules", str(table), "--plain"], [lines[0], "q"])
    assert code == 0, err
    # Carried on (by --resume, or by a yes when a game on the classic table is asked for), then
    # played again: the game played again is the same game, on the same rule file.
    offered = carried_on[1] != "--resume"
    code, out, err = cli(carried_on, [*(["y"] if offered else []), *lines[1:], "y", "q"])
    assert code == 0, err
    assert out.count("Farkle solo: 10 turns for the highest score (kitchen table).") == 2, out
    with Store.open(farkle_home) as store:
        again, first = store.games()
        assert first.finished and not again.finished
        assert again.state["rules_file"] == first.state["rules_file"] == str(table)  # type: ignore[index]


def test_a_drill_missed_is_one_card_due_today_drilled_by_both_commands(farkle_home: Path) -> None:
    # Keeping 1 and banking 100 from 3 1 2 2 1 4 is a blunder (rolling 5 dice is worth 403.65).
    assert cli(["decide", "--kind", "keep", "--seed", "5", "--count", "1", "--plain"], ["1", "b"])[0] == 0
    code, out, _ = cli(["progress", "--json"])
    data = json.loads(out)
    assert (data["due_today"], data["due_now"], data["due_today_by_kind"]) == (1, 1, {"mistakes": 1})
    plain = cli(["progress", "--plain"])[1].splitlines()
    assert "Due today: 1 of your mistakes." in plain
    assert "Your mistakes due now: 1 (farkle-train decide --mistakes)." in plain
    # What to practise next is the mistake due, ahead of the quiz's weakest topics.
    assert data["next"] == {
        "command": "farkle-train decide --mistakes",
        "reason": "1 of your mistakes is due now.",
    }
    # It comes back in decide --mistakes, played well there: the same card, a day out.
    code, out, _ = cli(["decide", "--mistakes", "--plain"], ["1", "r"])
    assert code == 0 and "Your mistakes: 1 due" in out and "Best: that is the best play." in out
    [(seen, wrong)] = cards(farkle_home).values()
    assert (seen, wrong) == (2, 1)
    with Store.open(farkle_home) as store:
        assert store.due_items("decide") == [] and store.due_items(MISTAKES) == []


def test_a_game_says_how_many_of_its_decisions_became_personal_positions(
    tables: Tables, farkle_home: Path
) -> None:
    # Against Hard to 1,000 on seed 12, banking only at 1,000: two decisions are mistakes.
    you_and_hard = (Player("You"), Player("Hard", Level.HARD))
    setup = new_setup(you_and_hard, target=1000, dice=Seeded("12", chosen=True))
    lines, state = greedy_script(tables, setup, bank_at=1000)
    positions = mistakes_of(tables, state)
    assert len(positions) == 2
    code, out, _ = cli(["play", "--vs", "hard", "--target", "1000", "--seed", "12", "--plain"], [*lines, "n"])
    assert code == 0
    assert (
        "2 of your decisions, inaccuracies or worse, are now personal positions: farkle-train decide "
        "--mistakes drills them now, and again whenever they are due; farkle-train progress shows what "
        "is due."
    ) in out.splitlines()
    assert set(cards(farkle_home)) == set(positions)
    code, out, _ = cli(["review", "1", "--plain"])
    assert (
        "2 of your decisions, inaccuracies or worse, are personal positions: farkle-train decide --mistakes "
        "drills them when they are due (2 due now); farkle-train progress shows what is due."
    ) in out.splitlines()
    # Once the positions are gone, the review no longer speaks of them.
    assert cli(["reset", "progress", "--yes"])[0] == 0
    assert "personal position" not in cli(["review", "1", "--plain"])[1]


@pytest.mark.parametrize(
    ("mistakes", "positions", "due", "said"),
    [
        (1, 1, None, "1 of your decisions, an inaccuracy or worse, is now a personal position: farkle-train "
         "decide --mistakes drills it now, and again whenever it is due"),
        (3, 2, None, "3 of your decisions, inaccuracies or worse, are now 2 personal positions (the same "
         "position twice is one): farkle-train decide --mistakes drills them now, and again whenever "
         "they are due"),
        (2, 2, 0, "2 of your decisions, inaccuracies or worse, are personal positions: farkle-train decide "
         "--mistakes drills them when they are due (none due now)"),
    ],
)  # fmt: skip
def test_the_personal_positions_line(mistakes: int, positions: int, due: int | None, said: str) -> None:
    from farkle_trainer.ui.views.drills import personal_line

    assert (
        personal_line(mistakes, positions, due_now=due) == f"{said}; farkle-train progress shows what is due."
    )


def test_mistakes_skipped_for_one_reason_are_told_in_one_line_of_the_right_number() -> None:
    from datetime import UTC, datetime

    from farkle_trainer.store.rows import ItemState
    from farkle_trainer.training.mistakes import Skipped, revive
    from farkle_trainer.ui.views.drills import skipped_lines

    now = datetime(2026, 1, 1, tzinfo=UTC)

    def card(item: str) -> ItemState:
        return ItemState(
            kind=MISTAKES, item=item, topic="keep", due_at=now, last_seen=now, seen=1, wrong=1,
            last_correct=False, question="", correct_answer="", extra={"rules": [1, 2]},
            state=1, step=0, stability=None, difficulty=None, reviewed_at=None,
        )  # fmt: skip

    unread = [revive(card(f"p{i}")) for i in range(3)]
    assert all(isinstance(s, Skipped) for s in unread)
    assert skipped_lines([s for s in unread if isinstance(s, Skipped)]) == [
        "Skipped 3 of your mistakes: their records cannot be read."
    ]
    assert skipped_lines([s for s in unread[:1] if isinstance(s, Skipped)]) == [
        "Skipped 1 of your mistakes: its record cannot be read."
    ]
