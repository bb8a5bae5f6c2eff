"""``review`` move by move: every play of each roll with its value, the luck of the roll, whose
each number is, the keys that walk the game, and the figures of ``review --json``."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from matches import person, play_out
from rich.console import Console
from typer.testing import CliRunner

from farkle_trainer import load_rules
from farkle_trainer.cli import app
from farkle_trainer.engine.dice import counts_of
from farkle_trainer.engine.farkles import Runs
from farkle_trainer.engine.game import GameTable, solve_game
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.training.games import analysis as a
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games.setup import Level, Player, new_setup
from farkle_trainer.ui.views import moves as view
from tests.plays import HARD_1000, drawn_seed, greedy_script  # noqa: F401 - drawn_seed is autouse

runner = CliRunner()
ANN, BOB = Player("Ann"), Player("Bob")
EXAMPLE = Path(__file__).parent.parent / "examples" / "hard-1000.json"
#: ``  2. keep 1 3 3 3 and bank 400: 53.20%, gives up 0.14 pp. Played (fine).``
PLAY_LINE = re.compile(
    r"^ +(\d+)\. keep ([1-6 ]+) and (bank [0-9,]+|roll (?:all 6 dice|\d dic?e?))"
    r": ([0-9.,]+%?), (best|equal best|gives up [0-9.]+ pp)\.( Played(?: \((\w+)\))?\.)?$"
)


def played(players: tuple[Player, ...], seed: str, **kw: object) -> m.MatchState:
    kw.setdefault("target", 2_000)
    s = new_setup(players, seed=seed, **kw)  # type: ignore[arg-type]
    return play_out(m.new_match(s), s.source(), person(Stream(f"person-{seed}")))


def table_plays(table: GameTable, x: m.Move, runs: Runs) -> dict[tuple[tuple[int, ...], str], float]:
    """Every play of a two-player move and the mover's chance of winning after it, read from the
    game table itself (in a last turn, the chance of passing the leader)."""
    opened = x.score > 0 or bool(runs.my_opened)
    found = {}
    for s in score_table(table.rules).selections(counts_of(x.roll)):
        t, n = x.points + s.points, (len(x.roll) - len(s.dice)) or 6
        if x.last_turn:
            bank = table.final_bank_value(x.leader - x.score, t, opened=opened)
            found[(s.dice, "roll")] = table.final_roll_value(x.leader - x.score, t, n, opened=opened)
        else:
            bank = table.bank_value(x.score, x.leader, t, runs)
            found[(s.dice, "roll")] = table.roll_value(x.score, x.leader, t, n, runs)
        if bank is not None:
            found[(s.dice, "bank")] = bank
    return found


@pytest.mark.parametrize("seed", ["t0", "g1", "g3"])
def test_every_play_of_every_roll_is_listed_best_first_with_its_value(seed: str) -> None:
    state = played((ANN, Player("Hal", Level.HARD)), seed)
    table = solve_game(state.setup.rules, 2_000, 0)
    steps = a.analyse(state).steps
    ties = 0
    for step, runs in zip(steps, m.move_runs(state), strict=True):
        x = step.move
        lines = view.step_lines(state, step, 1, len(steps))
        if x.action == "farkle":
            assert lines[2].startswith("  A Farkle:") and len(lines) == 3
            continue
        plays = table_plays(table, x, runs)
        best = max(plays.values())
        shown = [PLAY_LINE.match(line) for line in lines[4:]]
        assert all(shown), lines
        # Each play once, as many as the roll allows, best first, each with its value and loss.
        found = []
        for i, match in enumerate(shown, 1):
            assert match is not None and int(match[1]) == i
            keep = tuple(int(d) for d in match[2].split())
            action = match[3].split()[0]
            value = plays[(keep, action)]
            found.append((keep, action))
            assert match[4] == f"{100 * value:.2f}%"
            lost = 100 * (best - value)
            if i == 1:
                assert match[5] == "best" and value == pytest.approx(best, abs=1e-12)
            elif lost < 0.005:
                assert match[5] == "equal best"
                ties += 1
            else:
                assert match[5] == f"gives up {lost:.2f} pp"
            if action == "bank":
                points = x.points + sum(
                    g.points for g in score_table(state.rules).split(counts_of(keep)).groups
                )
                assert match[3] == f"bank {points:,}"
        assert sorted(found) == sorted(plays) and len(found) == len(set(found))
        values = [plays[p] for p in found]
        assert values == sorted(values, reverse=True)
        # The play made, and only it, is marked.
        marked = [found[i] for i, match in enumerate(shown) if match and match[6]]
        assert marked == [(x.keep, x.action)]
    if seed == "t0":
        assert ties  # banking the win for sure: any set-aside that banks is as good as the best


def test_every_number_of_a_move_says_whose_it_is() -> None:
    # Three players: the game is valued in points, a last turn by the chance of passing the leader.
    state = played((ANN, BOB, Player("Eve", Level.EASY)), "p3")
    steps = a.analyse(state).steps
    units = set()
    for step in steps:
        name = state.setup.players[step.move.seat].name
        lines = view.step_lines(state, step, 1, len(steps))
        whose = f"{name}'s"
        assert f"for {name} (" in lines[1]
        if step.plays.unit.value == "chance":
            assert f"({whose} chance of passing the leader: " in lines[1]
        else:
            assert f"(the points {whose} turn is expected to bank: " in lines[1]
        if step.review is not None:
            assert lines[2].startswith(f"  {name} played: ")
            assert lines[3].startswith(f"  {whose} plays, best first (")
        units.add(step.plays.unit.value)
    assert units == {"points", "chance"}


def test_review_json_has_every_play_and_the_luck_of_each_move(farkle_home: Path) -> None:
    result = runner.invoke(app, ["review", str(EXAMPLE), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["setup"]["rules"]["target"] == 1_000
    setup_table = solve_game(load_rules("classic"), 1_000, 0)
    assert [mv["player"] for mv in data["moves"]] == ["You", "Hard", "You", "Hard", "Hard", "Hard"]
    for mv in data["moves"]:
        # The keys every saved move has are still there.
        assert {"seat", "turn", "roll", "points", "keep", "action", "scores"} <= set(mv)
        x = m.Move.from_dict(mv)
        assert mv["unit"] == "win"
        if x.action == "farkle":
            assert mv["candidates"] == []
            assert mv["luck"] == pytest.approx(
                -100 * mv["value_before"], abs=1e-9
            )  # a last turn's Farkle loses
            continue
        plays = table_plays(setup_table, x, Runs())
        best = max(plays.values())
        assert {(tuple(c["keep"]), c["action"]) for c in mv["candidates"]} == set(plays)
        for c in mv["candidates"]:
            value = plays[(tuple(c["keep"]), c["action"])]
            assert c["value"] == pytest.approx(value, abs=1e-12)
            assert c["loss"] == pytest.approx(100 * (best - value), abs=1e-9)
            assert c["made"] == ((tuple(c["keep"]), c["action"]) == (x.keep, x.action))
        assert mv["luck"] == pytest.approx(100 * (best - mv["value_before"]), abs=1e-9)
    first = data["moves"][0]
    assert first["luck"] == pytest.approx(100 * (0.5334074301906118 - setup_table.win_chance(0, 0)), abs=1e-9)


# -- on a terminal


@pytest.mark.parametrize("width", [20, 60, 100])
def test_a_move_fits_the_terminal_every_play_whole(width: int) -> None:
    state = played((ANN, Player("Hal", Level.HARD)), "g3")
    steps = a.analyse(state).steps
    step = max(steps, key=lambda s: len(s.plays.candidates))
    assert len(step.plays.candidates) >= 10
    out = io.StringIO()
    Console(file=out, width=width, color_system=None).print(view.step_rich(state, step, 1, len(steps)))
    shown = out.getvalue()
    assert max(len(line) for line in shown.splitlines()) <= width
    # Every play is there, and the play made is marked, in the table or in the lines.
    text = " ".join(shown.split())
    for c in step.plays.candidates:
        assert f"{100 * c.value.amount:.2f}%" in text
    assert ("played" if width >= 60 else "Played") in text
