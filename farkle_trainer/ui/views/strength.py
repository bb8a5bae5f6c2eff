"""A player's strength against perfect play, in words: one game's, and (below) across games.

One game's figure (:class:`~farkle_trainer.training.games.analysis.Strength`) reads in the
game's unit: a chance of winning, points or turns, always beside what perfect play expects from
the same seat and what the player's decisions gave up, which are the two numbers it is made of.
Across games (:mod:`farkle_trainer.training.games.strength`) each kind of game is a line: the
mean with its 95% interval, and week by week a chart in the style of the progress by week (a
table in plain text).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import date, timedelta
from functools import partial
from typing import TYPE_CHECKING, Any

from farkle_trainer.engine.grading import Unit
from farkle_trainer.engine.notation import ev, percent, plural
from farkle_trainer.training.games.setup import Setup
from farkle_trainer.training.games.strength import Kind, Line, WeekFigure, What
from farkle_trainer.ui.chart import LineChart, Reference, Series, chart_rich, week_label
from farkle_trainer.ui.views.fit import fit

if TYPE_CHECKING:
    from rich.console import RenderableType

    from farkle_trainer.training.games.analysis import Strength


def _whose(name: str) -> str:
    return "your" if name == "You" else f"{name}'s"


def _title(name: str) -> str:
    whose = _whose(name)
    return whose[0].upper() + whose[1:]


def in_unit(value: float, unit: Unit) -> str:
    """A figure of the unit, in its own terms: ``53.06%``, ``5,880.12 points``, ``18.02 turns``."""
    if unit == Unit.WIN:
        return percent(value)
    if unit == Unit.TURNS:
        return f"{value:,.2f} turns"
    return f"{ev(value)} points"


def given_up_text(value: float, unit: Unit) -> str:
    """What decisions gave up, in the display scale: ``0.14 pp``, ``55.68 points``, ``0.35 turns``."""
    if unit == Unit.WIN:
        return f"{value:,.2f} pp"
    return in_unit(value, unit)


def strength_line(name: str, s: Strength, setup: Setup) -> str:
    """``Your play this game: 57.63% against perfect play (perfect play from your seat: 57.77%,
    less 0.14 pp your decisions gave up).``"""
    whose = _whose(name)
    gave = f"{given_up_text(s.given_up, s.unit)} {whose} decisions gave up"
    if s.unit == Unit.WIN:
        perfect = f"perfect play from {whose} seat: {percent(s.perfect)}, less {gave}"
    elif s.unit == Unit.TURNS:
        perfect = f"perfect play: {in_unit(s.perfect, s.unit)}, plus {gave}"
        return (
            f"{_title(name)} play this game: {in_unit(s.expected_result, s.unit)} to {setup.target:,} "
            f"against perfect play ({perfect})."
        )
    elif s.final_round_left_out:
        turns = plural(s.turns, "turn")
        perfect = (
            f"perfect play from where each of {whose} {turns} started: {ev(s.perfect)}, less {gave}; "
            "in points, since with three or four players the chance of winning is not solved"
        )
        return (
            f"{_title(name)} play before the final round: {in_unit(s.expected_result, s.unit)} against "
            f"perfect play ({perfect})."
        )
    elif setup.opening or setup.penalty:
        perfect = f"perfect play from where each turn started: {ev(s.perfect)}, less {gave}"
    else:
        perfect = f"perfect play: {ev(s.perfect)}, less {gave}"
    played = in_unit(s.expected_result, s.unit)
    return f"{_title(name)} play this game: {played} against perfect play ({perfect})."


def luck_adjusted_line(names: Sequence[str], strengths: Sequence[Strength]) -> str | None:
    """The result with the luck of the dice taken out, every player's: in a two-player game
    both players' luck, with three or four each player's own. None in solo, where it is the
    figure against perfect play itself."""
    if len(strengths) < 2:
        return None
    unit = strengths[0].unit
    shown = ", ".join(f"{names[s.seat]} {in_unit(s.luck_adjusted, unit)}" for s in strengths)
    if unit == Unit.WIN:
        return f"Luck-adjusted result (the result with both players' luck taken out): {shown}."
    return f"Luck-adjusted scores (each score less the luck of its player's dice): {shown}."


def strength_json(name: str, s: Strength) -> dict[str, object]:
    """One player's figures against perfect play: ``expected_result`` and ``perfect_expected``
    in the unit's own terms (a chance 0 to 1, points or turns), ``start_chance`` the seat's
    chance of winning before the first roll (two players; else null), ``given_up`` and ``luck``
    as shown (percentage points of a chance), ``result`` and ``luck_adjusted`` in the unit's own
    terms."""
    return {
        "player": name,
        "unit": s.unit.value,
        "start_chance": s.start_chance,
        "perfect_expected": s.perfect,
        "given_up": s.given_up,
        "expected_result": s.expected_result,
        "decisions": s.decisions,
        "turns": s.turns,
        "final_round_left_out": s.final_round_left_out,
        "luck": s.luck,
        "result": s.result,
        "luck_adjusted": s.luck_adjusted,
    }


# -- across games


def kind_words(kind: Kind) -> str:
    """``two players, classic to 10,000, opening 500``, ``ten turns, classic``, ``fewest turns to
    10,000, classic``."""
    house = [f"opening {kind.opening:,}"] if kind.opening else []
    house += [f"penalty {kind.penalty:,}"] if kind.penalty else []
    if kind.what == What.MATCH:
        played = f"two players, {kind.rules} to {kind.target or 0:,}"
    elif kind.what == What.TEN_TURNS:
        played = f"ten turns, {kind.rules}"
    else:
        played = f"fewest turns to {kind.target or 0:,}, {kind.rules}"
    return ", ".join([played, *house])


def _rating(value: float | None) -> str:
    return "-" if value is None else f"{value:+.0f}"


def _interval(line: Line) -> str:
    interval = line.interval
    if interval is None:
        return "one game: no interval yet"
    low, high = (_figure(x, line.unit) for x in interval)
    return f"95%: {low} to {high}"


def _figure(value: float, unit: Unit) -> str:
    if unit == Unit.WIN:
        return percent(value)
    if unit == Unit.TURNS:
        return f"{value:,.2f}"
    return ev(value)


def line_text(line: Line) -> str:
    """One kind of game: how many, the mean figure against perfect play's with its 95% interval,
    the rating difference (two players) and what was given up a game."""
    games = plural(line.games, "game")
    mean = _figure(line.mean, line.unit)
    if line.unit == Unit.WIN:
        rating = ""
        if (interval := line.rating_interval) is not None:
            rating = f" (95%: {_rating(interval[0])} to {_rating(interval[1])})"
        return (
            f"{kind_words(line.kind)}: {games}; {mean} against perfect play taking each seat in turn "
            f"(perfect play 50%; {_interval(line)}), a rating difference of {_rating(line.rating)}"
            f"{rating}; {line.given_up:,.2f} pp given up a game."
        )
    what = "points" if line.unit == Unit.POINTS else "turns"
    return (
        f"{kind_words(line.kind)}: {games}; {mean} {what} a game against perfect play's "
        f"{_figure(line.perfect, line.unit)} ({_interval(line)}); {_figure(line.given_up, line.unit)} "
        f"{what} given up a game."
    )


#: Rows of a chart by week, its axis included.
CHART_HEIGHT = 12
STRENGTH_HEADING = (
    "Your play against perfect play, the dice's luck left out (the mean over games played to their end):"
)


def _week_cell(w: WeekFigure, unit: Unit) -> str:
    return f"{week_label(w.week)} {_figure(w.mean, unit)} ({w.games})"


def week_line(line: Line) -> str | None:
    """A kind's figures week by week, where there are two weeks or more."""
    if len(line.weeks) < 2:
        return None
    return "    by week (from Monday, UTC): " + ", ".join(_week_cell(w, line.unit) for w in line.weeks)


