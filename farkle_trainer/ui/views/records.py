"""How training progress and official stats look: plain text, rich renderables and JSON data.

Like :mod:`farkle_trainer.ui.views.engine`, every summary has three views built from the same data.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any

from farkle_trainer.store.rows import DailyResult, TopicProgress
from farkle_trainer.store.schedule import MISTAKES
from farkle_trainer.training.games.setup import SOLO_TURNS as TURNS
from farkle_trainer.training.games.strength import Line
from farkle_trainer.training.progress import (
    MASTERED,
    MIN_ANSWERS,
    Due,
    GameStats,
    HistogramBucket,
    LevelRecord,
    ProgressSummary,
    StatsSummary,
    Topical,
    Trained,
    UnitLoss,
    WeekScore,
    topic_order,
)
from farkle_trainer.ui.chart import LineChart, Reference, Series, chart_rich, percent_ticks, week_label
from farkle_trainer.ui.views.engine import ev, points
from farkle_trainer.ui.views.fit import fit
from farkle_trainer.ui.views.strength import strength_lines, strength_rich

if TYPE_CHECKING:
    from rich.console import RenderableType

    from farkle_trainer.training.games.daily import DailyStatus
    from farkle_trainer.training.resets import ProgressHeld, StatsHeld

KIND_LABELS = {
    "score": "Scoring",
    "decide": "Decisions",
    "daily-practice": "Daily practice",
    "challenge": "Challenges",
    "lesson": "Lessons",
    "game": "Whole games",
    MISTAKES: "Your mistakes",
}
BAR_WIDTH = 30
SPARKS = "▁▂▃▄▅▆▇█"
NO_STATS = "No official daily games yet. Play today's with: farkle-train daily"
#: What the play against perfect play is called in ``progress`` and in ``stats``.
TRAINING_STRENGTH = (
    "Your play against perfect play in training games, the dice's luck left out (the mean over games "
    "played to their end):"
)
OFFICIAL_STRENGTH = (
    "Your play against perfect play in official games, the dice's luck left out (the mean over games "
    "played to their end):"
)


def share(value: float) -> str:
    """``0.857`` -> ``"86%"``."""
    return f"{value:.0%}"


def topic_label(t: Topical) -> str:
    return f"{KIND_LABELS.get(t.kind, t.kind)}: {t.topic}"


def _lost(value: float | None, unit: str = "points") -> str:
    """A loss per decision; a final round's is a chance, in percentage points."""
    if value is None:
        return "-"
    if unit == "turns":
        return f"{value:.3f} turns"
    return f"{ev(value)} pp" if unit == "percentage points" else ev(value)


