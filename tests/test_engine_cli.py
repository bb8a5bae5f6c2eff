"""``explain``, ``hint`` and ``strategy`` from the command line: text, JSON, rich, errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from farkle_trainer import load_rules
from farkle_trainer.cli import app
from farkle_trainer.engine.plays import hint
from farkle_trainer.engine.scoring import explain
from farkle_trainer.engine.strategy import strategy
from farkle_trainer.engine.tables import Tables
from farkle_trainer.ui.views import engine as render

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def rich_text(renderable: object, width: int = 100) -> str:
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text()


# -- explain


def test_explain_plain() -> None:
    code, out, _ = run("explain", "1", "1", "1", "1", "5", "5", "--plain")
    assert code == 0
    assert out.splitlines() == [
        "Dice: 1 1 1 1 5 5 (classic rules)",
        "Score: 1,200",
        "  three 1s (1 1 1): 1,000",
        "  single 1 (1): 100",
        "  single 5 (5): 50",
        "  single 5 (5): 50",
        "As a roll: set all of them aside for 1,200.",
    ]


def test_explain_accepts_packed_dice_and_other_rules() -> None:
    code, out, _ = run("explain", "111155", "--rules", "fixed")
    assert code == 0
    assert "four 1s and a pair of 5s (1 1 1 1 5 5): 1,500" in out


def test_explain_names_the_dice_that_do_not_score() -> None:
    code, out, _ = run("explain", "2", "2", "2", "2", "3", "3")
    assert code == 0
    assert "not a valid set-aside" in out
    assert "These score 1,000: four 2s 1,000." in out
    assert "3 3: two 3s score nothing" in out
    assert "As a roll: the most you can set aside is 2 2 2 2 for 1,000" in out


def test_explain_farkle() -> None:
    _, out, _ = run("explain", "2", "2", "3", "4", "6", "6")
    assert "a single 3 scores nothing" in out
    assert "As a roll: a Farkle." in out


def test_explain_json_contract() -> None:
    code, out, _ = run("explain", "1", "1", "1", "1", "5", "5", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["dice"] == [1, 1, 1, 1, 5, 5]
    assert data["score"] == 1200
    assert data["groups"][0] == {"name": "three 1s", "dice": [1, 1, 1], "points": 1000}
    assert data["non_scoring"] == []
    assert data["farkle"] is False
    assert data["best"]["keep"] == [1, 1, 1, 1, 5, 5] and data["best"]["score"] == 1200


def test_explain_json_invalid_selection() -> None:
    data = json.loads(run("explain", "2", "2", "5", "--json")[1])
    assert data["score"] is None
    assert data["non_scoring"] == [2, 2]
    assert data["groups"] == [{"name": "single 5", "dice": [5], "points": 50}]
    assert data["best"] == {
        "keep": [5],
        "score": 50,
        "groups": [{"name": "single 5", "dice": [5], "points": 50}],
    }
    farkle = json.loads(run("explain", "2", "3", "4", "--json")[1])
    assert farkle["farkle"] is True and farkle["best"] is None


def test_explain_rich_table() -> None:
    text = rich_text(render.explain_rich(explain([1, 1, 1, 1, 5, 5]), "classic"), width=60)
    lines = [line.rstrip() for line in text.splitlines()]
    assert lines[0] == "1 1 1 1 5 5  (classic rules)"
    assert any("three 1s" in line and "1 1 1" in line and "1,000" in line for line in lines)
    assert any("total" in line and "1,200" in line for line in lines)
    assert lines[-1] == "As a roll: set all of them aside for 1,200."


def test_explain_rich_invalid() -> None:
    text = rich_text(render.explain_rich(explain([2, 2, 5]), "classic"))
    assert "Not a valid set-aside: some dice score nothing." in text
    assert "2 2: two 2s score nothing" in text


# -- hint


def test_hint_plain(tables: Tables) -> None:
    code, out, _ = run("hint", "1", "5", "2", "2", "3", "6", "--points", "300")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Roll: 1 2 2 3 5 6, 300 points at stake (classic rules)"
    assert lines[1].startswith("Best play: set aside 1 (100) and roll 5 dice; expected turn score ")
    assert len([line for line in lines if line.lstrip()[:2] in ("1.", "2.", "3.")]) == 3
    assert "-> roll, best" in lines[3]
    h = hint(tables, [1, 5, 2, 2, 3, 6], 300, load_rules("classic"))
    assert lines[4].endswith(f"-> roll, gives up {h.plays[0].value.best - h.plays[1].value.best:6.2f} points")
    plays = lines[3:6]
    # Columns line up: every value starts where the row above has it.
    for word in ("keep", "left", "bank", "roll", "->"):
        assert len({line.index(word) for line in plays}) == 1, word


def test_hint_json_contract(tables: Tables) -> None:
    code, out, _ = run("hint", "1", "5", "2", "2", "3", "6", "--points", "300", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["roll"] == [1, 2, 2, 3, 5, 6]
    assert data["points"] == 300 and data["farkle"] is False
    options = data["options"]
    assert [o["keep"] for o in options] == [[1], [5], [1, 5]]
    expected = hint(tables, [1, 5, 2, 2, 3, 6], 300, load_rules("classic"))
    for option, play in zip(options, expected.plays, strict=True):
        assert option["score"] == play.score
        assert option["dice_left"] == play.dice_left
        assert option["bank_ev"] == play.expected.bank
        assert option["roll_ev"] == play.expected.roll
        assert option["ev"] == max(option["bank_ev"], option["roll_ev"])
        assert option["best_action"] == "roll"
    assert options[0]["gives_up"] == 0


def test_hint_hot_dice_json() -> None:
    data = json.loads(run("hint", "1", "1", "1", "5", "5", "5", "--json")[1])
    assert data["options"][0]["keep"] == [1, 1, 1, 5, 5, 5]
    assert data["options"][0]["dice_left"] == 0


def test_hint_farkle() -> None:
    code, out, _ = run("hint", "2", "3", "4", "6", "--points", "450")
    assert code == 0
    assert "Farkle: nothing in this roll scores, so the 450 points at stake are lost" in out
    data = json.loads(run("hint", "2", "3", "4", "6", "--json")[1])
    assert data["farkle"] is True and data["options"] == []


def test_hint_opening_refuses_the_bank() -> None:
    data = json.loads(run("hint", "5", "2", "3", "--points", "300", "--opening", "500", "--json")[1])
    assert data["opening"] == 500
    assert data["options"][0]["bank_ev"] is None
    assert data["options"][0]["best_action"] == "roll"
    plain = run("hint", "5", "2", "3", "--points", "300", "--opening", "500")[1]
    assert "Opening minimum 500: no bank below it." in plain
    assert "bank not allowed" in plain


def test_hint_need_ranks_by_chance() -> None:
    data = json.loads(run("hint", "1", "5", "2", "3", "-p", "1,000", "--need", "1,330", "--json")[1])
    assert data["objective"] == "reach" and data["need"] == 1350
    best = data["options"][0]
    assert best["best_action"] == "roll"
    assert 0 < best["chance"] < 1
    assert {"bank_chance", "roll_chance", "bank_ev", "roll_ev", "ev"} <= best.keys()
    text = run("hint", "1", "5", "2", "3", "-p", "1000", "--need", "1350")[1]
    assert "values are chances" in text and "%" in text


def test_hint_a_play_as_good_as_the_best_reads_as_best(tables: Tables) -> None:
    # Banking 1,100 or 1,150 both reach 1,100 for certain.
    h = hint(tables, [1, 5, 2, 3], 1000, load_rules("classic"), need=1100)
    rows = render.hint_text(h).splitlines()[-3:]
    assert rows[0].endswith("-> bank, best") and rows[1].endswith("-> bank, equal best")
    assert rows[2].endswith("-> roll, gives up  27.78 pp")
    table = rich_text(render.hint_rich(h))
    assert "│ equal best │" in table and "0.00 pp" not in table


def test_hint_rich_table(tables: Tables) -> None:
    text = rich_text(render.hint_rich(hint(tables, [1, 5, 2, 2, 3, 6], 300, load_rules("classic"))))
    assert "Roll: 1 2 2 3 5 6, 300 points at stake (classic rules)" in text
    assert "gives up" in text and "roll on" in text
    assert "Best play: set aside 1 (100) and roll 5 dice" in text


# -- strategy


def test_strategy_plain_multiplier() -> None:
    code, out, _ = run("strategy", "--rules", "multiplier")
    assert code == 0
    assert "A turn played perfectly scores 579.62 on average" in out
    rows = {line.split()[0]: line.split()[-1] for line in out.splitlines() if line[:3].strip().isdigit()}
    assert rows == {"6": "17,600", "5": "3,050", "4": "1,000", "3": "400", "2": "200", "1": "250"}
    assert "66.67% (2/3)" in out


def test_strategy_json_contract() -> None:
    data = json.loads(run("strategy", "--rules", "multiplier", "--json")[1])
    assert data["expected_turn_score"] == pytest.approx(579.6, abs=0.5)
    assert data["farkle_chance"]["6"] == pytest.approx(5 / 216)
    assert data["farkle_chance_exact"]["1"] == "2/3"
    assert [data["roll_while_at_most"][str(n)] for n in range(1, 6)] == [250, 200, 400, 1000, 3050]


def test_strategy_opening_lowers_the_turn() -> None:
    free = json.loads(run("strategy", "--json")[1])
    opening = json.loads(run("strategy", "--opening", "500", "--json")[1])
    assert opening["opening"] == 500
    assert opening["expected_turn_score"] < free["expected_turn_score"]


def test_strategy_rich_table(tables: Tables) -> None:
    text = rich_text(render.strategy_rich(strategy(tables, load_rules("multiplier"))))
    assert "Strategy for multiplier rules" in text
    assert "25/324" in text and "3,050" in text


def test_rules_file_on_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "short.toml"
    path.write_text('name = "short"\n[three_of_a_kind]\none = 300\n')
    data = json.loads(run("explain", "1", "1", "1", "--rules", str(path), "--json")[1])
    assert data["rules"] == "short" and data["score"] == 300


# -- bad input: one line on stderr, exit 2, no traceback


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["explain", "7"], "7 is not a die face"),
        (["explain", "0", "1"], "0 is not a die face"),
        (["explain", "one"], "'one' is not a die"),
        (["explain", "1", "1", "1", "1", "1", "1", "1"], "7 dice given"),
        (["hint", "1", "5", "--points", "75"], "multiple of 50"),
        (["hint", "1", "5", "--points", "lots"], "whole number"),
        (["hint", "1", "5", "--points=-100"], "at least 0"),
        (["hint", "1", "5", "--need", "0"], "above 0"),
        (["hint", "1", "--opening", "333"], "multiple of 50"),
        (["strategy", "--rules", "vegas"], "unknown rules 'vegas'"),
        (["strategy", "--rules", "missing.toml"], "no such rule file"),
    ],
)
def test_bad_input_is_one_clear_line(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("Error: ")
    assert message in err
    assert "Traceback" not in err


def test_a_bad_rule_file_names_the_key(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[combinations]\nstraight = 1234\n")
    code, _, err = run("strategy", "--rules", str(path))
    assert code == 2
    assert "combinations.straight: must be a multiple of 50" in err


def test_help_and_module_entry_point() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "farkle_trainer", "--help"], capture_output=True, text=True, check=True
    )
    for command in ("explain", "hint", "strategy"):
        assert command in result.stdout


class FakeStream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(
    ("stdin_tty", "stdout_tty", "flag", "plain"),
    [
        (True, True, False, False),
        (True, True, True, True),
        (False, True, False, True),
        (True, False, False, True),
    ],
)
def test_plain_unless_both_ends_are_a_terminal(
    monkeypatch: pytest.MonkeyPatch, stdin_tty: bool, stdout_tty: bool, flag: bool, plain: bool
) -> None:
    from farkle_trainer.ui.terminal import wants_plain

    monkeypatch.setattr(sys, "stdin", FakeStream(stdin_tty))
    monkeypatch.setattr(sys, "stdout", FakeStream(stdout_tty))
    assert wants_plain(flag) is plain
