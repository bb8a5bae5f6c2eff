"""How the daily game reads: every line it prints, plain text first.

The game is text line by line in both front ends, so a screen reader, a pipe and a terminal all
get the same words; a colour terminal only adds styles to whole lines (see
:func:`farkle_trainer.training.games.play.play_game`). Rolls show each die with the letter of its place
(``a:5 b:2 c:1``), so dice can be picked by face or by place. A class challenge is the same game
and reads the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from typing import TYPE_CHECKING

from farkle_trainer.engine.dice import counts_of
from farkle_trainer.engine.notation import dice_count as dice_word
from farkle_trainer.engine.notation import dice_text, labelled_roll, plural
from farkle_trainer.engine.notation import move_words as play_words
from farkle_trainer.engine.plays import Hint, points_hint
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.training.games.analysis import Review
from farkle_trainer.training.games.daily import share_line
from farkle_trainer.training.games.match import MatchState, Move
from farkle_trainer.training.games.setup import SOLO_TURNS
from farkle_trainer.training.games.tenturns import Account
from farkle_trainer.ui.views.engine import ev, hint_text, points
from farkle_trainer.ui.views.engine import hint_rich as engine_hint_rich
from farkle_trainer.ui.views.fit import fit

# A ten-turn game has no computers, no final round, no coach and cannot be given up: what a
# whole game says of those is said here too, so the one game loop can take this view.
from farkle_trainer.ui.views.play import coach_line as coach_line
from farkle_trainer.ui.views.play import computer_line as computer_line
from farkle_trainer.ui.views.play import final_round_line as final_round_line
from farkle_trainer.ui.views.play import resign_prompt as resign_prompt
from farkle_trainer.ui.views.play import short_bank_prompt as short_bank_prompt

if TYPE_CHECKING:
    from rich.console import RenderableType

    from farkle_trainer.store.rows import DailyAttempt
    from farkle_trainer.training.games.daily import DailyStatus, Recorded
    from farkle_trainer.training.games.play import Position

SET_ASIDE_PROMPT = "Set aside:"
#: ``u`` at the set-aside prompt is read as dice, like any other answer there.
NOTHING_SET_ASIDE: str | None = None
HOW_TO_PLAY = (
    "Set dice aside by face (1 5) or by place (a e), then b to bank or r to roll on "
    "(u or other dice change the set-aside until then);"
)
HOT_DICE = "Hot dice: all six have scored, so you may roll all 6 again."
#: The question before a practice play starts again (default no).
RESTART_PROMPT = "Play the day's game again from turn 1? This play is closed where it stands."


# -- during the game


def intro(day: date, *, official: bool) -> str:
    if official:
        lines = [
            f"Farkle daily {day.isoformat()} (UTC), the official game: "
            "ten turns, the same dice for everyone.",
            "Your first play of the day is the one that counts. Hints are off in the official game.",
        ]
    else:
        lines = [
            f"Farkle daily {day.isoformat()}, practice: ten turns on the day's dice.",
            "Recorded as training progress, never in stats. Hints are on: type h at a prompt; "
            "restart plays the day again from turn 1.",
        ]
    lines.append(HOW_TO_PLAY + " q stops, and the game is saved.")
    return "\n".join(lines)


def resume_line(state: MatchState) -> str:
    if state.over:
        return "Carrying on where you stopped: the game is over."
    return f"Carrying on where you stopped: turn {state.turn} of {SOLO_TURNS}, {points(state.banked)} banked."


def turn_line(state: MatchState) -> None:
    """Nothing before a turn's first roll: the roll's line says the turn."""
    return None


def roll_line(state: MatchState) -> str:
    """``Turn 3 of 10, 1,250 banked, 300 at stake. Roll: a:5 b:2 c:1 d:3``."""
    return _roll_text(state.turn, state.banked, state.stake, state.roll)


def thrown_line(move: Move) -> str:
    """The roll that was a Farkle, said as any roll is."""
    return _roll_text(move.turn, move.score, move.points, move.roll)


def _roll_text(turn: int, banked: int, stake: int, roll: tuple[int, ...]) -> str:
    at_stake = f", {points(stake)} at stake" if stake else ""
    return f"Turn {turn} of {SOLO_TURNS}, {points(banked)} banked{at_stake}. Roll: {labelled_roll(roll)}"


def farkle_line(move: Move, after: MatchState) -> str:
    lost = (
        f"the {points(move.points)} points at stake are lost"
        if move.points
        else f"turn {move.turn} scores nothing"
    )
    return f"Farkle: nothing scores in {dice_text(move.roll)}. So {lost}; total {points(after.banked)}."


def kept_line(state: MatchState) -> str:
    split = score_table(state.rules).split(counts_of(state.kept))
    assert split is not None
    kept = f"Set aside {dice_text(state.kept)} for {points(split.points)} ({split.describe()})"
    if state.dice_left == 0:
        return f"{kept}: {points(state.points)} at stake."
    return f"{kept}: {points(state.points)} at stake, {dice_word(state.dice_left)} left."


def hot_dice_line(state: MatchState) -> str | None:
    return HOT_DICE if state.dice_left == 0 else None


def action_prompt(state: MatchState) -> str:
    dice = "all 6 dice" if state.dice_left == 0 else dice_word(state.dice_left)
    return f"Bank {points(state.points)} or roll {dice}? (b/r)"


def bank_line(move: Move, after: MatchState) -> str:
    banked = after.scores[move.seat] - move.score
    return (
        f"Banked {points(banked)}: total {points(after.banked)} after turn {after.turn - 1} of {SOLO_TURNS}."
    )


def restarted_line(state: MatchState) -> str:
    where = f"turn {state.turn} of {SOLO_TURNS}, {points(state.banked)} banked"
    return f"This play is closed at {where}. The day's game starts again:"


def stopped_line(state: MatchState, command: str) -> str:
    where = f"turn {state.turn} of {SOLO_TURNS}, {points(state.banked)} banked"
    return f"Game saved at {where}. Carry on with: {command}"


def hint_line(position: Position, *, first: bool) -> str:
    """The hint for the dice showing: every play of the roll, or bank against roll on for the
    set-aside made."""
    h = points_hint(position.values)
    return hint_for_action(h, position.kept) if position.kept else hint_for_roll(h)


def hint_rich(position: Position, *, first: bool) -> RenderableType:
    """The hint laid out for the terminal's width, as ``farkle-train hint`` lays it out: a table
    where it fits, else its plain lines in the narrow form, never a word or number cut."""
    from rich.console import Group
    from rich.text import Text

    h = points_hint(position.values)
    if position.kept:
        line = hint_for_action(h, position.kept)
        return fit(Text(line), line)
    return Group(Text("Hint:", style="bold"), engine_hint_rich(h))


def hint_for_roll(h: Hint) -> str:
    return "Hint: " + hint_text(h)


def hint_for_action(h: Hint, kept: tuple[int, ...]) -> str:
    play = next(p for p in h.plays if p.keep == kept)
    v = play.expected
    assert v.bank is not None
    roll = "all 6 dice" if play.dice_left == 0 else dice_word(play.dice_left)
    better = "rolling on" if v.action == "roll" else "banking"
    return (
        f"Hint: banking {points(play.points_after)} is worth {ev(v.bank)}, rolling {roll} {ev(v.roll)} "
        f"(expected turn score). Best: {better}."
    )


# -- the review


#: The review shows this many costly decisions in full, the worst first.
REVIEW_IN_FULL = 3


def review_lines(r: Review) -> list[str]:
    m = r.move
    played = play_words(m.keep, m.action, len(m.roll) - len(m.keep))
    better = play_words(r.best_keep, r.best_action, len(m.roll) - len(r.best_keep))
    return [
        f"  Turn {m.turn}, roll {dice_text(m.roll)} with {points(m.points)} at stake:",
        f"    you: {played}, expected {ev(r.chosen)}: gives up {ev(r.lost)} points",
        f"    best: {better}, expected {ev(r.best_value)}",
    ]


def account_lines(a: Account) -> list[str]:
    """What perfect play is expected to score, how far above or below it the score is, the
    two parts of that difference (what the decisions gave up and what the dice gave), and the
    play against perfect play: the score with the dice's luck taken out."""
    gap = a.score - a.perfect_expected
    side = "above" if gap >= 0 else "below"
    return [
        f"Perfect play is expected to score {ev(a.perfect_expected)} over {SOLO_TURNS} turns "
        f"({SOLO_TURNS} x {ev(a.perfect_expected / SOLO_TURNS)}, the exact expected score of a turn).",
        f"You scored {points(a.score)}, {ev(abs(gap))} {side} that: your decisions gave up "
        f"{ev(a.given_up)} expected points, and the luck of the dice was {a.luck:+,.2f} (0 on average).",
        f"Your play this game: {ev(a.expected)} points against perfect play ({ev(a.perfect_expected)}), "
        "the score with the luck of the dice taken out.",
    ]


