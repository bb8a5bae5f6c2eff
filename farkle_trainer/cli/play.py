"""``play``: whole games, solo, against the computer, or passing one keyboard around."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from farkle_trainer.cli.common import (
    DataDirOpt,
    PenaltyOpt,
    PlainOpt,
    RulesOpt,
    command_group,
    complete_from,
    fail,
    open_store_or_explain,
    points_option,
)
from farkle_trainer.cli.params import parse_points, parse_target
from farkle_trainer.engine.seeded import MAX_SEED
from farkle_trainer.ui.terminal import open_terminal

if TYPE_CHECKING:
    from farkle_trainer.store.db import Store
    from farkle_trainer.store.rows import GameRow
    from farkle_trainer.training.games.match import MatchState
    from farkle_trainer.training.games.play import Played, Unfinished
    from farkle_trainer.training.games.setup import Setup
    from farkle_trainer.ui.terminal import Terminal

app = command_group()

#: How long a computer's action stays on screen before the next one, on a terminal.
PAUSE_SECONDS = 0.6
LEVELS = ("easy", "medium", "hard")


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


def build_setup(
    *,
    vs: str | None,
    players: str | None,
    solo: bool,
    rules_name: str,
    target: str | None,
    opening: str | None,
    penalty: str | None,
    coach: bool,
    seed: str,
    code: str | None = None,
    chosen_seed: bool = False,
) -> Setup:
    from farkle_trainer.cli.common import load
    from farkle_trainer.engine.gameplan import opening_error
    from farkle_trainer.training.classroom.codes import normalize_code
    from farkle_trainer.training.games.setup import MAX_PLAYERS, Form, Level, Player, dealt, new_setup

    levels = _levels(vs)
    names = _names(players)
    if solo and (levels or names):
        fail("--solo is a game for one: leave out --vs and --players")
    if len(levels) > 3:
        fail("--vs takes up to three computers")
    if not solo and not names and not levels:
        levels = ["medium"]
    people = [Player(n) for n in names] or [Player("You")]
    computers: list[Player] = []
    for level in levels:
        name = level.capitalize()
        taken = [p.name for p in computers if p.name.split(" ")[0] == name]
        computers.append(Player(f"{name} {len(taken) + 1}" if taken else name, Level(level)))
    if len(taken_names := [p.name for p in computers]) != len(set(taken_names)):
        fail("two computers cannot share a name")
    line_up = (*people, *computers)
    if not solo and len(line_up) > MAX_PLAYERS:
        fail(f"a game has at most {MAX_PLAYERS} players, not {len(line_up)}")
    if not solo and len(line_up) < 2:
        fail("a game needs two players at least: add --vs or another name in --players, or play --solo")
    form = Form.MATCH
    if solo:
        form = Form.TEN_TURNS if target is None else Form.FEWEST_TURNS
    table = load(rules_name)
    chosen_target = None if target is None else parse_target(target)
    chosen_opening = None if opening is None else parse_points(opening, "--opening")
    if chosen_opening is not None:
        # The limit every command that solves a game has, in the same words.
        wrong = opening_error(chosen_opening, table.target if chosen_target is None else chosen_target)
        if wrong is not None:
            fail(wrong)
    setup = new_setup(
        line_up,
        table,
        form=form,
        target=chosen_target,
        opening=chosen_opening,
        penalty=None if penalty is None else parse_points(penalty, "--penalty"),
        coached=coach,
        seed="" if code is not None else seed,
        code="" if code is None else normalize_code(code),
        chosen_seed=chosen_seed,
    )
    return dealt(setup)


def warm_table(term: Terminal, setup: Setup) -> None:
    """Solve (or load) the tables the game needs before the first roll, saying so when it takes a
    while (see :func:`farkle_trainer.ui.progress.solving`)."""
    from farkle_trainer.training.solving import for_setup, solve_all
    from farkle_trainer.ui.progress import solving

    tables = for_setup(setup)
    if not tables:
        return
    with solving(term, tables) as progress:
        solve_all(tables, progress)


@app.command(short_help="Whole games: vs computer, friends, solo.")
def play(
    vs: Annotated[
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
    ] = None,
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            metavar="NAMES",
            help="People at this keyboard, comma-separated (pass and play, 2-4 with any --vs); "
            "names of up to 20 characters.",
            show_default=False,
        ),
    ] = None,
    solo: Annotated[
        bool,
        typer.Option(
            "--solo", help="Play alone: ten turns for the highest score, or with --target in fewest turns."
        ),
    ] = False,
    rules: RulesOpt = "classic",
    target: Annotated[
        str | None, points_option("--target", "Points to win, 1,000 to 20,000 (default 10,000).")
    ] = None,
    opening: Annotated[
        str | None,
        points_option("--opening", "Opening minimum: no first bank below it (e.g. 350, 500, 1000)."),
    ] = None,
    penalty: PenaltyOpt = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            metavar="N",
            min=0,
            max=MAX_SEED,
            help="Reproducible dice (and computer choices with them).",
            show_default=False,
        ),
    ] = None,
    fast: Annotated[
        bool, typer.Option("--fast", help="Show the computers' actions at once, with no pause.")
    ] = False,
    coach: Annotated[
        bool, typer.Option("--coach", help="Warn after a play that is a mistake or worse (a training game).")
    ] = False,
    data_dir: DataDirOpt = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Carry on with the unfinished game (in its own settings).")
    ] = False,
    code: Annotated[
        str | None,
        typer.Option(
            "--code",
            metavar="CODE",
            help="A class code, like MATH7B: the class's same dice, so everyone who types it plays the "
            "same game against the same computer (instead of --seed).",
            show_default=False,
        ),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(
            "--save",
            metavar="FILE.json",
            help="Also write the game to FILE.json as it goes (a game played again goes to "
            "FILE-2.json, ...); farkle-train review FILE.json shows it again.",
            show_default=False,
        ),
    ] = None,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="With --save: replace FILE.json even if it holds another game or is not a game file.",
        ),
    ] = False,
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
    import secrets

    if code is not None and seed is not None:
        fail("--code and --seed both choose the dice: give one of them")
    if resume and code is not None:
        fail("--resume carries on in the saved game's own settings: leave out --code")
    if force and save is None:
        fail("--force goes with --save FILE.json")
    if save is not None:
        from farkle_trainer.training.games.gamefile import check_game_path

        check_game_path(save, force=force)
    term = open_terminal(plain)
    fresh = None
    if not resume:
        fresh = build_setup(
            vs=vs,
            players=players,
            solo=solo,
            rules_name=rules,
            target=target,
            opening=opening,
            penalty=penalty,
            coach=coach,
            seed=str(seed) if seed is not None else secrets.token_hex(4),
            code=code,
            chosen_seed=seed is not None,
        )
    # What sets up a new game, which --resume does not use. The default table cannot be told
    # from one typed: classic is the only one taken as unset.
    new_game = {
        "--vs": vs,
        "--players": players,
        "--solo": solo,
        "--target": target,
        "--opening": opening,
        "--penalty": penalty,
        "--seed": seed,
        "--coach": coach,
        "--rules": rules.strip().lower() != "classic",
    }
    unused = [option for option, value in new_game.items() if value is not None and value is not False]
    from farkle_trainer.training.mistakes import rules_file

    # Where a new game's table came from, kept with it for the positions its mistakes become.
    table_file = None if resume else rules_file(rules)
    with open_store_or_explain(data_dir, term) as store:
        if resume and unused and store.unfinished_game() is not None:
            from farkle_trainer.ui.views import play as view

            term.say(view.unused_options_line(unused))
        number = 1
        while True:
            path = None if save is None else numbered(save, number)
            if path is not None and number > 1:
                from farkle_trainer.training.games.gamefile import check_game_path

                check_game_path(path, force=force)
            final = _play(
                term, store, fresh, fast=fast, save=path, force=force, rules_file=table_file, unused=unused
            )
            if final is None or not _again(term, final.setup):
                return
            number += 1
            fixed = seed is not None or bool(final.setup.code)
            fresh = final.setup.rotated()
            # A rated game has no seed: it draws new dice as it goes.
            if not fixed and not fresh.drawn:
                fresh = replace(fresh, seed=secrets.token_hex(4))


def numbered(path: Path, number: int) -> Path:
    from farkle_trainer.training.games.gamefile import numbered as name

    return name(path, number)


def _again(term: Terminal, setup: Setup) -> bool:
    """Whether to play the same game again; input running out or q is a quiet no."""
    from farkle_trainer.training.frontend import EndOfInput
    from farkle_trainer.ui.views import play as view

    try:
        return term.yes_no(view.again_prompt(setup), default=False)
    except EndOfInput:
        return False


def _offer(term: Terminal, game: Unfinished, where: Path, fresh: Setup) -> bool | None:
    """Whether to carry on with the unfinished game (else a rated one counts as resigned, a
    training one is set aside): by default yes, as closing it may count as a loss. A game that
    cannot be played on is not offered: what starting a new game does to it is said first, and
    the answer is whether to start it (None: no).

    A coached game asked for while a rated one is unfinished is said to need a no: carried on,
    the rated game has no coach, and its ``h`` would send the player back here.
    """
    from farkle_trainer.ui.views import play as view

    if game.damage is not None:
        term.say(view.damaged_unfinished_line(game.row, game.damage, where, rated=game.rated))
        return False if term.yes_no(view.START_NEW_PROMPT, default=True) else None
    term.say(view.unfinished_line(game.row, rated=game.rated))
    if game.rated and fresh.coached:
        term.say(view.COACH_NEEDS_NO)
    return term.yes_no(view.resume_prompt(rated=game.rated), default=True)


class _GameFile:
    """Writes the game to ``path`` (if any) after each action, and once more with its ending."""

    def __init__(self, path: Path | None) -> None:
        self.path = path

    def __call__(self, state: MatchState, played: Played | None = None) -> None:
        from farkle_trainer.training.games.gamefile import GameFileError, write_game_file

        if self.path is None:
            return
        try:
            write_game_file(self.path, state, resigned=None if played is None else played.resigned)
        except OSError as exc:
            raise GameFileError(f"--save: cannot write {self.path}: {exc.strerror or exc}") from None


def _warm_before_start(term: Terminal, setup: Setup, *, unfinished: bool) -> None:
    """Solve the table before a new game is saved: stopped during the solve, the game never
    started (no die was seen), so nothing is kept of it and an unfinished game stays as it was."""
    from farkle_trainer.training.frontend import INTERRUPTED

    try:
        warm_table(term, setup)
    except KeyboardInterrupt:
        from farkle_trainer.ui.views import play as view

        term.say()
        term.say(view.NOTHING_STARTED if unfinished else view.NOTHING_SAVED)
        raise typer.Exit(INTERRUPTED) from None


def _check_save_first(save: Path, game: Unfinished | None, *, force: bool) -> None:
    """Before the unfinished game is offered: a file at ``save`` that is not that game's own
    can be written by no game here, whatever the answer, so it is refused at once."""
    from farkle_trainer.training.games.gamefile import check_replace, holds_game

    state = None if game is None else game.state
    if state is None or not holds_game(save, state):
        check_replace(save, None, force=force)


def _kept_file(row: GameRow, state: MatchState) -> tuple[Path | None, str | None]:
    """The file a resumed game was being written to, if it may still be written: the same
    game's file, or none there now. Else no file, and the note that says so."""
    from farkle_trainer.training.games import play as game
    from farkle_trainer.training.games.gamefile import GameFileError, check_game_path, check_replace
    from farkle_trainer.ui.views import play as view

    path = game.saved_file(row)
    if path is None:
        return None, None
    try:
        check_game_path(path)
        check_replace(path, state)
    except GameFileError as exc:
        gone = path.exists() or path.is_symlink()
        return None, view.file_not_written_line(path, None if gone else str(exc))
    return path, None


