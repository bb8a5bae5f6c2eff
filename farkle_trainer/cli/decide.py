"""``decide``: bank-or-roll drills graded by exact expected value, recorded as training progress."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from farkle_trainer.cli.classroom import CodeOpt, NameOpt, SaveResultOpt, class_entry, end_result
from farkle_trainer.cli.common import PlainOpt, RulesOpt, app, load, user_errors
from farkle_trainer.cli.records import DataDirOpt, open_store_or_explain, store_errors
from farkle_trainer.ui.terminal import fail

if TYPE_CHECKING:
    from farkle_trainer.engine.rules import Rules
    from farkle_trainer.engine.seeded import Stream
    from farkle_trainer.store.db import Store
    from farkle_trainer.training.drills.drills import Grading, Kind, Level, Plan, Position

KIND_NAMES: tuple[Kind, ...] = ("bank-or-roll", "keep", "final-round", "opening")
LEVEL_NAMES = ("easy", "medium", "hard")
MAX_COUNT = 100
MAX_SEED = 2**63 - 1
SESSION_KIND = "decide"
#: Due items read from the store; those of other rules or kinds are skipped.
DUE_LOOKAHEAD = 200


def parse_kinds(values: list[str] | None) -> tuple[Kind, ...]:
    """``--kind keep --kind opening`` or ``--kind keep,opening``; every kind when none is given."""
    if not values:
        return KIND_NAMES
    kinds: list[Kind] = []
    for value in values:
        for word in value.split(","):
            word = word.strip().lower()
            if not word:
                continue
            kind = next((k for k in KIND_NAMES if k == word), None)
            if kind is None:
                fail(f"--kind takes {', '.join(KIND_NAMES)}, not {word!r}")
            if kind not in kinds:
                kinds.append(kind)
    if not kinds:
        fail(f"--kind takes {', '.join(KIND_NAMES)}")
    return tuple(kinds)


def parse_level(value: str | None) -> Level | None:
    if value is None:
        return None
    word = value.strip().lower()
    if word not in LEVEL_NAMES:
        fail(f"--level takes easy, medium or hard, not {value!r}")
    return word  # type: ignore[return-value]


def drill_stream(seed: int) -> Stream:
    """The stream a session's drills are drawn from: the same seed, the same drills anywhere."""
    from farkle_trainer.engine.seeded import Stream

    return Stream(f"decide:{seed}")


def new_seed() -> int:
    import secrets

    return secrets.randbelow(1_000_000_000)


def make_plan(
    store: Store,
    rules: Rules,
    kinds: tuple[Kind, ...],
    level: Level | None,
    count: int,
    *,
    seed: int,
    adaptive: bool,
) -> Plan:
    """The session's drills, drawn from ``seed``; adapted to the progress in ``store`` if ``adaptive``."""
    from farkle_trainer.training.drills.drills import Plan, decision_for, position_from_data, worth_asking
    from farkle_trainer.training.progress import topic_mastery

    if not adaptive:
        return Plan(rules, drill_stream(seed), count, kinds, level)
    due = store.due_items(SESSION_KIND, limit=DUE_LOOKAHEAD)
    found = (position_from_data((item.extra or {}).get("position"), rules) for item in due)
    review = [p for p in found if p is not None and worth_asking(decision_for(p))]
    mastery = topic_mastery(store, SESSION_KIND)
    return Plan(rules, drill_stream(seed), count, kinds, level, adaptive=True, review=review, mastery=mastery)


def record(store: Store, session_id: int, g: Grading) -> None:
    """Keep one graded decision as training progress, the moment it is made."""
    from farkle_trainer.training.drills.drills import position_data
    from farkle_trainer.ui.views.drills import play_words, question_line

    p = g.position
    chance = p.unit == "chance"
    store.record_answer(
        session_id,
        topic=p.kind,
        item=p.item,
        question=question_line(p),
        answer=play_words(p, g.chosen),
        correct_answer=play_words(p, g.best),
        correct=g.right,
        grade=g.grade,
        points_lost=g.lost,
        unit="percentage points" if chance else "points",
        extra={
            "position": position_data(p),
            "keep": list(g.chosen.keep),
            "action": g.chosen.action,
            "value": g.chosen.value,
            "best_value": g.best.value,
        },
    )


