"""``review`` move by move: every play of each roll with its value, the luck of the roll, whose
each number is, the keys that walk the game, and the figures of ``review --json``."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from matches import person, play_out
from prompt_toolkit.input import PipeInput
from rich.console import Console
from typer.testing import CliRunner

import farkle_trainer.cli.review as review_cli
from farkle_trainer import load_rules
from farkle_trainer.cli import app
from farkle_trainer.engine.dice import counts_of
from farkle_trainer.engine.farkles import Runs
from farkle_trainer.engine.game import GameTable
from farkle_trainer.engine.grading import Grade
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.engine.tables import Tables
from farkle_trainer.training.games import analysis as a
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games.dice import Seeded
from farkle_trainer.training.games.setup import Level, Player, new_setup
from farkle_trainer.ui.views import moves as view
from tests.factories import interactive_frontend
from tests.plays import HARD_1000, drawn_seed, greedy_script  # noqa: F401 - drawn_seed is autouse

runner = CliRunner()
ANN, BOB = Player("Ann"), Player("Bob")
EXAMPLE = Path(__file__).parent.parent / "examples" / "hard-1000.json"
#: ``  2. keep 1 3 3 3 and bank 400: 53.20%, gives up 0.14 pp. Played (fine).``
PLAY_LINE = re.compile(
    r"^ +(\d+)\. keep ([1-6 ]+) and (bank [0-9,]+|roll (?:all 6 dice|\d dic?e?))"
    r": ([0-9.,]+%?), (best|equal best|gives up [0-9.]+ pp)\.( Played(?: \((\w+)\))?\.)?$"
)


def played(tables: Tables, players: tuple[Player, ...], seed: str, **kw: object) -> m.MatchState:
    kw.setdefault("target", 2_000)
    s = new_setup(players, dice=Seeded(seed), **kw)  # type: ignore[arg-type]
    return play_out(tables, m.new_match(s), s.source(), person(Stream(f"person-{seed}")))


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
def test_every_play_of_every_roll_is_listed_best_first_with_its_value(tables: Tables, seed: str) -> None:
    state = played(tables, (ANN, Player("Hal", Level.HARD)), seed)
    table = tables.game(state.setup.rules, 2_000, 0)
    steps = a.analyse(tables, state).steps
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


def test_every_number_of_a_move_says_whose_it_is(tables: Tables) -> None:
    # Three players: the game is valued in points, a last turn by the chance of passing the leader.
    state = played(tables, (ANN, BOB, Player("Eve", Level.EASY)), "p3")
    steps = a.analyse(tables, state).steps
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


def test_review_json_has_every_play_and_the_luck_of_each_move(tables: Tables, farkle_home: Path) -> None:
    result = runner.invoke(app, ["review", str(EXAMPLE), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["setup"]["rules"]["target"] == 1_000
    setup_table = tables.game(load_rules("classic"), 1_000, 0)
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
def test_a_move_fits_the_terminal_every_play_whole(tables: Tables, width: int) -> None:
    state = played(tables, (ANN, Player("Hal", Level.HARD)), "g3")
    steps = a.analyse(tables, state).steps
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


@pytest.fixture
def screen(pipe: PipeInput, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[PipeInput, io.StringIO]]:
    front, out = interactive_frontend(pipe)
    monkeypatch.setattr(review_cli, "open_terminal", lambda plain: front)
    yield pipe, out


def mistaken_game(tables: Tables) -> list[int]:
    """Game 1: against Hard to 1,000 on seed 12, banking only at 1,000, which is a mistake twice
    (moves 1 and 7 of 9); returns the moves that are mistakes, from 1."""
    you_and_hard = (Player("You"), Player("Hard", Level.HARD))
    setup = new_setup(you_and_hard, target=1000, dice=Seeded("12", chosen=True))
    lines, state = greedy_script(tables, setup, bank_at=1000)
    code, out = run([*HARD_1000, "--seed", "12"], lines)
    assert code == 0 and "Game over" in out, out
    steps = a.steps(tables, state)
    return [i + 1 for i in view.mistakes(state, steps)]


def run(args: list[str], lines: list[str]) -> tuple[int, str]:
    result = runner.invoke(app, args, input="".join(line + "\n" for line in lines))
    return result.exit_code, result.output


def walked(screen: tuple[PipeInput, io.StringIO], keys: str) -> list[int]:
    """The moves ``review 1`` shows on a terminal where ``keys`` are pressed, in order."""
    inp, out = screen
    inp.send_text(keys)
    result = runner.invoke(app, ["review", "1"])
    assert result.exit_code == 0, result.output
    heads = re.findall(r"^Move (\d+) of \d+", out.getvalue(), re.M)
    return [int(h) for h in heads]


def test_keys_go_to_the_next_and_previous_mistake_and_to_a_move_by_its_number(
    tables: Tables, farkle_home: Path, screen: tuple[PipeInput, io.StringIO]
) -> None:
    assert mistaken_game(tables) == [1, 7]
    # m from the start: the first mistake; m again: the next; m past the last leads nowhere (no
    # move is shown); M goes back, and before the first leads nowhere too; 4 and Enter: move 4;
    # p: move 3; a number that is no move's leads nowhere; Backspace takes a digit back; q leaves.
    keys = "mmmMM4\rp42\r25\x7f\rq"
    assert walked(screen, keys) == [1, 7, 1, 4, 3, 2]


def test_the_walk_can_start_at_a_move_or_the_last_mistake(
    tables: Tables, farkle_home: Path, screen: tuple[PipeInput, io.StringIO]
) -> None:
    mistaken_game(tables)
    assert walked(screen, "Mnnnn") == [7, 8, 9]  # n past the last move ends the walk


def test_escape_takes_back_a_number_and_then_leaves(
    tables: Tables, farkle_home: Path, screen: tuple[PipeInput, io.StringIO]
) -> None:
    mistaken_game(tables)
    assert walked(screen, "5\x1b3\rq") == [3]


def test_escape_with_no_number_typed_leaves(
    tables: Tables, farkle_home: Path, screen: tuple[PipeInput, io.StringIO]
) -> None:
    mistaken_game(tables)
    assert walked(screen, "\x1b") == []


class Words:
    def first(self) -> str:
        return "first"

    def no_marked(self) -> str:
        return "none"

    def none_after(self, number: int) -> str:
        return f"none after {number}"

    def none_before(self, number: int) -> str:
        return f"none before {number}"

    def no_such_page(self, number: int, count: int) -> str:
        return f"no {number} of {count}"

    def typing(self, digits: str) -> str:
        return digits


@pytest.mark.parametrize(
    ("at", "key", "marked", "went"),
    [
        (0, "next", [], 1),
        (8, "next", [], None),
        (0, "previous", [], "first"),
        (3, "previous", [], 2),
        (3, "next_marked", [], "none"),
        (0, "next_marked", [0, 6], 6),
        (3, "next_marked", [0, 6], 6),
        (6, "next_marked", [0, 6], "none after 7"),
        (6, "previous_marked", [0, 6], 0),
        (3, "previous_marked", [0, 6], 0),
        (0, "previous_marked", [0, 6], "none before 1"),
        (0, 9, [], 8),
        (0, 10, [], "no 10 of 9"),
        (0, "leave", [0], None),
    ],
)
def test_where_each_key_leads(at: int, key: object, marked: list[int], went: object) -> None:
    from farkle_trainer.ui.walk import step

    assert step(at, key, 9, marked, Words()) == went  # type: ignore[arg-type]


def test_the_walk_says_its_keys_and_whose_mistakes_they_go_to(tables: Tables) -> None:
    state = played(tables, (ANN, BOB, Player("Eve", Level.EASY)), "p3")
    assert view.WalkWords.of(state).none_after(3) == "No mistake by Ann or Bob after move 3."
    intro = view.walk_intro(state)
    assert "m goes to the first mistake by Ann or Bob (an inaccuracy or worse)" in intro
    footer = view.walk_prompt(2, 9)
    assert footer == (
        "Move 2 of 9: n next, p back (the arrows too), m next mistake, M the one before, a number and "
        "Enter goes to that move, q leaves"
    )
    # Only a person's decisions are mistakes to go to: Eve's are a computer's.
    steps = a.steps(tables, state)
    marks = view.mistakes(state, steps)
    assert marks and all(steps[i].move.seat in (0, 1) for i in marks)
    assert any(s.review is not None and not s.review.right and s.move.seat == 2 for s in steps)


# -- the summary's counts


def test_the_summary_counts_every_players_decisions_by_grade(tables: Tables) -> None:
    from farkle_trainer.engine.grading import GRADES, Unit, grade_for
    from farkle_trainer.ui.views import review as review_view

    state = played(tables, (ANN, Player("Eve", Level.EASY)), "w1")
    table = tables.game(state.setup.rules, 2_000, 0)
    # Each decision graded here from the game table: what it gave up against the best play.
    counts = [{g: 0 for g in GRADES}, {g: 0 for g in GRADES}]
    for x, runs in zip(state.log, m.move_runs(state), strict=True):
        if x.action != "farkle":
            plays = table_plays(table, x, runs)
            counts[x.seat][grade_for(100 * (max(plays.values()) - plays[(x.keep, x.action)]), Unit.WIN)] += 1
    assert all(sum(c.values()) for c in counts) and sum(counts[1].values()) > counts[1][Grade.BEST]
    an = a.analyse(tables, state)
    plurals = {
        "best": "best",
        "fine": "fine",
        "inaccuracy": "inaccuracies",
        "mistake": "mistakes",
        "blunder": "blunders",
    }

    def line(name: str, c: dict[Grade, int]) -> str:
        graded = ", ".join(f"{n} {g if n == 1 else plurals[g]}" for g, n in c.items())
        return f"  {name}: {sum(c.values())} decisions: {graded}."

    lines = review_view.analysis_lines(state, an)
    at = lines.index("Decisions by grade:")
    assert lines[at + 1 : at + 3] == [line("Ann", counts[0]), line("Eve", counts[1])]
    data = review_view.review_json(state, an, None)["analysis"]
    assert data["decisions_by_grade"] == [  # type: ignore[index]
        {"player": "Ann", "grades": {str(g): n for g, n in counts[0].items()}},
        {"player": "Eve", "grades": {str(g): n for g, n in counts[1].items()}},
    ]


def test_review_moves_on_a_terminal_shows_every_move_with_its_table(
    tables: Tables, farkle_home: Path, screen: tuple[PipeInput, io.StringIO]
) -> None:
    mistaken_game(tables)
    _, out = screen
    result = runner.invoke(app, ["review", "1", "--moves"])
    assert result.exit_code == 0, result.output
    shown = out.getvalue()
    assert re.findall(r"^Move (\d+) of 9", shown, re.M) == [str(n) for n in range(1, 10)]
    you_and_hard = (Player("You"), Player("Hard", Level.HARD))
    setup = new_setup(you_and_hard, target=1000, dice=Seeded("12", chosen=True))
    decisions = sum(
        1 for move in greedy_script(tables, setup, bank_at=1000)[1].log if move.action != "farkle"
    )
    assert 0 < decisions < 9
    assert shown.count("┃ keep") == shown.count("│ played") == decisions  # a Farkle has no plays
