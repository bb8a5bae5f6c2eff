"""Progress and stats from the store's rows: summaries, streaks, the histogram, what to practise
next, and the export of every training answer.

Progress covers training only (quizzes, drills, lessons, challenges, practice daily games);
stats cover only official results: daily games and rated games, each as its moves replay
(the replay is the caller's, passed in: see :mod:`farkle_trainer.training.games`). The
functions named ``*_summary`` are pure: they take rows (:mod:`farkle_trainer.store.rows`) and
return values; ``load_progress`` and ``load_stats`` read those rows from a store first.

>>> streaks([date(2026, 11, 27), date(2026, 11, 28)], date(2026, 11, 29))
(2, 2)
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from farkle_trainer.engine.errors import InputError
from farkle_trainer.engine.kinds import KINDS
from farkle_trainer.store.files import write_whole
from farkle_trainer.store.rows import (
    LOSS_UNITS,
    AnswerRow,
    DailyResult,
    LossUnit,
    ProgressRows,
    SessionLoss,
    TopicProgress,
)
from farkle_trainer.store.schedule import MISTAKES
from farkle_trainer.training.quizzes.topics import TOPICS

if TYPE_CHECKING:
    from farkle_trainer.store.db import Store

#: Topics the quizzes record, in the order a learner meets them, and the command that drills each.
SCORE_TOPICS: tuple[str, ...] = TOPICS
DECIDE_TOPICS: tuple[str, ...] = KINDS
PRACTICE_COMMANDS = {
    **{topic: f"farkle-train score --topic {topic}" for topic in SCORE_TOPICS},
    **{topic: f"farkle-train decide --kind {topic}" for topic in DECIDE_TOPICS},
}

#: Accuracy over a topic's last ``RECENT_ANSWERS`` answers is its mastery.
RECENT_ANSWERS = 20
#: A topic needs this many answers before it can be called weak.
MIN_ANSWERS = 3
MASTERED = 0.9
WEAKEST = 3
TREND_SESSIONS = 10
#: How far back the progress by week goes: this many weeks, up to the last week with answers.
WEEKS = 8
#: The cards that come back, in the order ``progress`` names them: quiz questions (``score``),
#: drill positions (``decide``) and personal positions (``decide --mistakes``). Every answer has
#: a card, but the decisions of games come back only as personal positions.
REVIEWED_KINDS: tuple[str, ...] = ("score", "decide", MISTAKES)
#: The forecast of cards due: the days after today, as Anki shows it.
FORECAST_DAYS = 7
#: The days trained are shown over the last four weeks, today the last.
TRAINED_SPAN = 28
HISTOGRAM_WIDTH = 1000
HISTOGRAM_TOP = 10_000
RECENT_DAYS = 7

EXPORT_FORMATS = {".csv": "csv", ".json": "json"}
EXPORT_COLUMNS = (
    "time",
    "kind",
    "session",
    "rules",
    "topic",
    "item",
    "question",
    "answer",
    "correct_answer",
    "correct",
    "grade",
    "points_lost",
    "unit",
)

Trend = Literal["improving", "steady", "worsening"]


class ExportError(InputError):
    """An export that cannot be written: a file name without .csv or .json."""


# -- values


@dataclass(frozen=True)
class UnitLoss:
    """What decisions graded in one unit gave up: expected points, percentage points of a
    chance (to pass the leader, or to win), or expected turns."""

    unit: LossUnit
    decisions: int
    average_lost: float


@dataclass(frozen=True)
class WeekScore:
    """One topic's answers in one week (from Monday, UTC): how many, how many right, and what
    its decisions gave up on average (in ``loss_unit``; None for questions only right or wrong)."""

    week: date
    kind: str
    topic: str
    answers: int
    correct: int
    decisions: int
    average_lost: float | None
    loss_unit: LossUnit = "points"

    @property
    def accuracy(self) -> float:
        return self.correct / self.answers


@dataclass(frozen=True)
class Due:
    """The cards that come back (:data:`REVIEWED_KINDS`): how many are due now and by the end of
    ``today`` (UTC, overdue ones included), and the forecast for each of the
    :data:`FORECAST_DAYS` days after it; ``today_by_kind`` splits today's by kind."""

    today: date
    now: int
    due_today: int
    forecast: tuple[int, ...]
    today_by_kind: tuple[tuple[str, int], ...]
    now_by_kind: tuple[tuple[str, int], ...]

    def count(self, kind: str, *, now: bool = False) -> int:
        return dict(self.now_by_kind if now else self.today_by_kind).get(kind, 0)


