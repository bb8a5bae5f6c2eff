"""``play``: whole games, solo, against the computer, or passing one keyboard around.

The games themselves, offered, resumed, saved and played again, are the library's
(:class:`~farkle_trainer.training.games.workflow.Sitting`); this reads the options into a new
game and hands it over.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from farkle_trainer.cli.app import command_group
from farkle_trainer.cli.completion import complete_from
from farkle_trainer.cli.errors import fail
from farkle_trainer.cli.groups import Options
from farkle_trainer.cli.options import (
    DataDirOpt,
    HouseOpeningOpt,
    PenaltyOpt,
    PlainOpt,
    RulesOpt,
    TargetOpt,
    code_option,
    file_option,
    force_option,
    seed_option,
)
from farkle_trainer.cli.params import parse_points, parse_target
from farkle_trainer.cli.storage import open_store_or_explain
from farkle_trainer.ui.terminal import open_terminal

if TYPE_CHECKING:
    from farkle_trainer.training.games.workflow import NewGame
    from farkle_trainer.ui.terminal import Terminal

app = command_group()

#: How long a computer's action stays on screen before the next one, on a terminal.
PAUSE_SECONDS = 0.6
LEVELS = ("easy", "medium", "hard")
#: The most computers a game has: with one person, the most players a game has.
MAX_COMPUTERS = 3


def _levels(vs: str | None) -> list[str]:
    if vs is None:
        return []
    levels = [w.strip().lower() for w in vs.split(",") if w.strip()]
    if not levels:
        fail("--vs takes one to three levels, like hard or easy,hard")
    for level in levels:
        if level not in LEVELS:
            fail(f"--vs takes easy, medium or hard (comma-separated), not {level!r}")
    return levels


def _names(players: str | None) -> list[str]:
    if players is None:
        return []
    names = [w.strip() for w in players.split(",")]
    if any(not n for n in names):
        fail("--players takes names separated by commas, like Ana,Ben")
    return names


VsOpt = Annotated[
    str | None,
    typer.Option(
        "--vs",
        metavar="LEVELS",
        help="Computers to play: easy, medium or hard, up to three, comma-separated (default: "
        "one Medium). Easy banks at simple thresholds, Medium plays the best expected score under "
        "the house rules, Hard the best chance of winning (with three or four players, against "
        "the leader).",
        show_default=False,
        autocompletion=complete_from(lambda: LEVELS, listed=True, repeats=True),
    ),
]
PlayersOpt = Annotated[
    str | None,
    typer.Option(
        "--players",
        metavar="NAMES",
        help="People at this keyboard, comma-separated (pass and play, 2-4 with any --vs); "
        "names of up to 20 characters.",
        show_default=False,
    ),
]
SoloOpt = Annotated[
    bool,
    typer.Option(
        "--solo", help="Play alone: ten turns for the highest score, or with --target in fewest turns."
    ),
]


@dataclass(frozen=True)
class SeatOptions(Options):
    """Who plays a new game: computers, people at this keyboard, or one person alone."""

    vs: VsOpt = None
    players: PlayersOpt = None
    solo: SoloOpt = False


@dataclass(frozen=True)
class TableOptions(Options):
    """The rule table a new game is played on, and its house rules."""

    rules: RulesOpt = "classic"
    target: TargetOpt = None
    opening: HouseOpeningOpt = None
    penalty: PenaltyOpt = None


@dataclass(frozen=True)
class DiceOptions(Options):
    """Where a new game's dice come from, if not drawn by the program: a seed, or a class code's."""

    seed: Annotated[int | None, seed_option("Reproducible dice (and computer choices with them).")] = None
    code: Annotated[
        str | None,
        code_option(
            "A class code, like MATH7B: the class's same dice, so everyone who types it plays the same game "
            "against the same computer (instead of --seed)."
        ),
    ] = None


@dataclass(frozen=True)
class GameFileOptions(Options):
    """The file a game is also written to as it goes."""

    save: Annotated[
        Path | None,
        file_option(
            "--save",
            "FILE.json",
            "Also write the game to FILE.json as it goes (a game played again goes to FILE-2.json, ...); "
            "farkle-train review FILE.json shows it again.",
        ),
    ] = None
    # Only a file that is the same game's, carried on, is replaced without it.
    force: Annotated[
        bool,
        force_option("With --save: replace FILE.json even if it holds another game or is not a game file."),
    ] = False


CoachOpt = Annotated[
    bool, typer.Option("--coach", help="Warn after a play that is a mistake or worse (a training game).")
]
FastOpt = Annotated[bool, typer.Option("--fast", help="Show the computers' actions at once, with no pause.")]
ResumeOpt = Annotated[
    bool, typer.Option("--resume", help="Carry on with the unfinished game (in its own settings).")
]


@app.command(short_help="Whole games: vs computer, friends, solo.")
def play(
    *,
    seats: SeatOptions,
    table: TableOptions,
    dice: DiceOptions,
    coach: CoachOpt = False,
    fast: FastOpt = False,
    resume: ResumeOpt = False,
    file: GameFileOptions,
    data_dir: DataDirOpt = None,
    plain: PlainOpt = False,
) -> None:
    """Play a whole game: against the computer, with friends at one keyboard, or solo.

    Only a game of one person against one computer, on a preset table to 2,000, 5,000 or 10,000
    (no opening minimum, or 350, 500 or 1,000), with no coach and on dice nobody can know in
    advance (drawn as they are rolled: no --seed, no --code), is rated and counts in stats:
    only there is the game graded by the exact chance of winning. Against two or three
    computers, with friends (whose decisions stay in the game, in nobody's progress), solo, or
    on a rule file of your own, it is training. During the game h asks the coach (a rated game
    has none), resign gives up, q stops. At the end a yes to "Play again?" starts the same game
    with the other player first.
    Example: farkle-train play --vs hard
    """
    if dice.code is not None and dice.seed is not None:
        fail("--code and --seed both choose the dice: give one of them")
    if resume and dice.code is not None:
        fail("--resume carries on in the saved game's own settings: leave out --code")
    if file.force and file.save is None:
        fail("--force goes with --save FILE.json")
    if file.save is not None:
        from farkle_trainer.training.games.gamefile import check_game_path

        check_game_path(file.save, force=file.force)
    term = open_terminal(plain)
    game = None if resume else _new_game(seats, table, dice, coach=coach)
    from farkle_trainer.cli.storage import solved_tables
    from farkle_trainer.training.games.workflow import Sitting
    from farkle_trainer.ui.progress import solving
    from farkle_trainer.ui.views import play as view
    from farkle_trainer.ui.views import review

    tables = solved_tables(data_dir)
    with open_store_or_explain(data_dir, term) as store:
        sitting = Sitting(
            term,
            view,
            review,
            store,
            tables,
            save=file.save,
            force=file.force,
            pause=_pause(term, fast=fast),
            unused=_new_game_options(seats, table, dice, coach=coach),
            solving=partial(solving, term, tables),
        )
        sitting.play(game)


def _new_game(seats: SeatOptions, table: TableOptions, dice: DiceOptions, *, coach: bool) -> NewGame:
    """The new game the options set up."""
    from farkle_trainer.cli.rules import load
    from farkle_trainer.training.games import workflow
    from farkle_trainer.training.games.dice import chosen_dice
    from farkle_trainer.training.games.setup import MAX_PLAYERS, Level
    from farkle_trainer.training.games.setup import seats as seated
    from farkle_trainer.training.mistakes import rules_file

    solo = seats.solo
    levels = _levels(seats.vs)
    names = _names(seats.players)
    if solo and (levels or names):
        fail("--solo is a game for one: leave out --vs and --players")
    if len(levels) > MAX_COMPUTERS:
        fail("--vs takes up to three computers")
    if not solo and not names and not levels:
        levels = ["medium"]
    players = seated([*(names or ["You"]), *(Level(level) for level in levels)])
    if not solo and len(players) > MAX_PLAYERS:
        fail(f"a game has at most {MAX_PLAYERS} players, not {len(players)}")
    if not solo and len(players) < 2:
        fail("a game needs two players at least: add --vs or another name in --players, or play --solo")
    return workflow.new_game(
        players,
        load(table.rules),
        solo=solo,
        target=None if table.target is None else parse_target(table.target),
        opening=None if table.opening is None else parse_points(table.opening, "--opening"),
        penalty=None if table.penalty is None else parse_points(table.penalty, "--penalty"),
        coached=coach,
        dice=chosen_dice(dice.seed, dice.code),
        # Where a new game's table came from, kept with it for the positions its mistakes become.
        rules_file=rules_file(table.rules),
    )


def _new_game_options(
    seats: SeatOptions, table: TableOptions, dice: DiceOptions, *, coach: bool
) -> list[str]:
    """The options given that set up a new game, which --resume does not use. The default table
    cannot be told from one typed: classic is the only one taken as unset."""
    given = {
        "--vs": seats.vs is not None,
        "--players": seats.players is not None,
        "--solo": seats.solo,
        "--target": table.target is not None,
        "--opening": table.opening is not None,
        "--penalty": table.penalty is not None,
        "--seed": dice.seed is not None,
        "--coach": coach,
        "--rules": table.rules.strip().lower() != "classic",
    }
    return [option for option, on in given.items() if on]


def _pause(term: Terminal, *, fast: bool) -> Callable[[], None]:
    """What follows a computer's action: a pause to follow it by, on a terminal, unless --fast."""
    from farkle_trainer.ui.terminal import InteractiveFrontend

    if fast or not isinstance(term, InteractiveFrontend):
        return lambda: None
    return lambda: time.sleep(PAUSE_SECONDS)
