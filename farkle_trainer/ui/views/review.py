"""What follows a game: its analysis, the chance of winning through it, every move, its figures.

The same words end a game (``play``) and show it again (``review``). In plain text the chance
of winning is a table, a row each turn; on a terminal a chart with axes, the turns along the
bottom and an even chance marked across (:mod:`farkle_trainer.ui.chart`), or the table again
where the screen is too narrow for one. A walk through the moves shows each one as it was
played against the best play, in the unit the game is graded in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from farkle_trainer.engine.grading import Unit, gives_up_text, in_points, loss_unit_name, rating_figure
from farkle_trainer.engine.notation import dice_text, percent, plural
from farkle_trainer.engine.notation import points as pts
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games.setup import Setup
from farkle_trainer.ui.chart import LineChart, Reference, Series, chart_rich, percent_ticks
from farkle_trainer.ui.views import drills
from farkle_trainer.ui.views.drills import GRADE_PLURALS
from farkle_trainer.ui.views.fit import fit
from farkle_trainer.ui.views.moves import step_json
from farkle_trainer.ui.views.play import house, line_up, play_words, result_line, value_text
from farkle_trainer.ui.views.strength import luck_adjusted_line, strength_json, strength_line

# The analysis loads the solvers: only what it found is shown here.
if TYPE_CHECKING:
    from rich.console import RenderableType

    from farkle_trainer.training.games.analysis import Account, Analysis, Review, Summary

#: What became of a game's mistakes: said at its end, and when it is reviewed.
personal_line = drills.personal_line

#: The review shows this many costly decisions in full, the worst first.
REVIEW_IN_FULL = 3
#: Rows of the chart of the chance of winning, its axis included.
CHART_HEIGHT = 14
#: What the chart's last step is called: the game's result, once it has one.
END_STEP = "end"


def _where(r: Review, setup: Setup) -> str:
    """Which decision: ``Turn 4, Ana rolled 1 2 5 with 300 at stake``. A turn has a decision for
    each roll, and in pass and play each person has theirs: the turn alone tells none apart."""
    move = r.move
    name = setup.players[move.seat].name
    return f"Turn {move.turn}, {name} rolled {dice_text(move.roll)} with {pts(move.points)} at stake"


def _review_lines(r: Review, setup: Setup) -> list[str]:
    move = r.move
    played = play_words(move.keep, move.action, move.roll)
    best = play_words(r.best_keep, r.best_action, move.roll)
    return [
        f"  {_where(r, setup)}:",
        f"    played: {played}, {value_text(r.chosen, r.unit)}: gives up {gives_up_text(r.lost, r.unit)}",
        f"    best: {best}, {value_text(r.best_value, r.unit)}",
    ]


def _given_up_what(unit: Unit) -> str:
    return {Unit.WIN: "win chance", Unit.TURNS: "turns", Unit.CHANCE: "chance"}.get(unit, "points")


def _luck(a: Account) -> str:
    if a.unit == Unit.WIN:
        return f"{a.luck:+.2f} pp"
    if a.unit == Unit.TURNS:
        return f"{a.luck:+.2f} turns"
    return f"{a.luck:+,.2f} points"


def _average_loss(s: Summary) -> str:
    """The average loss in the unit the decisions were shown in; decisions shown in points and
    in pp (last turns) are averaged in points, at the rate ratings count a pp."""
    assert s.average_in_unit is not None
    shown = f"{rating_figure(s.average_in_unit, s.loss_unit)} {loss_unit_name(s.loss_unit)}"
    counted = f", a pp counted as {in_points(1.0, Unit.CHANCE):g} points" if s.mixed else ""
    return f"{shown} given up a decision on average{counted}"


def _errors_among(errors: int, lost: int) -> str:
    """How many of the decisions that gave something up were an inaccuracy or worse."""
    if errors == 0:
        return "none of them an inaccuracy or worse"
    if errors == 1:
        return "1 of them an inaccuracy or worse"
    return f"{'all' if errors == lost else errors} of them inaccuracies or worse"


def decision_lines(state: m.MatchState, a: Analysis) -> list[str]:
    """Every decision that gave up anything, counted, the worst in full: a play graded fine
    gives up a little too, and is counted with the rest."""
    total = len(a.reviews)
    lost = [r for r in a.reviews if r.gave_up > 0]
    if not total:
        return ["No decisions by a person to review."]
    if not lost:
        every = "The only decision was" if total == 1 else f"Every one of the {plural(total, 'decision')} was"
        return [f"{every} the best play."]
    errors = sum(1 for r in lost if not r.right)
    out = [
        f"Decisions that gave up {_given_up_what(a.unit)}: {len(lost)} of {total} "
        f"({_errors_among(errors, len(lost))}), worst first:"
    ]
    for r in lost[:REVIEW_IN_FULL]:
        out += _review_lines(r, state.setup)
    rest = lost[REVIEW_IN_FULL:]
    if rest:
        out.append(f"  and {len(rest):,} more:")
        out += [f"    {_where(r, state.setup)}: gives up {gives_up_text(r.lost, r.unit)}" for r in rest]
    return out


def summary_line(name: str, s: Summary) -> str:
    """``You: error rate 4.76% (1 of 21); rating advanced (...)``."""
    assert s.error_rate is not None and s.average_in_unit is not None
    return (
        f"{name}: error rate {percent(s.error_rate)} ({s.errors} of {s.decisions}); "
        f"rating {s.rating} ({_average_loss(s)})."
    )


def perfect_lines(state: m.MatchState, a: Analysis) -> list[str]:
    """A solo game's: what perfect play expects of it, and how far the game came from that."""
    setup = state.setup
    score, turns = state.scores[0], state.turns[0]
    if setup.form.for_turns:
        assert a.perfect is not None
        line = (
            f"Perfect play is expected to reach {pts(setup.target)} in {a.perfect:.2f} turns "
            "(the exact expectation from 0)"
        )
        if state.over:
            gap = turns - a.perfect
            line += f"; you took {turns}, {abs(gap):.2f} {'more' if gap > 0 else 'fewer'}"
        return [f"{line}."]
    limit = setup.form.turn_limit
    if limit is None:
        return []
    if a.perfect is None:
        # Under an opening minimum or the penalty a turn is worth what its start allows.
        played = len({move.turn for move in state.log})
        rules = [("an opening minimum", setup.opening), ("the three-Farkle penalty", setup.penalty)]
        under = " and ".join(words for words, on in rules if on)
        return [
            f"Played perfectly from where each of them started, your {plural(played, 'turn')} were "
            f"expected to score {a.accounts[0].expected:,.2f} (under {under} a turn is worth what "
            "its start allows)."
        ]
    line = (
        f"Perfect play is expected to score {a.perfect:,.2f} over {limit} turns ({limit} x "
        f"{a.perfect / limit:,.2f}, the exact expected score of a turn)"
    )
    if state.over:
        gap = score - a.perfect
        line += f"; your {pts(score)} is {abs(gap):,.2f} {'above' if gap >= 0 else 'below'} it"
    return [f"{line}."]


