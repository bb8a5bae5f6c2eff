"""``explain``, ``hint`` and ``strategy``: the engine's answers, rendered."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import typer

from farkle_trainer.cli.app import command_group
from farkle_trainer.cli.errors import fail
from farkle_trainer.cli.game import (
    FarklesOpt,
    GameOpt,
    LastTurnOpt,
    OpenedOpt,
    OpponentFarklesOpt,
    OpponentOpenedOpt,
    OpponentOpt,
    ScoreOpt,
    StepOpt,
)
from farkle_trainer.cli.groups import Options
from farkle_trainer.cli.options import DiceArg, JsonOpt, OpeningOpt, PenaltyOpt, PlainOpt, RulesOpt, TargetOpt
from farkle_trainer.cli.params import dice_from, parse_points
from farkle_trainer.cli.rules import load, opening_for, with_penalty
from farkle_trainer.ui.progress import turn_progress
from farkle_trainer.ui.terminal import open_terminal

app = command_group()


@dataclass(frozen=True)
class AnswerOptions(Options):
    """The rule table an engine command answers on, and how the answer is printed."""

    rules: RulesOpt = "classic"
    plain: PlainOpt = False
    json: JsonOpt = False


@app.command(short_help="What a set of dice scores, and why.")
def explain(dice: DiceArg, *, options: AnswerOptions) -> None:
    """Score a set of dice and show the split, or which dice score nothing and why.

    Also says what the best set-aside would be if the dice were a roll, or that
    it is a Farkle.  Example: farkle-train explain 1 1 1 1 5 5
    """
    from farkle_trainer.engine.scoring import explain as explain_dice
    from farkle_trainer.ui.views import engine as render

    table = load(options.rules)
    result = explain_dice(dice_from(dice), table)
    out = open_terminal(options.plain)
    if options.json:
        out.json(render.explain_data(result, table.name))
    else:
        out.show(render.explain_text(result, table.name), lambda: render.explain_rich(result, table.name))


@app.command(short_help="Every way to play a roll, best first.")
def hint(
    dice: DiceArg,
    points: Annotated[
        str, typer.Option("--points", "-p", metavar="POINTS", help="Turn points already set aside.")
    ] = "0",
    need: Annotated[
        str | None,
        typer.Option(
            "--need",
            metavar="POINTS",
            help="Rank plays by the exact chance of ending the turn with at least this many points.",
        ),
    ] = None,
    score: ScoreOpt = None,
    opponent: OpponentOpt = None,
    target: TargetOpt = None,
    last_turn: LastTurnOpt = False,
    opening: OpeningOpt = None,
    penalty: PenaltyOpt = None,
    farkles: FarklesOpt = None,
    opponent_farkles: OpponentFarklesOpt = None,
    opened: OpenedOpt = False,
    opponent_opened: OpponentOpenedOpt = False,
    *,
    options: AnswerOptions,
) -> None:
    """Every way to play a roll, with the exact expected turn score of each.

    With --score and --opponent, ranked by the exact chance of winning a two-player game.
    Example: farkle-train hint 1 5 2 2 3 6 --points 300 --score 8200 --opponent 9100
    """
    from farkle_trainer.engine.plays import hint as make_hint
    from farkle_trainer.ui.views import engine as render

    table = load(options.rules)
    roll = dice_from(dice)
    at_stake = parse_points(points, "--points")
    if score is not None or opponent is not None:
        if need is not None:
            fail("--need is for a single turn; with --score and --opponent the game decides what is needed")
        from farkle_trainer.cli import game

        term = open_terminal(options.plain)
        game.game_hint(
            term,
            roll,
            at_stake,
            with_penalty(table, penalty),
            score=score,
            opponent=opponent,
            target=target,
            opening=opening,
            last_turn=last_turn,
            farkles=farkles,
            opponent_farkles=opponent_farkles,
            opened=opened,
            opponent_opened=opponent_opened,
            json=options.json,
        )
        return
    describe_a_game = (target, penalty, farkles, opponent_farkles)
    if last_turn or opened or opponent_opened or any(x is not None for x in describe_a_game):
        fail(
            "--target, --last-turn, --penalty, the Farkles in a row and who has opened describe a game: "
            "give --score and --opponent too"
        )
    from farkle_trainer.cli.storage import solved_tables

    needed = parse_points(need, "--need", positive=True) if need is not None else None
    out = open_terminal(options.plain)
    with turn_progress(out, quiet=options.json) as progress:
        result = make_hint(
            solved_tables(),
            roll,
            at_stake,
            table,
            opening=opening_for(table, opening),
            need=needed,
            progress=progress,
        )
    if options.json:
        out.json(render.hint_data(result))
    else:
        out.show(render.hint_text(result), lambda: render.hint_rich(result))


@app.command(short_help="Bank thresholds and odds, by the solver.")
def strategy(
    game: GameOpt = False,
    target: TargetOpt = None,
    step: StepOpt = None,
    opening: OpeningOpt = None,
    penalty: PenaltyOpt = None,
    *,
    options: AnswerOptions,
) -> None:
    """The solver's summary: expected turn score, Farkle odds, bank thresholds.

    With --game: two-player win chances by score and the bank thresholds by score.
    Example: farkle-train strategy --rules multiplier
    """
    from farkle_trainer.engine.strategy import strategy as summarize
    from farkle_trainer.ui.views import engine as render

    table = load(options.rules)
    if game:
        from farkle_trainer.cli.game import game_strategy

        game_strategy(
            open_terminal(options.plain),
            with_penalty(table, penalty),
            target=target,
            opening=opening,
            step=step,
            json=options.json,
        )
        return
    if target is not None or step is not None or penalty is not None:
        fail("--target, --step and --penalty are for the game picture: add --game")
    from farkle_trainer.cli.storage import solved_tables

    out = open_terminal(options.plain)
    with turn_progress(out, quiet=options.json) as progress:
        result = summarize(solved_tables(), table, opening=opening_for(table, opening), progress=progress)
    if options.json:
        out.json(render.strategy_data(result))
    else:
        out.show(render.strategy_text(result), lambda: render.strategy_rich(result))
