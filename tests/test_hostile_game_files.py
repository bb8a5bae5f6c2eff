"""A game file is anyone's to edit: ``review FILE`` plays it again and answers any change to it,
of a number, a rule, a move or the kind of a value, with one ``Error:`` line or a clean replay."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples
from typer.testing import CliRunner

from farkle_trainer.cli import app
from farkle_trainer.engine.tables import Tables
from farkle_trainer.training.games.dice import Seeded
from farkle_trainer.training.games.gamefile import game_document
from farkle_trainer.training.games.setup import Form, Level, Player, dealt, new_setup
from tests.plays import greedy_script

runner = CliRunner()
SOLVING = ("Solving the game for these rules once", "... ")
#: A place in a JSON document: the keys and indexes that lead to it.
Where = tuple[str | int, ...]

#: The scripts below are played as the module loads, before the run's tables are in place: in
#: tables held in memory alone.
SCRIPTED = Tables()
YOU, EASY, MEDIUM = Player("You"), Player("Easy", Level.EASY), Player("Medium", Level.MEDIUM)
_, AGAINST_MEDIUM = greedy_script(SCRIPTED, new_setup((YOU, MEDIUM), target=1000, dice=Seeded("3")))
_, SOLO = greedy_script(SCRIPTED, new_setup((YOU,), form=Form.TEN_TURNS, dice=Seeded("5")))
_, THREE = greedy_script(
    SCRIPTED, new_setup((YOU, EASY, Player("Easy 2", Level.EASY)), target=1000, dice=Seeded("8"))
)
#: Games whose files are changed below: one against a computer that plays by the solver, one solo,
#: one of three players, and one whose dice were drawn as they were rolled (a rated game's file
#: keeps its rolls, and no seed).
GAMES = {
    "against-medium": game_document(AGAINST_MEDIUM),
    "solo": game_document(SOLO),
    "three": game_document(THREE),
    "drawn": game_document(replace(AGAINST_MEDIUM, setup=dealt(AGAINST_MEDIUM.setup))),
}
#: Where changes are made: anywhere, or (as often) in the setup and the moves, and most often the rules.
PARTS: list[Where] = [(), ("setup",), ("setup", "rules"), ("setup", "rules"), ("moves",)]


def paths(node: Any, prefix: Where = ()) -> Iterator[Where]:
    """Every place in a JSON document: the document itself, and each value inside it."""
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from paths(value, (*prefix, i))


def numbers() -> st.SearchStrategy[Any]:
    """Numbers as they might be written in: near the bounds, off the steps of 50, far too large."""
    return st.one_of(
        st.integers(min_value=-3, max_value=10_050),
        st.integers(min_value=-20, max_value=400).map(lambda n: 50 * n + 25),
        st.integers(min_value=4, max_value=400).map(lambda n: 10**n),
        st.integers(),
        st.sampled_from([49, 20_050, 2**63, -50, 1.5, 100.0, float("inf"), float("nan")]),
    )


WORDS = ["bank", "roll", "farkle", "fixed", "multiply", "easy", "hard", "match", "ten-turns", "2026-02-30"]
SCALARS = st.one_of(numbers(), st.none(), st.booleans(), st.text(max_size=12), st.sampled_from(WORDS))
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=7) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
)


@st.composite
def changed(draw: st.DrawFn) -> Any:
    """A game document with one to three changes: a value replaced (by a number most often),
    a value taken out, or a list grown by one."""
    document: Any = json.loads(json.dumps(GAMES[draw(st.sampled_from(sorted(GAMES)))]))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        part = draw(st.sampled_from(PARTS))
        inside = [where for where in paths(document) if where[: len(part)] == part]
        where = draw(st.sampled_from(inside or [()]))
        change = draw(st.sampled_from(["number", "number", "value", "delete", "grow"]))
        if not where:
            document = draw(VALUES)
            continue
        parent: Any = document
        for step in where[:-1]:
            parent = parent[step]
        last = where[-1]
        if change == "delete":
            del parent[last]
        elif change == "grow" and isinstance(parent[last], list):
            parent[last].append(draw(VALUES))
        else:
            parent[last] = draw(numbers() if change == "number" else VALUES)
    return document


# Many kinds of change, each drawn at any place in the file: more examples than most (120 in ci).
@settings(max_examples=examples(2.4), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document=changed())
def test_a_changed_game_file_is_one_error_line_or_a_clean_replay(tmp_path: Path, document: Any) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document))
    result = runner.invoke(app, ["review", str(path), "--plain"])
    # Changed rules or a changed target can need their game solved first, which is said on
    # standard error before anything else (see farkle_trainer.ui.progress).
    out = "".join(line for line in result.output.splitlines(keepends=True) if not line.startswith(SOLVING))
    # Anything but the command's own exit is a traceback.
    assert result.exception is None or isinstance(result.exception, SystemExit), out
    assert result.exit_code in (0, 2), out
    assert "\x1b" not in out
    if result.exit_code == 2:
        assert out.startswith("Error: ") and len(out.splitlines()) == 1, out
    else:
        assert out.startswith(f"Game from {path} (every move checked on its dice)"), out


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_changed_above_replays_as_it_is(tmp_path: Path, name: str) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(GAMES[name]))
    result = runner.invoke(app, ["review", str(path), "--plain"])
    assert result.exit_code == 0, result.output


def test_a_roll_of_more_dice_than_a_roll_throws_is_named_and_never_quoted_whole(tmp_path: Path) -> None:
    document = json.loads(json.dumps(GAMES["drawn"]))
    document["moves"][0]["roll"] = [1] * 10_000
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document))
    result = runner.invoke(app, ["review", str(path), "--plain"])
    assert result.exit_code == 2
    assert (
        result.output == f"Error: {path}: move 1: the roll has 10,000 dice, where a roll throws at most 6\n"
    )
