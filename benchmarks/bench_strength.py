"""The play against perfect play, checked against the win rate it predicts, and that it separates
the built-in players.

Run with ``python benchmarks/bench_strength.py [GAMES] [TARGET]`` (after installing the project;
300 games to 10,000 on ``classic`` by default, the shipped tables, a few minutes on two cores).
Three players each play ``GAMES`` seeded games against Hard, half of them from the first seat:
Easy, Medium (whose decisions are made as the computers of those levels make them) and a player
who keeps the most points of every roll and banks at once. For each:

* the play against perfect play: the mean of each game's figure (the seat's exact chance at the
  start less the win chance the decisions gave up), with its standard error;
* the measured win rate against Hard, with its standard error;
* the difference of the two, with the standard error of the difference game by game: against
  Hard, which gives up nothing, each game's result less its figure is the dice's luck alone, 0 on
  average, so the two must agree within two standard errors;
* the figure taking each seat in turn (1/2 less the mean given up), its rating difference to
  perfect play, and the mean given up a game, in percentage points;
* for comparison, the mean of lichess's accuracy of the decisions (103.1668 e^(-0.04354 loss) -
  3.1669 per decision, loss in percentage points of win chance), the figure this project dropped.

The run fails (exit 1) if any player's figure and win rate disagree by more than two standard
errors, or if the three players' figures are not apart by more than four standard errors each.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from farkle_trainer.engine.dice import counts_of
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.tables import Tables
from farkle_trainer.training.games import computers
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games.analysis import game_strengths, review
from farkle_trainer.training.games.dice import Seeded
from farkle_trainer.training.games.setup import Level, Player, new_setup

Policy = Callable[[Tables, m.MatchState], computers.Choice]


def bank_at_once(tables: Tables, state: m.MatchState) -> computers.Choice:
    """Keep the most points of the roll, and bank (where banking is allowed at all)."""
    best = max(
        score_table(state.rules).selections(counts_of(state.roll)), key=lambda s: (s.points, len(s.dice))
    )
    kept = m.set_aside(state, best.dice)
    return computers.Choice(best.dice, "bank" if kept.can_bank else "roll")


PLAYERS: dict[str, Policy] = {
    "easy": lambda tables, state: computers.easy(state),
    "medium": computers.medium,
    "bank at once": bank_at_once,
}


def lichess(lost: float) -> float:
    """lichess's accuracy of a move that gives up ``lost`` percentage points of win chance."""
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * lost) - 3.1669))


@dataclass
class Games:
    figures: list[float]
    results: list[float]
    given_up: list[float]
    accuracy: list[float]


def play(tables: Tables, policy: Policy, seed: str, first: bool, target: int) -> m.MatchState:
    """A game of ``policy`` against Hard on seed ``seed``'s dice, the player first or second."""
    me, hard = Player("You"), Player("Hard", Level.HARD)
    setup = new_setup((me, hard) if first else (hard, me), target=target, dice=Seeded(seed, chosen=True))
    source = setup.source()
    state = m.new_match(setup)
    while not state.over:
        if not state.player.human:
            state = computers.step(tables, state, source)
        elif state.phase == "roll":
            state = m.roll(state, source)
        else:
            choice = policy(tables, state)
            state = m.play(state, source, choice.keep, choice.action)
    return state


def mean_and_error(values: list[float]) -> tuple[float, float]:
    mean = sum(values) / len(values)
    variance = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return mean, math.sqrt(variance / len(values))


def rating(p: float) -> float:
    return 400 * math.log10(p / (1 - p)) if 0 < p < 1 else float("nan")


def main() -> int:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    target = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
    print(f"{count} seeded games against Hard to {target:,} on classic for each player, half from each seat.")
    print()
    header = (
        f"{'player':<13} {'figure':>15} {'win rate':>15} {'difference':>16} {'each seat':>15} "
        f"{'rating':>7} {'given up':>9} {'lichess':>8} {'time':>6}"
    )
    print(header)
    tables = Tables()  # held in memory only, as the benchmark keeps nothing
    found: dict[str, tuple[float, float]] = {}
    ok = True
    for name, policy in PLAYERS.items():
        started = time.perf_counter()
        games = Games([], [], [], [])
        for n in range(count):
            state = play(tables, policy, str(n), n % 2 == 0, target)
            seat = state.setup.humans[0]
            strength = game_strengths(tables, state)[seat]
            games.figures.append(strength.expected_result)
            games.results.append(strength.result)
            games.given_up.append(strength.given_up)
            games.accuracy += [lichess(r.lost) for r in review(tables, state)]
        figure, figure_se = mean_and_error(games.figures)
        result, result_se = mean_and_error(games.results)
        diff, diff_se = mean_and_error([r - f for r, f in zip(games.results, games.figures, strict=True)])
        given_up, given_up_se = mean_and_error(games.given_up)
        seats = 0.5 - given_up / 100
        accuracy = sum(games.accuracy) / len(games.accuracy)
        agree = abs(diff) <= 2 * diff_se
        ok = ok and agree
        found[name] = (figure, figure_se)
        print(
            f"{name:<13} {100 * figure:6.2f}% ± {100 * figure_se:4.2f} "
            f"{100 * result:6.2f}% ± {100 * result_se:4.2f} "
            f"{100 * diff:+6.2f} ± {100 * diff_se:4.2f}{'' if agree else '!'} "
            f"{100 * seats:6.2f}% ± {given_up_se:4.2f} {rating(seats):7.0f} {given_up:7.2f}pp"
            f" {accuracy:7.1f}% {time.perf_counter() - started:5.0f}s"
        )
    print()
    names = list(found)
    for a, b in zip(names, names[1:] + names[:1], strict=True):
        (fa, sa), (fb, sb) = found[a], found[b]
        apart = abs(fa - fb) / math.hypot(sa, sb)
        ok = ok and apart > 4
        print(f"{a} and {b}: {100 * abs(fa - fb):.2f} pp apart, {apart:.1f} standard errors")
    print(
        "figures and win rates agree within two standard errors; the players read apart" if ok else "FAILED"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
