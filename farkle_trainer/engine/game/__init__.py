"""The exact game solver: the chance of winning a two-player game, and solo in fewest turns.

Scores and turn points are counted in levels of 50. By concept, from the ground up:

* :mod:`.settings`: what a game can be solved for, and the error for the rest;
* :mod:`.seats`: where a player stands at a turn's start, runs of Farkles included;
* :mod:`.rolls`: every roll as the set of options it offers, equal sets merged;
* :mod:`.final`: the last turn, passing a leader;
* :mod:`.cuts`: where a turn above the target certainly banks;
* :mod:`.turns` and :mod:`.kernel`: one evaluation of many turns, with numpy or compiled;
* :mod:`.table`: a solved two-player game's chances, inside a turn and by score;
* :mod:`.solve`: the two-player solve, total by total, by Newton steps;
* :mod:`.runs`: the same under the three-Farkle penalty, by sweeps over the totals;
* :mod:`.solo`: solo play for the fewest turns.

A caller asks its :class:`~farkle_trainer.engine.tables.Tables` for a solved table
(:meth:`~farkle_trainer.engine.tables.Tables.game`, :meth:`~farkle_trainer.engine.tables.Tables.solo`),
which holds it and has its keeper keep it.
"""

from __future__ import annotations

from farkle_trainer.engine.farkles import NO_RUNS, Runs
from farkle_trainer.engine.game.settings import GameSolverError, Progress
from farkle_trainer.engine.game.solo import SoloTable
from farkle_trainer.engine.game.solve import TOLERANCE
from farkle_trainer.engine.game.table import GameTable, WinGrid, win_grid

__all__ = (
    "NO_RUNS",
    "TOLERANCE",
    "GameSolverError",
    "GameTable",
    "Progress",
    "Runs",
    "SoloTable",
    "WinGrid",
    "win_grid",
)