def grade_lines(state: m.MatchState, a: Analysis) -> list[str]:
    """Every player's decisions by grade, a computer's too: ``  Hard: 4 decisions: 4 best, ...``."""
    from farkle_trainer.training.games.analysis import grade_counts

    out = ["Decisions by grade:"]
    for seat, player in enumerate(state.setup.players):
        counts = grade_counts(a.steps, seat)
        made = sum(counts.values())
        if not made:
            out.append(f"  {player.name}: no decisions.")
            continue
        graded = ", ".join(f"{n} {gr if n == 1 else GRADE_PLURALS[gr]}" for gr, n in counts.items())
        out.append(f"  {player.name}: {plural(made, 'decision')}: {graded}.")
    return out


def analysis_lines(state: m.MatchState, a: Analysis) -> list[str]:
    """What perfect play expects (solo), the decisions, each person's summary and play against
    perfect play, and every player's luck and luck-adjusted result (the chance of winning
    through the game follows them: see :func:`chance_lines`)."""
    setup = state.setup
    names = [p.name for p in setup.players]
    out = perfect_lines(state, a) + decision_lines(state, a)
    for s in a.summaries:
        if s.error_rate is not None and s.average_in_unit is not None:
            out.append(summary_line(names[s.seat], s))
    for seat in setup.humans:
        if (strength := a.strength_of(seat)) is not None:
            out.append(strength_line(names[seat], strength, setup))
    out += grade_lines(state, a)
    luck = ", ".join(f"{names[x.seat]} {_luck(x)}" for x in a.accounts)
    out.append(f"Luck of the dice (against average, 0 on average): {luck}.")
    if (adjusted := luck_adjusted_line(names, a.strengths)) is not None:
        out.append(adjusted)
    return out


