"""A game move by move, as ``review`` shows it: each roll, its luck, and every play of it.

A move reads as GNU Backgammon's analysis of a move does: the position, the luck of the roll
(what the dice gave against the mean of every fair roll), the play made, and every play the
roll allowed (the dice set aside, then bank or roll on) with its value and what it gives up
against the best, best first, the play made marked and a play as good as the best said to be.
Every number belongs to the player who moved, and says so: ``Hard's chance of winning``.

Plain text (``--plain``, a pipe, a screen reader) has a sentence a play; a terminal a table like
``hint``'s, or those sentences where the table would not fit the width.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from farkle_trainer.engine.grading import Grade, Unit, gives_up_text
from farkle_trainer.engine.notation import dice_count, dice_text, plural
from farkle_trainer.engine.notation import points as pts
from farkle_trainer.training.games import match as m
from farkle_trainer.ui.views.engine import ROW_STYLES
from farkle_trainer.ui.views.fit import fit
from farkle_trainer.ui.views.play import does, value_text

if TYPE_CHECKING:
    from rich.console import RenderableType

    from farkle_trainer.engine.ranked import Candidate
    from farkle_trainer.training.games.analysis import Step


def possessive(name: str) -> str:
    """``your``, ``Hard's``: whose a number is."""
    return "your" if name == "You" else f"{name}'s"


def _capital(text: str) -> str:
    return text[0].upper() + text[1:]


def measure(unit: Unit, name: str) -> str:
    """What a value of ``name``'s move is: ``Hard's chance of winning``."""
    whose = possessive(name)
    return {
        Unit.WIN: f"{whose} chance of winning",
        Unit.CHANCE: f"{whose} chance of passing the leader",
        Unit.TURNS: f"{whose} expected turns still needed after this one",
        Unit.POINTS: f"the points {whose} turn is expected to bank",
    }[unit]


#: The value column's heading in the table of plays.
_COLUMN = {Unit.WIN: "to win", Unit.CHANCE: "to pass", Unit.TURNS: "turns", Unit.POINTS: "points"}


def luck_text(luck: float, unit: Unit) -> str:
    """``+4.43 pp``, ``-120.00 points``, ``+0.12 turns``: a roll's luck, signed, in its unit."""
    if unit.is_chance:
        return f"{luck:+.2f} pp"
    if unit == Unit.TURNS:
        return f"{luck:+.2f} turns"
    return f"{luck:+,.2f} points"


def _name(state: m.MatchState, move: m.Move) -> str:
    return state.setup.players[move.seat].name


def _scores_then(state: m.MatchState, move: m.Move) -> str:
    setup = state.setup
    if setup.form.solo:
        return f"{pts(move.score)} banked"
    return ", ".join(f"{p.name} {pts(s)}" for p, s in zip(setup.players, move.scores, strict=True))


def heading(state: m.MatchState, step: Step, number: int, count: int) -> str:
    """``Move 2 of 6, turn 2 (You 400, Hard 0): Hard rolls 3 6 6 3 5 6.``"""
    move = step.move
    stake = f", {pts(move.points)} at stake" if move.points else ""
    last = ", a last turn" if move.last_turn else ""
    return (
        f"Move {number} of {count}, turn {move.turn}{last} ({_scores_then(state, move)}): "
        f"{does(_name(state, move), 'rolls')} {dice_text(move.roll)}{stake}."
    )


def luck_line(state: m.MatchState, step: Step) -> str:
    """The roll's luck for whoever threw it, with the two values it is the difference of."""
    name, unit = _name(state, step.move), step.plays.unit
    before, after = step.plays.before.amount, step.plays.after.amount
    then = "after the Farkle" if step.plays.is_farkle else "with its best play"
    return (
        f"  Luck of the roll: {luck_text(step.luck, unit)} for {'you' if name == 'You' else name} "
        f"({measure(unit, name)}: {value_text(before, unit)} before it, {value_text(after, unit)} {then})."
    )


