"""The game forms of ``hint`` and ``strategy``: win chances from the game solver.

The commands themselves live in :mod:`farkle_trainer.cli.engine`; these are their game
branches, with the options only they take.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from farkle_trainer.cli.errors import fail
from farkle_trainer.cli.params import NotANumber, parse_points, parse_target, quoted, whole

if TYPE_CHECKING:
    from farkle_trainer.engine.rules import Rules
    from farkle_trainer.ui.terminal import Terminal

ScoreOpt = Annotated[
    str | None,
    typer.Option(
        "--score",
        metavar="POINTS",
        help="Your banked score in a two-player game: rank plays by the exact chance of winning "
        "(needs --opponent).",
        show_default=False,
    ),
]
OpponentOpt = Annotated[
    str | None,
    typer.Option(
        "--opponent", metavar="POINTS", help="The opponent's banked score (with --score).", show_default=False
    ),
]
LastTurnOpt = Annotated[
    bool,
    typer.Option(
        "--last-turn",
        help="The opponent has reached the target and this is your final turn: rank plays by the "
        "chance of passing them (a tie counts one half).",
    ),
]
GameOpt = Annotated[
    bool,
    typer.Option(
        "--game",
        help="Two-player win chances by score, the first player's edge, the fair head start and "
        "how the bank thresholds move with the score.",
    ),
]


def _runs_option(name: str, whose: str) -> Any:
    return typer.Option(
        name,
        metavar="N",
        help=f"With the three-Farkle penalty: {whose} Farkled turns in a row so far, 0 to 2 (default 0).",
        show_default=False,
    )


FarklesOpt = Annotated[str | None, _runs_option("--farkles", "your")]
OpponentFarklesOpt = Annotated[str | None, _runs_option("--opponent-farkles", "the opponent's")]


def _opened_option(name: str, who: str) -> Any:
    return typer.Option(
        name,
        help=f"With the three-Farkle penalty and an opening minimum: {who} on 0 but opened already "
        "(knocked back by the penalty), so the minimum no longer holds.",
    )


OpenedOpt = Annotated[bool, _opened_option("--opened", "you are")]
OpponentOpenedOpt = Annotated[bool, _opened_option("--opponent-opened", "the opponent is")]
StepOpt = Annotated[
    str | None,
    typer.Option(
        "--step",
        metavar="POINTS",
        help="With --game: the grid's spacing, e.g. 500 or 1000 (default 1000).",
        show_default=False,
    ),
]


def _target(target: str | None) -> int | None:
    return None if target is None else parse_target(target)


def _opening(opening: str | None) -> int | None:
    return None if opening is None else parse_points(opening, "--opening")


def _farkles(text: str | None, option: str) -> int:
    if text is None:
        return 0
    try:
        runs: int | None = whole(text)
    except NotANumber:
        runs = None
    if runs not in (0, 1, 2):
        fail(f"{option} is how many turns in a row ended in a Farkle so far: 0, 1 or 2, not {quoted(text)}")
    return runs


def _check_opened(rules: Rules, opening: int, flags: tuple[tuple[str, bool, int], ...]) -> None:
    """Refuse ``--opened`` or ``--opponent-opened`` where no player on 0 can have opened: only the
    three-Farkle penalty knocks a player back to 0, and only an opening minimum makes it matter."""
    given = [(option, score) for option, flag, score in flags if flag]
    if not given:
        return
    option, _ = given[0]
    if not rules.three_farkle_penalty:
        fail(
            f"{option} is for a player knocked back to 0 by the three-Farkle penalty: "
            "add --penalty 500 or --penalty 1000"
        )
    if not opening:
        fail(f"{option} matters only under an opening minimum: without one a player on 0 may bank anything")
    for option, score in given:
        if score:
            fail(f"{option} is for a player on 0: one with {score:,} banked has opened already")


def game_hint(
    term: Terminal,
    roll: tuple[int, ...],
    at_stake: int,
    rules: Rules,
    *,
    score: str | None,
    opponent: str | None,
    target: str | None,
    opening: str | None,
    last_turn: bool,
    farkles: str | None,
    opponent_farkles: str | None,
    json: bool,
    opened: bool = False,
    opponent_opened: bool = False,
) -> None:
    from farkle_trainer.cli.storage import solved_tables
    from farkle_trainer.engine.farkles import Runs
    from farkle_trainer.engine.gameplan import check_position
    from farkle_trainer.ui.progress import solving

    if score is None or opponent is None:
        fail("--score and --opponent go together: give both banked scores")
    mine = parse_points(score, "--score")
    theirs = parse_points(opponent, "--opponent")
    in_a_row = (_farkles(farkles, "--farkles"), _farkles(opponent_farkles, "--opponent-farkles"))
    if in_a_row != (0, 0) and not rules.three_farkle_penalty:
        fail("Farkles in a row count only with the three-Farkle penalty: add --penalty 500 or --penalty 1000")
    tables = solved_tables()
    (table,) = tables.plan(rules, _target(target), _opening(opening))
    _check_opened(
        rules, table.opening, (("--opened", opened, mine), ("--opponent-opened", opponent_opened, theirs))
    )
    runs = Runs(*in_a_row, True if opened else None, True if opponent_opened else None)
    check_position(table.target, table.opening, rules.three_farkle_penalty, mine, theirs, last_turn=last_turn)
    # Said before the solver loads: the sentence, if this game must be solved first.
    with solving(term, tables, (table,), quiet=json) as progress:
        from farkle_trainer.engine.gamehint import game_hint as make_hint

        result = make_hint(
            tables,
            roll,
            at_stake,
            rules,
            mine,
            theirs,
            target=_target(target),
            opening=_opening(opening),
            last_turn=last_turn,
            runs=runs,
            progress=progress,
        )
    from farkle_trainer.ui.views import game as render

    if json:
        term.json(render.game_hint_data(result))
    else:
        term.show(render.game_hint_text(result), lambda: render.game_hint_rich(result))


def game_strategy(
    term: Terminal,
    rules: Rules,
    *,
    target: str | None,
    opening: str | None,
    step: str | None,
    json: bool,
) -> None:
    from farkle_trainer.cli.storage import solved_tables
    from farkle_trainer.engine.gameplan import check_step
    from farkle_trainer.ui.progress import solving

    spacing = 1000 if step is None else parse_points(step, "--step", positive=True)
    tables = solved_tables()
    needs = tables.plan(rules, _target(target), _opening(opening))
    check_step(spacing, needs[0].target)
    with solving(term, tables, needs, quiet=json) as progress:
        from farkle_trainer.engine.gamehint import game_strategy as summarize

        result = summarize(tables, rules, _target(target), _opening(opening), step=spacing, progress=progress)
    from farkle_trainer.ui.views import game as render

    if json:
        term.json(render.game_strategy_data(result))
    else:
        term.show(render.game_strategy_text(result), lambda: render.game_strategy_rich(result))
