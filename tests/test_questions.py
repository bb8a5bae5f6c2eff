"""Scoring questions as data: the table's rules by level, and drawing questions on them."""

from __future__ import annotations

import pytest
from factories import HOUSE, q

from farkle_trainer.engine.dice import counts_of, multisets
from farkle_trainer.engine.rules import Rules, rules_from_mapping
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.store.rules import load_rules
from farkle_trainer.training.quizzes.questions import (
    LEVELS,
    allowed_rules,
    rules_in,
    table_rules,
)
from farkle_trainer.training.quizzes.topics import TOPICS, make_question, revive, spec_of

CLASSIC = load_rules("classic")
FIXED = load_rules("fixed")
MULTIPLIER = load_rules("multiplier")
ALL_TABLES = [load_rules(n) for n in ("classic", "fixed", "doubling", "multiplier")] + [HOUSE]


# -- generation


@pytest.mark.parametrize("topic", TOPICS)
@pytest.mark.parametrize("level", LEVELS)
def test_questions_fit_their_topic_and_level(topic: str, level: str) -> None:
    table = score_table(CLASSIC)
    for i in range(60):
        question = make_question(topic, CLASSIC, level, Stream(f"fit/{i}"))  # type: ignore[arg-type]
        spec = spec_of(topic)
        assert question.topic == topic and spec.fits(question)
        assert question.form == spec.form
        counts = question.counts
        low, high = spec.sizes[level]  # type: ignore[index]
        # A valid question may borrow a combination's dice.
        assert low <= len(question.dice) <= high or (topic == "valid" and question.combo), question
        if topic == "worth":
            split = table.split(counts)
            assert split is not None and rules_in(split) <= set(allowed_rules(CLASSIC, level))  # type: ignore[arg-type]
        if topic == "best":
            assert len(table.selections(counts)) >= 2


def test_levels_use_their_rules() -> None:
    easy = {"single 1", "single 5"} | {f"three {f}s" for f in range(1, 7)}
    assert set(allowed_rules(CLASSIC, "easy")) == easy
    assert "four of a kind" in allowed_rules(CLASSIC, "medium")
    assert "three pairs" not in allowed_rules(CLASSIC, "medium")
    assert set(allowed_rules(CLASSIC, "hard")) == set(table_rules(CLASSIC))
    assert "four of a kind and a pair" not in table_rules(CLASSIC)
    assert "four of a kind and a pair" in table_rules(FIXED)
    assert {"straight 1-5", "straight 2-6"} <= set(table_rules(HOUSE))
    assert "three pairs" not in table_rules(HOUSE)


def test_groups_know_their_table_rule() -> None:
    def rule(*dice: int) -> set[str]:
        split = score_table(FIXED).split(counts_of(dice))
        assert split is not None
        return {g.rule for g in split.groups}

    assert rule(2, 2, 2, 2) == {"four of a kind"}
    assert rule(6, 6, 6, 6, 6, 6) == {"six of a kind"}
    assert rule(2, 2, 2, 2, 3, 3) == {"four of a kind and a pair"}
    assert rule(4, 4, 4) == {"three 4s"}
    # Every group any table can score is one of that table's rules.
    for rules in ALL_TABLES:
        table = score_table(rules)
        for n in range(1, 7):
            for counts in multisets(n):
                assert rules_in(table.split(counts)) <= set(table_rules(rules)), (rules.name, counts)


@pytest.mark.parametrize("rules", ALL_TABLES, ids=lambda r: r.name)
@pytest.mark.parametrize("topic", ["worth", "valid", "best"])
def test_every_rule_of_the_table_is_asked(rules: Rules, topic: str) -> None:
    met: set[str] = set()
    for level in LEVELS:
        for i in range(120):
            question = make_question(topic, rules, level, Stream(f"cover/{i}"))
            met |= rules_in(
                score_table(rules).split(question.counts)
                or score_table(rules).best_selection(question.counts)
            )
    assert met == set(table_rules(rules))


def test_dice_come_from_fair_rolls() -> None:
    # Farkle questions are conditioned fair rolls: among non-Farkles of three dice, a single 1 or 5
    # with two dead dice is far likelier than three of a kind, as in real play.
    rolls = [make_question("farkle", CLASSIC, "easy", Stream(f"fair/{i}")) for i in range(600)]
    three = [r for r in rolls if len(r.dice) == 3 and not score_table(CLASSIC).is_farkle(r.counts)]
    triples = sum(1 for r in three if len(set(r.dice)) == 1)
    assert three and triples / len(three) < 0.1
    # About half the yes/no questions are yes.
    farkles = sum(score_table(CLASSIC).is_farkle(r.counts) for r in rolls)
    assert 0.4 < farkles / len(rolls) < 0.6


def test_combos_follow_the_table() -> None:
    asked = {make_question("combos", CLASSIC, "hard", Stream(f"combo/{i}")).combo for i in range(200)}
    assert asked >= {"straight", "three pairs", "two triplets", "six of a kind", "four 1s"}
    assert "four of a kind and a pair" in asked and "near straight" in asked
    easy = {make_question("combos", CLASSIC, "easy", Stream(f"combo/{i}")).combo for i in range(100)}
    assert easy == {"straight", "three pairs", "two triplets", "six of a kind"}


# -- reviving stored items


def test_revive_refuses_what_does_not_fit() -> None:
    worth = q("worth", "222233", FIXED)
    assert revive(worth.extra(), FIXED) == worth
    changed = rules_from_mapping({"name": "fixed", "base": "classic"})
    assert revive(worth.extra(), changed) is None  # no longer scores as a whole
    assert revive({"topic": "worth", "dice": [7], "rules": "classic"}, CLASSIC) is None
    assert revive(None, CLASSIC) is None
