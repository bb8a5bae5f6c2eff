"""``farkle-train games``: every saved game, whole games, class challenges and daily games alike,
newest first.

A whole game or a challenge is named by its number, a daily game by ``d`` and its own number
(``d4``), so ``farkle-train review`` opens either from the name the list shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from farkle_trainer.engine.notation import plural
from farkle_trainer.engine.notation import points as pts
from farkle_trainer.store.games import CHALLENGE_GAME
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games.play import SET_ASIDE, given_up_seat
from farkle_trainer.training.games.setup import SOLO_TURNS, rated_by_an_earlier_rule
from farkle_trainer.ui.views.fit import fit
from farkle_trainer.ui.views.play import line_up, scores_text, wins

if TYPE_CHECKING:
    from rich.console import RenderableType

    from farkle_trainer.store.rows import DailyAttempt, GameRow

#: How a daily game is named in the list and to ``review``: ``d`` and the attempt's number.
DAILY_PREFIX = "d"


def daily_name(attempt: DailyAttempt) -> str:
    return f"{DAILY_PREFIX}{attempt.id}"


@dataclass(frozen=True)
class Saved:
    """One line of the list: a whole game or a daily game, with its state when it can be read."""

    started_at: datetime
    game: GameRow | None = None
    daily: DailyAttempt | None = None
    state: m.MatchState | None = None
    #: Why a whole game's state is None: it cannot be read, or its moves do not replay.
    problem: str | None = None


def saved_games(
    games: Sequence[tuple[GameRow, m.MatchState | None, str | None]],
    dailies: Sequence[tuple[DailyAttempt, m.MatchState | None]],
) -> list[Saved]:
    """Whole games (each with its state, or why there is none) and daily games in one list,
    newest first."""
    rows = [Saved(row.started_at, game=row, state=state, problem=why) for row, state, why in games]
    rows += [Saved(a.started_at, daily=a, state=state) for a, state in dailies]
    return sorted(rows, key=lambda s: s.started_at, reverse=True)


def is_challenge(row: GameRow) -> bool:
    return row.kind == CHALLENGE_GAME


def result_words(state: m.MatchState, outcome: str | None, finished: bool, *, challenge: bool = False) -> str:
    if challenge and not state.over:
        # A challenge is never carried on: one not over stopped there (or its terminal closed).
        return f"stopped at turn {min(state.turn, SOLO_TURNS)}"
    if not finished:
        return f"unfinished (turn {state.turn})"
    if outcome == SET_ASIDE and not state.over:
        return f"set aside at turn {state.turn}"
    resigned = given_up_seat(state, outcome)
    winners = m.final_winners(state, resigned)
    if resigned is not None:
        if not winners:
            return "resigned"
        return f"{state.setup.players[resigned].name} resigned, {wins(state.setup, winners)}"
    form = state.setup.form
    if form.solo:
        if form.turn_limit is not None:
            return f"{pts(state.scores[0])} in {form.turn_limit} turns"
        return f"{pts(state.setup.target)} in {plural(state.turns[0], 'turn')}"
    assert winners is not None
    return wins(state.setup, winners)


def daily_result_words(attempt: DailyAttempt, state: m.MatchState | None) -> str:
    if attempt.damage is not None or state is None:
        return "its saved game is damaged and scores nothing"
    if not attempt.finished:
        return f"unfinished (turn {state.turn} of {SOLO_TURNS})"
    if state.over:
        return f"{pts(state.banked)} in {SOLO_TURNS} turns"
    closed = "left unfinished" if attempt.official else "closed to play again"
    return f"{pts(state.banked)}, {closed} at turn {state.turn}"


def _started(when: datetime) -> str:
    return f"{when:%Y-%m-%d %H:%M}"


def _kind(row: GameRow, state: m.MatchState | None) -> str:
    """Rated or training, by the one rule: a game an earlier version rated against two or three
    computers is training, as the stats count it."""
    earlier = state is not None and rated_by_an_earlier_rule(state.setup)
    return "rated" if row.rated and not earlier else "training"


def _daily_kind(attempt: DailyAttempt) -> str:
    return "official daily" if attempt.official else "daily practice"


UNREADABLE = "its saved state cannot be read"


def _who(row: GameRow, state: m.MatchState) -> str:
    """Who played: the line-up, or the class challenge it was."""
    return f"class challenge {state.setup.class_code}" if is_challenge(row) else line_up(state.setup)


def _result(row: GameRow, state: m.MatchState) -> str:
    return result_words(state, row.outcome, row.finished, challenge=is_challenge(row))


def game_row_line(row: GameRow, state: m.MatchState | None, problem: str | None = None) -> str:
    when = f"{_started(row.started_at)} UTC"
    if state is None:
        return f"Game {row.id}, {when}, {_kind(row, state)}: {problem or UNREADABLE}."
    return (
        f"Game {row.id}, {when}: {_who(row, state)}, {_kind(row, state)}; {_result(row, state)}; "
        f"{scores_text(state)}."
    )


def daily_row_line(attempt: DailyAttempt, state: m.MatchState | None) -> str:
    when = f"{_started(attempt.started_at)} UTC"
    kind = "official game" if attempt.official else "practice"
    result = daily_result_words(attempt, state)
    return f"Daily {daily_name(attempt)}, {when}: {kind} of {attempt.date}; {result}."


def _line(s: Saved) -> str:
    if s.daily is not None:
        return daily_row_line(s.daily, s.state)
    assert s.game is not None
    return game_row_line(s.game, s.state, s.problem)


NO_GAMES = "No saved games yet: play one with farkle-train play or farkle-train daily."


def _games_heading(count: int) -> str:
    return f"Saved games, newest first ({count}); farkle-train review ID shows one again:"


def games_text(rows: Sequence[Saved]) -> str:
    if not rows:
        return NO_GAMES
    return "\n".join([_games_heading(len(rows)), *(_line(s) for s in rows)])


def _cells(s: Saved) -> tuple[str, ...]:
    if s.daily is not None:
        a = s.daily
        banked = "" if s.state is None else f"{pts(s.state.banked)} banked"
        return (daily_name(a), _started(a.started_at), _daily_kind(a), daily_result_words(a, s.state), banked)
    row = s.game
    assert row is not None
    if s.state is None:
        return (str(row.id), _started(row.started_at), _kind(row, None), s.problem or UNREADABLE, "")
    kind = f"challenge {s.state.setup.class_code}" if is_challenge(row) else _kind(row, s.state)
    return (str(row.id), _started(row.started_at), kind, _result(row, s.state), scores_text(s.state))


def _unfinished(s: Saved) -> bool:
    """A game that can be carried on: a challenge never is."""
    if s.game is not None and is_challenge(s.game):
        return False
    row = s.daily or s.game
    assert row is not None
    return not row.finished


def games_rich(rows: Sequence[Saved]) -> RenderableType:
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    if not rows:
        return Text(NO_GAMES)
    # The scores name the players in order, so the table leaves out the plain lines' line-up.
    table = Table()
    for name, justify in [
        ("game", "right"),
        ("started (UTC)", "left"),
        ("kind", "left"),
        ("result", "left"),
        ("scores", "left"),
    ]:
        table.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for s in rows:
        table.add_row(*_cells(s), style="bold" if _unfinished(s) else "")
    return fit(Group(Text(_games_heading(len(rows))), table), games_text(rows))


def game_row_json(row: GameRow, state: m.MatchState | None) -> dict[str, object]:
    data: dict[str, object] = {
        "id": row.id,
        "started_at": row.started_at.isoformat(),
        "finished_at": None if row.finished_at is None else row.finished_at.isoformat(),
        "kind": _kind(row, state),
        "game": row.kind,
        "finished": row.finished,
        "outcome": row.outcome,
        "score": row.score,
    }
    if state is not None:
        data["players"] = [{"name": p.name, "level": p.level and p.level.value} for p in state.setup.players]
        data["scores"] = list(state.scores)
        winners = m.final_winners(state, given_up_seat(state, row.outcome, finished=row.finished))
        data["winners"] = None if winners is None else [state.setup.players[i].name for i in winners]
        data["result"] = _result(row, state)
        data["target"] = state.setup.target
        data["rules"] = state.setup.rules.name
        data["code"] = state.setup.class_code
    return data


def daily_row_json(attempt: DailyAttempt, state: m.MatchState | None) -> dict[str, object]:
    return {
        "id": daily_name(attempt),
        "date": attempt.date,
        "official": attempt.official,
        "started_at": attempt.started_at.isoformat(),
        "finished_at": None if attempt.finished_at is None else attempt.finished_at.isoformat(),
        "finished": attempt.finished,
        "over": None if state is None else state.over,
        "score": None if state is None else state.banked,
        "turn": None if state is None else min(state.turn, SOLO_TURNS),
        "damaged": attempt.damage is not None or state is None,
        "result": daily_result_words(attempt, state),
    }


def games_json(rows: Sequence[Saved]) -> dict[str, object]:
    """Whole games under ``games`` (as before daily games were listed), daily games under ``daily``."""
    return {
        "games": [game_row_json(s.game, s.state) for s in rows if s.game is not None],
        "daily": [daily_row_json(s.daily, s.state) for s in rows if s.daily is not None],
    }
