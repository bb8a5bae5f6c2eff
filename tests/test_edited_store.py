"""A store edited by hand, outside the program: every command goes on, or says in one line what is
wrong and how to go on; nothing it does not understand ends in a traceback or a hang."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from typer.testing import CliRunner

from farkle_trainer.cli import app
from farkle_trainer.store.db import Store
from farkle_trainer.store.paths import FILE_NAME

runner = CliRunner()


def run(args: list[str], lines: list[str] = []) -> tuple[int, str]:  # noqa: B006 - never changed
    """A command's exit code and output; it must end as a command ends, never by an exception."""
    result = runner.invoke(app, args, input="".join(line + "\n" for line in lines))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


@pytest.fixture
def sql(farkle_home: Path) -> Iterator[sqlite3.Connection]:
    """The store as anyone can edit it, outside the program."""
    Store.open(farkle_home).close()
    with closing(sqlite3.connect(farkle_home / FILE_NAME, isolation_level=None)) as db:
        yield db


# -- the review schedule's cards


def test_a_card_whose_note_is_json_but_no_object_asks_nothing_and_the_rest_go_on(
    sql: sqlite3.Connection,
) -> None:
    # A quiz question missed and a drill played fine leave cards that come back; an edit makes
    # what asks them again a JSON list.
    assert run(["score", "--topic", "worth", "--seed", "7", "--count", "1", "--plain"], ["0"])[0] == 0
    assert run(["decide", "--kind", "bank-or-roll", "--seed", "3", "--count", "1", "--plain"], ["r"])[0] == 0
    sql.execute("UPDATE items SET extra = '[1, 2]', due_at = '2000-01-01T00:00:00+00:00'")
    with Store.open() as store:
        assert [item.extra for item in store.due_items("score")] == [None]
        assert [item.extra for item in store.due_items("decide")] == [None]
    code, out = run(["score", "--topic", "worth", "--count", "1", "--plain"], ["q"])
    assert code == 0 and "1/1 What are" in out
    code, out = run(["decide", "--kind", "bank-or-roll", "--count", "1", "--plain"], ["q"])
    assert code == 0 and "Decision 1 of 1: bank or roll" in out