def play_text(c: Candidate) -> str:
    """``keep 1 3 3 3 and bank 400``, ``keep 1 and roll 5 dice``, ``keep 1 5 and roll all 6 dice``."""
    if c.action == "bank":
        return f"keep {dice_text(c.keep)} and bank {pts(c.points_after)}"
    return f"keep {dice_text(c.keep)} and roll {'all 6 dice' if c.hot_dice else dice_count(c.dice_left)}"


def _made(step: Step) -> Candidate | None:
    move = step.move
    if step.review is None:
        return None
    return step.plays.choice(move.keep, "bank" if move.action == "bank" else "roll")


def _verdict(step: Step, i: int, c: Candidate) -> str:
    """``best``, ``equal best`` (a play that gives up nothing worth a grade), or the loss."""
    if i == 1:
        return "best"
    if step.plays.grade(c) == Grade.BEST:
        return "equal best"
    return f"gives up {gives_up_text(step.plays.loss(c), step.plays.unit)}"


def played_line(state: m.MatchState, step: Step) -> str:
    """``  Hard played: keep 5 6 6 6 and bank 650, 49.57%: the best play.``, or what it gave up."""
    move, r = step.move, step.review
    name = _name(state, move)
    if r is None:
        lost = f"the {pts(move.points)} at stake are lost" if move.points else "the turn scores nothing"
        return f"  A Farkle: {lost}."
    made = _made(step)
    assert made is not None
    said = f"  {name} played: {play_text(made)}, {value_text(r.chosen, r.unit)}"
    if r.gave_up == 0:
        return f"{said}: the best play."
    return f"{said}: gives up {gives_up_text(r.lost, r.unit)} ({r.grade})."


def plays_heading(state: m.MatchState, step: Step) -> str:
    name = _name(state, step.move)
    return f"  {_capital(possessive(name))} plays, best first ({measure(step.plays.unit, name)}):"


def play_lines(step: Step) -> list[str]:
    """Every play of the roll, best first, a sentence each: ``2. keep 1 and bank 400: 53.20%,
    gives up 0.14 pp. Played (fine).``"""
    made = _made(step)
    unit = step.plays.unit
    out = []
    for i, c in enumerate(step.plays.candidates, 1):
        mark = ""
        if c == made:
            grade = step.plays.grade(c)
            mark = " Played." if grade == Grade.BEST else f" Played ({grade})."
        out.append(
            f"  {i:>3}. {play_text(c)}: {value_text(c.value.amount, unit)}, {_verdict(step, i, c)}.{mark}"
        )
    return out


def step_lines(state: m.MatchState, step: Step, number: int, count: int) -> list[str]:
    """One move in plain lines: where it was played from, the luck of the roll, the play made and
    every play the roll allowed (none after a Farkle)."""
    out = [heading(state, step, number, count), luck_line(state, step), played_line(state, step)]
    if step.review is not None:
        out += [plays_heading(state, step), *play_lines(step)]
    return out


def moves_heading(count: int) -> str:
    return f"Every move, with the luck of its roll and every play it allowed ({plural(count, 'move')}):"


def moves_lines(state: m.MatchState, steps: Sequence[Step]) -> list[str]:
    """Every move of the game, in order."""
    out = [moves_heading(len(steps))]
    for number, step in enumerate(steps, 1):
        out += step_lines(state, step, number, len(steps))
    return out


def _played_style(step: Step) -> str:
    r = step.review
    return "" if r is None or r.right else "yellow"


