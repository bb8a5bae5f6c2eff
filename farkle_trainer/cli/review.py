"""``games`` and ``review``: saved games, and a game's analysis again (from the store or a file)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from farkle_trainer.cli.app import command_group
from farkle_trainer.cli.errors import fail
from farkle_trainer.cli.options import DataDirOpt, JsonOpt, PlainOpt, argument
from farkle_trainer.cli.params import number_or_text, quoted
from farkle_trainer.cli.storage import open_store_or_explain
from farkle_trainer.ui.terminal import open_terminal

if TYPE_CHECKING:
    from farkle_trainer.engine.tables import Tables
    from farkle_trainer.store.db import Store
    from farkle_trainer.store.rows import DailyAttempt, GameRow
    from farkle_trainer.training.classroom.verify import ChallengeGame
    from farkle_trainer.training.games.analysis import Analysis
    from farkle_trainer.training.games.match import MatchState
    from farkle_trainer.training.mistakes import Kept
    from farkle_trainer.ui.terminal import Terminal


app = command_group()


def _listed(row: GameRow) -> tuple[MatchState | None, str | None]:
    """A stored game as the list shows it: its state as its moves replay (the computers' moves
    are checked by review and stats, not here), or what keeps it from being read."""
    from farkle_trainer.training.games.play import UnreadableGame, saved_state
    from farkle_trainer.training.games.setup import MatchError

    try:
        return saved_state(None, row), None
    except UnreadableGame:
        return None, "its saved state cannot be read"
    except MatchError:
        return None, "its saved moves do not replay"


@app.command(short_help="Saved games, daily games too, newest first.")
def games(data_dir: DataDirOpt = None, json: JsonOpt = False, plain: PlainOpt = False) -> None:
    """List saved games, newest first, finished and unfinished: whole games (rated or training,
    result, scores) and daily games (official or practice, score).

    Example: farkle-train games
    """
    from farkle_trainer.training.games.daily import saved_game
    from farkle_trainer.ui.views import games as view

    term = open_terminal(plain or json)
    with open_store_or_explain(data_dir, term) as store:
        rows = view.saved_games(
            [(row, *_listed(row)) for row in store.games()],
            [(a, saved_game(a)) for a in store.daily_attempts()],
        )
    if json:
        term.json(view.games_json(rows))
        return
    term.show(view.games_text(rows), lambda: view.games_rich(rows))


GameArg = Annotated[
    str,
    argument(
        "GAME",
        "A saved game's or challenge's number or a daily game's d-number (see farkle-train games), a "
        "day's date (its daily game: the official one, else the latest practice), a FILE.json written "
        "by play --save, or a class challenge's result file.",
    ),
]

MovesOpt = Annotated[
    bool,
    typer.Option(
        "--moves",
        help="Print every move after the analysis: the position, the luck of the roll, the play made "
        "and every play of the roll with its value, best first (on a terminal, n walks through them "
        "one at a time instead, m from mistake to mistake).",
    ),
]


@app.command(short_help="A finished game's analysis again, move by move.")
def review(
    game: GameArg,
    moves: MovesOpt = False,
    data_dir: DataDirOpt = None,
    json: JsonOpt = False,
    plain: PlainOpt = False,
) -> None:
    """Show a finished game's analysis again: decisions, error rate and rating, the play against
    perfect play, luck, win chances; then every move, one at a time on a terminal (n, p or the
    arrows; m and M the next and previous mistake; a number and Enter that move; q leaves).

    A game given up or set aside, or a challenge stopped, is analysed up to where it stopped. A
    game file (or a challenge's result file) is checked first: its moves are played again on the
    dice of its seed (or class code), and a move that is not legal there, or a result the moves
    do not give, is refused.
    Example: farkle-train review 3
    """
    from farkle_trainer.cli.storage import solved_tables

    term = open_terminal(plain or json)
    tables = solved_tables(data_dir)
    text = game.strip()
    daily = _daily_reference(text)
    if daily is not None:
        with open_store_or_explain(data_dir, term) as store:
            attempt = _find_daily(store, daily, text)
            kept = None if json else _kept_daily(tables, store, attempt)
        _review_daily(tables, term, attempt, moves=moves, json=json, kept=kept)
        return
    from farkle_trainer.training.games.analysis import analyse
    from farkle_trainer.training.games.gamefile import GameFileError, read_game_file
    from farkle_trainer.training.games.play import SET_ASIDE, given_up_seat
    from farkle_trainer.ui.progress import solving
    from farkle_trainer.ui.views import review as view
    from farkle_trainer.ui.views.games import is_challenge

    stopped = False
    kept = None
    number = number_or_text(game)
    if isinstance(number, int):
        with open_store_or_explain(data_dir, term) as store:
            rows = {row.id: row for row in store.games()}
            row = rows.get(number)
            if row is None:
                fail(f"there is no saved game {number}: farkle-train games lists them")
            state = _stored_state(tables, term, row, quiet=json)
            kept = None if json else _kept(tables, store, row, state)
        challenge = is_challenge(row)
        if not row.finished and not challenge:
            fail(f"game {number} is not over: carry on with it with farkle-train play --resume")
        # A challenge is never carried on: one not over is shown up to where it stopped.
        stopped = (row.outcome == SET_ASIDE or challenge) and not state.over
        resigned = None if stopped else given_up_seat(state, row.outcome)
        started = f"started {row.started_at:%Y-%m-%d %H:%M} UTC"
        heading = f"Game {number}, {started}"
        if challenge:
            heading = f"Class challenge {state.setup.class_code}, game {number}, {started}"
    else:
        path = Path(game)
        if path.suffix.lower() != ".json":
            fail(
                "GAME is a saved game's number, a daily game's d-number or date, or a FILE.json written "
                f"by play --save or challenge --save-result, not {quoted(game)}"
            )
        # Checking a Hard computer's moves may need the game solved: said as the solve starts.
        with solving(term, tables, quiet=json):
            try:
                saved = read_game_file(tables, path)
            except GameFileError as not_a_game:
                saved = None
                result = _challenge_result(tables, path, not_a_game)
        if saved is None:
            # A class challenge's result file: its moves played again on the class's dice.
            state, resigned, stopped = result.state, None, not result.state.over
            who = f" of {result.name}" if result.name else ""
            heading = (
                f"Class challenge {result.code}{who} from {path} (every move checked on the class's dice)"
            )
        else:
            state, resigned = saved.state, saved.resigned
            if not state.over and resigned is None:
                fail(f"the game in {path} is not over (turn {state.turn}): it can be reviewed once it ends")
            heading = f"Game from {path} (every move checked on its dice)"
    # A game given up (or set aside) before any move has nothing to analyse.
    ended = state.over or ((resigned is not None or stopped) and bool(state.log))
    with solving(term, tables, quiet=json):
        analysis = analyse(tables, state, resigned=resigned, stopped=stopped) if ended else None
    if json:
        term.json(view.review_json(state, analysis, resigned))
        return
    term.say(view.review_heading(heading, state))
    term.show(
        view.game_over_text(state, analysis, resigned, stopped=stopped),
        lambda: view.game_over_rich(state, analysis, resigned, stopped=stopped),
    )
    if kept is not None and kept.mistakes:
        from farkle_trainer.ui.views.drills import personal_line

        term.say(personal_line(kept.mistakes, kept.positions, due_now=kept.due))
    _moves(term, state, analysis, every=moves)


def _kept(tables: Tables, store: Store, row: GameRow, state: MatchState) -> Kept:
    """The personal positions a stored game's decisions left that the store still has."""
    from farkle_trainer.training.games.play import graded_decisions, saved_rules_file
    from farkle_trainer.training.mistakes import kept_of

    return kept_of(store, graded_decisions(tables, state, saved_rules_file(row)))


def _challenge_result(tables: Tables, path: Path, not_a_game: Exception) -> ChallengeGame:
    """The game a class challenge's result file records, every claim of it checked; a file that
    is no result at all is refused as ``not_a_game`` says."""
    from farkle_trainer.training.classroom.results import NotAResult, ResultError, read_result
    from farkle_trainer.training.classroom.verify import challenge_game

    try:
        return challenge_game(tables, read_result(path))
    except NotAResult:
        raise not_a_game from None
    except ResultError as exc:
        fail(f"{path} cannot be reviewed: {exc}")


def _stored_state(tables: Tables, term: Terminal, row: GameRow, *, quiet: bool) -> MatchState:
    """A stored game as its moves replay, or one line that says why it cannot be reviewed."""
    from farkle_trainer.training.games.play import UnreadableGame, saved_state
    from farkle_trainer.training.games.setup import MatchError
    from farkle_trainer.ui.progress import solving

    try:
        # Checking a Hard computer's moves may need the game solved: said as the solve starts.
        with solving(term, tables, quiet=quiet):
            return saved_state(tables, row)
    except UnreadableGame as exc:
        fail(str(exc))
    except MatchError as exc:
        fail(f"saved game {row.id} cannot be reviewed: {exc}")


def _daily_reference(text: str) -> int | str | None:
    """A daily game's number (``d4``), or a date (``2026-11-29``); None for anything else."""
    import re

    from farkle_trainer.ui.views.games import DAILY_PREFIX

    if number := re.fullmatch(rf"{DAILY_PREFIX}([0-9]{{1,18}})", text, re.IGNORECASE):
        return int(number[1])
    if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text):
        return text
    return None


