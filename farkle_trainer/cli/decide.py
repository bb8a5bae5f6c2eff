"""``decide``: bank-or-roll drills graded by exact expected value, recorded as training progress."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated

import typer

from farkle_trainer.cli.app import command_group
from farkle_trainer.cli.classcode import SessionOptions, end_result, start_session
from farkle_trainer.cli.completion import complete_kinds
from farkle_trainer.cli.errors import fail
from farkle_trainer.cli.options import (
    DrillTargetOpt,
    PenaltyOpt,
    count_option,
    json_option,
    kind_option,
    level_option,
    seed_option,
)
from farkle_trainer.cli.rules import load, with_penalty, with_target
from farkle_trainer.cli.storage import open_store_or_explain

if TYPE_CHECKING:
    from farkle_trainer.engine.kinds import Kind

app = command_group()


@app.command(short_help="Bank-or-roll drills graded exactly.")
def decide(
    kind: Annotated[
        list[str] | None,
        kind_option(
            "KIND",
            "bank-or-roll, keep, final-round, opening, game or solo (repeat, or a comma list). "
            "Default: the turn kinds you are ready for (all four with --seed or --code).",
            complete_kinds,
            show_default=False,
        ),
    ] = None,
    count: Annotated[int, count_option("decisions")] = 10,
    seed: Annotated[
        int | None,
        seed_option(
            "A whole number: the same seed gives the same drills on any machine, whatever your "
            "progress, so a class can take one drill."
        ),
    ] = None,
    level: Annotated[
        str | None,
        level_option(
            "How close the decisions are: the best play is ahead by 40 points or more (easy), "
            "10 to 40 (medium), under 10 (hard). Default: any, mostly close ones."
        ),
    ] = None,
    strategy: Annotated[
        bool, typer.Option("--strategy", help="After grading, show the bank threshold you should have used.")
    ] = False,
    mistakes: Annotated[
        bool,
        typer.Option(
            "--mistakes",
            help="Drill your own mistakes: the positions you played an inaccuracy or worse in (drills, "
            "games, daily games, challenges) that are due, the longest overdue first.",
        ),
    ] = False,
    target: DrillTargetOpt = None,
    penalty: PenaltyOpt = None,
    json: Annotated[
        bool,
        json_option(
            "Drill on standard error as usual, and print the summary, with every decision, as JSON "
            "on standard output at the end."
        ),
    ] = False,
    *,
    options: SessionOptions,
) -> None:
    """Bank-or-roll drills: set dice aside, bank or roll, and see what the exact solver says.

    Each play is graded by the points it gives up against the best one (final rounds: by chance to
    pass; game: by chance to win a two-player game to the target; solo: by expected turns to reach it).

    Every decision is recorded as training progress. Without --seed the drills adapt to you.
    Every decision graded an inaccuracy or worse comes back, when it is due, with --mistakes.

    Example: farkle-train decide --kind keep --count 5
    """
    if mistakes:
        given = {
            "--seed": seed is not None,
            "--code": options.code is not None,
            "--save-result": options.save_result is not None,
            "--name": options.name is not None,
            "--force": options.force,
        }
        if chosen := [option for option, value in given.items() if value]:
            named = chosen[0] if len(chosen) == 1 else f"{', '.join(chosen[:-1])} and {chosen[-1]}"
            fail(f"--mistakes drills your own positions, for no class: leave out {named}")
        _drill_mistakes(
            kind,
            count,
            options,
            json=json,
            strategy=strategy,
            unused={"--level": level, "--target": target, "--penalty": penalty},
        )
        return
    from farkle_trainer.cli.storage import solved_tables
    from farkle_trainer.training.drills.session import check_count, parse_kinds, parse_level, prepare
    from farkle_trainer.training.solving import for_kinds
    from farkle_trainer.ui.aside import open_terminal_aside, print_data
    from farkle_trainer.ui.progress import solving
    from farkle_trainer.ui.terminal import open_terminal

    table = with_penalty(with_target(load(options.rules), target), penalty)
    kinds = parse_kinds(kind)
    chosen_level = parse_level(level)
    check_count(count, seed)
    entry = options.class_entry("decide", seed=seed)
    front = open_terminal_aside(options.plain) if json else open_terminal(options.plain)
    tables = solved_tables(options.data_dir)
    # What the drills are graded by, solved first: said at once on standard error, before the
    # solver (or anything else a session needs) loads, if it takes a while.
    with solving(front, tables, for_kinds(tables, table, kinds), quiet=json) as progress:
        prepare(tables, table, kinds, progress)

    from farkle_trainer.training.classroom.codes import class_drills
    from farkle_trainer.training.drills.drills import summarize
    from farkle_trainer.training.drills.session import (
        KIND,
        learner_kinds,
        make_plan,
        new_seed,
        play_drills,
        session_settings,
    )
    from farkle_trainer.ui.views import drills as view

    with open_store_or_explain(options.data_dir, front) as store:
        # A seed or a class code fixes the session for everyone; otherwise it adapts to the player.
        adaptive = seed is None and entry is None
        if adaptive and not kind:
            kinds, waiting = learner_kinds(store)
            if waiting:
                front.say(view.kinds_line(kinds, waiting))
        given = {"target": target is not None, "penalty": penalty is not None}
        for note in unused_options(kinds, strategy=strategy, **given):
            front.say(note)
        settings = session_settings(table, kinds, chosen_level, count)
        if entry is None:
            session_seed = new_seed() if seed is None else seed
            plan = make_plan(
                tables, store, table, kinds, chosen_level, count, seed=session_seed, adaptive=adaptive
            )
        else:
            session_seed = None
            from farkle_trainer.ui.views.classroom import decide_intro

            plan = class_drills(tables, entry.code, table, count=count, kinds=kinds, level=chosen_level)
            front.say(decide_intro(entry.code, count, table.name))
        session = start_session(
            store, KIND, table, count, entry, front, seed=session_seed, settings=settings, adaptive=adaptive
        )
        from farkle_trainer.training.mistakes import rules_file

        rounds = play_drills(
            tables, front, view, plan, session, strategy=strategy, rules_file=rules_file(options.rules)
        )
        session.finish()
    summary = summarize(tables, rounds.results)
    stopped = len(rounds.results) < count
    front.show(
        view.summary_text(summary, planned=count, stopped=stopped),
        lambda: view.summary_rich(summary, planned=count, stopped=stopped),
    )
    if json:
        code = None if entry is None else entry.code
        context = {"activity": KIND, "rules": table.name, "seed": session_seed, "code": code}
        print_data(context | view.summary_data(summary, rounds.results, planned=count))
    if session.result is not None:
        end_result(front, session.result, not stopped)
    if rounds.exit_code:
        raise typer.Exit(rounds.exit_code)


def unused_options(
    kinds: Sequence[Kind], *, target: bool, strategy: bool, penalty: bool = False
) -> list[str]:
    """Lines for options given that change nothing for these kinds of drill."""
    from farkle_trainer.engine.kinds import SCORE_KINDS, TURN_KINDS

    notes = []
    if target and not any(k in SCORE_KINDS for k in kinds):
        notes.append("Not used: --target (only game and solo drills play to a target).")
    if penalty and not any(k in SCORE_KINDS for k in kinds):
        notes.append("Not used: --penalty (only game and solo drills count Farkles in a row).")
    if strategy and not any(k in TURN_KINDS for k in kinds):
        notes.append(
            "Not used: --strategy (in a game the bank thresholds move with both scores: "
            "see farkle-train strategy --game)."
        )
    return notes


def _drill_mistakes(
    kind: list[str] | None,
    count: int,
    options: SessionOptions,
    *,
    json: bool,
    strategy: bool,
    unused: dict[str, str | None],
) -> None:
    """``decide --mistakes``: the due personal positions, each graded as its drill is."""
    from farkle_trainer.cli.storage import solved_tables
    from farkle_trainer.training.drills.drills import summarize
    from farkle_trainer.training.drills.session import Sessions, check_count, parse_kinds, play_mistakes
    from farkle_trainer.training.mistakes import MISTAKES, due_mistakes
    from farkle_trainer.training.solving import for_positions, solve_all
    from farkle_trainer.ui.aside import open_terminal_aside, print_data
    from farkle_trainer.ui.progress import solving
    from farkle_trainer.ui.terminal import open_terminal
    from farkle_trainer.ui.views import drills as view

    known = load(options.rules)
    kinds = None if not kind else parse_kinds(kind)
    check_count(count, None)
    front = open_terminal_aside(options.plain) if json else open_terminal(options.plain)
    tables = solved_tables(options.data_dir)
    for option, value in unused.items():
        if value is not None:
            front.say(view.mistakes_unused_line(option))
    with open_store_or_explain(options.data_dir, front) as store:
        due = due_mistakes(store, kinds=kinds, known=(known,), limit=count)
        for line in view.skipped_lines(due.skipped):
            front.say(line)
        positions = [p for p, _ in due.positions]
        if not positions:
            waiting = store.next_due(MISTAKES)
            front.say(view.no_mistakes_line(waiting, store.now(), kinds=kinds, others=due.other_kinds))
            if json:
                print_data({**_mistakes_context(), **view.summary_data(summarize(tables, []), [], planned=0)})
            return
        front.say(view.mistakes_intro(len(positions), due.due))
        needs = for_positions(tables, positions)
        with solving(front, tables, needs, quiet=json) as progress:
            solve_all(tables, needs, progress)
        settings = {"count": count, "kinds": None if kinds is None else list(kinds)}
        sessions = Sessions(store, settings)
        rounds = play_mistakes(tables, front, view, due.positions, sessions, strategy=strategy)
        sessions.finish()
    planned = len(positions)
    summary = summarize(tables, rounds.results)
    stopped = len(rounds.results) < planned
    front.show(
        view.summary_text(summary, planned=planned, stopped=stopped),
        lambda: view.summary_rich(summary, planned=planned, stopped=stopped),
    )
    if json:
        data = view.summary_data(summary, rounds.results, planned=planned, records=sessions.answers)
        print_data({**_mistakes_context(), **data})
    if rounds.exit_code:
        raise typer.Exit(rounds.exit_code)


def _mistakes_context() -> dict[str, object]:
    """What ``decide --mistakes --json`` says of the session: each position keeps its own rules,
    and no seed or class code chose them."""
    return {"activity": "mistakes", "rules": None, "seed": None, "code": None}
