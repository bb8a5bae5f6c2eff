"""Personal positions: every decision graded an inaccuracy or worse comes back as a drill.

A decision missed anywhere (a drill in ``decide``, a move of a whole game by a person, the
daily game, a class challenge) becomes a drill position holding all of it: the dice, the
points at stake, the scores, the runs of Farkles and who has opened, the rule table with its
house rules and the target. It is kept as a card of the review schedule
(:data:`~farkle_trainer.store.schedule.MISTAKES`, keyed by :func:`personal_key`, so the same
position is one card however often it is missed) and asked again by ``decide --mistakes`` when
FSRS says it is due. Mistakes are training: nothing here touches the stats.

A game's decision becomes the drill of the unit it was graded in, so it is graded exactly as
in the game (:func:`game_position`): a two-player game's is a ``game`` drill (its last turn
too), a solo game's for the fewest turns a ``solo`` drill, a decision graded in points a
``keep`` drill (``opening`` for a player who has not opened, with the penalty where a third
Farkle is at stake), and a last turn graded by the chance of passing the leader a
``final-round`` drill (with the opening minimum of a player who has not opened).

A position keeps its rule table by name and digest (:func:`rules_record`): a preset is always
at hand; a table from a rule file keeps the file's path, and is asked again only while the file
still holds that table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from farkle_trainer.engine.decisions import (
    DrillError,
    Grading,
    Kind,
    Position,
    decision_for,
    play_words,
    position_data,
    position_from_data,
)
from farkle_trainer.engine.errors import InputError
from farkle_trainer.engine.farkles import NO_RUNS, Runs
from farkle_trainer.engine.grading import Unit
from farkle_trainer.engine.kinds import SCORE_KINDS
from farkle_trainer.engine.rules import PRESETS, Rules
from farkle_trainer.engine.situations import ReachTotal, TurnPoints
from farkle_trainer.store.rows import ItemState, Mistake
from farkle_trainer.store.schedule import MISTAKES
from farkle_trainer.training.drills.words import question_line

if TYPE_CHECKING:
    from farkle_trainer.engine.tables import Tables
    from farkle_trainer.store.db import Store
    from farkle_trainer.training.games.analysis import Review
    from farkle_trainer.training.games.match import MatchState, Move
    from farkle_trainer.training.games.setup import Setup
    from farkle_trainer.training.record import AnswerRecord

#: Due cards read from the store at once; those that cannot be asked are skipped.
DUE_LOOKAHEAD = 500


def rules_record(rules: Rules, file: Path | None = None) -> dict[str, Any]:
    """What a personal position keeps of its rules: the table's name and digest, the house rules
    it was played under, and the rule file it came from (None for a preset)."""
    return {
        "name": rules.name,
        "scoring_key": rules.scoring_key,
        "opening_minimum": rules.opening_minimum,
        "three_farkle_penalty": rules.three_farkle_penalty,
        "target": rules.target,
        "file": None if file is None else str(file),
    }


def rules_file(name_or_path: str) -> Path | None:
    """The rule file ``--rules`` names, made absolute so a position finds it from anywhere; None
    for a preset."""
    if name_or_path.strip().lower() in PRESETS:
        return None
    return Path(name_or_path).expanduser().absolute()


def personal_key(p: Position) -> str:
    """A stable key of everything a position's values depend on: its drill key, the scoring
    table's digest, and the three-Farkle penalty where it counts."""
    key = f"{p.item}:{p.rules.scoring_key}"
    if p.rules.three_farkle_penalty and (p.kind in SCORE_KINDS or p.third_farkle):
        key += f":penalty{p.rules.three_farkle_penalty}"
    return key


def mistake_of(tables: Tables, p: Position, file: Path | None = None) -> Mistake:
    """The card of a personal position: the question as a drill asks it, the best play, and what
    is needed to ask it again."""
    best = decision_for(tables, p).best
    return Mistake(
        item=personal_key(p),
        topic=p.kind,
        question=question_line(p),
        correct_answer=play_words(p, best),
        extra={"position": position_data(p), "rules": rules_record(p.rules, file)},
        drill_item=p.item,
    )


