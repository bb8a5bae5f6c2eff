"""The options and arguments several commands take, each declared once.

An option several commands take is declared here once: its name, metavar, bounds and
completion. Where its meaning differs from one command to another (``--seed`` names a quiz, a
set of drills or a game's dice), its factory takes the help that says so, and each command
passes its own; where the meaning is the same, so is the alias and the help.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from farkle_trainer.cli.completion import complete_level, complete_rules
from farkle_trainer.engine.seeded import MAX_SEED

#: The most questions or decisions a session, a worksheet or a drill of one's mistakes has.
MAX_COUNT = 100


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


def one_of(names: Sequence[str]) -> str:
    """``a, b or c``: the choices an option takes, as its help lists them."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


# -- the rules a command plays on


def rules_option(
    help: str = "Scoring table: classic, fixed, doubling, multiplier, or a TOML rule file.",
    *,
    hidden: bool = False,
    show_default: bool = True,
) -> Any:
    """``--rules``: a preset's name or a TOML rule file (what it is used for is ``help``)."""
    return typer.Option(
        "--rules",
        "-r",
        metavar="NAME|FILE.toml",
        help=help,
        show_default=show_default,
        autocompletion=complete_rules,
        hidden=hidden,
    )


RulesOpt = Annotated[str, rules_option()]


def classic_only_rules(what: str) -> Any:
    """``--rules`` for a command that is always played on ``classic``: left out of the help,
    since it changes nothing, but still accepted (and said to be unused) for scripts that pass it.

    ``what`` completes "Not used: ... always played on the classic table", e.g. "the daily game is".
    """
    return rules_option(
        f"Not used: {what} always played on the classic table with no house rules.", hidden=True
    )


def target_option(help: str) -> Any:
    """``--target``: a game's target, 1,000 to 20,000 in fifties."""
    return points_option("--target", help)


#: The target of the game a command plays or answers about (``hint``, ``strategy``, ``play``).
TargetOpt = Annotated[
    str | None,
    target_option(
        "The game's target, 1,000 to 20,000 (default: the rule set's own, 10,000 for the presets)."
    ),
]
#: The target of the games drills are taken from: a setting of the drills, not of one game.
DrillTargetOpt = Annotated[
    str | None,
    target_option(
        "The target of game and solo drills, 1,000 to 20,000 in fifties. Default: the rule set's own."
    ),
]


def opening_option(help: str) -> Any:
    """``--opening``: an opening minimum, in points."""
    return points_option("--opening", help)


#: The minimum in force for a turn of a player who has nothing banked (``hint``, ``strategy``).
OpeningOpt = Annotated[
    str | None,
    opening_option(
        "Opening minimum in force (you have nothing banked): no bank below it. "
        "Default: the rule set's own, 0 for the presets."
    ),
]
#: A game's house rule, which holds every player until their first bank (``play``).
HouseOpeningOpt = Annotated[
    str | None, opening_option("Opening minimum: no first bank below it (e.g. 350, 500, 1000).")
]
PenaltyOpt = Annotated[
    str | None,
    points_option(
        "--penalty", "Three Farkles in a row cost 500 or 1000 (never below 0). Default: the rule set's own."
    ),
]

DiceArg = Annotated[list[str], argument("DICE", "Dice faces 1-6, as '1 5 5' or '155'.")]


# -- what a session asks


def seed_option(help: str) -> Any:
    """``--seed``: a whole number from 0 to MAX_SEED; ``help`` says what it makes the same
    (a quiz's questions, drills, a game's dice)."""
    return typer.Option("--seed", metavar="SEED", min=0, max=MAX_SEED, help=help, show_default=False)


def count_option(what: str) -> Any:
    """``--count``: how many ``what`` (questions, decisions) a session or a sheet has."""
    return typer.Option(
        "--count", "-n", metavar="N", min=1, max=MAX_COUNT, help=f"How many {what}, 1 to 100."
    )


def level_option(help: str) -> Any:
    """``--level``: easy, medium or hard, which means what ``help`` says for the command."""
    return typer.Option(
        "--level", metavar="easy|medium|hard", help=help, show_default=False, autocompletion=complete_level
    )


def kind_option(metavar: str, help: str, complete: Callable[[str], list[str]], *, show_default: bool) -> Any:
    """``--kind``/``-k``: what kind of question a command asks (drill kinds, or a worksheet's two
    kinds), which ``metavar`` and ``complete`` name."""
    return typer.Option(
        "--kind", "-k", metavar=metavar, help=help, show_default=show_default, autocompletion=complete
    )


def topic_option(help: str, complete: Callable[[str], list[str]]) -> Any:
    """``--topic``/``-t``: topics, repeated or as a comma list."""
    return typer.Option(
        "--topic", "-t", metavar="TOPIC", help=help, show_default=False, autocompletion=complete
    )


# -- how a command answers


PlainOpt = Annotated[
    bool, typer.Option("--plain", help="Plain line-based text (the default when not on a terminal).")
]


def json_option(help: str = "Print machine-readable JSON.") -> Any:
    """``--json``: ``help`` says what comes as JSON where it is more than the command's answer."""
    return typer.Option("--json", help=help)


JsonOpt = Annotated[bool, json_option()]


DataDirOpt = Annotated[
    Path | None,
    typer.Option(
        "--data-dir",
        metavar="DIR",
        help="Keep progress, stats and the solver cache in DIR (default: $FARKLE_TRAIN_HOME, "
        "else your user data directory).",
        show_default=False,
    ),
]


def force_option(help: str) -> Any:
    """``--force``: replace a file; ``help`` says which files it replaces, that would be kept."""
    return typer.Option("--force", help=help)


ReplaceOpt = Annotated[bool, force_option("Replace a file that exists already.")]


# -- joining a class code: score, decide and challenge


def code_option(help: str) -> Any:
    """``--code``: a class code; ``help`` says what it fixes (questions, dice, a sheet, a report)."""
    return typer.Option("--code", metavar="CODE", help=help, show_default=False)


CodeOpt = Annotated[
    str | None,
    code_option(
        "A class code, like MATH7B: everyone who types it gets the same questions, whatever their "
        "progress. Kept with your answers."
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
#: A result file is kept unless it is the student's own unfinished one for the code.
ForceOpt = Annotated[
    bool,
    force_option(
        "Replace the file even if it holds another result than your own unfinished one for this "
        "code and activity."
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
