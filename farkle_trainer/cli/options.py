"""The options and arguments several commands take, each declared once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from farkle_trainer.cli.completion import complete_rules


def points_option(name: str, help: str) -> Any:
    """An option taking points as people write them ("1350", "1,350"), absent unless given."""
    return typer.Option(name, metavar="POINTS", help=help, show_default=False)


def file_option(name: str, metavar: str, help: str) -> Any:
    """An option naming a file to write, absent unless given."""
    return typer.Option(name, metavar=metavar, help=help, show_default=False)


def argument(metavar: str, help: str, complete: Callable[[str], list[Any]] | None = None) -> Any:
    """A command's argument, shown in ``--help`` by ``metavar`` alone, never by a default;
    ``complete`` says what the shell offers for it."""
    return typer.Argument(metavar=metavar, help=help, show_default=False, autocompletion=complete)


def one_of(names: tuple[str, ...]) -> str:
    """``a, b or c``: the choices an option takes, as its help lists them."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


RulesOpt = Annotated[
    str,
    typer.Option(
        "--rules",
        "-r",
        metavar="NAME|FILE.toml",
        help="Scoring table: classic, fixed, doubling, multiplier, or a TOML rule file.",
        autocompletion=complete_rules,
    ),
]
PlainOpt = Annotated[
    bool, typer.Option("--plain", help="Plain line-based text (the default when not on a terminal).")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
OpeningOpt = Annotated[
    str | None,
    points_option(
        "--opening",
        "Opening minimum in force (you have nothing banked): no bank below it. "
        "Default: the rule set's own, 0 for the presets.",
    ),
]
TargetOpt = Annotated[
    str | None,
    points_option(
        "--target",
        "The target of game and solo drills, 1,000 to 20,000 in fifties. Default: the rule set's own.",
    ),
]
PenaltyOpt = Annotated[
    str | None,
    points_option(
        "--penalty", "Three Farkles in a row cost 500 or 1000 (never below 0). Default: the rule set's own."
    ),
]


DiceArg = Annotated[list[str], argument("DICE", "Dice faces 1-6, as '1 5 5' or '155'.")]


def classic_only_rules(what: str) -> Any:
    """``--rules`` for a command that is always played on ``classic``: left out of the help,
    since it changes nothing, but still accepted (and said to be unused) for scripts that pass it.

    ``what`` completes "Not used: ... always played on the classic table", e.g. "the daily game is".
    """
    return typer.Option(
        "--rules",
        "-r",
        metavar="NAME|FILE.toml",
        help=f"Not used: {what} always played on the classic table with no house rules.",
        autocompletion=complete_rules,
        hidden=True,
    )


def _keep_cache_in_data_dir(value: Path | None) -> Path | None:
    # Run while the options are read, so a solve that comes before the store opens (decide
    # prepares its tables first) already writes inside the student's directory.
    if value is not None:
        from farkle_trainer.store.tables import set_cache_dir

        set_cache_dir(value.expanduser() / "cache")
    return value


DataDirOpt = Annotated[
    Path | None,
    typer.Option(
        "--data-dir",
        metavar="DIR",
        help="Keep progress, stats and the solver cache in DIR (default: $FARKLE_TRAIN_HOME, "
        "else your user data directory).",
        show_default=False,
        callback=_keep_cache_in_data_dir,
    ),
]

ReplaceOpt = Annotated[bool, typer.Option("--force", help="Replace a file that exists already.")]


# -- joining a class code: score, decide and challenge

CodeOpt = Annotated[
    str | None,
    typer.Option(
        "--code",
        metavar="CODE",
        help="A class code, like MATH7B: everyone who types it gets the same questions, whatever their "
        "progress. Kept with your answers.",
        show_default=False,
    ),
]
SaveResultOpt = Annotated[
    Path | None,
    file_option(
        "--save-result",
        "FILE.json",
        "With a class code: keep your answers in FILE.json to hand in (farkle-train class report reads it).",
    ),
]
ForceOpt = Annotated[
    bool,
    typer.Option(
        "--force",
        help="Replace the file even if it holds another result than your own unfinished one for this "
        "code and activity.",
    ),
]
NameOpt = Annotated[
    str | None,
    typer.Option(
        "--name",
        metavar="NAME",
        help="With a class code: your name on the result (asked on a terminal when --save-result is given).",
        show_default=False,
    ),
]
