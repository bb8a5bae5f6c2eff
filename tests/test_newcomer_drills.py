"""A newcomer's decide sessions: the plain decisions first, house rules and final rounds as
those are mastered or asked for, and hot dice named when a drill starts on six fresh dice."""

from __future__ import annotations

from typer.testing import CliRunner

from farkle_trainer import load_rules
from farkle_trainer.cli import app
from farkle_trainer.engine.decisions import Kind, Position
from farkle_trainer.engine.kinds import TURN_KINDS
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.db import Store
from farkle_trainer.training.drills.drills import Plan
from farkle_trainer.training.drills.session import (
    MASTERED_ANSWERS,
    drill_stream,
    learner_kinds,
)
from farkle_trainer.training.drills.words import question_line, situation_lines
from farkle_trainer.ui.views.drills import kinds_line

CLASSIC = load_rules("classic")


def answer(store: Store, topic: str, count: int, right: int) -> None:
    sid = store.start_session("decide", rules="classic", params={})
    for n in range(count):
        store.record_answer(
            sid,
            topic=topic,
            item=f"{topic}-{n}",
            question=f"{topic} {n}",
            answer="bank",
            correct_answer="bank",
            correct=n < right,
            grade="best" if n < right else "blunder",
            points_lost=0.0 if n < right else 60.0,
        )


def test_a_newcomer_starts_with_bank_or_roll_and_keep(tables: Tables) -> None:
    with Store.open() as store:
        kinds, waiting = learner_kinds(store)
    assert kinds == (Kind.BANK_OR_ROLL, Kind.KEEP)
    assert set(waiting) == {Kind.OPENING, Kind.FINAL_ROUND}
    plan = Plan(tables, CLASSIC, drill_stream(7), 10, kinds, adaptive=True)
    assert {p.kind for p in plan} <= {Kind.BANK_OR_ROLL, Kind.KEEP}


def test_opening_then_final_round_join_as_their_basis_is_mastered() -> None:
    with Store.open() as store:
        answer(store, "bank-or-roll", MASTERED_ANSWERS, MASTERED_ANSWERS)
        answer(store, "keep", MASTERED_ANSWERS, MASTERED_ANSWERS // 2)
        kinds, waiting = learner_kinds(store)
        assert Kind.OPENING in kinds and waiting == (Kind.FINAL_ROUND,)
        answer(store, "keep", 2 * MASTERED_ANSWERS, 2 * MASTERED_ANSWERS)
        kinds, waiting = learner_kinds(store)
    assert set(kinds) == set(TURN_KINDS) and waiting == ()


def test_a_few_right_answers_are_not_mastery() -> None:
    with Store.open() as store:
        answer(store, "bank-or-roll", MASTERED_ANSWERS - 1, MASTERED_ANSWERS - 1)
        assert learner_kinds(store)[0] == (Kind.BANK_OR_ROLL, Kind.KEEP)


def test_the_first_session_says_what_comes_later_and_kind_overrides() -> None:
    runner = CliRunner()
    first = runner.invoke(app, ["decide", "--count", "3", "--plain"], input="")
    assert first.output.splitlines()[0] == (
        "Drills: bank or roll and keep. Final round and opening come in as you master these; "
        "to practise them now: farkle-train decide --kind final-round,opening"
    )
    assert "Final round:" not in first.output and "nothing banked yet" not in first.output
    asked = runner.invoke(app, ["decide", "--kind", "opening", "--count", "1", "--plain"], input="")
    assert "Drills:" not in asked.output and "nothing banked yet" in asked.output
    seeded = runner.invoke(app, ["decide", "--seed", "3", "--count", "1", "--plain"], input="")
    assert "Drills:" not in seeded.output


def test_kinds_line_names_one_kind_alone() -> None:
    line = kinds_line((Kind.BANK_OR_ROLL, Kind.KEEP, Kind.OPENING), (Kind.FINAL_ROUND,))
    assert line.startswith("Drills: bank or roll, keep and opening. Final round come")


def test_six_dice_after_points_say_hot_dice() -> None:
    p = Position(CLASSIC, Kind.KEEP, 1250, (1, 2, 3, 4, 6, 6))
    lines = situation_lines(p)
    assert lines == ["Hot dice: all six scored, so you roll six again with 1,250 at stake: 1 2 3 4 6 6"]
    assert "hot dice" in question_line(p).lower()
    start = Position(CLASSIC, Kind.KEEP, 0, (1, 2, 3, 4, 6, 6))
    assert situation_lines(start) == ["Nothing set aside yet this turn. You roll 6 dice: 1 2 3 4 6 6"]
