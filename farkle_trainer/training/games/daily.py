"""The daily game: the UTC day, official and practice plays, the share line.

Ten turns a day on the same dice for everyone: the ten-turn solo game on the day's dice
(:func:`~farkle_trainer.training.games.setup.for_day`; the dice function is
:func:`~farkle_trainer.training.games.dice.daily_die`). The first attempt of a UTC day is
official and goes to the stats; replaying the day (``--replay``) or playing a past day
(``--date``) is practice, recorded as training progress and never as stats. The day changes
at 00:00 UTC, read once per command. An official game stays open until 00:00 UTC two days
after its date (:func:`closes_at`), then is closed as it stands (:func:`close_expired`):
banked turns count, turns not played score 0.
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Iterable, Sequence
from contextlib import suppress
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING, Literal, Protocol

from farkle_trainer.engine.errors import RUNTIME_FAILURE, InputError
from farkle_trainer.store.errors import StaleAttemptError, StoreError
from farkle_trainer.training.frontend import INTERRUPTED, EndOfInput, Frontend
from farkle_trainer.training.games.analysis import Review, review, review_move
from farkle_trainer.training.games.dice import daily_source
from farkle_trainer.training.games.legacy import read_state
from farkle_trainer.training.games.match import MatchState, Move, new_match, rebuilt
from farkle_trainer.training.games.play import GameView, play_game
from farkle_trainer.training.games.setup import SOLO_TURNS, TEN_TURNS, MatchError, for_day
from farkle_trainer.training.games.tenturns import (
    Account,
    account,
    expected_turn,
    perfect_play,
    turn_summaries,
)
from farkle_trainer.training.progress import load_stats
from farkle_trainer.training.record import AnswerRecord

if TYPE_CHECKING:
    from farkle_trainer.engine.tables import Tables
    from farkle_trainer.store.db import Store
    from farkle_trainer.store.rows import DailyAttempt, DailyResult
    from farkle_trainer.training.mistakes import Kept
    from farkle_trainer.training.progress import StatsSummary

#: The daily game's table, as the store records it.
RULES_NAME = TEN_TURNS.rules.name
#: Practice decisions are recorded under this topic, as bank-or-roll decisions.
PRACTICE_TOPIC = "bank-or-roll"
#: What a player who asks for a hint in the official game is told.
OFFICIAL_NO_HINTS = "hints are off in the official game"


@dataclass(frozen=True)
class Recorded:
    """How a finished attempt was recorded: its share line, official or practice, its day, the
    streak it makes (official games only), and the personal positions its mistakes are."""

    share: str
    official: bool
    day: date
    streak: int | None
    kept: Kept | None = None


class DailyView(GameView, Protocol):
    """Every line the daily game says, as a front end words it: the game's own, and these."""

    RESTART_PROMPT: str

    def intro(self, day: date, *, official: bool) -> str: ...
    def restarted_line(self, state: MatchState) -> str: ...
    def resume_line(self, state: MatchState) -> str: ...
    def stopped_line(self, state: MatchState, command: str) -> str: ...
    def summary(
        self, state: MatchState, split: Account, reviews: tuple[Review, ...], recorded: Recorded
    ) -> str: ...


#: How long a terminal keeps its hold on a game after its last action: another terminal may
#: take the game over after that (or at once, if the first has ended).
HOLD = timedelta(minutes=10)


class DailyError(InputError):
    """A daily game that cannot be played as asked (a bad or future date, a replay too soon)."""


class DamagedGame(DailyError):
    """The attempt's saved game cannot be read back; it has been closed as damaged."""

    exit_code = RUNTIME_FAILURE


class GameElsewhere(DailyError):
    """The attempt is being played, or was carried on, in another terminal."""

    exit_code = RUNTIME_FAILURE


#: What a player who asks to restart the official game is told: it is played once.
OFFICIAL_NO_RESTART = "the official game is played once and cannot start again"


# -- the day