# -- a game's decisions


def game_position(setup: Setup, move: Move, runs: Runs = NO_RUNS) -> Position:
    """A game's decision as the drill of the unit it was graded in (see the module's docstring):
    the drill of the very situation the game valued it in.

    ``runs``: the mover's and the rival's Farkles in a row and who had opened (see
    :func:`~farkle_trainer.training.games.match.move_runs`). Raises :class:`DrillError` for a
    decision no drill can hold (an opponent more than any turn banks past the target).
    """
    from farkle_trainer.training.games.analysis import grading_unit, situation_of

    unit = grading_unit(setup, move)
    s = situation_of(setup, move, unit, runs)
    me, leader = move.score, move.leader
    common: dict[str, Any] = {"rules": setup.rules, "points": move.points, "roll": move.roll}
    game: dict[str, Any] = {"banked": me, "target": setup.target, "opening": setup.opening, "runs": runs}
    if unit == Unit.WIN:
        return Position(kind=Kind.GAME, opponent=leader, **game, **common)
    if unit == Unit.TURNS:
        return Position(kind=Kind.SOLO, **game, **common)
    if isinstance(s, ReachTotal):
        return Position(kind=Kind.FINAL_ROUND, leader=leader, banked=me, opening=s.opening, **common)
    assert isinstance(s, TurnPoints)
    if s.opening:
        return Position(kind=Kind.OPENING, opening=s.opening, **common)
    if s.farkle_cost:
        return Position(kind=Kind.KEEP, banked=me, runs=Runs(my_farkles=runs.my_farkles), **common)
    return Position(kind=Kind.KEEP, **common)


def game_mistake(
    tables: Tables, setup: Setup, review: Review, runs: Runs = NO_RUNS, file: Path | None = None
) -> Mistake | None:
    """A game's decision graded an inaccuracy or worse, as a personal position (None for a right
    one, or one no drill can hold)."""
    if review.right:
        return None
    try:
        return mistake_of(tables, game_position(setup, review.move, runs), file)
    except DrillError:
        return None


def game_mistakes(
    tables: Tables, state: MatchState, file: Path | None = None
) -> list[tuple[Review, Mistake | None]]:
    """Every decision of the people of a game, graded in order, each with its personal position
    if it was a mistake."""
    from farkle_trainer.training.games.analysis import review_move
    from farkle_trainer.training.games.match import move_runs

    people = state.setup.players
    found = []
    for move, runs in zip(state.log, move_runs(state), strict=True):
        if move.decision and people[move.seat].human:
            r = review_move(tables, state.setup, move, runs)
            found.append((r, game_mistake(tables, state.setup, r, runs, file)))
    return found


@dataclass(frozen=True)
class Kept:
    """A game's decisions graded an inaccuracy or worse that are personal positions in a store:
    how many decisions, how many positions (the same position twice is one), and how many of
    those are due at ``now``."""

    mistakes: int
    positions: int
    due: int


def kept_of(store: Store, graded: Sequence[tuple[Review, Mistake | None]]) -> Kept:
    """What ``graded`` (a game's decisions, with their personal positions: see
    :func:`game_mistakes`) left in ``store`` that is there still (a reset takes them away)."""
    made = [mistake.item for _, mistake in graded if mistake is not None]
    cards = {card.item: card for card in store.cards(MISTAKES, made)}
    now = store.now()
    return Kept(
        mistakes=sum(item in cards for item in made),
        positions=len(cards),
        due=sum(card.due_at <= now for card in cards.values()),
    )


# -- asking them again


@dataclass(frozen=True)
class Skipped:
    """A due personal position that cannot be asked, and why: ``reason`` said of one, ``reasons``
    of several (the same words for every one alike)."""

    item: str
    reason: str
    reasons: str


