"""Games the solver cannot settle are refused before any solve, by every command in the same
words; rules are bounded however they are made; and an opening few turns reach still settles."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from farkle_trainer.cli import app
from farkle_trainer.engine import game as gs
from farkle_trainer.engine.game import solve as solver_solve
from farkle_trainer.engine.gameplan import opening_error
from farkle_trainer.engine.rules import MAX_OPENING, PRESETS, Rules, RulesError
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.tables import cache_dir, disk_tables

#: These tests are about what is solved and kept: each keeps its tables in its own directory.
pytestmark = [pytest.mark.own_table_cache, pytest.mark.usefixtures("compiled_once")]


@pytest.fixture
def tables() -> Tables:
    """A command's tables, kept in the test's own data directory."""
    return Tables(disk_tables())


CLASSIC = PRESETS["classic"]
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
runner = CliRunner()

GAME_COMMANDS = [
    ["hint", "1", "5", "--score", "0", "--opponent", "0"],
    ["strategy", "--game"],
    ["play", "--plain"],
]


@pytest.mark.parametrize("command", GAME_COMMANDS, ids=["hint", "strategy", "play"])
@pytest.mark.parametrize(
    ("target", "opening", "words"),
    [
        ("15000", "15000", "from 0 to 10,000, the highest a game is solved for, not 15,000"),
        ("20000", "20000", "from 0 to 10,000, the highest a game is solved for, not 20,000"),
        ("5000", "6000", "from 0 to the target of 5,000, not 6,000"),
    ],
)
def test_an_opening_out_of_reach_is_refused_at_once_in_the_same_words(
    command: list[str], target: str, opening: str, words: str
) -> None:
    start = time.perf_counter()
    result = runner.invoke(app, [*command, "--target", target, "--opening", opening], input="q\n")
    assert result.exit_code == 2
    assert result.stderr == f"Error: the opening minimum must be a multiple of 50 {words}\n"
    assert time.perf_counter() - start < 5
    assert not cache_dir().exists()


def test_the_limit_is_one_everywhere(tables: Tables) -> None:
    assert opening_error(MAX_OPENING, 20_000) is None
    assert opening_error(MAX_OPENING + 50, 20_000) is not None
    assert opening_error(2000, 2000) is None
    with pytest.raises(gs.GameSolverError, match="the highest a game is solved for"):
        tables.game(CLASSIC, 20_000, opening=15_000)
    with pytest.raises(RulesError, match="between 0 and 10,000"):
        CLASSIC.with_house_rules(opening_minimum=MAX_OPENING + 50)


#: Scores in fifties and hundreds: a turn reaches 3,000 about once in a hundred thousand.
WEAK = Rules(
    name="weak",
    single_one=50,
    single_five=50,
    triples=(100, 100, 100, 100, 100, 100),
    four_of_a_kind=150,
    five_of_a_kind=200,
    six_of_a_kind=250,
    straight=300,
    three_pairs=300,
    two_triplets=300,
)


def test_an_opening_turns_all_but_never_reach_still_settles(
    tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    # At 0-0 with both players unopened the turn's value moves with the Farkle value at a slope
    # within 1e-5 of one: solved for the value itself, Newton's step lost the last digits there.
    game = tables.setting(WEAK, 60, 60)
    w = np.full((60, 60), 0.5)
    assert solver_solve._solve_total(game, w, 0, tables.loop()) < solver_solve.MAX_PASSES
    assert 0.5 < w[0, 0] < 0.5001
    monkeypatch.setattr(solver_solve, "STEPWISE_AFTER", solver_solve.MAX_PASSES + 1)
    with pytest.raises(gs.GameSolverError, match="did not converge at total 0"):
        solver_solve._solve_total(game, np.full((60, 60), 0.5), 0, tables.loop())


# -- rules are bounded however they are made


@pytest.mark.parametrize(
    ("change", "key"),
    [
        ({"single_one": 1_000_000}, "singles.one"),
        ({"triples": (1000, 200, 300, 400, 500, 60_000)}, "three_of_a_kind.six"),
        ({"straight": 25}, "combinations.straight"),
        ({"opening_minimum": 12_000}, "house.opening_minimum"),
        ({"three_farkle_penalty": -500}, "house.three_farkle_penalty"),
        ({"of_a_kind": "triple"}, "of_a_kind.mode"),
        ({"target": 40_000}, "house.target"),
    ],
)
def test_rules_out_of_bounds_cannot_be_made(change: dict[str, object], key: str) -> None:
    with pytest.raises(RulesError) as caught:
        replace(CLASSIC, **change)
    assert caught.value.key == key
    with pytest.raises(RulesError):
        Rules(**{"name": "direct", **change})  # type: ignore[arg-type]


def test_a_game_file_with_rules_out_of_bounds_is_refused_before_any_solve(tmp_path: Path) -> None:
    data = json.loads((EXAMPLES / "hard-1000.json").read_text())
    data["setup"]["rules"]["single_one"] = 1_000_000
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(data))
    start = time.perf_counter()
    result = runner.invoke(app, ["review", str(path), "--plain"])
    assert result.exit_code == 2
    assert "singles.one: must be between 50 and 10,000, not 1,000,000" in result.stderr
    assert time.perf_counter() - start < 5
    assert not cache_dir().exists()


HUGE = """name = "huge"
[singles]
one = 10000
five = 10000
[three_of_a_kind]
one = 10000
[of_a_kind]
mode = "multiply"
four = 2
five = 3
six = 10
"""


def test_the_largest_values_a_rule_file_may_have_still_make_a_game(tmp_path: Path) -> None:
    # Six 1s are worth 100,000: a single roll can jump two thousand levels, further than the
    # final-turn tables reached before they were made to cover such jumps.
    path = tmp_path / "huge.toml"
    path.write_text(HUGE)
    args = ["strategy", "--game", "--rules", str(path), "--target", "1000", "--step", "500"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "first player" in result.stdout.lower()
