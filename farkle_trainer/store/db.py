"""Where the trainer remembers, in one SQLite file: the SQL and the migrations, and nothing else.

Progress and stats never mix. Training (quizzes, drills, lessons, challenges, replayed or
past daily games) is recorded as *sessions* of *answers*; statistics read only *official*
daily attempts. This module stores and returns rows (:mod:`farkle_trainer.store.rows`); the
rules that make sense of them live in the training layer: which attempt is official in
:mod:`farkle_trainer.training.games.daily`, summaries, streaks and exports in
:mod:`farkle_trainer.training.progress`. No other module holds SQL.

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
    store.due_items("score", topic="combos", limit=5)   # ItemState list, most urgent first
    store.recent_accuracy("score", last=20)             # {"combos": 0.8, ...}
    store.record_lesson(3, "combinations", rules="classic"); store.lessons_read()   # {3}

Every answer also moves its item in a Leitner schedule (boxes 1..5, see ``LEITNER_DELAYS``):
a wrong answer sends it to box 1, due at once; a right one moves it up a box and pushes
its next review out. ``due_items`` returns the stored question, correct answer and
``extra`` payload, so the item can be asked again.

Daily game (primitives; the rules are the caller's)::

    store.daily_attempt("2026-11-29", official=True)          # the official attempt, or None
    store.add_daily_attempt(day, official=True, rules=...)     # None if the date already has one
    store.save_daily_state(attempt.id, engine_state)            # after every action
    store.finish_daily(attempt.id, score=5350, perfect_score=5712.4, marks="...", turns=[...])

A date has at most one official attempt (a unique index says so); a practice attempt comes
with a training session of kind ``"daily-practice"`` (``attempt.session_id``) for its
answers, an official one has none. ``atomic()`` groups several calls into one transaction.

Reading rows: ``progress_rows(...)``, ``official_results()``, ``answer_rows()``;
forgetting: ``reset("progress" | "stats")``.

Every call commits before it returns (WAL journal, a busy timeout, short transactions),
so Ctrl-C or a crash loses nothing and two terminals can write at once. The schema is
versioned with ``PRAGMA user_version`` and upgraded in place by ``MIGRATIONS``. A file that
is not a farkle-trainer store raises :class:`DamagedStoreError`; :func:`set_aside_damaged`
renames it (it is never deleted) so a fresh store can be made.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any, Literal

from farkle_trainer.engine.errors import RUNTIME_FAILURE, FarkleError
from farkle_trainer.store.rows import (
    LOSS_UNITS,
    AnswerRow,
    DailyAttempt,
    DailyResult,
    GameRow,
    ItemState,
    LossUnit,
    ProgressRows,
    SessionLoss,
    TopicProgress,
)

APP_NAME = "farkle-trainer"
HOME_ENV = "FARKLE_TRAIN_HOME"
FILE_NAME = "farkle.sqlite3"
#: ``PRAGMA application_id`` of our files ("FRKL"), which tells them from other SQLite files.
APPLICATION_ID = 0x46524B4C
BUSY_TIMEOUT_SECONDS = 5.0

ResetKind = Literal["progress", "stats"]
RESET_KINDS: tuple[ResetKind, ...] = ("progress", "stats")
DAILY_PRACTICE = "daily-practice"
#: The training session of a whole game (``play``).
GAME_SESSION = "game"
LESSON = "lesson"

Clock = Callable[[], datetime]


@dataclass(frozen=True)
class _Versioned:
    """A table whose unfinished rows are written by compare and set, and its words."""

    table: str
    missing: str  # "there is no <missing> N"
    stale: str  # "<stale> N was saved by another terminal ..."
    finished: str  # "<finished N>": the row is over


_ATTEMPTS = _Versioned(
    "daily_attempts", "daily attempt", "the daily attempt", "the daily attempt {} is already finished"
)
_GAMES = _Versioned("games", "saved game", "game", "the game {} is already over")


class StoreError(FarkleError, ValueError):
    """The store cannot do what was asked: an unusable file, or a request it refuses."""


class StoreFailure(StoreError):
    """SQLite failed at run time (a database locked by another program, a full disk)."""

    exit_code = RUNTIME_FAILURE


class DamagedStoreError(StoreError):
    """The file at ``path`` is damaged or belongs to another program; it is left untouched."""

    def __init__(self, path: Path, reason: str):
        self.path = path
        self.reason = reason
        super().__init__(f"{path} is not a usable farkle-trainer store: {reason}")


class StaleAttemptError(StoreError):
    """A daily attempt or a game changed since it was read: another terminal saved it first."""

    def __init__(self, what: str, row_id: int):
        self.attempt_id = row_id
        super().__init__(f"{what} {row_id} was saved by another terminal since it was read")


class NewerStoreError(StoreError):
    """The file was written by a newer farkle-trainer, whose schema this version cannot read."""

    def __init__(self, path: Path, version: int):
        self.path = path
        self.version = version
        super().__init__(
            f"{path} was written by a newer farkle-trainer (schema {version}; this version reads up to "
            f"{SCHEMA_VERSION}): upgrade farkle-trainer to use it"
        )


# -- where the data lives


def data_dir() -> Path:
    """``$FARKLE_TRAIN_HOME`` if set and not empty, else the platform's user data directory."""
    home = os.environ.get(HOME_ENV)
    if home:
        return Path(home).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def store_path(directory: Path | None = None) -> Path:
    """The store file in ``directory`` (a ``--data-dir``), or in :func:`data_dir`."""
    return (directory.expanduser() if directory is not None else data_dir()) / FILE_NAME