def columns(rows: Sequence[Sequence[str]]) -> list[str]:
    """Plain lines of a table: columns padded to their widest cell, the first to the left and
    the figures to the right."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [
        "  "
        + "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))
        )
        for r in rows
    ]


def plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def average_points(value: float) -> str:
    """An average of scores, which are whole points: ``4,425``, or ``4,425.5`` where it is not
    whole (one decimal at most, so it never reads as an expected value).

    >>> average_points(4425.0), average_points(4425.5), average_points(4425.96)
    ('4,425', '4,425.5', '4,426')
    """
    tenths = round(value, 1)
    return f"{tenths:,.0f}" if tenths == int(tenths) else f"{tenths:,.1f}"


# -- progress


def _named(value: object, names: str) -> dict[str, Any]:
    """The attributes of ``value`` named in ``names`` (space-separated), under those names."""
    return {name: getattr(value, name) for name in names.split()}


def _topic_data(t: TopicProgress) -> dict[str, Any]:
    names = "kind topic answers correct accuracy recent_accuracy decisions average_points_lost loss_unit"
    return {**_named(t, names), "last_answered": t.last_answered.isoformat()}


def _week_data(w: WeekScore) -> dict[str, Any]:
    names = "kind topic answers correct accuracy decisions average_lost loss_unit"
    return {"week": w.week.isoformat(), **_named(w, names)}


def progress_data(s: ProgressSummary) -> dict[str, Any]:
    return {
        **_named(s, "answers correct accuracy sessions practice_games decisions average_points_lost"),
        "losses": [_named(u, "unit decisions average_lost") for u in s.losses],
        "weekly": [_week_data(w) for w in s.weeks],
        "points_lost_trend": [
            {
                "session": r.session_id,
                "kind": r.kind,
                "started_at": r.started_at.isoformat(),
                "decisions": r.decisions,
                "average_points_lost": r.average_points_lost,
            }
            for r in s.recent_sessions
        ],
        "trend": s.trend,
        "topics": [_topic_data(t) for t in s.topics],
        "weakest": [_named(t, "kind topic") for t in s.weakest],
        "due_for_review": s.due.now,
        "due_now": s.due.now,
        "due_today": s.due.due_today,
        "due_today_by_kind": dict(s.due.today_by_kind),
        "forecast": list(s.due.forecast),
        "days_trained": s.trained.count,
        "days_trained_last_28": s.trained.recent_count,
        "trained_days": [day.isoformat() for day in s.trained.days],
        "next": _named(s.next, "command reason"),
    }


def _progress_heading(s: ProgressSummary) -> str:
    heading = (
        f"Training progress: {plural(s.answers, 'answer')} in {plural(s.sessions, 'session')}, "
        f"{share(s.accuracy or 0.0)} right."
    )
    if s.practice_games:
        heading += f" {plural(s.practice_games, 'daily practice game')} finished."
    return heading


#: How the headline names what a unit's decisions gave up, its unit, and what it is of.
UNIT_WORDS = {
    "points": ("Points lost per decision", "", "0 is perfect play"),
    "percentage points": (
        "Chances lost per decision",
        " percentage points",
        "of the chance to pass the leader or to win",
    ),
    "turns": ("Turns lost per decision", "", "expected turns to reach a solo target"),
}


def _unit_line(u: UnitLoss) -> str:
    """``Points lost per decision: 19.64 on average over 48 decisions (0 is perfect play).``"""
    what, unit, of = UNIT_WORDS[u.unit]
    figure = f"{u.average_lost:.3f}" if u.unit == "turns" else ev(u.average_lost)
    return f"{what}: {figure}{unit} on average over {plural(u.decisions, 'decision')} ({of})."


def _loss_lines(s: ProgressSummary) -> list[str]:
    """A line for each unit decisions were graded in, each with its own count; under the points,
    their trend session by session."""
    out = []
    for u in s.losses:
        out.append(_unit_line(u))
        if u.unit == "points" and len(s.recent_sessions) > 1:
            losses = ", ".join(ev(r.average_points_lost) for r in s.recent_sessions)
            out.append(f"Last {len(s.recent_sessions)} sessions, oldest first: {losses} ({s.trend}).")
    return out


# -- progress by week

WEEKS_HEADING = "Right answers by week (weeks from Monday, UTC):"


def _week_span(s: ProgressSummary) -> list[date]:
    """Every week from the first to the last with answers, empty ones included: the time axis."""
    if not s.weeks:
        return []
    first, last = s.weeks[0].week, s.weeks[-1].week
    return [first + timedelta(weeks=n) for n in range((last - first).days // 7 + 1)]


def _by_topic(s: ProgressSummary) -> dict[str, dict[date, WeekScore]]:
    """Each topic's weeks by its label, the topics in the order the table of topics has them."""
    topics: dict[str, dict[date, WeekScore]] = {}
    for w in sorted(s.weeks, key=topic_order):
        topics.setdefault(topic_label(w), {})[w.week] = w
    return topics


def _week_cell(w: WeekScore | None) -> str:
    return "-" if w is None else f"{share(w.accuracy)} ({w.answers})"


def weeks_lines(s: ProgressSummary, width: int | None = None) -> list[str]:
    """The share of right answers per topic and week, with how many answers, as a table (a line
    a topic where it would not fit ``width``); nothing before a second week of training."""
    span = _week_span(s)
    if len(span) < 2:
        return []
    topics = _by_topic(s)
    rows = [["topic", *map(week_label, span)]]
    rows += [[label, *(_week_cell(weeks.get(day)) for day in span)] for label, weeks in topics.items()]
    lines = columns(rows)
    if width is not None and max(len(line) for line in lines) > width:
        lines = [
            f"  {label}: "
            + ", ".join(f"{week_label(day)} {_week_cell(weeks[day])}" for day in span if day in weeks)
            for label, weeks in topics.items()
        ]
    return [WEEKS_HEADING, *(line.rstrip() for line in lines)]