def utc_date(moment: datetime) -> date:
    """The UTC date of a moment; a moment without a time zone is taken as UTC."""
    if moment.tzinfo is None:
        return moment.date()
    return moment.astimezone(UTC).date()


def until_next_game(moment: datetime) -> timedelta:
    """Time from ``moment`` to the next 00:00 UTC, when the next game starts."""
    now = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    midnight = datetime.combine(now.date() + timedelta(days=1), time(0), tzinfo=UTC)
    return midnight - now


def parse_day(text: str) -> date:
    """A ``--date``: YYYY-MM-DD."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise DailyError(f"--date takes a date as YYYY-MM-DD, like 2026-11-01, not {text!r}") from None


# -- which game to play

Plan = Literal["play", "done"]


def plan(day: date, today: date, *, replay: bool, official: DailyAttempt | None) -> Plan:
    """Decide what ``farkle-train daily`` does; raise :class:`DailyError` to refuse.

    ``official`` is ``day``'s official attempt, if any. Playing means resuming the unfinished
    attempt or starting one (:func:`next_attempt`). Today's game once finished is "done" unless replayed.
    A replay never starts before the official game is over, so practice cannot preview it.
    """
    if day > today:
        raise DailyError(
            f"the daily game of {day.isoformat()} is not out yet: today is {today.isoformat()} (UTC)"
        )
    where = "" if day == today else f" --date {day.isoformat()}"
    if official is not None and not official.finished:
        if replay:
            raise DailyError(
                f"the official game of {day.isoformat()} is not finished: "
                f"finish it first with farkle-train daily{where}"
            )
        return "play"
    if day == today and official is None and replay:
        raise DailyError(
            "today's game has not been played yet, and the first play of the day is the official one: "
            "play it with farkle-train daily"
        )
    if day == today and official is not None and not replay:
        return "done"
    return "play"


def next_attempt(store: Store, day: date, today: date) -> DailyAttempt:
    """The attempt to play at ``day``'s game: an unfinished one to resume, else a new one.

    This is the one place that decides what is official: a new attempt is official only
    when ``day`` is ``today`` (the UTC date of the command's one clock reading) and the day
    has no official attempt yet; every other play is practice. The check and the insert are
    one transaction, so two terminals cannot both start an official game.
    """
    with store.atomic():
        official = store.daily_attempt(day, official=True)
        practice = store.daily_attempt(day, official=False)
        for attempt in (official, practice):
            if attempt is not None and not attempt.finished:
                return attempt
        if day == today and official is None:
            started = store.add_daily_attempt(day, official=True, rules=RULES_NAME)
            if started is not None:
                return started
        started = store.add_daily_attempt(day, official=False, rules=RULES_NAME)
        assert started is not None
        return started


def closes_at(day: date) -> datetime:
    """When an official game of ``day`` stops being playable: 00:00 UTC two days later.

    That is the rest of its own UTC day plus the whole next day, so a game started just before
    midnight can still be finished; after that it is closed as it stands (:func:`close_expired`).
    """
    return datetime.combine(day + timedelta(days=2), time(0), tzinfo=UTC)


def close_expired(tables: Tables, store: Store, moment: datetime) -> int:
    """Close every official game left unfinished past :func:`closes_at`; returns how many.

    Closed as it stands: turns already over keep their points, the turns not played score 0.
    A game whose save cannot be read is closed as damaged instead. Run before anything reads
    or plays official games, with the command's one clock reading.
    """
    closed = 0
    for attempt in store.unfinished_official(utc_date(moment) - timedelta(days=1)):
        day = date.fromisoformat(attempt.date)
        if closes_at(day) > moment:
            continue
        try:
            state = load_state(attempt) if attempt.damage is None else None
        except MatchError:
            state = None
        try:
            if state is None:
                store.close_damaged(
                    attempt.id, reason=attempt.damage or "unreadable", version=attempt.version
                )
            else:
                close_as_it_stands(tables, store, attempt, state, version=attempt.version)
        except StaleAttemptError:
            continue  # another terminal closed it first
        closed += 1
    return closed


def close_as_it_stands(
    tables: Tables, store: Store, attempt: DailyAttempt, state: MatchState, *, version: int
) -> None:
    """Close an attempt where it stopped (its time ran out, or a practice play starts again):
    turns already over keep their points, the turns not played score 0. Its saved game stays,
    so its result replays and it can be reviewed up to there."""
    perfect = perfect_play(tables, daily_source(date.fromisoformat(attempt.date)))
    with store.atomic():
        if attempt.state is None:
            # Never rolled: the game is kept as it stood, so its result replays too.
            version = store.save_daily_state(attempt.id, state.to_dict(), version=version)
        _finish(store, attempt.id, state, perfect=perfect, version=version)


def _finish(store: Store, attempt_id: int, state: MatchState, *, perfect: float, version: int) -> None:
    """Record a daily game as it stands: the turns banked count, the turns not played score 0."""
    store.finish_daily(
        attempt_id,
        score=state.banked,
        perfect_score=perfect,
        marks=spaced_marks(state),
        turns=turn_summaries(state),
        version=version,
    )


def share_line(day: date | str, score: int, marks: Iterable[str], *, official: bool = True) -> str:
    """The result without spoilers: ``Farkle daily 2026-11-29: 6,350 in 10 turns | F . . H . . . . . .``.

    One mark a turn: F a Farkle, H hot dice, . neither. A practice result says so.
    """
    day_text = day if isinstance(day, str) else day.isoformat()
    marks = list(marks)
    label = f"Farkle daily {day_text}" + ("" if official else " (practice)")
    return f"{label}: {score:,} in {len(marks)} turns | {' '.join(marks)}"


def spaced_marks(state: MatchState) -> str:
    return " ".join(state.marks)


# -- status


@dataclass(frozen=True)
class DailyStatus:
    """Today's official game (None when not started), the streak, and the time to the next game."""

    today: date
    official: DailyAttempt | None
    official_state: MatchState | None
    current_streak: int
    longest_streak: int
    played_today: bool
    next_game_in: timedelta
    unfinished_before: date | None  # yesterday's official game, if it was left unfinished
    share: str | None  # the share line of today's official result


def unfinished_official(store: Store, today: date) -> date | None:
    """Yesterday, if its official game was started and not finished (it can still be finished)."""
    yesterday = today - timedelta(days=1)
    attempt = store.daily_attempt(yesterday, official=True)
    return yesterday if attempt is not None and not attempt.finished else None


def daily_status(store: Store, moment: datetime) -> DailyStatus:
    """What ``--status`` shows, read from the store at ``moment``."""
    day = utc_date(moment)
    official = store.daily_attempt(day, official=True)
    stats = load_stats(store, day, check=as_played)
    if official is not None and official.finished:
        # Today's result as stats count it, from its moves: a score or marks an edit changed,
        # or moves the dice do not give, make it a game that scores nothing.
        held = next((r for r in stats.recent if r.date == day.isoformat()), None)
        if held is None:
            official = replace(
                official, damage=official.damage or "its saved moves do not give the score stored"
            )
        else:
            official = replace(official, damage=None, score=held.score, marks=held.marks)
    state = None
    if official is not None and official.state is not None and not official.finished and not official.damage:
        try:
            state = read_state(official.state)
        except MatchError:
            state = None
    return DailyStatus(
        today=day,
        official=official,
        official_state=state,
        current_streak=stats.current_streak,
        longest_streak=stats.longest_streak,
        played_today=stats.played_today,
        next_game_in=until_next_game(moment),
        unfinished_before=unfinished_official(store, day),
        share=(
            share_line(day, official.score or 0, (official.marks or "").split())
            if official is not None and official.finished and official.damage is None
            else None
        ),
    )


# -- a daily attempt, with the store


@dataclass(frozen=True)
class Outcome:
    """How a daily attempt ended this time: finished, or stopped (and saved) with an exit code."""

    state: MatchState
    finished: bool
    exit_code: int
    #: The player asked to start the day's game again: the play is closed where it stood.
    restarted: bool = False


def restart_practice(
    tables: Tables, store: Store, day: date, today: date, moment: datetime
) -> DailyAttempt | None:
    """Close the day's unfinished practice play as it stands, so that the next one starts
    from turn 1 (``daily --replay --restart``); the play closed, or None when there was none.

    Refused (:class:`DailyError`) where the play would be the official game, which is played
    once: today's before it is over, or a past day's left unfinished.
    """
    official = store.daily_attempt(day, official=True)
    if (official is not None and not official.finished) or (day == today and official is None):
        raise DailyError(f"--restart starts a practice play again: {OFFICIAL_NO_RESTART}")
    practice = store.daily_attempt(day, official=False)
    if practice is None or practice.finished:
        return None
    practice = take(store, practice, moment)
    state = readable(store, practice, today)
    try:
        close_as_it_stands(tables, store, practice, state, version=practice.version)
    except StaleAttemptError:
        raise GameElsewhere(
            "this game was just moved on in another terminal; run farkle-train daily to see it"
        ) from None
    return practice


def saved_game(attempt: DailyAttempt) -> MatchState | None:
    """The attempt's game as its moves replay on its day's dice; None when it is damaged or
    cannot be read (nothing is changed in the store)."""
    if attempt.damage is not None:
        return None
    try:
        return load_state(attempt)
    except (MatchError, ValueError):
        # ValueError: a date an edit made no date, whose dice no one can deal.
        return None


def resume_command(day: date, today: date, *, official: bool) -> str:
    """The command that carries on with an attempt at ``day``'s game."""
    if day != today:
        return f"farkle-train daily --date {day.isoformat()}"
    return "farkle-train daily" if official else "farkle-train daily --replay"


def record_decision(tables: Tables, store: Store, session_id: int | None, day: date, move: Move) -> None:
    """A decision of the day's game, graded on the scale every drill uses: a practice decision as
    a training answer, each mistake with its personal position; an official game's mistakes as
    personal positions alone (its decisions are official, never progress)."""
    from farkle_trainer.training.mistakes import game_mistake

    setup = for_day(day)
    r = review_move(tables, setup, move)
    mistake = game_mistake(tables, setup, r)
    if session_id is not None:
        AnswerRecord.of_game(r, date=day.isoformat()).with_mistake(mistake).save(store, session_id)
    elif mistake is not None:
        store.record_mistake(mistake)


def kept_mistakes(tables: Tables, store: Store, day: date, reviews: Sequence[Review]) -> Kept:
    """The personal positions the day's game's decisions graded an inaccuracy or worse are in
    ``store`` (see :func:`record_decision`)."""
    from farkle_trainer.training.mistakes import game_mistake, kept_of

    setup = for_day(day)
    return kept_of(store, [(r, game_mistake(tables, setup, r)) for r in reviews])


def as_played(result: DailyResult) -> DailyResult | None:
    """An official result as its saved moves play it on its day's dice: their score and
    their marks, and no perfect-play score (:func:`official_stats` works it out from the
    day's dice); None for a result that is not what they score.

    Stats count only results that hold: an edited score, or moves the day's dice do not
    give, is not an official result; nor is a result without its saved game (every action is
    saved, so only an edited store has one), since nothing can check it. What the store keeps
    beside the moves (the marks, the perfect-play score) an edit can change, so it is never
    shown.
    """
    played = official_game(result)
    if played is None:
        return None
    return replace(result, score=played.banked, marks=spaced_marks(played), perfect_score=None)


def official_game(result: DailyResult) -> MatchState | None:
    """The game an official result's saved moves play on its day's dice, where it scores the
    result; None for a result that does not hold (see :func:`as_played`)."""
    if result.state is None:
        return None
    try:
        played = rebuilt(read_state(json.loads(result.state)), for_day(date.fromisoformat(result.date)))
    except (ValueError, TypeError, RecursionError):
        return None
    return played if played.banked == result.score else None


def official_stats(tables: Tables, store: Store, today: date | None = None) -> StatsSummary:
    """The official daily stats of ``store``, each result checked against its moves, and what
    perfect play is expected to score (solved in ``tables``)."""
    summary = load_stats(store, today, check=as_played)
    recent = tuple(
        replace(r, perfect_score=float(perfect_play(tables, for_day(date.fromisoformat(r.date)).source())))
        for r in summary.recent
    )
    return replace(summary, recent=recent, perfect_play_expected=SOLO_TURNS * expected_turn(tables))


def load_state(attempt: DailyAttempt) -> MatchState:
    """The attempt's saved game rebuilt from its moves on the day's dice, or a new one.

    Only the moves are taken from the store: the score, the turn and the points at stake are
    recomputed, so an edited saved state cannot change what the game is worth.
    """
    setup = for_day(date.fromisoformat(attempt.date))
    if attempt.state is None:
        return new_match(setup)
    return rebuilt(read_state(attempt.state), setup)


def readable(store: Store, attempt: DailyAttempt, today: date) -> MatchState:
    """The attempt's saved game, or :class:`DamagedGame` once the attempt is closed as damaged.

    A saved game that cannot be read back (not JSON, or not a state of this game) is damage
    like any other: the attempt is closed, its stored text kept as it is (never deleted), it
    scores nothing, and the player is told how to go on.
    """
    reason = attempt.damage
    if reason is None:
        try:
            return load_state(attempt)
        except MatchError as exc:
            reason = str(exc)
    if not attempt.finished:
        store.close_damaged(attempt.id, reason=reason, version=attempt.version)
    day = date.fromisoformat(attempt.date)
    kind = "official game" if attempt.official else "practice game"
    if day == today:
        way = "play the day for practice with farkle-train daily --replay"
    else:
        way = f"play it again for practice with farkle-train daily --date {attempt.date}"
    raise DamagedGame(
        f"the {kind} of {attempt.date} cannot go on: {reason}; it is kept in the store, closed as "
        f"damaged, and scores nothing; {way}"
    )


def terminal_id() -> str:
    """Who holds a game: this computer and process."""
    return f"{socket.gethostname()}:{os.getpid()}"


def _gone(holder: str) -> bool:
    """Whether the terminal ``holder`` has surely ended: a process of this computer that no longer runs.

    Only POSIX can ask that safely (``os.kill(pid, 0)`` sends nothing there); anywhere else, and
    for another computer sharing the data directory, the hold lapses with time instead.
    """
    host, _, pid = holder.rpartition(":")
    if os.name != "posix" or host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return False


def take(store: Store, attempt: DailyAttempt, moment: datetime) -> DailyAttempt:
    """Hold ``attempt`` for this terminal, or raise :class:`GameElsewhere`.

    One attempt is played in one place at a time: another terminal's hold is respected until
    it lapses (``HOLD`` after that terminal's last action) or that terminal has ended. A hold
    that ends further off than ``HOLD`` no terminal gave (an edit, or a clock set back since) is
    over, or the game would wait for it for ever.
    """
    me = terminal_id()
    holder, until = attempt.holder, attempt.held_until
    if (
        holder is not None
        and holder != me
        and until is not None
        and moment < until <= moment + HOLD
        and not _gone(holder)
    ):
        command = resume_command(
            date.fromisoformat(attempt.date), utc_date(moment), official=attempt.official
        )
        raise GameElsewhere(
            f"this game is open in another terminal: carry on there, or after "
            f"{until.astimezone(UTC):%H:%M} UTC with {command}"
        )
    try:
        return store.claim_daily(attempt.id, holder=me, until=moment + HOLD, version=attempt.version)
    except StaleAttemptError:
        raise GameElsewhere(
            "this game was just opened in another terminal; run farkle-train daily to see it"
        ) from None


def run_attempt(
    tables: Tables,
    front: Frontend,
    view: DailyView,
    store: Store,
    attempt: DailyAttempt,
    today: date,
    *,
    notes: Iterable[str] = (),
    moment: datetime | None = None,
) -> Outcome:
    """Play (or resume) a daily attempt to its end, saving every action; then record and review it.

    ``moment`` is the command's clock reading (default: the store's clock now). The attempt is
    held for this terminal while it plays (see :func:`take`); each save names the version it
    read, so if another terminal has taken the game over meanwhile, nothing is overwritten and
    :class:`GameElsewhere` says so.
    """
    day = date.fromisoformat(attempt.date)
    again = resume_command(day, today, official=attempt.official)
    attempt = take(store, attempt, moment or store.now())
    me = terminal_id()
    try:
        state = readable(store, attempt, today)
        outcome = _play(tables, front, view, store, attempt, state, today, day, again, notes)
        while outcome.restarted:
            # The play was closed where it stood: the next starts from turn 1, on the same dice.
            attempt = take(store, next_attempt(store, day, today), store.now())
            outcome = _play(
                tables, front, view, store, attempt, readable(store, attempt, today), today, day, again, ()
            )
        return outcome
    except StaleAttemptError:
        raise GameElsewhere(f"this game was continued in another terminal; run {again} to see it") from None
    finally:
        # Releasing is a courtesy to the next terminal; it must not hide why the game stopped.
        with suppress(StoreError):
            store.release_daily(attempt.id, me)


def _play(
    tables: Tables,
    front: Frontend,
    view: DailyView,
    store: Store,
    attempt: DailyAttempt,
    state: MatchState,
    today: date,
    day: date,
    again: str,
    notes: Iterable[str],
) -> Outcome:
    source = daily_source(day)
    version = attempt.version
    for note in notes:
        front.say(note)
    front.say(view.intro(day, official=attempt.official))
    if attempt.state is not None:
        front.say(view.resume_line(state))

    def save(s: MatchState) -> None:
        nonlocal version
        version = store.save_daily_state(
            attempt.id, s.to_dict(), version=version, held_until=store.now() + HOLD
        )

    def decided(move: Move) -> None:
        record_decision(tables, store, attempt.session_id, day, move)

    try:
        played = play_game(
            tables,
            front,
            view,
            state,
            source,
            hints=not attempt.official,
            no_hints=OFFICIAL_NO_HINTS,
            restart=None if attempt.official else view.RESTART_PROMPT,
            no_restart=OFFICIAL_NO_RESTART,
            save=save,
            decided=decided,
            together=store.atomic,
        )
        state = played.state
    except (KeyboardInterrupt, EndOfInput) as stop:
        saved = load_state(store.get_daily(attempt.id))
        if isinstance(stop, KeyboardInterrupt):
            front.say()
        front.say(view.stopped_line(saved, again))
        return Outcome(saved, False, INTERRUPTED if isinstance(stop, KeyboardInterrupt) else 0)
    if played.ending == "restarted":
        close_as_it_stands(tables, store, attempt, state, version=version)
        front.say(view.restarted_line(state))
        return Outcome(state, False, 0, restarted=True)
    reviews = review(tables, state)
    _finish(store, attempt.id, state, perfect=perfect_play(tables, source), version=version)
    streak = load_stats(store, today, check=as_played).current_streak if attempt.official else None
    share = share_line(day, state.banked, state.marks, official=attempt.official)
    kept = kept_mistakes(tables, store, day, reviews)
    split = account(tables, state, reviews)
    front.say(view.summary(state, split, reviews, Recorded(share, attempt.official, day, streak, kept)))
    return Outcome(state, True, 0)
