"""Rich views at every screen width: a table that does not fit gives way to the plain layout,
and no number is ever cut ("400.…") or left out."""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text
from test_class_report_cli import clock, folder  # noqa: F401 - fixtures for the class report
from test_records_cli import add_official, add_training

from farkle_trainer import load_rules
from farkle_trainer.engine.decisions import Position, decision_for, grade
from farkle_trainer.engine.plays import hint
from farkle_trainer.engine.scoring import explain
from farkle_trainer.engine.strategy import strategy
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.db import Store
from farkle_trainer.training.classroom.report import class_report
from farkle_trainer.training.drills.drills import summarize
from farkle_trainer.training.games.daily import official_stats
from farkle_trainer.training.lessons import all_lessons
from farkle_trainer.training.progress import GameStats, LevelRecord, load_progress
from farkle_trainer.ui.views import classroom, drills, engine, records
from farkle_trainer.ui.views import lessons as lesson_views
from farkle_trainer.ui.views.fit import fit, wrap

CLASSIC = load_rules("classic")
WIDTHS = (100, 60, 20)
NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def rendered(renderable: object, width: int) -> str:
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text()


def numbers(text: str) -> Counter[str]:
    return Counter(NUMBER.findall(text))


def check(text: str, rich: Callable[[], Any], width: int) -> str:
    out = rendered(rich(), width)
    assert "…" not in out
    assert max(len(line) for line in out.splitlines()) <= width
    missing = numbers(text) - numbers(out)
    assert not missing, f"numbers of the plain view missing at {width} columns: {missing}"
    return out


def grading(tables: Tables) -> Any:
    p = Position(CLASSIC, "final-round", 500, (5, 2, 3, 4), leader=10_000, banked=9_000)
    return grade(decision_for(tables, p), (5,), "bank")


@pytest.mark.parametrize("width", WIDTHS)
def test_engine_views_fit_every_width(tables: Tables, width: int) -> None:
    e = explain((1, 1, 1, 1, 5, 5), CLASSIC)
    check(engine.explain_text(e, "classic"), lambda: engine.explain_rich(e, "classic"), width)
    h = hint(tables, (1, 5, 2, 2, 3, 6), 300, CLASSIC)
    out = check(engine.hint_text(h), lambda: engine.hint_rich(h), width)
    assert ("┃" in out) == (width == 100)
    assert "400.00" in out and "points" in out
    reach = hint(tables, (1, 5, 2, 3), 1000, CLASSIC, need=1350)
    check(engine.hint_text(reach), lambda: engine.hint_rich(reach), width)
    s = strategy(tables, load_rules("multiplier"))
    check(engine.strategy_text(s), lambda: engine.strategy_rich(s), width)


@pytest.mark.parametrize("width", WIDTHS)
def test_drill_grading_and_summary_fit_every_width(tables: Tables, width: int) -> None:
    g = grading(tables)
    check(drills.grading_text(g), lambda: drills.grading_rich(g), width)
    s = summarize(tables, [g])
    check(
        drills.summary_text(s, planned=5, stopped=True),
        lambda: drills.summary_rich(s, planned=5, stopped=True),
        width,
    )


def test_a_drill_situation_never_wraps_inside_the_roll() -> None:
    p = Position(CLASSIC, "keep", 300, (1, 5, 2, 2, 3))
    for width in range(14, 60):
        out = rendered(drills.situation_rich(p, 2, 5), width)
        assert any("1 5 2 2 3" in line for line in out.splitlines()), out


@pytest.mark.parametrize("width", WIDTHS)
def test_progress_and_stats_fit_every_width(tables: Tables, width: int) -> None:
    add_training()
    add_official(date.today() - timedelta(days=1), 5200)
    with Store.open() as store:
        progress = load_progress(store)
        stats = official_stats(tables, store)
    check(records.progress_text(progress), lambda: records.progress_rich(progress), width)
    check(records.stats_text(stats), lambda: records.stats_rich(stats), width)
    rated = GameStats(
        levels=(
            LevelRecord(
                "easy", played=3, wins=2, shared=1, losses=0, resigned=0, average_score=1_050.5, best=1_450
            ),
            LevelRecord(
                "hard", played=4, wins=1, shared=0, losses=3, resigned=2, average_score=766.67, best=1_000
            ),
        ),
        current_streak=1,
        longest_streak=2,
    )
    check(records.game_stats_text(rated), lambda: records.game_stats_rich(rated), width)


