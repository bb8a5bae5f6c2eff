"""How drills look and are asked: the situation, the questions, the grading table, the summary.

Every view has a plain text form and a rich one built from the same words, and the
questions go through a :class:`~farkle_trainer.training.frontend.Frontend`, so the plain and the
interactive front ends ask and show the same thing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from farkle_trainer.engine.decisions import (
    Choice,
    Grading,
    Kind,
    Position,
    StrategyNote,
    play_short,
    play_words,
)
from farkle_trainer.engine.grading import (
    GRADES,
    POINTS_PER_PERCENTAGE_POINT,
    POINTS_PER_TURN,
    POINTS_PER_WIN_PERCENTAGE_POINT,
    RATINGS,
    Grade,
    Unit,
    gives_up_text,
    grade_scale,
    loss_figure,
    loss_unit_name,
    rating_figure,
)
from farkle_trainer.engine.notation import dice_count, percent
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.training.drills.drills import DrillStrength, Summary
from farkle_trainer.training.drills.kinds import spec_of
from farkle_trainer.training.drills.words import measure, question_line, situation_lines, value_text
from farkle_trainer.training.record import UNIT_LOSSES, AnswerRecord
from farkle_trainer.ui.views.engine import dice_text, points
from farkle_trainer.ui.views.fit import fit

if TYPE_CHECKING:
    from rich.console import RenderableType

    from farkle_trainer.store.rows import ItemState
    from farkle_trainer.training.mistakes import Skipped


GRADE_STYLES: dict[Grade, str] = {
    Grade.BEST: "bold green",
    Grade.FINE: "green",
    Grade.INACCURACY: "yellow",
    Grade.MISTAKE: "bold red",
    Grade.BLUNDER: "bold red",
}
GRADE_PLURALS: dict[Grade, str] = {
    Grade.BEST: "best",
    Grade.FINE: "fine",
    Grade.INACCURACY: "inaccuracies",
    Grade.MISTAKE: "mistakes",
    Grade.BLUNDER: "blunders",
}
#: The grading table shows this many plays, and the player's own if it is further down.
TOP_PLAYS = 5


def kinds_line(kinds: tuple[Kind, ...], waiting: tuple[Kind, ...]) -> str:
    """The drills of a learner's session, and the ones still to come."""

    def names(ks: tuple[Kind, ...]) -> str:
        words = [spec_of(k).name for k in ks]
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]

    coming = names(waiting)
    return (
        f"Drills: {names(kinds)}. {coming[0].upper()}{coming[1:]} come in as you master these; "
        f"to practise them now: farkle-train decide --kind {','.join(waiting)}"
    )


# -- the situation


def heading(p: Position, number: int, count: int) -> str:
    theme = f", a classic position: {p.title}" if p.title else ""
    return f"Decision {number} of {count}: {spec_of(p.kind).name}{theme} ({p.rules.name} rules)"


def situation_text(p: Position, number: int, count: int) -> str:
    # A blank line between drills; none above the first, right under the command.
    gap = [""] if number > 1 else []
    return "\n".join([*gap, heading(p, number, count), *situation_lines(p)])


def situation_rich(p: Position, number: int, count: int) -> RenderableType:
    from rich.console import Group as RichGroup
    from rich.text import Text

    parts: list[RenderableType] = [Text(""), Text(heading(p, number, count), style="bold")]
    lines = situation_lines(p)
    parts += [Text(line) for line in lines[:-1]]
    last = Text(lines[-1])
    last.highlight_words([dice_text(p.roll)], style="bold cyan")
    parts.append(last)
    # No table to fall back from: fit only keeps a narrow screen from wrapping inside a roll.
    return fit(RichGroup(*parts), situation_text(p, number, count))


# -- grading


def reason_lines(g: Grading) -> list[str]:
    """Why the best set-aside beats the player's: for each, the dice it leaves, the chance
    that their roll Farkles, and what rolling them and banking are worth.

    Empty when the player set aside what the best play sets aside (then only the action
    differs, and the values already say why).
    """
    p = g.position
    if g.chosen.keep == g.best.keep:
        return []
    table = score_table(p.rules)
    out = []
    for whose, keep in (("The best play", g.best.keep), ("Your play", g.chosen.keep)):
        options = {c.action: c for c in g.decision.choices_for(keep)}
        roll = options["roll"]
        n = roll.dice_to_roll
        left = "hot dice, so all 6 roll again" if roll.hot_dice else f"{dice_count(n)} left"
        chance = float(table.farkle_chance(n))
        bank = options.get("bank")
        banking = (
            f"banking {points(roll.points_after)} is worth {value_text(bank.value)}"
            if bank is not None
            else f"banking {points(roll.points_after)} is not allowed"
        )
        out.append(
            f"{whose}, keep {dice_text(keep)} for {points(roll.points_after)}: {left}, "
            f"a {percent(chance)} chance that the next roll Farkles; rolling on is worth "
            f"{value_text(roll.value)}, {banking} ({measure(p.unit)})."
        )
    return out


