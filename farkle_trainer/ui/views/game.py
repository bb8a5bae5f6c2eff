"""How the game solver's answers look: the win-chance hint and ``strategy --game``.

Plain text, rich renderables and JSON are built from the same data. A rich table that
would not fit the screen is replaced by the plain lines, so no number is ever cut.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from farkle_trainer.engine.house import opened
from farkle_trainer.engine.notation import dice_text, in_a_row, points
from farkle_trainer.ui.views.engine import ROW_STYLES, plays_table
from farkle_trainer.ui.views.fit import fit

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
    from rich.table import Table

    from farkle_trainer.engine.gamehint import GameHint, GameStrategy, Thresholds
    from farkle_trainer.engine.ranked import Option
    from farkle_trainer.engine.value import Value


def chance(value: Value | float | None) -> str:
    """A chance of winning: ``"51.35%"``; ``"not allowed"`` where the move is not."""
    return "not allowed" if value is None else f"{100 * float(value):.2f}%"


def pp(value: float) -> str:
    """A difference of chances, in percentage points: ``"1.12 pp"``."""
    return f"{100 * value:.2f} pp"


class Fitted:
    """A rich renderable shown as it is when it fits the width, else the plain text lines.

    Rich squeezes a table that is too wide by wrapping or cutting its cells; the plain
    layout keeps every number whole and lets long lines wrap between words instead.
    """

    def __init__(self, renderable: RenderableType, fallback: str | Callable[[int], str]) -> None:
        self.renderable = renderable
        self.fallback = fallback

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.measure import Measurement
        from rich.text import Text

        needed = Measurement.get(console, options.update(width=10_000), self.renderable).maximum
        if needed <= options.max_width:
            yield self.renderable
        else:
            fallback = self.fallback
            yield Text(fallback if isinstance(fallback, str) else fallback(options.max_width))


# -- the hint


def _action_words(play: Option | None, action: str) -> str:
    if play is None:
        return ""
    return f"keep {dice_text(play.keep)} and {action}"


def _game_heading(h: GameHint) -> list[str]:
    out = [f"Roll: {dice_text(h.roll)}, {points(h.points)} points at stake ({h.rules.name} rules)"]
    runs = h.runs
    if h.last_turn:
        out.append(
            f"Your final turn: the opponent reached {points(h.opponent_score)}, you have {points(h.my_score)}"
            f"{in_a_row(runs.my_farkles)}; values are chances of passing them (a tie counts one half)."
        )
    else:
        out.append(
            f"Game to {points(h.target)}: you have {points(h.my_score)}{in_a_row(runs.my_farkles)}, "
            f"the opponent {points(h.opponent_score)}{in_a_row(runs.opponent_farkles)}; "
            "values are chances of winning the game."
        )
    if h.penalty and h.last_turn:
        out.append(
            f"Three Farkles in a row cost {points(h.penalty)}, but not in a last turn: "
            "a Farkle now just ends the game."
        )
    elif h.penalty:
        out.append(f"Three Farkles in a row cost {points(h.penalty)} (never below 0).")
    if h.opening and not h.my_score:
        if opened(h.my_score, runs):
            out.append(
                f"You have opened already (the penalty knocked you back to 0): the opening minimum of "
                f"{points(h.opening)} no longer holds you."
            )
        else:
            out.append(
                f"Opening minimum {points(h.opening)}: no bank below it while you have nothing banked."
            )
    if h.opening and not h.opponent_score and opened(h.opponent_score, runs.swapped()):
        out.append("The opponent has opened already (the penalty knocked them back to 0).")
    return out


def _play_words(p: Option) -> str:
    kept = f"set aside {dice_text(p.keep)} ({points(p.score)})"
    if p.action == "bank":
        return f"{kept} and bank {points(p.points_after)}"
    if p.dice_left == 0:
        return f"{kept}: hot dice, roll all 6 again"
    return f"{kept} and roll {p.dice_left} {'die' if p.dice_left == 1 else 'dice'}"


def _game_summary(h: GameHint) -> list[str]:
    best = h.best
    if best is None:
        lost = f"the {points(h.points)} points at stake are lost" if h.points else "the turn scores nothing"
        return [f"Farkle: nothing in this roll scores, so {lost} and the turn ends."]
    measure = "chance of passing them" if h.last_turn else "chance of winning"
    out = [f"Best play: {_play_words(best)}; {measure} {chance(best.best)}."]
    if h.objectives_differ:
        out.append(f"For points: {_points_words(h)}; to win: {_action_words(best, best.action)}.")
    return out


def _points_words(h: GameHint) -> str:
    points_best = h.points_best
    assert points_best is not None
    return f"keep {dice_text(points_best.keep)} and {points_best.action}"


@dataclass(frozen=True)
class _Row:
    """One play as the plain lines show it."""

    keep: str
    score: str
    left: str
    bank: str
    roll: str
    action: str
    verdict: str


def _verdict(h: GameHint, p: Option) -> str:
    """``"best"``, ``"equal best"`` for a play that gives up nothing shown, else its loss."""
    if p is h.best:
        return "best"
    return "equal best" if h.ties_best(p) else f"gives up {h.gives_up(p):.2f} pp"


def _rows(h: GameHint) -> list[_Row]:
    return [
        _Row(
            keep=dice_text(p.keep),
            score=f"+{points(p.score)}",
            left="hot dice" if p.dice_left == 0 else f"{p.dice_left} left",
            bank=chance(p.bank),
            roll=chance(p.roll),
            action=p.action,
            verdict=_verdict(h, p),
        )
        for p in h.plays
    ]


def _widest(cells: list[str], least: int = 0) -> int:
    return max([least, *map(len, cells)])


def _play_lines(h: GameHint, width: int | None = None) -> list[str]:
    """One line a play, in aligned columns; where those are wider than ``width``, two shorter
    lines a play: what to do, then the values (bank / roll on / gives up, as the heading says)."""
    rows = _rows(h)
    keep, score = _widest([r.keep for r in rows]), _widest([r.score for r in rows], 6)
    bank, roll = _widest([r.bank for r in rows]), _widest([r.roll for r in rows])
    one = [
        f"  {i:>2}. keep {r.keep:<{keep}}  {r.score:<{score}}  {r.left:<8}  "
        f"bank {r.bank:>{bank}}  roll {r.roll:>{roll}}  -> {r.action}, {r.verdict}"
        for i, r in enumerate(rows, 1)
    ]
    if width is None or max(len(line) for line in one) <= width:
        return one
    left = _widest([r.left for r in rows])
    out = []
    for i, r in enumerate(rows, 1):
        out.append(f"  {i:>2}. keep {r.keep:<{keep}}  {r.score:<{score}}  {r.left:<{left}}  -> {r.action}")
        out.append(f"      bank {r.bank:>{bank}}  roll {r.roll:>{roll}}  {r.verdict}")
    return out


def _game_hint_lines(h: GameHint, width: int | None = None) -> list[str]:
    out = _game_heading(h) + _game_summary(h)
    if h.plays:
        out.append("Plays, best first (bank / roll on / gives up, in percentage points):")
        out += _play_lines(h, width)
    return out


def game_hint_text(h: GameHint) -> str:
    return "\n".join(_game_hint_lines(h))


def game_hint_rich(h: GameHint) -> RenderableType:
    from rich.console import Group
    from rich.text import Text

    heading = _game_heading(h)
    summary = _game_summary(h)
    parts: list[RenderableType] = [Text(heading[0], style="bold")]
    parts += [Text(line, style="dim") for line in heading[1:]]
    if h.plays:
        table = plays_table(no_wrap=True)
        for i, p in enumerate(h.plays, 1):
            verdict = _verdict(h, p)
            table.add_row(
                str(i),
                dice_text(p.keep),
                points(p.score),
                "hot dice" if p.dice_left == 0 else str(p.dice_left),
                chance(p.bank),
                chance(p.roll),
                p.action,
                "-" if verdict == "best" else verdict.removeprefix("gives up "),
                style=ROW_STYLES.get(verdict, ""),
            )
        parts.append(table)
    parts.append(Text(summary[0], style="bold" if h.plays else "bold yellow"))
    parts += [Text(line, style="yellow") for line in summary[1:]]
    # Too narrow for the table: the plain lines, best play first as in plain output.
    return fit(Group(*parts), lambda width: "\n".join(_game_hint_lines(h, width)))


def game_hint_data(h: GameHint) -> dict[str, Any]:
    best, points_best = h.best, h.points_best
    options = []
    for p in h.plays:
        by_points = h.by_points(p)
        gives_up = 0.0 if best is None else max(0.0, best.best.amount - p.best.amount)
        options.append(
            {
                "keep": list(p.keep),
                "score": p.score,
                "groups": [
                    {"name": x.name, "dice": list(x.dice), "points": x.points} for x in p.split.groups
                ],
                "points_after": p.points_after,
                "dice_left": p.dice_left,
                "bank_ev": _amount(by_points.bank),
                "roll_ev": by_points.roll.amount,
                "ev": by_points.best.amount,
                "points_action": by_points.action,
                "win_chance": {"bank": _amount(p.bank), "roll": p.roll.amount, "best": p.best.amount},
                "best_action": p.action,
                "gives_up": gives_up,
                "gives_up_pp": 100 * gives_up,
            }
        )
    return {
        "roll": list(h.roll),
        "points": h.points,
        "rules": h.rules.name,
        "objective": "last_turn" if h.last_turn else "win",
        "need": None,
        "opening": h.opening,
        "penalty": h.penalty,
        "target": h.target,
        "score": h.my_score,
        "opponent": h.opponent_score,
        "farkles": h.runs.my_farkles,
        "opponent_farkles": h.runs.opponent_farkles,
        "opened": opened(h.my_score, h.runs),
        "opponent_opened": opened(h.opponent_score, h.runs.swapped()),
        "last_turn": h.last_turn,
        "farkle": h.game.is_farkle,
        "best_action": best.action if best else None,
        "points_best": list(points_best.keep) if points_best else None,
        "points_action": points_best.action if points_best else None,
        "objectives_differ": h.objectives_differ,
        "options": options,
    }


def _amount(value: Value | None) -> float | None:
    return None if value is None else value.amount


# -- strategy --game


def _threshold(t: int | None) -> str:
    return "never roll" if t is None else points(t)


def _score_pair(t: Thresholds) -> str:
    return f"{points(t.my_score)} v {points(t.opponent_score)}"


def _threshold_headers(s: GameStrategy) -> tuple[str, str, str]:
    gap = points(s.gap)
    return (
        "at 0-0",
        f"{gap} behind ({_score_pair(s.behind)})",
        f"{gap} ahead ({_score_pair(s.ahead)})",
    )


def _strategy_notes(s: GameStrategy) -> list[str]:
    w = s.first_player_chance
    out = [
        f"At 0-0 the first player wins {chance(w)}: an edge of {pp(w - 0.5)} over an even game.",
    ]
    if s.fair_head_start is None:
        out.append("No head start below the target makes the game even for the second player.")
    else:
        out.append(
            f"Fair head start for the second player: {points(s.fair_head_start)} "
            "(the smallest that leaves the first player at most 50%)."
        )
    return out


def _grid_intro() -> str:
    return "Chance (%) that the player about to roll wins: own score down, opponent's across."


def _threshold_intro() -> str:
    return "Roll on while the turn is at most (by dice to roll; bank above it):"


def _cell(value: float) -> str:
    return f"{100 * value:.1f}"


def _grid_lines(s: GameStrategy, width: int | None = None) -> list[str]:
    """The grid as aligned text; given a ``width``, in blocks of columns that fit it."""
    labels = [points(x) for x in s.grid.scores]
    cell = max(6, max(len(x) for x in labels) + 1)
    per_block = len(labels) if width is None else max(1, (width - cell) // cell)
    out: list[str] = []
    for first in range(0, len(labels), per_block):
        cols = slice(first, first + per_block)
        if first:
            out.append("")
        out.append(" " * cell + "".join(f"{x:>{cell}}" for x in labels[cols]))
        for label, row in zip(labels, s.grid.chances, strict=True):
            out.append(f"{label:>{cell}}" + "".join(f"{_cell(v):>{cell}}" for v in row[cols]))
    return out


def _threshold_lines(s: GameStrategy) -> list[str]:
    _, behind, ahead = _threshold_headers(s)
    out = [
        _threshold_intro(),
        f"  behind: {behind}; ahead: {ahead}.",
        "  dice      at 0-0      behind       ahead",
    ]
    for n in range(6, 0, -1):
        values = [t.roll_while_at_most[n] for t in (s.level, s.behind, s.ahead)]
        out.append(f"  {n:>4}" + "".join(f"  {_threshold(v):>10}" for v in values))
    return out


def _farkled_intro(s: GameStrategy) -> str:
    first = s.farkled[0]
    return (
        f"The same at {_score_pair(first)}, by Farkles in a row so far: after two, a third costs "
        f"{points(s.penalty)}."
    )


def _farkled_headers(s: GameStrategy) -> list[str]:
    return [f"after {t.farkles}" for t in s.farkled]


def _farkled_lines(s: GameStrategy) -> list[str]:
    if not s.farkled:
        return []
    out = ["", _farkled_intro(s), "  dice" + "".join(f"  {h:>10}" for h in _farkled_headers(s))]
    for n in range(6, 0, -1):
        out.append(f"  {n:>4}" + "".join(f"  {_threshold(t.roll_while_at_most[n]):>10}" for t in s.farkled))
    return out


def _strategy_heading(s: GameStrategy) -> list[str]:
    out = [f"Game strategy for {s.rules.name} rules: two players to {points(s.target)}"]
    if s.opening:
        out.append(f"Opening minimum {points(s.opening)}.")
    if s.penalty:
        out.append(
            f"Three Farkles in a row cost {points(s.penalty)} (never below 0); the grid is for players "
            "with no Farkles in a row."
        )
    return out


def game_strategy_text(s: GameStrategy) -> str:
    out = [*_strategy_heading(s), _grid_intro(), *_grid_lines(s), "", *_strategy_notes(s), ""]
    return "\n".join(out + _threshold_lines(s) + _farkled_lines(s))


def heat(value: float) -> str:
    """A background from red (the player to roll all but loses) through yellow to green."""
    v = min(max(value, 0.0), 1.0)
    red = 255 if v <= 0.5 else round(255 * 2 * (1 - v))
    green = 255 if v >= 0.5 else round(255 * 2 * v)
    return f"black on rgb({red},{green},96)"


def _thousands(score: int) -> str:
    """A score as a narrow grid labels it, in thousands: ``0``, ``1k``, ``1.5k``."""
    return "0" if score == 0 else f"{score / 1000:g}k"


#: Said under the grid's first line where its scores are labelled in thousands.
THOUSANDS = "Scores in thousands: 1k is 1,000."


class _Grid:
    """The chances as a heat map: one table where it fits the width; else one table with the
    scores in thousands and no rules between the cells (a grid of ten scores then fits 60
    columns); else that table cut into blocks of columns that fit, one under the other, each
    with the scores down its side."""

    def __init__(self, s: GameStrategy) -> None:
        self.s = s

    def table(self, first: int, last: int, *, narrow: bool = False) -> Table:
        from rich.table import Table
        from rich.text import Text

        s = self.s
        label = _thousands if narrow else points
        grid = (
            Table(box=None, padding=(0, 1), collapse_padding=True, pad_edge=False, header_style="bold")
            if narrow
            else Table(show_edge=False, padding=(0, 1))
        )
        grid.add_column("", justify="right", style="bold", no_wrap=True)
        for x in s.grid.scores[first:last]:
            grid.add_column(label(x), justify="right", no_wrap=True)
        for x, row in zip(s.grid.scores, s.grid.chances, strict=True):
            grid.add_row(label(x), *(Text(_cell(v), style=heat(v)) for v in row[first:last]))
        return grid

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.measure import Measurement
        from rich.text import Text

        from farkle_trainer.ui.views.fit import wrap

        count = len(self.s.grid.scores)
        wide = options.update_width(10_000)

        def fits(table: Table) -> bool:
            return Measurement.get(console, wide, table).maximum <= options.max_width

        yield from wrap(Text(_grid_intro()), options.max_width)
        if fits(self.table(0, count)):
            yield self.table(0, count)
            return
        yield from wrap(Text(THOUSANDS), options.max_width)
        per = count
        while per > 1 and not fits(self.table(0, per, narrow=True)):
            per -= 1
        for first in range(0, count, per):
            if first:
                yield Text()
            yield self.table(first, first + per, narrow=True)


def game_strategy_rich(s: GameStrategy) -> RenderableType:
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    thresholds = Table(title=_threshold_intro(), title_justify="left")
    thresholds.add_column("dice", justify="right", no_wrap=True)
    for h in _threshold_headers(s):
        # Two lines a heading ("3,000 behind" over its scores), so the table fits 60 columns.
        thresholds.add_column(h.replace(" (", "\n("), justify="right", no_wrap=True)
    for n in range(6, 0, -1):
        thresholds.add_row(
            str(n), *(_threshold(t.roll_while_at_most[n]) for t in (s.level, s.behind, s.ahead))
        )

    parts: list[RenderableType] = [Text(line, style="bold") for line in _strategy_heading(s)]
    parts.append(_Grid(s))
    parts += [Text(line) for line in _strategy_notes(s)]
    parts.append(Fitted(thresholds, "\n".join(_threshold_lines(s))))
    if s.farkled:
        farkled = Table(title=_farkled_intro(s), title_justify="left")
        farkled.add_column("dice", justify="right", no_wrap=True)
        for h in _farkled_headers(s):
            farkled.add_column(h, justify="right", no_wrap=True)
        for n in range(6, 0, -1):
            farkled.add_row(str(n), *(_threshold(t.roll_while_at_most[n]) for t in s.farkled))
        parts.append(Fitted(farkled, "\n".join(_farkled_lines(s)[1:])))
    # Its tables fit their own widths; the lines around them wrap without cutting a figure.
    return fit(Group(*parts), game_strategy_text(s))


def game_strategy_data(s: GameStrategy) -> dict[str, Any]:
    def thresholds(t: Thresholds) -> dict[str, Any]:
        return {
            "score": t.my_score,
            "opponent": t.opponent_score,
            "roll_while_at_most": {str(n): v for n, v in t.roll_while_at_most.items()},
        }

    return {
        "rules": s.rules.name,
        "target": s.target,
        "opening": s.opening,
        "penalty": s.penalty,
        "scores": list(s.grid.scores),
        "win_chance": [list(row) for row in s.grid.chances],
        "first_player_chance": s.first_player_chance,
        "first_player_edge_pp": 100 * (s.first_player_chance - 0.5),
        "fair_head_start": s.fair_head_start,
        "thresholds": {
            "level": thresholds(s.level),
            "behind": thresholds(s.behind),
            "ahead": thresholds(s.ahead),
        },
        "thresholds_by_farkles": [thresholds(t) | {"farkles": t.farkles} for t in s.farkled],
    }
