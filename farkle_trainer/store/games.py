"""Whole games (``play``) and class challenges: saved after every action, rated or training.

A rated game against the computer is an official result (no coach, no hint asked, no undo);
every other game is training, and its decisions become answers in the game's own session (a
class challenge's, in the challenge's session). A challenge is never carried on: one that
stops is kept as it stands, and never offered to resume.
A progress reset deletes that session and its answers but keeps the game. A game whose saved
state cannot be read is closed as damaged (outcome ``damaged``), its stored text kept as it is.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from farkle_trainer.store.encoding import (
    columns,
    dump,
    load_checked,
    maybe_time_or_long_ago,
    stamp,
    time_or_long_ago,
)
from farkle_trainer.store.progress import insert_session
from farkle_trainer.store.rows import GameRow
from farkle_trainer.store.versioned import Versioned, VersionedRows

#: The training session of a whole game (``play``).
GAME_SESSION = "game"
#: The outcome of a game closed because its saved state could not be read.
DAMAGED = "damaged"
#: The kind of a class challenge's game (a ten-turn solo game on a class code's dice).
CHALLENGE_GAME = "challenge"

GAMES = Versioned("games", "saved game", "game", "the game {} is already over")


#: What JSON calls each kind of value, as a stored state that is not an object is reported.
_JSON_KINDS: dict[type, str] = {list: "list", str: "string", int: "number", float: "number", bool: "boolean"}


def _state_error(state: Any, bad: bool) -> str | None:
    if bad:
        return "is not valid JSON"
    if isinstance(state, dict):
        return None
    kind = "null" if state is None else _JSON_KINDS.get(type(state), "value")
    return f"is a JSON {kind}, not an object"


def _game(r: sqlite3.Row) -> GameRow:
    state, bad = load_checked(r["state"])
    return GameRow(
        **columns(r, "id", "kind", "level", "session_id", "version", "outcome", "score"),
        rated=bool(r["rated"]),
        started_at=time_or_long_ago(r["started_at"]),
        updated_at=time_or_long_ago(r["updated_at"]),
        finished_at=maybe_time_or_long_ago(r["finished_at"]),
        state=state if not bad and isinstance(state, dict) else None,
        state_error=_state_error(state, bad),
    )


#: The outcome of a class challenge stopped before its end (it is never carried on).
STOPPED = "stopped"


class GameQueries(VersionedRows):
    """Saved games, the unfinished one to resume, and the rated ones for the records."""

    def add_game(
        self,
        state: dict[str, Any],
        *,
        kind: str,
        level: str | None,
        rated: bool,
        rules: str,
        session_id: int | None = None,
    ) -> GameRow:
        """A new game, saved before its first roll; a game gets a session of its own, unless it is
        played in one already (``session_id``: a class challenge's)."""
        now = stamp(self.now())
        with self._transaction() as db:
            if session_id is None:
                session_id = insert_session(
                    db, GAME_SESSION, rules, None, None, {"kind": kind}, at=self.now()
                )
            cursor = db.execute(
                """INSERT INTO games (kind, level, rated, session_id, started_at, updated_at, state)
                   VALUES (?, ?, ?, ?, ?, ?, ?)""",
                (kind, level, int(rated), session_id, now, now, dump(state)),
            )
            return _game(db.execute("SELECT * FROM games WHERE id = ?", (cursor.lastrowid,)).fetchone())

    def get_game(self, game_id: int) -> GameRow:
        return _game(self._versioned_row(GAMES, game_id))

    def games(self) -> list[GameRow]:
        """Every saved game, newest first."""
        with self._errors():
            rows = self._db.execute("SELECT * FROM games ORDER BY id DESC").fetchall()
        return [_game(r) for r in rows]

    def unfinished_game(self) -> GameRow | None:
        """The latest game not yet over that can be carried on, if any: never a class challenge."""
        with self._errors():
            row = self._db.execute(
                "SELECT * FROM games WHERE finished_at IS NULL AND kind != ? ORDER BY id DESC LIMIT 1",
                (CHALLENGE_GAME,),
            ).fetchone()
        return None if row is None else _game(row)

    def save_game(self, game_id: int, state: dict[str, Any], *, version: int, rated: bool) -> int:
        """Keep a game's state after an action, if the game is still at ``version`` (else
        :class:`StaleAttemptError`); returns the new version. A game stops being rated when a
        hint is asked, never the other way; a game that was rated and is no longer gets a
        training session then, so its decisions can become answers."""
        with self._transaction() as db:
            new = self._write_versioned(db, GAMES, game_id, version, "state = ?", (dump(state),))
            if not rated:
                row = db.execute(
                    "SELECT rated, session_id, kind FROM games WHERE id = ?", (game_id,)
                ).fetchone()
                if row["rated"]:
                    session_id = insert_session(
                        db, GAME_SESSION, "", None, None, {"kind": row["kind"]}, at=self.now()
                    )
                    db.execute(
                        "UPDATE games SET rated = 0, session_id = ? WHERE id = ?", (session_id, game_id)
                    )
            return new

    def finish_game(
        self, game_id: int, state: dict[str, Any], *, outcome: str, score: int, version: int
    ) -> None:
        """A game over (or resigned): its last state and outcome; a training game's session ends."""
        self._finish_versioned(
            GAMES, game_id, version, "state = ?, outcome = ?, score = ?", (dump(state), outcome, score)
        )

    def close_damaged_game(self, game_id: int, *, version: int) -> None:
        """Close a game whose saved state cannot be played on; its stored text is kept as it is."""
        self._finish_versioned(GAMES, game_id, version, "outcome = ?", (DAMAGED,))

    def rated_games(self) -> list[GameRow]:
        """Every finished rated game, oldest first."""
        with self._errors():
            rows = self._db.execute(
                "SELECT * FROM games WHERE rated = 1 AND finished_at IS NOT NULL ORDER BY id"
            ).fetchall()
        return [_game(r) for r in rows]
