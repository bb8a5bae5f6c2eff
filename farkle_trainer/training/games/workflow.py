"""Whole games kept in the store, one after another: what ``farkle-train play`` does, for any front end.

A :class:`Sitting` plays a :class:`NewGame`, or carries the unfinished game on, then the same
game again for as long as the player wants (the seats moved one place on, on the dice a game
played again is dealt: :meth:`~farkle_trainer.training.games.setup.Setup.again`). On the way:

* a new game offers the unfinished one first, saying what a no does to it: a rated game left
  unfinished and replaced counts as resigned, a training game is set aside (see
  :func:`~farkle_trainer.training.games.play.abandon`); one that cannot be played on is closed
  as damaged once the player says to start the new game;
* the tables a game needs are solved before it is kept, so a game stopped during the solve
  never started and the unfinished one stays as it was;
* every action is saved as it happens, and, with a file to save to, written there too (a game
  played again goes to ``FILE-2.json``, ...), never over a file that is not the game's own;
* the game ends with its analysis.

Every word is the front end's: :mod:`farkle_trainer.ui.views.play` words a game as it is played,
and :mod:`farkle_trainer.ui.views.review` how one that has ended went.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from farkle_trainer.engine.errors import InputError
from farkle_trainer.engine.gameplan import Solve, opening_error
from farkle_trainer.engine.rules import Rules
from farkle_trainer.training.frontend import INTERRUPTED, EndOfInput, Frontend, Stopped
from farkle_trainer.training.games.dice import Dice, Seeded, new_seed
from farkle_trainer.training.games.setup import Form, MatchError, Player, Setup, dealt, new_setup

# Nothing here loads the solvers (numpy) before a game's tables are said to need solving: the
# game's own modules are imported where a game is played.
if TYPE_CHECKING:
    from rich.console import RenderableType

    from farkle_trainer.engine.tables import Tables
    from farkle_trainer.store.db import Store
    from farkle_trainer.store.rows import GameRow
    from farkle_trainer.training.games.analysis import Analysis
    from farkle_trainer.training.games.match import MatchState
    from farkle_trainer.training.games.play import GameView, Unfinished


#: What ``farkle-train play`` says to carry on with a stopped game.
RESUME_COMMAND = "farkle-train play --resume"


class NothingToResume(InputError):
    """``--resume`` with no unfinished game."""


class CannotResume(InputError):
    """``--resume`` on an unfinished game that cannot be played on."""


@dataclass(frozen=True)
class NewGame:
    """A game to start: its setup, and the rule file its table came from (None for a preset),
    kept with the game so that its mistakes are asked again under that file."""

    setup: Setup
    rules_file: Path | None = None

    def again(self) -> NewGame:
        """The same game played again (see :meth:`Setup.again`), on the same rule file."""
        return replace(self, setup=self.setup.again())


def new_game(
    players: Sequence[Player],
    rules: Rules,
    *,
    solo: bool = False,
    target: int | None = None,
    opening: int | None = None,
    penalty: int | None = None,
    coached: bool = False,
    dice: Dice | None = None,
    rules_file: Path | None = None,
) -> NewGame:
    """A new game of ``players`` on ``rules`` with the house rules given here (the table's own by
    default): a race to the target, or ``solo`` ten turns for the highest score (with a
    ``target``, that target in the fewest turns). ``dice`` default to a seed drawn now; a game
    that will be rated draws each roll as it is thrown instead (see :func:`dealt`)."""
    if opening is not None:
        # The limit every command that solves a game has, in the same words.
        wrong = opening_error(opening, rules.target if target is None else target)
        if wrong is not None:
            raise MatchError(wrong)
    form = Form.MATCH
    if solo:
        form = Form.TEN_TURNS if target is None else Form.FEWEST_TURNS
    setup = new_setup(
        players,
        rules,
        form=form,
        target=target,
        opening=opening,
        penalty=penalty,
        coached=coached,
        dice=Seeded(new_seed()) if dice is None else dice,
    )
    return NewGame(dealt(setup), rules_file)


#: Shows what solves start inside its block (given the tables an activity knows it needs) and gives
#: the callback told the fraction done, if any: the front end's (see
#: :func:`farkle_trainer.ui.progress.solving`).
Solving = Callable[[tuple[Solve, ...]], AbstractContextManager[Callable[[float], None] | None]]


def quietly(tables: tuple[Solve, ...]) -> AbstractContextManager[None]:
    """Solving with nothing shown."""
    return nullcontext()


# For the type checker only: the game's own view, which this one adds to, lives with the game
# loop, which loads the solvers.
if TYPE_CHECKING:

    class SittingView(GameView, Protocol):
        """Every line a sitting says besides the game's own, as a front end words it."""

        SETTINGS_KEPT: str
        COACH_NEEDS_NO: str
        NOTHING_STARTED: str
        NOTHING_SAVED: str
        START_NEW_PROMPT: str

        def header(self, state: MatchState) -> str: ...
        def resume_line(self, state: MatchState) -> str: ...
        def unused_options_line(self, options: Sequence[str]) -> str: ...
        def unfinished_line(self, row: GameRow, *, rated: bool) -> str: ...
        def resume_prompt(self, *, rated: bool) -> str: ...
        def damaged_unfinished_line(
            self, row: GameRow, reason: str, where: object, *, rated: bool
        ) -> str: ...
        def cannot_resume_line(self, row: GameRow, reason: str, *, rated: bool) -> str: ...
        def abandoned_line(self, row: GameRow, *, rated: bool, damaged: bool = False) -> str: ...
        def stopped_line(self, state: MatchState) -> str: ...
        def again_prompt(self, setup: Setup) -> str: ...
        def saved_file_line(self, path: object) -> str: ...
        def file_not_written_line(self, path: object, reason: str | None) -> str: ...

    class EndView(Protocol):
        """How a game that has ended reads: the result and the analysis."""

        def game_over_text(
            self, state: MatchState, a: Analysis | None, resigned: int | None = None
        ) -> str: ...
        def game_over_rich(
            self, state: MatchState, a: Analysis | None, resigned: int | None = None
        ) -> RenderableType: ...
        def personal_line(self, mistakes: int, positions: int, *, due_now: int | None = None) -> str: ...