def strength_lines(found: Sequence[Line], heading: str = STRENGTH_HEADING) -> list[str]:
    """Each kind of game on a line, with its weeks under it where there are two or more."""
    if not found:
        return []
    out = [heading]
    for line in found:
        out.append(f"  {line_text(line)}")
        if (weeks := week_line(line)) is not None:
            out.append(weeks)
    return out


def _span(found: Sequence[Line]) -> list[date]:
    weeks = sorted({w.week for line in found for w in line.weeks})
    if not weeks:
        return []
    return [weeks[0] + timedelta(weeks=n) for n in range((weeks[-1] - weeks[0]).days // 7 + 1)]


#: A chart by week has at most this many steps up its side, each 1, 2 or 5 times a power of ten.
MAX_TICKS = 6


def _axis(values: Sequence[float], unit: Unit) -> tuple[float, float, tuple[tuple[float, str], ...]]:
    """The range and ticks of a chart of ``values`` (perfect play's among them): round steps.

    >>> [label for _, label in _axis([0.5, 0.43, 0.38], Unit.WIN)[2]]
    ['35%', '40%', '45%', '50%']
    >>> [label for _, label in _axis([5935.77, 5012.4], Unit.POINTS)[2]]
    ['5,000', '5,200', '5,400', '5,600', '5,800', '6,000']
    """
    low, high = min(values), max(values)
    # Close figures are drawn over some room below the highest, so that noise looks like noise.
    low = min(low, high - {Unit.WIN: 0.1, Unit.TURNS: 0.5}.get(unit, 100.0))
    spread = high - low
    power = 10 ** math.floor(math.log10(spread / MAX_TICKS))
    step = next(power * m for m in (1, 2, 5, 10) if spread / (power * m) <= MAX_TICKS - 1)
    low = math.floor(low / step) * step
    high = max(math.ceil(high / step) * step, low + step)
    count = round((high - low) / step)
    ticks = tuple((low + n * step, _tick(low + n * step, unit)) for n in range(count + 1))
    return low, high, ticks


def _tick(value: float, unit: Unit) -> str:
    if unit == Unit.WIN:
        return f"{100 * value:.0f}%"
    return f"{value:,.2f}".rstrip("0").rstrip(".") if unit == Unit.TURNS else f"{value:,.0f}"


def strength_charts(found: Sequence[Line]) -> list[tuple[LineChart, list[Line]]]:
    """The figures by week, where they span two weeks or more: one chart for every two-player
    kind, whose perfect play is 50% alike, and one for each other kind, with perfect play's
    figure across. Each chart comes with the kinds it draws."""
    groups = [[line for line in found if line.unit == Unit.WIN]]
    groups += [[line] for line in found if line.unit != Unit.WIN]
    charts = []
    for mine in groups:
        span = _span(mine)
        if len(span) < 2:
            continue
        step = {day: n for n, day in enumerate(span)}
        series = tuple(
            Series(kind_words(line.kind), tuple((step[w.week], w.mean) for w in line.weeks)) for line in mine
        )
        unit, perfect = mine[0].unit, mine[0].perfect
        low, high, ticks = _axis([perfect, *(w.mean for line in mine for w in line.weeks)], unit)
        reference = Reference(perfect, f"perfect play, {_figure(perfect, unit)}")
        charts.append((LineChart(series, tuple(map(week_label, span)), low, high, ticks, reference), mine))
    return charts


def _weeks_text(drawn: Sequence[Line], width: int) -> str:
    """A chart's figures where the screen is too narrow for it: each kind's weeks, in words."""
    return "\n".join(f"  {kind_words(line.kind)}:\n{week_line(line) or ''}" for line in drawn)


def strength_rich(found: Sequence[Line], heading: str = STRENGTH_HEADING) -> RenderableType:
    """The lines, and under them the charts by week; in the lines' words where the screen is too
    narrow for a chart."""
    from rich.console import Group
    from rich.text import Text

    parts: list[RenderableType] = [Text(heading, style="bold")]
    for line in found:
        parts.append(Text(f"  {line_text(line)}"))
    for chart, drawn in strength_charts(found):
        parts.append(Text("By week (weeks from Monday, UTC):"))
        parts.append(chart_rich(chart, CHART_HEIGHT, narrow=partial(_weeks_text, drawn)))
    return fit(Group(*parts), "\n".join(strength_lines(found, heading)))


def strength_data(found: Sequence[Line]) -> list[dict[str, Any]]:
    """Each kind of game as figures: ``mean`` (a chance from 0 to 1, points or turns; in a
    two-player game the chance against perfect play taking each seat in turn), its
    ``standard_error``, ``low`` and ``high`` (the 95% interval), ``perfect`` (perfect play's),
    ``rating`` with ``rating_low`` and ``rating_high`` (two players), ``given_up`` a game (as
    shown: percentage points of a chance), ``expected_result`` and ``start_chance`` (the means
    of the games' own figures and of their seats' chances), and ``weeks``."""
    out = []
    for line in found:
        interval = line.interval
        ratings = line.rating_interval
        out.append(
            {
                "what": line.kind.what.value,
                "unit": line.unit.value,
                "rules": line.kind.rules,
                "opening": line.kind.opening,
                "penalty": line.kind.penalty,
                "target": line.kind.target,
                "games": line.games,
                "mean": line.mean,
                "standard_error": line.standard_error,
                "low": None if interval is None else interval[0],
                "high": None if interval is None else interval[1],
                "perfect": line.perfect,
                "rating": line.rating,
                "rating_low": None if ratings is None else ratings[0],
                "rating_high": None if ratings is None else ratings[1],
                "given_up": line.given_up,
                "expected_result": line.expected_result,
                "start_chance": line.start_chance,
                "weeks": [{"week": w.week.isoformat(), "games": w.games, "mean": w.mean} for w in line.weeks],
            }
        )
    return out
