"""The daily game: attempts at each date's game, and the official results they become.

A date has at most one official attempt (a unique index says so), and only official
attempts are stats; a practice attempt comes with a training session of kind
``"daily-practice"`` for its answers. Which attempt is official is the caller's rule
(:mod:`farkle_trainer.training.games.daily`); the store only keeps it so.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime
from typing import Any

from farkle_trainer.store.encoding import (
    columns,
    dump,
    load_checked,
    maybe_time_or_long_ago,
    parse_day,
    stamp,
    time_or_long_ago,
)
from farkle_trainer.store.progress import insert_session
from farkle_trainer.store.rows import DailyAttempt, DailyResult
from farkle_trainer.store.versioned import Versioned, VersionedRows

DAILY_PRACTICE = "daily-practice"

ATTEMPTS = Versioned(
    "daily_attempts", "daily attempt", "the daily attempt", "the daily attempt {} is already finished"
)


def _attempt(r: sqlite3.Row) -> DailyAttempt:
    state, bad_state = load_checked(r["state"])
    turns, bad_turns = load_checked(r["turns"])
    damage = r["damage"]
    if damage is None and (bad_state or (state is not None and not isinstance(state, dict))):
        damage, state = "its saved game is not a game state (not valid JSON)", None
    if damage is None and (bad_turns or (turns is not None and not isinstance(turns, list))):
        damage, turns = "its list of turns is not valid JSON", None
    return DailyAttempt(
        **columns(
            r, "id", "date", "rules", "session_id", "score", "perfect_score", "marks", "version", "holder"
        ),
        official=bool(r["official"]),
        started_at=time_or_long_ago(r["started_at"]),
        updated_at=time_or_long_ago(r["updated_at"]),
        finished_at=maybe_time_or_long_ago(r["finished_at"]),
        held_until=maybe_time_or_long_ago(r["held_until"]),
        state=state,
        turns=turns,
        damage=damage,
        raw_state=r["state"],
        raw_turns=r["turns"],
    )


def _result(r: sqlite3.Row) -> DailyResult:
    # Only the stats query reads the saved game with each result.
    state = r["state"] if "state" in r.keys() else None  # noqa: SIM118 - a Row has no __contains__ for names
    return DailyResult(
        date=r["date"], score=r["score"], perfect_score=r["perfect_score"], marks=r["marks"], state=state
    )


class DailyQueries(VersionedRows):
    """Daily attempts: added, held by one terminal, saved after every action, finished."""

    def daily_attempt(self, day: str | date, official: bool) -> DailyAttempt | None:
        """The official attempt of ``day``, or its latest practice attempt; None if there is none."""
        with self._errors():
            row = self._latest_attempt(self._db, parse_day(day), official=official)
        return None if row is None else _attempt(row)

    def daily_attempts(self) -> list[DailyAttempt]:
        """Every attempt at every date's game, official and practice, newest first."""
        with self._errors():
            rows = self._db.execute("SELECT * FROM daily_attempts ORDER BY id DESC").fetchall()
        return [_attempt(r) for r in rows]

    def get_daily(self, attempt_id: int) -> DailyAttempt:
        return _attempt(self._versioned_row(ATTEMPTS, attempt_id))

    def add_daily_attempt(self, day: str | date, *, official: bool, rules: str) -> DailyAttempt | None:
        """Insert a new attempt at ``day``'s game, atomically; None if ``official`` and the date has one.

        Which attempt may be official is the caller's rule; the store only guarantees a date
        never gets two. A practice attempt gets its own ``"daily-practice"`` training session.
        """
        when = parse_day(day)
        with self._transaction() as db:
            if official and self._latest_attempt(db, when, official=True) is not None:
                return None
            attempt_id = self._insert_attempt(db, when, official=official, rules=rules)
            return _attempt(db.execute("SELECT * FROM daily_attempts WHERE id = ?", (attempt_id,)).fetchone())

    def _latest_attempt(self, db: sqlite3.Connection, when: date, *, official: bool) -> sqlite3.Row | None:
        return db.execute(
            "SELECT * FROM daily_attempts WHERE date = ? AND official = ? ORDER BY id DESC LIMIT 1",
            (when.isoformat(), int(official)),
        ).fetchone()

    def _insert_attempt(self, db: sqlite3.Connection, when: date, *, official: bool, rules: str) -> int:
        session_id = (
            None
            if official
            else insert_session(
                db, DAILY_PRACTICE, rules, None, None, {"date": when.isoformat()}, at=self.now()
            )
        )
        now = stamp(self.now())
        cursor = db.execute(
            """INSERT INTO daily_attempts (date, official, rules, session_id, started_at, updated_at)
               VALUES (?, ?, ?, ?, ?, ?)""",
            (when.isoformat(), int(official), rules, session_id, now, now),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def claim_daily(self, attempt_id: int, *, holder: str, until: datetime, version: int) -> DailyAttempt:
        """Make ``holder`` the terminal playing the attempt until ``until``, if it is still at ``version``.

        Whether the attempt may be taken is the caller's rule; the store only makes sure it
        has not changed since the caller read it (else :class:`StaleAttemptError`).
        """
        with self._transaction() as db:
            self._write_versioned(
                db, ATTEMPTS, attempt_id, version, "holder = ?, held_until = ?", (holder, stamp(until))
            )
            return _attempt(db.execute("SELECT * FROM daily_attempts WHERE id = ?", (attempt_id,)).fetchone())

    def release_daily(self, attempt_id: int, holder: str) -> None:
        """``holder`` stops playing the attempt; another terminal may take it at once."""
        with self._transaction() as db:
            db.execute(
                "UPDATE daily_attempts SET holder = NULL, held_until = NULL WHERE id = ? AND holder = ?",
                (attempt_id, holder),
            )

    def save_daily_state(
        self, attempt_id: int, state: dict[str, Any], *, version: int, held_until: datetime | None = None
    ) -> int:
        """Keep the game engine's whole state after an action, so a killed game resumes there.

        Saved only if the attempt is still at ``version`` (compare and set), else
        :class:`StaleAttemptError`; returns the new version. ``held_until`` extends the hold.
        """
        hold = None if held_until is None else stamp(held_until)
        with self._transaction() as db:
            return self._write_versioned(
                db,
                ATTEMPTS,
                attempt_id,
                version,
                "state = ?, held_until = coalesce(?, held_until)",
                (dump(state), hold),
            )

    def finish_daily(
        self,
        attempt_id: int,
        *,
        score: int,
        perfect_score: float | None,
        marks: str,
        turns: list[Any],
        version: int,
    ) -> None:
        """Record a finished game. Official: a result for the stats. Practice: its session ends."""
        self._finish_versioned(
            ATTEMPTS,
            attempt_id,
            version,
            "score = ?, perfect_score = ?, marks = ?, turns = ?, holder = NULL, held_until = NULL",
            (score, perfect_score, marks, dump(turns)),
        )

    def close_damaged(self, attempt_id: int, *, reason: str, version: int) -> None:
        """Close an attempt whose saved game cannot be played on; its stored text is kept as it is."""
        self._finish_versioned(
            ATTEMPTS, attempt_id, version, "damage = ?, holder = NULL, held_until = NULL", (reason,)
        )

    def unfinished_official(self, before: str | date) -> list[DailyAttempt]:
        """Unfinished official attempts of dates before ``before``, oldest first."""
        with self._errors():
            rows = self._db.execute(
                """SELECT * FROM daily_attempts WHERE official = 1 AND finished_at IS NULL AND date < ?
                   ORDER BY date""",
                (parse_day(before).isoformat(),),
            ).fetchall()
        return [_attempt(r) for r in rows]

    def official_count(self) -> int:
        """Every official attempt: finished, unfinished and closed as damaged."""
        with self._errors():
            return int(
                self._db.execute("SELECT count(*) FROM daily_attempts WHERE official = 1").fetchone()[0]
            )

    def damaged_official_count(self) -> int:
        """Official attempts closed because their saved game could not be read."""
        with self._errors():
            row = self._db.execute(
                "SELECT count(*) FROM daily_attempts WHERE official = 1 AND damage IS NOT NULL"
            ).fetchone()
        return int(row[0])

    def official_results(self) -> list[DailyResult]:
        """Every finished official daily attempt, in date order: a date's first official attempt
        only, the one its unique index allows (a second one is a file edited by hand)."""
        with self._errors():
            rows = self._db.execute(
                """SELECT date, score, perfect_score, marks, state FROM daily_attempts a
                   WHERE official = 1 AND finished_at IS NOT NULL AND damage IS NULL AND score IS NOT NULL
                     AND id = (SELECT min(id) FROM daily_attempts b WHERE b.official = 1 AND b.date = a.date)
                   ORDER BY date"""
            ).fetchall()
        return [_result(r) for r in rows]