def _find_daily(store: Store, reference: int | str, text: str) -> DailyAttempt:
    from farkle_trainer.training.games.daily import parse_day

    if isinstance(reference, int):
        found = next((a for a in store.daily_attempts() if a.id == reference), None)
        if found is None:
            fail(f"there is no daily game {text}: farkle-train games lists them")
        return found
    day = parse_day(reference)
    attempt = store.daily_attempt(day, official=True) or store.daily_attempt(day, official=False)
    if attempt is None:
        fail(f"there is no daily game of {day.isoformat()} here: farkle-train games lists them")
    return attempt


def _kept_daily(tables: Tables, store: Store, attempt: DailyAttempt) -> Kept | None:
    """The personal positions a daily game's decisions left that the store still has."""
    from datetime import date

    from farkle_trainer.training.games.analysis import review
    from farkle_trainer.training.games.daily import kept_mistakes, saved_game

    state = saved_game(attempt)
    return (
        None
        if state is None
        else kept_mistakes(tables, store, date.fromisoformat(attempt.date), review(tables, state))
    )


def _review_daily(
    tables: Tables,
    term: Terminal,
    attempt: DailyAttempt,
    *,
    moves: bool,
    json: bool,
    kept: Kept | None = None,
) -> None:
    from datetime import date

    from farkle_trainer.cli.daily import clock
    from farkle_trainer.training.games.analysis import analyse, review
    from farkle_trainer.training.games.daily import resume_command, saved_game, utc_date
    from farkle_trainer.training.games.tenturns import account
    from farkle_trainer.ui.views import daily as view
    from farkle_trainer.ui.views import review as review_view
    from farkle_trainer.ui.views.games import daily_name

    name = daily_name(attempt)
    state = saved_game(attempt)
    if state is None:
        fail(f"daily game {name} cannot be reviewed: its saved game is damaged")
    if not attempt.finished:
        day, today = date.fromisoformat(attempt.date), utc_date(clock())
        command = resume_command(day, today, official=attempt.official)
        fail(f"daily game {name} is not over: carry on with it with {command}")
    analysis = analyse(tables, state, stopped=not state.over)
    if json:
        data = review_view.review_json(state, analysis, None)
        term.json({"daily": {"id": name, "date": attempt.date, "official": attempt.official}, **data})
        return
    reviews = review(tables, state)
    lines = [
        view.review_heading(attempt),
        *view.attempt_review_lines(attempt, state, account(tables, state, reviews), reviews),
    ]
    term.show("\n".join(lines), lambda: review_view.lines_rich(lines))
    if kept is not None and kept.mistakes:
        from farkle_trainer.ui.views.drills import personal_line

        term.say(personal_line(kept.mistakes, kept.positions, due_now=kept.due))
    _moves(term, state, analysis, every=moves)


def _moves(term: Terminal, state: MatchState, analysis: Analysis | None, *, every: bool) -> None:
    """Every move, printed (``--moves``, or plain text asked for them), or walked through one
    at a time on a terminal."""
    from farkle_trainer.ui.terminal import InteractiveFrontend
    from farkle_trainer.ui.views import moves as view

    interactive = isinstance(term, InteractiveFrontend)
    if analysis is None or not state.log or not (every or interactive):
        return
    walked = analysis.steps
    if every or not isinstance(term, InteractiveFrontend):
        term.say()
        term.show("\n".join(view.moves_lines(state, walked)), lambda: view.moves_rich(state, walked))
        return
    from farkle_trainer.training.frontend import INTERRUPTED
    from farkle_trainer.ui.walk import walk

    count = len(walked)
    try:
        walk(
            term,
            count,
            lambda i: view.step_rich(state, walked[i], i + 1, count),
            lambda i: view.walk_prompt(i + 1, count),
            intro=view.walk_intro(state),
            words=view.WalkWords.of(state),
            marked=view.mistakes(state, walked),
        )
    except KeyboardInterrupt:
        raise typer.Exit(INTERRUPTED) from None
