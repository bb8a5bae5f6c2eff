"""The context every solve runs in: the tables solved so far, where they are kept, who hears.

A caller builds one :class:`Tables` and hands it to everything that values a play (as
python-chess hands a ``Tablebase`` to whoever probes it): the store's keeper finds and keeps the
tables between runs, a front end's watcher shows a long solve and its listener says the solver's
notes. Every solver entry asks it: :meth:`Tables.turn`, :meth:`Tables.game`, :meth:`Tables.solo`.
It holds what it has solved or read back, so a table is worked out once for as long as it lives;
two contexts share nothing, and the engine keeps nothing of its own between calls.

Nothing here imports numpy: a warm turn solve reads its table back without it, and a command can
ask what is at hand and how long a solve would take before the game solver loads.
"""

from __future__ import annotations

import warnings
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

from farkle_trainer.engine import gameplan
from farkle_trainer.engine.gameplan import Estimate, Listener, Solve, SolverNote, Step, TableKind, Watcher
from farkle_trainer.engine.keeper import Kept, TableKeeper, TableKey
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.solver import STEP, Objective, Solution
from farkle_trainer.engine.solver import Progress as TurnProgress

if TYPE_CHECKING:
    from array import array

    import numpy as np
    from numpy.typing import NDArray

    from farkle_trainer.engine.game.cuts import Game
    from farkle_trainer.engine.game.final import FinalTurn
    from farkle_trainer.engine.game.kernel import Loop
    from farkle_trainer.engine.game.rolls import Rolls
    from farkle_trainer.engine.game.seats import Seats
    from farkle_trainer.engine.game.solo import SoloTable
    from farkle_trainer.engine.game.table import GameTable

T = TypeVar("T")

#: The turn played for its expected points, with no house rule in force.
EXPECTED = Objective()

#: How many of the things valued lately (a drill's decisions) a context holds.
RECENT = 4096

#: The compiled loop before anyone asked for it (None is an answer: solve with numpy).
_NOT_ASKED: Any = object()