@pytest.mark.parametrize("width", WIDTHS)
def test_class_report_and_lesson_list_fit_every_width(tables: Tables, width: int, folder: Path) -> None:  # noqa: F811
    report = class_report(tables, [folder])
    check(classroom.report_text(report), lambda: classroom.report_rich(report), width)
    lessons = all_lessons()
    status = dict.fromkeys((x.number for x in lessons), "new")
    check(
        lesson_views.list_text(lessons, status, "classic"),
        lambda: lesson_views.list_rich(lessons, status, "classic"),
        width,
    )


@pytest.mark.parametrize("width", WIDTHS)
def test_lessons_on_a_terminal_never_cut_a_number(tables: Tables, width: int) -> None:
    from farkle_trainer.training.lessons import find_lesson

    for lesson in all_lessons():
        markdown = lesson.render(tables, CLASSIC)
        out = rendered(lesson_views.lesson_rich(markdown), width)
        assert "…" not in out and "**" not in out
        missing = numbers(lesson_views.lesson_text(markdown)) - numbers(out)
        assert not missing, (lesson.number, width, missing)
    table = rendered(lesson_views.lesson_rich(find_lesson("4").render(tables, CLASSIC)), width)
    assert ("──" in table) == (width > 20)


def test_a_table_that_fits_is_drawn_and_one_that_does_not_is_plain() -> None:
    from rich.table import Table

    table = Table()
    table.add_column("value", justify="right")
    table.add_row("123,456.78")
    view = fit(table, "value: 123,456.78")
    assert "┃" in rendered(view, 40)
    assert rendered(view, 12).splitlines() == ["value:", "  123,456.78"]


def test_wrapping_never_splits_a_roll_or_a_number() -> None:
    lines = [line.plain for line in wrap(Text("Roll: 1 5 2 2 3 6, 1,350 points at stake"), 16)]
    assert lines == ["Roll:", "  1 5 2 2 3 6,", "  1,350 points", "  at stake"]


def test_wrapping_keeps_percentage_points_with_their_number() -> None:
    lines = [line.plain for line in wrap(Text("roll 56.40%  gives up 0.18 pp"), 27)]
    assert lines == ["roll 56.40%  gives up", "  0.18 pp"]


def test_narrow_progress_and_lesson_lists_keep_each_phrase_on_its_line() -> None:
    add_training()
    with Store.open() as store:
        progress = load_progress(store)
    shown = rendered(records.progress_rich(progress), 60).splitlines()
    assert "  Scoring: combos: 6 answers, 17% right (17% lately)" in shown
    assert not any(line.strip() == "decision" for line in shown)
    lessons = all_lessons()
    status = dict.fromkeys((x.number for x in lessons), "new")
    listed = rendered(lesson_views.list_rich(lessons, status, "classic"), 60).splitlines()
    assert "  7. Playing the score (new)" in listed
    assert "     farkle-train decide --kind game --target 2000" in listed
    # Plain text, which no width limits, keeps the columns the README shows.
    assert "  topic" in records.progress_text(progress)


def test_a_narrow_hint_gives_each_play_two_whole_lines(tables: Tables) -> None:
    h = hint(tables, (1, 5, 2, 2, 3, 6), 300, load_rules("classic"))
    shown = rendered(engine.hint_rich(h), 60).splitlines()
    assert max(len(line) for line in shown) <= 60
    assert "  1.  keep 1    +100  5 left  -> roll, best" in shown
    assert "    bank 350.00  roll 599.10  42.07 points" in shown
    assert engine.hint_text(h) == engine.hint_text(h, 100)  # where it fits, the columns stay


def test_a_drills_plays_each_read_on_one_line_at_60_columns(tables: Tables) -> None:
    # Keeping one 1 and banking 100 from 3 1 2 2 1 4 is a blunder: four plays are listed.
    g = grade(decision_for(tables, Position(CLASSIC, "keep", 0, (3, 1, 2, 2, 1, 4))), (1,), "bank")
    assert "gives up 303.65 points  <- your play" in drills.grading_text(g)  # --plain: no width
    narrow = rendered(drills.grading_rich(g), 60).splitlines()
    rows = [line for line in narrow if re.match(r"\s+\d\. ", line)]
    assert len(rows) == 4 and all(len(row) <= 60 for row in rows)
    assert rows[-1].split()[-4:] == ["100.00", "-303.65", "<-", "you"]
    assert "Top plays (expected turn score, and what each gives up):" in narrow
