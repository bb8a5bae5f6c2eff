"""``challenge``, ``worksheet`` and ``class``: classroom practice on a shared class code."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from farkle_trainer.cli.app import command_group
from farkle_trainer.cli.classcode import ClassCodeOptions, end_result
from farkle_trainer.cli.completion import complete_from
from farkle_trainer.cli.errors import fail
from farkle_trainer.cli.options import (
    DataDirOpt,
    DrillTargetOpt,
    ForceOpt,
    JsonOpt,
    NameOpt,
    PlainOpt,
    ReplaceOpt,
    RulesOpt,
    SaveResultOpt,
    classic_only_rules,
    code_option,
    count_option,
    file_option,
    kind_option,
    level_option,
    one_of,
    topic_option,
)
from farkle_trainer.cli.params import quoted
from farkle_trainer.cli.rules import load, unused_rules_note, with_target
from farkle_trainer.cli.storage import may_replace, open_store_or_explain
from farkle_trainer.engine.kinds import KINDS
from farkle_trainer.training.quizzes.topics import TOPICS
from farkle_trainer.ui.terminal import open_terminal

if TYPE_CHECKING:
    from farkle_trainer.store.rows import Mistake
    from farkle_trainer.training.games.analysis import Review

app = command_group()


class_app = command_group(
    help="For the teacher: a class code to share, and the class report from the students' result files.",
    no_args_is_help=True,
)
app.add_typer(class_app, name="class", short_help="For the teacher: codes and the report.")


# -- challenge


@app.command(short_help="A class challenge on the code's dice.")
def challenge(
    code: Annotated[
        str,
        typer.Argument(metavar="CODE", help="The class code, like MATH7B (case and spaces do not matter)."),
    ],
    save_result: SaveResultOpt = None,
    name: NameOpt = None,
    force: ForceOpt = False,
    rules: Annotated[str, classic_only_rules("a challenge is")] = "classic",
    data_dir: DataDirOpt = None,
    plain: PlainOpt = False,
) -> None:
    """A class challenge: the ten-turn daily game on dice chosen by the class code, not the date.

    Everyone with the code plays the same dice, on the classic table with no house rules and no hints.

    It ends with your score, what perfect play is expected to score, the points your decisions gave
    up, the luck of the dice and the costliest decisions. It is kept in farkle-train games, and
    farkle-train review shows it again (from its number, or from your result file).

    Practice: recorded as training progress, never in stats.

    Example: farkle-train challenge MATH7B --save-result ana.json
    """
    from farkle_trainer.cli.storage import solved_tables
    from farkle_trainer.training.classroom.challenge import CHALLENGE_RULES, play_challenge, start_challenge
    from farkle_trainer.training.classroom.codes import ClassCodeError, normalize_code
    from farkle_trainer.training.games.setup import SOLO_TURNS as TURNS
    from farkle_trainer.training.games.tenturns import account
    from farkle_trainer.training.record import AnswerRecord
    from farkle_trainer.training.session import Session
    from farkle_trainer.ui.terminal import open_terminal
    from farkle_trainer.ui.views import classroom as view
    from farkle_trainer.ui.views import daily as game_view

    try:
        normalize_code(code)
    except ClassCodeError as exc:
        # The code is the command's argument, not --code: the error names it as it was typed.
        fail(f"{quoted(code)} is not a class code: {exc}")
    entry = ClassCodeOptions(code, save_result, name, force).class_entry("challenge")
    assert entry is not None
    front = open_terminal(plain)
    if note := unused_rules_note(rules, "a challenge is"):
        front.say(note)
    tables = solved_tables(data_dir)
    with open_store_or_explain(data_dir, front) as store:
        front.say(view.challenge_intro(entry.code))
        recorder = entry.begin(front, rules=CHALLENGE_RULES, settings={}, planned=TURNS)
        session = Session.start(store, "challenge", rules=CHALLENGE_RULES, code=entry.code, result=recorder)

        def decided(review: Review, banked: int, mistake: Mistake | None) -> None:
            session.record(AnswerRecord.of_game(review, code=entry.code).with_mistake(mistake), score=banked)

        row = start_challenge(store, entry.code, session=session.id)
        outcome = play_challenge(tables, front, game_view, store, row, decided=decided)
        if outcome.finished:
            session.finish()
            split = account(tables, outcome.state, outcome.reviews)
            front.say(view.challenge_summary(entry.code, outcome.state, split, outcome.reviews))
            from farkle_trainer.training.mistakes import game_mistake, kept_of
            from farkle_trainer.ui.views.drills import personal_line

            kept = kept_of(
                store, [(r, game_mistake(tables, outcome.state.setup, r)) for r in outcome.reviews]
            )
            if kept.mistakes:
                front.say(personal_line(kept.mistakes, kept.positions))
        else:
            if outcome.exit_code and front.plain:
                front.say()  # Ctrl-C left the cursor after the prompt
            front.say(view.challenge_stopped(entry.code, outcome.state))
        front.say(view.challenge_kept(outcome.game, outcome.state))
        end_result(
            front,
            recorder,
            outcome.finished,
            score=outcome.state.banked,
            solver_game_score=outcome.solver_game_score,
        )
    if outcome.exit_code:
        raise typer.Exit(outcome.exit_code)


# -- worksheet


def _drill_kinds(values: list[str] | None) -> tuple[Any, ...] | None:
    """``--topic`` of a decide worksheet: kinds of drill, repeated or comma separated."""
    from farkle_trainer.engine.kinds import KINDS

    chosen: list[str] = []
    for value in values or ():
        for word in value.replace(" ", ",").split(","):
            word = word.strip().lower()
            if word and word not in KINDS:
                fail(f"--topic of a decide worksheet takes {', '.join(KINDS)}, not {word!r}")
            if word and word not in chosen:
                chosen.append(word)
    return tuple(k for k in KINDS if k in chosen) or None


@app.command(short_help="A printable worksheet for a class code.")
def worksheet(
    code: Annotated[str, code_option("The class code whose questions go on the sheet.")],
    count: Annotated[int, count_option("questions")] = 10,
    kind: Annotated[
        str,
        kind_option(
            "score|decide",
            "Scoring questions, or bank-or-roll decisions.",
            complete_from(lambda: ("score", "decide")),
            show_default=True,
        ),
    ] = "score",
    topic: Annotated[
        list[str] | None,
        topic_option(
            f"Score: {one_of(TOPICS)}. Decide: {one_of(KINDS)} "
            "(what decide calls --kind). Repeat it or use commas. Default: all, mixed.",
            complete_from(lambda: (*TOPICS, *KINDS), listed=True),
        ),
    ] = None,
    level: Annotated[str | None, level_option("As --level of score or decide.")] = None,
    key: Annotated[
        Path | None,
        file_option("--key", "FILE", "Write the answer key to FILE instead of after a page break."),
    ] = None,
    output_format: Annotated[
        str,
        typer.Option(
            "--format",
            metavar="markdown|text",
            help="Markdown, or plain text (where a form feed breaks the page).",
            autocompletion=complete_from(lambda: ("markdown", "text")),
        ),
    ] = "markdown",
    target: DrillTargetOpt = None,
    rules: RulesOpt = "classic",
    force: ReplaceOpt = False,
) -> None:
    """A worksheet to print: the questions score --code (or decide --code) asks, and an answer key.

    The same code, count, topics, level and rules give the same questions on paper and on screen.

    The answer key follows a page break, or goes to --key FILE.

    Example: farkle-train worksheet --code MATH7B --count 20 > worksheet.md
    """
    from farkle_trainer.training.classroom import worksheet as sheets
    from farkle_trainer.training.classroom.codes import ClassCodeError, normalize_code

    try:
        normalized = normalize_code(code)
    except ClassCodeError as exc:
        fail(f"--code: {exc}")
    chosen = kind.strip().lower()
    if chosen not in ("score", "decide"):
        fail(f"--kind takes score or decide, not {kind!r}")
    fmt = {"markdown": "markdown", "md": "markdown", "text": "text", "txt": "text"}.get(
        output_format.strip().lower()
    )
    if fmt is None:
        fail(f"--format takes markdown or text, not {output_format!r}")
    if key is not None:
        may_replace(key, "--key", open_terminal(False), force=force)
    table = with_target(load(rules), target)
    if chosen == "score":
        from farkle_trainer.training.quizzes.questions import QuizError
        from farkle_trainer.training.quizzes.quiz import parse_level, parse_topics

        try:
            topics = parse_topics(topic)
            quiz_level = parse_level(level)
        except QuizError as exc:
            fail(str(exc))
        made = sheets.score_sheet(
            normalized, table, count=count, topics=topics, level=quiz_level, rules_option=rules
        )
    else:
        from farkle_trainer.cli.storage import solved_tables
        from farkle_trainer.training.drills.session import parse_level as parse_drill_level
        from farkle_trainer.training.solving import for_kinds
        from farkle_trainer.ui.progress import solving

        kinds = _drill_kinds(topic)
        tables = solved_tables()
        # Game and solo questions are graded by their game's table: said at once if it must be solved.
        with solving(None, tables, for_kinds(tables, table, kinds or ())):
            made = sheets.decide_sheet(
                tables,
                normalized,
                table,
                count=count,
                kinds=kinds,
                level=parse_drill_level(level),
                rules_option=rules,
                target_option=target is not None,
            )
    if key is not None:
        from farkle_trainer.store.files import write_whole

        try:
            write_whole(key, sheets.answer_key(made, fmt).encode("utf-8"))  # type: ignore[arg-type]
        except OSError as exc:
            fail(f"--key: cannot write {key}: {exc.strerror or exc}")
    sys.stdout.write(sheets.sheet(made, fmt, key=key is None))  # type: ignore[arg-type]
    if key is not None:
        print(f"Answer key written to {key}.", file=sys.stderr)


# -- class report, class code


@class_app.command("report", short_help="The class's results from their files.")
def class_report(
    results: Annotated[
        list[Path],
        typer.Argument(
            metavar="RESULTS",
            help="Result files, or folders of them (every .json file inside is read).",
            show_default=False,
        ),
    ],
    code: Annotated[
        str | None,
        code_option("The class code to report on (default: the one most files have); others are left out."),
    ] = None,
    csv_file: Annotated[
        Path | None, file_option("--csv", "FILE.csv", "Also write the table of students to FILE.csv.")
    ] = None,
    questions_csv: Annotated[
        Path | None,
        file_option("--questions-csv", "FILE.csv", "Also write the table of questions to FILE.csv."),
    ] = None,
    force: ReplaceOpt = False,
    plain: PlainOpt = False,
    json: JsonOpt = False,
) -> None:
    """For the teacher: the class's results, per student and per question, from result files.

    Each student's score, accuracy and points lost; each question's right answers and most common wrong one.

    A result that cannot be checked is listed apart, with no score; a file that cannot be counted (not a
    result, another code, edited, a second attempt) gets a line why.

    Example: farkle-train class report results/ --csv math7b.csv
    """
    from farkle_trainer.cli.storage import solved_tables
    from farkle_trainer.store.files import write_whole
    from farkle_trainer.training.classroom.codes import ClassCodeError, normalize_code
    from farkle_trainer.training.classroom.report import class_report as make_report
    from farkle_trainer.ui.progress import solving
    from farkle_trainer.ui.views import classroom as view

    wanted = None
    if code is not None:
        try:
            wanted = normalize_code(code)
        except ClassCodeError as exc:
            fail(f"--code: {exc}")
    out = open_terminal(plain)
    for path, option in ((csv_file, "--csv"), (questions_csv, "--questions-csv")):
        if path is not None:
            may_replace(path, option, out, force=force)
    # Game and solo decisions are checked against their game's table: said as a solve starts.
    tables = solved_tables()
    with solving(out, tables, quiet=json):
        report = make_report(tables, results, wanted)
    if not report.counted and not report.unchecked:
        why = "; ".join(view.problem_line(p) for p in report.problems) or "no result files given"
        fail(f"no result to report: {why}")
    written = []
    for path, write in ((csv_file, view.students_csv), (questions_csv, view.questions_csv)):
        if path is None:
            continue
        with io.StringIO(newline="") as table:
            rows = write(report, table)
            contents = table.getvalue().encode("utf-8")
        try:
            write_whole(path, contents)
        except OSError as exc:
            fail(f"cannot write {path}: {exc.strerror or exc}")
        written.append(f"Wrote {rows} row{'s' if rows != 1 else ''} to {path}.")
    if json:
        # Standard output is the JSON alone; what was written besides is said on standard error.
        out.json(view.report_data(report))
        for line in written:
            print(line, file=sys.stderr)
        return
    out.show(view.report_text(report), lambda: view.report_rich(report))
    for line in written:
        out.line(line)


@class_app.command("code", short_help="A fresh class code to share.")
def class_code(plain: PlainOpt = False, json: JsonOpt = False) -> None:
    """A fresh class code to share: no vowels, and none of 0, O, 1, I or L, so it reads aloud safely.

    The code alone goes to standard output, how to use it to standard error (always plain text);
    with --json, standard output has both as one JSON document.
    """
    from farkle_trainer.training.classroom.codes import new_code
    from farkle_trainer.ui.views import classroom as view

    made = new_code()
    if json:
        open_terminal(plain).json(view.code_data(made))
        return
    print(made)
    print(view.code_text(made), file=sys.stderr)
