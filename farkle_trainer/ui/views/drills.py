"""How drills look and are asked: the situation, the questions, the grading table, the summary.

Every view has a plain text form and a rich one built from the same words, and the
questions go through a :class:`~farkle_trainer.training.frontend.Frontend`, so the plain and the
interactive front ends ask and show the same thing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from farkle_trainer.engine.notation import labelled_roll, parse_action
from farkle_trainer.engine.scoring import explain
from farkle_trainer.training.drills.drills import (
    GRADES,
    POINTS_PER_PERCENTAGE_POINT,
    RATINGS,
    Choice,
    Decision,
    Grade,
    Grading,
    Kind,
    Position,
    StrategyNote,
    Summary,
    decision_for,
    grade,
    strategy_notes,
)
from farkle_trainer.ui.views.engine import dice_text, ev, percent, points

if TYPE_CHECKING:
    from rich.console import RenderableType

    from farkle_trainer.engine.notation import Action
    from farkle_trainer.training.frontend import Frontend

KIND_NAMES: dict[Kind, str] = {
    "bank-or-roll": "bank or roll",
    "keep": "keep",
    "final-round": "final round",
    "opening": "opening",
}
GRADE_STYLES: dict[Grade, str] = {
    "best": "bold green",
    "fine": "green",
    "inaccuracy": "yellow",
    "mistake": "bold red",
    "blunder": "bold red",
}
GRADE_PLURALS: dict[Grade, str] = {
    "best": "best",
    "fine": "fine",
    "inaccuracy": "inaccuracies",
    "mistake": "mistakes",
    "blunder": "blunders",
}
#: The grading table shows this many plays, and the player's own if it is further down.
TOP_PLAYS = 5


def dice_count(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def value_text(p: Position, value: float) -> str:
    return percent(value) if p.unit == "chance" else ev(value)


def measure(p: Position) -> str:
    return "chance of passing the leader" if p.unit == "chance" else "expected turn score"


def loss_text(p: Position, lost: float) -> str:
    return f"{lost:.2f} percentage points" if p.unit == "chance" else f"{ev(lost)} points"


# -- plays in words


def _action_words(c: Choice, *, joiner: str) -> str:
    if c.action == "bank":
        return f"bank {points(c.points_after)}"
    if c.hot_dice:
        return "roll all 6 again (hot dice)" if joiner == " and " else "hot dice, roll 6"
    return f"roll {dice_count(c.dice_left)}"


def play_words(p: Position, c: Choice) -> str:
    """``"keep 1 5 and roll 4 dice"``; only the action in a bank-or-roll drill."""
    if p.kept is not None:
        return _action_words(c, joiner=" and ")
    return f"keep {dice_text(c.keep)} and {_action_words(c, joiner=' and ')}"


def play_short(p: Position, c: Choice) -> str:
    """``"keep 1 5, roll 4 dice"``, for the table of plays."""
    if p.kept is not None:
        return _action_words(c, joiner=", ")
    return f"keep {dice_text(c.keep)}, {_action_words(c, joiner=', ')}"


# -- the situation


def heading(p: Position, number: int, count: int) -> str:
    theme = f", a classic position: {p.title}" if p.title else ""
    return f"Decision {number} of {count}: {KIND_NAMES[p.kind]}{theme} ({p.rules.name} rules)"


def _so_far(p: Position) -> str:
    if p.points == 0:
        return "Nothing set aside yet this turn."
    return f"{points(p.points)} points set aside this turn."


def situation_lines(p: Position) -> list[str]:
    """The moment to decide, in sentences: scores, turn points and the roll."""
    out: list[str] = []
    if p.kind == "final-round":
        assert p.leader is not None and p.banked is not None and p.need is not None
        out.append(
            f"Final round: the leader has {points(p.leader)} and you have {points(p.banked)} banked, "
            f"so you need {points(p.need)} this turn to pass."
        )
    if p.kind == "opening":
        out.append(
            f"You have nothing banked yet: you cannot bank a turn worth less than {points(p.opening)}."
        )
    if p.kept is not None:
        n = p.dice_to_roll
        left = "hot dice, all 6 to roll again" if len(p.kept) == len(p.roll) else f"{dice_count(n or 0)} left"
        out.append(
            f"{_so_far(p)} You rolled {dice_text(p.roll)} and set aside {dice_text(p.kept)}: "
            f"{points(p.at_stake)} points at stake, {left}."
        )
    else:
        out.append(f"{_so_far(p)} You roll {dice_count(len(p.roll))}: {dice_text(p.roll)}")
    return out


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
    return RichGroup(*parts)


def question_line(p: Position) -> str:
    """The situation in one line, as kept in the progress records."""
    return " ".join(situation_lines(p))


# -- asking


def _refuse_non_scoring(p: Position) -> Callable[[tuple[int, ...]], None]:
    def check(faces: tuple[int, ...]) -> None:
        e = explain(faces, p.rules)
        if e.split is None:
            reasons = "; ".join(d.reason for d in e.dead)
            raise ValueError(f"cannot set aside {dice_text(faces)}: {reasons}")

    return check


def ask_keep(front: Frontend, d: Decision) -> tuple[int, ...]:
    """The dice the player sets aside; not asked when only one set-aside is possible."""
    p = d.position
    if p.kept is not None:
        return tuple(sorted(p.kept))
    keeps = d.keeps
    if len(keeps) == 1:
        only = keeps[0]
        what = f"Only {dice_text(only)} {'scores' if len(only) == 1 else 'score'}"
        front.say(f"{what}: you set {'it' if len(only) == 1 else 'them'} aside.")
        return only
    prompt = "Set aside which dice?"
    if front.plain:
        prompt = f"Set aside which dice? (faces like 1 5, or places: {labelled_roll(p.roll)})"
    return front.pick_dice(prompt, p.roll, _refuse_non_scoring(p))


def ask_action(front: Frontend, d: Decision, keep: tuple[int, ...]) -> Choice:
    """Bank or roll after setting aside ``keep``; not asked when banking is not allowed."""
    options = {c.action: c for c in d.choices_for(keep)}
    roll = options["roll"]
    at_stake = points(roll.points_after)
    rolls = "roll all 6 again (hot dice)" if roll.hot_dice else f"roll {dice_count(roll.dice_left)}"
    if "bank" not in options:
        front.say(
            f"{at_stake} at stake is short of the {points(d.position.opening)} opening minimum: "
            f"you must {rolls}."
        )
        return roll
    if d.position.kept is None:
        left = "hot dice" if roll.hot_dice else f"{dice_count(roll.dice_left)} left"
        front.say(f"{at_stake} points at stake, {left}.")
    prompt = f"Bank {at_stake} or {rolls}?"
    choices: list[tuple[str, Action]] = [(f"Bank {at_stake}", "bank"), (rolls[0].upper() + rolls[1:], "roll")]
    action = front.choose(f"{prompt} (b/r)" if front.plain else prompt, choices, parse_action)
    return options[action]


def play_drill(front: Frontend, p: Position, number: int, count: int, *, strategy: bool = False) -> Grading:
    """Show a position, ask for the play, grade it and show the grading."""
    d = decision_for(p)
    front.show(situation_text(p, number, count), lambda: situation_rich(p, number, count))
    keep = ask_keep(front, d)
    choice = ask_action(front, d, keep)
    g = grade(d, choice.keep, choice.action)
    notes = strategy_notes(g) if strategy else ()
    front.show(grading_text(g, notes), lambda: grading_rich(g, notes))
    return g


# -- grading


def verdict(g: Grading) -> str:
    if g.chosen == g.best:
        return "Best: that is the best play."
    return f"{g.grade.capitalize()}: {loss_text(g.position, g.lost)} lost."


def _comparison(g: Grading) -> list[str]:
    p = g.position
    out = [f"Your play: {play_words(p, g.chosen)}, {measure(p)} {value_text(p, g.chosen.value)}."]
    if g.chosen != g.best:
        out.append(f"Best play: {play_words(p, g.best)}, {measure(p)} {value_text(p, g.best.value)}.")
    return out


def table_rows(g: Grading) -> list[tuple[int, Choice]]:
    """The top plays, numbered, and the player's own play if it is not among them."""
    rows = list(enumerate(g.decision.choices, 1))
    shown = rows[:TOP_PLAYS]
    if all(c != g.chosen for _, c in shown):
        shown += [r for r in rows if r[1] == g.chosen]
    return shown


