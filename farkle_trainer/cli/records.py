"""``progress``, ``stats`` and ``reset``: what the trainer remembers, and forgetting it on request.

:func:`open_store_or_explain` and :data:`DataDirOpt` are for every command that keeps records.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer

from farkle_trainer.cli.app import command_group
from farkle_trainer.cli.completion import complete_from
from farkle_trainer.cli.errors import fail
from farkle_trainer.cli.options import (
    DataDirOpt,
    JsonOpt,
    PlainOpt,
    ReplaceOpt,
    argument,
    classic_only_rules,
    file_option,
    rules_option,
)
from farkle_trainer.cli.rules import load, unused_rules_note
from farkle_trainer.cli.storage import may_replace, open_store_or_explain
from farkle_trainer.ui.terminal import Terminal, open_terminal

app = command_group()


@app.command(short_help="Your training: accuracy and what next.")
def progress(
    export: Annotated[
        Path | None,
        file_option(
            "--export",
            "FILE.csv|FILE.json",
            "Write every training answer (time, topic, question, answer, grade, points lost) to a file.",
        ),
    ] = None,
    rules: Annotated[
        str | None,
        rules_option(
            "Only training on this rule set (default: training on every rule set).", show_default=False
        ),
    ] = None,
    force: ReplaceOpt = False,
    data_dir: DataDirOpt = None,
    plain: PlainOpt = False,
    json: JsonOpt = False,
) -> None:
    """Your training: accuracy per topic, points lost per decision, what to practise next.

    Only training counts here (quizzes, drills, lessons, replayed or past daily games);
    official daily results are in `farkle-train stats`.
    Example: farkle-train progress --export results.csv
    """
    from farkle_trainer.cli.storage import solved_tables
    from farkle_trainer.training.games.strength import lines, training_figures
    from farkle_trainer.training.progress import load_progress
    from farkle_trainer.ui.progress import solving
    from farkle_trainer.ui.views import records as view
    from farkle_trainer.ui.views.strength import strength_data

    out = open_terminal(plain)
    if export is not None:
        _export(export, data_dir, out, json=json, force=force)
        return
    only = load(rules).name if rules is not None else None
    tables = solved_tables(data_dir)
    with open_store_or_explain(data_dir, out) as store:
        summary = load_progress(store, rules=only)
        # A game's play against perfect play may need its table solved: said as the solve starts.
        with solving(out, tables, quiet=json):
            strength = lines(training_figures(tables, store, rules=only))
    if only is not None and only != "classic":
        # What to practise next is practised on the same table.
        command = f"{summary.next.command} --rules {rules}"
        summary = replace(summary, next=replace(summary.next, command=command))
    if json:
        out.json(view.progress_data(summary) | {"rules": only, "strength": strength_data(strength)})
        return
    if only is not None:
        out.line(f"Training on {only} rules only.")
    out.show(view.progress_text(summary, strength=strength), lambda: view.progress_rich(summary, strength))


def _export(target: Path, data_dir: Path | None, out: Terminal, *, json: bool, force: bool) -> None:
    from farkle_trainer.training.progress import export_answers, export_format
    from farkle_trainer.ui.views.records import plural

    # A file name that cannot work is refused before the store is touched.
    export_format(target)
    may_replace(target, "--export", out, force=force)
    with open_store_or_explain(data_dir, out) as store:
        try:
            count = export_answers(store, target)
        except OSError as exc:
            fail(f"cannot write {target}: {exc.strerror or exc}")
    if json:
        out.json({"exported": count, "file": str(target)})
    else:
        out.line(f"Exported {plural(count, 'training answer')} to {target}.")


@app.command(short_help="Official results: daily and rated games.")
def stats(
    rules: Annotated[str, classic_only_rules("official daily games are")] = "classic",
    data_dir: DataDirOpt = None,
    plain: PlainOpt = False,
    json: JsonOpt = False,
) -> None:
    """Official results only: daily games (streaks, best, average, histogram) and rated games.

    The first attempt at each day's game is the official one; rated games are one person
    against one computer on a preset with the references' house rules, with no coach and no
    hint, reported for each level, rule set and target; nothing from training counts. Each
    result is what its saved moves replay to, the computer's included: one whose moves do not
    give it, or whose dice fair dice give less than once in a billion games, is listed, not
    counted; a rated game that cannot be read counts as resigned.
    Example: farkle-train stats
    """
    from farkle_trainer.cli.storage import solved_tables
    from farkle_trainer.training.games.daily import close_expired, official_stats, utc_date
    from farkle_trainer.training.games.play import judged_games
    from farkle_trainer.training.games.strength import lines, official_figures
    from farkle_trainer.training.progress import verdicts_stats
    from farkle_trainer.ui.progress import solving
    from farkle_trainer.ui.views import records as view
    from farkle_trainer.ui.views.strength import strength_data, strength_lines, strength_rich

    moment = datetime.now(UTC)
    today = utc_date(moment)
    out = open_terminal(plain)
    load(rules)
    if note := unused_rules_note(rules, "official daily games are"):
        print(note, file=sys.stderr)
    tables = solved_tables(data_dir)
    with open_store_or_explain(data_dir, out) as store:
        close_expired(tables, store, moment)
        summary = official_stats(tables, store, today)
        # Checking a Hard computer's moves may need its game solved: said as the solve starts.
        with solving(out, tables, quiet=json):
            judged = judged_games(tables, store)
            games = verdicts_stats(j.verdict for j in judged)
            strength = lines(official_figures(tables, judged, store))
    if json:
        out.json(
            {
                **view.stats_data(summary),
                "rated_games": view.game_stats_data(games),
                "strength": strength_data(strength),
            }
        )
        return
    out.show(view.stats_text(summary), lambda: view.stats_rich(summary))
    if games.played or games.unverifiable:
        out.say()
        out.show(view.game_stats_text(games), lambda: view.game_stats_rich(games))
    if strength:
        heading = view.OFFICIAL_STRENGTH
        out.say()
        out.show("\n".join(strength_lines(strength, heading)), lambda: strength_rich(strength, heading))


def _reset_kinds() -> tuple[str, ...]:
    from farkle_trainer.store.db import RESET_KINDS

    return RESET_KINDS


WhatArg = Annotated[
    str,
    argument(
        "progress|stats",
        "progress: every training answer, lesson read and practice daily game; stats: every official "
        "daily game and rated game.",
        complete_from(_reset_kinds),
    ),
]
YesOpt = Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")]


@app.command(short_help="Delete training progress or official stats.")
def reset(what: WhatArg, yes: YesOpt = False, data_dir: DataDirOpt = None, plain: PlainOpt = False) -> None:
    """Delete all training progress, or all official stats; the other is kept.

    Asks first (--yes skips the question). Example: farkle-train reset progress
    """
    from farkle_trainer.cli.storage import solved_tables
    from farkle_trainer.store.db import RESET_KINDS
    from farkle_trainer.training import resets
    from farkle_trainer.ui.progress import solving
    from farkle_trainer.ui.views import records as view

    out = open_terminal(plain)
    what = what.lower()
    if what not in RESET_KINDS:
        fail(f"reset takes progress or stats, not {what!r}")
    tables = solved_tables(data_dir)
    with open_store_or_explain(data_dir, out) as store:
        if what == "progress":
            progress = resets.progress_held(store)
            anything = progress.anything
            described = view.progress_held_words(progress)
            kept = "Official stats are kept."
        else:
            # Which games count is how the stats judge them: a Hard game may need its table.
            with solving(out, tables):
                held = resets.stats_held(tables, store)
            anything = held.anything
            described = view.stats_held_words(held)
            kept = "Training progress is kept."
        if not anything:
            out.line(
                f"Nothing to reset: no {'training answers' if what == 'progress' else 'official games'}."
            )
            return
        if not yes:
            answer = out.confirm(f"Delete {described} from {store.path}? {kept}")
            if answer is None:
                fail("Nothing deleted: there was no answer. Pass --yes to reset without a question.")
            if not answer:
                out.line("Nothing deleted.")
                raise typer.Exit(1)
        if what == "progress":
            store.reset("progress")
        else:
            resets.reset_stats(store, held)
    out.line(f"Deleted {described}. {kept}")