def step_rich(state: m.MatchState, step: Step, number: int, count: int) -> RenderableType:
    """One move on a terminal: the plays as a table like ``hint``'s, the play made marked; the
    plain lines where the table would not fit."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    parts: list[RenderableType] = [
        Text(heading(state, step, number, count), style="bold"),
        Text(luck_line(state, step)),
        Text(played_line(state, step), style=_played_style(step)),
    ]
    if step.review is not None:
        unit = step.plays.unit
        table = Table(title=plays_heading(state, step).strip(), title_justify="left", show_edge=False)
        for column, justify in (("#", "right"), ("keep", "left"), ("then", "left"), (_COLUMN[unit], "right")):
            table.add_column(column, justify=justify, no_wrap=True)  # type: ignore[arg-type]
        table.add_column("gives up", justify="right", no_wrap=True)
        table.add_column("", no_wrap=True)
        made = _made(step)
        for i, c in enumerate(step.plays.candidates, 1):
            verdict = _verdict(step, i, c)
            then = f"bank {pts(c.points_after)}" if c.action == "bank" else play_text(c).split(" and ")[1]
            style = ROW_STYLES.get(verdict, "")
            if c == made and not style:
                style = "bold" if step.plays.grade(c).right else "bold yellow"
            table.add_row(
                str(i),
                dice_text(c.keep),
                then,
                value_text(c.value.amount, unit),
                "-" if verdict == "best" else verdict.removeprefix("gives up "),
                "played" if c == made else "",
                style=style,
            )
        parts.append(table)
    return fit(Group(*parts), "\n".join(step_lines(state, step, number, count)))


def moves_rich(state: m.MatchState, steps: Sequence[Step]) -> RenderableType:
    """Every move on a terminal (``review --moves``), each as the walk shows it."""
    from rich.console import Group
    from rich.text import Text

    count = len(steps)
    return Group(Text(moves_heading(count)), *(step_rich(state, s, n, count) for n, s in enumerate(steps, 1)))


# -- the walk through the moves on a terminal


def mistakes(state: m.MatchState, steps: Sequence[Step]) -> list[int]:
    """The moves (from 0) where a person of the game played an inaccuracy or worse: those ``m``
    and ``M`` go to."""
    people = state.setup.players
    return [
        i
        for i, s in enumerate(steps)
        if s.review is not None and not s.review.right and people[s.move.seat].human
    ]


def _people(state: m.MatchState) -> list[str]:
    return [p.name for p in state.setup.players if p.human]


@dataclass(frozen=True)
class WalkWords:
    """What the walk through a game says where a key leads nowhere (see
    :class:`farkle_trainer.ui.walk.WalkWords`)."""

    #: Whose mistakes ``m`` and ``M`` go to: ``you``, ``Ana``, ``Ana or Ben``.
    by: str

    @classmethod
    def of(cls, state: m.MatchState) -> WalkWords:
        names = ["you" if n == "You" else n for n in _people(state)]
        return cls(" or ".join(names) if names else "anyone")

    def first(self) -> str:
        return "This is the first move."

    def no_marked(self) -> str:
        return f"No mistake by {self.by} in this game: every decision was best or fine."

    def none_after(self, number: int) -> str:
        return f"No mistake by {self.by} after move {number}."

    def none_before(self, number: int) -> str:
        return f"No mistake by {self.by} before move {number}."

    def no_such_page(self, number: int, count: int) -> str:
        return f"There is no move {number:,}: the moves are 1 to {count:,}."

    def typing(self, digits: str) -> str:
        return f"Go to move {digits} (Enter)"


def walk_intro(state: m.MatchState) -> str:
    by = WalkWords.of(state).by
    return (
        "Move by move: n (or an arrow) walks through the game, m goes to the first mistake by "
        f"{by} (an inaccuracy or worse), a number and Enter to that move; q or Enter leaves."
    )


def walk_prompt(number: int, count: int) -> str:
    return (
        f"Move {number} of {count}: n next, p back (the arrows too), m next mistake, M the one before, "
        "a number and Enter goes to that move, q leaves"
    )


# -- as figures


def step_json(step: Step) -> dict[str, object]:
    """A move's luck and plays as figures, in the move's unit: values in the unit's own terms (a
    chance from 0 to 1), ``luck`` and each ``loss`` as shown (percentage points for a chance)."""
    made = _made(step)
    plays = step.plays
    return {
        "unit": plays.unit.value,
        "value_before": plays.before.amount,
        "luck": step.luck,
        "candidates": [
            {
                "keep": list(c.keep),
                "action": c.action,
                "value": c.value.amount,
                "loss": plays.loss(c),
                "made": c == made,
            }
            for c in plays.candidates
        ],
    }
