"""How engine results look: plain text, rich renderables and JSON data.

Each result has three views built from the same data, so the plain front end,
the rich one and ``--json`` can never disagree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from farkle_trainer.engine.grading import Unit, gives_up_text
from farkle_trainer.engine.notation import dice_text, ev, percent, points
from farkle_trainer.ui.views.fit import fit

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.table import Table

    from farkle_trainer.engine.plays import Hint, Play
    from farkle_trainer.engine.scoring import Explanation, Split
    from farkle_trainer.engine.strategy import Strategy


def _rules_label(name: str) -> str:
    return f"{name} rules"


# -- explain


def split_data(split: Split | None) -> dict[str, Any] | None:
    if split is None:
        return None
    return {
        "keep": list(split.dice),
        "score": split.points,
        "groups": [{"name": g.name, "dice": list(g.dice), "points": g.points} for g in split.groups],
    }


def explain_data(e: Explanation, rules_name: str) -> dict[str, Any]:
    part = e.split or e.scoring_part
    return {
        "dice": list(e.dice),
        "rules": rules_name,
        "score": e.score,
        "valid": e.split is not None,
        "groups": split_data(part)["groups"] if part else [],  # type: ignore[index]
        "non_scoring": [d for dead in e.dead for d in dead.dice],
        "reasons": [{"dice": list(d.dice), "reason": d.reason} for d in e.dead],
        "farkle": e.farkle,
        "best": split_data(e.best),
    }


def _as_roll_text(e: Explanation) -> str:
    if e.farkle:
        return "As a roll: a Farkle. Nothing in it scores, so the turn's points are lost."
    assert e.best is not None
    if e.best.dice == e.dice:
        return f"As a roll: set all of them aside for {points(e.best.points)}."
    return (
        f"As a roll: the most you can set aside is {dice_text(e.best.dice)} "
        f"for {points(e.best.points)} ({e.best.describe()})."
    )


def explain_text(e: Explanation, rules_name: str) -> str:
    out = [f"Dice: {dice_text(e.dice)} ({_rules_label(rules_name)})"]
    if e.split is not None:
        out.append(f"Score: {points(e.split.points)}")
        out += [f"  {g.name} ({dice_text(g.dice)}): {points(g.points)}" for g in e.split.groups]
    else:
        out.append("Score: not a valid set-aside, because some dice score nothing.")
        if e.scoring_part is not None:
            part = e.scoring_part
            out.append(f"  These score {points(part.points)}: {part.describe()}.")
        out += [f"  {dice_text(d.dice)}: {d.reason}." for d in e.dead]
    out.append(_as_roll_text(e))
    return "\n".join(out)


def explain_rich(e: Explanation, rules_name: str) -> RenderableType:
    from rich.console import Group as RichGroup
    from rich.table import Table
    from rich.text import Text

    title = f"{dice_text(e.dice)}  ({_rules_label(rules_name)})"
    parts: list[RenderableType] = []
    shown = e.split or e.scoring_part
    if shown is not None:
        table = Table(title=title, title_justify="left", show_footer=e.split is not None)
        table.add_column("group", footer="total")
        table.add_column("dice")
        table.add_column("points", justify="right", footer=points(shown.points))
        for g in shown.groups:
            table.add_row(g.name, dice_text(g.dice), points(g.points))
        parts.append(table)
    else:
        parts.append(Text(title, style="bold"))
    if e.split is None:
        parts.append(Text("Not a valid set-aside: some dice score nothing.", style="bold red"))
        for d in e.dead:
            parts.append(Text(f"  {dice_text(d.dice)}: {d.reason}.", style="red"))
    parts.append(Text(_as_roll_text(e), style="yellow" if e.farkle else ""))
    return fit(RichGroup(*parts), explain_text(e, rules_name))


# -- hint


def play_data(h: Hint, p: Play) -> dict[str, Any]:
    data: dict[str, Any] = {
        "keep": list(p.keep),
        "score": p.score,
        "groups": [{"name": g.name, "dice": list(g.dice), "points": g.points} for g in p.split.groups],
        "points_after": p.points_after,
        "dice_left": p.dice_left,
        "bank_ev": p.expected.bank,
        "roll_ev": p.expected.roll,
        "ev": p.expected.best,
        "best_action": p.value.action,
        "gives_up": h.gives_up(p),
    }
    if p.chance is not None:
        data |= {
            "bank_chance": p.chance.bank,
            "roll_chance": p.chance.roll,
            "chance": p.chance.best,
        }
    return data


def hint_data(h: Hint) -> dict[str, Any]:
    reach = h.objective.kind == "reach"
    return {
        "roll": list(h.roll),
        "points": h.points,
        "rules": h.rules.name,
        "objective": "reach" if reach else "expected",
        "need": h.objective.need if reach else None,
        "opening": h.objective.opening,
        "farkle": h.farkle,
        "options": [play_data(h, p) for p in h.plays],
    }


def _value_text(h: Hint, value: float | None) -> str:
    if value is None:
        return "not allowed"
    return percent(value) if h.objective.kind == "reach" else ev(value)


def _play_words(p: Play) -> str:
    kept = f"set aside {dice_text(p.keep)} ({points(p.score)})"
    if p.value.action == "bank":
        return f"{kept} and bank {points(p.points_after)}"
    if p.dice_left == 0:
        return f"{kept}: hot dice, roll all 6 again"
    return f"{kept} and roll {p.dice_left} {'die' if p.dice_left == 1 else 'dice'}"


def _hint_heading(h: Hint) -> list[str]:
    out = [f"Roll: {dice_text(h.roll)}, {points(h.points)} points at stake ({_rules_label(h.rules.name)})"]
    if h.objective.opening:
        out.append(f"Opening minimum {points(h.objective.opening)}: no bank below it.")
    if h.objective.kind == "reach":
        out.append(f"Playing to end the turn with at least {points(h.objective.need)}: values are chances.")
    return out


def _hint_summary(h: Hint) -> str:
    if h.best is None:
        lost = f"the {points(h.points)} points at stake are lost" if h.points else "the turn scores nothing"
        return f"Farkle: nothing in this roll scores, so {lost} and the turn ends."
    best = h.best
    measure = "chance of reaching it" if h.objective.kind == "reach" else "expected turn score"
    return f"Best play: {_play_words(best)}; {measure} {_value_text(h, best.value.best)}."


def _gives_up(h: Hint, p: Play) -> str:
    """``"42.07 points"``, ``"3.27 pp"``: what a play gives up against the best, with its unit."""
    lost = h.gives_up(p)
    if h.objective.kind == "reach":
        return gives_up_text(100 * lost, Unit.CHANCE)
    return gives_up_text(lost, Unit.POINTS)


def _verdict(h: Hint, i: int, p: Play) -> str:
    """``"best"``, ``"equal best"`` for a play that gives up nothing shown, else ``"gives up"``."""
    if i == 1:
        return "best"
    return "equal best" if h.ties_best(p) else "gives up"


def _gives_up_cell(h: Hint, p: Play, verdict: str) -> str:
    """The rich table's "gives up": a loss, "-" for the best play, "equal best" for one as good."""
    if verdict == "gives up":
        return _gives_up(h, p)
    return "-" if verdict == "best" else verdict