def _play(
    term: Terminal,
    store: Store,
    fresh: Setup | None,
    *,
    fast: bool,
    save: Path | None,
    force: bool,
    rules_file: Path | None = None,
    unused: Sequence[str] = (),
) -> MatchState | None:
    """Play one game (a new one, or the unfinished one); its last state once it has ended,
    None when it stopped or never started. ``rules_file``: the rule file a new game's table
    came from (a resumed game keeps its own). ``unused``: the options for a new game that the
    unfinished one, if carried on, does not use."""
    import time

    from farkle_trainer.training.frontend import INTERRUPTED, EndOfInput
    from farkle_trainer.ui.terminal import InteractiveFrontend

    row = store.unfinished_game()
    if fresh is not None and row is None and save is None:
        # Nothing to ask first: the tables now, before the game's own modules load the solver,
        # so a game that must be solved says so at once.
        _warm_before_start(term, fresh, unfinished=False)

    from farkle_trainer.training.games import match as m
    from farkle_trainer.training.games import play as game
    from farkle_trainer.training.games.analysis import analyse
    from farkle_trainer.training.games.gamefile import check_replace
    from farkle_trainer.ui.progress import solving
    from farkle_trainer.ui.views import play as view
    from farkle_trainer.ui.views import review as ending

    pausing = not fast and isinstance(term, InteractiveFrontend)

    def pause() -> None:
        if pausing:
            time.sleep(PAUSE_SECONDS)

    # Checking a Hard computer's moves may need its game solved: said as the solve starts.
    with solving(term):
        old = None if row is None else game.unfinished(row)
    try:
        if fresh is None:
            if old is None:
                fail("there is no unfinished game to carry on: start one with farkle-train play")
            if old.state is None:
                fail(view.cannot_resume_line(old.row, old.damage or "", rated=old.rated))
            state = old.state
            resumed = True
        else:
            if save is not None:
                _check_save_first(save, old, force=force)
            answer = old is not None and _offer(term, old, store.path, fresh)
            if answer is None:
                term.say(view.NOTHING_STARTED)
                return None
            resumed = answer
            if old is not None and old.state is not None and resumed:
                term.say(view.SETTINGS_KEPT)
                if unused:
                    term.say(view.unused_options_line(unused))
                state = old.state
            else:
                state = m.new_match(fresh)
    except EndOfInput:
        term.say(view.NOTHING_STARTED)
        return None
    file, note = save, None
    if save is not None:
        check_replace(save, state if resumed else None, force=force)
    elif resumed:
        assert row is not None
        file, note = _kept_file(row, state)
    if resumed:
        assert row is not None
        rules_file = game.saved_rules_file(row)
        warm_table(term, state.setup)
    else:
        _warm_before_start(term, state.setup, unfinished=row is not None)
        if old is not None:
            game.abandon(store, old)
            term.say(view.abandoned_line(old.row, rated=old.rated, damaged=old.state is None))
        row = game.start_game(store, state, file=file, rules_file=rules_file)
    assert row is not None
    write = _GameFile(file)
    write(state)
    term.say(view.header(state))
    if resumed:
        term.say(view.resume_line(state))
    if note is not None:
        term.say(note)
    try:
        played = game.run_game(
            term, view, store, row, state, pause=pause, also=write, file=file, rules_file=rules_file
        )
    except (KeyboardInterrupt, EndOfInput) as stop:
        if isinstance(stop, KeyboardInterrupt):
            term.say()
        term.say(view.stopped_line(game.saved_state(store.get_game(row.id))))
        if isinstance(stop, KeyboardInterrupt):
            raise typer.Exit(INTERRUPTED) from None
        return None
    final = played.state
    write(final, played)
    # A game given up before any move has nothing to analyse.
    analysis = analyse(final, resigned=played.resigned) if final.log else None
    term.show(
        ending.game_over_text(final, analysis, played.resigned),
        lambda: ending.game_over_rich(final, analysis, played.resigned),
    )
    if played.mistakes:
        from farkle_trainer.ui.views.drills import personal_line

        term.say(personal_line(played.mistakes, played.personal))
    if file is not None:
        term.say(view.saved_file_line(file))
    return final