class Tables:
    """The solved tables of one program (a command, a library user's session), and what it
    does with them: ``keeper`` finds and keeps them between runs (None: each is solved afresh
    and held in memory only), ``watcher`` hears when a solve starts, what it is busy with and
    how far it has got, and ``listener`` the solver's notes (None: they are
    :class:`~farkle_trainer.engine.gameplan.SolverNote` warnings)."""

    def __init__(
        self,
        keeper: TableKeeper | None = None,
        *,
        watcher: Watcher | None = None,
        listener: Listener | None = None,
    ) -> None:
        self.keeper = keeper
        self.watcher = watcher
        self.listener = listener
        self._turns: dict[tuple[Rules, Objective], Solution] = {}
        self._games: dict[tuple[Rules, int, int], GameTable] = {}
        self._solos: dict[tuple[Rules, int, int], SoloTable] = {}
        self._held: set[TableKey] = set()
        self._parts: dict[Hashable, Any] = {}
        self._recent: OrderedDict[Hashable, Any] = OrderedDict()
        self._loop: Loop | None = _NOT_ASKED

    def __repr__(self) -> str:
        held = len(self._turns) + len(self._games) + len(self._solos)
        return f"Tables(keeper={self.keeper!r}, {held} held)"

    # -- the solved tables

    def turn(
        self, rules: Rules, objective: Objective = EXPECTED, *, progress: TurnProgress | None = None
    ) -> Solution:
        """A turn solved exactly under ``rules`` for ``objective``
        (:mod:`~farkle_trainer.engine.solver`).

        Held for the life of this context, and kept between runs by the keeper (keyed by the
        scoring table and the objective, so a renamed copy of a table shares it); a kept one is
        checked equation by equation first. ``progress`` hears about a solve that has to be
        computed, never about one at hand.
        """
        from farkle_trainer.engine.solver import compute, kept_solution_sound, solution_key

        key = (rules, objective)
        if (known := self._turns.get(key)) is not None:
            return known
        kept = self.recall_rows(solution_key(rules, objective), 7)
        if kept is not None and kept_solution_sound(rules, objective, *kept):
            solution = Solution(rules, objective, *kept)
        else:
            solution = compute(rules, objective, progress)
            self.remember_rows(solution_key(rules, objective), solution.values)
        self._turns[key] = solution
        return solution

    def game(
        self,
        rules: Rules,
        target: int | None = None,
        opening: int | None = None,
        *,
        progress: gameplan.Progress | None = None,
    ) -> GameTable:
        """The exact two-player table for ``rules`` played to ``target`` with opening minimum
        ``opening`` (the rules' own by default; see :mod:`~farkle_trainer.engine.game.solve`).

        Held for the life of this context, and kept between runs by the keeper (keyed by the
        scoring table, target, opening and penalty); a kept table that fails its checks is solved
        again. ``progress`` is told the fraction done (by default the watcher, who is also told
        when a solve starts). Raises :class:`~farkle_trainer.engine.gameplan.GameSolverError` for
        out-of-range settings.
        """
        return self._held_table(
            "game", self._games, self._kept_or_solved_game, rules, target, opening, progress
        )

    def solo(
        self,
        rules: Rules,
        target: int | None = None,
        opening: int | None = None,
        *,
        progress: gameplan.Progress | None = None,
    ) -> SoloTable:
        """The exact fewest-turns table for solo play to ``target`` (see
        :mod:`~farkle_trainer.engine.game.solo`), held and kept as :meth:`game` holds and keeps
        a game's."""
        return self._held_table(
            "solo", self._solos, self._kept_or_solved_solo, rules, target, opening, progress
        )

    def _held_table(
        self,
        kind: TableKind,
        held: dict[tuple[Rules, int, int], T],
        kept_or_solved: Callable[[Rules, int, int, gameplan.Progress | None], T],
        rules: Rules,
        target: int | None,
        opening: int | None,
        progress: gameplan.Progress | None,
    ) -> T:
        """A game's or a solo table of ``kind``, held in ``held`` once read back or solved."""
        target, opening = gameplan.resolve(rules, target, opening)
        key = (rules, target, opening)
        told = self.watcher if progress is None else progress
        table = held.get(key)
        if table is None:
            table = kept_or_solved(rules, target, opening, told)
            held[key] = table
            self._held.add(gameplan.values_key(kind, rules, target, opening))
        elif told is not None:
            told(1.0)
        return table

    def _kept_or_solved_game(
        self, rules: Rules, target: int, opening: int, progress: gameplan.Progress | None
    ) -> GameTable:
        """The two-player table (its settings checked already): read back from the keeper and
        checked, or solved and handed to it. The watcher is told before a solve starts, and
        ``progress`` the fraction done."""
        from farkle_trainer.engine.game.seats import seats_of
        from farkle_trainer.engine.game.solve import kept_values, solve_totals, sound
        from farkle_trainer.engine.game.table import GameTable

        levels, penalty = target // STEP, rules.three_farkle_penalty
        seats = seats_of(rules, target, opening)
        key = gameplan.values_key("game", rules, target, opening)
        shape = (levels, levels) if not penalty else (seats.size, seats.runs, seats.size, seats.runs)
        kept = kept_values(self.recall(key, ("values",)), shape)
        w = None if kept is None else kept[0].reshape(seats.size, seats.runs, seats.size, seats.runs)
        if w is None:
            # Said before anything slow (the final-turn tables, the compiler), so a wait is told at once.
            self.starting(Solve("game", rules, target, opening))
        game = self._setting(rules, seats)
        if w is not None and kept is not None and not kept[1] and not sound(game, w):
            self.starting(Solve("game", rules, target, opening))
            w = None
        if w is None:
            if penalty:
                w = self._solve_with_penalty(game, Solve("game", rules, target, opening), progress)
            else:
                plain, _ = solve_totals(game, progress, self.loop())
                w = plain[:, None, :, None]
            self.remember(key, {"values": w.reshape(shape)})
        elif progress is not None:
            progress(1.0)
        return GameTable(rules=rules, target=target, opening=opening, values=w, _game=game)

    def _solve_with_penalty(
        self, game: Game, solve: Solve, progress: gameplan.Progress | None
    ) -> NDArray[np.float64]:
        """A game under the three-Farkle penalty, swept from the game without it (this context's,
        solved first if it must be); progress as work done, each part weighed by its estimate."""
        from farkle_trainer.engine.game.runs import solve_runs

        share = self.plain_share(solve)

        def plain_done(fraction: float) -> None:
            if progress is not None:
                progress(share * fraction)

        def runs_done(fraction: float) -> None:
            if progress is not None:
                progress(share + (1.0 - share) * fraction)

        plain_rules = replace(solve.rules, three_farkle_penalty=0)
        plain = self.game(plain_rules, solve.target, solve.opening, progress=plain_done)
        return solve_runs(game, plain.chances, runs_done, loop=self.loop())

    def _kept_or_solved_solo(
        self, rules: Rules, target: int, opening: int, progress: gameplan.Progress | None
    ) -> SoloTable:
        """The fewest-turns table (its settings checked already), kept or solved as a game's is."""
        from farkle_trainer.engine.game.seats import seats_of
        from farkle_trainer.engine.game.solo import SoloTable, solo_sound, solve_solo
        from farkle_trainer.engine.game.solve import kept_values

        levels = target // STEP
        seats = seats_of(rules, target, opening)
        shape = (seats.size, seats.runs)
        key = gameplan.values_key("solo", rules, target, opening)
        stored = kept_values(self.recall(key, ("values",)), (levels,) if seats.runs == 1 else shape)
        solve = Solve("solo", rules, target, opening)
        if stored is None:
            self.starting(solve)
        rolls = self.rolls(rules)
        turns = None if stored is None else stored[0].reshape(shape)
        if (
            turns is not None
            and not (stored is not None and stored[1])
            and not solo_sound(rolls, seats, turns)
        ):
            self.starting(solve)
            turns = None
        if turns is None:
            share = self.plain_share(solve) if seats.runs > 1 else 1.0
            turns = solve_solo(rolls, seats, progress, self.loop(), share)
            self.remember(key, {"values": turns.reshape((levels,) if seats.runs == 1 else shape)})
        if progress is not None:
            progress(1.0)
        return SoloTable(rules=rules, target=target, opening=opening, turns=turns, _rolls=rolls, _seats=seats)

    # -- what the game solver builds from the rules, once for this context

    def rolls(self, rules: Rules) -> Rolls:
        """The merged rolls of ``rules`` (:mod:`~farkle_trainer.engine.game.rolls`): the shipped
        copy when the keeper has one; otherwise merged afresh (a few hundredths of a second, so a
        kept copy is never believed), and kept if no equal copy is."""
        return self._memo(("rolls", rules), lambda: self._shipped_or_merged(rules))

    def _shipped_or_merged(self, rules: Rules) -> Rolls:
        from farkle_trainer.engine.game.rolls import (
            ROLL_ARRAYS,
            merge_rolls,
            rolls_from,
            rolls_key,
            same_rolls,
        )

        kept = self.recall(rolls_key(rules), ROLL_ARRAYS)
        if kept is not None and kept.shipped and (shipped := rolls_from(kept.arrays)) is not None:
            return shipped
        merged = merge_rolls(rules)
        if kept is None or not same_rolls(rolls_from(kept.arrays), merged):
            self.remember(rolls_key(rules), merged.arrays())
        return merged

    def final_turn(self, rules: Rules, size: int) -> FinalTurn:
        """The final-turn tables of ``size`` rows (:mod:`~farkle_trainer.engine.game.final`): the
        copy the keeper kept when a sound one is there, else worked out and handed to it."""
        return self._memo(("final", rules, size), lambda: self._kept_or_worked_out(rules, size))

    def _kept_or_worked_out(self, rules: Rules, size: int) -> FinalTurn:
        from farkle_trainer.engine.game.final import final_key, final_turn, kept_final

        rolls = self.rolls(rules)
        kept = self.recall(final_key(rules, size), ("tie", "reach"))
        if kept is not None:
            found = kept_final(kept.arrays["tie"], kept.arrays["reach"], rolls, size, shipped=kept.shipped)
            if found is not None:
                return found
        final = final_turn(rolls, size)
        self.remember(final_key(rules, size), {"tie": final.tie, "reach": final.reach})
        return final

    def setting(self, rules: Rules, levels: int, opening: int = 0, penalty: int = 0) -> Game:
        """Everything fixed before a game to ``levels`` is solved, with an opening minimum and a
        three-Farkle penalty (all in levels of 50; see :mod:`~farkle_trainer.engine.game.cuts`);
        any other house rule is the rules' own, made standings as a game's are
        (:func:`~farkle_trainer.engine.game.seats.seats_of`)."""
        from farkle_trainer.engine.game.seats import seats_of

        house = replace(rules, three_farkle_penalty=penalty * STEP)
        return self._setting(rules, seats_of(house, levels * STEP, opening * STEP))

    def _setting(self, rules: Rules, seats: Seats) -> Game:
        from farkle_trainer.engine.game.cuts import game_for, span_for

        def made() -> Game:
            rolls = self.rolls(rules)
            final = self.final_turn(rules, span_for(seats.levels, rolls))
            return game_for(rules, seats, rolls, final)

        return self._memo(("setting", rules, seats), made)

    def _memo(self, key: Hashable, make: Callable[[], T]) -> T:
        if key not in self._parts:
            self._parts[key] = make()
        made: T = self._parts[key]
        return made

    def recent(self, key: Hashable, make: Callable[[], T]) -> T:
        """What ``make`` works out for ``key``, held while it is among the ``RECENT`` asked for
        last: what is valued from the tables (a position's decision), asked again and again
        while a drill picks its positions."""
        if key in self._recent:
            self._recent.move_to_end(key)
        else:
            self._recent[key] = make()
            if len(self._recent) > RECENT:
                self._recent.popitem(last=False)
        made: T = self._recent[key]
        return made

    def forget(self) -> None:
        """Forget every table held in memory (what the keeper kept stays)."""
        self._turns.clear()
        self._games.clear()
        self._solos.clear()
        self._held.clear()
        self._parts.clear()
        self._recent.clear()

    # -- what is at hand, and how long the rest takes

    def plan(
        self,
        rules: Rules,
        target: int | None = None,
        opening: int | None = None,
        kinds: tuple[TableKind, ...] = ("game",),
    ) -> tuple[Solve, ...]:
        """The tables of ``kinds`` a game under ``rules`` needs, each told whether it is at hand.

        Settings out of range raise :class:`~farkle_trainer.engine.gameplan.GameSolverError`, as
        the solve itself would, so a command refuses them before anything else happens.
        """
        target, opening = gameplan.resolve(rules, target, opening)
        return tuple(
            Solve(kind, rules, target, opening, at_hand=self.at_hand(kind, rules, target, opening))
            for kind in kinds
        )

    def at_hand(self, kind: TableKind, rules: Rules, target: int, opening: int) -> bool:
        """Whether the table of ``kind`` is held here, or seems to be kept (told without reading
        it, or loading numpy)."""
        key = gameplan.values_key(kind, rules, target, opening)
        return key in self._held or (self.keeper is not None and self.keeper.has(key))

    def estimate(self, solves: tuple[Solve, ...], busy: float = 1.0) -> Estimate:
        """About how long solving these tables takes here, step by step, on a machine ``busy``
        times slower than idle (the caller reads the machine's load)."""
        compiled = self.compiled_loop_usable()
        return gameplan.estimate(
            solves,
            busy=busy,
            compiled=compiled,
            compile_first=compiled and not self.compiled_kept(),
            plain_at_hand=self._plain_at_hand,
        )

    def plain_share(self, solve: Solve) -> float:
        """The share of a solve under the three-Farkle penalty spent on the game without it (see
        :func:`~farkle_trainer.engine.gameplan.plain_share`)."""
        return gameplan.plain_share(
            solve, compiled=self.compiled_loop_usable(), plain_at_hand=self._plain_at_hand(solve)
        )

    def _plain_at_hand(self, solve: Solve) -> bool:
        plain = replace(solve.rules, three_farkle_penalty=0)
        return self.at_hand("game", plain, solve.target, solve.opening)

    # -- the keeper's

    def recall(self, key: TableKey, names: tuple[str, ...]) -> Kept | None:
        """The named arrays of a table kept for ``key``, for the caller to check; None if none."""
        return None if self.keeper is None else self.keeper.load(key, names)

    def remember(self, key: TableKey, arrays: Mapping[str, NDArray[Any]]) -> None:
        """Hand a table just solved to the keeper, if there is one."""
        if self.keeper is not None:
            self.keeper.keep(key, arrays)

    def recall_rows(self, key: TableKey, width: int) -> tuple[int, array[float]] | None:
        """A table of numbers ``width`` wide kept for ``key`` (see
        :meth:`~farkle_trainer.engine.keeper.TableKeeper.load_rows`)."""
        return None if self.keeper is None else self.keeper.load_rows(key, width)

    def remember_rows(self, key: TableKey, values: NDArray[np.float64]) -> None:
        """Hand a table of numbers just solved to the keeper, if there is one."""
        if self.keeper is not None:
            self.keeper.keep_rows(key, values)

    # -- the game solver's compiled loop

    def loop(self) -> Loop | None:
        """The game solver's compiled loop, compiled (or read back from where the keeper says)
        the first time a solve needs it; None when the solves must use numpy, said why."""
        if self._loop is _NOT_ASKED:
            from farkle_trainer.engine.game.kernel import compiled_loop

            self._loop = compiled_loop(self.keeper, self.tell, self.compiling)
        return self._loop

    def compiler_turned_off(self) -> bool:
        """Whether the compiler is told to compile nothing, as far as the keeper knows (told
        without loading it; numba's own settings are checked once it loads)."""
        return self.keeper is not None and self.keeper.compiler_turned_off()

    def compiled_kept(self) -> bool:
        """Whether the compiled loop's machine code is kept, so no compilation comes first."""
        return self.keeper is not None and self.keeper.compiled_kept()

    def compiled_loop_usable(self) -> bool:
        """Whether the solves will use the compiled loop (told without loading numba)."""
        return gameplan.compiled_loop_installed() and not self.compiler_turned_off()

    # -- who hears

    def starting(self, solve: Solve) -> None:
        """Tell the watcher, if any, that ``solve`` starts now."""
        if self.watcher is not None:
            self.watcher.starting(solve)

    @contextmanager
    def compiling(self) -> Iterator[None]:
        """Tell the watcher, if any, that the compiled loop is compiled while the block runs."""
        watcher = self.watcher
        if watcher is not None:
            watcher.doing(Step.COMPILING)
        try:
            yield
        finally:
            if watcher is not None:
                watcher.doing(Step.SOLVING)

    def tell(self, text: str) -> None:
        """Pass a note of the solver's on to the listener, or warn with it as a
        :class:`~farkle_trainer.engine.gameplan.SolverNote`."""
        if self.listener is not None:
            self.listener(text)
        else:
            warnings.warn(text, SolverNote, stacklevel=2)

    @contextmanager
    def watched(self, watcher: Watcher | None, listener: Listener | None = None) -> Iterator[None]:
        """Have ``watcher`` hear the solves that start inside the block (and ``listener``, if
        given, the solver's notes); the ones before come back after it."""
        before = self.watcher, self.listener
        self.watcher = watcher
        if listener is not None:
            self.listener = listener
        try:
            yield
        finally:
            self.watcher, self.listener = before