@app.command()
def decide(
    kind: Annotated[
        list[str] | None,
        typer.Option(
            "--kind",
            "-k",
            metavar="KIND",
            help="bank-or-roll, keep, final-round or opening (repeat, or a comma list). Default: all, mixed.",
            show_default=False,
        ),
    ] = None,
    count: Annotated[
        int, typer.Option("--count", "-n", metavar="N", help="How many decisions, 1 to 100.")
    ] = 10,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            metavar="SEED",
            help="A whole number: the same seed gives the same drills on any machine, whatever your "
            "progress, so a class can take one drill.",
            show_default=False,
        ),
    ] = None,
    level: Annotated[
        str | None,
        typer.Option(
            "--level",
            metavar="easy|medium|hard",
            help="How close the decisions are: the best play is ahead by 40 points or more (easy), "
            "10 to 40 (medium), under 10 (hard). Default: any, mostly close ones.",
            show_default=False,
        ),
    ] = None,
    strategy: Annotated[
        bool, typer.Option("--strategy", help="After grading, show the bank threshold you should have used.")
    ] = False,
    code: CodeOpt = None,
    save_result: SaveResultOpt = None,
    name: NameOpt = None,
    rules: RulesOpt = "classic",
    plain: PlainOpt = False,
    data_dir: DataDirOpt = None,
) -> None:
    """Bank-or-roll drills: set dice aside, bank or roll, and see what the exact solver says.

    Each play is graded by the points it gives up against the best one (final rounds: by chance to pass).

    Every decision is recorded as training progress. Without --seed the drills adapt to you.

    Example: farkle-train decide --kind keep --count 5
    """
    from farkle_trainer.training.classroom.codes import class_drills
    from farkle_trainer.training.classroom.results import drill_answer
    from farkle_trainer.training.drills.drills import summarize
    from farkle_trainer.training.frontend import choose_frontend, run_rounds
    from farkle_trainer.ui.views import drills as view
    from farkle_trainer.ui.views.classroom import decide_intro

    with user_errors():
        table = load(rules)
        kinds = parse_kinds(kind)
        chosen_level = parse_level(level)
        if not 1 <= count <= MAX_COUNT:
            fail(f"--count must be 1 to {MAX_COUNT}, not {count}")
        if seed is not None and not 0 <= seed <= MAX_SEED:
            fail(f"--seed must be 0 to {MAX_SEED}, not {seed}")
        entry = class_entry(code, seed=seed, save_result=save_result, name=name)
        front = choose_frontend(plain)
        store = open_store_or_explain(data_dir, plain=front.plain)

    def play(item: tuple[int, Position]) -> Grading:
        number, position = item
        g = view.play_drill(front, position, number, count, strategy=strategy)
        record(store, session_id, g)
        plan.answered(g)
        if result is not None:
            result.add(drill_answer(g))
        return g

    with store, user_errors(), store_errors():
        # A seed or a class code fixes the session for everyone; otherwise it adapts to the player.
        adaptive = seed is None and entry is None
        settings = {"kinds": list(kinds), "level": chosen_level, "count": count}
        result = None
        if entry is None:
            session_seed = new_seed() if seed is None else seed
            plan = make_plan(store, table, kinds, chosen_level, count, seed=session_seed, adaptive=adaptive)
        else:
            session_seed = None
            plan = class_drills(entry.code, table, count=count, kinds=kinds, level=chosen_level)
            front.say(decide_intro(entry.code, count, table.name))
            result = entry.begin(front, "decide", rules=table.name, settings=settings, planned=count)
        session_id = store.start_session(
            SESSION_KIND,
            rules=table.name,
            seed=session_seed,
            code=entry.code if entry else None,
            params={**settings, "adaptive": adaptive},
        )
        rounds = run_rounds(enumerate(plan, 1), play)
        store.finish_session(session_id)
    summary = summarize(rounds.results)
    stopped = len(rounds.results) < count
    front.show(
        view.summary_text(summary, planned=count, stopped=stopped),
        lambda: view.summary_rich(summary, planned=count, stopped=stopped),
    )
    if result is not None:
        with user_errors():
            end_result(front, result, not stopped)
    if rounds.exit_code:
        raise typer.Exit(rounds.exit_code)
