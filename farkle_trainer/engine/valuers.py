"""One protocol over the three solved tables: what each says about a player in one situation.

The turn solver's :class:`~farkle_trainer.engine.solver.Solution`, the two-player
:class:`~farkle_trainer.engine.game.table.GameTable` and the solo
:class:`~farkle_trainer.engine.game.solo.SoloTable` all answer the same questions inside a
turn, each with its own arguments (the scores, the runs of Farkles, the last turn). An
adapter binds those arguments once, so :func:`~farkle_trainer.engine.ranked.ranked_plays`
asks every table the same way. Nothing here loads numpy: a game table arrives solved.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from farkle_trainer.engine.farkles import NO_RUNS, Runs
from farkle_trainer.engine.grading import Unit
from farkle_trainer.engine.solver import Solution, at_least

if TYPE_CHECKING:
    from farkle_trainer.engine.game import GameTable, SoloTable


class Valuer(Protocol):
    """A solved table's values for one player, in ``unit``, with ``t`` turn points at stake."""

    @property
    def unit(self) -> Unit: ...

    def bank(self, t: int) -> float | None:
        """The value after banking ``t`` now (None where banking is not a move)."""
        ...

    def roll(self, t: int, n: int) -> float:
        """The value of rolling ``n`` dice (1..6) with ``t`` at stake, playing on at best."""
        ...

    def farkle(self) -> float:
        """The value once the turn ends in a Farkle."""
        ...

    def rolls_on(self, bank: float | None, roll: float) -> bool:
        """Whether the table itself rolls on where banking is worth ``bank`` and rolling
        ``roll``: where banking is no move, or rolling is at least as good within the table's
        rounding (a tie rolls on)."""
        ...

    def tiebreak(self, t: int, n: int) -> float:
        """What orders two set-asides of equal value before their points and dice (more first):
        the expected points, where the goal is a chance of reaching a total; else 0."""
        ...


@dataclass(frozen=True)
class TurnValuer:
    """The turn solver: expected points, or the chance of reaching a total.

    ``expected``: for the chance of reaching a total, the expected points under the same
    opening minimum, which settle set-asides of equal chance (the more points, the better).
    """

    solution: Solution
    expected: Solution | None = None

    @property
    def unit(self) -> Unit:
        return Unit.CHANCE if self.solution.objective.kind == "reach" else Unit.POINTS

    def bank(self, t: int) -> float | None:
        return self.solution.bank_value(t)

    def roll(self, t: int, n: int) -> float:
        return self.solution.roll_value(t, n)

    def farkle(self) -> float:
        return float(self.solution.objective.farkle_value)

    def rolls_on(self, bank: float | None, roll: float) -> bool:
        return bank is None or at_least(roll, bank)

    def tiebreak(self, t: int, n: int) -> float:
        return 0.0 if self.expected is None else self.expected.value_after(t, n)


@dataclass(frozen=True)
class GameValuer:
    """A two-player game with both scores below the target: the chance of winning."""

    table: GameTable
    score: int
    opponent: int
    runs: Runs = NO_RUNS

    @property
    def unit(self) -> Unit:
        return Unit.WIN

    def bank(self, t: int) -> float | None:
        return self.table.bank_value(self.score, self.opponent, t, self.runs)

    def roll(self, t: int, n: int) -> float:
        return self.table.roll_value(self.score, self.opponent, t, n, self.runs)

    def farkle(self) -> float:
        return self.table.farkle_value(self.score, self.opponent, self.runs)

    def rolls_on(self, bank: float | None, roll: float) -> bool:
        from farkle_trainer.engine.game.table import at_least as chances_at_least

        return bank is None or chances_at_least(roll, bank)

    def tiebreak(self, t: int, n: int) -> float:
        return 0.0


@dataclass(frozen=True)
class LastTurnValuer:
    """A last turn: the chance of passing a leader ``behind`` points ahead (a tie counts one
    half). A Farkle ends the game, so it is worth nothing."""

    table: GameTable
    behind: int
    opened: bool

    @property
    def unit(self) -> Unit:
        return Unit.WIN

    def bank(self, t: int) -> float | None:
        return self.table.final_bank_value(self.behind, t, opened=self.opened)

    def roll(self, t: int, n: int) -> float:
        return self.table.final_roll_value(self.behind, t, n, opened=self.opened)

    def farkle(self) -> float:
        return 0.0

    def rolls_on(self, bank: float | None, roll: float) -> bool:
        from farkle_trainer.engine.game.table import at_least as chances_at_least

        return bank is None or chances_at_least(roll, bank)

    def tiebreak(self, t: int, n: int) -> float:
        return 0.0


@dataclass(frozen=True)
class SoloValuer:
    """Solo for the fewest turns: the expected turns still needed after this one."""

    table: SoloTable
    score: int
    runs: Runs = NO_RUNS

    @property
    def unit(self) -> Unit:
        return Unit.TURNS

    def bank(self, t: int) -> float | None:
        return self.table.bank_value(self.score, t, self.runs)

    def roll(self, t: int, n: int) -> float:
        return self.table.roll_value(self.score, t, n, self.runs)

    def farkle(self) -> float:
        return self.table.farkle_value(self.score, self.runs)

    def rolls_on(self, bank: float | None, roll: float) -> bool:
        from farkle_trainer.engine.game.table import at_least as chances_at_least

        # Fewer turns are better: rolling on is as good where banking is worth at least as many.
        return bank is None or chances_at_least(bank, roll)

    def tiebreak(self, t: int, n: int) -> float:
        return 0.0
