"""Where the trainer remembers, in one SQLite file: the SQL and the migrations, and nothing else.

Progress and stats never mix. Training (quizzes, drills, lessons, challenges, replayed or
past daily games) is recorded as *sessions* of *answers*; statistics read only *official*
daily attempts and rated games. The store keeps and returns rows
(:mod:`farkle_trainer.store.rows`); the rules that make sense of them live in the training
layer: which attempt is official in :mod:`farkle_trainer.training.games.daily`, summaries,
streaks and exports in :mod:`farkle_trainer.training.progress`. No other package holds SQL.

Callers hold one :class:`Store`; it is made of one part per kind of record, each in its module::

    connection    Store.open(), atomic(): the file's identity, WAL, errors, short transactions
    progress      training sessions, answers, the review schedule (``schedule``, on FSRS), lessons read
    daily         daily attempts, and the official results they become
    games         whole games, rated or training
    versioned     the compare-and-set write that daily attempts and games share

Beneath them: ``paths`` (where the file lives), ``schema`` (the tables and their migrations),
``encoding`` (times and JSON in columns), ``rows`` (the values returned) and ``errors``.

Where the data lives::

    data_dir()                 $FARKLE_TRAIN_HOME if set, else the platformdirs user data dir
    store_path(directory)      <directory or data_dir()>/farkle.sqlite3
    Store.open(path=None)      path is a data directory (what ``--data-dir`` gives), None for data_dir()

Training::

    sid = store.start_session("score", rules="classic", seed=7, code=None, params={"topic": "combos"})
    state = store.record_answer(sid, topic="combos", item="worth:1-1-1-5", question="...",
                                answer="1,000", correct_answer="1,050", correct=False,
                                grade="wrong", points_lost=None, extra={"dice": [1, 1, 1, 5]})
    store.finish_session(sid)
    store.due_items("score", topic="combos", limit=5)   # ItemState list, the longest overdue first
    store.record_mistake(mistake)                       # a personal position, where no answer is kept
    store.next_due("mistakes")                          # the card due first, now or later
    store.recent_accuracy("score", last=20)             # {"combos": 0.8, ...}
    store.record_lesson(3, "combinations", rules="classic"); store.lessons_read()   # {3}

Daily game (primitives; the rules are the caller's)::

    store.daily_attempt("2026-11-29", official=True)          # the official attempt, or None
    store.add_daily_attempt(day, official=True, rules=...)     # None if the date already has one
    store.save_daily_state(attempt.id, engine_state)            # after every action
    store.finish_daily(attempt.id, score=5350, perfect_score=5712.4, marks="...", turns=[...])

``atomic()`` groups several calls into one transaction. Reading rows:
``progress_rows(...)``, ``official_results()``, ``answer_rows()``; forgetting:
``reset("progress" | "stats")``.

A file that is not a farkle-trainer store raises :class:`~farkle_trainer.store.errors.DamagedStoreError`;
:func:`~farkle_trainer.store.paths.set_aside_damaged` renames it (it is never deleted) so a
fresh store can be made.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from farkle_trainer.store.daily import DailyQueries
from farkle_trainer.store.errors import StoreError
from farkle_trainer.store.games import GameQueries
from farkle_trainer.store.progress import ProgressQueries

ResetKind = Literal["progress", "stats"]
RESET_KINDS: tuple[ResetKind, ...] = ("progress", "stats")


class Store(ProgressQueries, DailyQueries, GameQueries):
    """An open store. Make one with :meth:`Store.open`; use it as a context manager to close it."""

    def reset(self, kind: str, *, games: Iterable[int] | None = None) -> int:
        """Delete all training progress, or all official results; the other kind is untouched.

        Official results are the official daily attempts and the whole games ``games`` names
        (which games count is the caller's rule); without ``games``, every game stored as rated.
        Returns how many answers (progress) or official attempts and games (stats) were deleted.
        """
        if kind not in RESET_KINDS:
            raise StoreError(f"cannot reset {kind!r}: choose progress or stats")
        with self._transaction() as db:
            if kind == "progress":
                count = db.execute("SELECT count(*) FROM answers").fetchone()[0]
                # Answers and practice daily attempts go with their sessions.
                db.execute("DELETE FROM sessions")
                db.execute("DELETE FROM items")
                return int(count)
            count = db.execute("DELETE FROM daily_attempts WHERE official = 1").rowcount
            if games is None:
                count += db.execute("DELETE FROM games WHERE rated = 1").rowcount
            else:
                for game_id in games:
                    count += db.execute("DELETE FROM games WHERE id = ?", (game_id,)).rowcount
        return int(count)
