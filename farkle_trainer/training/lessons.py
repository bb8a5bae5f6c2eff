"""Lessons: Markdown files in ``lessons/`` whose figures come from the engine.

A lesson file starts with a small header, then Markdown::

    ---
    title: Bank or roll
    practice: farkle-train decide --kind bank-or-roll
    ---
    With three dice left, roll while the turn is at most {{ threshold 3 }}.

Figures are written ``{{ name arg ... }}`` and filled in for the active rules,
so a lesson read with ``--rules multiplier`` shows that table's numbers. The
names are those in :data:`FIGURES`; their arguments are whole numbers (dice
faces, points, dice counts). An unknown name or a bad argument is a
:class:`TemplateError`, never a silently empty field.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING

from farkle_trainer.engine.errors import InputError
from farkle_trainer.engine.gameplan import Solve, TableKind
from farkle_trainer.engine.notation import ev, percent, points
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.scoring import explain, score, score_table

if TYPE_CHECKING:
    from farkle_trainer.engine.game import GameTable
    from farkle_trainer.engine.solver import Solution
    from farkle_trainer.engine.tables import Tables

FIELD = re.compile(r"\{\{\s*(?P<name>[a-z_]+)(?P<args>(?:\s+[\w-]+)*)\s*\}\}")
ANY_FIELD = re.compile(r"\{\{.*?\}\}", re.S)


class TemplateError(InputError):
    """A figure in a lesson that cannot be filled in."""


class LessonNotFound(InputError):
    """No lesson by that number or name."""


@dataclass(frozen=True)
class Lesson:
    number: int
    slug: str
    title: str
    practice: str  # the ready command that drills this lesson
    template: str  # Markdown with {{ figures }}

    @property
    def practice_args(self) -> list[str]:
        """The practice command's arguments after ``farkle-train``."""
        return self.practice.split()[1:]

    @property
    def practice_topic(self) -> tuple[str, str]:
        """The (kind, topic) of training the practice command records, e.g. ("score", "combos")."""
        args = self.practice_args
        topic = next((b for a, b in pairwise(args) if a in ("--topic", "--kind")), "")
        return args[0], topic

    def render(self, tables: Tables, rules: Rules) -> str:
        """The lesson's Markdown with every figure filled in for ``rules`` (solved in ``tables``)."""
        return fill(tables, self.template, rules)

    def needs(self, tables: Tables, rules: Rules) -> tuple[Solve, ...]:
        """The game tables its figures need under ``rules``, each told whether ``tables`` has it
        at hand (see :func:`tables_needed`)."""
        return tables_needed(tables, self.template, rules)


# -- figures


def _solution(tables: Tables, rules: Rules, opening: int | None = None, farkle_value: int = 0) -> Solution:
    """The expected-score solve; ``opening`` None means the rule set's own opening minimum,
    so a lesson's figures match what ``strategy`` and ``hint`` show for the same rules."""
    from farkle_trainer.engine.solver import Objective

    if opening is None:
        opening = rules.opening_minimum
    return tables.turn(rules, Objective.expected(opening=opening, farkle_value=farkle_value))


def _reach(tables: Tables, rules: Rules, need: int) -> Solution:
    from farkle_trainer.engine.solver import Objective

    return tables.turn(rules, Objective.reach(need, opening=rules.opening_minimum))


def _score(rules: Rules, *dice: int) -> str:
    value = score(dice, rules)
    return "nothing (not every die scores)" if value is None else points(value)


def _split(rules: Rules, *dice: int) -> str:
    result = explain(dice, rules)
    if result.split is None:
        dead = "; ".join(d.reason for d in result.dead)
        return f"not a valid set-aside ({dead})"
    return result.split.describe()


def _threshold(tables: Tables, rules: Rules, n: int, opening: int | None = None) -> str:
    t = _solution(tables, rules, opening).roll_while_at_most(n)
    return "never" if t is None else points(t)


def _penalty(rules: Rules) -> int:
    """The three-Farkle penalty a lesson discusses: the rule set's own, else 1,000."""
    return rules.three_farkle_penalty or 1000


def _penalty_rule(tables: Tables, rules: Rules, n: int) -> str:
    # Opening minimum left out: the penalty only bites a player with points banked.
    t = _solution(tables, rules, 0, -_penalty(rules)).roll_while_at_most(n)
    return "never roll: bank what you have" if t is None else f"roll while the turn is at most {points(t)}"