def weeks_chart(s: ProgressSummary) -> LineChart | None:
    """The same figures as :func:`weeks_lines`, as lines over the weeks; None before a second week."""
    span = _week_span(s)
    if len(span) < 2:
        return None
    step = {day: n for n, day in enumerate(span)}
    series = tuple(
        Series(label, tuple((step[day], w.accuracy) for day, w in sorted(weeks.items())))
        for label, weeks in _by_topic(s).items()
    )
    mastered = Reference(MASTERED, f"mastered: {share(MASTERED)} right")
    return LineChart(series, tuple(map(week_label, span)), 0.0, 1.0, percent_ticks(), mastered)


#: How the due line names each kind of card, one and several.
DUE_WORDS = {
    "score": ("quiz question", "quiz questions"),
    "decide": ("drill position", "drill positions"),
    MISTAKES: ("of your mistakes", "of your mistakes"),
}
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def _due_part(kind: str, n: int) -> str:
    one, many = DUE_WORDS.get(kind, (kind, kind))
    return f"{n:,} {one if n == 1 else many}"


def due_lines(d: Due) -> list[str]:
    """``Due today: 3 (2 now): 1 quiz question and 2 of your mistakes.``, how to drill the
    mistakes due now, and the next seven days; nothing when no card is due before the week is out."""
    if not d.due_today and not any(d.forecast):
        return []
    parts = [_due_part(kind, n) for kind, n in d.today_by_kind]
    listed = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else "".join(parts)
    now = f" ({d.now:,} now)" if d.now != d.due_today else ""
    if not parts:
        today = "Nothing is due today"
    elif len(parts) == 1:
        today = f"Due today: {listed}{now}"
    else:
        today = f"Due today: {d.due_today:,}{now}: {listed}"
    out = [today + "."]
    if mistakes := d.count(MISTAKES, now=True):
        out.append(f"Your mistakes due now: {mistakes:,} (farkle-train decide --mistakes).")
    days = [d.today + timedelta(days=n) for n in range(1, len(d.forecast) + 1)]
    coming = ", ".join(f"{WEEKDAYS[day.weekday()]} {n:,}" for day, n in zip(days, d.forecast, strict=True))
    out.append(f"Due in the next {len(d.forecast)} days: {coming}.")
    return out


def trained_line(t: Trained) -> str:
    """``Days trained: 5 of the last 28 (12 in all).``"""
    return f"Days trained: {t.recent_count:,} of the last {len(t.recent)} ({t.count:,} in all)."


def trained_row(t: Trained) -> str:
    """The last four weeks, a mark a day (trained or not), a space between weeks, today last."""
    marks = ["■" if day else "·" for day in t.recent]
    return " ".join("".join(marks[n : n + 7]) for n in range(0, len(marks), 7))


def _notes(s: ProgressSummary) -> list[str]:
    out = []
    if s.weakest:
        weak = ", ".join(f"{topic_label(t)} ({share(t.recent_accuracy)} lately)" for t in s.weakest)
        out.append(f"Weakest topics: {weak}.")
    early = [t for t in s.topics if t.answers < MIN_ANSWERS and t.recent_accuracy < MASTERED]
    if early:
        few = ", ".join(f"{topic_label(t)} ({t.correct} of {t.answers} right)" for t in early)
        out.append(f"Too few answers to rank yet (under {MIN_ANSWERS}): {few}.")
    out += due_lines(s.due)
    return out


def _advice_lines(s: ProgressSummary) -> list[str]:
    return [*_notes(s), f"Practise next: {s.next.command}", f"  {s.next.reason}"]