def _private(file: Path) -> None:
    """Create ``file`` (if missing) readable by its owner only, and tighten ours that exist."""
    try:
        os.close(os.open(file, os.O_CREAT | os.O_RDWR, 0o600))
        for path in (file, file.with_name(file.name + "-wal"), file.with_name(file.name + "-shm")):
            if path.exists() and path.stat().st_mode & 0o077:
                path.chmod(0o600)
    except OSError:
        pass  # a read-only or foreign-owned file is SQLite's to refuse, with its own message


def set_aside_damaged(path: Path, *, now: datetime | None = None) -> Path:
    """Rename a damaged store (and its WAL and shared-memory files) out of the way; never delete.

    ``farkle.sqlite3`` becomes ``farkle.sqlite3.damaged-20261129T120000``; a stale ``-wal``
    file must move with it, or SQLite would replay it into the fresh store.
    """
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%S")
    kept = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while kept.exists():
        n += 1
        kept = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    try:
        path.rename(kept)
        for suffix in ("-wal", "-shm"):
            companion = path.with_name(path.name + suffix)
            if companion.exists():
                companion.rename(kept.with_name(kept.name + suffix))
    except OSError as exc:
        raise StoreError(f"cannot move {path} aside: {exc.strerror or exc}") from None
    return kept


# -- the review schedule

#: How long an item rests in each Leitner box before it is due again. The ``items`` table
#: keeps this schedule as answers come in (and migration 2 rebuilt it from old answers), so
#: it belongs to the stored data: changing it changes what existing files mean.
LEITNER_DELAYS = (timedelta(0), timedelta(days=1), timedelta(days=3), timedelta(days=7), timedelta(days=21))
TOP_BOX = len(LEITNER_DELAYS)


def next_box(box: int | None, correct: bool) -> int:
    """Leitner: a wrong answer goes back to box 1; a right one moves up a box (a new item to box 2)."""
    if not correct:
        return 1
    return min((box or 1) + 1, TOP_BOX)


# -- schema


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
        _schedule(db, r[0], r[1], r[2], bool(r[3]), _parse_time(r[4]), r[5], r[6], r[7])


def _schema_v3(db: sqlite3.Connection) -> None:
    """Losses carry their unit, so a final round's chance is never averaged with points.

    Earlier files kept a final round's loss only in ``extra``; it moves to the column.
    """
    db.execute("ALTER TABLE answers ADD COLUMN unit TEXT NOT NULL DEFAULT 'points'")
    rows = db.execute("SELECT id, extra FROM answers WHERE points_lost IS NULL AND extra IS NOT NULL")
    for answer_id, extra_text in rows.fetchall():
        extra = _load(extra_text)
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


#: Step n upgrades a version n-1 file to version n; a new file runs them all.
MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (
    _schema_v1,
    _schema_v2,
    _schema_v3,
    _schema_v4,
    _schema_v5,
)
SCHEMA_VERSION = len(MIGRATIONS)


def _schedule(
    db: sqlite3.Connection,
    kind: str,
    topic: str,
    item: str,
    correct: bool,
    at: datetime,
    question: str,
    correct_answer: str,
    extra: str | None,
) -> None:
    row = db.execute("SELECT box FROM items WHERE kind = ? AND item = ?", (kind, item)).fetchone()
    box = next_box(row[0] if row else None, correct)
    db.execute(
        """INSERT INTO items (kind, item, topic, box, due_at, last_seen, seen, wrong, last_correct,
                              question, correct_answer, extra)
           VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)
           ON CONFLICT (kind, item) DO UPDATE SET
               topic = excluded.topic, box = excluded.box, due_at = excluded.due_at,
               last_seen = excluded.last_seen, seen = items.seen + 1, wrong = items.wrong + excluded.wrong,
               last_correct = excluded.last_correct, question = excluded.question,
               correct_answer = excluded.correct_answer, extra = excluded.extra""",
        (
            kind,
            item,
            topic,
            box,
            _stamp(at + LEITNER_DELAYS[box - 1]),
            _stamp(at),
            int(not correct),
            int(correct),
            question,
            correct_answer,
            extra,
        ),
    )