@dataclass(frozen=True)
class Ended:
    """A game played to its end (over or resigned), and the rule file its table came from."""

    state: MatchState
    rules_file: Path | None


@dataclass
class Sitting:
    """Games played one after another in ``store`` through ``front``, in ``view``'s words while
    they are played and ``end``'s once one has ended.

    ``save``: the file the first game is also written to as it goes (the next ``FILE-2.json``,
    ...), ``force`` to write over a file that is not that game's. ``pause`` runs after each of
    a computer's actions. ``unused``: the options given for a new game (as the front end names
    them) that the unfinished game, if carried on, does not use. Every game is valued in
    ``tables``, and ``solving`` shows the solves a game needs (nothing by default).
    """

    front: Frontend
    view: SittingView
    end: EndView
    store: Store
    tables: Tables
    save: Path | None = None
    force: bool = False
    pause: Callable[[], None] = lambda: None
    unused: Sequence[str] = ()
    solving: Solving = quietly

    def play(self, game: NewGame | None) -> None:
        """Play ``game`` (None: carry the unfinished game on), then the same game again for as
        long as the player says yes. Raises :class:`NothingToResume` or :class:`CannotResume`
        when there is no game to carry on, :class:`~farkle_trainer.training.frontend.Stopped`
        after Ctrl-C (the game saved up to its last action)."""
        if game is None and self.unused and self.store.unfinished_game() is not None:
            self.front.say(self.view.unused_options_line(self.unused))
        number = 1
        while True:
            path = None
            if self.save is not None:
                from farkle_trainer.training.games.gamefile import check_game_path, numbered

                path = numbered(self.save, number)
                if number > 1:
                    check_game_path(path, force=self.force)
            ended = self.play_one(game, path)
            if ended is None or not self._again(ended.state.setup):
                return
            number += 1
            game = NewGame(ended.state.setup, ended.rules_file).again()

    def play_one(self, game: NewGame | None, save: Path | None = None) -> Ended | None:
        """Play one game, ``game`` or the unfinished one, written to ``save`` as it goes; how it
        ended, or None when it stopped (saved, to carry on later) or never started."""
        store, front, view = self.store, self.front, self.view
        row = store.unfinished_game()
        if game is not None and row is None and save is None:
            # Nothing to ask first: the tables now, before the game's own modules load the
            # solver, so a game that must be solved says so at once.
            self._prepare_before_start(game.setup, unfinished=False)
        from farkle_trainer.training.games import play

        # Checking a Hard computer's moves may need its game solved: said as the solve starts.
        with self.solving(()):
            old = None if row is None else play.unfinished(self.tables, row)
        begun = self._begin(game, old, save)
        if begun is None:
            return None
        state, resumed = begun
        file, note = save, None
        if save is not None:
            from farkle_trainer.training.games.gamefile import check_replace

            check_replace(save, state if resumed else None, force=self.force)
        elif resumed:
            assert old is not None
            file, unwritten = kept_file(old.row, state)
            note = None if unwritten is None else view.file_not_written_line(*unwritten)
        if resumed:
            assert old is not None
            row = old.row
            rules_file = play.saved_rules_file(row)
            self._prepare(state.setup)
        else:
            assert game is not None
            rules_file = game.rules_file
            self._prepare_before_start(state.setup, unfinished=row is not None)
            if old is not None:
                play.abandon(store, old)
                front.say(view.abandoned_line(old.row, rated=old.rated, damaged=old.state is None))
            row = play.start_game(store, state, file=file, rules_file=rules_file)
        return self._run(row, state, resumed=resumed, file=file, note=note, rules_file=rules_file)

    def _begin(
        self, game: NewGame | None, old: Unfinished | None, save: Path | None
    ) -> tuple[MatchState, bool] | None:
        """The game to play and whether it is the unfinished one carried on; None (said why)
        when the player chose to start nothing."""
        from farkle_trainer.training.games.match import new_match

        view = self.view
        if game is None:
            if old is None:
                raise NothingToResume(
                    "there is no unfinished game to carry on: start one with farkle-train play"
                )
            if old.state is None:
                raise CannotResume(view.cannot_resume_line(old.row, old.damage or "", rated=old.rated))
            return old.state, True
        try:
            if save is not None:
                check_save_first(save, old, force=self.force)
            answer = old is not None and self._offer(old, game.setup)
        except EndOfInput:
            answer = None
        if answer is None:
            self.front.say(view.NOTHING_STARTED)
            return None
        if old is not None and old.state is not None and answer:
            self.front.say(view.SETTINGS_KEPT)
            if self.unused:
                self.front.say(view.unused_options_line(self.unused))
            return old.state, True
        return new_match(game.setup), False

    def _offer(self, game: Unfinished, fresh: Setup) -> bool | None:
        """Whether to carry on with the unfinished game (else a rated one counts as resigned, a
        training one is set aside): by default yes, as closing it may count as a loss. A game
        that cannot be played on is not offered: what starting a new game does to it is said
        first, and the answer is whether to start it (None: no).

        A coached game asked for while a rated one is unfinished is said to need a no: carried
        on, the rated game has no coach, and its ``h`` would send the player back here.
        """
        front, view = self.front, self.view
        if game.damage is not None:
            front.say(view.damaged_unfinished_line(game.row, game.damage, self.store.path, rated=game.rated))
            return False if front.yes_no(view.START_NEW_PROMPT, default=True) else None
        front.say(view.unfinished_line(game.row, rated=game.rated))
        if game.rated and fresh.coached:
            front.say(view.COACH_NEEDS_NO)
        return front.yes_no(view.resume_prompt(rated=game.rated), default=True)

    def _prepare(self, setup: Setup) -> None:
        """Solve (or load) the tables the game needs before the first roll, the front end
        showing it when it takes a while."""
        from farkle_trainer.training.solving import for_setup, solve_all

        needs = for_setup(self.tables, setup)
        if not needs:
            return
        with self.solving(needs) as progress:
            solve_all(self.tables, needs, progress)

    def _prepare_before_start(self, setup: Setup, *, unfinished: bool) -> None:
        """The tables before a new game is kept: stopped during the solve, the game never
        started (no die was seen), so nothing is kept of it and an unfinished game stays as
        it was."""
        try:
            self._prepare(setup)
        except KeyboardInterrupt:
            self.front.say()
            self.front.say(self.view.NOTHING_STARTED if unfinished else self.view.NOTHING_SAVED)
            raise Stopped(INTERRUPTED) from None

    def _run(
        self,
        row: GameRow,
        state: MatchState,
        *,
        resumed: bool,
        file: Path | None,
        note: str | None,
        rules_file: Path | None,
    ) -> Ended | None:
        """Play the kept game ``row`` from ``state`` to its end, and say how it went."""
        from farkle_trainer.training.games import play
        from farkle_trainer.training.games.analysis import analyse
        from farkle_trainer.training.games.gamefile import GameFileWriter

        front, view = self.front, self.view
        write = GameFileWriter(file)
        write(state)
        front.say(view.header(state))
        if resumed:
            front.say(view.resume_line(state))
        if note is not None:
            front.say(note)
        try:
            played = play.run_game(
                self.tables,
                front,
                view,
                self.store,
                row,
                state,
                pause=self.pause,
                also=write,
                file=file,
                rules_file=rules_file,
            )
        except (KeyboardInterrupt, EndOfInput) as stop:
            interrupted = isinstance(stop, KeyboardInterrupt)
            if interrupted:
                front.say()
            front.say(view.stopped_line(play.saved_state(self.tables, self.store.get_game(row.id))))
            if interrupted:
                raise Stopped(INTERRUPTED) from None
            return None
        final = played.state
        write(final, played.resigned)
        # A game given up before any move has nothing to analyse.
        analysis = analyse(self.tables, final, resigned=played.resigned) if final.log else None
        front.show(
            self.end.game_over_text(final, analysis, played.resigned),
            lambda: self.end.game_over_rich(final, analysis, played.resigned),
        )
        if played.mistakes:
            front.say(self.end.personal_line(played.mistakes, played.personal))
        if file is not None:
            front.say(view.saved_file_line(file))
        return Ended(final, rules_file)

    def _again(self, setup: Setup) -> bool:
        """Whether to play the same game again; input running out or q is a quiet no."""
        try:
            return self.front.yes_no(self.view.again_prompt(setup), default=False)
        except EndOfInput:
            return False


def check_save_first(save: Path, game: Unfinished | None, *, force: bool) -> None:
    """Before the unfinished game is offered: a file at ``save`` that is not that game's own
    can be written by no game here, whatever the answer, so it is refused at once."""
    from farkle_trainer.training.games.gamefile import check_replace, holds_game

    state = None if game is None else game.state
    if state is None or not holds_game(save, state):
        check_replace(save, None, force=force)


def kept_file(row: GameRow, state: MatchState) -> tuple[Path | None, tuple[Path, str | None] | None]:
    """The file a resumed game was being written to, if it may still be written: the same
    game's file, or none there now. Else no file, and the file it is no longer written to with
    why (None: something else is there now)."""
    from farkle_trainer.training.games.gamefile import GameFileError, check_game_path, check_replace
    from farkle_trainer.training.games.play import saved_file

    path = saved_file(row)
    if path is None:
        return None, None
    try:
        check_game_path(path)
        check_replace(path, state)
    except GameFileError as exc:
        gone = path.exists() or path.is_symlink()
        return None, (path, None if gone else str(exc))
    return path, None