def _hint_rows(h: Hint) -> list[list[str]]:
    rows = []
    for i, p in enumerate(h.plays, 1):
        v = p.value
        verdict = _verdict(h, i, p)
        rows.append(
            [
                f"{i}.",
                f"keep {dice_text(p.keep)}",
                f"+{points(p.score)}",
                "hot dice" if p.dice_left == 0 else f"{p.dice_left} left",
                f"bank {_value_text(h, v.bank).rjust(len('not allowed'))}",
                f"roll {_value_text(h, v.roll)}",
                f"-> {v.action}, {verdict}",
                _gives_up(h, p) if verdict == "gives up" else "",
            ]
        )
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    # Bank values are padded as if "not allowed" were among them; trim back to the widest shown.
    bank_width = max(len(_value_text(h, p.value.bank)) for p in h.plays)
    for r in rows:
        r[4] = "bank " + r[4][len("bank ") :].strip().rjust(bank_width)
        r[5] = "roll " + r[5][len("roll ") :].rjust(widths[5] - len("roll "))
    return rows


#: Rich hint rows: the best play stands out, and a play as good as it is marked the same way.
ROW_STYLES = {"best": "bold green", "equal best": "green"}

_PLAY_COLUMNS = (
    ("#", "right"),
    ("keep", "left"),
    ("points", "right"),
    ("dice left", "right"),
    ("bank", "right"),
    ("roll on", "right"),
    ("play", "left"),
    ("gives up", "right"),
)


def plays_table(*, no_wrap: bool = False) -> Table:
    """The hint's table of plays, for expected points and for win chances alike."""
    from rich.table import Table

    table = Table()
    for name, justify in _PLAY_COLUMNS:
        table.add_column(name, justify=justify, no_wrap=no_wrap)  # type: ignore[arg-type]
    return table


#: Plain hint columns: which are right-aligned (numbers), the rest left-aligned.
_RIGHT = (True, False, True, False, False, False, False, True)


