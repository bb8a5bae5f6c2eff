"""What each activity needs solved before it starts: the game and solo tables of a game's setup,
of a drill session's kinds and of a lesson's figures, each told whether it is at hand.

Nothing here loads numpy (see :mod:`farkle_trainer.engine.gameplan`): a command works out what
it needs, says so at once if something must be solved, and only then loads the solver
(:func:`solve_all`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from farkle_trainer.engine.gameplan import Solve, TableKind
from farkle_trainer.training.games.setup import Level, Setup

if TYPE_CHECKING:
    from farkle_trainer.engine.decisions import Position
    from farkle_trainer.engine.kinds import Kind
    from farkle_trainer.engine.rules import Rules
    from farkle_trainer.engine.tables import Tables


def needs_table(setup: Setup) -> bool:
    """Whether the game uses the two-player win-chance table (Hard plays by it; a
    two-player game is graded by it)."""
    two = not setup.form.solo and setup.size == 2
    return two or any(p.level == Level.HARD for p in setup.players)


def for_setup(tables: Tables, setup: Setup) -> tuple[Solve, ...]:
    """The tables a game needs before its first roll: the two-player table (Hard, or a game of
    two graded by the chance of winning) and, solo to a target, the fewest-turns table."""
    kinds: list[TableKind] = []
    if needs_table(setup):
        kinds.append("game")
    if setup.form.for_turns:
        kinds.append("solo")
    if not kinds:
        return ()
    return tables.plan(setup.rules, setup.target, setup.opening, tuple(kinds))


def for_kinds(tables: Tables, rules: Rules, kinds: tuple[Kind, ...]) -> tuple[Solve, ...]:
    """The tables drills of ``kinds`` are graded by (each kind's ``solves``), at the rules' own
    target and opening."""
    from farkle_trainer.training.drills.kinds import spec_of

    wanted: list[TableKind] = []
    for kind in kinds:
        wanted += [table for table in spec_of(kind).solves if table not in wanted]
    return tables.plan(rules, kinds=tuple(wanted)) if wanted else ()


def for_positions(tables: Tables, positions: Iterable[Position]) -> tuple[Solve, ...]:
    """The tables positions are graded by: each game and solo position's own, at its target and
    opening (a personal position may come from any game)."""
    from farkle_trainer.engine.kinds import Kind

    graded_by: dict[str, TableKind] = {Kind.GAME: "game", Kind.SOLO: "solo"}
    wanted: list[Solve] = []
    seen: set[tuple[str, Rules, int | None, int]] = set()
    for p in positions:
        kind = graded_by.get(p.kind)
        if kind is None or (kind, p.rules, p.target, p.opening) in seen:
            continue
        seen.add((kind, p.rules, p.target, p.opening))
        wanted += tables.plan(p.rules, p.target, p.opening, (kind,))
    return tuple(wanted)


def solve_all(
    tables: Tables, needs: tuple[Solve, ...], progress: Callable[[float], None] | None = None
) -> None:
    """Solve (or load) every table ``needs`` names into ``tables``, ``progress`` told the
    fraction done of them all, each table's share in proportion to how long it takes."""
    weights = [max(tables.estimate((t,)).total, 1e-3) if not t.at_hand else 1e-3 for t in needs]
    total = sum(weights)
    done = 0.0
    for table, weight in zip(needs, weights, strict=True):

        def part(fraction: float, before: float = done, share: float = weight / total) -> None:
            if progress is not None:
                progress(before + share * fraction)

        solver = {"game": tables.game, "solo": tables.solo}[table.kind]
        solver(table.rules, table.target, table.opening, progress=part)
        done += weight / total
