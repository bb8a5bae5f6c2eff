"""Personal positions: a decision graded an inaccuracy or worse becomes the drill of its unit,
kept in the store and asked again graded exactly as the game graded it."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from farkle_trainer import load_rules
from farkle_trainer.engine.decisions import (
    DrillError,
    Kind,
    Position,
    decision_for,
    grade,
    position_data,
)
from farkle_trainer.engine.farkles import NO_RUNS, Runs
from farkle_trainer.engine.grading import Grade, Unit
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.db import Store
from farkle_trainer.store.schedule import MISTAKES
from farkle_trainer.training.drills.words import situation_lines
from farkle_trainer.training.games.analysis import review_move, situation_of, values
from farkle_trainer.training.games.match import Move
from farkle_trainer.training.games.setup import TEN_TURNS, Form, Level, Player, Setup
from farkle_trainer.training.mistakes import (
    due_mistakes,
    game_mistake,
    game_position,
    mistake_of,
    personal_key,
    revive,
    rules_record,
)

CLASSIC = load_rules("classic")
SHORT = CLASSIC.with_house_rules(target=2000)
#: The shipped table with both house rules: classic, opening 500, three Farkles cost 1,000.
HOUSE = CLASSIC.with_house_rules(opening_minimum=500, three_farkle_penalty=1000)
YOU = Player("You")
TWO = (YOU, Player("Hard", Level.HARD))
THREE = (YOU, Player("Easy", Level.EASY), Player("Medium", Level.MEDIUM))
NOW = datetime(2026, 11, 29, 12, tzinfo=UTC)


def move(roll: tuple[int, ...], points: int, scores: tuple[int, ...], **more: object) -> Move:
    return Move(
        turn=5, roll_number=1, roll=roll, points=points, keep=(), action="roll", scores=scores, **more
    )  # type: ignore[arg-type]


#: A decision of each kind of game, the drill it becomes and the unit both grade it in.
CASES = {
    "two players": (
        Setup(TWO, SHORT),
        move((1, 5, 2, 3, 6), 800, (1250, 1750)),
        NO_RUNS,
        Kind.GAME,
        Unit.WIN,
    ),
    "two players, the last turn": (
        Setup(TWO, SHORT),
        move((1, 2, 3, 4, 6), 500, (1700, 2300), last_turn=True),
        NO_RUNS,
        Kind.GAME,
        Unit.WIN,
    ),
    "two players, knocked back to 0 by the penalty": (
        Setup(TWO, HOUSE),
        move((1, 5, 2, 3, 6, 6), 300, (0, 3000), farkles=2),
        Runs(my_farkles=2, opponent_farkles=1, my_opened=True),
        Kind.GAME,
        Unit.WIN,
    ),
    "solo for the fewest turns": (
        Setup((YOU,), SHORT, Form.FEWEST_TURNS),
        move((1, 5, 2, 3), 300, (1500,)),
        NO_RUNS,
        Kind.SOLO,
        Unit.TURNS,
    ),
    "ten turns": (TEN_TURNS, move((1, 5, 2, 2, 3, 6), 0, (2000,)), NO_RUNS, Kind.KEEP, Unit.POINTS),
    "ten turns, a third Farkle at stake": (
        Setup((YOU,), CLASSIC.with_house_rules(three_farkle_penalty=1000), Form.TEN_TURNS),
        move((1, 5, 2, 3), 300, (700,), farkles=2),
        Runs(my_farkles=2),
        Kind.KEEP,
        Unit.POINTS,
    ),
    "ten turns, not opened": (
        Setup((YOU,), CLASSIC.with_house_rules(opening_minimum=500), Form.TEN_TURNS),
        move((1, 5, 2, 3), 300, (0,)),
        NO_RUNS,
        Kind.OPENING,
        Unit.POINTS,
    ),
    "three players": (
        Setup(THREE, SHORT),
        move((1, 5, 2, 3), 300, (1200, 1500, 900)),
        NO_RUNS,
        Kind.KEEP,
        Unit.POINTS,
    ),
    "three players, the last turn": (
        Setup(THREE, SHORT),
        move((1, 5, 2, 3), 300, (1200, 2150, 900), last_turn=True),
        NO_RUNS,
        Kind.FINAL_ROUND,
        Unit.CHANCE,
    ),
    "three players, the last turn, not opened": (
        Setup(THREE, SHORT.with_house_rules(opening_minimum=500)),
        move((1, 5, 5, 2, 3, 6), 0, (0, 2150, 900), last_turn=True),
        NO_RUNS,
        Kind.FINAL_ROUND,
        Unit.CHANCE,
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_game_decision_asked_again_is_graded_as_the_game_graded_it(
    tables: Tables, case: str, tmp_path: Path
) -> None:
    setup, m, runs, kind, unit = CASES[case]
    p = game_position(setup, m, runs)
    assert (p.kind, p.unit) == (kind, unit)
    # Through the store, as decide --mistakes reads it back.
    with Store.open(tmp_path, clock=lambda: NOW) as store:
        store.record_mistake(mistake_of(tables, p))
        due = due_mistakes(store, limit=5)
    assert due.positions == ((p, None),) and due.skipped == ()
    asked = due.positions[0][0]
    # The drill is the very situation the game valued the decision in.
    assert asked.situation == situation_of(setup, m, unit, runs)
    d = decision_for(tables, asked)
    game_plays = {(c.keep, c.action) for c in values(tables, setup, m, unit, runs).candidates}
    graded = set()
    for c in d.choices:
        r = review_move(tables, setup, replace(m, keep=c.keep, action=c.action), runs)
        g = grade(d, c.keep, c.action)
        assert (r.unit, r.grade) == (asked.unit, g.grade), (c.keep, c.action)
        assert r.lost == pytest.approx(g.lost, abs=1e-9), (c.keep, c.action)
        graded.add((c.keep, c.action))
    assert graded == game_plays
    # Some play of each position is a mistake, or the case proves nothing.
    assert any(not grade(d, k, a).right for k, a in graded)


def test_only_decisions_graded_an_inaccuracy_or_worse_become_personal_positions(tables: Tables) -> None:
    setup, m, runs, _, _ = CASES["ten turns"]
    best = review_move(tables, setup, replace(m, keep=(1,), action="roll"), runs)
    slip = review_move(tables, setup, replace(m, keep=(1, 5), action="roll"), runs)
    assert best.grade == Grade.BEST and game_mistake(tables, setup, best) is None
    assert slip.grade in (Grade.MISTAKE, Grade.BLUNDER)
    made = game_mistake(tables, setup, slip)
    assert made is not None
    p = Position(CLASSIC, Kind.KEEP, 0, (1, 5, 2, 2, 3, 6))
    assert made.item == personal_key(p) == f"keep:classic:0:122356:{CLASSIC.scoring_key}"
    assert (made.topic, made.correct_answer) == ("keep", "keep 1 and roll 5 dice")
    assert made.question == "Nothing set aside yet this turn. You roll 6 dice: 1 5 2 2 3 6"
    assert made.extra == {"position": position_data(p), "rules": rules_record(CLASSIC)}


def test_the_key_holds_everything_the_values_depend_on() -> None:
    game = Position(SHORT, Kind.GAME, 0, (1, 5), banked=0, opponent=0, target=2000)
    penalty = replace(game, rules=SHORT.with_house_rules(three_farkle_penalty=500))
    fixed = replace(game, rules=load_rules("fixed").with_house_rules(target=2000))
    assert len({personal_key(p) for p in (game, penalty, fixed)}) == 3
    keep = Position(CLASSIC, Kind.KEEP, 0, (1, 5))
    # A keep drill's values do not depend on the penalty unless a third Farkle is at stake.
    assert personal_key(keep) == personal_key(
        replace(keep, rules=penalty.rules.with_house_rules(target=10_000))
    )


def rule_file(path: Path, three_ones: int) -> Path:
    path.write_text(f'name = "kitchen"\n[three_of_a_kind]\none = {three_ones}\n')
    return path


def test_a_position_under_a_rule_file_comes_back_while_the_file_holds_its_table(
    tables: Tables, tmp_path: Path
) -> None:
    file = rule_file(tmp_path / "kitchen.toml", 300)
    kitchen = load_rules(file).with_house_rules(target=2000)
    p = Position(kitchen, Kind.KEEP, 0, (1, 1, 1, 5, 2, 3))
    with Store.open(tmp_path / "data", clock=lambda: NOW) as store:
        store.record_mistake(mistake_of(tables, p, file))
        assert due_mistakes(store, limit=5).positions == ((p, file),)
        [item] = store.due_items(MISTAKES)

    rule_file(file, 400)  # the table changed
    assert revive(item).reason == f"the rule file {file} has changed since"  # type: ignore[union-attr]
    file.unlink()
    assert revive(item).reason == f"the rule file {file} is gone or cannot be read"  # type: ignore[union-attr]

    # A table known by name and digest only (a game saved before its file was kept) comes back
    # when --rules gives a file that holds it.
    unnamed = mistake_of(tables, p)
    with Store.open(tmp_path / "other", clock=lambda: NOW) as store:
        store.record_mistake(unnamed)
        due = due_mistakes(store, limit=5)
        assert [s.reason for s in due.skipped] == [
            "it was made under the rule table 'kitchen': give its file with --rules"
        ]
        assert due_mistakes(
            store, known=(load_rules(rule_file(tmp_path / "k.toml", 300)),), limit=5
        ).positions == ((p, None),)


def test_an_edited_position_is_skipped_not_asked(tables: Tables, tmp_path: Path) -> None:
    p = Position(CLASSIC, Kind.KEEP, 0, (1, 5, 2, 2, 3, 6))
    with Store.open(tmp_path, clock=lambda: NOW) as store:
        made = mistake_of(tables, p)
        store.record_mistake(
            replace(made, extra={**made.extra, "position": {**made.extra["position"], "roll": [9]}})
        )
        store.record_mistake(replace(made, item="other", extra={"rules": "nothing"}))
        due = due_mistakes(store, limit=5)
    assert due.positions == ()
    assert sorted(s.reason for s in due.skipped) == [
        "its position cannot be read",
        "its record cannot be read",
    ]


def test_the_longest_overdue_come_first_and_kinds_can_be_chosen(tables: Tables, tmp_path: Path) -> None:
    clock = [NOW]
    positions = [
        Position(CLASSIC, Kind.KEEP, 0, (1, 5, 2, 2, 3, 6)),
        Position(SHORT, Kind.GAME, 800, (1, 5, 2, 3, 6), banked=1250, opponent=1750, target=2000),
        Position(CLASSIC, Kind.KEEP, 300, (1, 5, 2, 3)),
    ]
    with Store.open(tmp_path, clock=lambda: clock[0]) as store:
        for p in positions:
            store.record_mistake(mistake_of(tables, p))
            clock[0] += timedelta(minutes=1)
        due = due_mistakes(store, limit=2)
        assert [p for p, _ in due.positions] == positions[:2]
        assert (due.due, due.other_kinds) == (3, 0)
        keep = due_mistakes(store, kinds=(Kind.KEEP,), limit=5)
        assert [p for p, _ in keep.positions] == [positions[0], positions[2]]
        assert (keep.due, keep.other_kinds) == (2, 1)


def test_a_final_round_of_a_player_who_has_not_opened_keeps_the_minimum(tables: Tables) -> None:
    p = Position(SHORT, Kind.FINAL_ROUND, 0, (1, 5, 5, 2, 3, 6), leader=2150, banked=0, opening=500)
    assert situation_lines(p)[:2] == [
        "Final round: the leader has 2,150 and you have 0 banked, so you need 2,200 this turn to pass.",
        "You have not opened yet: you cannot bank a turn worth less than 500.",
    ]
    assert {c.action for c in decision_for(tables, p).choices} == {"roll"}  # 200 at most: short of 500
    with pytest.raises(DrillError, match="opening minimum"):
        Position(SHORT, Kind.FINAL_ROUND, 0, (1, 5), leader=2150, banked=100, opening=500)
    with pytest.raises(DrillError, match="opening minimum"):
        Position(SHORT, Kind.KEEP, 0, (1, 5), opening=500)