def loss_text(p: Position, lost: float) -> str:
    """``"0.96 percentage points"``, ``"42.07 points"``, ``"0.123 turns"``."""
    if p.unit.is_chance:
        return f"{loss_figure(lost, p.unit)} percentage points"
    return f"{loss_figure(lost, p.unit)} {'turns' if p.unit == Unit.TURNS else 'points'}"


def points_line(g: Grading) -> str | None:
    """``"For points you would keep 1 5 and bank 650; to win, keep 1 and roll 5 dice."``

    Said for a game or solo position where the expected-points play is not a best play.
    """
    other = g.points_play
    if other is None:
        return None
    p = g.position
    goal = "to win" if p.unit == Unit.WIN else "for the fewest turns"
    lost = other.value.loss_to(g.best.value)
    return (
        f"For points you would {play_words(p, other)}; {goal}, {play_words(p, g.best)} "
        f"(playing for points gives up {loss_text(p, lost)})."
    )


def verdict(g: Grading) -> str:
    if g.chosen == g.best:
        return "Best: that is the best play."
    return f"{g.grade.capitalize()}: {loss_text(g.position, g.lost)} lost."


def _comparison(g: Grading) -> list[str]:
    p = g.position
    out = [f"Your play: {play_words(p, g.chosen)}, {measure(p.unit)} {value_text(g.chosen.value)}."]
    if g.chosen != g.best:
        out.append(f"Best play: {play_words(p, g.best)}, {measure(p.unit)} {value_text(g.best.value)}.")
    return out


def _points_lines(g: Grading) -> list[str]:
    line = points_line(g)
    return [] if line is None else [line]


def table_rows(g: Grading) -> list[tuple[int, Choice]]:
    """The top plays, numbered, and the player's own play if it is not among them."""
    rows = list(enumerate(g.decision.choices, 1))
    shown = rows[:TOP_PLAYS]
    if all(c != g.chosen for _, c in shown):
        shown += [r for r in rows if r[1] == g.chosen]
    return shown


def _gives_up(g: Grading, c: Choice) -> str:
    unit = g.position.unit
    lost = g.decision.ranked.loss(c)
    return "" if lost < grade_scale(unit)[0] else gives_up_text(lost, unit)


def strategy_text(note: StrategyNote) -> str:
    if note.need is not None:
        return (
            f"Strategy: in the final round only passing counts: roll until the turn reaches "
            f"{points(note.need)}, then bank."
        )
    dice = dice_count(note.dice_to_roll) + (" (hot dice)" if note.dice_to_roll == 6 else "")
    if note.roll_while_at_most is None:
        rule = f"with {dice} to roll, bank whatever the turn is worth"
    else:
        rule = f"with {dice} to roll, roll while the turn is at most {points(note.roll_while_at_most)}"
    if note.opening:
        rule += f" (below the {points(note.opening)} opening minimum you must roll)"
    whose = f" for {note.whose}, {note.play}" if note.play else ""
    return f"Strategy{whose}: {rule}; at {points(note.points_after)}, {note.action}."


def grading_text(g: Grading, notes: tuple[StrategyNote, ...] = (), width: int | None = None) -> str:
    """The grading as lines; where its plays table is wider than ``width``, each play's row says
    what it gives up as a bare minus figure, in the unit the table's heading names, so that every
    row still reads on one line."""
    p = g.position
    out = [*_comparison(g), verdict(g), *reason_lines(g), *_points_lines(g)]
    rows = table_rows(g)
    width_play = max(len(play_short(p, c)) for _, c in rows)
    ups = {c: _gives_up(g, c) for _, c in rows}
    up_width = max(len(up) for up in ups.values())
    wide = []
    for i, c in rows:
        mark = "  <- your play" if c == g.chosen else ""
        up = f"gives up {ups[c]:>{up_width}}" if ups[c] else " " * (up_width + len("gives up "))
        row = f"  {i:>2}. {play_short(p, c):<{width_play}}  {value_text(c.value):>9}  {up}{mark}"
        wide.append(row.rstrip())
    if width is None or max(len(row) for row in wide) <= width:
        out += [f"Top plays ({measure(p.unit)}):", *wide]
    else:
        lost = {c: f"-{ups[c].split()[0]}" if ups[c] else "" for _, c in rows}
        lost_width = max(len(text) for text in lost.values())
        out.append(f"Top plays ({measure(p.unit)}, and what each gives up):")
        out += [
            f"  {i:>2}. {play_short(p, c):<{width_play}}  {value_text(c.value):>9}  "
            f"{lost[c]:>{lost_width}}{'  <- you' if c == g.chosen else ''}"
            for i, c in rows
        ]
    out += [strategy_text(n) for n in notes]
    return "\n".join(line.rstrip() for line in out)


