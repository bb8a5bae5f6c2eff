"""Scores that real games reach: two-player games and solo games played forward.

Game and solo drills ask a turn at the scores of a game in progress. Those scores come from
games played turn by turn on drawn dice by players of different styles (one plays for the
best expected turn, one keeps every scoring die and banks at a modest total, one keeps as
few dice as it may and chases a big turn), so early, even, lopsided and end-of-game scores
all come up about as often as play reaches them.
"""

from __future__ import annotations

from farkle_trainer.engine.plays import hint
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.seeded import Stream

_STYLES = ("perfect", "greedy", "bold")
_STYLE_WEIGHTS = (3.0, 2.0, 1.0)
_MODEST_STOPS = (300, 350, 400, 500, 600, 800)
_BOLD_STOPS = (1000, 1500, 2000)
_MAX_ROLLS = 40
#: A game is cut off here (far beyond any real game) so a run of Farkles cannot go on forever.
_MAX_TURNS = 400


def _turn(rules: Rules, stream: Stream, style: str, stop: int, opening: int) -> int:
    """Play one turn as ``style``; the points it banks (0 after a Farkle)."""
    t, n = 0, 6
    for _ in range(_MAX_ROLLS):
        h = hint(stream.dice(n), t, rules, opening=opening)
        if h.farkle:
            return 0
        if style == "perfect":
            play = h.plays[0]
            banks = play.value.action == "bank"
        else:
            if style == "greedy":
                play = max(h.plays, key=lambda x: (x.score, x.dice_to_roll))
            else:
                play = min(h.plays, key=lambda x: (len(x.keep), -x.score))
            banks = play.value.bank is not None and play.dice_left > 0 and play.points_after >= stop
        if banks:
            return play.points_after
        t, n = play.points_after, play.dice_to_roll
    return t


def _player(stream: Stream) -> tuple[str, int]:
    style = stream.weighted(_STYLES, _STYLE_WEIGHTS)
    return style, stream.choice(_BOLD_STOPS if style == "bold" else _MODEST_STOPS)


def game_scores(rules: Rules, target: int, stream: Stream) -> tuple[int, int]:
    """The banked scores (player to move, opponent) at a turn of a two-player game.

    A whole game is played to ``target`` (the rules' opening minimum applies) and one of
    its turn starts before the final round is drawn.
    """
    players = [_player(stream), _player(stream)]
    scores = [0, 0]
    starts: list[tuple[int, int]] = []
    mover = 0
    for _ in range(_MAX_TURNS):
        me, other = scores[mover], scores[1 - mover]
        starts.append((me, other))
        style, stop = players[mover]
        opening = 0 if me else rules.opening_minimum
        scores[mover] = me + _turn(rules, stream, style, max(stop, opening), opening)
        if scores[mover] >= target:
            break
        mover = 1 - mover
    return stream.choice(starts)


def solo_score(rules: Rules, target: int, stream: Stream) -> int:
    """The banked score at a turn of a solo game to ``target``, drawn like :func:`game_scores`."""
    style, stop = _player(stream)
    score = 0
    starts: list[int] = []
    for _ in range(_MAX_TURNS):
        starts.append(score)
        opening = 0 if score else rules.opening_minimum
        score += _turn(rules, stream, style, max(stop, opening), opening)
        if score >= target:
            break
    return stream.choice(starts)