def _house_rules_note(rules: Rules) -> str:
    """What the bank-or-roll figures assume about the rule set's house rules, in words."""
    notes = []
    if rules.opening_minimum:
        notes.append(
            f"These figures are for a player with nothing banked yet, under the opening minimum of "
            f"{points(rules.opening_minimum)} in {rules.name} rules: below it you cannot bank, so "
            "you roll on. Once you have banked, the thresholds at or above the minimum still hold."
        )
    if rules.three_farkle_penalty:
        notes.append(
            f"They leave out the {points(rules.three_farkle_penalty)} penalty for three Farkles in "
            "a row, which only matters after two Farkles (lesson 6)."
        )
    return "\n\n".join(notes)


def _roll_against_bank(tables: Tables, rules: Rules, t: int, n: int) -> str:
    solution = _solution(tables, rules)
    roll = f"rolling on is worth {ev(solution.roll_value(t, n))} on average"
    if solution.bank_value(t) is None:
        return (
            f"{roll}, and banking is not allowed yet (the opening minimum is {points(rules.opening_minimum)})"
        )
    return f"{roll} against {points(t)} for banking"


def _straight(rules: Rules) -> str:
    if rules.straight is not None:
        return f"1-2-3-4-5-6 is a straight: {points(rules.straight)} under {rules.name} rules."
    return (
        f"Under {rules.name} rules a straight is not a combination: from 1-2-3-4-5-6 only the 1 and "
        f"the 5 score ({_split(rules, 1, 5)}), and the other four dice cannot be set aside."
    )


def _three_pairs(rules: Rules) -> str:
    if rules.three_pairs is not None:
        return f"Three pairs of **different** faces, like 2-2-4-4-6-6, score {points(rules.three_pairs)}."
    return f"Under {rules.name} rules three pairs do not score together: 2-2-4-4-6-6 rolled is a Farkle."


def _four_and_pair(rules: Rules) -> str:
    """2-2-2-2-3-3 under these rules, set against a preset that treats it the other way."""
    from farkle_trainer.engine.rules import PRESETS

    def without(table: Rules) -> str:
        best = explain((2, 2, 2, 2, 3, 3), table).best
        assert best is not None
        return (
            f"the most it gives is {best.describe()}, and the two 3s score nothing, so the six dice "
            "cannot all be set aside together"
        )

    if rules.four_of_a_kind_and_pair is not None:
        classic = PRESETS["classic"]
        return (
            f"Under {rules.name} rules the table has four of a kind and a pair: 2-2-2-2-3-3 is "
            f"{_score(rules, 2, 2, 2, 2, 3, 3)}. Under `classic`, which has no such combination, "
            f"{without(classic)}."
        )
    fixed = PRESETS["fixed"]
    return (
        f"Under {rules.name} rules the table has no four of a kind and a pair: {without(rules)}. "
        f"The `fixed` table adds the combination: there 2-2-2-2-3-3 is {_score(fixed, 2, 2, 2, 2, 3, 3)}."
    )


def _farkle_one_in(rules: Rules, n: int) -> str:
    chance = score_table(rules).farkle_chance(n)
    return f"{float(1 / chance):.1f}"


def _rules_only(figure: Callable[..., str]) -> Callable[..., str]:
    """A figure worked out from the rules alone, as a figure is called: the tables first."""
    return lambda tables, rules, *args: figure(rules, *args)