def grading_rich(g: Grading, notes: tuple[StrategyNote, ...] = ()) -> RenderableType:
    from rich.console import Group as RichGroup
    from rich.table import Table
    from rich.text import Text

    p = g.position
    parts: list[RenderableType] = [Text(line) for line in _comparison(g)]
    parts.append(Text(verdict(g), style=GRADE_STYLES[g.grade]))
    parts += [Text(line) for line in reason_lines(g)]
    parts += [Text(line, style="cyan") for line in _points_lines(g)]
    table = Table(title=f"Top plays ({measure(p.unit)})", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("play")
    table.add_column(
        {Unit.CHANCE: "to pass", Unit.WIN: "to win", Unit.TURNS: "turns"}.get(p.unit, "points"),
        justify="right",
    )
    table.add_column("gives up", justify="right")
    table.add_column("")
    for i, c in table_rows(g):
        style = "green" if i == 1 else ("bold" if c == g.chosen else "")
        table.add_row(
            str(i),
            play_short(p, c),
            value_text(c.value),
            _gives_up(g, c),
            "your play" if c == g.chosen else "",
            style=style,
        )
    parts.append(table)
    parts += [Text(strategy_text(n), style="cyan") for n in notes]
    return fit(RichGroup(*parts), lambda width: grading_text(g, notes, width))


# -- the summary


def _grade_counts(s: Summary) -> str:
    return ", ".join(f"{s.grades[gr]} {GRADE_PLURALS[gr] if s.grades[gr] != 1 else gr}" for gr in GRADES)


def rating_scale() -> str:
    """``"solver <1, expert <3, ..., beginner 30+"``: the first whose bound the average is under."""
    bounds = [f"{name} <{bound:g}" for bound, name in RATINGS[:-1]]
    return ", ".join(bounds) + f", {RATINGS[-1][1]} {RATINGS[-2][0]:g}+"


#: A session's average loss in each unit: the decisions it is over, and what it is counted in.
AVERAGE_WORDS: dict[Unit, tuple[str, str]] = {
    Unit.POINTS: ("expected-score decision", "points of expected turn score"),
    Unit.CHANCE: ("final-round decision", "percentage points of the chance to pass"),
    Unit.WIN: ("game decision", "percentage points of the chance to win"),
    Unit.TURNS: ("solo decision", "turns"),
}


def _averages(s: Summary) -> dict[Unit, tuple[float | None, int]]:
    """Each unit's average loss per decision, and over how many decisions."""
    return {
        Unit.POINTS: (s.average_points_lost, s.point_decisions),
        Unit.CHANCE: (s.average_chance_lost, s.chance_decisions),
        Unit.WIN: (s.average_win_lost, s.win_decisions),
        Unit.TURNS: (s.average_turns_lost, s.turn_decisions),
    }


def summary_lines(s: Summary, *, planned: int, stopped: bool) -> list[str]:
    if not s.decisions:
        return ["No decisions made, so nothing was recorded."]
    out = []
    if stopped:
        out.append(f"Stopped after {s.decisions} of {planned} decisions; every answer given is saved.")
    out.append(f"Session: {_count(s.decisions, 'decision')}: {_grade_counts(s)}.")
    by_chance, by_points = s.chance_decisions, s.point_decisions
    mixed = sum(1 for n in (by_points, by_chance, s.win_decisions, s.turn_decisions) if n) > 1
    for unit, (average, n) in _averages(s).items():
        if average is not None:
            decision, of_what = AVERAGE_WORDS[unit]
            where = f" over {_count(n, decision)}" if mixed else ""
            out.append(f"Average loss{where}: {loss_figure(average, unit)} {of_what}.")
    out += [strength_line(x) for x in s.strengths]
    assert s.average_loss is not None and s.rating is not None
    ratios = [
        f"a percentage point {what} counts as {ratio:g} points"
        for n, what, ratio in (
            (by_chance, "to pass", POINTS_PER_PERCENTAGE_POINT),
            (s.win_decisions, "to win", POINTS_PER_WIN_PERCENTAGE_POINT),
        )
        if n
    ]
    if s.turn_decisions:
        ratios.append(f"a turn counts as {POINTS_PER_TURN:g} points")
    if ratios == [f"a percentage point to pass counts as {POINTS_PER_PERCENTAGE_POINT:g} points"]:
        ratios = [f"a percentage point counts as {POINTS_PER_PERCENTAGE_POINT:g} points"]
    counted = f" ({'; '.join(ratios)})" if ratios else ""
    out.append(f"Rating: {s.rating}, from {rating_figure(s.average_loss)} points lost per decision{counted}.")
    out.append(f"  Scale (points lost per decision): {rating_scale()}.")
    if s.worst is not None:
        number, g = s.worst
        p = g.position
        out.append(f"Worst decision: number {number} ({spec_of(p.kind).name}).")
        out.append(f"  {question_line(p)}")
        out.append(
            f"  You: {play_words(p, g.chosen)}, worth {value_text(g.chosen.value)}. "
            f"Best: {play_words(p, g.best)}, worth {value_text(g.best.value)}. "
            f"{loss_text(p, g.lost).capitalize()} lost."
        )
    return out


def strength_line(x: DrillStrength) -> str:
    """``Against perfect play: 582.76 points a turn against 593.58 (...)``: a turn or a solo game
    of decisions like the session's (see :class:`~farkle_trainer.training.drills.drills.DrillStrength`)."""
    each = f"yours gave up {loss_figure(x.average_lost, x.unit)} {loss_unit_name(x.unit)} each"
    if x.unit == Unit.TURNS:
        return (
            f"Against perfect play: {x.expected_result:,.2f} turns to {x.target or 0:,} against "
            f"{x.perfect:,.2f} (a solo game of perfect play makes {x.decisions_per:,.2f} decisions on "
            f"average; {each})."
        )
    return (
        f"Against perfect play: {x.expected_result:,.2f} points a turn against {x.perfect:,.2f} (a turn "
        f"of perfect play makes {x.decisions_per:,.2f} decisions on average; {each})."
    )


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def summary_text(s: Summary, *, planned: int, stopped: bool = False) -> str:
    return "\n".join(["", *summary_lines(s, planned=planned, stopped=stopped)])


def summary_rich(s: Summary, *, planned: int, stopped: bool = False) -> RenderableType:
    from rich.console import Group as RichGroup
    from rich.table import Table
    from rich.text import Text

    lines = summary_lines(s, planned=planned, stopped=stopped)
    if not s.decisions:
        return Text(lines[0])
    table = Table(title=f"Session: {_count(s.decisions, 'decision')}", title_justify="left")
    for gr in GRADES:
        table.add_column(gr, justify="right", style=GRADE_STYLES[gr])
    table.add_row(*(str(s.grades[gr]) for gr in GRADES))
    parts: list[RenderableType] = [Text("")]
    if stopped:
        parts.append(Text(lines.pop(0), style="yellow"))
    parts.append(table)
    parts += [Text(line) for line in lines[1:]]
    return fit(RichGroup(*parts), summary_text(s, planned=planned, stopped=stopped))


def summary_data(
    s: Summary,
    gradings: Sequence[Grading],
    *,
    planned: int,
    records: Sequence[AnswerRecord] | None = None,
) -> dict[str, Any]:
    """``decide --json``: the summary, and every decision as a result file keeps it (``records``:
    the answers as recorded, where they are not the drills' own).

    ``averages`` has an entry for each measure the session was graded by (``graded_by``:
    ``points`` of expected turn score, the ``chance`` to pass, the chance to ``win``, expected
    ``turns``) in its ``unit`` (a chance in ``percentage points``); ``average_points`` is the
    loss the rating reads, in points.
    """
    return {
        "planned": planned,
        "decisions": s.decisions,
        "stopped": s.decisions < planned,
        "grades": {str(grade): s.grades[grade] for grade in GRADES},
        "averages": [
            {"graded_by": str(unit), "unit": UNIT_LOSSES[unit], "decisions": n, "average_lost": average}
            for unit, (average, n) in _averages(s).items()
            if average is not None
        ],
        "average_points": s.average_loss,
        "rating": s.rating,
        "strength": [
            {
                "unit": str(x.unit),
                "decisions": x.decisions,
                "average_lost": x.average_lost,
                "perfect": x.perfect,
                "decisions_per": x.decisions_per,
                "target": x.target,
                "expected_result": x.expected_result,
            }
            for x in s.strengths
        ],
        "worst": None if s.worst is None else {"number": s.worst[0], "kind": str(s.worst[1].position.kind)},
        "answers": [
            a.numbered(i).entry()
            for i, a in enumerate(records if records is not None else map(AnswerRecord.of_drill, gradings), 1)
        ],
    }


# -- your mistakes (decide --mistakes)

#: Why an option of ``decide`` changes nothing with ``--mistakes``.
MISTAKES_UNUSED = {
    "--level": "your mistakes come back as they were made",
    "--target": "each of your mistakes keeps its own game's target",
    "--penalty": "each of your mistakes keeps its own game's house rules",
}
NO_MISTAKES = (
    "No mistakes to drill: a decision graded an inaccuracy or worse, in a drill, a game, the daily "
    "game or a challenge, comes back here when it is due."
)


def personal_line(mistakes: int, positions: int, *, due_now: int | None = None) -> str:
    """What became of a game's decisions graded an inaccuracy or worse, at its end: ``2 of your
    decisions, inaccuracies or worse, are now personal positions: ...``. ``due_now``, said when
    the game is reviewed later, is how many of them are due now."""
    now = " now" if due_now is None else ""
    one = positions == 1
    if mistakes == 1:
        made = f"1 of your decisions, an inaccuracy or worse, is{now} a personal position"
    else:
        made = f"{mistakes:,} of your decisions, inaccuracies or worse, are{now} "
        made += "personal positions" if positions == mistakes else f"{_count(positions, 'personal position')}"
        if positions != mistakes:
            made += " (the same position twice is one)"
    due = "it is" if one else "they are"
    if due_now is None:
        when = f"now, and again whenever {due} due"
    else:
        when = f"when {due} due ({f'{due_now:,}' if due_now else 'none'} due now)"
    return (
        f"{made}: farkle-train decide --mistakes drills {'it' if one else 'them'} {when}; "
        "farkle-train progress shows what is due."
    )


def mistakes_unused_line(option: str) -> str:
    return f"Not used: {option} ({MISTAKES_UNUSED[option]})."


def mistakes_intro(asked: int, due: int) -> str:
    """``Your mistakes: 3 due, the longest overdue first.``"""
    if asked == due:
        return f"Your mistakes: {due:,} due, the longest overdue first."
    return f"Your mistakes: {asked:,} of the {due:,} due, the longest overdue first (--count for more)."


def skipped_lines(skipped: Sequence[Skipped]) -> list[str]:
    """One line for each reason some due mistakes cannot be asked, with how many."""
    counts: dict[tuple[str, str], int] = {}
    for s in skipped:
        counts[s.reason, s.reasons] = counts.get((s.reason, s.reasons), 0) + 1
    return [
        f"Skipped {n:,} of your mistakes: {one if n == 1 else many}." for (one, many), n in counts.items()
    ]


def until_text(delta: timedelta) -> str:
    """``in 5 minutes``, ``in 3 hours``, ``in 2 days``: how long until a moment, in minutes and
    hours rounded up, in days to the nearest."""
    minutes = max(1, math.ceil(delta.total_seconds() / 60))
    if minutes < 60:
        return f"in {_count(minutes, 'minute')}"
    hours = math.ceil(minutes / 60)
    if hours < 24:
        return f"in {_count(hours, 'hour')}"
    return f"in {_count(max(1, round(delta.total_seconds() / 86_400)), 'day')}"


def no_mistakes_line(
    waiting: ItemState | None, now: datetime, *, kinds: Sequence[Kind] | None = None, others: int = 0
) -> str:
    """What ``decide --mistakes`` says when it has nothing to ask: none made yet, none of the kinds
    asked for, or when the next one is due."""
    if kinds and others:
        names = ", ".join(spec_of(k).name for k in kinds)
        return (
            f"None of your mistakes due now is a drill of {names}; {others:,} of other kinds are: "
            "farkle-train decide --mistakes"
        )
    if waiting is None:
        return NO_MISTAKES
    if waiting.due_at <= now:
        return "No other mistakes are due now."
    when = waiting.due_at.astimezone(UTC)
    return (
        f"No mistakes due now: the next comes back {until_text(waiting.due_at - now)}, "
        f"on {when:%Y-%m-%d} at {when:%H:%M} UTC."
    )
