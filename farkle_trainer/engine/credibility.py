"""Whether a game's rolls could have come from fair dice: a test that a fair game fails less than
once in a billion games, whatever the players choose and however long the game goes on.

Each roll is measured by the most it can set aside, ``S`` (0 for a Farkle). Over every fair
roll of as many dice, its upper tail ``U = P(S >= s)`` is at least as likely to be large as a
uniform number is (``P(U <= u) <= u``), and so is its lower tail ``L = P(S <= s)``. So for any
``k`` in (0, 1) the bet ``k * U**(k - 1)`` is worth at most 1 on average on fair dice, however
many dice are rolled: ``E[U**(k - 1)] <= integral of u**(k - 1) from 0 to 1 = 1 / k``. A bet on
each of one player's rolls in turn, the winnings staked again, is a fair game's martingale that
starts at 1 and never goes below 0, whoever chooses how many dice come next and when the game
stops. The test holds :data:`BOLDNESS` such bets on each player's luck and on each player's bad
luck, with equal stakes; by Ville's inequality their average ever reaches :data:`THRESHOLD`
with a chance of at most ``1 / THRESHOLD`` on fair dice.

A player who rolls six 1s every time wins ``k * (6 / 46656)**(k - 1)``, 44 with ``k = 1/2``,
on each roll, and a player whose every roll of six dice is a Farkle 3.3: a game of such rolls
fails the test within a few dozen of them. A game whose dice are only a little kinder than
fair ones passes: no test of a single game can tell mild luck from a mild forgery.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from farkle_trainer.engine.dice import MAX_DICE, counts_of, multisets, roll_chance
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.scoring import score_table

#: A fair game reaches it with a chance of at most one in this many (Ville's inequality).
THRESHOLD = 10**9
#: The exponents ``k`` of the bets on each player's luck, from cautious to bold: a bold bet wins
#: most on a few very unlikely rolls, a cautious one on many somewhat unlikely rolls.
BOLDNESS: tuple[float, ...] = (1 / 2, 1 / 4, 1 / 8)


@dataclass(frozen=True)
class Tails:
    """For each value a roll of some number of dice can set aside at most: the chance of a fair
    roll setting aside at least that (``upper``) and at most that (``lower``)."""

    upper: dict[int, float]
    lower: dict[int, float]


def best_points(rules: Rules, roll: Sequence[int]) -> int:
    """The most a roll can set aside, 0 for a Farkle."""
    best = score_table(rules).best_selection(counts_of(roll))
    return 0 if best is None else best.points


@cache
def tails(rules: Rules, dice: int) -> Tails:
    """The exact tails of :func:`best_points` over every fair roll of ``dice`` dice."""
    if not 1 <= dice <= MAX_DICE:
        raise ValueError(f"a roll has 1 to {MAX_DICE} dice, not {dice!r}")
    table = score_table(rules)
    chance: dict[int, float] = {}
    for counts in multisets(dice):
        best = table.best_selection(counts)
        points = 0 if best is None else best.points
        chance[points] = chance.get(points, 0.0) + float(roll_chance(counts))
    values = sorted(chance)
    upper: dict[int, float] = {}
    lower: dict[int, float] = {}
    above = below = 0.0
    for value in reversed(values):
        above += chance[value]
        upper[value] = min(1.0, above)
    for value in values:
        below += chance[value]
        lower[value] = min(1.0, below)
    return Tails(upper, lower)


def log_bet(tail: float, k: float) -> float:
    """The log of what the bet ``k * tail**(k - 1)`` returns on a roll of that tail."""
    return math.log(k) + (k - 1) * math.log(tail)


@dataclass(frozen=True)
class Evidence:
    """How far a game's rolls went against fair dice: ``peak`` is the natural log of the most
    the test's stakes were ever worth together (0 at the start); ``seat`` and ``lucky`` say whose
    luck (good or bad) weighed most then (None before a roll)."""

    peak: float
    seat: int | None = None
    lucky: bool = True

    @property
    def credible(self) -> bool:
        """Whether fair dice could well have given these rolls: the test stayed below THRESHOLD."""
        return self.peak < math.log(THRESHOLD)


def dice_evidence(rules: Rules, players: int, rolls: Iterable[tuple[int, Sequence[int]]]) -> Evidence:
    """The test of the module on a game of ``players`` played on ``rules``: ``rolls`` are every
    roll thrown, in order, each with the seat that threw it."""
    if players < 1:
        raise ValueError("a game has at least one player")
    bets = [(seat, lucky, k) for seat in range(players) for lucky in (True, False) for k in BOLDNESS]
    logs = [0.0] * len(bets)
    share = math.log(len(bets))
    peak = Evidence(0.0)
    for seat, roll in rolls:
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat!r} is not one of {players} players")
        t = tails(rules, len(roll))
        points = best_points(rules, roll)
        for i, (bettor, lucky, k) in enumerate(bets):
            if bettor == seat:
                logs[i] += log_bet(t.upper[points] if lucky else t.lower[points], k)
        top = max(logs)
        together = top + math.log(sum(math.exp(v - top) for v in logs)) - share
        if together > peak.peak:
            leader = bets[logs.index(top)]
            peak = Evidence(together, leader[0], leader[1])
    return peak
