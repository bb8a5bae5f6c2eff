"""A drill session: the drills a seed, a class code or the learner's progress calls for,
each asked, graded against the exact solver and recorded as it is answered."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal, Protocol

from farkle_trainer.engine.decisions import (
    KINDS,
    Choice,
    Decision,
    Grading,
    Kind,
    Position,
    StrategyNote,
    decision_for,
    grade,
    position_from_data,
    strategy_notes,
)
from farkle_trainer.engine.errors import InputError
from farkle_trainer.engine.kinds import TURN_KINDS
from farkle_trainer.engine.notation import (
    BankOrRoll,
    dice_count,
    dice_text,
    labelled_roll,
    parse_action,
    parse_bank_or_roll,
    points,
)
from farkle_trainer.engine.scoring import explain
from farkle_trainer.engine.seeded import MAX_SEED, Stream
from farkle_trainer.store.schedule import DRILLS
from farkle_trainer.training.drills.drills import LEVELS, Level, Plan, worth_asking
from farkle_trainer.training.drills.kinds import spec_of
from farkle_trainer.training.frontend import STOP_NOTE, Rounds
from farkle_trainer.training.progress import topic_mastery
from farkle_trainer.training.record import AnswerRecord

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from rich.console import RenderableType

    from farkle_trainer.engine.rules import Rules
    from farkle_trainer.engine.tables import Tables
    from farkle_trainer.store.db import Store
    from farkle_trainer.training.frontend import Frontend
    from farkle_trainer.training.session import Session

KIND: Final = DRILLS
MAX_COUNT = 100
#: Due items read from the store; those of other rules or kinds are skipped.
DUE_LOOKAHEAD = 200


class DrillView(Protocol):
    """How a front end shows a position and its grading."""

    def situation_text(self, p: Position, number: int, count: int) -> str: ...
    def situation_rich(self, p: Position, number: int, count: int) -> RenderableType: ...
    def grading_text(self, g: Grading, notes: tuple[StrategyNote, ...] = ()) -> str: ...
    def grading_rich(self, g: Grading, notes: tuple[StrategyNote, ...] = ()) -> RenderableType: ...


def parse_kinds(values: list[str] | None) -> tuple[Kind, ...]:
    """``--kind keep --kind opening`` or ``--kind keep,opening``; every kind played inside a
    turn when none is given (game and solo drills are asked by name)."""
    if not values:
        return TURN_KINDS
    kinds: list[Kind] = []
    for value in values:
        for word in value.split(","):
            word = word.strip().lower()
            if not word:
                continue
            if word not in KINDS:
                raise InputError(f"--kind takes {', '.join(KINDS)}, not {word!r}")
            if Kind(word) not in kinds:
                kinds.append(Kind(word))
    if not kinds:
        raise InputError(f"--kind takes {', '.join(KINDS)}")
    return tuple(kinds)


def session_settings(
    rules: Rules, kinds: tuple[Kind, ...], level: Level | None, count: int
) -> dict[str, object]:
    """What fixes a session's drills besides the seed or code; the target and the three-Farkle
    penalty only where they count (game and solo drills)."""
    settings: dict[str, object] = {"kinds": list(kinds), "level": level, "count": count}
    if any(spec_of(k).needs_target for k in kinds):
        settings["target"] = rules.target
        if rules.three_farkle_penalty:
            settings["penalty"] = rules.three_farkle_penalty
    return settings


def prepare(
    tables: Tables, rules: Rules, kinds: tuple[Kind, ...], progress: Callable[[float], None] | None = None
) -> None:
    """Solve (or load) the tables the session's kinds are graded by, before the first drill, so
    no drill waits; ``progress`` is told the fraction done (see :mod:`farkle_trainer.training.solving`)."""
    from farkle_trainer.training.solving import for_kinds, solve_all

    solve_all(tables, for_kinds(tables, rules, kinds), progress)


#: The kinds a new learner starts with.
FIRST_KINDS: Final = (Kind.BANK_OR_ROLL, Kind.KEEP)
#: What each later kind builds on; it joins a learner's sessions once those are mastered.
#: A kind not named here builds on all of :data:`FIRST_KINDS`.
BUILDS_ON: Final = {Kind.OPENING: (Kind.BANK_OR_ROLL,)}
#: Mastered: at least this many answers, with this share right over the recent ones.
MASTERED_ANSWERS = 10
MASTERED_ACCURACY = 0.8


def learner_kinds(store: Store) -> tuple[tuple[Kind, ...], tuple[Kind, ...]]:
    """The kinds for a learner's session when none is asked for, and the kinds still to come.

    A newcomer starts with bank-or-roll and keep; house rules (opening) and final rounds
    join as the kinds they build on are mastered, so the first session is not about an
    opening minimum or a final round before the plain decision is known.
    """
    from farkle_trainer.training.progress import load_progress

    mastered = {
        Kind(t.topic)
        for t in load_progress(store).topics
        if t.kind == KIND
        and t.topic in KINDS
        and t.answers >= MASTERED_ANSWERS
        and t.recent_accuracy >= MASTERED_ACCURACY
    }
    ready = [
        k for k in TURN_KINDS if k in FIRST_KINDS or all(b in mastered for b in BUILDS_ON.get(k, FIRST_KINDS))
    ]
    return tuple(ready), tuple(k for k in TURN_KINDS if k not in ready)


def parse_level(value: str | None) -> Level | None:
    if value is None:
        return None
    word = value.strip().lower()
    if word not in LEVELS:
        raise InputError(f"--level takes easy, medium or hard, not {value!r}")
    return Level(word)


def check_count(count: int, seed: int | None) -> None:
    if not 1 <= count <= MAX_COUNT:
        raise InputError(f"--count must be 1 to {MAX_COUNT}, not {count}")
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise InputError(f"--seed must be 0 to {MAX_SEED}, not {seed}")


def drill_stream(seed: int) -> Stream:
    """The stream a session's drills are drawn from: the same seed, the same drills anywhere."""
    return Stream(f"decide:{seed}")


