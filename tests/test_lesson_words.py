"""Lessons as a newcomer reads them: right under every table, plain text that is plain, and
every figure reproducible by the command the lesson suggests beside it."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from farkle_trainer import load_rules
from farkle_trainer.cli import app
from farkle_trainer.engine.rules import PRESETS
from farkle_trainer.engine.strategy import strategy
from farkle_trainer.engine.tables import Tables
from farkle_trainer.training.lessons import FIELD, all_lessons, fill, find_lesson
from farkle_trainer.ui.views.lessons import lesson_text

HOUSE_TOML = """
name = "house"

[combinations]
straight = false
three_pairs = false
four_of_a_kind_and_pair = 1500

[house]
opening_minimum = 500
three_farkle_penalty = 500
"""


@pytest.fixture(scope="module")
def house_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("rules") / "house.toml"
    path.write_text(HOUSE_TOML, encoding="utf-8")
    return path


RULE_SETS = [*PRESETS, "house"]


def rules_arg(name: str, house_file: Path) -> str:
    return str(house_file) if name == "house" else name


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("name", RULE_SETS)
def test_lesson_3_reads_right_under_every_table(tables: Tables, name: str, house_file: Path) -> None:
    rules = load_rules(rules_arg(name, house_file))
    text = flat(find_lesson("3").render(tables, rules))
    assert "straight: nothing" not in text
    assert text.count("nothing (not every die scores)") == 0
    for paragraph in find_lesson("3").render(tables, rules).split("\n\n"):
        assert flat(paragraph).lower().count(f"under {rules.name} rules") <= 1, paragraph
    if rules.straight is None:
        assert "a straight is not a combination" in text and "single 1 100 + single 5 50" in text
    else:
        assert f"1-2-3-4-5-6 is a straight: {rules.straight:,} under {rules.name} rules." in text
    if rules.three_pairs is None:
        assert "three pairs do not score together: 2-2-4-4-6-6 rolled is a Farkle" in text
    if rules.four_of_a_kind_and_pair is None:
        assert "The `fixed` table adds the combination: there 2-2-2-2-3-3 is 1,500." in text
        assert "Under `classic`" not in text
    else:
        assert "2-2-2-2-3-3 is 1,500. Under `classic`, which has no such combination" in text
        assert "The `fixed` table adds" not in text


def test_lessons_use_the_rule_sets_house_rules(tables: Tables, house_file: Path) -> None:
    rules = load_rules(str(house_file))
    bank = flat(find_lesson("5").render(tables, rules))
    expected = strategy(tables, rules, opening=rules.opening_minimum).expected_turn_score
    free = strategy(tables, rules, opening=0).expected_turn_score
    assert f"a turn is worth {expected:,.2f} points" in bank
    assert "under the opening minimum of 500 in house rules" in bank
    assert "leave out the 500 penalty for three Farkles" in bank
    end = flat(find_lesson("6").render(tables, rules))
    assert f"against {free:,.2f} without one" in end
    assert "a 500 penalty" in end and "at least 500 banked" in end and "never below 0" in end
    plain = flat(find_lesson("5").render(tables, PRESETS["classic"]))
    assert "opening minimum of" not in plain and "penalty" not in plain


@pytest.mark.parametrize("number", [lesson.number for lesson in all_lessons()])
@pytest.mark.parametrize("name", RULE_SETS)
def test_plain_lessons_carry_no_markdown(tables: Tables, number: int, name: str, house_file: Path) -> None:
    rules = load_rules(rules_arg(name, house_file))
    text = lesson_text(find_lesson(str(number)).render(tables, rules))
    assert "**" not in text and "`" not in text and "|" not in text
    assert not re.search(r"^\s*#", text, re.M)
    assert "\n\n\n" not in text
    lines = text.splitlines()
    assert lines[0] == f"{number}. {find_lesson(str(number)).title}" or lines[0].startswith(f"{number}. ")


def test_plain_lesson_keeps_tables_lists_and_headings(farkle_home: Path) -> None:
    result = CliRunner().invoke(app, ["learn", "4", "--plain"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "4. How often you Farkle"
    assert "Why keeping fewer dice helps" in lines
    assert "dice rolled  chance of a Farkle  exactly" in lines
    assert "6            2.31%               5/216" in lines
    assert any(line.startswith("- keep only the 1 (100) and roll five dice") for line in lines)
    assert "    farkle-train decide --kind keep" in lines


NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?%?")


def paragraphs_with_commands(template: str) -> list[tuple[list[str], list[str]]]:
    """(commands, figure fields) of each paragraph that suggests a command beside its figures."""
    found = []
    for paragraph in re.split(r"\n\s*\n", template):
        commands = re.findall(r"`(farkle-train [^`]+)`", paragraph)
        fields = [m.group(0) for m in FIELD.finditer(paragraph)]
        if commands and fields:
            found.append((commands, fields))
    return found


def test_some_lessons_suggest_commands_beside_figures() -> None:
    suggested = [lesson.number for lesson in all_lessons() if paragraphs_with_commands(lesson.template)]
    assert suggested == [4, 5, 6]


@pytest.mark.parametrize("number", [lesson.number for lesson in all_lessons()])
@pytest.mark.parametrize("name", RULE_SETS)
def test_every_quoted_figure_comes_from_the_suggested_command(
    tables: Tables, number: int, name: str, house_file: Path, farkle_home: Path
) -> None:
    rules_option = rules_arg(name, house_file)
    rules = load_rules(rules_option)
    runner = CliRunner()
    for commands, fields in paragraphs_with_commands(find_lesson(str(number)).template):
        outputs = []
        for command in commands:
            args = [*shlex.split(command)[1:], "--rules", rules_option, "--plain"]
            result = runner.invoke(app, args)
            assert result.exit_code == 0, (command, result.output)
            outputs.append(result.output)
        for field in fields:
            for figure in NUMBER.findall(fill(tables, field, rules)):
                alone = re.compile(rf"(?<![\d,.]){re.escape(figure)}(?![\d,])")
                assert any(alone.search(out) for out in outputs), (
                    f"lesson {number} under {rules.name}: {field} = {figure} not in the output of {commands}"
                )
