"""A player's strength against perfect play across games: the mean, its standard error and 95%
interval, the equivalent rating difference, week by week.

Each game played to its end gives one figure (:class:`~.analysis.Strength`), worked out again from
its moves every time (never a number the store keeps). Games are grouped by what was played, on
which rule set, house rules and target (a :class:`Kind`): a chance of winning to 2,000 and one to
10,000 are different things. Within a group the figure averaged is:

* two players: the chance of winning against perfect play taking each seat in turn, 1/2 less the
  win chance the decisions gave up (in a game from the first seat perfect play expects more than
  1/2, from the second less; what the decisions gave up is what the seat does not change). Its
  equivalent rating difference to perfect play is ``400 log10(p / (1 - p))``, as chess players
  read a score ``p`` (0 for perfect play, negative below it);
* ten turns: the points the decisions were expected to score against perfect play;
* the target in the fewest turns: the turns they were expected to take.

Its standard error is the standard deviation of the games' figures over the square root of their
number, and the 95% interval the mean within 1.96 standard errors. With three or four players a
game's figure counts points over a share of the game that differs from game to game: such games
are not averaged.

Which games count: ``stats`` averages official results (rated games, each judged as the stats
judge it; official daily games whose moves give their score); ``progress`` averages training
(whole games of the owner against one computer or solo, class challenges, daily practice games),
never pass and play, whose decisions are nobody's own.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING

from farkle_trainer.engine.grading import Unit
from farkle_trainer.training.games.match import MatchState
from farkle_trainer.training.games.setup import Form, GameKind
from farkle_trainer.training.progress import RatedResult

# The analysis loads the solvers: a figure is worked out only where one is asked for.
if TYPE_CHECKING:
    from farkle_trainer.engine.tables import Tables
    from farkle_trainer.store.db import Store
    from farkle_trainer.training.games.analysis import Strength
    from farkle_trainer.training.games.play import Judged

#: The interval is the mean within this many standard errors: 95% of a normal spread.
Z95 = 1.96
#: How far back the figures by week go: this many weeks, up to the last week with a game.
WEEKS = 8


class What(StrEnum):
    """What a group of games was played for."""

    #: Two players to the target: the chance of winning.
    MATCH = "match"
    #: Solo, ten turns: the points.
    TEN_TURNS = "ten-turns"
    #: Solo, the target in as few turns as possible: the turns.
    FEWEST_TURNS = "fewest-turns"

    @property
    def unit(self) -> Unit:
        return {What.MATCH: Unit.WIN, What.TEN_TURNS: Unit.POINTS, What.FEWEST_TURNS: Unit.TURNS}[self]


@dataclass(frozen=True, order=True)
class Kind:
    """Games that average together: what was played, on which rule set (a preset's name, or a
    rule file's table name), opening minimum, three-Farkle penalty and target (None for ten
    turns, which have none)."""

    what: What
    rules: str
    opening: int = 0
    penalty: int = 0
    target: int | None = None


@dataclass(frozen=True)
class Figure:
    """One game's figure as the figures across games read it: its :class:`Kind`, the Monday
    (UTC) of the week it was played and the player's :class:`~.analysis.Strength`."""

    kind: Kind
    week: date
    strength: Strength

    @property
    def value(self) -> float:
        """What is averaged: see the module's list."""
        s = self.strength
        if s.unit == Unit.WIN:
            return 0.5 - s.given_up / 100
        return s.expected_result


@dataclass(frozen=True)
class WeekFigure:
    """One week's games of a kind: how many, and their mean figure."""

    week: date
    games: int
    mean: float


@dataclass(frozen=True)
class Line:
    """The games of one :class:`Kind`: how many, the mean of their figures with its standard
    error (None for a single game), perfect play's figure (1/2 in a two-player game; the mean of
    perfect play's expectations, otherwise), the mean of what the decisions gave up a game
    (display scale), and week by week. ``expected_result`` and ``start_chance`` are the means of
    the games' own figures and of their seats' chances at the start (two players), as played."""

    kind: Kind
    games: int
    mean: float
    standard_error: float | None
    perfect: float
    given_up: float
    expected_result: float
    start_chance: float | None
    weeks: tuple[WeekFigure, ...] = ()

    @property
    def unit(self) -> Unit:
        return self.kind.what.unit

    @property
    def interval(self) -> tuple[float, float] | None:
        """The 95% interval of the mean; None for a single game."""
        if self.standard_error is None:
            return None
        return self.mean - Z95 * self.standard_error, self.mean + Z95 * self.standard_error

    @property
    def rating(self) -> float | None:
        """The equivalent rating difference to perfect play (two players only)."""
        return rating_difference(self.mean) if self.unit == Unit.WIN else None

    @property
    def rating_interval(self) -> tuple[float | None, float | None] | None:
        """The rating difference at each end of the interval (None at an end beyond 0 or 1)."""
        interval = self.interval
        if interval is None or self.unit != Unit.WIN:
            return None
        return rating_difference(interval[0]), rating_difference(interval[1])


def rating_difference(p: float) -> float | None:
    """The rating difference at which a player scores ``p`` against another, as chess players
    read it: ``400 log10(p / (1 - p))``; None for ``p`` at 0 or 1, or beyond.

    >>> rating_difference(0.5), round(rating_difference(0.64) or 0, 2), rating_difference(1.0)
    (0.0, 99.95, None)
    """
    if not 0.0 < p < 1.0:
        return None
    return 400 * math.log10(p / (1 - p))