def _markdown_table(header: tuple[str, ...], rows: Iterable[tuple[object, ...]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(map(str, row)) + " |" for row in rows]
    return "\n".join(lines)


def _rules_table(rules: Rules) -> str:
    return _markdown_table(
        ("dice", "points"), ((name, value) for name, value in rules.table() if value != "-")
    )


def _odds_table(rules: Rules) -> str:
    table = score_table(rules)
    chances = [(n, table.farkle_chance(n)) for n in range(6, 0, -1)]
    return _markdown_table(
        ("dice rolled", "chance of a Farkle", "exactly"), ((n, percent(float(f)), f) for n, f in chances)
    )


def _thresholds_table(tables: Tables, rules: Rules) -> str:
    solution = _solution(tables, rules)
    limits = [(n, solution.roll_while_at_most(n)) for n in range(6, 0, -1)]
    return _markdown_table(
        ("dice to roll", "roll while the turn is at most"),
        ((n, "never" if t is None else points(t)) for n, t in limits),
    )


def _game(tables: Tables, rules: Rules, target: int) -> GameTable:

    return tables.game(rules, target)


def _game_note(rules: Rules) -> str:
    if not rules.three_farkle_penalty:
        return ""
    return (
        f"With this table's three-Farkle penalty of {points(rules.three_farkle_penalty)}, the figures "
        "are for players with no Farkles in a row; after two in a row a third costs the penalty, and "
        "`farkle-train strategy --game` shows how far the thresholds drop."
    )


def _first_player_edge(tables: Tables, rules: Rules, target: int) -> str:
    edge = _game(tables, rules, target).first_player_chance - 0.5
    return f"{100 * edge:.2f} percentage points"


def _fair_head_start(tables: Tables, rules: Rules, target: int) -> str:
    head = _game(tables, rules, target).fair_head_start()
    return "none below the target" if head is None else points(head)


def _fair_game_chance(tables: Tables, rules: Rules, target: int) -> str:
    table = _game(tables, rules, target)
    head = table.fair_head_start()
    if head is None:
        raise ValueError("no head start below the target makes the game even")
    return percent(table.win_chance(0, head))


def _game_threshold(tables: Tables, rules: Rules, mine: int, theirs: int, n: int, target: int) -> str:
    t = _game(tables, rules, target).roll_while_at_most(mine, theirs, n)
    return "never" if t is None else points(t)


def _game_bank(tables: Tables, rules: Rules, mine: int, theirs: int, t: int, target: int) -> str:
    value = _game(tables, rules, target).bank_value(mine, theirs, t)
    if value is None:
        raise ValueError(f"banking {t:,} is not allowed there")
    return percent(value)


def _solo_turns(tables: Tables, rules: Rules, score: int, target: int) -> str:

    return f"{tables.solo(rules, target).expected_turns(score):.2f}"


#: Every figure a lesson may use: name -> (function of the tables it is solved in, the rules and
#: whole-number arguments, how many arguments it takes as (least, most)).
FIGURES: dict[str, tuple[Callable[..., str], tuple[int, int]]] = {
    "rules_name": (_rules_only(lambda r: r.name), (0, 0)),
    "score": (_rules_only(_score), (1, 6)),
    "split": (_rules_only(_split), (1, 6)),
    "farkle_chance": (_rules_only(lambda r, n: percent(float(score_table(r).farkle_chance(n)))), (1, 1)),
    "farkle_fraction": (_rules_only(lambda r, n: str(score_table(r).farkle_chance(n))), (1, 1)),
    "farkle_one_in": (_rules_only(_farkle_one_in), (1, 1)),
    "threshold": (_threshold, (1, 2)),
    "penalty": (_rules_only(lambda r: points(_penalty(r))), (0, 0)),
    "penalty_rule": (_penalty_rule, (1, 1)),
    "house_rules_note": (_rules_only(_house_rules_note), (0, 0)),
    "roll_against_bank": (_roll_against_bank, (2, 2)),
    "straight": (_rules_only(_straight), (0, 0)),
    "three_pairs": (_rules_only(_three_pairs), (0, 0)),
    "four_and_pair": (_rules_only(_four_and_pair), (0, 0)),
    "score_chance": (_rules_only(lambda r, n: percent(float(1 - score_table(r).farkle_chance(n)))), (1, 1)),
    "expected_turn": (
        lambda tables, r, opening=None: ev(_solution(tables, r, opening).expected_turn_score),
        (0, 1),
    ),
    "expected_game": (lambda tables, r: points(round(10 * _solution(tables, r).expected_turn_score)), (0, 0)),
    "value_after": (lambda tables, r, t, n: ev(_solution(tables, r).value_after(t, n)), (2, 2)),
    "roll_value": (lambda tables, r, t, n: ev(_solution(tables, r).roll_value(t, n)), (2, 2)),
    "reach_chance": (lambda tables, r, need, t, n: percent(_reach(tables, r, need).roll_value(t, n)), (3, 3)),
    "rules_table": (_rules_only(_rules_table), (0, 0)),
    "odds_table": (_rules_only(_odds_table), (0, 0)),
    "thresholds_table": (_thresholds_table, (0, 0)),
    # Games: the last number is always the target the figure is solved for.
    "win_chance": (
        lambda tables, r, a, b, target: percent(_game(tables, r, target).win_chance(a, b)),
        (3, 3),
    ),
    "first_player_chance": (
        lambda tables, r, target: percent(_game(tables, r, target).first_player_chance),
        (1, 1),
    ),
    "first_player_edge": (_first_player_edge, (1, 1)),
    "fair_head_start": (_fair_head_start, (1, 1)),
    "fair_game_chance": (_fair_game_chance, (1, 1)),
    "game_threshold": (_game_threshold, (4, 4)),
    "game_bank": (_game_bank, (4, 4)),
    "game_roll": (
        lambda tables, r, a, b, t, n, target: percent(_game(tables, r, target).roll_value(a, b, t, n)),
        (5, 5),
    ),
    "solo_turns": (_solo_turns, (2, 2)),
    "game_note": (_rules_only(_game_note), (0, 0)),
}


#: The figures solved from a game's tables (the last number is the target), by table.
GAME_FIGURES = frozenset(
    {
        "win_chance",
        "first_player_chance",
        "first_player_edge",
        "fair_head_start",
        "fair_game_chance",
        "game_threshold",
        "game_bank",
        "game_roll",
    }
)
SOLO_FIGURES = frozenset({"solo_turns"})


def tables_needed(tables: Tables, template: str, rules: Rules) -> tuple[Solve, ...]:
    """The game and solo tables the figures of ``template`` are worked out from under ``rules``."""
    wanted: set[tuple[TableKind, int]] = set()
    for match in FIELD.finditer(template):
        kind: TableKind | None = (
            "game" if match["name"] in GAME_FIGURES else "solo" if match["name"] in SOLO_FIGURES else None
        )
        args = match["args"].split()
        if kind is not None and args and args[-1].isdigit():
            wanted.add((kind, int(args[-1])))
    return tuple(
        table for kind, target in sorted(wanted) for table in tables.plan(rules, target, kinds=(kind,))
    )


def fill(tables: Tables, template: str, rules: Rules) -> str:
    """Replace every ``{{ figure args }}`` in ``template`` with its value under ``rules``, the
    solver's figures solved in ``tables``."""

    def one(match: re.Match[str]) -> str:
        name = match["name"]
        args = [int(a) if a.lstrip("-").isdigit() else a for a in match["args"].split()]
        if name not in FIGURES:
            raise TemplateError(f"unknown figure {name!r} in {match.group(0)}")
        function, (least, most) = FIGURES[name]
        if not least <= len(args) <= most:
            raise TemplateError(f"{match.group(0)}: {name} takes {least} to {most} numbers")
        try:
            return function(tables, rules, *args)
        except ValueError as exc:
            raise TemplateError(f"{match.group(0)}: {exc}") from None

    filled = FIELD.sub(one, template)
    if leftover := ANY_FIELD.search(filled):
        raise TemplateError(f"cannot read the figure {leftover.group(0)}")
    return filled


# -- the lesson files


def lessons_dir() -> Path:
    """The lessons shipped in the package, or the source tree's ``lessons/``."""
    packaged = resources.files("farkle_trainer") / "lessons"
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / "lessons"


def parse_lesson(path: Path) -> Lesson:
    text = path.read_text(encoding="utf-8")
    match = re.match(r"---\n(?P<head>.*?)\n---\n(?P<body>.*)", text, re.S)
    if not match:
        raise TemplateError(f"{path.name}: a lesson starts with a --- header")
    head = dict(
        (key.strip(), value.strip())
        for key, _, value in (line.partition(":") for line in match["head"].splitlines())
        if key.strip()
    )
    number_text, _, slug = path.stem.partition("-")
    if not number_text.isdigit() or "title" not in head or "practice" not in head:
        raise TemplateError(f"{path.name}: needs a number in its name, a title and a practice command")
    return Lesson(int(number_text), slug, head["title"], head["practice"], match["body"].lstrip("\n"))


@cache
def all_lessons() -> tuple[Lesson, ...]:
    """Every lesson, in order."""
    return tuple(sorted((parse_lesson(p) for p in lessons_dir().glob("*.md")), key=lambda x: x.number))


def lesson_status(
    lessons: tuple[Lesson, ...], read: set[int], practised: set[tuple[str, str]]
) -> dict[int, str]:
    """Each lesson's status: ``new``, ``read``, or ``practised`` once it is read and its drill
    has answers (answers from elsewhere do not make an unread lesson practised)."""
    status = {}
    for lesson in lessons:
        if lesson.number in read and lesson.practice_topic in practised:
            status[lesson.number] = "practised"
        else:
            status[lesson.number] = "read" if lesson.number in read else "new"
    return status


def find_lesson(key: str | int) -> Lesson:
    """A lesson by number (``3`` or ``"3"``) or by name (``"combinations"``, a title word, or the
    file slug)."""
    lessons = all_lessons()
    text = str(key).strip().lower()
    for lesson in lessons:
        if text in (str(lesson.number), lesson.slug, lesson.title.lower()):
            return lesson
    if not isinstance(key, int):
        matches = [x for x in lessons if text in x.slug or text in x.title.lower()]
        if len(matches) == 1:
            return matches[0]
    listing = ", ".join(f"{x.number} ({x.slug})" for x in lessons)
    raise LessonNotFound(f"no lesson {text!r}: choose one of {listing}")
