"""Lessons: every figure filled from the engine, every quoted command valid, reading recorded."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from factories import interactive_frontend
from prompt_toolkit.input import PipeInput
from typer.main import get_command
from typer.testing import CliRunner

from farkle_trainer import load_rules
from farkle_trainer.cli import app
from farkle_trainer.engine.decisions import Kind, Position, decision_for, points_choice
from farkle_trainer.engine.rules import PRESETS, Rules
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.db import Store
from farkle_trainer.training.lessons import (
    FIGURES,
    TemplateError,
    all_lessons,
    fill,
    find_lesson,
    lesson_status,
    lessons_dir,
)
from farkle_trainer.training.progress import load_stats

VARIANT = Rules(
    name="variant",
    triples=(300, 200, 300, 400, 500, 600),
    straight=2500,
    three_pairs=750,
    four_of_a_kind_and_pair=1500,
    two_triplets=None,
    partial_straight_low=500,
)
ALL_RULES = [*PRESETS.values(), VARIANT]


def test_there_are_seven_lessons_in_order() -> None:
    lessons = all_lessons()
    assert [x.number for x in lessons] == [1, 2, 3, 4, 5, 6, 7]
    assert lessons_dir().name == "lessons"


@pytest.mark.parametrize("rules", ALL_RULES, ids=[r.name for r in ALL_RULES])
def test_every_lesson_renders_with_no_unfilled_field(tables: Tables, rules: Rules) -> None:
    for lesson in all_lessons():
        text = lesson.render(tables, rules)
        assert "{{" not in text and "}}" not in text, lesson.slug
        assert lesson.practice in text


def test_figures_follow_the_rules(tables: Tables) -> None:
    bank = find_lesson("5")
    multiplier = bank.render(tables, load_rules("multiplier"))
    classic = bank.render(tables, load_rules("classic"))
    solution = tables.turn(load_rules("multiplier"))
    assert f"| 5 | {solution.roll_while_at_most(5):,} |" in multiplier
    assert "579.62" in multiplier and "593.58" in classic
    combos = find_lesson("combinations")
    fixed = " ".join(combos.render(tables, load_rules("fixed")).split())
    assert "Under fixed rules the table has four of a kind and a pair: 2-2-2-2-3-3 is 1,500." in fixed
    classic = " ".join(combos.render(tables, load_rules("classic")).split())
    assert "Under classic rules the table has no four of a kind and a pair" in classic


@pytest.mark.parametrize("rules", ALL_RULES, ids=[r.name for r in ALL_RULES])
def test_playing_the_score_quotes_the_game_solver(tables: Tables, rules: Rules) -> None:
    text = " ".join(find_lesson("7").render(tables, rules).split())
    table = tables.game(rules, 2000)
    head = table.fair_head_start()
    assert head is not None
    assert f"the first player wins {100 * table.win_chance(0, 0):.2f}% of games to 2,000" in text
    assert f"an edge of {100 * table.win_chance(0, 0) - 50:.2f} percentage points" in text
    # The fair head start: the smallest at which the first player is no better than even.
    assert table.win_chance(0, head) <= 0.5 < table.win_chance(0, head - 50)
    assert f"A head start of {head:,} is the smallest" in text
    behind = table.roll_while_at_most(500, 1750, 3)
    assert behind is not None and behind > (table.roll_while_at_most(0, 0, 3) or 0)
    assert f"roll three dice while the turn is at most {behind:,}" in text
    # The position where points and winning disagree, as the drill of the lesson grades it.
    p = Position(rules, Kind.GAME, 800, (1, 5, 2, 3, 6), banked=1250, opponent=1750, target=2000)
    d = decision_for(tables, p)
    assert (d.best.keep, d.best.action) == ((1,), "roll")
    assert points_choice(d) == d.choice((1, 5), "bank")
    bank = 1.0 - table.final_turn_chance(2200 - 1750)  # the opponent's last turn to pass 2,200
    assert f"banking wins only {100 * bank:.2f}% of the time" in text
    assert f"rolling four dice wins {100 * d.best.value.amount:.2f}%" in text
    assert f"{d.choice((1, 5), 'bank').value.amount:.4f}" == f"{bank:.4f}"
    solo = tables.solo(rules, 2000)
    assert f"perfect play needs {solo.expected_turns(0):.2f} turns" in text
    assert find_lesson("7").practice == "farkle-train decide --kind game --target 2000"


def test_every_figure_is_used_somewhere() -> None:
    text = "".join(x.template for x in all_lessons())
    used = set(re.findall(r"\{\{\s*([a-z_]+)", text))
    assert used == set(FIGURES)


@pytest.mark.parametrize(
    ("template", "message"),
    [
        ("{{ nonsense }}", "unknown figure"),
        ("{{ threshold }}", "takes 1 to 2 numbers"),
        ("{{ score 7 }}", "not a die face"),
        ("{{ straight 1 }}", "takes 0 to 0 numbers"),
        ("{{ score 1, 5 }}", "cannot read the figure"),
    ],
)
def test_bad_figures_are_errors(tables: Tables, template: str, message: str) -> None:
    with pytest.raises(TemplateError, match=message):
        fill(tables, template, load_rules())


def test_fill_leaves_plain_text_alone(tables: Tables) -> None:
    assert fill(tables, "no figures here", load_rules()) == "no figures here"
    assert fill(tables, "{{ score 1 1 1 1 }}!", load_rules()) == "1,100!"


def quoted_commands() -> list[str]:
    found = []
    for lesson in all_lessons():
        found += re.findall(r"farkle-train [^`\n]+", lesson.template)
    return sorted(set(c.strip() for c in found))


@pytest.mark.parametrize("command", quoted_commands())
def test_every_quoted_command_parses(command: str) -> None:
    group = get_command(app)
    args = shlex.split(command)[1:]
    with group.make_context("farkle-train", list(args), resilient_parsing=False) as ctx:
        name, sub, rest = group.resolve_command(ctx, args)  # type: ignore[attr-defined]
        assert sub is not None, command
        try:
            sub.make_context(name, rest, parent=ctx)
        except Exception as exc:  # pragma: no cover - the parser's own usage error, shown on failure
            pytest.fail(f"{command}: {exc}")


def test_find_lesson_by_number_or_name() -> None:
    assert find_lesson("3").slug == "combinations"
    assert find_lesson("bank-or-roll").number == 5
    assert find_lesson("Scoring").number == 2
    with pytest.raises(ValueError, match="no lesson"):
        find_lesson("12")


def test_status_new_read_practised() -> None:
    lessons = all_lessons()
    status = lesson_status(lessons, {2, 3}, {("score", "combos")})
    assert status[1] == "new" and status[2] == "read" and status[3] == "practised"
    # The drill practised without the lesson read: the lesson is still new.
    assert lesson_status(lessons, set(), {("score", "combos")})[3] == "new"
    assert find_lesson("5").practice_topic == ("decide", "bank-or-roll")


runner = CliRunner()


def test_learn_lists_and_reads(farkle_home: Path) -> None:
    listed = runner.invoke(app, ["learn"])
    assert listed.exit_code == 0
    assert "1. The turn" in listed.stdout and "new" in listed.stdout
    read = runner.invoke(app, ["learn", "3", "--rules", "fixed"])
    assert read.exit_code == 0
    assert read.stdout.startswith("3. Six-dice combinations")
    assert "farkle-train score --topic combos" in read.stdout
    again = runner.invoke(app, ["learn"])
    line = next(x for x in again.stdout.splitlines() if "Six-dice combinations" in x)
    assert " read " in line
    with Store.open() as store:
        assert store.lessons_read() == {3}
        assert load_stats(store).games_played == 0


def test_learn_unknown_lesson_is_one_line() -> None:
    result = runner.invoke(app, ["learn", "99"])
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: no lesson '99'")


@pytest.mark.parametrize("lesson", ["2", "5", "7"])
def test_yes_after_a_lesson_starts_its_drill(
    lesson: str, pipe: PipeInput, monkeypatch: pytest.MonkeyPatch
) -> None:
    from farkle_trainer.cli import learn

    front, _ = interactive_frontend(pipe)
    monkeypatch.setattr(learn, "open_terminal", lambda plain: front)
    pipe.send_text("y")
    # The drill reads the rest as typed lines: it stops at once.
    result = runner.invoke(app, ["learn", lesson], input="q\n")
    assert result.exit_code == 0, result.output
    assert "No such option" not in result.output
    drill = find_lesson(lesson).practice.split()[1]
    assert {"score": "Scoring quiz", "decide": "Decision"}[drill] in result.stdout


def test_lesson_7_under_a_penalty_takes_its_figures_from_the_penalty_game(tables: Tables) -> None:
    penalty = PRESETS["classic"].with_house_rules(three_farkle_penalty=1000)
    text = " ".join(find_lesson("7").render(tables, penalty).split())
    table = tables.game(penalty, 2000)
    assert f"At 0 to 0 the first player wins {100 * table.first_player_chance:.2f}% of games" in text
    assert table.first_player_chance != tables.game(PRESETS["classic"], 2000).first_player_chance
    assert "three-Farkle penalty of 1,000, the figures are for players with no Farkles in a row" in text
    assert "penalty" not in " ".join(find_lesson("7").render(tables, PRESETS["classic"]).split())