def week_of(moment: datetime | date) -> date:
    """The Monday that starts the week (UTC) of a moment."""
    day = moment.date() if isinstance(moment, datetime) else moment
    return day - timedelta(days=day.weekday())


def _mean_and_error(values: Sequence[float]) -> tuple[float, float | None]:
    mean = sum(values) / len(values)
    if len(values) < 2:
        return mean, None
    variance = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return mean, math.sqrt(variance / len(values))


def lines(figures: Iterable[Figure], weeks: int = WEEKS) -> tuple[Line, ...]:
    """A line for each kind of game, in kind order; each kind's weeks over the ``weeks`` weeks up
    to the last one played in (of any kind)."""
    by_kind: dict[Kind, list[Figure]] = {}
    for f in figures:
        by_kind.setdefault(f.kind, []).append(f)
    if not by_kind:
        return ()
    last = max(f.week for found in by_kind.values() for f in found)
    first = last - timedelta(weeks=weeks - 1)
    out = []
    for kind in sorted(by_kind):
        found = by_kind[kind]
        mean, error = _mean_and_error([f.value for f in found])
        by_week: dict[date, list[float]] = {}
        for f in found:
            if f.week >= first:
                by_week.setdefault(f.week, []).append(f.value)
        starts = [f.strength.start_chance for f in found]
        perfect = 0.5 if kind.what == What.MATCH else sum(f.strength.perfect for f in found) / len(found)
        out.append(
            Line(
                kind=kind,
                games=len(found),
                mean=mean,
                standard_error=error,
                perfect=perfect,
                given_up=sum(f.strength.given_up for f in found) / len(found),
                expected_result=sum(f.strength.expected_result for f in found) / len(found),
                start_chance=None if None in starts else sum(s for s in starts if s is not None) / len(found),
                weeks=tuple(
                    WeekFigure(week, len(values), sum(values) / len(values))
                    for week, values in sorted(by_week.items())
                ),
            )
        )
    return tuple(out)


# -- which games count


def kind_of(state: MatchState) -> Kind | None:
    """The kind of a game whose figure averages with others: two players, or solo; None for three
    or four players (see the module)."""
    setup = state.setup
    rules = setup.rules
    if setup.form == Form.TEN_TURNS:
        return Kind(What.TEN_TURNS, rules.name, setup.opening, setup.penalty)
    if setup.form == Form.FEWEST_TURNS:
        return Kind(What.FEWEST_TURNS, rules.name, setup.opening, setup.penalty, setup.target)
    if setup.size == 2:
        return Kind(What.MATCH, rules.name, setup.opening, setup.penalty, setup.target)
    return None


def figure_of(tables: Tables, state: MatchState, played: datetime | date) -> Figure | None:
    """The figure of the first person of a game played to its end, if its kind averages."""
    kind = kind_of(state)
    humans = state.setup.humans
    if kind is None or not state.over or not humans:
        return None
    from farkle_trainer.training.games.analysis import game_strengths

    return Figure(kind, week_of(played), game_strengths(tables, state)[humans[0]])


def official_figures(tables: Tables, games: Sequence[Judged], store: Store) -> list[Figure]:
    """The figures of official results: each rated game the stats count that was played to its
    end (a game given up has no figure: its result counts, as a loss, in the stats), and each
    official daily game whose moves give its score."""
    from farkle_trainer.training.games.daily import official_game

    found = []
    for judged in games:
        if not isinstance(judged.verdict, RatedResult) or judged.state is None:
            continue
        if (f := figure_of(tables, judged.state, judged.row.started_at)) is not None:
            found.append(f)
    for result in store.official_results():
        state = official_game(result)
        if state is not None and (f := figure_of(tables, state, date.fromisoformat(result.date))) is not None:
            found.append(f)
    return found


def training_figures(tables: Tables, store: Store, *, rules: str | None = None) -> list[Figure]:
    """The figures of training games played to their end by the owner of the store: whole games
    against one computer or solo (a coached one too), class challenges and daily practice games;
    ``rules`` keeps only those on that rule set (by name). A game is read as the stats read it,
    and left out where they would count it or list it (its computers' moves need no checking:
    a training game's result counts nowhere)."""
    from farkle_trainer.training.games.daily import saved_game
    from farkle_trainer.training.games.play import saved_state
    from farkle_trainer.training.games.setup import MatchError, rated_by_an_earlier_rule

    found = []
    for row in reversed(store.games()):
        if not row.finished:
            continue
        try:
            state = saved_state(None, row)
        except MatchError:
            continue
        if state.rated or (row.rated and not rated_by_an_earlier_rule(state.setup)):
            continue
        if state.setup.kind not in (GameKind.SOLO, GameKind.COMPUTER):
            continue  # pass and play: nobody's own decisions
        if (f := figure_of(tables, state, row.started_at)) is not None:
            found.append(f)
    for attempt in reversed(store.daily_attempts()):
        if attempt.official or not attempt.finished:
            continue
        practice = saved_game(attempt)
        if practice is not None and (f := figure_of(tables, practice, attempt.started_at)) is not None:
            found.append(f)
    return [f for f in found if rules is None or f.kind.rules == rules]