# -- encoding


def _stamp(moment: datetime) -> str:
    """Times are stored as UTC ISO 8601 to the second, so text order is time order."""
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def _parse_time(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        # Only an edited file holds one: say so once, rather than fail somewhere deep inside.
        raise StoreError(
            f"the store holds a time that is not one ({str(text)[:40]!r}): the file was edited; "
            "farkle-train reset progress or reset stats starts that part again"
        ) from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _maybe_time(text: str | None) -> datetime | None:
    return None if text is None else _parse_time(text)


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _load(text: str | None) -> Any:
    """Stored JSON as data; text that is not JSON (a damaged value) reads as None."""
    value, _ = _load_checked(text)
    return value


def _load_checked(text: str | None) -> tuple[Any, bool]:
    """(the value, whether the text was damaged): damaged text reads as None and is reported."""
    if text is None:
        return None, False
    try:
        return json.loads(text), False
    except (ValueError, TypeError, RecursionError):
        return None, True


def _day(value: str | date) -> date:
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise StoreError(f"{value!r} is not a date (YYYY-MM-DD)") from None


def _is_damage(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    return code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


def _item_state(r: sqlite3.Row) -> ItemState:
    return ItemState(
        kind=r["kind"],
        item=r["item"],
        topic=r["topic"],
        box=r["box"],
        due_at=_parse_time(r["due_at"]),
        last_seen=_parse_time(r["last_seen"]),
        seen=r["seen"],
        wrong=r["wrong"],
        last_correct=bool(r["last_correct"]),
        question=r["question"],
        correct_answer=r["correct_answer"],
        extra=_load(r["extra"]),
    )


def _attempt(r: sqlite3.Row) -> DailyAttempt:
    state, bad_state = _load_checked(r["state"])
    turns, bad_turns = _load_checked(r["turns"])
    damage = r["damage"]
    if damage is None and (bad_state or (state is not None and not isinstance(state, dict))):
        damage, state = "its saved game is not a game state (not valid JSON)", None
    if damage is None and (bad_turns or (turns is not None and not isinstance(turns, list))):
        damage, turns = "its list of turns is not valid JSON", None
    return DailyAttempt(
        id=r["id"],
        date=r["date"],
        official=bool(r["official"]),
        rules=r["rules"],
        session_id=r["session_id"],
        started_at=_parse_time(r["started_at"]),
        updated_at=_parse_time(r["updated_at"]),
        finished_at=_maybe_time(r["finished_at"]),
        state=state,
        score=r["score"],
        perfect_score=r["perfect_score"],
        marks=r["marks"],
        turns=turns,
        version=r["version"],
        holder=r["holder"],
        held_until=_maybe_time(r["held_until"]),
        damage=damage,
        raw_state=r["state"],
        raw_turns=r["turns"],
    )


def _game(r: sqlite3.Row) -> GameRow:
    state, bad = _load_checked(r["state"])
    return GameRow(
        id=r["id"],
        kind=r["kind"],
        level=r["level"],
        rated=bool(r["rated"]),
        session_id=r["session_id"],
        started_at=_parse_time(r["started_at"]),
        updated_at=_parse_time(r["updated_at"]),
        finished_at=_maybe_time(r["finished_at"]),
        state=state if not bad and isinstance(state, dict) else None,
        version=r["version"],
        outcome=r["outcome"],
        score=r["score"],
    )


def _result(r: sqlite3.Row) -> DailyResult:
    # Only the stats query reads the saved game with each result.
    state = r["state"] if "state" in r.keys() else None  # noqa: SIM118 - a Row has no __contains__ for names
    return DailyResult(
        date=r["date"], score=r["score"], perfect_score=r["perfect_score"], marks=r["marks"], state=state
    )


def _system_clock() -> datetime:
    return datetime.now(UTC)


# -- the store


class Store:
    """An open store. Make one with :meth:`Store.open`; use it as a context manager to close it."""

    def __init__(self, db: sqlite3.Connection, path: Path, clock: Clock):
        self._db = db
        self.path = path
        self.clock = clock
        self._grouped = False

    @classmethod
    def open(cls, path: Path | None = None, *, clock: Clock | None = None) -> Store:
        """Open (creating or upgrading as needed) the store in data directory ``path``.

        Raises :class:`DamagedStoreError` for a damaged or foreign file, :class:`NewerStoreError`
        for a file from a newer release, :class:`StoreError` when it cannot be opened at all.
        """
        file = store_path(path)
        try:
            if file.parent.exists() and not file.parent.is_dir():
                raise StoreError(f"{file.parent} is not a directory")
            # One student's progress is theirs alone on a shared computer: the directory made
            # here is 0700, and the file 0600 (SQLite gives its -wal and -shm the file's mode).
            created = not file.parent.exists()
            file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            if created:
                file.parent.chmod(0o700)
            if file.is_dir():
                raise StoreError(
                    f"{file} is a folder, not a farkle-trainer store: move it away, or keep "
                    "your records elsewhere with --data-dir DIR"
                )
        except OSError as exc:
            raise StoreError(
                f"cannot create the data directory {file.parent}: {exc.strerror or exc}"
            ) from None
        _private(file)
        try:
            # The timeout is SQLite's busy timeout: wait that long for another writer, then fail.
            # No implicit transactions: each method opens its own short one.
            db = sqlite3.connect(file, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open {file}: {exc}") from None
        store = cls(db, file, clock or _system_clock)
        try:
            store._prepare()
        except BaseException:
            db.close()
            raise
        return store

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def now(self) -> datetime:
        moment = self.clock()
        return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)

    @property
    def schema_version(self) -> int:
        return self._db.execute("PRAGMA user_version").fetchone()[0]

    # -- opening

    def _prepare(self) -> None:
        db = self._db
        with self._errors():
            db.row_factory = sqlite3.Row
            db.execute("PRAGMA foreign_keys = ON")
            # Identify the file before changing anything in it: a foreign file stays as it was.
            # One read transaction sees one state of the file, so a store that another process
            # is creating at this moment reads as new or as ours, never as half of each.
            with self._transaction(write=False):
                current = self._check_identity()
            self._use_wal()
            if not current:
                self._migrate()
            found = [r[0] for r in db.execute("PRAGMA quick_check(3)").fetchall()]
            if found != ["ok"]:
                problems = [line for f in found for line in f.splitlines() if not line.startswith("***")]
                raise DamagedStoreError(self.path, f"the integrity check failed ({(problems or found)[0]})")

    def _use_wal(self) -> None:
        """Switch the file to WAL. SQLite answers "locked" at once, without its busy timeout, while
        another process switches the same new file; so wait here, as long as the busy timeout."""
        deadline = time.monotonic() + BUSY_TIMEOUT_SECONDS
        while True:
            try:
                mode = self._db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            except sqlite3.OperationalError as exc:
                if getattr(exc, "sqlite_errorcode", 0) & 0xFF != sqlite3.SQLITE_BUSY:
                    raise
                mode = None
            if mode == "wal" or time.monotonic() > deadline:
                return
            time.sleep(0.01)

    def _check_identity(self) -> bool:
        """True for a store of this version, False for a new (empty) file or an older store.

        An empty or zero-length file is new, not damage: it is what a store looks like while
        another process creates it. Only content that is not ours is another program's.
        """
        app_id = self._db.execute("PRAGMA application_id").fetchone()[0]
        version = self.schema_version
        if app_id == APPLICATION_ID:
            if version > SCHEMA_VERSION:
                raise NewerStoreError(self.path, version)
            return version == SCHEMA_VERSION
        empty = self._db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0
        if not (app_id == 0 and version == 0 and empty):
            raise DamagedStoreError(self.path, "it is another program's database")
        return False

    def _migrate(self) -> None:
        # BEGIN IMMEDIATE: one process creates or upgrades the file, the others wait for it,
        # then find it done when they look again under the lock.
        with self._transaction() as db:
            if self._check_identity():
                return
            version = self.schema_version
            for step in MIGRATIONS[version:]:
                step(db)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")

    @contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as exc:
            if _is_damage(exc):
                raise DamagedStoreError(self.path, str(exc)) from None
            raise StoreFailure(f"{self.path}: {exc}") from None

    @contextmanager
    def _transaction(self, *, write: bool = True) -> Iterator[sqlite3.Connection]:
        """One short transaction, committed on success; writers take the lock up front.

        Inside :meth:`atomic` it joins the transaction already open.
        """
        if self._grouped:
            yield self._db
            return
        with self._errors():
            self._db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield self._db
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """Group several records into one transaction: all of them are kept, or none.

        A daily practice move saves the game's state and records the decision together, so
        a process killed between the two can neither lose the answer nor keep it twice.
        """
        if self._grouped:
            yield
            return
        with self._transaction():
            self._grouped = True
            try:
                yield
            finally:
                self._grouped = False

    # -- training

    def start_session(
        self,
        kind: str,
        *,
        rules: str,
        seed: int | None = None,
        code: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> int:
        """Begin a training session (``kind`` is "score", "decide", "lesson", ...); returns its id."""
        if not kind:
            raise StoreError("a training session needs a kind")
        with self._transaction() as db:
            return self._insert_session(db, kind, rules, seed, code, params or {})

    def _insert_session(
        self,
        db: sqlite3.Connection,
        kind: str,
        rules: str,
        seed: int | None,
        code: str | None,
        params: dict[str, Any],
    ) -> int:
        cursor = db.execute(
            "INSERT INTO sessions (kind, rules, seed, code, params, started_at) VALUES (?, ?, ?, ?, ?, ?)",
            (kind, rules, seed, code, _dump(params), _stamp(self.now())),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def record_answer(
        self,
        session_id: int,
        *,
        topic: str,
        item: str,
        question: str,
        answer: str,
        correct_answer: str,
        correct: bool,
        grade: str,
        points_lost: float | None = None,
        unit: LossUnit = "points",
        extra: dict[str, Any] | None = None,
    ) -> ItemState:
        """Record one answer and reschedule its item; returns the item's new schedule.

        ``item`` is a stable key of the question (the same question, the same key), and
        ``extra`` whatever is needed to ask it again. ``points_lost`` is the expected value
        given up, for answers graded by the solver; None for right-or-wrong questions;
        ``unit`` says whether it is expected points or percentage points of a chance.
        """
        if unit not in LOSS_UNITS:
            raise StoreError(f"a loss is in {' or '.join(LOSS_UNITS)}, not {unit!r}")
        now = self.now()
        extra_text = None if extra is None else _dump(extra)
        with self._transaction() as db:
            row = db.execute("SELECT kind FROM sessions WHERE id = ?", (session_id,)).fetchone()
            if row is None:
                raise StoreError(f"there is no training session {session_id}")
            kind = row["kind"]
            db.execute(
                """INSERT INTO answers (session_id, answered_at, topic, item, question, answer,
                                        correct_answer, correct, grade, points_lost, unit, extra)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                (
                    session_id,
                    _stamp(now),
                    topic,
                    item,
                    question,
                    answer,
                    correct_answer,
                    int(correct),
                    grade,
                    points_lost,
                    unit,
                    extra_text,
                ),
            )
            _schedule(db, kind, topic, item, correct, now, question, correct_answer, extra_text)
            state = db.execute("SELECT * FROM items WHERE kind = ? AND item = ?", (kind, item)).fetchone()
        return _item_state(state)

    def finish_session(self, session_id: int) -> None:
        """Mark a session finished (an unfinished one keeps every answer it got)."""
        with self._transaction() as db:
            db.execute(
                "UPDATE sessions SET finished_at = ? WHERE id = ? AND finished_at IS NULL",
                (_stamp(self.now()), session_id),
            )

    def due_items(self, kind: str, topic: str | None = None, *, limit: int = 10) -> list[ItemState]:
        """Items due for review now (every wrong one is), lowest box first, then longest overdue."""
        query = "SELECT * FROM items WHERE kind = ? AND due_at <= ?"
        args: list[Any] = [kind, _stamp(self.now())]
        if topic is not None:
            query += " AND topic = ?"
            args.append(topic)
        query += " ORDER BY box, due_at, last_seen LIMIT ?"
        args.append(limit)
        with self._errors():
            rows = self._db.execute(query, args).fetchall()
        return [_item_state(r) for r in rows]

    def recent_accuracy(self, kind: str, *, last: int) -> dict[str, float]:
        """Accuracy over each topic's ``last`` answers, for ``kind``'s topics."""
        with self._errors():
            rows = self._db.execute(
                """SELECT topic, avg(correct) FROM (
                       SELECT a.topic, a.correct,
                              row_number() OVER (PARTITION BY a.topic ORDER BY a.id DESC) AS n
                       FROM answers a JOIN sessions s ON s.id = a.session_id WHERE s.kind = ?)
                   WHERE n <= ? GROUP BY topic""",
                (kind, last),
            ).fetchall()
        return {r[0]: r[1] for r in rows}

    def record_lesson(self, number: int, slug: str, *, rules: str) -> None:
        """Remember that lesson ``number`` was read: a finished training session of kind "lesson"."""
        with self._transaction() as db:
            sid = self._insert_session(db, LESSON, rules, None, None, {"lesson": number, "slug": slug})
            db.execute("UPDATE sessions SET finished_at = started_at WHERE id = ?", (sid,))

    def lessons_read(self) -> set[int]:
        """The numbers of the lessons read so far."""
        with self._errors():
            rows = self._db.execute("SELECT params FROM sessions WHERE kind = ?", (LESSON,)).fetchall()
        params = (_load(r[0]) for r in rows)
        return {p["lesson"] for p in params if isinstance(p, dict) and isinstance(p.get("lesson"), int)}

    # -- daily game

    def daily_attempt(self, day: str | date, official: bool) -> DailyAttempt | None:
        """The official attempt of ``day``, or its latest practice attempt; None if there is none."""
        with self._errors():
            row = self._latest_attempt(self._db, _day(day), official=official)
        return None if row is None else _attempt(row)

    def get_daily(self, attempt_id: int) -> DailyAttempt:
        with self._errors():
            row = self._db.execute("SELECT * FROM daily_attempts WHERE id = ?", (attempt_id,)).fetchone()
        if row is None:
            raise StoreError(f"there is no daily attempt {attempt_id}")
        return _attempt(row)

    def add_daily_attempt(self, day: str | date, *, official: bool, rules: str) -> DailyAttempt | None:
        """Insert a new attempt at ``day``'s game, atomically; None if ``official`` and the date has one.

        Which attempt may be official is the caller's rule; the store only guarantees a date
        never gets two. A practice attempt gets its own ``"daily-practice"`` training session.
        """
        when = _day(day)
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
            else self._insert_session(db, DAILY_PRACTICE, rules, None, None, {"date": when.isoformat()})
        )
        now = _stamp(self.now())
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
            self._write_attempt(
                db, attempt_id, version, "holder = ?, held_until = ?", (holder, _stamp(until))
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
        hold = None if held_until is None else _stamp(held_until)
        with self._transaction() as db:
            return self._write_attempt(
                db,
                attempt_id,
                version,
                "state = ?, held_until = coalesce(?, held_until)",
                (_dump(state), hold),
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
        now = _stamp(self.now())
        with self._transaction() as db:
            self._write_attempt(
                db,
                attempt_id,
                version,
                """score = ?, perfect_score = ?, marks = ?, turns = ?, finished_at = ?,
                   holder = NULL, held_until = NULL""",
                (score, perfect_score, marks, _dump(turns), now),
            )
            self._finish_session(db, attempt_id, now)

    def close_damaged(self, attempt_id: int, *, reason: str, version: int) -> None:
        """Close an attempt whose saved game cannot be played on; its stored text is kept as it is."""
        now = _stamp(self.now())
        with self._transaction() as db:
            self._write_attempt(
                db,
                attempt_id,
                version,
                "damage = ?, finished_at = ?, holder = NULL, held_until = NULL",
                (reason, now),
            )
            self._finish_session(db, attempt_id, now)

    def unfinished_official(self, before: str | date) -> list[DailyAttempt]:
        """Unfinished official attempts of dates before ``before``, oldest first."""
        with self._errors():
            rows = self._db.execute(
                """SELECT * FROM daily_attempts WHERE official = 1 AND finished_at IS NULL AND date < ?
                   ORDER BY date""",
                (_day(before).isoformat(),),
            ).fetchall()
        return [_attempt(r) for r in rows]

    def _write_attempt(
        self, db: sqlite3.Connection, attempt_id: int, version: int, sets: str, args: tuple[Any, ...]
    ) -> int:
        """Update an unfinished attempt still at ``version``; returns its new version."""
        return self._write_versioned(db, _ATTEMPTS, attempt_id, version, sets, args)

    def _write_versioned(
        self,
        db: sqlite3.Connection,
        kind: _Versioned,
        row_id: int,
        version: int,
        sets: str,
        args: tuple[Any, ...],
    ) -> int:
        """Compare and set: update an unfinished row still at ``version``; returns its new version.

        A row another process has moved on raises :class:`StaleAttemptError`, so two
        terminals on one game never write over each other.
        """
        cursor = db.execute(
            f"""UPDATE {kind.table} SET {sets}, version = version + 1, updated_at = ?
                WHERE id = ? AND version = ? AND finished_at IS NULL""",
            (*args, _stamp(self.now()), row_id, version),
        )
        if cursor.rowcount == 0:
            row = db.execute(f"SELECT version FROM {kind.table} WHERE id = ?", (row_id,)).fetchone()
            if row is None:
                raise StoreError(f"there is no {kind.missing} {row_id}")
            if row["version"] != version:
                raise StaleAttemptError(kind.stale, row_id)
            raise StoreError(kind.finished.format(row_id))
        return version + 1

    def _finish_session(self, db: sqlite3.Connection, attempt_id: int, now: str) -> None:
        db.execute(
            """UPDATE sessions SET finished_at = ? WHERE finished_at IS NULL
               AND id = (SELECT session_id FROM daily_attempts WHERE id = ?)""",
            (now, attempt_id),
        )

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

    # -- reading rows for summaries

    def progress_rows(self, *, rules: str | None, recent: int, sessions: int, now: datetime) -> ProgressRows:
        """Training totals in one read: per topic (accuracy over its last ``recent`` answers), per
        session (the last ``sessions`` with decisions), practice games, and items due at ``now``.

        ``rules`` keeps only training on that rule set (by name); the count due covers every rule set.
        """
        only = (rules, rules)
        with self._transaction(write=False) as db:
            totals = db.execute(
                """SELECT count(*), coalesce(sum(a.correct), 0),
                          count(CASE WHEN a.unit = 'points' THEN a.points_lost END),
                          avg(CASE WHEN a.unit = 'points' THEN a.points_lost END),
                          count(DISTINCT a.session_id)
                   FROM answers a JOIN sessions s ON s.id = a.session_id
                   WHERE ? IS NULL OR s.rules = ?""",
                only,
            ).fetchone()
            topic_rows = db.execute(
                """SELECT s.kind, a.topic, count(*) AS answers, sum(a.correct) AS correct,
                          count(a.points_lost) AS decisions, avg(a.points_lost) AS lost,
                          max(CASE WHEN a.points_lost IS NOT NULL THEN a.unit END) AS unit,
                          max(a.answered_at) AS last_answered
                   FROM answers a JOIN sessions s ON s.id = a.session_id
                   WHERE ? IS NULL OR s.rules = ?
                   GROUP BY s.kind, a.topic""",
                only,
            ).fetchall()
            recent_accuracy = {
                (r[0], r[1]): r[2]
                for r in db.execute(
                    """SELECT kind, topic, avg(correct) FROM (
                           SELECT s.kind, a.topic, a.correct,
                                  row_number() OVER (PARTITION BY s.kind, a.topic ORDER BY a.id DESC) AS n
                           FROM answers a JOIN sessions s ON s.id = a.session_id
                           WHERE ? IS NULL OR s.rules = ?)
                       WHERE n <= ? GROUP BY kind, topic""",
                    (*only, recent),
                )
            }
            session_rows = db.execute(
                """SELECT s.id, s.kind, s.started_at, count(a.points_lost), avg(a.points_lost)
                   FROM sessions s JOIN answers a ON a.session_id = s.id
                   WHERE a.points_lost IS NOT NULL AND a.unit = 'points' AND (? IS NULL OR s.rules = ?)
                   GROUP BY s.id ORDER BY s.id DESC LIMIT ?""",
                (*only, sessions),
            ).fetchall()
            practice_games = db.execute(
                """SELECT count(*) FROM daily_attempts
                   WHERE official = 0 AND finished_at IS NOT NULL AND damage IS NULL
                         AND (? IS NULL OR rules = ?)""",
                only,
            ).fetchone()[0]
            due = db.execute("SELECT count(*) FROM items WHERE due_at <= ?", (_stamp(now),)).fetchone()[0]
        return ProgressRows(
            answers=totals[0],
            correct=totals[1],
            sessions_count=totals[4],
            decisions=totals[2],
            average_points_lost=totals[3],
            practice_games=practice_games,
            due_for_review=due,
            topics=tuple(
                TopicProgress(
                    kind=r["kind"],
                    topic=r["topic"],
                    answers=r["answers"],
                    correct=r["correct"],
                    recent_accuracy=recent_accuracy[(r["kind"], r["topic"])],
                    decisions=r["decisions"],
                    average_points_lost=r["lost"],
                    last_answered=_parse_time(r["last_answered"]),
                    loss_unit=r["unit"] or "points",
                )
                for r in topic_rows
            ),
            sessions=tuple(
                SessionLoss(
                    session_id=r[0],
                    kind=r[1],
                    started_at=_parse_time(r[2]),
                    decisions=r[3],
                    average_points_lost=r[4],
                )
                for r in reversed(session_rows)
            ),
        )

    def official_results(self) -> list[DailyResult]:
        """Every finished official daily attempt, in date order."""
        with self._errors():
            rows = self._db.execute(
                """SELECT date, score, perfect_score, marks, state FROM daily_attempts
                   WHERE official = 1 AND finished_at IS NOT NULL AND damage IS NULL AND score IS NOT NULL
                   ORDER BY date"""
            ).fetchall()
        return [_result(r) for r in rows]

    def answer_rows(self) -> list[AnswerRow]:
        """Every training answer with its session, oldest first."""
        with self._errors():
            rows = self._db.execute(
                """SELECT a.answered_at, s.kind, a.session_id, s.rules, a.topic, a.item, a.question,
                          a.answer, a.correct_answer, a.correct, a.grade, a.points_lost, a.unit, a.extra
                   FROM answers a JOIN sessions s ON s.id = a.session_id ORDER BY a.id"""
            ).fetchall()
        return [
            AnswerRow(
                time=r[0],
                kind=r[1],
                session=r[2],
                rules=r[3],
                topic=r[4],
                item=r[5],
                question=r[6],
                answer=r[7],
                correct_answer=r[8],
                correct=bool(r[9]),
                grade=r[10],
                points_lost=r[11],
                unit=r[12],
                extra=r[13],
            )
            for r in rows
        ]

    # -- whole games

    def add_game(
        self, state: dict[str, Any], *, kind: str, level: str | None, rated: bool, rules: str
    ) -> GameRow:
        """A new game, saved before its first roll; a training game gets its own session."""
        now = _stamp(self.now())
        with self._transaction() as db:
            session_id = self._insert_session(db, GAME_SESSION, rules, None, None, {"kind": kind})
            cursor = db.execute(
                """INSERT INTO games (kind, level, rated, session_id, started_at, updated_at, state)
                   VALUES (?, ?, ?, ?, ?, ?, ?)""",
                (kind, level, int(rated), session_id, now, now, _dump(state)),
            )
            return _game(db.execute("SELECT * FROM games WHERE id = ?", (cursor.lastrowid,)).fetchone())

    def get_game(self, game_id: int) -> GameRow:
        with self._errors():
            row = self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"there is no saved game {game_id}")
        return _game(row)

    def games(self) -> list[GameRow]:
        """Every saved game, newest first."""
        with self._errors():
            rows = self._db.execute("SELECT * FROM games ORDER BY id DESC").fetchall()
        return [_game(r) for r in rows]

    def unfinished_game(self) -> GameRow | None:
        """The latest game not yet over, if any."""
        with self._errors():
            row = self._db.execute(
                "SELECT * FROM games WHERE finished_at IS NULL ORDER BY id DESC LIMIT 1"
            ).fetchone()
        return None if row is None else _game(row)

    def save_game(self, game_id: int, state: dict[str, Any], *, version: int, rated: bool) -> int:
        """Keep a game's state after an action, if the game is still at ``version`` (else
        :class:`StaleAttemptError`); returns the new version. A game stops being rated when a
        hint is asked, never the other way; a game that was rated and is no longer gets a
        training session then, so its decisions can become answers."""
        with self._transaction() as db:
            new = self._write_game(db, game_id, version, "state = ?", (_dump(state),))
            if not rated:
                row = db.execute(
                    "SELECT rated, session_id, kind FROM games WHERE id = ?", (game_id,)
                ).fetchone()
                if row["rated"]:
                    session_id = self._insert_session(db, GAME_SESSION, "", None, None, {"kind": row["kind"]})
                    db.execute(
                        "UPDATE games SET rated = 0, session_id = ? WHERE id = ?", (session_id, game_id)
                    )
            return new

    def finish_game(
        self, game_id: int, state: dict[str, Any], *, outcome: str, score: int, version: int
    ) -> None:
        """A game over (or resigned): its last state and outcome; a training game's session ends."""
        now = _stamp(self.now())
        with self._transaction() as db:
            self._write_game(
                db,
                game_id,
                version,
                "state = ?, outcome = ?, score = ?, finished_at = ?",
                (_dump(state), outcome, score, now),
            )
            db.execute(
                """UPDATE sessions SET finished_at = ? WHERE finished_at IS NULL
                   AND id = (SELECT session_id FROM games WHERE id = ?)""",
                (now, game_id),
            )

    def _write_game(
        self, db: sqlite3.Connection, game_id: int, version: int, sets: str, args: tuple[Any, ...]
    ) -> int:
        return self._write_versioned(db, _GAMES, game_id, version, sets, args)

    def rated_games(self) -> list[GameRow]:
        """Every finished rated game, oldest first."""
        with self._errors():
            rows = self._db.execute(
                "SELECT * FROM games WHERE rated = 1 AND finished_at IS NOT NULL ORDER BY id"
            ).fetchall()
        return [_game(r) for r in rows]

    # -- reset

    def reset(self, kind: str) -> int:
        """Delete all training progress, or all official results; the other kind is untouched.

        Returns how many answers (progress) or official attempts (stats) were deleted.
        """
        if kind not in RESET_KINDS:
            raise StoreError(f"cannot reset {kind!r}: choose progress or stats")
        with self._transaction() as db:
            if kind == "progress":
                count = db.execute("SELECT count(*) FROM answers").fetchone()[0]
                # Answers and practice daily attempts go with their sessions.
                db.execute("DELETE FROM sessions")
                db.execute("DELETE FROM items")
            else:
                count = db.execute("SELECT count(*) FROM daily_attempts WHERE official = 1").fetchone()[0]
                count += db.execute("SELECT count(*) FROM games WHERE rated = 1").fetchone()[0]
                db.execute("DELETE FROM daily_attempts WHERE official = 1")
                db.execute("DELETE FROM games WHERE rated = 1")
        return count
