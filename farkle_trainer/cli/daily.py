"""``daily``: the daily game in plain text, on dice seeded by the UTC date."""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from typing import Annotated

import typer

from farkle_trainer.cli.app import command_group
from farkle_trainer.cli.errors import fail
from farkle_trainer.cli.options import DataDirOpt, PlainOpt, classic_only_rules, json_option
from farkle_trainer.cli.rules import unused_rules_note
from farkle_trainer.cli.storage import open_store_or_explain
from farkle_trainer.ui.terminal import open_terminal

app = command_group()


def clock() -> datetime:
    """The moment that decides today's game (tests put a fixed clock here)."""
    return datetime.now(UTC)


@app.command(short_help="Today's game: the same dice for everyone.")
def daily(
    replay: Annotated[
        bool,
        typer.Option("--replay", help="Play today's game again, for practice (after the official play)."),
    ] = False,
    date: Annotated[
        str | None,
        typer.Option(
            "--date",
            metavar="YYYY-MM-DD",
            help="Play a past day's game, for practice.",
            show_default=False,
        ),
    ] = None,
    restart: Annotated[
        bool,
        typer.Option(
            "--restart",
            help="With --replay or --date: close the unfinished practice play where it stands and "
            "start the day's game again from turn 1 (restart during the game does the same).",
        ),
    ] = False,
    status: Annotated[
        bool, typer.Option("--status", help="Is today's official game done: its score, and your streak.")
    ] = False,
    rules: Annotated[str, classic_only_rules("the daily game is")] = "classic",
    data_dir: DataDirOpt = None,
    plain: PlainOpt = False,
    json: Annotated[bool, json_option("With --status: print it as JSON.")] = False,
) -> None:
    """Today's daily game: ten turns on the same dice for everyone; the first play of the day counts.

    The day changes at 00:00 UTC. Quitting saves the game and running the command again resumes
    it. --replay and --date are practice: training progress, never stats. The game is always
    played on the classic table with no house rules. farkle-train games lists every day's game,
    and farkle-train review DATE shows one again.
    Example: farkle-train daily
    """
    from farkle_trainer.cli.storage import solved_tables
    from farkle_trainer.training.games import daily as game_day
    from farkle_trainer.ui.views import daily as view

    moment = clock()
    today = game_day.utc_date(moment)
    notes = [note] if (note := unused_rules_note(rules, "the daily game is")) else []
    out = open_terminal(plain)
    if status and (replay or date is not None):
        fail("--status shows today's official game; leave out --replay and --date")
    if json and not status:
        fail("--json goes with --status: the game itself is played as text")
    if restart and (status or (not replay and date is None)):
        fail("--restart starts a practice play again: give it with --replay or --date")
    day = today if date is None else game_day.parse_day(date)
    tables = solved_tables(data_dir)
    with open_store_or_explain(data_dir, out, clock=clock) as store:
        game_day.close_expired(tables, store, moment)
        if status:
            summary = game_day.daily_status(store, moment)
            if json:
                from farkle_trainer.ui.views.records import daily_status_data

                for note in notes:
                    print(note, file=sys.stderr)
                out.json(daily_status_data(summary))
                return
            for note in notes:
                out.line(note)
            out.show(view.status_text(summary), lambda: view.status_rich(summary))
            return
        official = store.daily_attempt(day, official=True)
        plan = game_day.plan(day, today, replay=replay, official=official)
        if plan == "done":
            for note in notes:
                out.line(note)
            out.lines(view.done_text(game_day.daily_status(store, moment)))
            return
        if day == today:
            earlier = game_day.unfinished_official(store, today)
            if earlier is not None:
                notes.append(view.unfinished_line(earlier))
        if restart and (closed := game_day.restart_practice(tables, store, day, today, moment)) is not None:
            state = game_day.saved_game(closed)
            if state is not None:
                notes.append(view.restarted_line(state))
        attempt = game_day.next_attempt(store, day, today)
        outcome = game_day.run_attempt(
            tables, open_terminal(plain), view, store, attempt, today, notes=notes, moment=moment
        )
    if outcome.exit_code:
        raise typer.Exit(outcome.exit_code)
