"""A roll's plays ranked by the chance of winning the game, beside the expected-points choice.

The data behind ``hint --score/--opponent`` and ``strategy --game``: the game solver's
answers joined to the turn solver's, so a view can show where the two objectives part.
"""

from __future__ import annotations

from dataclasses import dataclass

from farkle_trainer.engine.dice import counts_of
from farkle_trainer.engine.game import (
    GamePlay,
    GamePlays,
    GameSolverError,
    GameTable,
    Progress,
    WinGrid,
    game_plays,
    solve_game,
    win_grid,
)
from farkle_trainer.engine.plays import Hint, Play, hint
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.solver import STEP


@dataclass(frozen=True)
class GameHint:
    """Every play of a roll by chance of winning, each with its expected-points valuation.

    ``expected`` holds the same selections valued by expected turn score (the opening
    minimum in force only while the player has nothing banked); ``points_best`` is the
    play that objective picks.
    """

    rules: Rules
    target: int
    opening: int
    game: GamePlays
    expected: Hint

    @property
    def plays(self) -> tuple[GamePlay, ...]:
        return self.game.plays

    @property
    def best(self) -> GamePlay | None:
        return self.game.best

    @property
    def points_best(self) -> Play | None:
        return self.expected.best

    def by_points(self, play: GamePlay) -> Play:
        """The expected-points valuation of the same selection."""
        return next(p for p in self.expected.plays if p.keep == play.keep)

    @property
    def objectives_differ(self) -> bool:
        """True when playing for points would keep other dice or take the other action."""
        best, points_best = self.best, self.points_best
        if best is None or points_best is None:
            return False
        return (best.keep, best.action) != (points_best.keep, points_best.value.action)


def game_hint(
    roll: tuple[int, ...] | list[int],
    points: int,
    rules: Rules,
    my_score: int,
    opponent_score: int,
    *,
    target: int | None = None,
    opening: int | None = None,
    last_turn: bool = False,
    progress: Progress | None = None,
) -> GameHint:
    """Value every play of ``roll`` by the exact chance of winning a two-player game.

    Without ``last_turn`` both scores are below the target. With it the opponent has
    reached the target and this is the player's final turn: only passing them counts
    (a tie counts one half). Raises :class:`GameSolverError` for a position that is not
    a game's.
    """
    table = solve_game(rules, target, opening, progress=progress)
    _check_position(table, my_score, opponent_score, last_turn)
    plays = game_plays(counts_of(roll), points, my_score, opponent_score, table, last_turn=last_turn)
    in_force = table.opening if my_score == 0 else 0
    expected = hint(roll, points, rules, opening=in_force)
    return GameHint(rules, table.target, table.opening, plays, expected)


def _check_position(table: GameTable, my_score: int, opponent_score: int, last_turn: bool) -> None:
    target = table.target
    for who, score in (("your score", my_score), ("the opponent's score", opponent_score)):
        if score < 0 or score % STEP:
            raise GameSolverError(f"{who} must be a non-negative multiple of {STEP}, not {score:,}")
    if table.opening:
        for who, score in (("your score", my_score), ("the opponent's score", opponent_score)):
            if 0 < score < table.opening and not (last_turn and score >= target):
                raise GameSolverError(
                    f"{who} of {score:,} cannot happen with an opening minimum of {table.opening:,}: "
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


@dataclass(frozen=True)
class Thresholds:
    """``roll while at most`` by dice to roll (1..6) at one pair of scores."""

    my_score: int
    opponent_score: int
    roll_while_at_most: dict[int, int | None]


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
    rules: Rules,
    target: int | None = None,
    opening: int | None = None,
    *,
    step: int = 1000,
    progress: Progress | None = None,
) -> GameStrategy:
    """Win chances by score, the first player's edge and the bank thresholds by score."""
    if step <= 0 or step % STEP:
        raise GameSolverError(f"the step must be a positive multiple of {STEP}, not {step:,}")
    table = solve_game(rules, target, opening, progress=progress)
    if step >= table.target:
        raise GameSolverError(f"the step must be below the target of {table.target:,}, not {step:,}")
    high, low = comparison_scores(table.target)

    def thresholds(a: int, b: int) -> Thresholds:
        return Thresholds(a, b, {n: table.roll_while_at_most(a, b, n) for n in range(1, 7)})

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
    )
