"""Playing a game through a front end: people answer prompts, computers act on screen.

Every game is played by this one loop, written once for both front ends, on the one state
machine (:mod:`~farkle_trainer.training.games.match`): whole games (``play``), the daily game
and class challenges. Every word is the front end's (a :class:`GameView`: see
:mod:`farkle_trainer.ui.views.play` and :mod:`farkle_trainer.ui.views.daily`). A person
answers in the same words in every game: dice by face or place, ``b``/``r``, ``u`` or other
dice to change a set-aside until the next roll, ``h`` for a hint (where hints are on),
``resign`` (confirmed, where a game may be given up), ``restart`` (confirmed, where a
practice game may start again) and ``q``. In a last turn, banking short of the leader is
confirmed first, since it loses the game.

Every state is handed to ``save`` as soon as it exists, so a game stopped in any way
(``q``, Ctrl-C, a killed process) resumes on the same roll.

A game kept in the store is read back by playing its moves again on its dice
(:func:`saved_state`): what the store says of its scores or its result is never taken as it
is, and the stats count a rated game as its moves replay (:func:`official_result`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from enum import Enum
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from farkle_trainer.engine import credibility
from farkle_trainer.engine.credibility import Evidence
from farkle_trainer.engine.dice import FACES
from farkle_trainer.engine.errors import RUNTIME_FAILURE, FarkleError
from farkle_trainer.engine.grading import Grade
from farkle_trainer.engine.notation import UNDO_WORDS, AnswerError, parse_bank_or_roll, parse_selection
from farkle_trainer.engine.ranked import Ranked
from farkle_trainer.store.errors import StaleAttemptError
from farkle_trainer.store.games import DAMAGED
from farkle_trainer.training.frontend import Frontend
from farkle_trainer.training.games import computers
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games.analysis import Review, grading_unit, review_move, values
from farkle_trainer.training.games.dice import DiceSource
from farkle_trainer.training.games.setup import (
    MatchError,
    Setup,
    rated_by_an_earlier_rule,
)
from farkle_trainer.training.progress import GameStats, RatedResult, Unverifiable, Verdict, verdicts_stats

if TYPE_CHECKING:
    from rich.console import RenderableType

    from farkle_trainer.engine.tables import Tables
    from farkle_trainer.store.db import Store
    from farkle_trainer.store.rows import GameRow, Mistake

#: The coach warns about a play graded this or worse (each unit has its own bounds).
WARN_FROM: tuple[Grade, ...] = (Grade.MISTAKE, Grade.BLUNDER)
HINT_WORDS = ("h", "hint", "?")
RESIGN_WORDS = ("resign",)
RESTART_WORDS = ("restart",)


class Command(Enum):
    """Answers that are not moves. ``q`` (stopping, the game saved) is the front end's, the same
    at every prompt of every activity."""

    HINT = "hint"
    UNDO = "undo"
    RESIGN = "resign"
    RESTART = "restart"


@dataclass(frozen=True)
class Position:
    """What a hint knows about the dice showing: the values of every play, and the kept dice."""

    state: m.MatchState
    values: Ranked
    kept: tuple[int, ...]


class GameView(Protocol):
    """Every line a game says while it is played, as a front end words it."""

    SET_ASIDE_PROMPT: str
    #: The reply to ``u`` at the set-aside prompt, where nothing is set aside yet (None: ``u``
    #: is read as dice, and refused as dice).
    NOTHING_SET_ASIDE: str | None

    def turn_line(self, state: m.MatchState) -> str | None: ...
    def roll_line(self, state: m.MatchState) -> str: ...
    def thrown_line(self, move: m.Move) -> str | None: ...
    def farkle_line(self, move: m.Move, after: m.MatchState) -> str: ...
    def kept_line(self, state: m.MatchState) -> str: ...
    def hot_dice_line(self, state: m.MatchState) -> str | None: ...
    def action_prompt(self, state: m.MatchState) -> str: ...
    def bank_line(self, move: m.Move, after: m.MatchState) -> str: ...
    def hint_line(self, position: Position, *, first: bool) -> str: ...
    def hint_rich(self, position: Position, *, first: bool) -> RenderableType: ...
    def computer_line(self, before: m.MatchState, choice: computers.Choice) -> str: ...
    def final_round_line(self, state: m.MatchState) -> str: ...
    def coach_line(self, review: Review) -> str: ...
    def resign_prompt(self, state: m.MatchState) -> str: ...
    def short_bank_prompt(self, state: m.MatchState) -> str | None: ...


Ending = Literal["over", "resigned", "restarted"]


@dataclass(frozen=True)
class Played:
    """How the loop ended: the game over, a person resigned (the seat that did), or a person
    asked to play the game again from its start."""

    state: m.MatchState
    ending: Ending
    resigned: int | None = None
    #: The owner's decisions graded an inaccuracy or worse, and the personal positions they are
    #: kept as (the same position twice is one), once the game is recorded.
    mistakes: int = 0
    personal: int = 0


def position(tables: Tables, state: m.MatchState) -> Position:
    """The values of the roll showing for its mover (the state's kept dice taken back first)."""
    move = m.pending_move(state, (), "roll")
    unit = grading_unit(state.setup, move)
    return Position(state, values(tables, state.setup, move, unit, m.runs_of(state, state.seat)), state.kept)


Answer = Literal["bank", "roll"] | Command | tuple[int, ...]


def _ask(
    front: Frontend,
    view: GameView,
    state: m.MatchState,
    *,
    no_hints: str | None,
    resign: bool,
    restart: str | None,
    no_restart: str | None,
) -> Answer:
    """The person's answer to the dice showing: a set-aside (at the set-aside prompt, or one
    that replaces the set-aside made), bank or roll on, or a command."""

    def command(text: str) -> Command | None:
        word = text.strip().lower()
        if word in HINT_WORDS:
            if no_hints is not None:
                raise AnswerError(no_hints)
            return Command.HINT
        if resign and word in RESIGN_WORDS:
            return Command.RESIGN
        if word in RESTART_WORDS and (restart or no_restart):
            if not restart:
                raise AnswerError(no_restart or "")
            return Command.RESTART
        if word in UNDO_WORDS:
            if state.phase == "choose":
                return Command.UNDO
            if view.NOTHING_SET_ASIDE is not None:
                raise AnswerError(view.NOTHING_SET_ASIDE)
        return None

    def pick(text: str) -> Answer:
        return command(text) or m.check_set_aside(state.rules, state.roll, parse_selection(text, state.roll))

    def decide(text: str) -> Answer:
        return command(text) or _decision(state, text)

    if state.phase == "pick":
        return front.ask(view.SET_ASIDE_PROMPT, pick)
    return front.ask(view.action_prompt(state), decide)


def _decision(state: m.MatchState, text: str) -> Answer:
    """``b``/``r``, or a new set-aside from the same roll."""
    action = parse_bank_or_roll(text, state.roll)
    if isinstance(action, tuple):
        return m.check_set_aside(state.rules, state.roll, action)
    if action == "undo":
        return Command.UNDO
    if action == "bank" and not state.can_bank:
        raise AnswerError(
            f"on 0 you may bank only {state.setup.opening:,} or more (the opening minimum): roll on"
        )
    return action


def _say(front: Frontend, text: str | None, style: str | None = None) -> None:
    if text is not None:
        front.say(text, style=style)


def _show_throw(front: Frontend, view: GameView, before: m.MatchState, after: m.MatchState) -> None:
    """A roll just thrown: the dice, or the Farkle that ended the turn."""
    if after.phase == "pick" and after.turn == before.turn:
        front.say(view.roll_line(after), style="bold")
        return
    move = after.log[-1]
    _say(front, view.thrown_line(move), style="bold")
    front.say(view.farkle_line(move, after), style="bold red")
    _after_turn(front, view, before, after)


def _show_kept(front: Frontend, view: GameView, state: m.MatchState) -> None:
    front.say(view.kept_line(state))
    _say(front, view.hot_dice_line(state), style="bold green")


def _after_turn(front: Frontend, view: GameView, before: m.MatchState, after: m.MatchState) -> None:
    if before.closer is None and after.closer is not None and not after.over:
        front.say(view.final_round_line(after), style="bold")


def play_game(
    tables: Tables,
    front: Frontend,
    view: GameView,
    state: m.MatchState,
    source: DiceSource,
    *,
    save: Callable[[m.MatchState], None],
    pause: Callable[[], None] = lambda: None,
    hints: bool = True,
    no_hints: str = "hints are off in this game",
    resign: bool = False,
    restart: str | None = None,
    no_restart: str | None = None,
    decided: Callable[[m.Move], None] | None = None,
    together: Callable[[], AbstractContextManager[object]] = nullcontext,
) -> Played:
    """Play ``state`` until the game is over, a person resigns or asks to start again, saving
    every state.

    ``pause`` runs after each of a computer's actions, so a person can follow them. With
    ``hints`` off a person who asks for one is told ``no_hints``; with ``resign`` a person may
    give the game up; with ``restart`` (the question that confirms it), end it to play it
    again from its start (without it, a person who asks is told ``no_restart``, if given).
    ``decided`` is told each
    decision (bank or roll on) as it is saved, both inside one ``together()`` block (the
    store's transaction), so neither is kept without the other. Input running out or ``q`` raises
    :class:`~farkle_trainer.training.frontend.EndOfInput`, Ctrl-C ``KeyboardInterrupt``: the
    game is saved up to the last action either way.
    """
    refusal = None if hints else no_hints
    if state.roll:
        front.say(view.roll_line(state), style="bold")
    if state.kept:
        _show_kept(front, view, state)
    asked_before = state.hinted
    while not state.over:
        before = state
        if state.phase == "roll":
            _say(front, view.turn_line(state))
            state = m.roll(state, source)
            save(state)
            _show_throw(front, view, before, state)
            if not before.player.human:
                pause()
            continue
        if not state.player.human:
            choice = computers.choose(tables, state)
            state = m.play(state, source, choice.keep, choice.action)
            save(state)
            front.say(view.computer_line(before, choice))
            if choice.action == "roll":
                _show_throw(front, view, before, state)
            else:
                _after_turn(front, view, before, state)
            pause()
            continue
        answer = _ask(
            front, view, state, no_hints=refusal, resign=resign, restart=restart, no_restart=no_restart
        )
        if isinstance(answer, tuple):
            # A set-aside may change until the next roll is shown: no new dice are seen.
            if state.phase == "choose":
                state = m.undo_set_aside(state)
            state = m.set_aside(state, answer)
            save(state)
            _show_kept(front, view, state)
        elif answer is Command.UNDO:
            state = m.undo_set_aside(state)
            save(state)
            front.say(view.roll_line(state), style="bold")
        elif answer is Command.HINT:
            state = m.ask_hint(state)
            save(state)
            at = position(tables, state)
            first = not asked_before
            front.show(view.hint_line(at, first=first), partial(view.hint_rich, at, first=first))
            asked_before = True
        elif answer is Command.RESIGN:
            if front.yes_no(view.resign_prompt(state), default=False):
                return Played(state, "resigned", state.seat)
        elif answer is Command.RESTART:
            if restart is not None and front.yes_no(restart, default=False):
                return Played(state, "restarted")
        elif answer == "bank" and not _bank_anyway(front, view, state):
            continue
        else:
            state = _decide(
                tables, front, view, state, answer, source, save=save, decided=decided, together=together
            )
    return Played(state, "over")


def _bank_anyway(front: Frontend, view: GameView, state: m.MatchState) -> bool:
    """Banking behind the leader in a last turn loses the game: the view says so and asks
    first, and only a yes banks."""
    question = view.short_bank_prompt(state)
    return question is None or front.yes_no(question, default=False)


def _decide(
    tables: Tables,
    front: Frontend,
    view: GameView,
    state: m.MatchState,
    action: Literal["bank", "roll"],
    source: DiceSource,
    *,
    save: Callable[[m.MatchState], None],
    decided: Callable[[m.Move], None] | None,
    together: Callable[[], AbstractContextManager[object]],
) -> m.MatchState:
    """A person banks or rolls on, the coach warning first where it is on."""
    before = state
    if state.setup.coached:
        review = review_move(
            tables, state.setup, m.pending_move(state, state.kept, action), m.runs_of(state, state.seat)
        )
        if review.grade in WARN_FROM:
            front.say(view.coach_line(review), style="yellow")
    state = m.bank(state) if action == "bank" else m.roll_on(state, source)
    move = state.log[len(before.log)]
    with together():
        save(state)
        if decided is not None:
            decided(move)
    if action == "bank":
        front.say(view.bank_line(move, state))
        _after_turn(front, view, before, state)
    else:
        _show_throw(front, view, before, state)
    return state


# -- a game kept in the store

#: What a person who asks for a hint in a rated game is told: the game stays rated.
RATED_NO_HINTS = (
    "the coach is off in a rated game: finish this one or resign it, and then farkle-train play "
    "--coach starts a coached game"
)
#: The answer to ``restart`` in a whole game.
NO_RESTART = "a whole game does not start again: resign gives it up, q stops and saves it"
#: The outcome of a training game closed because another was started: kept, never finished.
SET_ASIDE = "set-aside"


def outcome(state: m.MatchState, played: Played | None) -> str:
    """How a game ended for the stats: the person's win, loss or shared win in a rated game;
    ``resigned`` when a person gave up; ``over`` for any other finished game."""
    if played is not None and played.ending == "resigned":
        return "resigned"
    if not state.rated:
        return "over"
    seat = state.setup.humans[0]
    share = state.result(seat)
    return "win" if share == 1.0 else "loss" if share == 0.0 else "shared"


def resigned_seat(state: m.MatchState) -> int | None:
    """Who gave up a game the store keeps as resigned: the person whose turn it was, or the
    first person (a game closed by starting another on a computer's turn)."""
    humans = state.setup.humans
    return state.seat if state.player.human else (humans[0] if humans else None)


def given_up_seat(state: m.MatchState, outcome: str | None, *, finished: bool = True) -> int | None:
    """Who gave up a stored game (:func:`resigned_seat`): a finished game whose moves stop short of
    its end, whatever outcome the store keeps for it, as the stats count it (:func:`official_result`);
    None for a game over, unfinished or set aside."""
    if not finished or state.over or outcome == SET_ASIDE:
        return None
    return resigned_seat(state)


def person_score(state: m.MatchState) -> int:
    humans = state.setup.humans
    return state.scores[humans[0]] if humans else max(state.scores)


def describe_level(setup: Setup) -> str | None:
    """The computers' levels, ``hard`` or ``easy,hard``; None without computers."""
    levels = [p.level.value for p in setup.players if p.level is not None]
    return ",".join(levels) or None


#: The key of a stored game's state that keeps the file it is also written to (``play --save``).
FILE_KEY = "file"
#: The key that keeps the rule file a game's table came from (``play --rules FILE.toml``), so
#: that its mistakes can be asked again under that file.
RULES_FILE_KEY = "rules_file"


def stored(state: m.MatchState, file: Path | None = None, rules_file: Path | None = None) -> dict[str, Any]:
    """A game's state as the store keeps it, with the file it is written to, if any, so that a
    game carried on later keeps writing it, and the rule file its table came from."""
    data = state.to_dict()
    if file is not None:
        data[FILE_KEY] = str(file.absolute())
    if rules_file is not None:
        data[RULES_FILE_KEY] = str(rules_file.absolute())
    return data


def saved_file(row: GameRow, key: str = FILE_KEY) -> Path | None:
    """The file a stored game was being written to, if any (``key``: or the rule file its table
    came from)."""
    value = (row.state or {}).get(key)
    return Path(value) if isinstance(value, str) and value else None


def saved_rules_file(row: GameRow) -> Path | None:
    """The rule file a stored game's table came from; None for a preset (or a game saved before
    it was kept)."""
    return saved_file(row, RULES_FILE_KEY)


def start_game(
    store: Store, state: m.MatchState, *, file: Path | None = None, rules_file: Path | None = None
) -> GameRow:
    setup = state.setup
    return store.add_game(
        stored(state, file, rules_file),
        kind=setup.kind.value,
        level=describe_level(setup),
        rated=state.rated,
        rules=setup.rules.name,
    )


class UnreadableGame(MatchError):
    """A stored game whose saved state is not a game's at all: no move of it can be read."""


def saved_state(tables: Tables | None, row: GameRow) -> m.MatchState:
    """A stored game as its moves play again on its dice (a rated game's, as its moves record
    them): a score, a turn or a result edited in the store changes nothing. In a game stored as
    rated, or saved as one, each computer's move must be the one it makes on those dice (valued
    in ``tables``), as in a game file
    (:func:`~farkle_trainer.training.games.computers.as_played`); with no tables the computers'
    moves are not checked (a list of games, which must not wait for Hard's tables to load).

    :class:`UnreadableGame` when the saved state is not a game's, :class:`MatchError` when its
    moves do not replay.
    """
    if row.state is None:
        raise UnreadableGame(
            f"saved game {row.id} cannot be read: its state {row.state_error or 'is missing'}"
        )
    try:
        saved = m.MatchState.from_dict(row.state)
    except m.UnreadableState as exc:
        raise UnreadableGame(f"saved game {row.id} cannot be read: {exc.why}") from None
    vet = partial(computers.as_played, tables) if tables is not None and (row.rated or saved.rated) else None
    try:
        return m.rebuilt(saved, vet=vet)
    except MatchError as exc:
        raise MatchError(f"the saved game does not replay: {exc}") from None


@dataclass(frozen=True)
class Unfinished:
    """The unfinished game a new one replaces: its row, and its state as its moves replay, or
    None when it cannot be played on (``damage`` says why)."""

    row: GameRow
    state: m.MatchState | None
    damage: str | None = None

    @property
    def rated(self) -> bool:
        """Whether closing it counts as resigned: stored as rated and rated by today's rule, or
        stored as rated and unreadable (damage is never a way out of a loss)."""
        return self.row.rated and (self.state is None or self.state.rated)


def unfinished(tables: Tables, row: GameRow) -> Unfinished:
    """The unfinished game ``row``, read and replayed once."""
    try:
        return Unfinished(row, saved_state(tables, row))
    except MatchError as exc:
        return Unfinished(row, None, str(exc))


def abandon(store: Store, game: Unfinished) -> None:
    """Close an unfinished game that is replaced by a new one: a rated game counts as
    resigned, a training game is set aside (:data:`SET_ASIDE`), its decisions so far kept.

    A game that cannot be played on is closed as damaged instead, its stored text kept as it is
    (never written over); stored as rated, it counts as resigned all the same (see
    :func:`official_result`).
    """
    row, state = game.row, game.state
    if state is None:
        store.close_damaged_game(row.id, version=row.version)
        return
    ending = "resigned" if game.rated else SET_ASIDE
    store.finish_game(row.id, state.to_dict(), outcome=ending, score=person_score(state), version=row.version)


def records_decisions(setup: Setup) -> bool:
    """Whether a game's decisions are its owner's: never in pass and play, where several people
    share the keyboard and nobody's decisions are the owner's (each person's are in the game,
    for ``review``), nor in a game of computers only."""
    return setup.kind.one_person


def graded_decisions(
    tables: Tables, state: m.MatchState, rules_file: Path | None = None
) -> list[tuple[Review, Mistake | None]]:
    """A finished game's decisions that are its owner's (see :func:`records_decisions`), each
    graded, with its personal position if it was a mistake."""
    if not records_decisions(state.setup):
        return []
    from farkle_trainer.training.mistakes import game_mistakes

    return game_mistakes(tables, state, rules_file)


def record_decisions(
    store: Store, row: GameRow, graded: Sequence[tuple[Review, Mistake | None]], *, rated: bool
) -> int:
    """A finished game's decisions (:func:`graded_decisions`), all or none: a training game's as
    progress answers, each mistake with its personal position; a rated game's mistakes as
    personal positions alone, its decisions being official, never progress. Returns how many
    answers were recorded."""
    from farkle_trainer.training.record import AnswerRecord

    with store.atomic():
        if rated or row.session_id is None:
            for _, mistake in graded:
                if mistake is not None:
                    store.record_mistake(mistake)
            return 0
        for r, mistake in graded:
            AnswerRecord.of_match(r, game=row.id).with_mistake(mistake).save(store, row.session_id)
    return len(graded)


def official_result(tables: Tables, row: GameRow) -> Verdict:
    """What a finished game gives the stats, from its moves played again on its dice and never
    from what the store says of it: a rated game's result (one that did not end counts as
    resigned), None for a training game, or why a game stored as rated, or replaying as one,
    cannot be counted.

    A game stored as rated that cannot be read, or that was closed unfinished because it could
    not be played on, counts as resigned: what it was played on is not known, and damage is
    never a way out of a loss. One that can be read but whose moves do not replay (the
    computer's included), or whose dice are not credible, is listed as not counted.
    """
    return judged(tables, row).verdict


@dataclass(frozen=True)
class Judged:
    """A stored game as the stats judge it (:func:`official_result`), with the game its moves
    replay to, where they replay (None for a game that cannot be read or does not replay)."""

    row: GameRow
    verdict: Verdict
    state: m.MatchState | None


def judged(tables: Tables, row: GameRow) -> Judged:
    """The verdict of :func:`official_result` on ``row``, and the game it read."""
    try:
        state = saved_state(tables, row)
    except UnreadableGame as exc:
        return Judged(row, _resigned_unread(row, str(exc)) if row.rated else None, None)
    except MatchError as exc:
        if row.rated and row.outcome == DAMAGED:
            return Judged(row, _resigned_unread(row, str(exc)), None)
        return Judged(row, Unverifiable(row.id, str(exc)) if row.rated else None, None)
    return Judged(row, _verdict(row, state), state)


def _verdict(row: GameRow, state: m.MatchState) -> Verdict:
    if state.rated != row.rated:
        if row.rated and rated_by_an_earlier_rule(state.setup):
            return None  # rated once against two or three computers, or on other rules: training
        if row.rated:
            return Unverifiable(row.id, "it is stored as rated, but its moves give a training game")
        return Unverifiable(row.id, "it is stored as training, but its moves give a rated game")
    if not state.rated:
        return None
    evidence = dice_evidence(state)
    if not evidence.credible:
        return Unverifiable(row.id, not_credible(state, evidence))
    ended = outcome(state, None) if state.over else "resigned"
    rules = state.rules
    return RatedResult(
        row.id,
        describe_level(state.setup) or "",
        ended,
        person_score(state),
        rules=rules.name,
        opening=rules.opening_minimum,
        penalty=rules.three_farkle_penalty,
        target=rules.target,
    )


def _resigned_unread(row: GameRow, why: str) -> RatedResult:
    return RatedResult(row.id, row.level or "", "resigned", None, unread=why)


def thrown(state: m.MatchState) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Every roll a game has thrown, each with the seat that threw it: each move's, and the roll
    showing."""
    rolls = [(move.seat, move.roll) for move in state.log]
    if state.phase in ("pick", "choose"):
        rolls.append((state.seat, state.roll))
    return tuple(rolls)


def dice_evidence(state: m.MatchState) -> Evidence:
    """The credibility test (:mod:`~farkle_trainer.engine.credibility`) on every roll a game
    has thrown."""
    return credibility.dice_evidence(state.rules, state.setup.size, thrown(state))


def not_credible(state: m.MatchState, evidence: Evidence) -> str:
    """Why a game is not counted when its dice fail the credibility test."""
    name = state.setup.players[evidence.seat or 0].name
    whom = "you" if name == "You" else name
    lucky = "lucky" if evidence.lucky else "unlucky"
    return (
        f"its dice are not credible: fair dice are this {lucky} for {whom} less than once in "
        f"{credibility.THRESHOLD:,} games"
    )


def official_game_stats(tables: Tables, store: Store) -> GameStats:
    """The stats of rated games in ``store``, each as its moves replay (its computers' moves
    valued in ``tables``)."""
    return verdicts_stats(j.verdict for j in judged_games(tables, store))


def judged_games(tables: Tables, store: Store) -> list[Judged]:
    """Every finished game in ``store``, oldest first, as the stats judge it, with the game its
    moves replay to: what the stats of rated games and the figures of play across games read,
    each game replayed once. A rated game whose rolls are an earlier counted one's is a copy of
    it (:func:`without_copies`)."""
    return without_copies([judged(tables, row) for row in reversed(store.games()) if row.finished])


def without_copies(games: Sequence[Judged]) -> list[Judged]:
    """``games`` (oldest first), each rated game whose rolls are, die for die and seat for seat,
    those of an earlier one the stats count listed as not counted: a rated game's dice are drawn
    as they are rolled, so two real games throw the same rolls less than once in
    :data:`~farkle_trainer.engine.credibility.THRESHOLD` where they throw that many dice (12 or
    more: six to the power of 12 is over 2 billion); a row copied in the store throws them all."""
    first: dict[tuple[tuple[int, tuple[int, ...]], ...], int] = {}
    kept: list[Judged] = []
    for j in games:
        rolls = () if j.state is None or not isinstance(j.verdict, RatedResult) else thrown(j.state)
        if len(FACES) ** sum(len(roll) for _, roll in rolls) > credibility.THRESHOLD:
            if rolls in first:
                why = (
                    f"its rolls are game {first[rolls]}'s, die for die: fair dice throw the same "
                    f"rolls twice less than once in {credibility.THRESHOLD:,} games"
                )
                j = replace(j, verdict=Unverifiable(j.row.id, why))
            else:
                first[rolls] = j.row.id
        kept.append(j)
    return kept


def run_game(
    tables: Tables,
    front: Frontend,
    view: GameView,
    store: Store,
    row: GameRow,
    state: m.MatchState,
    *,
    pause: Callable[[], None] = lambda: None,
    also: Callable[[m.MatchState], None] = lambda s: None,
    file: Path | None = None,
    rules_file: Path | None = None,
) -> Played:
    """Play a stored game on, saving every state compare-and-set; record it once it ends.

    ``also`` hears every state once the store holds it (a game file written as it goes);
    ``file`` is where that file is, kept with the game, and ``rules_file`` the rule file its
    table came from (None for a preset).
    Raises what :func:`play_game` raises when stopped; the store then holds the last state.
    """
    version = row.version

    def save(s: m.MatchState) -> None:
        nonlocal version
        version = store.save_game(row.id, stored(s, file, rules_file), version=version, rated=s.rated)
        also(s)

    try:
        played = play_game(
            tables,
            front,
            view,
            state,
            state.setup.source(),
            save=save,
            pause=pause,
            hints=not state.rated,
            no_hints=RATED_NO_HINTS,
            resign=True,
            no_restart=NO_RESTART,
        )
        final = played.state
        graded = graded_decisions(tables, final, rules_file)
        # The game's end and its answers are kept together: a process killed in between
        # leaves the game to resume, and its answers to record then.
        with store.atomic():
            store.finish_game(
                row.id,
                stored(final, file, rules_file),
                outcome=outcome(final, played),
                score=person_score(final),
                version=version,
            )
            record_decisions(store, store.get_game(row.id), graded, rated=final.rated)
        made = [mistake.item for _, mistake in graded if mistake is not None]
        played = replace(played, mistakes=len(made), personal=len(set(made)))
    except StaleAttemptError:
        # Another terminal moved this game on: nothing here is saved over it.
        raise GameElsewhere(
            f"game {row.id} was continued in another terminal; run farkle-train play --resume to see it"
        ) from None
    return played


class GameElsewhere(FarkleError):
    """The game was carried on in another terminal since this one read it."""

    exit_code = RUNTIME_FAILURE
