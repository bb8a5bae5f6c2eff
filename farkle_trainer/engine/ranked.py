"""Every play of a roll in one situation, valued and ranked: the one valuation.

:func:`ranked_plays` enumerates the distinct scoring selections of a roll once, asks the
situation's :class:`~farkle_trainer.engine.valuers.Valuer` what banking and rolling on are worth
after each, and ranks them. Drills (:func:`~farkle_trainer.engine.decisions.decision_for`), the
analysis of a game, the hints and the computer players all read this one :class:`Ranked`.

Order, best first. Set-asides (:class:`Option`) by the value of their better action, then the
goal's tiebreak (the expected points, for a chance of reaching a total), more points, more dice
to roll and the faces. Plays (:class:`Candidate`, a set-aside and then bank or roll) by value,
equal values in their set-aside's order, the table's own action first (rolling on at a tie).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from farkle_trainer.engine.dice import counts_of, size
from farkle_trainer.engine.grading import Grade, Unit
from farkle_trainer.engine.notation import Action
from farkle_trainer.engine.scoring import Split, score_table
from farkle_trainer.engine.situations import Situation, SituationError
from farkle_trainer.engine.value import Value

if TYPE_CHECKING:
    from collections.abc import Iterable

    from farkle_trainer.engine.farkles import Runs
    from farkle_trainer.engine.game.table import GameTable
    from farkle_trainer.engine.tables import Tables


@dataclass(frozen=True, slots=True)
class Selection:
    """One distinct scoring selection of a roll, and the turn it leaves: ``points_after`` at
    stake, ``dice_left`` to roll (0 after hot dice: a roll on then throws six dice)."""

    split: Split
    points_after: int
    dice_left: int

    @property
    def keep(self) -> tuple[int, ...]:
        return self.split.dice

    @property
    def score(self) -> int:
        return self.split.points

    @property
    def dice_to_roll(self) -> int:
        return self.dice_left or 6

    @property
    def hot_dice(self) -> bool:
        return self.dice_left == 0


@dataclass(frozen=True, slots=True)
class Candidate(Selection):
    """One play of a roll: set ``split`` aside, then ``action``; worth ``value``."""

    action: Action
    value: Value


@dataclass(frozen=True, slots=True)
class Option(Selection):
    """A selection valued: what banking after it is worth (None where it is not a move), what
    rolling on is worth, the better of the two, and ``action``, what the table itself does
    (rolling on at a tie within its rounding)."""

    bank: Value | None
    roll: Value
    best: Value
    action: Action

    @property
    def candidates(self) -> tuple[Candidate, ...]:
        """Its plays: bank (where allowed), then roll on."""
        made = (Candidate(self.split, self.points_after, self.dice_left, "roll", self.roll),)
        if self.bank is None:
            return made
        return (Candidate(self.split, self.points_after, self.dice_left, "bank", self.bank), *made)


@dataclass(frozen=True)
class Ranked:
    """Every play of ``roll`` (faces ascending) in ``situation``, best first, and what the roll
    was worth.

    ``before``: the value of throwing these dice, before they were thrown (the mean over
    every fair roll); ``farkle``: the value of a Farkle. The luck of the roll is the value of
    its best play (or of the Farkle) gaining over ``before``.
    """

    situation: Situation
    roll: tuple[int, ...]
    options: tuple[Option, ...]
    before: Value
    farkle: Value

    @cached_property
    def candidates(self) -> tuple[Candidate, ...]:
        """Every play, best first: by value, equal values in their set-aside's order, the
        table's own action first."""
        sign = 1.0 if self.unit.lower_is_better else -1.0
        plays = [
            ((sign * c.value.amount, i, 0 if c.action == o.action else 1), c)
            for i, o in enumerate(self.options)
            for c in o.candidates
        ]
        plays.sort(key=lambda p: p[0])
        return tuple(c for _, c in plays)

    @property
    def unit(self) -> Unit:
        return self.situation.unit

    @property
    def is_farkle(self) -> bool:
        return not self.options

    @property
    def best(self) -> Candidate | None:
        return self.candidates[0] if self.candidates else None

    @property
    def after(self) -> Value:
        """The roll's value once thrown: its best play's, or the Farkle's."""
        return self.farkle if self.best is None else self.best.value

    @property
    def luck(self) -> float:
        """What the dice gave, in the display scale (percentage points of a chance)."""
        return self.after.gain_over(self.before)

    @property
    def table_play(self) -> Option | None:
        """The best set-aside and the table's own action after it: the play of a computer that
        plays by this table (rolling on at a tie, within the table's rounding)."""
        return self.options[0] if self.options else None

    def loss(self, candidate: Candidate) -> float:
        """What ``candidate`` gives up against the best play, in the display scale."""
        assert self.best is not None
        return candidate.value.loss_to(self.best.value)

    def grade(self, candidate: Candidate) -> Grade:
        assert self.best is not None
        return candidate.value.grade_to(self.best.value)

    @property
    def keeps(self) -> tuple[tuple[int, ...], ...]:
        """The distinct set-asides, in the order of their best play."""
        return tuple(dict.fromkeys(c.keep for c in self.candidates))

    def for_keep(self, keep: tuple[int, ...]) -> tuple[Candidate, ...]:
        return tuple(c for c in self.candidates if c.keep == keep)

    def option(self, keep: tuple[int, ...]) -> Option:
        """The set-aside ``keep``, valued."""
        keep = tuple(sorted(keep))
        for o in self.options:
            if o.keep == keep:
                return o
        raise SituationError(f"setting aside {keep} is not a play of this position")

    def choice(self, keep: tuple[int, ...], action: Action) -> Candidate:
        """The play that sets aside ``keep`` and then does ``action``."""
        keep = tuple(sorted(keep))
        for c in self.candidates:
            if c.keep == keep and c.action == action:
                return c
        found = self.for_keep(keep)
        if not found:
            raise SituationError(f"setting aside {keep} is not a play of this position")
        raise SituationError(f"you cannot bank {found[0].points_after:,} here")

    def only(self, keep: tuple[int, ...]) -> Ranked:
        """The same roll with ``keep`` already set aside: only bank or roll on is left."""
        keep = tuple(sorted(keep))
        options = tuple(o for o in self.options if o.keep == keep)
        return Ranked(self.situation, self.roll, options, self.before, self.farkle)


