"""A roll's plays ranked by the chance of winning the game, beside the expected-points choice.

The data behind ``hint --score/--opponent`` and ``strategy --game``: the game solver's
answers joined to the turn solver's, so a view can show where the two objectives part.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from farkle_trainer.engine.farkles import FARKLES_FOR_PENALTY
from farkle_trainer.engine.game import NO_RUNS, Progress, Runs, WinGrid, win_grid
from farkle_trainer.engine.gameplan import check_position, check_step, resolve
from farkle_trainer.engine.grading import TIE, Unit
from farkle_trainer.engine.ranked import Option, Ranked, ranked_plays
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.situations import WinGame, situation
from farkle_trainer.engine.solver import STEP

if TYPE_CHECKING:
    from farkle_trainer.engine.tables import Tables


@dataclass(frozen=True)
class GameHint:
    """Every play of a roll by chance of winning, each with its expected-points valuation.

    ``game`` ranks the plays by the chance of winning; ``expected`` ranks the same selections
    by expected turn score, in the same moment played for points (the opening minimum in force
    only while the player has not opened, and on a turn that would be the third Farkle in a
    row, but for a last turn, the penalty it costs); ``points_best`` is the play that
    objective picks.
    """

    rules: Rules
    target: int
    opening: int
    game: Ranked
    expected: Ranked

    @property
    def situation(self) -> WinGame:
        assert isinstance(self.game.situation, WinGame)
        return self.game.situation

    @property
    def roll(self) -> tuple[int, ...]:
        return self.game.roll

    @property
    def points(self) -> int:
        return self.situation.points

    @property
    def my_score(self) -> int:
        return self.situation.score

    @property
    def opponent_score(self) -> int:
        return self.situation.opponent

    @property
    def last_turn(self) -> bool:
        return self.situation.last_turn

    @property
    def runs(self) -> Runs:
        return self.situation.runs

    @property
    def penalty(self) -> int:
        return self.rules.three_farkle_penalty

    @property
    def plays(self) -> tuple[Option, ...]:
        return self.game.options

    @property
    def best(self) -> Option | None:
        return self.game.table_play

    @property
    def points_best(self) -> Option | None:
        return self.expected.table_play

    def by_points(self, play: Option) -> Option:
        """The expected-points valuation of the same selection."""
        return self.expected.option(play.keep)

    def gives_up(self, play: Option) -> float:
        """What ``play``, played at its best, gives up against the best play, in percentage points."""
        assert self.best is not None
        return play.best.loss_to(self.best.best)

    def ties_best(self, play: Option) -> bool:
        """Whether a play is as good as the best: it gives up less than a tie (see ``TIE``)."""
        return self.gives_up(play) < TIE

    @property
    def objectives_differ(self) -> bool:
        """True when playing for points would keep other dice or take the other action."""
        best, points_best = self.best, self.points_best
        if best is None or points_best is None:
            return False
        return (best.keep, best.action) != (points_best.keep, points_best.action)


def game_hint(
    tables: Tables,
    roll: tuple[int, ...] | list[int],
    points: int,
    rules: Rules,
    my_score: int,
    opponent_score: int,
    *,
    target: int | None = None,
    opening: int | None = None,
    last_turn: bool = False,
    runs: Runs = NO_RUNS,
    progress: Progress | None = None,
) -> GameHint:
    """Value every play of ``roll`` by the exact chance of winning a two-player game.

    Without ``last_turn`` both scores are below the target. With it the opponent has
    reached the target and this is the player's final turn: only passing them counts
    (a tie counts one half). ``runs``: each player's Farkles in a row so far and who has
    opened, under the house rules. Raises :class:`GameSolverError` for a position that is
    not a game's.
    """
    target, opening = resolve(rules, target, opening)
    check_position(target, opening, rules.three_farkle_penalty, my_score, opponent_score, last_turn=last_turn)
    # Solved here, where a long solve can be followed; the valuation then finds it at hand.
    tables.game(rules, target, opening, progress=progress)

    def ranked(unit: Unit) -> Ranked:
        at = situation(
            rules,
            points,
            unit,
            score=my_score,
            leader=opponent_score,
            runs=runs,
            target=target,
            opening=opening,
        )
        return ranked_plays(tables, at, roll)

    return GameHint(rules, target, opening, ranked(Unit.WIN), ranked(Unit.POINTS))


@dataclass(frozen=True)
class Thresholds:
    """``roll while at most`` by dice to roll (1..6) at one pair of scores, for a player who
    has Farkled ``farkles`` turns in a row so far."""

    my_score: int
    opponent_score: int
    roll_while_at_most: dict[int, int | None]
    farkles: int = 0


@dataclass(frozen=True)
class GameStrategy:
    """The game solver's picture of a rule set, target and opening minimum."""

    rules: Rules
    target: int
    opening: int
    grid: WinGrid
    first_player_chance: float
    fair_head_start: int | None
    level: Thresholds  # at 0-0
    behind: Thresholds
    ahead: Thresholds
    #: Under the three-Farkle penalty: at an even score in mid-game, after 0, 1 and 2
    #: Farkles in a row (empty without the penalty).
    farkled: tuple[Thresholds, ...] = ()

    @property
    def penalty(self) -> int:
        return self.rules.three_farkle_penalty

    @property
    def gap(self) -> int:
        return self.ahead.my_score - self.ahead.opponent_score


def comparison_scores(target: int) -> tuple[int, int]:
    """The late-game scores the thresholds are shown at: 7,000 against 4,000 to 10,000.

    Scaled to other targets (to the nearest 50) so the picture means the same thing.
    """
    high = round(0.7 * target / STEP) * STEP
    gap = round(0.3 * target / STEP) * STEP
    return high, high - gap


def game_strategy(
    tables: Tables,
    rules: Rules,
    target: int | None = None,
    opening: int | None = None,
    *,
    step: int = 1000,
    progress: Progress | None = None,
) -> GameStrategy:
    """Win chances by score, the first player's edge and the bank thresholds by score."""
    target, opening = resolve(rules, target, opening)
    check_step(step, target)
    table = tables.game(rules, target, opening, progress=progress)
    high, low = comparison_scores(table.target)

    def thresholds(a: int, b: int, farkles: int = 0) -> Thresholds:
        runs = Runs(my_farkles=farkles)
        return Thresholds(a, b, {n: table.roll_while_at_most(a, b, n, runs) for n in range(1, 7)}, farkles)

    half = round(0.5 * table.target / STEP) * STEP
    farkled = tuple(thresholds(half, half, f) for f in range(FARKLES_FOR_PENALTY)) if table.penalty else ()

    return GameStrategy(
        rules=rules,
        target=table.target,
        opening=table.opening,
        grid=win_grid(table, step),
        first_player_chance=table.first_player_chance,
        fair_head_start=table.fair_head_start(),
        level=thresholds(0, 0),
        behind=thresholds(low, high),
        ahead=thresholds(high, low),
        farkled=farkled,
    )
