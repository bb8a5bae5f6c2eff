"""The README is part of the product: every example in it runs, every command is in it."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from farkle_trainer.cli import app

README = Path(__file__).resolve().parent.parent / "README.md"
EXAMPLE = re.compile(r"```console\n\$ (?P<command>[^\n]+)\n(?P<output>.*?)```", re.S)


def examples() -> list[tuple[str, str]]:
    return [(m["command"], m["output"]) for m in EXAMPLE.finditer(README.read_text())]


def test_the_readme_has_examples() -> None:
    assert len(examples()) >= 4


def split_example(command: str) -> tuple[list[str], str | None]:
    """``printf '1100\\nno\\n' | farkle-train score ...`` -> (arguments, standard input)."""
    stdin = None
    if command.startswith("printf "):
        feed, command = command.split(" | ", 1)
        stdin = shlex.split(feed)[1].encode().decode("unicode_escape")
    words = shlex.split(command)
    assert words[0] == "farkle-train", command
    return words[1:], stdin


@pytest.mark.parametrize(("command", "output"), examples(), ids=[c for c, _ in examples()])
def test_readme_example_output(
    command: str, output: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Run from a copy of the files the examples read, so a file an example writes lands in a
    # scratch folder and never in the clone.
    for folder in ("examples", "tests/data"):
        shutil.copytree(README.parent / folder, tmp_path / folder)
    monkeypatch.chdir(tmp_path)
    args, stdin = split_example(command)
    result = CliRunner().invoke(app, args, input=stdin)
    assert result.exit_code == 0, result.output
    assert result.stdout == output


def test_every_command_is_documented() -> None:
    text = README.read_text()
    group = get_command(app)
    names = sorted(group.commands)  # type: ignore[attr-defined]
    assert names
    for name in names:
        assert f"### farkle-train {name}" in text, f"README has no section for {name}"


def test_the_readme_commands_for_a_fresh_machine() -> None:
    text = README.read_text()
    assert "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/farkle-train" in text
    assert "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/pytest" in text
    ci = (README.parent / ".ci" / "run").read_text()
    assert "pip install -e '.[test]'" in ci and ".venv/bin/pytest" in ci


def quoted_commands() -> list[str]:
    """Every ``farkle-train ...`` command the README quotes inline."""
    found = re.findall(r"`(farkle-train [^`]+)`", README.read_text())
    return sorted(set(found))


@pytest.mark.parametrize("command", quoted_commands())
def test_every_quoted_command_parses(command: str) -> None:
    command_obj = get_command(app)
    name, *args = shlex.split(command)
    # Walk down groups (``class report``) to the command that takes the remaining arguments.
    while hasattr(command_obj, "commands"):
        if not args:
            return  # the group itself is named, as in "see farkle-train class"
        name, *args = args
        assert name in command_obj.commands, command
        command_obj = command_obj.commands[name]
    command_obj.make_context(name, list(args))


# -- the architecture page a contributor reads first

ARCHITECTURE = README.with_name("ARCHITECTURE.md")
#: A path of the repository named in backticks: a module, a folder, a test, a file at the top.
NAMED_PATH = re.compile(r"`((?:farkle_trainer|tests|tools|benchmarks)/[\w/.]*|pyproject\.toml)`")


def test_the_architecture_page_is_linked_and_names_only_what_is_there() -> None:
    assert "[ARCHITECTURE.md](ARCHITECTURE.md)" in README.read_text()
    text = ARCHITECTURE.read_text()
    named = set(NAMED_PATH.findall(text))
    assert len(named) >= 30, named
    missing = sorted(path for path in named if not (README.parent / path).exists())
    assert not missing, missing
    # Every layer is described, in the order the imports point.
    layers = [
        text.index(f"**{layer}** (`farkle_trainer/{layer}`)")
        for layer in ("engine", "store", "training", "ui", "cli")
    ]
    assert layers == sorted(layers)


def test_the_scan_of_named_paths_sees_a_path_that_is_not_there() -> None:
    found = NAMED_PATH.findall("the `farkle_trainer/engine/nowhere.py` and `tests/conftest.py` files")
    assert found == ["farkle_trainer/engine/nowhere.py", "tests/conftest.py"]
    assert not (README.parent / found[0]).exists()