def ranked_plays(tables: Tables, situation: Situation, roll: tuple[int, ...] | list[int]) -> Ranked:
    """Every distinct scoring selection of ``roll`` and the play after it, valued in
    ``situation`` by its table in ``tables`` and ranked best first (see the module's order)."""
    counts = counts_of(roll)
    n = size(counts)
    if not 1 <= n <= 6:
        raise SituationError(f"a roll has 1 to 6 dice, not {n}")
    valuer = situation.valuer(tables)
    unit = situation.unit
    # Sorted ascending, so a value's key is its amount where fewer is better, else minus it.
    sign = 1.0 if unit.lower_is_better else -1.0
    points = situation.points
    keyed = []
    for split in score_table(situation.rules).selections(counts):
        t, left = points + split.points, n - len(split.dice)
        to_roll = left or 6
        bank, roll_on = valuer.bank(t), valuer.roll(t, to_roll)
        action: Action = "roll" if valuer.rolls_on(bank, roll_on) else "bank"
        rolled = Value(unit, roll_on)
        if bank is None:
            option = Option(split, t, left, None, rolled, rolled, action)
        else:
            banked = Value(unit, bank)
            # The better of the two; banking where they are equal.
            best = rolled if sign * roll_on < sign * bank else banked
            option = Option(split, t, left, banked, rolled, best, action)
        key = (sign * option.best.amount, -valuer.tiebreak(t, to_roll), -split.points, -to_roll, split.dice)
        keyed.append((key, option))
    keyed.sort(key=lambda k: k[0])
    before = Value(unit, valuer.roll(points, n))
    options = tuple(option for _, option in keyed)
    return Ranked(situation, tuple(sorted(roll)), options, before, Value(unit, valuer.farkle()))


def prepare(tables: Tables, situations: Iterable[Situation]) -> None:
    """Value the turns of many situations (a whole game's, say) ahead of ranking their plays:
    the two-player game's turns in one pass for each table, where :func:`ranked_plays` alone
    values each turn as it first meets it. A situation that cannot be valued is left for
    :func:`ranked_plays` to refuse."""
    from farkle_trainer.engine.valuers import GameValuer

    held: dict[int, tuple[GameTable, list[tuple[int, int, Runs]]]] = {}
    for situation in situations:
        try:
            valuer = situation.valuer(tables)
        except ValueError:
            continue
        if isinstance(valuer, GameValuer):
            turns = held.setdefault(id(valuer.table), (valuer.table, []))[1]
            turns.append((valuer.score, valuer.opponent, valuer.runs))
    for table, turns in held.values():
        table.prepare(turns)