def decision_lines(reviews: Sequence[Review]) -> list[str]:
    """The decisions that gave up expected points, counted, the costliest in full."""
    lost = sorted((r for r in reviews if r.gave_up > 0), key=lambda r: -r.lost)
    if not lost:
        return [f"Every one of your {plural(len(reviews), 'decision')} was the solver's best play."]
    shown = lost[:REVIEW_IN_FULL]
    worst = "the worst" if len(lost) > 1 else "it"
    out = [
        f"Decisions that gave up expected points: {len(lost)} of {len(reviews)}; "
        f"{worst + ' first' if len(shown) > 1 else worst}:"
    ]
    for r in shown:
        out += review_lines(r)
    rest = lost[REVIEW_IN_FULL:]
    if rest:
        out.append(
            f"  The other {plural(len(rest), 'decision')} gave up "
            f"{ev(sum(r.lost for r in rest))} points in all."
        )
    return out


def game_over_lines(state: MatchState, split: Account, reviews: Sequence[Review]) -> list[str]:
    """The end of a ten-turn game: the score split into play and dice, the costliest decisions."""
    return [
        f"Game over: {points(state.banked)} in {SOLO_TURNS} turns.",
        *account_lines(split),
        *decision_lines(reviews),
    ]


def summary(state: MatchState, split: Account, reviews: tuple[Review, ...], recorded: Recorded) -> str:
    out = game_over_lines(state, split, reviews)
    if recorded.official:
        streak = recorded.streak
        days = f" Streak: {plural(streak or 0, 'day')}." if streak is not None else ""
        out.append(f"Recorded as the official result of {recorded.day.isoformat()}.{days}")
    else:
        out.append("Practice: recorded as training progress, not in stats.")
    kept = recorded.kept
    if kept is not None and kept.mistakes:
        from farkle_trainer.ui.views.drills import personal_line

        out.append(personal_line(kept.mistakes, kept.positions))
    out.append(recorded.share)
    return "\n".join(out)


