"""A game's tables before any is solved: what a game can be solved for, the keys its tables are
kept under, whether they are at hand, and about how long solving them takes.

Nothing here loads numpy, so a command can refuse a game the solver cannot give chances for,
and say that a solve is coming, before the solver's own modules (:mod:`farkle_trainer.engine.game`)
load. The game solver checks its settings here too, so every way in meets the same limits in
the same words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from importlib.util import find_spec
from typing import Literal, Protocol

from farkle_trainer.engine.errors import InputError
from farkle_trainer.engine.keeper import TableKey
from farkle_trainer.engine.rules import MAX_OPENING, MAX_TARGET, MIN_TARGET, Rules
from farkle_trainer.engine.solver import STEP

#: The layout of every table the game solver keeps (see :class:`~farkle_trainer.engine.keeper.TableKey`).
FORMAT = 1

TableKind = Literal["game", "solo"]


class GameSolverError(InputError):
    """A game the solver cannot give exact chances for (a rule or a target out of range)."""


def opening_error(opening: object, target: int) -> str | None:
    """What is wrong with an opening minimum for a game to ``target``, or None if it is one.

    One limit for every command: a multiple of 50, at most the target, and at most
    :data:`~farkle_trainer.engine.rules.MAX_OPENING` (above it a player all but never opens and
    the chances stop settling in floating point).
    """
    wanted = f"the opening minimum must be a multiple of {STEP} from 0 to"
    limit = min(target, MAX_OPENING)
    if not isinstance(opening, int) or isinstance(opening, bool):
        return f"{wanted} {limit:,}, not {opening!r}"
    if opening % STEP == 0 and 0 <= opening <= limit:
        return None
    if opening > MAX_OPENING and target > MAX_OPENING:
        return f"{wanted} {MAX_OPENING:,}, the highest a game is solved for, not {opening:,}"
    if opening > target:
        return f"{wanted} the target of {target:,}, not {opening:,}"
    return f"{wanted} {limit:,}, not {opening:,}"


def resolve(rules: Rules, target: int | None, opening: int | None) -> tuple[int, int]:
    """The target and opening minimum to solve for (the rules' own by default), checked."""
    chosen = target is not None
    target = rules.target if target is None else target
    opening = rules.opening_minimum if opening is None else opening
    if not isinstance(target, int) or target % STEP or not MIN_TARGET <= target <= MAX_TARGET:
        shown = f"{target:,}" if isinstance(target, int) else repr(target)
        whose = "" if chosen else f" (the {rules.name} rules' own; give another target)"
        raise GameSolverError(
            f"win chances need a target that is a multiple of {STEP} from {MIN_TARGET:,} to "
            f"{MAX_TARGET:,}, not {shown}{whose}"
        )
    wrong = opening_error(opening, target)
    if wrong is not None:
        raise GameSolverError(wrong)
    return target, opening


def check_position(
    target: int, opening: int, penalty: int, my_score: int, opponent_score: int, *, last_turn: bool = False
) -> None:
    """Refuse scores that are not a position of this game (before anything is solved for it)."""
    for who, score in (("your score", my_score), ("the opponent's score", opponent_score)):
        if score < 0 or score % STEP:
            raise GameSolverError(f"{who} must be a non-negative multiple of {STEP}, not {score:,}")
    if opening and not penalty:
        # With the penalty any score can happen: a player who opened can be knocked back.
        for who, score in (("your score", my_score), ("the opponent's score", opponent_score)):
            if 0 < score < opening and not (last_turn and score >= target):
                raise GameSolverError(
                    f"{who} of {score:,} cannot happen with an opening minimum of {opening:,}: "
                    "a player's first bank is at least the minimum"
                )
    if my_score >= target:
        raise GameSolverError(
            f"your score {my_score:,} has reached the target of {target:,}: the game is over"
        )
    if last_turn:
        if opponent_score < target:
            raise GameSolverError(
                f"--last-turn means the opponent has reached the target of {target:,}, not {opponent_score:,}"
            )
        if opponent_score <= my_score:
            raise GameSolverError("--last-turn means the opponent is ahead of you")
    elif opponent_score >= target:
        raise GameSolverError(
            f"the opponent's {opponent_score:,} has reached the target of {target:,}: "
            "add --last-turn for your final turn"
        )


def check_step(step: int, target: int) -> None:
    """Refuse a spacing of the grid of scores that is not one for a game to ``target``."""
    if step <= 0 or step % STEP:
        raise GameSolverError(f"the step must be a positive multiple of {STEP}, not {step:,}")
    if step >= target:
        raise GameSolverError(f"the step must be below the target of {target:,}, not {step:,}")


def values_key(kind: str, rules: Rules, target: int, opening: int) -> TableKey:
    """What a table of values is kept under: kind, scoring table, target, opening and penalty."""
    # Loaded here, not with this module: --help reads the limits above and never keys a table.
    from farkle_trainer.engine.house import house_key

    return TableKey(kind, FORMAT, (rules.scoring_key, *house_key(rules, target, opening)))


# -- what a table is


@dataclass(frozen=True)
class Solve:
    """One table a question needs: a game's two-player chances or its solo turns, and whether it
    is at hand (held in memory, or kept) or will have to be solved."""

    kind: TableKind
    rules: Rules
    target: int
    opening: int
    at_hand: bool = False

    @property
    def levels(self) -> int:
        return self.target // STEP


def to_solve(tables: tuple[Solve, ...]) -> tuple[Solve, ...]:
    """The tables that are not at hand."""
    return tuple(t for t in tables if not t.at_hand)


# -- who watches a solve

#: Told the fraction done as a solve goes.
Progress = Callable[[float], None]


class Step(Enum):
    """What a solve is busy with, for the person waiting: the compiled loop's first compilation
    comes before any table is solved, and tells nothing of its progress on the way."""

    COMPILING = "compiling"
    SOLVING = "solving"


class Watcher(Protocol):
    """Told when a table starts to be solved (before anything slow), what the solve is busy with,
    then the fraction done."""

    def starting(self, solve: Solve) -> None: ...

    def doing(self, step: Step) -> None: ...

    def __call__(self, fraction: float) -> None: ...


#: Told a line for the person waiting: the compiled loop could not be used or kept, and why.
Listener = Callable[[str], None]


class SolverNote(UserWarning):
    """Something the solver did differently from its usual way (a library user sees it as a warning)."""


# -- how long solving takes

#: Seconds on the machine the estimates were calibrated on (two idle cores, as
#: ``benchmarks/bench_game.py`` measures cold solves), for ``n`` the target in fifties: loading
#: the solver and the tables every game needs, then a two-player game about
#: ``GAME_PLAIN * n ** 2.58`` (the turns above the target grow with it too), the three-Farkle
#: penalty's sweeps ``GAME_RUNS * n ** 2.2`` more (a twentieth more with an opening minimum: one
#: more standing), solo a little; and the compiled loop's first compilation, once for a user.
LOAD = 0.8
GAME_PLAIN = 2.44e-6
GAME_RUNS = 3.4e-4
SOLO_PLAIN = 2e-6
SOLO_RUNS = 1.25e-5
COMPILE = 2.0
#: Without the compiled loop (numpy alone) solving takes this many times longer, without and with
#: the penalty (``benchmarks/bench_numba.py``).
NUMPY_PLAIN = 6.0
NUMPY_RUNS = 12.0


def compiled_loop_installed() -> bool:
    """Whether the compiler the fast loop needs is installed (found without loading it)."""
    return find_spec("numba") is not None


def _parts(solve: Solve, compiled: bool, plain_at_hand: bool) -> tuple[float, float]:
    """Seconds of a table's two parts on an idle machine: the game without the three-Farkle
    penalty (none for a two-player game whose plain table is at hand already), and the penalty's
    sweeps (none without it)."""
    n = solve.levels
    runs = solve.rules.three_farkle_penalty > 0
    if solve.kind == "solo":
        plain, extra = SOLO_PLAIN * n**2, SOLO_RUNS * n**2 if runs else 0.0
    else:
        plain = GAME_PLAIN * n**2.58
        extra = GAME_RUNS * n**2.2 * (1.05 if solve.opening else 1.0) if runs else 0.0
        if runs and plain_at_hand:
            plain = 0.0  # the sweeps start from it
    if compiled:
        return plain, extra
    return plain * NUMPY_PLAIN, extra * NUMPY_RUNS


def plain_share(solve: Solve, *, compiled: bool, plain_at_hand: bool) -> float:
    """The share of a solve under the three-Farkle penalty spent on the game without it (which
    the penalty's sweeps start from, unless ``plain_at_hand``), by how long each takes with the
    compiled loop or without it: progress told as work done."""
    plain, extra = _parts(solve, compiled, plain_at_hand)
    return plain / (plain + extra) if plain + extra > 0 else 0.0


@dataclass(frozen=True)
class Estimate:
    """About how long solving some tables takes here, step by step, in seconds: loading the
    solver and the tables every game needs, compiling the fast loop (when it is not kept yet),
    and solving the tables."""

    loading: float = 0.0
    compiling: float = 0.0
    solving: float = 0.0

    @property
    def total(self) -> float:
        return self.loading + self.compiling + self.solving


def estimate(
    solves: tuple[Solve, ...],
    *,
    busy: float = 1.0,
    compiled: bool = True,
    compile_first: bool = False,
    plain_at_hand: Callable[[Solve], bool] = lambda solve: False,
) -> Estimate:
    """About how long solving these tables takes, step by step, on a machine ``busy`` times
    slower than idle: with the compiled loop or without it, compiling it first or not, and
    each game under the penalty from its plain game if that is at hand (``plain_at_hand``)."""
    if not solves:
        return Estimate()
    return Estimate(
        loading=LOAD * busy,
        compiling=COMPILE * busy if compiled and compile_first else 0.0,
        solving=sum(sum(_parts(s, compiled, plain_at_hand(s))) for s in solves) * busy,
    )
