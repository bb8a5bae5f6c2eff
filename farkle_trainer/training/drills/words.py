"""A drill's position in words: the question every front end asks, every record and result file
keeps, a worksheet prints and a class report checks.

The words of a drill's question are training's, as a quiz's question text is: records and result
files keep them, worksheets print them and ``verify`` checks them where no screen is at hand. How
a grading reads on screen is the views' (:mod:`farkle_trainer.ui.views.drills`); how a play is
written, the engine's notation (:func:`~farkle_trainer.engine.decisions.play_words`).
"""

from __future__ import annotations

from farkle_trainer.engine.decisions import Position
from farkle_trainer.engine.grading import Unit
from farkle_trainer.engine.house import opened
from farkle_trainer.engine.notation import dice_count, dice_text, ev, in_a_row, percent, points
from farkle_trainer.engine.situations import FewestTurns, ReachTotal, WinGame
from farkle_trainer.engine.solver import STEP
from farkle_trainer.engine.value import Value


def _so_far(p: Position) -> str:
    if p.points == 0:
        return "Nothing set aside yet this turn."
    return f"{points(p.points)} points set aside this turn."


def _not_opened(opening: int) -> str:
    return f"You have not opened yet: you cannot bank a turn worth less than {points(opening)}."


def _game_lines(s: WinGame | FewestTurns) -> list[str]:
    """A game's or a solo game's scores, house rules and who has opened."""
    runs = s.runs
    if isinstance(s, FewestTurns):
        out = [
            f"Solo to {points(s.target)} in as few turns as you can: you have {points(s.score)} banked"
            f"{in_a_row(runs.my_farkles)}."
        ]
    elif s.last_turn:
        behind = s.opponent - s.score
        out = [
            f"Your last turn in a game to {points(s.target)}: your opponent reached it with "
            f"{points(s.opponent)}, and you have {points(s.score)} banked.",
            f"You need {points(behind + STEP)} this turn to win; {points(behind)} ties, and a tie "
            "shares the win.",
        ]
    else:
        theirs = f"{points(s.opponent)}{in_a_row(runs.opponent_farkles)}"
        out = [
            f"Game to {points(s.target)} against one opponent: you have {points(s.score)} banked"
            f"{in_a_row(runs.my_farkles)}, your opponent {theirs}."
        ]
    last_turn = isinstance(s, WinGame) and s.last_turn
    penalty = s.rules.three_farkle_penalty
    if penalty and not last_turn:
        out.append(f"Three Farkles in a row cost {points(penalty)} (never below 0).")
    if s.opening:
        if not opened(s.score, runs):
            out.append(_not_opened(s.opening))
        elif not s.score:
            out.append(
                f"You have opened already (the penalty knocked you back to 0): the opening minimum "
                f"of {points(s.opening)} no longer holds you."
            )
        if isinstance(s, WinGame) and not s.opponent:
            out.append(
                "Your opponent has opened already (the penalty knocked them back to 0)."
                if runs.opponent_opened
                else f"Your opponent has not opened yet (opening minimum {points(s.opening)})."
            )
    return out


def _goal_lines(p: Position) -> list[str]:
    """What the position is played for, in the words of its goal."""
    s = p.situation
    if isinstance(s, WinGame | FewestTurns):
        return _game_lines(s)
    if isinstance(s, ReachTotal):
        assert p.leader is not None and p.banked is not None
        out = [
            f"Final round: the leader has {points(p.leader)} and you have {points(p.banked)} banked, "
            f"so you need {points(s.need)} this turn to pass."
        ]
        return out + ([_not_opened(s.opening)] if s.opening else [])
    if s.opening:
        return [f"You have nothing banked yet: you cannot bank a turn worth less than {points(s.opening)}."]
    if s.farkle_cost:
        assert p.banked is not None
        return [
            f"You have {points(p.banked)} banked{in_a_row(p.runs.my_farkles)}: a Farkle now costs "
            f"{points(s.farkle_cost)} more (three in a row cost {points(p.rules.three_farkle_penalty)}, "
            "never below 0)."
        ]
    return []


def situation_lines(p: Position) -> list[str]:
    """The moment to decide, in sentences: scores, turn points and the roll."""
    out = _goal_lines(p)
    if p.kept is not None:
        n = p.dice_to_roll
        left = "hot dice, all 6 to roll again" if len(p.kept) == len(p.roll) else f"{dice_count(n or 0)} left"
        out.append(
            f"{_so_far(p)} You rolled {dice_text(p.roll)} and set aside {dice_text(p.kept)}: "
            f"{points(p.at_stake)} points at stake, {left}."
        )
    elif p.points and len(p.roll) == 6:
        # Six dice with points at stake can only come from hot dice; say so, or it reads like a slip.
        out.append(
            f"Hot dice: all six scored, so you roll six again with {points(p.points)} at stake: "
            f"{dice_text(p.roll)}"
        )
    else:
        out.append(f"{_so_far(p)} You roll {dice_count(len(p.roll))}: {dice_text(p.roll)}")
    return out


def question_line(p: Position) -> str:
    """The situation in one line, as kept in the progress records."""
    return " ".join(situation_lines(p))


def value_text(value: Value) -> str:
    """A value as a drill shows it: ``51.35%``, ``702.35`` points, ``4.123`` turns."""
    if value.unit.is_chance:
        return percent(value.amount)
    return f"{value.amount:.3f}" if value.unit == Unit.TURNS else ev(value.amount)


def measure(unit: Unit) -> str:
    """What values in ``unit`` measure, as a drill names it."""
    return {
        Unit.CHANCE: "chance of passing the leader",
        Unit.WIN: "chance of winning",
        Unit.TURNS: "expected turns after this one",
    }.get(unit, "expected turn score")