@dataclass(frozen=True)
class Trained:
    """The days (UTC) with a training answer or a lesson read, oldest first, and ``today``."""

    today: date
    days: tuple[date, ...]

    @property
    def count(self) -> int:
        return len(self.days)

    @property
    def recent(self) -> tuple[bool, ...]:
        """Each of the last :data:`TRAINED_SPAN` days, today last: trained or not."""
        first = self.today - timedelta(days=TRAINED_SPAN - 1)
        trained = set(self.days)
        return tuple(first + timedelta(days=n) in trained for n in range(TRAINED_SPAN))

    @property
    def recent_count(self) -> int:
        return sum(self.recent)


@dataclass(frozen=True)
class ProgressSummary:
    """Everything ``farkle-train progress`` shows; ``recent_sessions`` is oldest first.

    ``losses`` has an entry for each unit some decision was graded in; ``weeks`` each topic's
    answers week by week, over the last :data:`WEEKS` weeks that reach the last answer.
    ``due`` covers every rule set, ``trained`` the rule set the summary is about.
    """

    answers: int
    correct: int
    sessions: int
    practice_games: int
    topics: tuple[TopicProgress, ...]
    decisions: int
    average_points_lost: float | None
    recent_sessions: tuple[SessionLoss, ...]
    weakest: tuple[TopicProgress, ...]
    next: Suggestion
    due: Due
    trained: Trained
    losses: tuple[UnitLoss, ...] = ()
    weeks: tuple[WeekScore, ...] = ()

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.answers if self.answers else None

    @property
    def trend(self) -> Trend | None:
        return trend([s.average_points_lost for s in self.recent_sessions])


@dataclass(frozen=True)
class HistogramBucket:
    """Official scores from ``low`` to ``high`` inclusive; ``high`` is None for the open top bucket."""

    low: int
    high: int | None
    count: int


@dataclass(frozen=True)
class StatsSummary:
    """Official daily results only. ``recent`` is newest first.

    ``damaged`` counts official attempts whose saved game could not be read back, and those
    whose moves do not give the score stored: they are kept (and a stats reset deletes them)
    but score nothing. ``unverifiable`` names the dates of the latter.
    ``perfect_play_expected``: what perfect play is expected to score in a daily game.
    """

    today: date
    games_played: int
    current_streak: int
    longest_streak: int
    best: DailyResult | None
    average_score: float | None
    histogram: tuple[HistogramBucket, ...]
    recent: tuple[DailyResult, ...]
    played_today: bool
    damaged: int = 0
    unverifiable: tuple[str, ...] = ()
    perfect_play_expected: float | None = None


# -- rules


def trend(losses: list[float]) -> Trend | None:
    """Points lost in the later half of the sessions against the earlier half (oldest first)."""
    if len(losses) < 2:
        return None
    half = len(losses) // 2
    before = sum(losses[:half]) / half
    after = sum(losses[-half:]) / half
    # Within a tenth (or a point, near zero) is noise, not a change.
    margin = max(0.1 * before, 1.0)
    if after < before - margin:
        return "improving"
    if after > before + margin:
        return "worsening"
    return "steady"


def streaks(days: list[date], today: date) -> tuple[int, int]:
    """(current, longest) runs of consecutive days; the current run must reach today or yesterday."""
    longest = run = 0
    previous: date | None = None
    for day in sorted(set(days)):
        run = run + 1 if previous is not None and (day - previous).days == 1 else 1
        longest = max(longest, run)
        previous = day
    current = run if previous is not None and (today - previous).days <= 1 else 0
    return current, longest


