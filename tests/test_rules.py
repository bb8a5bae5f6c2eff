"""Rule sets: the presets as DESIGN.md tables them, and custom TOML files."""

from __future__ import annotations

from dataclasses import asdict, replace
from pathlib import Path

import pytest

from farkle_trainer import RulesError, explain, load_rules, score
from farkle_trainer.engine.rules import PRESETS, Rules, as_rule_file, rules_from_mapping


def test_presets_match_the_design_table() -> None:
    rows = {
        name: (
            [r.of_a_kind_points(2, k) for k in (4, 5, 6)],
            r.straight,
            r.three_pairs,
            r.four_of_a_kind_and_pair,
            r.two_triplets,
        )
        for name, r in PRESETS.items()
    }
    assert rows == {
        "classic": ([1000, 2000, 3000], 1500, 1500, None, 2500),
        "fixed": ([1000, 2000, 3000], 1500, 1500, 1500, 2500),
        "doubling": ([400, 800, 1600], 1500, 1000, None, None),
        "multiplier": ([400, 600, 800], 1500, 1500, None, None),
    }
    for r in PRESETS.values():
        assert (r.single_one, r.single_five) == (100, 50)
        assert r.triples == (1000, 200, 300, 400, 500, 600)
        assert (r.opening_minimum, r.three_farkle_penalty, r.target) == (0, 0, 10_000)


def test_default_and_case_insensitive_names() -> None:
    assert load_rules() is PRESETS["classic"]
    assert load_rules("Multiplier") is PRESETS["multiplier"]
    assert load_rules(PRESETS["fixed"]) is PRESETS["fixed"]


def write(tmp_path: Path, text: str, name: str = "house.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_custom_table_can_set_every_value(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        name = "Grandma's table"
        base = "classic"
        description = "the one on the fridge"

        [singles]
        one = 100
        five = 50

        [three_of_a_kind]
        one = 300
        six = 1200

        [of_a_kind]
        mode = "multiply"
        four = 2
        five = 3
        six = false

        [combinations]
        straight = 2500
        three_pairs = 750
        four_of_a_kind_and_pair = 1500
        two_triplets = false
        partial_straight_low = 500
        partial_straight_high = 750

        [house]
        opening_minimum = 500
        three_farkle_penalty = 1000
        target = 5000
        """,
    )
    rules = load_rules(str(path))
    assert rules.name == "Grandma's table"
    assert rules.triples == (300, 200, 300, 400, 500, 1200)
    assert score([1, 1, 1], rules) == 300
    assert score([1, 1, 1, 1], rules) == 600  # 2x the triple beats 300 + 100
    assert score([2, 2, 2, 2, 2, 2], rules) == 400  # no six of a kind: two sets of three 2s
    assert score([1, 2, 3, 4, 5, 6], rules) == 2500
    assert score([2, 2, 3, 3, 4, 4], rules) == 750
    assert score([6, 6, 6, 6, 4, 4], rules) == 1500  # the pair of 4s can only score in the combination
    assert score([1, 1, 1, 1, 4, 4], rules) == 1500  # four 1s and a pair
    assert score([1, 2, 3, 4, 5], rules) == 500
    assert score([2, 3, 4, 5, 6], rules) == 750
    assert score([1, 2, 3, 4, 5, 5], rules) == 550
    assert (rules.opening_minimum, rules.three_farkle_penalty, rules.target) == (500, 1000, 5000)


def test_score_and_explain_take_a_rule_file_as_a_preset_name(tmp_path: Path) -> None:
    path = write(tmp_path, "[combinations]\nstraight = 2500\n")
    assert score([1, 2, 3, 4, 5, 6], path) == score([1, 2, 3, 4, 5, 6], str(path)) == 2500
    assert explain([1, 2, 3, 4, 5, 6], path).split.points == 2500
    assert score([1, 2, 3, 4, 5, 6], "classic") == 1500


def test_an_empty_file_is_the_base_table_under_the_file_name(tmp_path: Path) -> None:
    rules = load_rules(write(tmp_path, "", "plain.toml"))
    assert rules.name == "plain"
    assert rules.scoring_key == PRESETS["classic"].scoring_key


def test_a_rule_file_may_set_any_target_a_game_can_have(tmp_path: Path) -> None:
    assert load_rules(write(tmp_path, "[house]\ntarget = 20000")).target == 20_000


@pytest.mark.parametrize(
    ("text", "key", "words"),
    [
        ("colour = 1", "colour", "unknown setting"),
        ("[singles]\nseven = 100", "singles.seven", "unknown setting"),
        ("[singles]\none = 75", "singles.one", "multiple of 50"),
        ("[singles]\none = 'lots'", "singles.one", "whole number"),
        ("[singles]\none = -100", "singles.one", "between"),
        ("[combinations]\nstraight = 1500.5", "combinations.straight", "whole number"),
        ("[of_a_kind]\nmode = 'double'", "of_a_kind.mode", "fixed"),
        ("[of_a_kind]\nmode = 'multiply'\nfour = 1000", "of_a_kind.four", "factor"),
        ("[three_of_a_kind]\nseven = 700", "three_of_a_kind.seven", "unknown face"),
        ("base = 'vegas'", "base", "preset"),
        ("singles = 3", "singles", "table"),
        ("[house]\ntarget = 0", "house.target", "between"),
        ("[house]\ntarget = 20050", "house.target", "between 50 and 20,000"),
        ("[singles]\none = 10050", "singles.one", "between 50 and 10,000"),
        ("[house]\nopening_minimum = 333", "house.opening_minimum", "multiple of 50"),
    ],
)
def test_bad_files_name_the_key(tmp_path: Path, text: str, key: str, words: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(RulesError) as caught:
        load_rules(path)
    assert caught.value.key == key
    assert words in str(caught.value)
    assert str(path) in str(caught.value)


def test_broken_toml_and_missing_files(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="not valid TOML"):
        load_rules(write(tmp_path, "[singles\none = 100"))
    with pytest.raises(RulesError, match="no such rule file"):
        load_rules(tmp_path / "missing.toml")
    with pytest.raises(RulesError, match="unknown rules 'vegas'"):
        load_rules("vegas")


def test_rules_errors_are_value_errors() -> None:
    assert issubclass(RulesError, ValueError)


def test_scoring_key_ignores_names_and_house_rules() -> None:
    a = Rules(name="a", opening_minimum=500)
    b = Rules(name="b", target=5000)
    assert a.scoring_key == b.scoring_key
    assert Rules(straight=2500).scoring_key != a.scoring_key


def test_house_rules_are_checked() -> None:
    rules = PRESETS["classic"].with_house_rules(opening_minimum=350, target=2000)
    assert (rules.opening_minimum, rules.target) == (350, 2000)
    with pytest.raises(RulesError):
        PRESETS["classic"].with_house_rules(opening_minimum=333)


def test_table_rows_describe_the_preset() -> None:
    rows = dict(PRESETS["doubling"].table())
    assert rows["four of a kind"] == "2x the triple"
    assert rows["two triplets"] == "-"
    assert rows["three 1s"] == "1,000"


def test_rules_laid_out_as_a_rule_file_read_back_as_themselves() -> None:
    house = replace(
        PRESETS["doubling"], name="house", partial_straight_low=500, opening_minimum=350, target=2_000
    )
    for rules in (*PRESETS.values(), house):
        assert rules_from_mapping(as_rule_file(asdict(rules))) == rules
    with pytest.raises(RulesError, match=r"singles\.one: must be a multiple of 50, not 75"):
        rules_from_mapping(as_rule_file(asdict(replace(house, single_one=75))))
