"""Command-line values read without pydantic, and commands loaded only when they run."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer.core
import typer.main
from hypothesis import given
from hypothesis import strategies as st
from typer._click.exceptions import BadParameter
from typer.testing import CliRunner

from farkle_trainer.cli import app
from farkle_trainer.cli.app import COMMANDS
from farkle_trainer.cli.params import PlainValue

runner = CliRunner()


class _Param:
    """What a reading looks at on a parameter: how many values it takes."""

    def __init__(self, *, multiple: bool = False, nargs: int = 1):
        self.multiple, self.nargs = multiple, nargs


ONE = _Param()
MANY = _Param(nargs=-1)


def every_command() -> list[tuple[list[str], Any]]:
    found: list[tuple[list[str], Any]] = []

    def walk(command: Any, path: list[str]) -> None:
        found.append((path, command))
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, [*path, name])

    walk(typer.main.get_command(app), [])
    return found


# -- one module per command, loaded when it runs


def test_the_command_table_names_every_command_of_every_module() -> None:
    modules = sorted(set(COMMANDS.values()))
    defined: dict[str, str] = {}
    for name in modules:
        module = importlib.import_module(f"farkle_trainer.cli.{name}")
        for command in typer.main.get_group(module.app).commands:
            assert command not in defined, f"{command} is defined twice"
            defined[command] = name
    assert defined == COMMANDS


def test_help_lists_the_commands_in_the_table_order() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    listed = [line.split()[0] for line in result.stdout.split("Commands:")[1].splitlines() if line.strip()]
    assert listed == list(COMMANDS)


def test_a_command_loads_its_own_module_and_no_other(tmp_path: Path) -> None:
    env = {**os.environ, "FARKLE_TRAIN_HOME": str(tmp_path)}
    code = (
        "import sys\n"
        "from farkle_trainer.cli import app\n"
        "try:\n"
        "    app(['explain', '1', '1', '5'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith(('farkle_trainer.cli.', 'pydantic'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    loaded = out.stdout.strip().splitlines()[-1]
    assert "farkle_trainer.cli.engine" in loaded
    for other in ("classroom", "play", "daily", "score", "records"):
        assert f"farkle_trainer.cli.{other}'" not in loaded
    assert "pydantic" not in loaded


def test_an_unknown_command_suggests_a_close_one() -> None:
    result = runner.invoke(app, ["hnt"])
    assert result.exit_code == 2
    assert "Did you mean 'hint'?" in result.stderr


# -- every parameter read plainly


def test_every_parameter_of_every_command_is_read_without_typer_s_adapters(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(descriptor: Any) -> Any:
        raise AssertionError(f"{descriptor.annotation} would load pydantic")

    monkeypatch.setattr(typer.core, "build_runtime_param", refuse)
    checked = 0
    for path, command in every_command():
        ctx = command.make_context(" ".join(["farkle-train", *path]), [], resilient_parsing=True)
        for param in command.get_params(ctx):
            if isinstance(param, typer.core.TyperOption | typer.core.TyperArgument):
                assert param.get_runtime_param() is not None, (path, param.name)
                checked += 1
    assert checked > 100


# -- the readings


def test_whole_numbers() -> None:
    whole = PlainValue(int)
    assert whole.coerce("42", ONE, None) == 42
    assert whole.coerce(" +7 ", ONE, None) == 7
    assert whole.coerce("-3", ONE, None) == -3
    assert whole.coerce(12, ONE, None) == 12
    assert whole.coerce(None, ONE, None) is None
    for bad in ("abc", "5.0", "1e3", "", " ", "٣", "1_000", "0x10"):
        with pytest.raises(BadParameter, match="is not a whole number"):
            whole.coerce(bad, ONE, None)
    with pytest.raises(BadParameter, match="far too long"):
        whole.coerce("9" * 5000, ONE, None)


def test_bounds_are_said_in_words() -> None:
    with pytest.raises(BadParameter, match=r"must be from 1 to 100, not 0\."):
        PlainValue(int, 1, 100).coerce("0", ONE, None)
    with pytest.raises(BadParameter, match=r"must be at least 1, not -5\."):
        PlainValue(int, 1, None).coerce("-5", ONE, None)
    with pytest.raises(BadParameter, match=r"must be at most 1,000, not 1,001\."):
        PlainValue(int, None, 1000).coerce("1001", ONE, None)
    assert PlainValue(int, 1, 100).coerce("100", ONE, None) == 100


def test_strings_paths_flags_and_lists() -> None:
    assert PlainValue(str).coerce("classic", ONE, None) == "classic"
    assert PlainValue(Path).coerce("a/b.toml", ONE, None) == Path("a/b.toml")
    assert PlainValue(str).coerce(("1", "5"), MANY, None) == ["1", "5"]
    assert PlainValue(str).coerce(None, MANY, None) == ()
    assert PlainValue(Path).coerce(["x.json"], _Param(multiple=True), None) == [Path("x.json")]
    with pytest.raises(BadParameter, match="iterable"):
        PlainValue(str).coerce("15", MANY, None)
    flag = PlainValue(bool)
    assert flag.coerce(True, ONE, None) is True
    assert flag.coerce("no", ONE, None) is False
    assert flag.coerce("1", ONE, None) is True
    with pytest.raises(BadParameter, match="yes or no"):
        flag.coerce("maybe", ONE, None)


@given(st.text(max_size=30))
def test_any_text_is_a_whole_number_or_one_clear_refusal(text: str) -> None:
    stripped = text.strip(" \t\n\r\f\v")
    body = stripped[1:] if stripped[:1] in "+-" else stripped
    try:
        value = PlainValue(int, 0, 10**6).coerce(text, ONE, None)
    except BadParameter as exc:
        assert str(exc.message).endswith(".")
        if body.isascii() and body.isdigit():
            assert not 0 <= int(stripped) <= 10**6
    else:
        assert body.isascii() and body.isdigit() and value == int(stripped)


def test_usage_errors_from_the_readings_are_one_line() -> None:
    result = runner.invoke(app, ["score", "--count", "lots"])
    assert result.exit_code == 2
    said = "Error: Invalid value for '--count' / '-n': "
    assert result.stderr.splitlines()[0] == said + "'lots' is not a whole number."
    result = runner.invoke(app, ["score", "--count", "500"])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == said + "must be from 1 to 100, not 500."


@pytest.mark.parametrize("written", ["1200", "1,200", "1 200"])
def test_points_are_read_as_people_write_them(written: str) -> None:
    result = runner.invoke(app, ["hint", "1", "5", "--points", written, "--plain"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Roll: 1 5, 1,200 points at stake")


@pytest.mark.parametrize("written", ["1_200", "١٢٠٠", "1200.0", "+1200", "12e2", "1200pts"])
def test_points_in_other_notations_are_one_line(written: str) -> None:
    result = runner.invoke(app, ["hint", "1", "5", "--points", written])
    assert result.exit_code == 2
    assert result.stderr == (
        f"Error: --points takes a whole number of points from 0 to 100,000, like 350, not {written!r}\n"
    )


def test_a_flood_of_input_is_not_echoed_back_whole() -> None:
    result = runner.invoke(app, ["hint", "1", "5", "--points", "9" * 5000])
    assert result.exit_code == 2
    assert result.stderr == (
        f"Error: --points takes a whole number of points from 0 to 100,000, like 350, not '{'9' * 29}…'\n"
    )