def progress_text(s: ProgressSummary, width: int | None = None, strength: Sequence[Line] = ()) -> str:
    """The progress as lines; topics in columns, or a line each where columns would not fit
    ``width``; ``strength``: the play against perfect play of training games, by kind."""
    played = strength_lines(strength, TRAINING_STRENGTH)
    if not s.answers:
        return "\n".join(["No training recorded yet.", *_apart(played), *_advice_lines(s)])
    out = [_progress_heading(s), ""]
    label = max(len(topic_label(t)) for t in s.topics)
    rows = [f"  {'topic':<{label}}  answers  right  lately  lost per decision"]
    for t in s.topics:
        rows.append(
            f"  {topic_label(t):<{label}}  {t.answers:>7,}  {share(t.accuracy):>5}  "
            f"{share(t.recent_accuracy):>6}  {_lost(t.average_points_lost, t.loss_unit)}"
        )
    if width is not None and max(len(row) for row in rows) > width:
        rows = [_topic_line(t) for t in s.topics]
    out += rows
    out.append("")
    out += _loss_lines(s)
    out.append(trained_line(s.trained))
    if weeks := weeks_lines(s, width):
        out += ["", *weeks, ""]
    if played:
        out += _apart(played)[1 if not out[-1] else 0 :]
    out += _advice_lines(s)
    return "\n".join(out)


def _apart(lines: list[str]) -> list[str]:
    """``lines`` with a blank line before and after, where there are any."""
    return ["", *lines, ""] if lines else []


def _topic_line(t: TopicProgress) -> str:
    lost = _lost(t.average_points_lost, t.loss_unit)
    # Out of the table, a figure in points carries its unit as the others do.
    unit = " points" if t.loss_unit == "points" else ""
    per = "" if lost == "-" else f", {lost}{unit} lost per decision"
    return (
        f"  {topic_label(t)}: {plural(t.answers, 'answer')}, {share(t.accuracy)} right "
        f"({share(t.recent_accuracy)} lately){per}"
    )


def sparkline(values: list[float]) -> str:
    """One block per value, taller for more points lost."""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    return "".join(SPARKS[round((v - low) / span * (len(SPARKS) - 1))] for v in values)


def _accuracy_style(value: float) -> str:
    return "green" if value >= 0.9 else "yellow" if value >= 0.7 else "red"


def progress_rich(s: ProgressSummary, strength: Sequence[Line] = ()) -> RenderableType:
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    played: list[RenderableType] = [strength_rich(strength, TRAINING_STRENGTH), Text()] if strength else []
    if not s.answers:
        return Group(
            Text("No training recorded yet.", style="bold"),
            *([Text(), *played] if played else []),
            *_advice_rich(s),
        )
    table = Table(title=_progress_heading(s), title_justify="left")
    table.add_column("topic")
    table.add_column("answers", justify="right")
    table.add_column("right", justify="right")
    table.add_column("lately", justify="right")
    table.add_column("lost per decision", justify="right")
    for t in s.topics:
        table.add_row(
            topic_label(t),
            f"{t.answers:,}",
            share(t.accuracy),
            Text(share(t.recent_accuracy), style=_accuracy_style(t.recent_accuracy)),
            _lost(t.average_points_lost, t.loss_unit),
        )
    parts: list[RenderableType] = [table, Text()]
    for u in s.losses:
        parts.append(Text(_unit_line(u)))
        if u.unit == "points" and len(s.recent_sessions) > 1:
            parts.append(_trend_rich(s))
    parts.append(_trained_rich(s.trained))
    if (chart := weeks_chart(s)) is not None:
        parts += [Text(), Text(WEEKS_HEADING), chart_rich(chart), Text()]
    if played:
        parts += [Text()] if chart is None else []
        parts += played
    parts += _advice_rich(s)
    return fit(Group(*parts), lambda width: progress_text(s, width, strength))


def _trend_rich(s: ProgressSummary) -> RenderableType:
    from rich.text import Text

    losses = [r.average_points_lost for r in s.recent_sessions]
    style = {"improving": "green", "worsening": "red"}.get(s.trend or "", "")
    line = Text(f"Last {len(losses)} sessions: ")
    line.append(sparkline(losses), style="cyan")
    line.append(f"  {ev(losses[0])} -> {ev(losses[-1])} ")
    line.append(f"({s.trend})", style=style)
    return line