# -- the chance of winning through the game


def _whose(state: m.MatchState, a: Analysis) -> str:
    name = state.setup.players[a.chart_seat].name
    return "Your" if name == "You" else f"{name}'s"


def chance_heading(state: m.MatchState, a: Analysis) -> str:
    # Every row is the same player's chance, a turn the opponent rolls too: said, so that "Hard to
    # roll: 53.20%" is not read as Hard's.
    return (
        f"{_whose(state, a)} chance of winning through the game, at the start of each turn whoever rolls it:"
    )


def _has_result(state: m.MatchState, a: Analysis) -> bool:
    """Whether the last chance is the game's result (over, or given up), not a turn's start."""
    return state.over or a.resigned is not None


def chance_rows(state: m.MatchState, a: Analysis) -> list[str]:
    """A row a turn, whoever rolls it: the chance as it starts, then the result."""
    movers: dict[int, int] = {}
    for move in state.log:
        movers.setdefault(move.turn, move.seat)
    labels = []
    for i, (turn, _) in enumerate(a.chances):
        if i == len(a.chances) - 1 and _has_result(state, a):
            labels.append("resigned" if a.resigned is not None else "end of the game")
        else:
            labels.append(f"turn {turn}, {state.setup.players[movers[turn]].name} to roll")
    width = max(len(label) for label in labels) + 1
    return [
        f"  {label + ':':<{width}} {percent(c):>7}" for label, (_, c) in zip(labels, a.chances, strict=True)
    ]


def chance_lines(state: m.MatchState, a: Analysis) -> list[str]:
    return [chance_heading(state, a), *chance_rows(state, a)] if a.chances else []


def chance_chart(state: m.MatchState, a: Analysis) -> LineChart:
    """The chance of winning at each turn's start (and the result), over 0% to 100%, with an
    even chance marked across."""
    ended = _has_result(state, a)
    steps = tuple(
        END_STEP if ended and i == len(a.chances) - 1 else str(turn) for i, (turn, _) in enumerate(a.chances)
    )
    name = state.setup.players[a.chart_seat].name
    label = "your chance of winning" if name == "You" else f"{name}'s chance of winning"
    series = Series(label, tuple((i, c) for i, (_, c) in enumerate(a.chances)))
    even = Reference(0.5, "an even chance, 50%")
    return LineChart((series,), steps, 0.0, 1.0, percent_ticks(), even)


# -- the end of a game


def game_over_text(
    state: m.MatchState, a: Analysis | None, resigned: int | None = None, *, stopped: bool = False
) -> str:
    """How the game ended and its analysis; ``stopped``: set aside (or a challenge stopped) before
    its end (a game set aside before any move has no analysis to say so)."""
    stopped = stopped or (a is not None and a.stopped)
    lines = [result_line(state, resigned, stopped=stopped)]
    if a is not None:
        lines += analysis_lines(state, a) + chance_lines(state, a)
    return "\n".join(lines)


def game_over_rich(
    state: m.MatchState, a: Analysis | None, resigned: int | None = None, *, stopped: bool = False
) -> RenderableType:
    from rich.console import Group
    from rich.text import Text

    stopped = stopped or (a is not None and a.stopped)
    parts: list[RenderableType] = [Text(result_line(state, resigned, stopped=stopped), style="bold")]
    if a is not None:
        parts += [Text(line) for line in analysis_lines(state, a)]
        if a.chances:
            rows = "\n".join(chance_rows(state, a))
            parts.append(Text(chance_heading(state, a)))
            parts.append(chart_rich(chance_chart(state, a), CHART_HEIGHT, narrow=lambda width: rows))
    return fit(Group(*parts), game_over_text(state, a, resigned, stopped=stopped))