def _gives_up(g: Grading, c: Choice) -> str:
    diff = g.best.value - c.value
    if g.position.unit == "chance":
        diff *= 100
    return "" if diff < 0.005 else f"-{diff:,.2f}"


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
    return f"Strategy: {rule}; at {points(note.points_after)}, {note.action}."


def grading_text(g: Grading, notes: tuple[StrategyNote, ...] = ()) -> str:
    p = g.position
    out = [*_comparison(g), verdict(g), f"Top plays ({measure(p)}):"]
    rows = table_rows(g)
    width = max(len(play_short(p, c)) for _, c in rows)
    for i, c in rows:
        mark = "  <- your play" if c == g.chosen else ""
        out.append(
            f"  {i:>2}. {play_short(p, c):<{width}}  {value_text(p, c.value):>9}  {_gives_up(g, c):>8}{mark}"
        )
    out += [strategy_text(n) for n in notes]
    return "\n".join(line.rstrip() for line in out)


def grading_rich(g: Grading, notes: tuple[StrategyNote, ...] = ()) -> RenderableType:
    from rich.console import Group as RichGroup
    from rich.table import Table
    from rich.text import Text

    p = g.position
    parts: list[RenderableType] = [Text(line) for line in _comparison(g)]
    parts.append(Text(verdict(g), style=GRADE_STYLES[g.grade]))
    table = Table(title=f"Top plays ({measure(p)})", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("play")
    table.add_column("percent" if p.unit == "chance" else "value", justify="right")
    table.add_column("gives up", justify="right")
    table.add_column("")
    for i, c in table_rows(g):
        style = "green" if i == 1 else ("bold" if c == g.chosen else "")
        table.add_row(
            str(i),
            play_short(p, c),
            value_text(p, c.value),
            _gives_up(g, c),
            "your play" if c == g.chosen else "",
            style=style,
        )
    parts.append(table)
    parts += [Text(strategy_text(n), style="cyan") for n in notes]
    return RichGroup(*parts)


# -- the summary


def _grade_counts(s: Summary) -> str:
    return ", ".join(f"{s.grades[gr]} {GRADE_PLURALS[gr] if s.grades[gr] != 1 else gr}" for gr in GRADES)


def rating_scale() -> str:
    """``"solver <1, expert <3, ..., beginner 30+"``: the first whose bound the average is under."""
    bounds = [f"{name} <{bound:g}" for bound, name in RATINGS[:-1]]
    return ", ".join(bounds) + f", {RATINGS[-1][1]} {RATINGS[-2][0]:g}+"


def summary_lines(s: Summary, *, planned: int, stopped: bool) -> list[str]:
    if not s.decisions:
        return ["No decisions made, so nothing was recorded."]
    out = []
    if stopped:
        out.append(f"Stopped after {s.decisions} of {planned} decisions; every answer given is saved.")
    out.append(f"Session: {_count(s.decisions, 'decision')}: {_grade_counts(s)}.")
    by_chance, by_points = s.chance_decisions, s.point_decisions
    if s.average_points_lost is not None:
        where = f" over {_count(by_points, 'expected-score decision')}" if by_chance else ""
        out.append(f"Average loss{where}: {ev(s.average_points_lost)} points of expected turn score.")
    if s.average_chance_lost is not None:
        where = f" over {_count(by_chance, 'final-round decision')}" if by_points else ""
        out.append(
            f"Average loss{where}: {s.average_chance_lost:.2f} percentage points of the chance to pass."
        )
    assert s.average_loss is not None and s.rating is not None
    counted = f" (a percentage point counts as {POINTS_PER_PERCENTAGE_POINT:g} points)" if by_chance else ""
    out.append(f"Rating: {s.rating}, from {ev(s.average_loss)} points lost per decision{counted}.")
    out.append(f"  Scale (points lost per decision): {rating_scale()}.")
    if s.worst is not None:
        number, g = s.worst
        p = g.position
        out.append(f"Worst decision: number {number} ({KIND_NAMES[p.kind]}).")
        out.append(f"  {question_line(p)}")
        out.append(
            f"  You: {play_words(p, g.chosen)} ({value_text(p, g.chosen.value)}). "
            f"Best: {play_words(p, g.best)} ({value_text(p, g.best.value)}). "
            f"{loss_text(p, g.lost).capitalize()} lost."
        )
    return out


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
    return RichGroup(*parts)