def _trained_rich(t: Trained) -> RenderableType:
    from rich.text import Text

    line = Text(trained_line(t) + " ")
    for n, mark in enumerate(trained_row(t).split(" ")):
        line.append(" " if n else "")
        for c in mark:
            line.append(c, style="bold green" if c == "■" else "dim")
    return line


def _advice_rich(s: ProgressSummary) -> list[RenderableType]:
    from rich.text import Text

    return [
        *(Text(n) for n in _notes(s)),
        Text.assemble("Practise next: ", (s.next.command, "bold green")),
        Text(f"  {s.next.reason}", style="dim"),
    ]


# -- stats


def bucket_label(b: HistogramBucket) -> str:
    return f"{points(b.low)}+" if b.high is None else f"{points(b.low)}-{points(b.high)}"


def stats_data(s: StatsSummary) -> dict[str, Any]:
    return {
        "today": s.today.isoformat(),
        "played_today": s.played_today,
        "games_played": s.games_played,
        "current_streak": s.current_streak,
        "longest_streak": s.longest_streak,
        "best": None if s.best is None else {"date": s.best.date, "score": s.best.score},
        "average_score": s.average_score,
        "histogram": [{"from": b.low, "to": b.high, "count": b.count} for b in s.histogram],
        "recent": [
            {"date": r.date, "score": r.score, "perfect_score": r.perfect_score, "marks": r.marks}
            for r in s.recent
        ],
        "unverifiable": list(s.unverifiable),
    }


def daily_status_data(s: DailyStatus) -> dict[str, Any]:
    """``daily --status --json``: today's official game (``state``: ``not-started``,
    ``in-progress``, ``done`` or ``damaged``), the streak, and when the next game starts."""
    a = s.official
    state = s.official_state
    if a is None:
        status = "not-started"
    elif a.damage is not None:
        status = "damaged"
    else:
        status = "done" if a.finished else "in-progress"
    return {
        "today": s.today.isoformat(),
        "state": status,
        "score": a.score if a is not None and status == "done" else None,
        "turn": min(state.turn, TURNS) if state is not None else None,
        "banked": state.banked if state is not None else None,
        "share": s.share,
        "played_today": s.played_today,
        "current_streak": s.current_streak,
        "longest_streak": s.longest_streak,
        "unfinished_before": None if s.unfinished_before is None else s.unfinished_before.isoformat(),
        "next_game_in_seconds": round(s.next_game_in.total_seconds()),
    }


def _stats_lines(s: StatsSummary) -> list[str]:
    assert s.best is not None and s.average_score is not None and s.perfect_play_expected is not None
    today = "played" if s.played_today else "not played yet (farkle-train daily)"
    return [
        f"Official daily games played: {s.games_played:,}.",
        f"Today's game ({s.today.isoformat()} UTC): {today}.",
        f"Streak: {plural(s.current_streak, 'day')} (longest {plural(s.longest_streak, 'day')}).",
        f"Best: {points(s.best.score)} on {s.best.date}. Average: {average_points(s.average_score)} "
        f"(perfect play is expected to score {ev(s.perfect_play_expected)}).",
    ]


