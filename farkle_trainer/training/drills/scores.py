"""Scores that real games reach: two-player games and solo games played forward.

Game and solo drills ask a turn at the scores of a game in progress. Those scores come from
games played turn by turn on drawn dice by players of different styles (one plays for the
best expected turn, one keeps every scoring die and banks at a modest total, one keeps as
few dice as it may and chases a big turn), so early, even, lopsided and end-of-game scores
all come up about as often as play reaches them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from farkle_trainer.engine.farkles import FARKLES_FOR_PENALTY, NO_RUNS, Runs
from farkle_trainer.engine.ranked import ranked_plays
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.engine.situations import TurnPoints

if TYPE_CHECKING:
    from farkle_trainer.engine.tables import Tables

_STYLES = ("perfect", "greedy", "bold")
_STYLE_WEIGHTS = (3.0, 2.0, 1.0)
_MODEST_STOPS = (300, 350, 400, 500, 600, 800)
_BOLD_STOPS = (1000, 1500, 2000)
_MAX_ROLLS = 40
#: A game is cut off here (far beyond any real game) so a run of Farkles cannot go on forever.
_MAX_TURNS = 400


def _turn(tables: Tables, rules: Rules, stream: Stream, style: str, stop: int, opening: int) -> int:
    """Play one turn as ``style``; the points it banks (0 after a Farkle)."""
    t, n = 0, 6
    for _ in range(_MAX_ROLLS):
        options = ranked_plays(tables, TurnPoints(rules, t, opening), stream.dice(n)).options
        if not options:
            return 0
        if style == "perfect":
            play = options[0]
            banks = play.action == "bank"
        else:
            if style == "greedy":
                play = max(options, key=lambda x: (x.score, x.dice_to_roll))
            else:
                play = min(options, key=lambda x: (len(x.keep), -x.score))
            banks = play.bank is not None and play.dice_left > 0 and play.points_after >= stop
        if banks:
            return play.points_after
        t, n = play.points_after, play.dice_to_roll
    return t


def _player(stream: Stream) -> tuple[str, int]:
    style = stream.weighted(_STYLES, _STYLE_WEIGHTS)
    return style, stream.choice(_BOLD_STOPS if style == "bold" else _MODEST_STOPS)


@dataclass(frozen=True)
class Start:
    """A turn start drawn from a game in progress: the mover's banked score, the opponent's
    (None in solo), and under the three-Farkle penalty the runs of Farkles and who has opened."""

    banked: int
    opponent: int | None = None
    runs: Runs = NO_RUNS


def _standing(rules: Rules, scores: list[int], farkles: list[int], opened: list[bool], seat: int) -> Runs:
    if not rules.three_farkle_penalty:
        return NO_RUNS

    def knocked_back(i: int) -> bool | None:
        return True if scores[i] == 0 and opened[i] and rules.opening_minimum else None

    other = 1 - seat if len(scores) == 2 else seat
    theirs = (farkles[other], knocked_back(other)) if other != seat else (0, None)
    return Runs(farkles[seat], theirs[0], knocked_back(seat), theirs[1])


def _played(tables: Tables, rules: Rules, target: int, stream: Stream, players: int) -> Start:
    """A game played forward to ``target`` by ``players`` drawn players (the rules' opening
    minimum and three-Farkle penalty apply); one of its turn starts before the final round."""
    styles = [_player(stream) for _ in range(players)]
    scores, farkles, opened = [0] * players, [0] * players, [False] * players
    starts: list[Start] = []
    mover = 0
    for _ in range(_MAX_TURNS):
        other = scores[1 - mover] if players == 2 else None
        starts.append(Start(scores[mover], other, _standing(rules, scores, farkles, opened, mover)))
        style, stop = styles[mover]
        opening = 0 if opened[mover] else rules.opening_minimum
        banked = _turn(tables, rules, stream, style, max(stop, opening), opening)
        if banked:
            scores[mover] += banked
            farkles[mover], opened[mover] = 0, True
        else:
            farkles[mover] += 1
            if farkles[mover] == FARKLES_FOR_PENALTY:
                scores[mover] = max(0, scores[mover] - rules.three_farkle_penalty)
                farkles[mover] = 0
        if scores[mover] >= target:
            break
        mover = (mover + 1) % players
    return stream.choice(starts)


def game_scores(tables: Tables, rules: Rules, target: int, stream: Stream) -> Start:
    """A turn start of a two-player game played forward (see :func:`_played`)."""
    return _played(tables, rules, target, stream, 2)


def solo_score(tables: Tables, rules: Rules, target: int, stream: Stream) -> Start:
    """A turn start of a solo game to ``target``, drawn like :func:`game_scores`."""
    return _played(tables, rules, target, stream, 1)
