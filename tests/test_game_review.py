"""The end of a whole game and ``review``: what the analysis counts, the chance of winning turn
by turn and as a chart, and the game move by move."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from matches import person, play_out
from prompt_toolkit.input import PipeInput
from rich.console import Console
from typer.testing import CliRunner

import farkle_trainer.cli.review as review_cli
from farkle_trainer.cli import app
from farkle_trainer.engine.grading import Grade, Unit
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.engine.tables import Tables
from farkle_trainer.training.games import analysis as a
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games.dice import Seeded
from farkle_trainer.training.games.setup import Level, Player, new_setup
from farkle_trainer.ui.views import moves as moves_view
from farkle_trainer.ui.views import review as view
from tests.factories import interactive_frontend
from tests.plays import HARD_1000, drawn_seed, greedy_script  # noqa: F401 - drawn_seed is autouse

runner = CliRunner()
ANN = Player("Ann")


def run(args: list[str], lines: list[str] = ()) -> tuple[int, str]:  # type: ignore[assignment]
    result = runner.invoke(app, args, input="".join(line + "\n" for line in lines))
    return result.exit_code, result.output


def hard_game(tables: Tables) -> m.MatchState:
    setup = new_setup((Player("You"), Player("Hard", Level.HARD)), target=1000, dice=Seeded("3"))
    return greedy_script(tables, setup)[1]


def played(tables: Tables, players: tuple[Player, ...], seed: str, **kw: object) -> m.MatchState:
    kw.setdefault("target", 2_000)
    s = new_setup(players, dice=Seeded(seed), **kw)  # type: ignore[arg-type]
    return play_out(tables, m.new_match(s), s.source(), person(Stream(f"person-{seed}")))


# -- what the analysis counts


def test_every_decision_that_gave_up_anything_is_counted_a_fine_one_too(tables: Tables) -> None:
    final = hard_game(tables)
    an = a.analyse(tables, final)
    fine = [r for r in an.reviews if r.grade == Grade.FINE]
    assert fine and all(r.lost > 0 for r in fine)  # 1 3 3 3 and bank gives up 0.14 pp: fine
    lines = view.analysis_lines(final, an)
    assert lines[0] == (
        "Decisions that gave up win chance: 1 of 2 (none of them an inaccuracy or worse), worst first:"
    )
    assert lines[2] == "    played: keep 1 3 3 3 and bank, 53.20%: gives up 0.14 pp"
    (summary,) = an.summaries
    assert (summary.gave_up, summary.errors) == (1, 0)


def test_the_count_says_how_many_were_an_inaccuracy_or_worse(tables: Tables) -> None:
    for seed in ("g1", "g2", "g3", "g4", "g5"):
        state = played(tables, (ANN, Player("Hal", Level.HARD)), seed)
        an = a.analyse(tables, state)
        lost = [r for r in an.reviews if r.gave_up > 0]
        errors = sum(1 for r in lost if not r.right)
        if 1 < errors < len(lost):
            heading = view.analysis_lines(state, an)[0]
            assert heading == (
                f"Decisions that gave up win chance: {len(lost)} of {len(an.reviews)} "
                f"({errors} of them inaccuracies or worse), worst first:"
            )
            return
    pytest.fail("no game had both small losses and errors")


# -- the chance of winning through the game


def test_in_plain_text_the_chance_is_a_row_every_turn(tables: Tables) -> None:
    state = played(tables, (ANN, Player("Hal", Level.HARD)), "g3")
    an = a.analyse(tables, state)
    assert len(an.chances) == state.turn  # every turn's start, and the result
    rows = view.chance_rows(state, an)
    assert len(rows) == len(an.chances) > 5
    whose = {mv.turn: mv.seat for mv in reversed(state.log)}
    for row, (turn, chance) in zip(rows[:-1], an.chances, strict=False):
        name = state.setup.players[whose[turn]].name
        assert row.startswith(f"  turn {turn}, {name} to roll:") and row.endswith(f"{100 * chance:.2f}%")
    assert rows[-1].startswith("  end of the game:")


@pytest.mark.parametrize("width", [100, 60])
def test_on_a_terminal_the_chance_is_a_chart_with_axes_and_an_even_chance(tables: Tables, width: int) -> None:
    state = played(tables, (ANN, Player("Hal", Level.HARD)), "g3")
    an = a.analyse(tables, state)
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(view.game_over_rich(state, an))
    shown = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert max(len(line) for line in shown) <= width
    heading = next(i for i, line in enumerate(shown) if line.startswith("Ann's chance of winning through"))
    chart = shown[heading + 1 :]
    for tick in ("100%┤", " 75%┤", " 50%┤", " 25%┤", "  0%┤"):
        assert any(line.startswith(tick) for line in chart), tick
    even = next(line for line in chart if line.startswith(" 50%┤"))
    assert "┈┈┈" in even  # an even chance, drawn across
    labels = next(line for line in chart if line.strip().startswith("1 "))
    assert labels.split()[-1] == "end" and labels.split()[:2] == [
        "1",
        "2" if width == 100 else labels.split()[1],
    ]
    assert chart[-2:] == ["  ● Ann's chance of winning", "  ┈┈ an even chance, 50%"]
    assert "turn 1, Ann to roll" not in "\n".join(shown)


def test_too_narrow_for_a_chart_the_rows_are_shown(tables: Tables) -> None:
    state = hard_game(tables)
    an = a.analyse(tables, state)
    console = Console(file=io.StringIO(), width=30, color_system=None)
    console.print(view.game_over_rich(state, an))
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    assert "┤" not in shown and "turn 1, You to roll:" in shown
    assert max(len(line) for line in shown.splitlines()) <= 30


def test_review_json_keeps_every_turns_chance(tables: Tables, farkle_home: Path) -> None:
    run(
        HARD_1000,
        greedy_script(
            tables,
            new_setup((Player("You"), Player("Hard", Level.HARD)), target=1000, dice=Seeded("3")),
        )[0],
    )
    data = json.loads(runner.invoke(app, ["review", "1", "--json"]).stdout)
    by_turn = data["analysis"]["win_chances"]["by_turn"]
    assert [t["turn"] for t in by_turn] == [1, 2, 3, 4, 5]
    assert [t["chance"] for t in by_turn] == [c for _, c in a.analyse(tables, hard_game(tables)).chances]


# -- move by move


def test_review_moves_prints_every_move(tables: Tables, farkle_home: Path) -> None:
    final = hard_game(tables)
    run(HARD_1000, greedy_script(tables, final.setup)[0])
    code, out = run(["review", "1", "--moves", "--plain"])
    assert code == 0, out
    moves = out[out.index("Every move, with the luck") :].splitlines()
    heads = [line for line in moves if line.startswith("Move ")]
    assert len(heads) == len(final.log) == 6
    assert heads[0] == "Move 1 of 6, turn 1 (You 0, Hard 0): You roll 6 3 3 1 6 3."
    assert moves[moves.index(heads[0]) + 1 :][:6] == [
        "  Luck of the roll: -4.43 pp for you (your chance of winning: 57.77% before it, 53.34% with its "
        "best play).",
        "  You played: keep 1 3 3 3 and bank 400, 53.20%: gives up 0.14 pp (fine).",
        "  Your plays, best first (your chance of winning):",
        "    1. keep 1 and roll 5 dice: 53.34%, best.",
        "    2. keep 1 3 3 3 and bank 400: 53.20%, gives up 0.14 pp. Played (fine).",
        "    3. keep 3 3 3 and roll 3 dice: 51.30%, gives up 2.04 pp.",
    ]
    # A computer's moves are there too, its numbers said to be its own, and a Farkle is said as one.
    assert "Move 2 of 6, turn 2 (You 400, Hard 0): Hard rolls 3 6 6 3 5 6." in moves
    assert "  Hard played: keep 5 6 6 6 and bank 650, 49.57%: the best play." in moves
    assert "  Hard's plays, best first (Hard's chance of winning):" in moves
    assert moves[-3:] == [
        "Move 6 of 6, turn 4, a last turn (You 1,450, Hard 650): Hard rolls 3 2 4 3, 150 at stake.",
        "  Luck of the roll: -20.06 pp for Hard (Hard's chance of winning: 20.06% before it, 0.00% after "
        "the Farkle).",
        "  A Farkle: the 150 at stake are lost.",
    ]
    # Without --moves, plain text has the analysis alone.
    assert "Move 1 of" not in run(["review", "1", "--plain"])[1]


def test_every_move_of_a_game_is_graded_the_way_a_persons_is(tables: Tables) -> None:
    state = played(tables, (ANN, Player("Eve", Level.EASY)), "w1")
    walked = a.steps(tables, state)
    assert [s.move for s in walked] == list(state.log)
    people = [s.review for s in walked if s.review is not None and s.move.seat == 0]
    assert sorted(people, key=lambda r: -r.points_lost) == list(a.analyse(tables, state).reviews)
    assert all(s.review is None for s in walked if s.move.action == "farkle")
    # Easy keeps every scoring die and banks at thresholds: the walk shows what that gave up.
    assert any(s.review is not None and s.review.gave_up > 0 for s in walked if s.move.seat == 1)


@pytest.fixture
def screen(pipe: PipeInput, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[PipeInput, io.StringIO]]:
    front, out = interactive_frontend(pipe)
    monkeypatch.setattr(review_cli, "open_terminal", lambda plain: front)
    yield pipe, out


def review_on(screen: tuple[PipeInput, io.StringIO], keys: str) -> str:
    """What ``review 1`` shows on a terminal where ``keys`` are pressed."""
    inp, out = screen
    inp.send_text(keys)
    result = runner.invoke(app, ["review", "1"])
    assert result.exit_code == 0, result.output
    return out.getvalue()


def test_on_a_terminal_review_walks_the_game_move_by_move(
    tables: Tables, farkle_home: Path, screen: tuple[PipeInput, io.StringIO]
) -> None:
    run(HARD_1000, greedy_script(tables, hard_game(tables).setup)[0])
    # n takes the walk, then next, next, back (the left arrow), and q leaves.
    shown = review_on(screen, "nnn\x1b[Dq")
    assert "Your chance of winning through the game, at the start of each turn whoever rolls it:" in shown
    heads = [line for line in shown.splitlines() if line.startswith("Move ")]
    assert [h.split(",")[0] for h in heads] == ["Move 1 of 6", "Move 2 of 6", "Move 3 of 6", "Move 2 of 6"]


def test_on_a_terminal_the_walk_can_be_left_at_once(
    tables: Tables, farkle_home: Path, screen: tuple[PipeInput, io.StringIO]
) -> None:
    run(HARD_1000, greedy_script(tables, hard_game(tables).setup)[0])
    shown = review_on(screen, "\r")
    assert "Game over: You win." in shown and "Move 1 of" not in shown


def test_a_resigned_game_on_a_terminal_has_its_analysis_and_chart(
    farkle_home: Path, screen: tuple[PipeInput, io.StringIO]
) -> None:
    run(HARD_1000, ["1", "b", "resign", "y"])
    shown = review_on(screen, "q")
    assert "You resigned: Hard wins." in shown
    assert "Decisions that gave up win chance: 1 of 1" in shown and " 50%┤" in shown


def test_a_grade_is_never_told_for_a_farkle(tables: Tables) -> None:
    state = hard_game(tables)
    step = next(s for s in a.steps(tables, state) if s.move.action == "farkle")
    lines = moves_view.step_lines(state, step, 6, 6)
    assert len(lines) == 3 and not any(str(g) in " ".join(lines[1:]) for g in Grade)
    assert a.game_unit(state.setup) == Unit.WIN


def set_aside_before_any_decision() -> None:
    """Game 1 stopped at its first roll, then set aside by a new game."""
    run(["play", "--vs", "easy", "--seed", "4", "--plain"], ["q"])
    code, out = run(["play", "--vs", "easy", "--seed", "5", "--plain"], ["n", "q"])
    assert code == 0 and "The unfinished game 1 is set aside" in out, out


def test_a_game_set_aside_before_any_decision_is_reviewed_as_set_aside(farkle_home: Path) -> None:
    set_aside_before_any_decision()
    code, out = run(["review", "1", "--plain"])
    assert code == 0, out
    assert out.splitlines()[1:] == ["Game set aside at turn 1, unfinished. Scores: You 0, Easy 0."]
    data = json.loads(runner.invoke(app, ["review", "1", "--json"]).stdout)
    assert (data["over"], data["winners"], data["analysis"], data["moves"]) == (False, None, None, [])


def test_on_a_terminal_a_game_set_aside_before_any_decision_says_so(
    farkle_home: Path, screen: tuple[PipeInput, io.StringIO]
) -> None:
    set_aside_before_any_decision()
    assert "Game set aside at turn 1, unfinished. Scores: You 0, Easy 0." in review_on(screen, "")