def _listed(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def unverifiable_line(s: StatsSummary) -> str | None:
    """The official results left out because their saved moves do not give them."""
    if not s.unverifiable:
        return None
    games = "game of" if len(s.unverifiable) == 1 else "games of"
    return (
        f"Not counted: the official {games} {_listed(s.unverifiable)}, whose saved moves do not give "
        "the score stored."
    )


def _bar(count: int, most: int, mark: str = "#") -> str:
    """A bar in proportion to the fullest bucket; any game at all shows at least one mark."""
    return mark * max(1, round(BAR_WIDTH * count / most)) if count else ""


def _recent_text(r: DailyResult) -> str:
    marks = f"  {r.marks}" if r.marks else ""
    return f"{r.date}  {points(r.score):>6}{marks}"


def stats_text(s: StatsSummary) -> str:
    left_out = unverifiable_line(s)
    if not s.games_played:
        return NO_STATS if left_out is None else f"{NO_STATS}\n{left_out}"
    out = [*_stats_lines(s), *([] if left_out is None else [left_out]), "", "Scores:"]
    most = max(b.count for b in s.histogram)
    width = max(len(bucket_label(b)) for b in s.histogram)
    for b in s.histogram:
        out.append(f"  {bucket_label(b):>{width}}  {b.count:>3}  {_bar(b.count, most)}")
    out += ["", "Recent days:"]
    out += [f"  {_recent_text(r)}" for r in s.recent]
    return "\n".join(out)


def stats_rich(s: StatsSummary) -> RenderableType:
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    left_out = unverifiable_line(s)
    warning = [] if left_out is None else [Text(left_out, style="yellow")]
    if not s.games_played:
        return Group(Text(NO_STATS), *warning)
    lines = _stats_lines(s)
    parts: list[RenderableType] = [
        Text(lines[0], style="bold"),
        *(Text(line) for line in lines[1:]),
        *warning,
    ]
    most = max(b.count for b in s.histogram)
    scores = Table(title="Scores", title_justify="left", show_header=False, box=None, padding=(0, 1))
    scores.add_column(justify="right")
    scores.add_column(justify="right")
    scores.add_column()
    for b in s.histogram:
        scores.add_row(bucket_label(b), str(b.count), Text(_bar(b.count, most, "█"), style="cyan"))
    parts += [Text(), scores, Text()]
    recent = Table(title="Recent days", title_justify="left")
    recent.add_column("date")
    recent.add_column("score", justify="right")
    recent.add_column("marks")
    for r in s.recent:
        recent.add_row(r.date, points(r.score), r.marks or "")
    parts.append(recent)
    return fit(Group(*parts), stats_text(s))


# -- resets


def _of_them(count: int, unfinished: int, noun: str, tail: str = "") -> str:
    """``2 rated games``, ``1 unfinished rated game``, ``3 rated games, 1 of them unfinished``,
    with ``tail`` after the noun."""
    if unfinished == count:
        return f"{plural(count, f'unfinished {noun}')}{tail}"
    if unfinished:
        return f"{plural(count, noun)}{tail}, {unfinished} of them unfinished"
    return f"{plural(count, noun)}{tail}"


def _personal(held: ProgressHeld) -> str:
    """``, 2 of them your personal positions``: how many of the cards are your mistakes."""
    if not held.personal:
        return ""
    if held.personal == held.cards:
        return ", your personal position" if held.cards == 1 else ", all of them your personal positions"
    return f", {held.personal} of them your personal position{'' if held.personal == 1 else 's'}"


def progress_held_words(held: ProgressHeld) -> str:
    """Everything ``reset progress`` deletes, as its question names it."""
    parts = []
    if held.answers:
        parts.append(f"{plural(held.answers, 'answer')} in {plural(held.sessions, 'session')}")
    if held.cards:
        parts.append(f"{plural(held.cards, 'card')} of the review schedule{_personal(held)}")
    if held.practice_games:
        parts.append(plural(held.practice_games, "practice daily game"))
    if held.lessons:
        parts.append(f"{held.lessons} {'lesson' if held.lessons == 1 else 'lessons'} read")
    return f"all training progress ({'; '.join(parts or ['nothing'])})"


def stats_held_words(held: StatsHeld) -> str:
    """Everything ``reset stats`` deletes, as its question names it."""
    parts = []
    if held.daily:
        parts.append(_of_them(held.daily, held.daily_unfinished, "official daily game"))
    if held.games:
        moves = f" with {'its' if len(held.games) == 1 else 'their'} moves"
        parts.append(_of_them(len(held.games), held.games_unfinished, "rated game", moves))
    return f"all official results ({'; '.join(parts or ['nothing'])}; with the streaks and records they make)"


# -- rated games


def unverifiable_games_lines(g: GameStats) -> list[str]:
    """The games counted as resigned because they are damaged, and those left out of the rated
    games' figures, each with why."""
    lines = []
    if g.unread:
        lines.append(f"Counted as resigned: {plural(len(g.unread), 'damaged rated game')}:")
        lines += [f"  game {u.game}: {u.reason}" for u in g.unread]
    if g.unverifiable:
        counted = plural(len(g.unverifiable), "game")
        lines.append(f"Not counted: {counted} whose saved moves or dice do not bear out what the store says:")
        lines += [f"  game {u.game}: {u.reason}" for u in g.unverifiable]
    return lines


def rule_set_words(r: LevelRecord) -> str:
    """``classic to 10,000``, with any opening minimum and penalty; ``rules unknown`` for games
    whose saved state cannot be read."""
    if r.rules is None or r.target is None:
        return "rules unknown"
    house = [f"opening {r.opening:,}"] if r.opening else []
    house += [f"penalty {r.penalty:,}"] if r.penalty else []
    return ", ".join([f"{r.rules} to {r.target:,}", *house])


def game_stats_lines(g: GameStats) -> list[str]:
    if not g.played:
        return [
            "Rated games against the computer: none yet (play one with: farkle-train play).",
            *unverifiable_games_lines(g),
        ]
    out = [
        f"Rated games against the computer (apart from the daily game): {g.played}; "
        f"wins in a row {g.current_streak} (longest {g.longest_streak})."
    ]
    for r in g.levels:
        shared = f", {r.shared} shared" if r.shared else ""
        resigned = f" ({r.resigned} resigned)" if r.resigned else ""
        average = "" if r.average_score is None else f"; average score {average_points(r.average_score)}"
        best = "" if r.best is None else f", best {r.best:,}"
        out.append(
            f"  against {r.level}, {rule_set_words(r)}: {plural(r.played, 'game')}, {r.wins} won{shared}, "
            f"{r.losses} lost{resigned}{average}{best}"
        )
    return out + unverifiable_games_lines(g)


def game_stats_text(g: GameStats) -> str:
    return "\n".join(game_stats_lines(g))


def _average(value: float | None) -> str:
    return "-" if value is None else average_points(value)


def _level_counts(g: GameStats) -> list[tuple[str, Callable[[LevelRecord], int]]]:
    """The count columns of the rated games table; shared wins and resignations are rare, so
    theirs only where some level has one."""
    columns: list[tuple[str, Callable[[LevelRecord], int]]] = [
        ("games", lambda r: r.played),
        ("won", lambda r: r.wins),
    ]
    if any(r.shared for r in g.levels):
        columns.append(("shared", lambda r: r.shared))
    columns.append(("lost", lambda r: r.losses))
    if any(r.resigned for r in g.levels):
        columns.append(("resigned", lambda r: r.resigned))
    return columns


def game_stats_rich(g: GameStats) -> RenderableType:
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    if not g.played:
        return Text(game_stats_text(g))
    left_out = [Text(line, style="yellow") for line in unverifiable_games_lines(g)]
    heading = Text("Rated games against the computer (apart from the daily game)", style="bold")
    streak = Text(
        f"{plural(g.played, 'game')}; wins in a row {g.current_streak} (longest {g.longest_streak})."
    )
    counts = _level_counts(g)
    table = Table()
    table.add_column("level")
    table.add_column("rules")
    for name, _ in counts:
        table.add_column(name, justify="right")
    table.add_column("average", justify="right")
    table.add_column("best", justify="right")
    for r in g.levels:
        best = "-" if r.best is None else f"{r.best:,}"
        table.add_row(
            r.level,
            rule_set_words(r),
            *(f"{count(r):,}" for _, count in counts),
            _average(r.average_score),
            best,
        )
    return fit(Group(heading, streak, table, *left_out), game_stats_text(g))


def game_stats_data(g: GameStats) -> dict[str, Any]:
    return {
        "played": g.played,
        "current_streak": g.current_streak,
        "longest_streak": g.longest_streak,
        "levels": [
            {
                "level": r.level,
                "rules": r.rules,
                "opening": r.opening,
                "penalty": r.penalty,
                "target": r.target,
                "played": r.played,
                "wins": r.wins,
                "shared": r.shared,
                "losses": r.losses,
                "resigned": r.resigned,
                "average_score": r.average_score,
                "best": r.best,
            }
            for r in g.levels
        ],
        "unverifiable": [{"game": u.game, "reason": u.reason} for u in g.unverifiable],
        "unread": [{"game": u.game, "reason": u.reason} for u in g.unread],
    }
