"""The tables, and the migrations that build and upgrade them.

The schema is versioned with ``PRAGMA user_version``, and ``PRAGMA application_id`` tells
our files from other SQLite files. Step n of ``MIGRATIONS`` upgrades a version n-1 file to
version n in place; a new file runs them all. A step, once released, never changes: files
out there were made by it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from farkle_trainer.store import leitner
from farkle_trainer.store.encoding import load, parse_time
from farkle_trainer.store.errors import StoreError
from farkle_trainer.store.schedule import MISTAKES, Note, fold, position_of, review

#: ``PRAGMA application_id`` of our files ("FRKL"), which tells them from other SQLite files.
APPLICATION_ID = 0x46524B4C


def _schema_v1(db: sqlite3.Connection) -> None:
    """The first release: training sessions and answers, and daily attempts."""
    for statement in (
        """CREATE TABLE sessions (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL,
            rules TEXT NOT NULL,
            seed INTEGER,
            code TEXT,
            params TEXT NOT NULL DEFAULT '{}',
            started_at TEXT NOT NULL,
            finished_at TEXT
        )""",
        """CREATE TABLE answers (
            id INTEGER PRIMARY KEY,
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            answered_at TEXT NOT NULL,
            topic TEXT NOT NULL,
            item TEXT NOT NULL,
            question TEXT NOT NULL,
            answer TEXT NOT NULL,
            correct_answer TEXT NOT NULL,
            correct INTEGER NOT NULL CHECK (correct IN (0, 1)),
            grade TEXT NOT NULL,
            points_lost REAL,
            extra TEXT
        )""",
        "CREATE INDEX answers_by_session ON answers(session_id)",
        # Practice attempts belong to a training session (and go with it on a progress
        # reset); official ones never have one, and a date has at most one.
        """CREATE TABLE daily_attempts (
            id INTEGER PRIMARY KEY,
            date TEXT NOT NULL,
            official INTEGER NOT NULL CHECK (official IN (0, 1)),
            rules TEXT NOT NULL,
            session_id INTEGER REFERENCES sessions(id) ON DELETE CASCADE,
            started_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            finished_at TEXT,
            state TEXT,
            score INTEGER,
            perfect_score REAL,
            marks TEXT,
            turns TEXT,
            CHECK ((official = 1) = (session_id IS NULL))
        )""",
        "CREATE UNIQUE INDEX one_official_attempt_per_date ON daily_attempts(date) WHERE official = 1",
    ):
        db.execute(statement)


def _schema_v2(db: sqlite3.Connection) -> None:
    """Spaced repetition: a Leitner schedule per question, rebuilt from the answers so far."""
    db.execute(
        """CREATE TABLE items (
            kind TEXT NOT NULL,
            item TEXT NOT NULL,
            topic TEXT NOT NULL,
            box INTEGER NOT NULL CHECK (box BETWEEN 1 AND 5),
            due_at TEXT NOT NULL,
            last_seen TEXT NOT NULL,
            seen INTEGER NOT NULL,
            wrong INTEGER NOT NULL,
            last_correct INTEGER NOT NULL,
            question TEXT NOT NULL,
            correct_answer TEXT NOT NULL,
            extra TEXT,
            PRIMARY KEY (kind, item)
        ) WITHOUT ROWID"""
    )
    db.execute("CREATE INDEX items_by_due ON items(kind, due_at)")
    rows = db.execute(
        """SELECT s.kind, a.topic, a.item, a.correct, a.answered_at, a.question, a.correct_answer, a.extra
           FROM answers a JOIN sessions s ON s.id = a.session_id ORDER BY a.id"""
    ).fetchall()
    for r in rows:
        leitner.schedule(db, r[0], r[1], r[2], bool(r[3]), parse_time(r[4]), r[5], r[6], r[7])


def _schema_v3(db: sqlite3.Connection) -> None:
    """Losses carry their unit, so a final round's chance is never averaged with points.

    Earlier files kept a final round's loss only in ``extra``; it moves to the column.
    """
    db.execute("ALTER TABLE answers ADD COLUMN unit TEXT NOT NULL DEFAULT 'points'")
    rows = db.execute("SELECT id, extra FROM answers WHERE points_lost IS NULL AND extra IS NOT NULL")
    for answer_id, extra_text in rows.fetchall():
        extra = load(extra_text)
        if isinstance(extra, dict) and extra.get("unit") == "percentage points":
            lost = extra.get("lost")
            if isinstance(lost, int | float):
                db.execute(
                    "UPDATE answers SET unit = 'percentage points', points_lost = ? WHERE id = ?",
                    (float(lost), answer_id),
                )


def _schema_v4(db: sqlite3.Connection) -> None:
    """Daily attempts that one terminal plays at a time, and that can be closed as damaged.

    ``version`` counts writes: a save names the version it read, so a terminal that fell
    behind another cannot overwrite the newer game. ``holder`` is the terminal playing the
    attempt until ``held_until``. ``damage`` says why an attempt was closed unreadable; its
    stored text stays in ``state`` and ``turns``, never deleted.
    """
    for column in (
        "version INTEGER NOT NULL DEFAULT 0",
        "holder TEXT",
        "held_until TEXT",
        "damage TEXT",
    ):
        db.execute(f"ALTER TABLE daily_attempts ADD COLUMN {column}")


def _schema_v5(db: sqlite3.Connection) -> None:
    """Whole games (``play``): the game's JSON state after every action, saved compare-and-set
    on ``version`` as daily attempts are. ``rated`` games are official results; ``outcome``
    (win, loss, shared, resigned) is set when one ends. Every game has a training session for
    the answers its decisions become once it is training; a progress reset deletes the
    session and its answers but keeps the game.
    """
    db.execute(
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL,
            level TEXT,
            rated INTEGER NOT NULL CHECK (rated IN (0, 1)),
            session_id INTEGER REFERENCES sessions(id) ON DELETE SET NULL,
            started_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            finished_at TEXT,
            state TEXT NOT NULL,
            version INTEGER NOT NULL DEFAULT 0,
            outcome TEXT,
            score INTEGER
        )"""
    )
    db.execute("CREATE INDEX games_unfinished ON games(finished_at)")


