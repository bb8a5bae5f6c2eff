"""Every option and argument of every command, given hostile values: one clear line, never a traceback.

The commands, their options and arguments are read from the Typer app itself, so an option
added tomorrow is covered here without a new test.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import typer.main
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples
from typer.testing import CliRunner

from farkle_trainer.cli import app

runner = CliRunner()
EXIT_CODES = {0, 1, 2, 130}
#: Seconds any one command may take: far more than a small game needs, far less than a hang.
PATIENCE = 60
#: A rule table whose games go to 1,000, so a command that solves a game here does it in a moment.
SMALL_GAME = "[house]\ntarget = 1000\n"

HOSTILE = [
    "9" * 5000,  # more digits than Python reads by default
    "-" + "9" * 30,
    "99999999999999999999999",
    "²",  # digits that are not 0 to 9
    "٣",
    "\uff11\uff10",  # fullwidth 1 0
    "-1",
    "0",
    "",
    " ",
    "\udcff",  # a byte that is not UTF-8, as the command line hands it over
    "x\udc80y",
    "x" * 5000,
    "1e3",
    "1,000,000",
    "nan",
    "\x1b[31m",
]
#: Values a command can take, so a generated command gets past its first option.
PLAUSIBLE = ["1", "50", "1000", "classic", "a", "x.json", "x.csv"]


def leaf_commands() -> Iterator[tuple[list[str], Any]]:
    def walk(command: Any, path: list[str]) -> Iterator[tuple[list[str], Any]]:
        subcommands = getattr(command, "commands", None)
        if not subcommands:
            yield path, command
            return
        for name in list(subcommands):
            yield from walk(subcommands[name], [*path, name])

    yield from walk(typer.main.get_command(app), [])


COMMANDS = {" ".join(path): command for path, command in leaf_commands()}


@st.composite
def command_line(draw: st.DrawFn, command: Any) -> list[str]:
    """Arguments for ``command``: one of its options or arguments with a hostile value, some others
    with plausible ones; arguments go after ``--``, so a value like ``-1`` is not read as an option."""
    hostile = draw(st.sampled_from(command.params))

    def given(param: Any) -> str:
        return draw(st.sampled_from(HOSTILE if param is hostile else PLAUSIBLE))

    options: list[str] = []
    arguments: list[str] = []
    for param in command.params:
        if param.param_type_name == "argument":
            if param.required or param is hostile or draw(st.booleans()):
                count = 1 if param.nargs == 1 else draw(st.integers(1, 3))
                arguments += [given(param) for _ in range(count)]
        elif param is hostile or draw(st.integers(0, 3)) == 0:
            options.append(draw(st.sampled_from(param.opts)))
            if not param.is_flag:
                options.append(given(param))
    return [*options, "--", *arguments] if arguments else options


def fixed_options(command: Any, given: list[str], home: Path) -> list[str]:
    """Plain text, a data directory and a small game, unless the generated line sets them."""
    names = {opt for param in command.params for opt in param.opts}
    extra = []
    if "--plain" in names and "--plain" not in given:
        extra.append("--plain")
    if "--data-dir" in names and "--data-dir" not in given:
        extra += ["--data-dir", str(home)]
    if "--rules" in names and "--rules" not in given and "-r" not in given:
        extra += ["--rules", "small.toml"]
    return extra


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Files named on the command line are made in a folder of the test's own."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "small.toml").write_text(SMALL_GAME)
    yield tmp_path


@contextmanager
def patience() -> Iterator[None]:
    """A command that hangs is stopped after PATIENCE seconds, and fails the test."""
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def hung(signum: int, frame: Any) -> None:
        raise TimeoutError(f"the command ran for more than {PATIENCE} seconds")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(PATIENCE)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("name", sorted(COMMANDS))
# Each example runs a whole command: an eighth of the profile's examples (6 in the ci profile).
@settings(max_examples=examples(1 / 8), suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_any_option_value_is_one_line_or_works(name: str, data: st.DataObject, workdir: Path) -> None:
    command = COMMANDS[name]
    generated = data.draw(command_line(command), label="arguments")
    args = [*name.split(), *fixed_options(command, generated, workdir / "home"), *generated]
    with patience():
        result = runner.invoke(app, args, input="q\n")
    shown = (args, result.output[-2000:], repr(result.exception))
    assert result.exception is None or isinstance(result.exception, SystemExit), shown
    assert result.exit_code in EXIT_CODES, shown
    assert "Traceback" not in result.output, shown
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error")]
    if result.exit_code == 2:
        assert len(errors) == 1, shown
    else:
        assert len(errors) <= 1, shown
    assert all(len(line) < 500 for line in errors), shown


def test_the_walk_reaches_every_command_and_subcommand() -> None:
    from farkle_trainer.cli.app import COMMANDS as LISTED

    assert {name.split()[0] for name in COMMANDS} == set(LISTED)
    assert {"class report", "class code"} <= set(COMMANDS)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["learn", "9" * 5000], "Error: no lesson '999"),
        (["learn", "²"], "Error: no lesson '²'"),
        (["review", "9" * 5000], "Error: GAME is a saved game's number, a daily game's d-number or date"),
        (
            ["review", "²"],
            "Error: GAME is a saved game's number, a daily game's d-number or date, or a FILE.json",
        ),
        (["hint", "1", "5", "--points", "٣٥٠"], "Error: --points takes a whole number of points"),
        (["play", "--target", "²⁰⁰⁰"], "Error: --target must be a multiple of 50 from 1,000 to 20,000"),
        (["decide", "--count", "9" * 5000], "Error: Invalid value for '--count' / '-n': the number is far"),
    ],
)
def test_numbers_beyond_reading_are_refused_in_one_line(args: list[str], said: str) -> None:
    result = runner.invoke(app, [*args, "--plain"], input="")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(said)
    assert len(result.stderr.splitlines()[0]) < 500


def test_a_flood_quoted_back_is_cut_in_its_middle(workdir: Path) -> None:
    result = runner.invoke(app, ["stats", "--plain", "--data-dir", "d" * 5000])
    line = result.stderr.splitlines()[0]
    assert result.exit_code == 2 and len(line) < 200
    assert f" {'d' * 60}…{'d' * 19}: File name too long" in line


def test_a_value_that_was_not_utf8_is_quoted_back_escaped() -> None:
    result = runner.invoke(app, ["challenge", "MATH7B", "--rules", "x\udcffy", "--plain"], input="q\n")
    assert result.exit_code == 0, repr(result.exception)
    assert result.stdout.startswith("Note: --rules x\\udcffy is not used")