def hint_text(h: Hint, width: int | None = None) -> str:
    """The hint as lines: a play a line in columns, or two lines a play where those would not
    fit ``width`` (what to do, then its values)."""
    out = _hint_heading(h)
    out.append(_hint_summary(h))
    if h.plays:
        out.append("Plays, best first (bank / roll on / gives up):")
        rows = _hint_rows(h)
        lines = _columns(rows, _RIGHT)
        if width is not None and max(len(line) for line in lines) > width:
            what = _columns([[*r[:4], r[6]] for r in rows], (True, False, True, False, False))
            values = _columns([["", *r[4:6], *r[7:]] for r in rows], (True, False, False, True))
            lines = [line for pair in zip(what, values, strict=True) for line in pair]
        out += lines
    return "\n".join(out)


def _columns(rows: list[list[str]], right: tuple[bool, ...]) -> list[str]:
    widths = [max(len(r[c]) for r in rows) for c in range(len(right))]
    # A verdict with no loss after it ("-> bank, equal best") ends its line: only the
    # verdicts of plays that give something up set where the losses start.
    losing = [r for r in rows if r[-1]]
    if losing and len(right) == len(_RIGHT):
        widths[-2] = max(len(r[-2]) for r in losing)
    lines = []
    for r in rows:
        cells = [cell.rjust(w) if rj else cell.ljust(w) for cell, w, rj in zip(r, widths, right, strict=True)]
        lines.append(("  " + "  ".join(cells)).rstrip())
    return lines


def hint_rich(h: Hint) -> RenderableType:
    from rich.console import Group as RichGroup
    from rich.text import Text

    heading = _hint_heading(h)
    parts: list[RenderableType] = [Text(heading[0], style="bold")]
    parts += [Text(line, style="dim") for line in heading[1:]]
    if h.plays:
        table = plays_table()
        for i, p in enumerate(h.plays, 1):
            v = p.value
            verdict = _verdict(h, i, p)
            table.add_row(
                str(i),
                dice_text(p.keep),
                points(p.score),
                "hot dice" if p.dice_left == 0 else str(p.dice_left),
                _value_text(h, v.bank),
                _value_text(h, v.roll),
                v.action,
                _gives_up_cell(h, p, verdict),
                style=ROW_STYLES.get(verdict, ""),
            )
        parts.append(table)
    parts.append(Text(_hint_summary(h), style="bold" if h.plays else "bold yellow"))
    return fit(RichGroup(*parts), lambda width: hint_text(h, width))


# -- strategy


def strategy_data(s: Strategy) -> dict[str, Any]:
    return {
        "rules": s.rules.name,
        "opening": s.opening,
        "expected_turn_score": s.expected_turn_score,
        "farkle_chance": {str(n): float(f) for n, f in s.farkle_chance.items()},
        "farkle_chance_exact": {str(n): str(f) for n, f in s.farkle_chance.items()},
        "roll_while_at_most": {str(n): t for n, t in s.roll_while_at_most.items()},
    }


def _threshold_text(t: int | None) -> str:
    return "never roll" if t is None else points(t)


def _strategy_notes(s: Strategy) -> list[str]:
    notes = [
        f"A turn played perfectly scores {ev(s.expected_turn_score)} on average "
        f"(about {points(round(10 * s.expected_turn_score))} over ten turns).",
        "Roll on while your turn total is at most the threshold for the dice you would roll; bank above it.",
        "Hot dice count as six dice to roll.",
    ]
    if s.opening:
        notes.append(f"With nothing banked yet, you cannot bank below {points(s.opening)}.")
    return notes


def strategy_text(s: Strategy) -> str:
    out = [f"Strategy for {_rules_label(s.rules.name)}", *_strategy_notes(s), ""]
    out.append("Dice to roll  Farkle chance       Roll while turn is at most")
    for n in range(6, 0, -1):
        f = s.farkle_chance[n]
        chance = f"{percent(float(f))} ({f})"
        out.append(f"  {n:<11} {chance:<19} {_threshold_text(s.roll_while_at_most[n])}")
    return "\n".join(out)


def strategy_rich(s: Strategy) -> RenderableType:
    from rich.console import Group as RichGroup
    from rich.table import Table
    from rich.text import Text

    table = Table(title=f"Strategy for {_rules_label(s.rules.name)}", title_justify="left")
    table.add_column("dice to roll", justify="right")
    table.add_column("Farkle chance", justify="right")
    table.add_column("exact", justify="right")
    table.add_column("roll while turn is at most", justify="right")
    for n in range(6, 0, -1):
        f = s.farkle_chance[n]
        table.add_row(str(n), percent(float(f)), str(f), _threshold_text(s.roll_while_at_most[n]))
    return fit(RichGroup(table, *(Text(line) for line in _strategy_notes(s))), strategy_text(s))
