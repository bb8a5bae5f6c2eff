"""``games`` and ``review``: saved games, and a game's analysis again (from the store or a file)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from farkle_trainer.cli.common import (
    DataDirOpt,
    JsonOpt,
    PlainOpt,
    argument,
    command_group,
    fail,
    open_store_or_explain,
)
from farkle_trainer.ui.terminal import open_terminal

if TYPE_CHECKING:
    from farkle_trainer.store.rows import GameRow
    from farkle_trainer.training.games.match import MatchState
    from farkle_trainer.ui.terminal import Terminal


app = command_group()


def _state(row: GameRow) -> MatchState | None:
    from farkle_trainer.training.games.play import saved_state
    from farkle_trainer.training.games.setup import MatchError

    try:
        return saved_state(row)
    except MatchError:
        return None


@app.command(short_help="Saved games, newest first.")
def games(data_dir: DataDirOpt = None, json: JsonOpt = False, plain: PlainOpt = False) -> None:
    """List saved games, newest first, finished and unfinished: rated or training, result, scores.

    Example: farkle-train games
    """
    from farkle_trainer.ui.views import play as view

    term = open_terminal(plain or json)
    with open_store_or_explain(data_dir, term) as store:
        rows = [(row, _state(row)) for row in store.games()]
    if json:
        term.json({"games": [view.game_row_json(row, state) for row, state in rows]})
        return
    term.show(view.games_text(rows), lambda: view.games_rich(rows))


GameArg = Annotated[
    str,
    argument(
        "GAME", "A saved game's number (see farkle-train games), or a FILE.json written by play --save."
    ),
]


@app.command(short_help="A finished game's analysis again.")
def review(
    game: GameArg, data_dir: DataDirOpt = None, json: JsonOpt = False, plain: PlainOpt = False
) -> None:
    """Show a finished game's analysis again: decisions, error rate and rating, luck, win chances.

    A game file is checked first: its moves are played again on the dice of its seed, and a
    move that is not legal there, or a result the moves do not give, is refused.
    Example: farkle-train review 3
    """
    from farkle_trainer.training.games.analysis import analyse
    from farkle_trainer.ui.progress import solving
    from farkle_trainer.ui.views import play as view

    term = open_terminal(plain or json)
    # Checking a game's moves (a Hard computer's) and its analysis may need its game solved:
    # said as the solve starts.
    with solving(term, quiet=json):
        state, resigned, heading = _game_to_review(game, data_dir, term)
        analysis = analyse(state) if state.over else None
    if json:
        term.json(view.review_json(state, analysis, resigned))
        return
    term.say(view.review_heading(heading, state))
    term.show(
        view.game_over_text(state, analysis, resigned),
        lambda: view.game_over_rich(state, analysis, resigned),
    )


def _game_to_review(game: str, data_dir: Path | None, term: Terminal) -> tuple[MatchState, int | None, str]:
    """The game ``GAME`` names, who resigned it (if anyone) and the heading it is shown under."""
    from farkle_trainer.training.games.gamefile import read_game_file
    from farkle_trainer.training.games.play import resigned_seat

    if game.strip().isdigit():
        number = int(game)
        with open_store_or_explain(data_dir, term) as store:
            rows = {row.id: row for row in store.games()}
        row = rows.get(number)
        if row is None:
            fail(f"there is no saved game {number}: farkle-train games lists them")
        state = _state(row)
        if state is None:
            fail(f"saved game {number} cannot be read: its state is not a game")
        if not row.finished:
            fail(f"game {number} is not over: carry on with it with farkle-train play --resume")
        resigned = None
        if row.outcome == "resigned" and not state.over:
            resigned = resigned_seat(state)
        heading = f"Game {number}, started {row.started_at:%Y-%m-%d %H:%M} UTC"
    else:
        path = Path(game)
        if path.suffix.lower() != ".json":
            fail(f"GAME is a saved game's number or a FILE.json written by play --save, not {game!r}")
        saved = read_game_file(path)
        state, resigned = saved.state, saved.resigned
        if not state.over and resigned is None:
            fail(f"the game in {path} is not over (turn {state.turn}): it can be reviewed once it ends")
        heading = f"Game from {path} (every move checked on its dice)"
    return state, resigned, heading
