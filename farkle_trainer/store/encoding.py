"""How values are kept in the store's columns: times as UTC text, JSON, dates."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, date, datetime
from typing import Any

from farkle_trainer.store.errors import StoreError


def columns(row: sqlite3.Row, *names: str) -> dict[str, Any]:
    """The columns ``names`` of ``row`` as stored, for the fields of a row value with those names."""
    return {name: row[name] for name in names}


def stamp(moment: datetime) -> str:
    """Times are stored as UTC ISO 8601 to the second, so text order is time order."""
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def parse_time(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
        # Read in UTC, as it is written: an offset an edit gave can put it past the years
        # there are (9999-12-31T23:00-05:00), which no reckoning with it could then survive.
        return moment.astimezone(UTC) if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    except (TypeError, ValueError, OverflowError):
        # Only an edited file holds one: say so once, rather than fail somewhere deep inside.
        raise StoreError(
            f"the store holds a time that is not one ({str(text)[:40]!r}): the file was edited; "
            "farkle-train reset progress or reset stats starts that part again"
        ) from None


def maybe_time(text: str | None) -> datetime | None:
    return None if text is None else parse_time(text)


#: What a stored time reads as where an edit has made it no time: long past, so the row it is in
#: still reads (a card is due, a hold is over) and nothing of it is lost.
LONG_AGO = datetime(1970, 1, 1, tzinfo=UTC)


def time_or_long_ago(text: str) -> datetime:
    """A stored time; :data:`LONG_AGO` for text an edit made no time."""
    try:
        return parse_time(text)
    except StoreError:
        return LONG_AGO


def maybe_time_or_long_ago(text: str | None) -> datetime | None:
    """A stored time that may be missing (None); :data:`LONG_AGO` for text an edit made no time."""
    return None if text is None else time_or_long_ago(text)


def dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def load(text: str | None) -> Any:
    """Stored JSON as data; text that is not JSON (a damaged value) reads as None."""
    value, _ = load_checked(text)
    return value


def load_checked(text: str | None) -> tuple[Any, bool]:
    """(the value, whether the text was damaged): damaged text reads as None and is reported."""
    if text is None:
        return None, False
    try:
        return json.loads(text), False
    except (ValueError, TypeError, RecursionError):
        return None, True


def parse_day(value: str | date) -> date:
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise StoreError(f"{value!r} is not a date (YYYY-MM-DD)") from None
