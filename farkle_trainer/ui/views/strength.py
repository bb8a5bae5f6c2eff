"""A player's strength against perfect play, in words: one game's, and (below) across games.

One game's figure (:class:`~farkle_trainer.training.games.analysis.Strength`) reads in the
game's unit: a chance of winning, points or turns, always beside what perfect play expects from
the same seat and what the player's decisions gave up, which are the two numbers it is made of.
"""

from __future__ import annotations

from collections.abc import Sequence

from farkle_trainer.engine.grading import Unit
from farkle_trainer.engine.notation import ev, percent, plural
from farkle_trainer.training.games.analysis import Strength
from farkle_trainer.training.games.setup import Setup


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
