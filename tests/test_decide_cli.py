"""``farkle-train decide`` as a user meets it: both front ends, progress records, Ctrl-C and EOF."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from factories import interactive_frontend
from prompt_toolkit.input import PipeInput
from rich.console import Console
from typer.testing import CliRunner

from farkle_trainer import load_rules
from farkle_trainer.cli import app
from farkle_trainer.engine.decisions import Grading, Position, decision_for, grade
from farkle_trainer.engine.kinds import TURN_KINDS
from farkle_trainer.engine.scoring import score
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.db import Store
from farkle_trainer.training.drills import session as drill_session
from farkle_trainer.training.drills.drills import Plan, summarize
from farkle_trainer.training.drills.session import ask_drill, drill_stream, show_grading
from farkle_trainer.training.progress import export_answers, load_progress, load_stats
from farkle_trainer.ui.terminal import InteractiveFrontend, PlainFrontend
from farkle_trainer.ui.views import drills as view

runner = CliRunner()
CLASSIC = load_rules("classic")
MULTIPLIER = load_rules("multiplier")


def planned(
    tables: Tables, seed: int, count: int, kinds: tuple[str, ...] = TURN_KINDS, level: str | None = None
) -> list[Position]:
    """The drills a seeded session asks (a seeded session does not adapt, so this is all of it)."""
    plan = Plan(tables, CLASSIC, drill_stream(seed), count, kinds, level)  # type: ignore[arg-type]
    return list(plan)


def answer_lines(tables: Tables, p: Position, keep: tuple[int, ...], action: str) -> list[str]:
    """What a player types for a play: the dice when asked, then b or r when asked."""
    d = decision_for(tables, p)
    lines = []
    if p.kept is None and len(d.keeps) > 1:
        lines.append(" ".join(map(str, keep)))
    if any(c.action == "bank" for c in d.choices_for(keep)):
        lines.append(action[0])
    return lines


def best_answers(tables: Tables, drills: list[Position]) -> str:
    lines = [
        line
        for p in drills
        for line in answer_lines(
            tables, p, decision_for(tables, p).best.keep, decision_for(tables, p).best.action
        )
    ]
    return "".join(f"{line}\n" for line in lines)


def run(args: list[str], answers: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["decide", *args], input=answers)
    return result.exit_code, result.stdout, result.stderr


def answers_in(home: Path) -> list[dict[str, object]]:
    out = home / "answers.json"
    with Store.open(home) as store:
        export_answers(store, out)
    return json.loads(out.read_text())


# -- plain: a pipe or --plain


def test_a_plain_session_played_perfectly(tables: Tables, farkle_home: Path) -> None:
    drills = planned(tables, 7, 4)
    code, out, err = run(["--seed", "7", "--count", "4", "--plain"], best_answers(tables, drills))
    assert code == 0, err
    assert out.count("Best: that is the best play.") == 4
    assert "Decision 1 of 4" in out and "Decision 4 of 4" in out
    assert "Session: 4 decisions: 4 best, 0 fine, 0 inaccuracies, 0 mistakes, 0 blunders." in out
    assert "Rating: solver, from 0.00 points lost per decision" in out
    assert "Worst decision" not in out
    rows = answers_in(farkle_home)
    assert [r["item"] for r in rows] == [p.item for p in drills]
    assert {r["kind"] for r in rows} == {"decide"}
    assert all(r["correct"] and r["grade"] == "best" for r in rows)
    assert [r["topic"] for r in rows] == [p.kind for p in drills]


def test_the_grading_shows_both_values_the_loss_and_the_top_plays(tables: Tables) -> None:
    drills = planned(tables, 7, 1)
    (p,) = drills
    d = decision_for(tables, p)
    worst = d.choices[-1]
    code, out, _ = run(
        ["--seed", "7", "--count", "1", "--plain"],
        "\n".join(answer_lines(tables, p, worst.keep, worst.action)) + "\n",
    )
    assert code == 0
    g = grade(d, worst.keep, worst.action)
    assert view.grading_text(g) in out
    assert f"Your play: {view.play_words(p, worst)}" in out
    assert f"Best play: {view.play_words(p, d.best)}" in out
    assert f"{g.grade.capitalize()}: " in out
    assert "Top plays (" in out and "<- your play" in out


def test_a_pick_that_does_not_score_is_refused_and_asked_again(tables: Tables, farkle_home: Path) -> None:
    drills = planned(tables, 7, 6)
    number, p = next(
        (i, p) for i, p in enumerate(drills) if p.kept is None and len(decision_for(tables, p).keeps) > 1
    )
    dead = next(face for face in p.roll if score([face], CLASSIC) is None)
    before = best_answers(tables, drills[:number])
    best = decision_for(tables, p).best
    typed = before + f"{dead}\nx\n" + "\n".join(answer_lines(tables, p, best.keep, best.action)) + "\n"
    code, out, _ = run(["--seed", "7", "--count", str(number + 1), "--plain"], typed)
    assert code == 0
    assert f"(cannot set aside {dead}: a single {dead} scores nothing: {dead}s score only" in out
    assert "('x' is not a place in this roll" in out
    assert out.count("Best: that is the best play.") == number + 1
    assert len(answers_in(farkle_home)) == number + 1  # refused picks are not answers


def test_bank_or_roll_in_words_or_letters(tables: Tables) -> None:
    drills = planned(tables, 3, 4, ("bank-or-roll",))
    words = []
    for p in drills:
        best = decision_for(tables, p).best
        words.append("bank" if best.action == "bank" else "roll")
    code, out, _ = run(
        ["--seed", "3", "--count", "4", "--kind", "bank-or-roll", "--plain"], "\n".join(words) + "\n"
    )
    assert code == 0
    assert out.count("Best: that is the best play.") == 4
    assert all(line.startswith("Decision") is False or "bank or roll" in line for line in out.splitlines())


def test_eof_ends_the_session_keeping_what_was_answered(tables: Tables, farkle_home: Path) -> None:
    drills = planned(tables, 7, 5)
    code, out, _ = run(["--seed", "7", "--count", "5", "--plain"], best_answers(tables, drills[:2]))
    assert code == 0
    assert "Stopped after 2 of 5 decisions; every answer given is saved." in out
    assert "Session: 2 decisions" in out
    assert len(answers_in(farkle_home)) == 2
    with Store.open(farkle_home) as store:
        assert load_progress(store).sessions == 1


def test_eof_before_any_answer() -> None:
    code, out, _ = run(["--seed", "7", "--count", "3", "--plain"], "")
    assert code == 0
    assert "No decisions made, so nothing was recorded." in out


def test_ctrl_c_shows_the_summary_and_exits_130(
    tables: Tables, farkle_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drills = planned(tables, 7, 5)
    typed = best_answers(tables, drills[:2]).splitlines()
    read = PlainFrontend._read
    calls = {"n": 0}

    def read_then_interrupt(self: PlainFrontend, prompt: str) -> str:
        calls["n"] += 1
        if calls["n"] > len(typed):
            raise KeyboardInterrupt
        return read(self, prompt)

    monkeypatch.setattr(PlainFrontend, "_read", read_then_interrupt)
    code, out, _ = run(["--seed", "7", "--count", "5", "--plain"], "\n".join(typed) + "\n")
    assert code == 130
    assert "Stopped after 2 of 5 decisions" in out
    assert len(answers_in(farkle_home)) == 2


def test_decisions_are_progress_never_stats(tables: Tables, farkle_home: Path) -> None:
    drills = planned(tables, 11, 8)
    run(["--seed", "11", "--count", "8", "--plain"], best_answers(tables, drills))
    rows = answers_in(farkle_home)
    assert len(rows) == 8
    with Store.open(farkle_home) as store:
        assert load_stats(store).games_played == 0
        assert load_progress(store).answers == 8
        assert store.daily_attempt(store.now().date(), official=True) is None
    for row, p in zip(rows, drills, strict=True):
        extra = row["extra"]
        assert isinstance(extra, dict) and extra["position"]["roll"] == list(p.roll)
        assert row["points_lost"] == 0.0
        assert row["unit"] == ("percentage points" if p.kind == "final-round" else "points")


def test_a_mistake_is_recorded_with_its_points_lost(tables: Tables, farkle_home: Path) -> None:
    (p,) = planned(tables, 7, 1, ("keep",))
    d = decision_for(tables, p)
    worst = d.choices[-1]
    run(
        ["--seed", "7", "--count", "1", "--kind", "keep", "--plain"],
        "\n".join(answer_lines(tables, p, worst.keep, worst.action)) + "\n",
    )
    (row,) = answers_in(farkle_home)
    g = grade(d, worst.keep, worst.action)
    assert row["points_lost"] == pytest.approx(g.lost) and row["grade"] == g.grade and not row["correct"]
    assert row["answer"] == view.play_words(p, worst) and row["correct_answer"] == view.play_words(p, d.best)


def test_strategy_mode_shows_the_threshold(tables: Tables) -> None:
    drills = planned(tables, 7, 3, ("bank-or-roll",))
    code, out, _ = run(
        ["--seed", "7", "--count", "3", "--kind", "bank-or-roll", "--strategy", "--plain"],
        best_answers(tables, drills),
    )
    assert code == 0
    assert out.count("Strategy: with ") == 3


def test_kind_and_level_choose_the_drills(tables: Tables) -> None:
    drills = planned(tables, 5, 3, ("opening", "final-round"), "easy")
    assert {p.kind for p in drills} <= {"opening", "final-round"}
    code, out, _ = run(
        ["--seed", "5", "--count", "3", "--kind", "opening,final-round", "--level", "easy", "--plain"],
        best_answers(tables, drills),
    )
    assert code == 0 and out.count("Best: that is the best play.") == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--kind", "banking"],
            "--kind takes bank-or-roll, keep, final-round, opening, game, solo, not 'banking'",
        ),
        (["--level", "expert"], "--level takes easy, medium or hard"),
        (["--rules", "nope"], "unknown rules 'nope'"),
    ],
)
def test_bad_options_are_one_line_errors(args: list[str], message: str) -> None:
    code, out, err = run([*args, "--plain"], "")
    assert code == 2 and out == ""
    assert err.startswith("Error: ") and message in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--count", "0"], "Error: Invalid value for '--count' / '-n': must be from 1 to 100, not 0."),
        (["--count", "101"], "Error: Invalid value for '--count' / '-n': must be from 1 to 100, not 101."),
        (
            ["--seed", "-1"],
            "Error: Invalid value for '--seed': must be from 0 to 9,223,372,036,854,775,807, not -1.",
        ),
    ],
)
def test_a_count_or_seed_out_of_range_is_refused_as_score_and_worksheet_refuse_it(
    args: list[str], said: str
) -> None:
    # One declaration of each option: the same bounds, in the same words, in every command.
    code, out, err = run([*args, "--plain"], "")
    assert code == 2 and out == "" and err.splitlines()[0] == said
    assert err.splitlines()[1].startswith("Usage: farkle-train decide ")
    for other in (["score"], ["worksheet", "--code", "MATH7B"]):
        if other[0] == "worksheet" and args[0] == "--seed":
            continue  # a worksheet's questions come from its code: it takes no seed
        refused = CliRunner().invoke(app, [*other, *args])
        assert refused.exit_code == 2 and refused.stderr.splitlines()[0] == said


# -- adapting across sessions


def test_a_missed_position_comes_back_next_session(tables: Tables, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[Position] = []

    def play(solved: Tables, front: object, view: object, p: Position, number: int, count: int) -> Grading:
        asked.append(p)
        d = decision_for(solved, p)
        choice = d.choices[-1] if miss else d.best
        return grade(d, choice.keep, choice.action)

    monkeypatch.setattr(drill_session, "ask_drill", play)
    miss = True
    run(["--seed", "7", "--count", "1", "--kind", "keep", "--plain"], "")
    missed = asked.pop()
    miss = False
    monkeypatch.setattr(drill_session, "new_seed", lambda: 99)
    run(["--count", "4", "--kind", "keep", "--plain"], "")
    assert asked[1] == missed  # due again, between new drills
    asked.clear()
    run(["--count", "4", "--kind", "keep", "--plain"], "")
    assert missed not in asked  # answered well last time: not due today


# -- interactive: questionary prompts and rich output


def play_drill(
    tables: Tables,
    front: InteractiveFrontend,
    p: Position,
    number: int,
    count: int,
    *,
    strategy: bool = False,
) -> Grading:
    """One drill asked, graded and its grading shown, as a session does."""
    g = ask_drill(tables, front, view, p, number, count)
    show_grading(tables, front, view, g, strategy=strategy)
    return g


def interactive(pipe: PipeInput) -> tuple[InteractiveFrontend, io.StringIO]:
    return interactive_frontend(pipe)


def test_interactive_keep_drill(tables: Tables, pipe: PipeInput) -> None:
    front, out = interactive(pipe)
    p = Position(MULTIPLIER, "keep", 0, (1, 5, 2, 2, 3, 6))
    # Places a (the 1) and c (a 2): refused, a 2 scores nothing; then a and b (the 5).
    pipe.send_text("a c\r")
    pipe.send_text("a b\r")
    pipe.send_text("r\r")  # the letter points at roll 4 dice, Enter takes it
    g = play_drill(tables, front, p, 1, 3, strategy=True)
    assert (g.chosen.keep, g.chosen.action) == ((1, 5), "roll")
    assert "(cannot set aside 1 2: " in out.getvalue()
    assert g.grade == "blunder"
    text = out.getvalue()
    assert "Decision 1 of 3: keep (multiplier rules)" in text
    assert "Your play: keep 1 5 and roll 4 dice, expected turn score 309.65." in text
    assert "Best play: keep 1 and roll 5 dice, expected turn score 402.03." in text
    assert "Blunder: 92.38 points lost." in text
    assert "keep 1, roll 5 dice" in text and "your play" in text
    assert (
        "Strategy for the best play, keep 1: with 5 dice to roll, roll while the turn is at most 3,050"
        in text
    )
    assert "Strategy for your play, keep 1 5: with 4 dice to roll" in text


def test_interactive_bank_or_roll_and_ctrl_c(tables: Tables, pipe: PipeInput) -> None:
    front, out = interactive(pipe)
    p = Position(CLASSIC, "bank-or-roll", 200, (5, 3, 4), kept=(5,))
    pipe.send_text("\r")  # the first choice: bank 250
    g = play_drill(tables, front, p, 1, 2)
    assert g.chosen.action == "bank" and g.grade == "best"
    assert "Best: that is the best play." in out.getvalue()
    pipe.send_text("\x03")  # Ctrl-C
    with pytest.raises(KeyboardInterrupt):
        play_drill(tables, front, p, 2, 2)


def test_rich_views_render(tables: Tables) -> None:
    p = Position(CLASSIC, "final-round", 500, (5, 2, 3, 4), leader=10_000, banked=9_000)
    d = decision_for(tables, p)
    g = grade(d, (5,), "bank")
    console = Console(width=100, record=True, file=io.StringIO(), color_system=None)
    console.print(view.situation_rich(p, 2, 5))
    console.print(view.grading_rich(g))
    console.print(view.summary_rich(summarize(tables, [g]), planned=5, stopped=True))
    text = console.export_text()
    assert "the leader has 10,000 and you have 9,000 banked, so you need 1,050" in text
    assert "Blunder: 21.60 percentage points lost." in text
    assert "keep 5, roll 3 dice" in text and "21.60%" in text
    assert "Stopped after 1 of 5 decisions" in text
    assert "Worst decision: number 1 (final round)." in text


def test_a_keep_mistake_says_why_the_best_play_is_better(tables: Tables) -> None:
    from fractions import Fraction

    from farkle_trainer.engine.decisions import strategy_notes
    from farkle_trainer.engine.solver import Objective

    p = Position(CLASSIC, "keep", 0, (1, 5, 2, 2, 3, 6))
    g = grade(decision_for(tables, p), (1, 5), "roll")
    solution = tables.turn(CLASSIC, Objective.expected())
    # Independent: rolling n dice Farkles with these exact chances; the values are the solver's.
    farkle = {5: Fraction(25, 324), 4: Fraction(17, 108)}
    best_roll, mine_roll = solution.roll_value(100, 5), solution.roll_value(150, 4)
    lines = [
        f"The best play, keep 1 for 100: 5 dice left, a {100 * float(farkle[5]):.2f}% chance that the "
        f"next roll Farkles; rolling on is worth {best_roll:,.2f}, banking 100 is worth 100.00 "
        "(expected turn score).",
        f"Your play, keep 1 5 for 150: 4 dice left, a {100 * float(farkle[4]):.2f}% chance that the "
        f"next roll Farkles; rolling on is worth {mine_roll:,.2f}, banking 150 is worth 150.00 "
        "(expected turn score).",
    ]
    notes = strategy_notes(tables, g)
    text = view.grading_text(g, notes)
    assert all(line in text.splitlines() for line in lines)
    assert "Strategy for the best play, keep 1: with 5 dice to roll" in text
    assert "Strategy for your play, keep 1 5: with 4 dice to roll" in text
    console = Console(width=200, record=True, file=io.StringIO(), color_system=None)
    console.print(view.grading_rich(g, notes))
    rich = console.export_text()
    assert all(line in rich for line in lines)
    # Only the action was wrong: the values already say why.
    g = grade(decision_for(tables, p), (1,), "bank")
    assert "The best play, keep" not in view.grading_text(g)


def test_final_round_strategy_is_said_once(farkle_home: Path) -> None:
    code, out, _ = run(
        ["--count", "2", "--seed", "5", "--kind", "final-round", "--strategy", "--plain"],
        "1\nr\n4 4 4 5\nb\n",
    )
    assert code == 0
    assert (
        out.count("Strategy: in the final round only passing counts: roll until the turn reaches 1,050") == 1
    )
    assert "Strategy: in the final round only passing counts: roll until the turn reaches 850" in out


def test_gives_up_is_positive_with_its_unit_in_both_front_ends(tables: Tables) -> None:
    p = Position(CLASSIC, "final-round", 0, (4, 6, 6, 4, 4, 5), leader=10_050, banked=9_050)
    d = decision_for(tables, p)
    g = grade(d, (4, 4, 4, 5), "bank")
    second = d.choices[1]
    up = 100 * (d.best.value.amount - second.value.amount)
    text = view.grading_text(g)
    assert f"gives up {up:5.2f} pp" in text and "-3.27" not in text
    console = Console(width=200, record=True, file=io.StringIO(), color_system=None)
    console.print(view.grading_rich(g))
    assert f"{up:.2f} pp" in console.export_text()
    rows = [line for line in text.splitlines() if "gives up" in line]
    assert len({line.index("gives up") for line in rows}) == 1
    assert len({line.index(" pp") for line in rows}) == 1


@pytest.mark.parametrize(
    ("lost", "unit", "shown", "graded"),
    [
        (0.4977, "chance", "0.498", "fine"),
        (0.5, "chance", "0.50", "inaccuracy"),
        (4.996, "points", "4.996", "fine"),
        (19.99951, "points", "19.9995", "inaccuracy"),
        (20.0, "points", "20.00", "mistake"),
        (12.345, "points", "12.35", "inaccuracy"),
    ],
)
def test_a_loss_never_reads_as_another_grade(lost: float, unit: str, shown: str, graded: str) -> None:
    from farkle_trainer.engine.grading import Unit, grade_for, loss_figure

    assert loss_figure(lost, Unit(unit)) == shown
    assert grade_for(lost, Unit(unit)) == graded
    bounds = (0.005, 0.5, 2.0, 6.0) if unit == "chance" else (0.005, 5.0, 20.0, 60.0)
    # Read back, the number is on the same side of every grade bound as the loss itself.
    assert all((float(shown) < b) == (lost < b) for b in bounds)


def test_a_rating_never_reads_as_another_rating() -> None:
    from farkle_trainer.engine.grading import rating_figure, rating_for

    assert rating_for(0.9953) == "solver" and rating_figure(0.9953) == "0.995"
    assert rating_for(2.999) == "expert" and rating_figure(2.999) == "2.999"
    assert rating_figure(2.5) == "2.50"


@pytest.mark.parametrize(("target", "seeds"), [(1000, (11, 13, 15)), (50, (3,))])
def test_final_rounds_under_a_small_target(
    tables: Tables, tmp_path: Path, target: int, seeds: tuple[int, ...]
) -> None:
    rules_file = tmp_path / "small.toml"
    rules_file.write_text(f"[house]\ntarget = {target}\n")
    rules = load_rules(rules_file)
    for seed in (*seeds, *range(20)):
        for p in Plan(tables, rules, drill_stream(seed), 5, ("final-round",)):  # type: ignore[arg-type]
            assert p.leader is not None and p.banked is not None
            assert 0 <= p.banked < p.leader
    for seed in seeds:
        code, out, err = run(
            [
                "--kind",
                "final-round",
                "--seed",
                str(seed),
                "--count",
                "3",
                "--rules",
                str(rules_file),
                "--plain",
            ],
            "",
        )
        assert code == 0, err
        assert "Traceback" not in out + err and "Error" not in err
        assert "Decision 1 of 3: final round (small rules)" in out


def test_the_worst_decision_reads_without_stacked_brackets(tables: Tables) -> None:
    p = Position(CLASSIC, "bank-or-roll", 2000 - 1000, (1, 1, 1), kept=(1, 1, 1))
    d = decision_for(tables, p)
    bank = d.choice((1, 1, 1), "bank")
    g = grade(d, bank.keep, bank.action)
    lines = view.summary_text(summarize(tables, [g]), planned=1)
    assert ") (" not in lines
    assert f"Best: roll all 6 again (hot dice), worth {d.best.value.amount:,.2f}." in lines


def test_data_dir_keeps_the_solver_cache_too(
    tables: Tables, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = best_answers(tables, planned(tables, 1, 1))
    # The command's tables are its own: it solves and writes them in the data directory.
    user_cache = tmp_path / "user-cache"
    monkeypatch.setenv("FARKLE_TRAIN_CACHE", str(user_cache))
    data = tmp_path / "student"
    code, _, err = run(["--data-dir", str(data), "--seed", "1", "--count", "1", "--plain"], answers)
    assert code == 0, err
    cached = sorted((data / "cache").glob("solution-*.npy"))
    assert cached
    assert not user_cache.exists()
    assert (data / "cache").stat().st_mode & 0o777 == 0o700
    assert all(path.stat().st_mode & 0o777 == 0o600 for path in cached)
    assert not list((data / "cache").glob(".*"))  # no temporary file left behind


# -- every answer committed before it is shown


@pytest.mark.parametrize("mistakes", [False, True])
def test_an_answer_is_kept_when_the_reader_goes_before_its_grading(farkle_home: Path, mistakes: bool) -> None:
    """``decide ... | head``: head has its lines and leaves as the answer is given; writing the
    grading then fails, and the answer is in the store all the same (``--mistakes`` too)."""
    import subprocess
    import sys

    from tests.test_daily_cli import read_until

    command = [sys.executable, "-m", "farkle_trainer", "decide", "--plain"]
    if mistakes:
        # Keeping 1 and banking 100 from 3 1 2 2 1 4 is a blunder: the position comes back at once.
        assert run(["--kind", "keep", "--seed", "5", "--count", "1", "--plain"], "1\nb\n")[0] == 0
        command.append("--mistakes")
    else:
        command += ["--kind", "bank-or-roll", "--seed", "3", "--count", "1"]
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    if mistakes:
        proc.stdin.write(b"1\n")
        proc.stdin.flush()
        read_until(proc, "Bank 100 or roll 5 dice? (b/r) ")
    else:
        read_until(proc, "Bank 250 or roll 2 dice? (b/r) ")
    proc.stdout.close()  # the reader has gone, as head does once it has its lines
    proc.stdin.write(b"r\n")
    proc.stdin.close()
    assert proc.wait(timeout=60) == 1  # nobody is left to read the grading
    answer = answers_in(farkle_home)[-1]
    if mistakes:
        assert (answer["kind"], answer["answer"], answer["grade"]) == (
            "mistakes",
            "keep 1 and roll 5 dice",
            "best",
        )
    else:
        assert (answer["topic"], answer["answer"], answer["grade"]) == ("bank-or-roll", "roll 2 dice", "fine")
