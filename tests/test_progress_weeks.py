"""``progress``: what decisions gave up in each of their units, and how a learner does week by
week, as a chart on a terminal, a table in plain text and data in JSON."""

from __future__ import annotations

import io
import json
import re
from datetime import UTC, date, datetime, timedelta

import pytest
from rich.console import Console
from typer.testing import CliRunner

from farkle_trainer.cli import app
from farkle_trainer.store.db import Store
from farkle_trainer.training.progress import WEEKS, load_progress, week_of
from farkle_trainer.ui.chart import MARKS
from farkle_trainer.ui.views import records as view

runner = CliRunner()
#: A Wednesday: its week starts on Monday 2026-11-02.
START = datetime(2026, 11, 4, 18, 0, tzinfo=UTC)


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def record(
    kind: str,
    topic: str,
    outcomes: list[bool],
    *,
    at: datetime,
    lost: list[float] | None = None,
    unit: str = "points",
    rules: str = "classic",
) -> None:
    """A session of ``kind`` at ``at``: an answer for each outcome (right or not), with its loss."""
    with Store.open(clock=lambda: at) as store:
        sid = store.start_session(kind, rules=rules)
        for n, ok in enumerate(outcomes):
            store.record_answer(
                sid,
                topic=topic,
                item=f"{topic}:{at.isoformat()}:{n}",
                question=f"question {n}",
                answer="a",
                correct_answer="a" if ok else "b",
                correct=ok,
                grade="right" if ok else "wrong",
                points_lost=None if lost is None else lost[n],
                unit=unit,  # type: ignore[arg-type]
            )


# -- the headline: every unit, each with its own count


@pytest.fixture
def mixed() -> None:
    """About fifteen decisions: 2 graded in points, 10 in chances (final rounds and games), 3 in turns."""
    record("decide", "keep", [False, True], at=START, lost=[300.0, 3.66])
    record(
        "decide",
        "final-round",
        [True] * 4 + [False] * 2,
        at=START,
        lost=[0.0] * 4 + [2.5, 3.5],
        unit="percentage points",
    )
    record(
        "decide",
        "game",
        [True, False, True, False],
        at=START,
        lost=[0.1, 1.3, 0.0, 2.1],
        unit="percentage points",
    )
    record("decide", "solo", [True, False, True], at=START, lost=[0.0, 0.03, 0.006], unit="turns")


@pytest.mark.usefixtures("mixed")
def test_the_headline_has_every_unit_with_its_own_count() -> None:
    points = (300.0 + 3.66) / 2
    chances = (2.5 + 3.5 + 0.1 + 1.3 + 2.1) / 10
    turns = 0.036 / 3
    expected = [
        f"Points lost per decision: {points:,.2f} on average over 2 decisions (0 is perfect play).",
        f"Chances lost per decision: {chances:.2f} percentage points on average over 10 decisions "
        "(of the chance to pass the leader or to win).",
        f"Turns lost per decision: {turns:.3f} on average over 3 decisions "
        "(expected turns to reach a solo target).",
    ]
    code, out, _ = run("progress", "--plain")
    assert code == 0
    lines = out.splitlines()
    assert all(line in lines for line in expected)
    with Store.open() as store:
        summary = load_progress(store)
    console = Console(width=200, record=True, file=io.StringIO(), color_system=None)
    console.print(view.progress_rich(summary))
    shown = [line.rstrip() for line in console.export_text().splitlines()]
    assert all(line in shown for line in expected)
    data = json.loads(run("progress", "--json")[1])
    assert data["losses"] == [
        {"unit": "points", "decisions": 2, "average_lost": pytest.approx(points)},
        {"unit": "percentage points", "decisions": 10, "average_lost": pytest.approx(chances)},
        {"unit": "turns", "decisions": 3, "average_lost": pytest.approx(turns)},
    ]
    # The fields there were before keep counting points alone.
    assert (data["decisions"], data["average_points_lost"]) == (2, pytest.approx(points))


@pytest.mark.usefixtures("mixed")
def test_only_the_rule_set_asked_for_counts_in_the_headline() -> None:
    record("decide", "keep", [False], at=START, lost=[40.0], rules="fixed")
    data = json.loads(run("progress", "--json", "--rules", "fixed")[1])
    assert data["losses"] == [{"unit": "points", "decisions": 1, "average_lost": 40.0}]


# -- week by week


@pytest.fixture
def weeks() -> dict[tuple[str, date], tuple[int, int]]:
    """Three weeks of practice (the middle one without drills); (answers, right) by topic and week."""
    plan = {
        ("worth", 0): [True, False, False, False],
        ("worth", 1): [True, True, False],
        ("worth", 2): [True] * 5,
        ("keep", 0): [False, False, True],
        ("keep", 2): [True, True, False],
    }
    for (topic, week), outcomes in plan.items():
        kind = "score" if topic == "worth" else "decide"
        lost = None if kind == "score" else [0.0 if ok else 20.0 for ok in outcomes]
        record(kind, topic, outcomes, at=START + timedelta(weeks=week), lost=lost)
    monday = date(2026, 11, 2)
    return {
        (topic, monday + timedelta(weeks=week)): (len(outcomes), sum(outcomes))
        for (topic, week), outcomes in plan.items()
    }