def histogram(scores: list[int]) -> tuple[HistogramBucket, ...]:
    """Scores in buckets of ``HISTOGRAM_WIDTH``, from the lowest filled bucket to the highest."""
    if not scores:
        return ()
    top = HISTOGRAM_TOP // HISTOGRAM_WIDTH
    counts: dict[int, int] = {}
    for s in scores:
        b = min(max(s, 0) // HISTOGRAM_WIDTH, top)
        counts[b] = counts.get(b, 0) + 1
    return tuple(
        HistogramBucket(
            low=b * HISTOGRAM_WIDTH,
            high=None if b == top else (b + 1) * HISTOGRAM_WIDTH - 1,
            count=counts.get(b, 0),
        )
        for b in range(min(counts), max(counts) + 1)
    )


def weakest_topics(topics: tuple[TopicProgress, ...]) -> tuple[TopicProgress, ...]:
    """Up to ``WEAKEST`` topics with enough answers and not yet mastered, the weakest first."""
    return tuple(
        sorted(
            (t for t in topics if t.answers >= MIN_ANSWERS and t.recent_accuracy < MASTERED),
            key=lambda t: (t.recent_accuracy, -(t.average_points_lost or 0.0)),
        )[:WEAKEST]
    )


@dataclass(frozen=True)
class Suggestion:
    """The command to run next, and why: the last lines of ``farkle-train progress``."""

    command: str
    reason: str


def recent_words(t: TopicProgress) -> str:
    """How a topic's recent answers went, in a sentence that reads for any count: ``None of your
    4 keep answers so far were right.``, ``3 of your last 20 keep answers were right (15%).``;
    of a topic of personal positions, ``... answers to keep mistakes ...``."""
    recent = min(t.answers, RECENT_ANSWERS)
    # The recent accuracy is a share of whole answers: this many of them were right.
    right = round(t.recent_accuracy * recent)
    mistakes = t.kind == MISTAKES
    if recent == 1:
        answer = f"answer to a {t.topic} mistake" if mistakes else f"{t.topic} answer"
        return f"Your only {answer} so far was {'right' if right else 'wrong'}."
    answers = f"answers to {t.topic} mistakes" if mistakes else f"{t.topic} answers"
    scope = f"your last {recent} {answers}" if t.answers > recent else f"your {recent} {answers} so far"
    if right == 0:
        return f"None of {scope} were right."
    if right == recent:
        return f"All of {scope} were right."
    verb = "was" if right == 1 else "were"
    return f"{right} of {scope} {verb} right ({right / recent:.0%})."


def suggest(
    topics: tuple[TopicProgress, ...], weakest: tuple[TopicProgress, ...], mistakes_due: int = 0
) -> Suggestion:
    """What to practise next: the mistakes due now, else the weakest topic, else one not tried
    yet, else the daily game."""
    if mistakes_due:
        verb = "is" if mistakes_due == 1 else "are"
        return Suggestion(
            "farkle-train decide --mistakes", f"{mistakes_due:,} of your mistakes {verb} due now."
        )
    if not topics:
        return Suggestion("farkle-train score", "Start with the scoring quiz.")
    for t in weakest:
        if t.kind == MISTAKES:
            return Suggestion("farkle-train decide --mistakes", recent_words(t))
        if t.topic in PRACTICE_COMMANDS:
            return Suggestion(PRACTICE_COMMANDS[t.topic], recent_words(t))
    tried = {t.topic for t in topics}
    for topic, command in PRACTICE_COMMANDS.items():
        if topic not in tried:
            return Suggestion(command, f"You have not tried {topic} yet.")
    return Suggestion("farkle-train daily", "Every topic is going well: play today's daily game.")


class Topical(Protocol):
    @property
    def kind(self) -> str: ...
    @property
    def topic(self) -> str: ...


def topic_order(t: Topical) -> tuple[int, str, int, str]:
    """Scoring before decisions before the rest, and topics in the order a learner meets them."""
    kinds = ("score", "decide")
    known = list(PRACTICE_COMMANDS)
    return (
        kinds.index(t.kind) if t.kind in kinds else len(kinds),
        t.kind,
        known.index(t.topic) if t.topic in known else len(known),
        t.topic,
    )


def unit_losses(answers: Iterable[AnswerRow]) -> tuple[UnitLoss, ...]:
    """The average loss per decision in each unit there are decisions in; never one average
    over two units."""
    lost: dict[str, list[float]] = {}
    for a in answers:
        if a.points_lost is not None:
            lost.setdefault(a.unit, []).append(a.points_lost)
    return tuple(UnitLoss(u, len(lost[u]), sum(lost[u]) / len(lost[u])) for u in LOSS_UNITS if u in lost)


def week_of(moment: str) -> date | None:
    """The Monday (UTC) that starts the week of a stored time; None for text an edit made no time."""
    try:
        day = datetime.fromisoformat(moment).date()
    except (TypeError, ValueError):
        return None
    return day - timedelta(days=day.weekday())


def weekly(answers: Sequence[AnswerRow], weeks: int = WEEKS) -> tuple[WeekScore, ...]:
    """Each topic's answers week by week, over the ``weeks`` weeks up to the last one answered in;
    in week order, then topic order. An answer whose time cannot be read is in no week."""
    dated = [(week, a) for a in answers if (week := week_of(a.time)) is not None]
    if not dated:
        return ()
    last = max(week for week, _ in dated)
    span = timedelta(weeks=weeks - 1)
    # A time an edit put in the first weeks there are has no weeks before it to count from.
    first = last - span if last - date.min >= span else date.min
    groups: dict[tuple[date, str, str], list[AnswerRow]] = {}
    for week, a in dated:
        if week >= first:
            groups.setdefault((week, a.kind, a.topic), []).append(a)
    scores = []
    for (week, kind, topic), group in groups.items():
        graded = [a for a in group if a.points_lost is not None]
        # A topic is graded in one unit; should one ever hold two, the first one's losses count.
        unit = graded[0].unit if graded else "points"
        losses = [a.points_lost for a in graded if a.unit == unit and a.points_lost is not None]
        scores.append(
            WeekScore(
                week=week,
                kind=kind,
                topic=topic,
                answers=len(group),
                correct=sum(a.correct for a in group),
                decisions=len(losses),
                average_lost=sum(losses) / len(losses) if losses else None,
                loss_unit=unit if unit in LOSS_UNITS else "points",
            )
        )
    return tuple(sorted(scores, key=lambda w: (w.week, topic_order(w))))


# -- summaries


def due_summary(rows: ProgressRows, today: date) -> Due:
    """The cards due now, today (overdue ones with them) and on each day of the forecast."""
    by_day: dict[str, int] = {}
    today_by_kind: dict[str, int] = {}
    for c in rows.due:
        by_day[c.day] = by_day.get(c.day, 0) + c.count
        if c.day == today.isoformat():
            today_by_kind[c.kind] = today_by_kind.get(c.kind, 0) + c.count
    days = [(today + timedelta(days=n)).isoformat() for n in range(1, FORECAST_DAYS + 1)]

    def in_order(counts: dict[str, int]) -> tuple[tuple[str, int], ...]:
        return tuple((k, counts[k]) for k in REVIEWED_KINDS if counts.get(k))

    now = dict(rows.due_now)
    return Due(
        today=today,
        now=sum(now.values()),
        due_today=by_day.get(today.isoformat(), 0),
        forecast=tuple(by_day.get(day, 0) for day in days),
        today_by_kind=in_order(today_by_kind),
        now_by_kind=in_order(now),
    )


def trained_summary(rows: ProgressRows, today: date) -> Trained:
    """The days trained, as dates; a day the store cannot read as one is left out."""
    days = []
    for text in rows.trained_days:
        try:
            days.append(date.fromisoformat(text))
        except ValueError:
            continue
    return Trained(today, tuple(sorted(set(days))))


def progress_summary(
    rows: ProgressRows, answers: Sequence[AnswerRow] = (), *, today: date
) -> ProgressSummary:
    """Training only: accuracy per topic, the loss per decision in each unit and the trend of
    points lost, progress by week (from ``answers``, every training answer counted), the cards
    due and the days trained (on ``today``, UTC), what next."""
    topics = tuple(sorted(rows.topics, key=topic_order))
    weakest = weakest_topics(topics)
    due = due_summary(rows, today)
    return ProgressSummary(
        answers=rows.answers,
        correct=rows.correct,
        sessions=rows.sessions_count,
        practice_games=rows.practice_games,
        topics=topics,
        decisions=rows.decisions,
        average_points_lost=rows.average_points_lost,
        recent_sessions=rows.sessions,
        weakest=weakest,
        next=suggest(topics, weakest, due.count(MISTAKES, now=True)),
        losses=unit_losses(answers),
        weeks=weekly(answers),
        due=due,
        trained=trained_summary(rows, today),
    )


def stats_summary(
    results: list[DailyResult], today: date, *, damaged: int = 0, unverifiable: tuple[str, ...] = ()
) -> StatsSummary:
    """Official daily results (in date order); ``today`` (UTC) decides the current streak."""
    scores = [r.score for r in results]
    current, longest = streaks([date.fromisoformat(r.date) for r in results], today)
    return StatsSummary(
        today=today,
        games_played=len(results),
        current_streak=current,
        longest_streak=longest,
        best=max(results, key=lambda r: r.score) if results else None,
        average_score=sum(scores) / len(scores) if scores else None,
        histogram=histogram(scores),
        recent=tuple(reversed(results[-RECENT_DAYS:])),
        played_today=any(r.date == today.isoformat() for r in results),
        damaged=damaged,
        unverifiable=unverifiable,
    )


def load_progress(
    store: Store, *, rules: str | None = None, now: datetime | None = None, detailed: bool = True
) -> ProgressSummary:
    """The progress summary of ``store``; ``rules`` keeps only training on that rule set (by name).

    The cards due (at ``now``, default the store's clock; today and the forecast are UTC days)
    cover every rule set. ``detailed`` reads every answer too, for the losses in each unit and
    the weeks; a command that needs only the topics and totals can spare itself that (``losses``
    and ``weeks`` are then empty).
    """
    moment = now or store.now()
    rows = store.progress_rows(
        rules=rules,
        recent=RECENT_ANSWERS,
        sessions=TREND_SESSIONS,
        now=moment,
        due_kinds=REVIEWED_KINDS,
        days=FORECAST_DAYS,
    )
    today = moment.astimezone(UTC).date()
    if not detailed:
        return progress_summary(rows, today=today)
    answers = [a for a in store.answer_rows() if rules is None or a.rules == rules]
    return progress_summary(rows, answers, today=today)


def load_stats(
    store: Store,
    today: date | None = None,
    *,
    check: Callable[[DailyResult], DailyResult | None] | None = None,
) -> StatsSummary:
    """The stats summary of ``store`` on ``today`` (UTC; default the store's clock).

    ``check`` re-derives a result from what cannot be faked (its moves on the day's dice) and
    gives it as they give it; a result it refuses (None) is not counted: it is listed as
    unverifiable, and counted with the damaged ones.
    """
    day = today if today is not None else store.now().date()
    kept: list[DailyResult] = []
    refused: list[str] = []
    for result in store.official_results():
        checked = result if check is None else check(result)
        if checked is not None:
            kept.append(checked)
        else:
            refused.append(result.date)
    damaged = store.damaged_official_count() + len(refused)
    return stats_summary(kept, day, damaged=damaged, unverifiable=tuple(refused))


def topic_mastery(store: Store, kind: str) -> dict[str, float]:
    """Accuracy over each topic's last ``RECENT_ANSWERS`` answers, for ``kind``'s topics."""
    return store.recent_accuracy(kind, last=RECENT_ANSWERS)


# -- export


def export_format(path: Path) -> str:
    """``"csv"`` or ``"json"`` from the file's suffix; anything else is refused."""
    fmt = EXPORT_FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise ExportError(f"cannot export to {path.name}: the file name must end in .csv or .json")
    return fmt


def _extra(text: str | None) -> Any:
    """A stored ``extra`` as data; text that is not JSON is exported as the text it is."""
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return text


def write_answers(records: list[AnswerRow], path: Path) -> int:
    """Write ``records`` to ``path`` (CSV or JSON by its suffix); returns how many."""
    fmt = export_format(path)
    with io.StringIO(newline="") as f:
        if fmt == "json":
            data = [{k: getattr(r, k) for k in EXPORT_COLUMNS} | {"extra": _extra(r.extra)} for r in records]
            json.dump(data, f, indent=2)
            f.write("\n")
        else:
            writer = csv.DictWriter(f, fieldnames=EXPORT_COLUMNS)
            writer.writeheader()
            for r in records:
                writer.writerow(
                    {k: getattr(r, k) for k in EXPORT_COLUMNS}
                    | {
                        "correct": "yes" if r.correct else "no",
                        "points_lost": "" if r.points_lost is None else f"{r.points_lost:.2f}",
                    }
                )
        write_whole(path, f.getvalue().encode("utf-8"))
    return len(records)


def export_answers(store: Store, path: Path) -> int:
    """Write every training answer in ``store`` to ``path``; returns how many."""
    export_format(path)
    return write_answers(store.answer_rows(), path)


# -- rated games (``play``): official results, apart from the daily game's


@dataclass(frozen=True)
class RatedResult:
    """A rated game as its moves replay: the computers it was against (``hard``, ``easy,hard``),
    how it ended for the person (``win``, ``loss``, ``shared`` or ``resigned``) and their score,
    and what it was played on: the rule set (a preset's name), its opening minimum and
    three-Farkle penalty, and the target.

    A game stored as rated whose saved state cannot be read, or that was closed unfinished
    because it could not be played on, counts as resigned, with the level the store names and
    nothing else known (``rules`` and ``score`` None); ``unread`` says why.
    """

    game: int
    level: str
    outcome: str
    score: int | None
    rules: str | None = None
    opening: int = 0
    penalty: int = 0
    target: int | None = None
    unread: str | None = None


@dataclass(frozen=True)
class Unverifiable:
    """A game stored as rated, or replaying as one, that the stats cannot count, and why."""

    game: int
    reason: str


#: What a finished game gives the stats: a rated result, None for a training game, or why it
#: cannot be counted.
Verdict = RatedResult | Unverifiable | None


@dataclass(frozen=True)
class LevelRecord:
    """Rated games against one line-up of computers (``hard``, ``easy,hard``) on one rule set,
    opening minimum, penalty and target (``rules`` None: games whose saved state cannot be read)."""

    level: str
    played: int
    wins: int
    shared: int
    losses: int  # resigned games included
    resigned: int
    average_score: float | None
    best: int | None
    rules: str | None = None
    opening: int = 0
    penalty: int = 0
    target: int | None = None


@dataclass(frozen=True)
class GameStats:
    """Every finished rated game, by level, rule set and target, and the runs of wins (a shared
    win ends a run); ``unverifiable`` the games left out of them, ``unread`` those counted as
    resigned because they are damaged (see :class:`RatedResult`)."""

    levels: tuple[LevelRecord, ...]
    current_streak: int
    longest_streak: int
    unverifiable: tuple[Unverifiable, ...] = ()
    unread: tuple[Unverifiable, ...] = ()

    @property
    def played(self) -> int:
        return sum(r.played for r in self.levels)


def _line(r: RatedResult) -> tuple[str, str | None, int, int, int | None]:
    return (r.level, r.rules, r.opening, r.penalty, r.target)


def _line_order(line: tuple[str, str | None, int, int, int | None]) -> tuple[object, ...]:
    level, rules, opening, penalty, target = line
    return (level, rules is None, rules or "", target or 0, opening, penalty)


def game_stats(results: Sequence[RatedResult], unverifiable: Sequence[Unverifiable] = ()) -> GameStats:
    """The stats of rated games from their results (oldest first): one line for each level, rule
    set and target, since a score to 2,000 and one to 10,000 average to nothing."""
    by_line: dict[tuple[str, str | None, int, int, int | None], list[RatedResult]] = {}
    run = longest = 0
    for result in results:
        by_line.setdefault(_line(result), []).append(result)
        run = run + 1 if result.outcome == "win" else 0
        longest = max(longest, run)
    levels = []
    for line in sorted(by_line, key=_line_order):
        games = by_line[line]
        scores = [g.score for g in games if g.score is not None]
        level, rules, opening, penalty, target = line
        levels.append(
            LevelRecord(
                level=level,
                played=len(games),
                wins=sum(g.outcome == "win" for g in games),
                shared=sum(g.outcome == "shared" for g in games),
                losses=sum(g.outcome in ("loss", "resigned") for g in games),
                resigned=sum(g.outcome == "resigned" for g in games),
                average_score=sum(scores) / len(scores) if scores else None,
                best=max(scores, default=None),
                rules=rules,
                opening=opening,
                penalty=penalty,
                target=target,
            )
        )
    unread = tuple(Unverifiable(r.game, r.unread) for r in results if r.unread is not None)
    return GameStats(tuple(levels), run, longest, tuple(unverifiable), unread)


def verdicts_stats(verdicts: Iterable[Verdict]) -> GameStats:
    """The stats of rated games from the verdicts on the finished games, oldest first."""
    results: list[RatedResult] = []
    left_out: list[Unverifiable] = []
    for judged in verdicts:
        if isinstance(judged, RatedResult):
            results.append(judged)
        elif isinstance(judged, Unverifiable):
            left_out.append(judged)
    return game_stats(results, left_out)