def _schema_v6(db: sqlite3.Connection) -> None:
    """The review schedule moves from Leitner boxes to FSRS (see :mod:`.schedule`): each card is
    made again by replaying its answers through the scheduler, oldest first, so a question
    answered right five times is far out and one missed yesterday is due. ``reviewed_at`` is
    when a card was last reviewed (fsrs's ``last_review``; None for a card never reviewed).

    The answers are untouched. A card no answer is left for (a file edited by hand) is kept as
    a new card, due when it was; an answer whose time cannot be read is left out of the replay.
    """
    db.execute("DROP INDEX items_by_due")
    db.execute("ALTER TABLE items RENAME TO leitner_items")
    db.execute(
        """CREATE TABLE items (
            kind TEXT NOT NULL,
            item TEXT NOT NULL,
            topic TEXT NOT NULL,
            state INTEGER NOT NULL CHECK (state IN (1, 2, 3)),
            step INTEGER,
            stability REAL,
            difficulty REAL,
            due_at TEXT NOT NULL,
            reviewed_at TEXT,
            last_seen TEXT NOT NULL,
            seen INTEGER NOT NULL,
            wrong INTEGER NOT NULL,
            last_correct INTEGER NOT NULL,
            question TEXT NOT NULL,
            correct_answer TEXT NOT NULL,
            extra TEXT,
            PRIMARY KEY (kind, item)
        ) WITHOUT ROWID"""
    )
    db.execute("CREATE INDEX items_by_due ON items(kind, due_at)")
    rows = db.execute(
        """SELECT s.kind, a.item, a.topic, a.question, a.correct_answer, a.extra, a.grade, a.correct,
                  a.answered_at
           FROM answers a JOIN sessions s ON s.id = a.session_id ORDER BY a.id"""
    ).fetchall()
    for kind, item, topic, question, correct_answer, extra, grade, correct, answered_at in rows:
        try:
            at = parse_time(answered_at)
        except StoreError:
            continue
        note = Note(topic, question, correct_answer, extra)
        review(db, kind, item, note, grade=grade, correct=bool(correct), at=at)
    db.execute(
        """INSERT INTO items (kind, item, topic, state, step, stability, difficulty, due_at, reviewed_at,
                              last_seen, seen, wrong, last_correct, question, correct_answer, extra)
           SELECT kind, item, topic, 1, 0, NULL, NULL, due_at, NULL,
                  last_seen, seen, wrong, last_correct, question, correct_answer, extra
           FROM leitner_items old
           WHERE NOT EXISTS (SELECT 1 FROM items new WHERE new.kind = old.kind AND new.item = old.item)"""
    )
    db.execute("DROP TABLE leitner_items")


def _schema_v7(db: sqlite3.Connection) -> None:
    """A position is one card: a drill position missed in ``decide`` was kept twice, as its drill
    card and as a personal position's card. Each such pair is folded into the personal card
    (:func:`.schedule.fold`): the schedule of the card reviewed last, the reviews and misses of
    both counted, the personal position's note with the rules it keeps. The answers are untouched.

    A personal card's key is its drill card's key, the rule table's digest and, where it counts,
    the three-Farkle penalty (``...:<digest>`` or ``...:<digest>:penalty500``).
    """
    rows = db.execute("SELECT item, extra FROM items WHERE kind = ?", (MISTAKES,)).fetchall()
    for item, extra in rows:
        parts = item.split(":")
        drop = 2 if parts[-1].startswith("penalty") else 1
        if len(parts) > drop:
            fold(db, ":".join(parts[:-drop]), item, position_of(extra))


#: Step n upgrades a version n-1 file to version n; a new file runs them all.
MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (
    _schema_v1,
    _schema_v2,
    _schema_v3,
    _schema_v4,
    _schema_v5,
    _schema_v6,
    _schema_v7,
)
SCHEMA_VERSION = len(MIGRATIONS)


class NewerStoreError(StoreError):
    """The file was written by a newer farkle-trainer, whose schema this version cannot read."""

    def __init__(self, path: Path, version: int):
        self.path = path
        self.version = version
        super().__init__(
            f"{path} was written by a newer farkle-trainer (schema {version}; this version reads up to "
            f"{SCHEMA_VERSION}): upgrade farkle-trainer to use it"
        )