def new_seed() -> int:
    return secrets.randbelow(1_000_000_000)


def make_plan(
    tables: Tables,
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
    if not adaptive:
        return Plan(tables, rules, drill_stream(seed), count, kinds, level)
    from farkle_trainer.training.mistakes import MISTAKES, personal_key

    # Drill positions and personal positions (a position missed is one), the longest overdue first.
    due = store.due_items(KIND, limit=DUE_LOOKAHEAD) + store.due_items(MISTAKES, limit=DUE_LOOKAHEAD)
    due.sort(key=lambda item: (item.due_at, item.last_seen, item.item))
    found = []
    for item in due:
        p = position_from_data((item.extra or {}).get("position"), rules)
        # A personal position made under another table, or other house rules that count, is not
        # this session's.
        if p is not None and (item.kind == KIND or personal_key(p) == item.item):
            found.append(p)
    # Only the session's kinds, at its target: a game position is worth what its target makes
    # it, and valuing one the session will not ask could mean solving a game for nothing.
    asked = [p for p in found if p.kind in kinds and p.target in (None, rules.target)]
    review = [p for p in asked if worth_asking(decision_for(tables, p))]
    mastery = topic_mastery(store, KIND)
    return Plan(
        tables, rules, drill_stream(seed), count, kinds, level, adaptive=True, review=review, mastery=mastery
    )


def play_drills(
    tables: Tables,
    front: Frontend,
    view: DrillView,
    plan: Plan,
    session: Session,
    *,
    strategy: bool = False,
    rules_file: Path | None = None,
) -> Rounds[Grading]:
    """Ask every drill of ``plan``, recording each graded decision as it is made (before its
    grading is shown); a position answered an inaccuracy or worse becomes a personal position,
    its drill card that position's card (``rules_file``: where its rule table came from, None
    for a preset)."""
    from farkle_trainer.training.mistakes import mistake_of

    def play(item: tuple[int, Position]) -> Grading:
        number, position = item
        g = ask_drill(tables, front, view, position, number, plan.count)
        session.record(AnswerRecord.of_drill(g).of_position(mistake_of(tables, g.position, rules_file)))
        plan.answered(g)
        show_grading(tables, front, view, g, strategy=strategy)
        return g

    front.say(STOP_NOTE)
    return session.run(enumerate(plan, 1), play)


# -- asking and grading one drill


def _refuse_non_scoring(p: Position) -> Callable[[tuple[int, ...]], None]:
    def check(faces: tuple[int, ...]) -> None:
        e = explain(faces, p.rules)
        if e.split is None:
            reasons = "; ".join(d.reason for d in e.dead)
            raise ValueError(f"cannot set aside {dice_text(faces)}: {reasons}")

    return check


def _keep_asked(d: Decision) -> bool:
    """Whether the player chooses the set-aside: not when the drill sets it, or only one scores."""
    return d.position.kept is None and len(d.keeps) > 1


def ask_keep(front: Frontend, d: Decision) -> tuple[int, ...]:
    """The dice the player sets aside; not asked when only one set-aside is possible."""
    p = d.position
    if p.kept is not None:
        return tuple(sorted(p.kept))
    if not _keep_asked(d):
        only = d.keeps[0]
        what = f"Only {dice_text(only)} {'scores' if len(only) == 1 else 'score'}"
        front.say(f"{what}: you set {'it' if len(only) == 1 else 'them'} aside.")
        return only
    prompt = f"Set aside which dice? (faces like 1 5, or places: {labelled_roll(p.roll)})"
    return front.pick_dice(prompt, p.roll, _refuse_non_scoring(p))


#: The answer to the bank-or-roll question: the play, or the set-aside taken back or changed.
Answer = Choice | Literal["undo"] | tuple[int, ...]


def ask_action(front: Frontend, d: Decision, keep: tuple[int, ...]) -> Answer:
    """Bank or roll after setting aside ``keep``; not asked when banking is not allowed.

    Where the player chose the set-aside, ``u`` takes it back and other dice replace it, as in
    the daily game and whole games.
    """
    options = {c.action: c for c in d.choices_for(keep)}
    roll = options["roll"]
    at_stake = points(roll.points_after)
    rolls = "roll all 6 again (hot dice)" if roll.hot_dice else f"roll {dice_count(roll.dice_left)}"
    if "bank" not in options:
        front.say(
            f"{at_stake} at stake is short of the {points(d.position.opening)} opening minimum: "
            f"you must {rolls}."
        )
        return roll
    if d.position.kept is None:
        left = "hot dice" if roll.hot_dice else f"{dice_count(roll.dice_left)} left"
        front.say(f"{at_stake} points at stake, {left}.")
    prompt = f"Bank {at_stake} or {rolls}?"
    choices: list[tuple[str, BankOrRoll]] = [
        (f"Bank {at_stake}", "bank"),
        (rolls[0].upper() + rolls[1:], "roll"),
    ]
    changeable = _keep_asked(d)
    if changeable:
        choices.append(("Undo: set aside other dice", "undo"))
    refuse = _refuse_non_scoring(d.position)

    def parse(text: str) -> BankOrRoll:
        if not changeable:
            return parse_action(text)
        answer = parse_bank_or_roll(text, d.position.roll)
        if isinstance(answer, tuple):
            refuse(answer)
        return answer

    answer = front.choose(f"{prompt} (b/r)" if front.plain else prompt, choices, parse)
    return answer if answer == "undo" or isinstance(answer, tuple) else options[answer]


def ask_play(front: Frontend, d: Decision) -> Choice:
    """The dice set aside, then bank or roll on, changing the set-aside as often as asked."""
    keep = ask_keep(front, d)
    while True:
        answer = ask_action(front, d, keep)
        if isinstance(answer, Choice):
            return answer
        keep = ask_keep(front, d) if answer == "undo" else answer


def ask_drill(
    tables: Tables, front: Frontend, view: DrillView, p: Position, number: int, count: int
) -> Grading:
    """Show a position, ask for the play and grade it: the caller records the answer, then shows
    the grading (:func:`show_grading`), so an output that closes as the grading is shown (a pipe
    into ``head``) loses no answer."""
    d = decision_for(tables, p)
    front.show(view.situation_text(p, number, count), lambda: view.situation_rich(p, number, count))
    choice = ask_play(front, d)
    return grade(d, choice.keep, choice.action)


def show_grading(
    tables: Tables, front: Frontend, view: DrillView, g: Grading, *, strategy: bool = False
) -> None:
    """The grading of an answer already recorded (with ``strategy``, the bank thresholds too)."""
    notes = strategy_notes(tables, g) if strategy else ()
    front.show(view.grading_text(g, notes), lambda: view.grading_rich(g, notes))


# -- your mistakes, asked again (``decide --mistakes``)


@dataclass
class Sessions:
    """The training sessions of one ``decide --mistakes``: one per rule table, started as its
    first position is answered, so progress on a table counts its own; ``answers`` in order."""

    store: Store
    settings: dict[str, Any]
    started: dict[str, Session] = field(default_factory=dict)
    answers: list[AnswerRecord] = field(default_factory=list)

    def record(self, answer: AnswerRecord, rules: str) -> None:
        from farkle_trainer.training.mistakes import MISTAKES
        from farkle_trainer.training.session import Session

        session = self.started.get(rules)
        if session is None:
            session = Session.start(self.store, MISTAKES, rules=rules, params=self.settings)
            self.started[rules] = session
        session.record(answer)
        self.answers.append(answer)

    def finish(self) -> None:
        for session in self.started.values():
            session.finish()


def play_mistakes(
    tables: Tables,
    front: Frontend,
    view: DrillView,
    due: Sequence[tuple[Position, Path | None]],
    sessions: Sessions,
    *,
    strategy: bool = False,
) -> Rounds[Grading]:
    """Ask each due personal position as a drill, graded as every drill is, each answer reviewing
    its card as it is given."""
    from farkle_trainer.training.frontend import run_rounds
    from farkle_trainer.training.mistakes import personal_record

    def play(item: tuple[int, tuple[Position, Path | None]]) -> Grading:
        number, (position, file) = item
        g = ask_drill(tables, front, view, position, number, len(due))
        sessions.record(personal_record(g, file), position.rules.name)
        show_grading(tables, front, view, g, strategy=strategy)
        return g

    front.say(STOP_NOTE)
    return run_rounds(enumerate(due, 1), play)