# -- a day's game again: farkle-train review


def attempt_name(attempt: DailyAttempt) -> str:
    kind = "official game" if attempt.official else "practice game"
    return f"the {kind} of {attempt.date}"


def closed_line(attempt: DailyAttempt, state: MatchState) -> str:
    """A play closed before turn 10: an official game left past its time, or a practice play
    started again."""
    why = "left unfinished past its time" if attempt.official else "closed to play the day again"
    return (
        f"Closed at turn {state.turn} of {SOLO_TURNS} ({why}): {points(state.banked)}, "
        "the turns not played scoring 0."
    )


def review_heading(attempt: DailyAttempt) -> str:
    return (
        f"Daily d{attempt.id}, {attempt_name(attempt)}, started {attempt.started_at:%Y-%m-%d %H:%M} UTC "
        "(every move checked on the day's dice)."
    )


def attempt_review_lines(
    attempt: DailyAttempt, state: MatchState, split: Account, reviews: Sequence[Review]
) -> list[str]:
    """A finished play shown again as it ended: the score split into play and dice, the
    costliest decisions and its share line; a play closed early, its decisions up to there."""
    if not state.over:
        return [closed_line(attempt, state), *decision_lines(reviews)]
    share = share_line(attempt.date, state.banked, state.marks, official=attempt.official)
    return [*game_over_lines(state, split, reviews), share]


# -- status


def duration(span: timedelta) -> str:
    """``10 h 53 min``; under a minute is ``1 min``."""
    minutes = max(1, -(-int(span.total_seconds()) // 60))
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if hours else f"{minutes} min"


def status_lines(s: DailyStatus) -> list[str]:
    day = s.today.isoformat()
    a = s.official
    if a is None:
        out = [f"Today's daily game ({day} UTC): not played yet. Play it with: farkle-train daily"]
    elif a.damage is not None:
        out = [
            f"Today's daily game ({day} UTC): its saved game is damaged ({a.damage}); "
            "it is kept in the store and scores nothing.",
            "Play the day for practice with: farkle-train daily --replay",
        ]
    elif not a.finished:
        where = ""
        if s.official_state is not None:
            where = (
                f", turn {min(s.official_state.turn, SOLO_TURNS)} of {SOLO_TURNS}, "
                f"{points(s.official_state.banked)} banked"
            )
        out = [f"Today's daily game ({day} UTC): in progress{where}.", "Carry on with: farkle-train daily"]
    else:
        out = [f"Today's daily game ({day} UTC): done, {points(a.score or 0)}."]
        if s.share:
            out.append(s.share)
    keep = "" if s.played_today or not s.current_streak else "; play today to keep it going"
    out.append(
        f"Streak: {plural(s.current_streak, 'day')} (longest {plural(s.longest_streak, 'day')}){keep}."
    )
    if s.unfinished_before is not None:
        out.append(unfinished_line(s.unfinished_before))
    out.append(f"The next game starts at 00:00 UTC, in {duration(s.next_game_in)}.")
    return out


def unfinished_line(day: date) -> str:
    text = day.isoformat()
    return f"Your official game of {text} is unfinished: finish it with farkle-train daily --date {text}"


def status_text(s: DailyStatus) -> str:
    return "\n".join(status_lines(s))


def status_rich(s: DailyStatus) -> RenderableType:
    from rich.console import Group
    from rich.text import Text

    lines = status_lines(s)
    return Group(Text(lines[0], style="bold"), *(Text(line) for line in lines[1:]))


def done_text(s: DailyStatus) -> str:
    """``farkle-train daily`` once today's official game is over."""
    return "\n".join([*status_lines(s), "Play it again for practice: farkle-train daily --replay"])
