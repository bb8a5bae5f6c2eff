"""Bad input anywhere gives one clear line, never a traceback and never a hang."""

from __future__ import annotations

import os
import string
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from farkle_trainer.cli import app
from farkle_trainer.engine.rules import MAX_RULE_POINTS, RulesError
from farkle_trainer.store.rules import MAX_RULE_FILE, load_rules

runner = CliRunner()
EXIT_CODES = {0, 1, 2, 130}


# -- 14. rule files


def write(tmp_path: Path, text: str, name: str = "house.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x = " + "[" * 5000 + "]" * 5000, "nested too deeply"),
        ("x = " + "{a=" * 3000 + "1" + "}" * 3000, "nested too deeply"),
        ("[singles]\none = " + "[" * 3000 + "]" * 3000, "nested too deeply"),
        ("# " + "x" * MAX_RULE_FILE, "too large"),
        (f"[singles]\none = {MAX_RULE_POINTS + 50}", "between 50 and 10,000"),
        ('[of_a_kind]\nmode = "multiply"\nsix = 11', "1 to 10"),
    ],
)
def test_rule_files_that_are_not_rule_files(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        load_rules(write(tmp_path, text))


def test_only_regular_files_are_read(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="not a regular file"):
        load_rules("/dev/zero")
    with pytest.raises(RulesError, match="not a regular file"):
        load_rules(tmp_path)
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "rules.toml"
        os.mkfifo(fifo)
        result = runner.invoke(app, ["strategy", "--rules", str(fifo), "--plain"])
        assert result.exit_code == 2 and "not a regular file" in result.stderr


def test_every_value_at_its_maximum_solves_in_seconds(tmp_path: Path) -> None:
    top = MAX_RULE_POINTS
    faces = "\n".join(f"{w} = {top}" for w in ("one", "two", "three", "four", "five", "six"))
    combos = "\n".join(
        f"{k} = {top}"
        for k in (
            "straight",
            "three_pairs",
            "four_of_a_kind_and_pair",
            "two_triplets",
            "partial_straight_low",
            "partial_straight_high",
        )
    )
    path = write(
        tmp_path,
        f"[singles]\none = {top}\nfive = {top}\n[three_of_a_kind]\n{faces}\n"
        f'[of_a_kind]\nmode = "multiply"\nfour = 10\nfive = 10\nsix = 10\n[combinations]\n{combos}\n'
        f"[house]\nopening_minimum = {top}\nthree_farkle_penalty = {top}\ntarget = {top}\n",
    )
    started = time.process_time()
    result = runner.invoke(app, ["strategy", "--rules", str(path), "--plain"])
    assert result.exit_code == 0, result.output
    assert time.process_time() - started < 15


# -- 15. random input at every prompt, and random numbers for every bounded option

TEXT = st.text(
    alphabet=st.sampled_from(string.printable + "\x00\x01\x04\x1b\x7f\u00e9\ufffd€ab rbqu"), max_size=12
)
RAW = st.binary(max_size=16).filter(lambda b: b"\n" not in b)


def lines() -> st.SearchStrategy[bytes]:
    line = st.one_of(TEXT.map(lambda t: t.replace("\n", " ").encode("utf-8", "surrogatepass")), RAW)
    return st.lists(line, max_size=6).map(lambda ls: b"".join(x + b"\n" for x in ls))


COMMANDS = [
    ["score", "--plain", "--seed", "3", "--count", "2"],
    ["decide", "--plain", "--seed", "3", "--count", "2"],
    ["daily", "--plain", "--date", "2026-11-01"],
    ["challenge", "MATH7B", "--plain"],
]


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=st.sampled_from(COMMANDS), stdin=lines())
def test_random_answers_never_crash(command: list[str], stdin: bytes) -> None:
    result = runner.invoke(app, command, input=stdin)
    assert result.exit_code in EXIT_CODES, (result.output, result.exception)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)


NUMBER = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.text(alphabet="0123456789,_ -e.", max_size=25),
)


@given(
    option=st.sampled_from(
        [
            ["hint", "1", "5", "2", "--plain", "--points"],
            ["hint", "1", "5", "2", "--plain", "--points", "0", "--need"],
            ["hint", "1", "5", "2", "--plain", "--points", "0", "--opening"],
            ["strategy", "--plain", "--opening"],
            ["score", "--plain", "--count", "1", "--seed"],
            ["decide", "--plain", "--count", "1", "--seed"],
            ["score", "--plain", "--seed", "1", "--count"],
        ]
    ),
    value=NUMBER,
)
def test_random_numbers_are_bounded(option: list[str], value: str) -> None:
    result = runner.invoke(app, [*option, value], input="")
    assert result.exit_code in EXIT_CODES, (result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    if result.exit_code == 2:
        assert result.stderr.startswith("Error: ")