def review_heading(source: str, state: m.MatchState) -> str:
    played = plural(state.turn - 1, "turn")
    return f"{source}: {line_up(state.setup)} ({house(state.setup)}); {played} played."


# -- lines


def lines_rich(lines: Sequence[str], style: str = "") -> RenderableType:
    """Lines on a terminal, the first in bold, each wrapped for the width under its own start,
    never inside a number or a list of dice."""
    from rich.console import Group
    from rich.text import Text

    parts = [Text(lines[0], style="bold"), *(Text(line, style=style) for line in lines[1:])]
    return fit(Group(*parts), "\n".join(lines))


# -- as figures


def _review_json(r: Review, setup: Setup) -> dict[str, object]:
    move = r.move
    return {
        "turn": move.turn,
        "player": setup.players[move.seat].name,
        "roll": list(move.roll),
        "points": move.points,
        "keep": list(move.keep),
        "action": move.action,
        "value": r.chosen,
        "best_keep": list(r.best_keep),
        "best_action": r.best_action,
        "best_value": r.best_value,
        "lost": r.lost,
        "grade": str(r.grade),
    }


#: The unit of a summary's average loss, in words (``average_points`` is what the rating reads).
_JSON_UNITS = {
    Unit.POINTS: "points",
    Unit.CHANCE: "percentage points",
    Unit.WIN: "percentage points",
    Unit.TURNS: "turns",
}


def review_json(state: m.MatchState, a: Analysis | None, resigned: int | None) -> dict[str, object]:
    """A game and its analysis as figures (values in the unit's own terms: a chance 0 to 1,
    points or turns; ``lost`` and ``luck`` as shown, percentage points for a chance)."""
    setup = state.setup
    names = [p.name for p in setup.players]
    winners = m.final_winners(state, resigned)
    from farkle_trainer.training.games.analysis import grade_counts

    data: dict[str, object] = {
        "setup": setup.to_dict(),
        "scores": dict(zip(names, state.scores, strict=True)),
        "turns": dict(zip(names, state.turns, strict=True)),
        "over": state.over,
        "resigned": None if resigned is None else names[resigned],
        "winners": None if winners is None else [names[i] for i in winners],
        "moves": [mv.to_dict() for mv in state.log],
    }
    if a is not None:
        data["moves"] = [
            mv.to_dict() | {"player": names[mv.seat]} | step_json(step)
            for mv, step in zip(state.log, a.steps, strict=True)
        ]
    if a is None:
        data["analysis"] = None
        return data
    data["analysis"] = {
        "unit": a.unit.value,
        "set_aside": a.stopped,
        "perfect_expected": a.perfect,
        "decisions": [_review_json(r, setup) for r in a.reviews],
        "summaries": [
            {
                "player": names[s.seat],
                "decisions": s.decisions,
                "gave_up": s.gave_up,
                "errors": s.errors,
                "error_rate": s.error_rate,
                "average_loss": s.average_in_unit,
                "average_loss_unit": _JSON_UNITS[s.loss_unit],
                "average_points": s.average_loss,
                "rating": s.rating,
                "grades": {str(g): n for g, n in s.grades.items()},
            }
            for s in a.summaries
        ],
        "decisions_by_grade": [
            {"player": names[seat], "grades": {str(g): n for g, n in grade_counts(a.steps, seat).items()}}
            for seat in range(setup.size)
        ],
        "accounts": [
            {
                "player": names[x.seat],
                "expected": x.expected,
                "luck": x.luck,
                "given_up": x.given_up,
                "result": x.result,
            }
            for x in a.accounts
        ],
        "strength": [strength_json(names[x.seat], x) for x in a.strengths],
        "win_chances": (
            None
            if not a.chances
            else {"player": names[a.chart_seat], "by_turn": [{"turn": t, "chance": c} for t, c in a.chances]}
        ),
    }
    return data