@dataclass(frozen=True)
class Why:
    """Why a position cannot be asked, said of one and of several."""

    one: str
    many: str

    @classmethod
    def alike(cls, text: str) -> Why:
        return cls(text, text)


@dataclass(frozen=True)
class DueMistakes:
    """The due personal positions that can be asked, most overdue first (up to the number asked
    for), how many of them are due in all, how many more are due of other kinds, and those
    skipped."""

    positions: tuple[tuple[Position, Path | None], ...]
    due: int
    other_kinds: int
    skipped: tuple[Skipped, ...]


def revived_rules(record: Any, known: Sequence[Rules] = ()) -> Rules | Why:
    """The rules a position was made under, from what it kept (:func:`rules_record`), or why they
    cannot be had: a preset by name, a rule file read again (it must still hold the same table),
    or one of the ``known`` tables (``--rules``) of the same name and digest."""
    from farkle_trainer.store.rules import load_rules

    if not isinstance(record, Mapping):
        return Why("its record cannot be read", "their records cannot be read")
    name, key, file = record.get("name"), record.get("scoring_key"), record.get("file")
    table: Rules | None = None
    if isinstance(file, str) and file:
        try:
            table = load_rules(Path(file))
        except InputError:
            return Why.alike(f"the rule file {file} is gone or cannot be read")
        if (table.name, table.scoring_key) != (name, key):
            return Why.alike(f"the rule file {file} has changed since")
    elif isinstance(name, str) and name.lower() in PRESETS and PRESETS[name.lower()].scoring_key == key:
        table = PRESETS[name.lower()]
    else:
        table = next((r for r in known if (r.name, r.scoring_key) == (name, key)), None)
        if table is None:
            return Why(
                f"it was made under the rule table {name!r}: give its file with --rules",
                f"they were made under the rule table {name!r}: give its file with --rules",
            )
    try:
        return table.with_house_rules(
            opening_minimum=record.get("opening_minimum"),
            three_farkle_penalty=record.get("three_farkle_penalty"),
            target=record.get("target"),
        )
    except (InputError, TypeError):
        return Why("its house rules cannot be read", "their house rules cannot be read")


def revive(item: ItemState, known: Sequence[Rules] = ()) -> tuple[Position, Path | None] | Skipped:
    """A personal position's card as the position to ask, with its rule file; or why it cannot be."""
    extra = item.extra if isinstance(item.extra, Mapping) else {}
    record = extra.get("rules")
    rules = revived_rules(record, known)
    if isinstance(rules, Why):
        return Skipped(item.item, rules.one, rules.many)
    p = position_from_data(extra.get("position"), rules)
    if p is None or personal_key(p) != item.item:
        return Skipped(item.item, "its position cannot be read", "their positions cannot be read")
    file = record.get("file") if isinstance(record, Mapping) else None
    return p, Path(file) if isinstance(file, str) and file else None


def due_mistakes(
    store: Store, *, kinds: Sequence[Kind] | None = None, known: Sequence[Rules] = (), limit: int
) -> DueMistakes:
    """Up to ``limit`` due personal positions of ``kinds`` (every kind by default), most overdue
    first, and those that are due but cannot be asked."""
    asked: list[tuple[Position, Path | None]] = []
    skipped: list[Skipped] = []
    due = others = 0
    for item in store.due_items(MISTAKES, limit=DUE_LOOKAHEAD):
        found = revive(item, known)
        if isinstance(found, Skipped):
            skipped.append(found)
        elif kinds is not None and found[0].kind not in kinds:
            others += 1
        else:
            due += 1
            if len(asked) < limit:
                asked.append(found)
    return DueMistakes(tuple(asked), due, others, tuple(skipped))


# -- a session of them


def personal_record(g: Grading, file: Path | None) -> AnswerRecord:
    """A personal position's drill as an answer: it reviews the position's own card."""
    from farkle_trainer.training.record import AnswerRecord

    return AnswerRecord.of_personal(g, personal_key(g.position), rules_record(g.position.rules, file))
