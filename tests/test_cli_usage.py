"""The command line itself: help, usage errors, the version and the bounds of every number."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from farkle_trainer import __version__
from farkle_trainer.cli import app

runner = CliRunner()


def command_paths() -> list[list[str]]:
    found: list[list[str]] = []

    def walk(command: object, path: list[str]) -> None:
        subcommands = getattr(command, "commands", None)
        if subcommands is None:
            found.append(path)
            return
        for name, sub in subcommands.items():
            walk(sub, [*path, name])

    walk(get_command(app), [])
    return found


COMMANDS = command_paths()


def one_error_line(stderr: str) -> None:
    lines = stderr.splitlines()
    assert lines[0].startswith("Error: "), stderr
    assert all(not line.startswith("Error") for line in lines[1:]), stderr
    assert "Traceback" not in stderr and "╭" not in stderr and "│" not in stderr


@pytest.mark.parametrize("path", COMMANDS, ids=[" ".join(p) for p in COMMANDS])
def test_every_command_has_one_line_usage_errors(path: list[str]) -> None:
    result = runner.invoke(app, [*path, "--no-such-option"])
    assert result.exit_code == 2
    one_error_line(result.stderr)
    assert result.stderr.splitlines()[1].startswith(f"Usage: farkle-train {' '.join(path)} ")


@pytest.mark.parametrize("path", COMMANDS, ids=[" ".join(p) for p in COMMANDS])
def test_every_help_shows_clean_metavars(path: list[str]) -> None:
    result = runner.invoke(app, [*path, "--help"])
    assert result.exit_code == 0
    for internal in ("<bool>", "<str>", "<int>", "<list", "[[", "{", "╭"):
        assert internal not in result.stdout, (internal, result.stdout)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["explain"], "Error: Missing argument 'DICE'."),
        (["score", "--seed", "-1"], "Error: Invalid value for '--seed'"),
        (["score", "--count", "abc"], "Error: Invalid value for '--count'"),
        (["nope"], "Error: No such command 'nope'."),
    ],
)
def test_parser_errors_are_one_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    one_error_line(result.stderr)
    assert result.stderr.startswith(message)


def test_version_and_class_code_plain() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout == f"farkle-train {__version__}\n"
    result = runner.invoke(app, ["class", "code", "--plain"])
    assert result.exit_code == 0 and len(result.stdout.strip()) >= 4


def test_the_readme_says_which_commands_take_rules() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    without = []
    for path in COMMANDS:
        help_text = runner.invoke(app, [*path, "--help"]).stdout
        if "--rules" not in help_text:
            without.append(f"`{' '.join(path)}`")
    assert sorted(without) == [
        "`challenge`",
        "`class code`",
        "`class report`",
        "`daily`",
        "`games`",
        "`reset`",
        "`review`",
        "`stats`",
    ]
    assert (
        "Every command except `reset`, `games`, `review`, `daily`, `challenge`, `stats`, `class code` and "
        "`class report` takes `--rules" in readme
    )


@pytest.mark.parametrize(
    "args",
    [
        ["score", "--plain", "--seed", "9223372036854775808", "--count", "1"],
        ["decide", "--plain", "--seed", "9223372036854775808", "--count", "1"],
        ["hint", "1", "5", "2", "2", "3", "6", "--points", "1e30"],
        ["hint", "1", "5", "2", "2", "3", "6", "--points", "9223372036854775800"],
        ["hint", "1", "5", "2", "2", "3", "6", "--need", "1e30"],
        ["hint", "1", "5", "2", "2", "3", "6", "--opening", "100050"],
        ["strategy", "--opening", "10000000000"],
        ["strategy", "--opening", "99999950"],
        ["strategy", "--opening", "1" * 5000],
    ],
)
def test_every_number_is_bounded(args: list[str]) -> None:
    result = runner.invoke(app, args, input="")
    assert result.exit_code == 2, result.output
    one_error_line(result.stderr)


def test_invalid_utf8_on_stdin_is_refused_politely() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    command = [sys.executable, "-m", "farkle_trainer", "decide", "--plain", "--seed", "1", "--count", "1"]
    done = subprocess.run(command, input=b"\xff\n", capture_output=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    assert b"(type b to bank or r to roll on)" in done.stdout


#: What a command needs to be given besides its options to get as far as its solved tables.
ARGUMENTS = {"learn": ["1"], "review": ["1"], "challenge": ["MATH7B"], "reset": ["stats", "--yes"]}


class Built(Exception):
    """Raised where a command builds its tables: nothing after that matters here."""


def test_every_command_that_takes_data_dir_keeps_the_solver_cache_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from farkle_trainer.store import tables as disk

    built: list[Path | None] = []

    def record(data_dir: Path | None = None) -> disk.DiskTables:
        built.append(data_dir)
        raise Built

    monkeypatch.setattr(disk, "disk_tables", record)
    solving = []
    for path in COMMANDS:
        command = get_command(app)
        for name in path:
            command = command.commands[name]  # type: ignore[attr-defined]
        if not any("--data-dir" in getattr(p, "opts", ()) for p in command.params):
            continue
        data = tmp_path / "-".join(path)
        built.clear()
        runner.invoke(
            app, [*path, *ARGUMENTS.get(path[-1], []), "--data-dir", str(data), "--plain"], input=""
        )
        if built:
            solving.append(" ".join(path))
            assert built == [data], path
    assert {"decide", "daily", "play", "learn", "progress", "stats", "reset", "review", "challenge"} <= set(
        solving
    )


def test_a_name_too_long_for_the_file_system_is_one_line(tmp_path: Path) -> None:
    long = tmp_path / ("x" * 300)
    env = {**os.environ, "FARKLE_TRAIN_HOME": str(tmp_path / "home")}
    for args in (["progress", "--data-dir", str(long)], ["progress", "--export", f"{long}.csv"]):
        done = subprocess.run(
            [sys.executable, "-m", "farkle_trainer", *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode in (1, 2), done.stderr
        one_error_line(done.stderr)
        assert "File name too long" in done.stderr


def test_an_empty_path_is_refused_rather_than_read_as_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["progress", "--data-dir", ""])
    assert result.exit_code == 2
    one_error_line(result.stderr)
    assert "an empty name is not a file or folder" in result.stderr
    assert not (tmp_path / "farkle.sqlite3").exists()


@pytest.mark.parametrize("columns", ["100", "60"])
@pytest.mark.parametrize("group", [[], ["class"]])
def test_the_command_lists_are_never_cut_short(columns: str, group: list[str]) -> None:
    result = runner.invoke(app, [*group, "--help"], env={"COLUMNS": columns})
    listed = result.stdout.split("Commands:")[1]
    assert "..." not in listed and all(len(line) <= int(columns) for line in listed.splitlines())


# -- shell completion


def test_the_shell_completion_script_is_shown() -> None:
    result = CliRunner().invoke(app, ["--show-completion", "bash"])
    assert result.exit_code == 0, result.output
    assert "_FARKLE_TRAIN_COMPLETE=complete_bash" in result.stdout
    assert "complete -o default -F _farkle_train_completion farkle-train" in result.stdout


def completions(line: str) -> list[str]:
    words = line.split(" ")
    env = {"_FARKLE_TRAIN_COMPLETE": "complete_bash", "COMP_WORDS": line, "COMP_CWORD": str(len(words) - 1)}
    result = CliRunner().invoke(app, [], env=env, prog_name="farkle-train")
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


def test_rule_names_and_files_complete(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cards.toml").write_text("")
    (tmp_path / "notes.txt").write_text("")
    (tmp_path / "house").mkdir()
    assert completions("farkle-train hint 1 5 --rules c") == ["classic", "cards.toml"]
    assert completions("farkle-train daily -r m") == ["multiplier"]
    assert completions("farkle-train progress --rules ho") == ["house/"]
    assert "notes.txt" not in completions("farkle-train score --rules ")


def test_command_names_complete() -> None:
    assert completions("farkle-train st") == ["strategy", "stats"]
    assert set(completions("farkle-train class ")) == {"code", "report"}


@pytest.mark.parametrize(
    ("line", "offered"),
    [
        ("farkle-train decide --kind ", ["bank-or-roll", "keep", "final-round", "opening", "game", "solo"]),
        # A comma list completes its last name, after the names already given.
        ("farkle-train decide -k keep,f", ["keep,final-round"]),
        (
            "farkle-train decide --kind keep,",
            ["keep,bank-or-roll", "keep,final-round", "keep,opening", "keep,game", "keep,solo"],
        ),
        ("farkle-train score --topic ", ["worth", "valid", "farkle", "best", "combos"]),
        ("farkle-train score -t worth,c", ["worth,combos"]),
        ("farkle-train score --level m", ["medium"]),
        ("farkle-train decide --level ", ["easy", "medium", "hard"]),
        # Computers of one level may play together.
        ("farkle-train play --vs ", ["easy", "medium", "hard"]),
        ("farkle-train play --vs easy,e", ["easy,easy"]),
        ("farkle-train reset ", ["progress", "stats"]),
        ("farkle-train reset s", ["stats"]),
        ("farkle-train learn b", ["bank-or-roll"]),
        ("farkle-train learn 3", ["3"]),
        ("farkle-train worksheet --kind ", ["score", "decide"]),
        ("farkle-train worksheet --topic o", ["opening"]),
        ("farkle-train worksheet --format ", ["markdown", "text"]),
    ],
)
def test_closed_choices_complete(line: str, offered: list[str]) -> None:
    assert completions(line) == offered


def test_every_lesson_completes_by_name() -> None:
    from farkle_trainer.training.lessons import all_lessons

    names = completions("farkle-train learn ")
    assert names == [lesson.slug for lesson in all_lessons()] and len(names) == 7
    # Each name the shell offers reads that lesson.
    for number, name in enumerate(names, 1):
        assert f"{number}. " in runner.invoke(app, ["learn", name, "--plain"]).stdout.splitlines()[0]


def test_completing_never_loads_numpy(tmp_path: Path) -> None:
    program = Path(sys.executable).with_name("farkle-train")
    for line in (
        "farkle-train learn ",
        "farkle-train decide --kind ",
        "farkle-train reset ",
        "farkle-train play --vs ",
    ):
        env = {
            **os.environ,
            "_FARKLE_TRAIN_COMPLETE": "complete_bash",
            "COMP_WORDS": line,
            "COMP_CWORD": str(len(line.split(" ")) - 1),
            "PYTHONPROFILEIMPORTTIME": "1",
            "FARKLE_TRAIN_HOME": str(tmp_path),
        }
        done = subprocess.run([program], env=env, capture_output=True, text=True, check=True)
        imported = {row.rsplit("|", 1)[-1].strip() for row in done.stderr.splitlines() if "|" in row}
        assert done.stdout.split() and "farkle_trainer.cli" in imported
        assert "numpy" not in imported and "questionary" not in imported, line