def test_a_week_starts_on_monday_utc() -> None:
    assert week_of("2026-11-08T23:59:59+00:00") == date(2026, 11, 2)  # a Sunday
    assert week_of("2026-11-09T00:00:00+00:00") == date(2026, 11, 9)


def test_progress_by_week_as_json(weeks: dict[tuple[str, date], tuple[int, int]]) -> None:
    data = json.loads(run("progress", "--json")[1])
    got = {(w["topic"], date.fromisoformat(w["week"])): (w["answers"], w["correct"]) for w in data["weekly"]}
    assert got == weeks
    for w in data["weekly"]:
        answers, right = weeks[w["topic"], date.fromisoformat(w["week"])]
        assert w["accuracy"] == pytest.approx(right / answers)
        if w["topic"] == "keep":
            assert (w["decisions"], w["loss_unit"]) == (answers, "points")
            assert w["average_lost"] == pytest.approx(20.0 * (answers - right) / answers)
        else:
            assert (w["decisions"], w["average_lost"]) == (0, None)
    assert [w["week"] for w in data["weekly"]] == sorted(w["week"] for w in data["weekly"])


def test_progress_by_week_in_plain_text(weeks: dict[tuple[str, date], tuple[int, int]]) -> None:
    code, out, _ = run("progress", "--plain")
    assert code == 0
    lines = out.splitlines()
    start = lines.index("Right answers by week (weeks from Monday, UTC):")

    def cell(topic: str, monday: date) -> str:
        if (topic, monday) not in weeks:
            return "-"
        answers, right = weeks[topic, monday]
        return f"{round(100 * right / answers)}% ({answers})"

    mondays = [date(2026, 11, 2), date(2026, 11, 9), date(2026, 11, 16)]
    header, worth, keep = lines[start + 1 : start + 4]
    assert header.split() == ["topic", "Nov", "2", "Nov", "9", "Nov", "16"]
    for row, label, topic in ((worth, "Scoring: worth", "worth"), (keep, "Decisions: keep", "keep")):
        assert row.startswith(f"  {label} ")
        assert re.findall(r"\d+% \(\d+\)|(?<= )-(?= |$)", row) == [cell(topic, m) for m in mondays]


def test_progress_by_week_on_a_narrow_screen_is_a_line_a_topic(
    weeks: dict[tuple[str, date], tuple[int, int]],
) -> None:
    with Store.open() as store:
        text = view.progress_text(load_progress(store), width=40)
    assert "  Decisions: keep: Nov 2 33% (3), Nov 16 67% (3)" in text.splitlines()


def test_progress_by_week_as_a_chart_on_a_terminal(weeks: dict[tuple[str, date], tuple[int, int]]) -> None:
    with Store.open() as store:
        summary = load_progress(store)
    console = Console(width=90, record=True, file=io.StringIO(), color_system=None)
    console.print(view.progress_rich(summary))
    shown = [line.rstrip() for line in console.export_text().splitlines()]
    start = shown.index("Right answers by week (weeks from Monday, UTC):")
    chart = shown[start + 1 :]
    assert chart[0].lstrip().startswith("┌")
    # A y axis in percentages, the weeks named along the x axis, a legend and the mastery line.
    assert any(line.startswith("100%┤") for line in chart) and any(line.startswith("  0%┤") for line in chart)
    labels = next(line for line in chart if "Nov 2" in line)
    assert labels.index("Nov 2") < labels.index("Nov 9") < labels.index("Nov 16")
    assert f"  {MARKS[0]} Scoring: worth" in chart and f"  {MARKS[1]} Decisions: keep" in chart
    assert "  ┈┈ mastered: 90% right" in chart
    # 100% in the last week: Scoring: worth's mark on the top row.
    top = next(line for line in chart if line.startswith("100%┤"))
    assert MARKS[0] in top
    # The plain table's figures are not repeated under the chart.
    assert not any("(3)" in line for line in shown)


def test_one_week_of_training_has_no_chart_yet() -> None:
    record("score", "worth", [True, False], at=START)
    code, out, _ = run("progress", "--plain")
    assert code == 0 and "by week" not in out
    data = json.loads(run("progress", "--json")[1])
    assert [(w["week"], w["answers"]) for w in data["weekly"]] == [("2026-11-02", 2)]


def test_only_the_last_weeks_are_shown() -> None:
    for week in range(WEEKS + 2):
        record("score", "worth", [True], at=START + timedelta(weeks=week))
    data = json.loads(run("progress", "--json")[1])
    first = date(2026, 11, 2) + timedelta(weeks=2)
    assert [w["week"] for w in data["weekly"]] == [
        (first + timedelta(weeks=n)).isoformat() for n in range(WEEKS)
    ]


@pytest.mark.usefixtures("mixed")
def test_a_topic_on_its_own_line_names_the_unit_of_its_loss() -> None:
    with Store.open() as store:
        lines = view.progress_text(load_progress(store), width=40).splitlines()
    expected = {
        "keep": f"{(300.0 + 3.66) / 2:,.2f} points lost per decision",
        "game": f"{(0.1 + 1.3 + 2.1) / 4:.2f} pp lost per decision",
        "solo": f"{0.036 / 3:.3f} turns lost per decision",
    }
    for topic, loss in expected.items():
        (line,) = [line for line in lines if line.startswith("  Decisions:") and f" {topic}:" in line]
        assert line.endswith(loss), line
