"""What each reset deletes, counted before it is asked, so the question names all of it.

``reset progress`` deletes every training session: the answers in them, the review schedule's
cards (your personal positions among them, those an official game made too), the lessons read and
the practice daily games (each belongs to its session). Whole games are kept: a training game's
decisions are answers, and go, but the game stays to be reviewed.

``reset stats`` deletes the official results: every official daily game, finished or not, and
every whole game that the stats count or list, finished or not (a rated game, one stored as
rated that cannot be read, one whose moves or dice the stats refuse). A game an earlier version
rated that is training by today's rule is training, and stays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from farkle_trainer.store.schedule import MISTAKES
from farkle_trainer.training.games.play import official_result
from farkle_trainer.training.progress import load_progress

if TYPE_CHECKING:
    from farkle_trainer.engine.tables import Tables
    from farkle_trainer.store.db import Store


@dataclass(frozen=True)
class ProgressHeld:
    """What ``reset progress`` would delete."""

    answers: int
    sessions: int  # the sessions with answers in them
    practice_games: int  # practice daily games, finished or not
    lessons: int  # lessons read
    cards: int = 0  # the review schedule's cards, every kind
    personal: int = 0  # of them, personal positions (some made where no answer is kept)

    @property
    def anything(self) -> bool:
        return bool(self.answers or self.practice_games or self.lessons or self.cards)


@dataclass(frozen=True)
class StatsHeld:
    """What ``reset stats`` would delete: official daily games and whole games, each with how
    many of them are unfinished, and the numbers of those games."""

    daily: int
    daily_unfinished: int
    games: tuple[int, ...]
    games_unfinished: int

    @property
    def anything(self) -> bool:
        return bool(self.daily or self.games)


def progress_held(store: Store) -> ProgressHeld:
    p = load_progress(store, detailed=False)
    practice = sum(not a.official for a in store.daily_attempts())
    cards = store.card_counts()
    return ProgressHeld(
        p.answers,
        p.sessions,
        practice,
        len(store.lessons_read()),
        sum(cards.values()),
        cards.get(MISTAKES, 0),
    )


def stats_held(tables: Tables, store: Store) -> StatsHeld:
    """What the stats hold, judged as the stats judge it: each game by its replay (so a game a
    Hard computer played may need its table, as ``stats`` does)."""
    official = [a for a in store.daily_attempts() if a.official]
    # The stats read finished games only; an unfinished one stored as rated is a result to come.
    games = [
        row
        for row in store.games()
        if (row.rated or row.finished) and official_result(tables, row) is not None
    ]
    return StatsHeld(
        daily=len(official),
        daily_unfinished=sum(not a.finished for a in official),
        games=tuple(sorted(row.id for row in games)),
        games_unfinished=sum(not row.finished for row in games),
    )


def reset_stats(store: Store, held: StatsHeld) -> None:
    """Delete the official results ``held`` counted (a game finished since is not among them)."""
    store.reset("stats", games=held.games)
