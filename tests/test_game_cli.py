"""``hint --score/--opponent`` and ``strategy --game`` against a plain game turn written here.

The plain turn takes the solver's chances at turn starts (their Bellman equations are
checked in ``test_gamesolver.py`` and again here) and values everything inside a turn
by its own recursion over every roll and every selection, with its own final turn.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from farkle_trainer.cli import app
from farkle_trainer.engine import game as gs
from farkle_trainer.engine.dice import multisets, roll_chance
from farkle_trainer.engine.gamehint import comparison_scores, game_hint, game_strategy
from farkle_trainer.engine.plays import hint
from farkle_trainer.engine.rules import PRESETS
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.tables import Tables
from farkle_trainer.ui import progress as bars
from farkle_trainer.ui.views import game as render

CLASSIC = PRESETS["classic"]
TARGET = 2000
LEVELS = TARGET // 50
runner = CliRunner()

Roll = tuple[int, float, tuple[tuple[int, int, tuple[int, ...]], ...]]


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def table(tables: Tables) -> gs.GameTable:
    return tables.game(CLASSIC, TARGET)


# -- the plain turn


@cache
def every_roll() -> tuple[tuple[Roll, ...], tuple[float, ...]]:
    """Every roll of 1..6 dice with every selection as (levels, dice next, faces); Farkle chances."""
    scoring = score_table(CLASSIC)
    rolls: list[Roll] = []
    farkle = [0.0] * 6
    for n in range(1, 7):
        for roll in multisets(n):
            options = tuple(
                (s.points // 50, (n - len(s.dice)) or 6, s.dice) for s in scoring.selections(roll)
            )
            if options:
                rolls.append((n, float(roll_chance(roll)), options))
            else:
                farkle[n - 1] += float(roll_chance(roll))
    return tuple(rolls), tuple(farkle)


@cache
def rolls_of(n: int) -> tuple[Roll, ...]:
    return tuple(roll for roll in every_roll()[0] if roll[0] == n)


def rolled(n: int, after: Callable[[int, int], float], at: int, lost: float) -> float:
    """The value of rolling ``n`` dice at level ``at``: each roll's best selection."""
    total = every_roll()[1][n - 1] * lost
    for _, p, options in rolls_of(n):
        total += p * max(after(at + pts, nxt) for pts, nxt, _ in options)
    return total


def final_turn(need: int, u: int, n: int) -> float:
    """Rolling ``n`` dice with ``u`` levels in a last turn ``need`` levels behind (ties one half)."""
    return final_turn_short(need - u, n)


@cache
def final_turn_short(short: int, n: int) -> float:
    """A last turn depends only on the levels still missing: every ``(need, u)`` with
    ``need - u == short`` has the value of starting ``short`` behind with nothing yet."""
    return rolled(n, lambda v, m: final_after(short, v, m), 0, 0.0)


def final_bank(need: int, u: int) -> float:
    return 1.0 if u > need else 0.5 if u == need else 0.0


def final_after(need: int, u: int, n: int) -> float:
    if u > need:
        return 1.0
    return max(final_bank(need, u), final_turn(need, u, n))


class PlainTurn:
    """One turn from (a, b) in levels, given W at every turn start."""

    def __init__(self, w: list[list[float]], a: int, b: int) -> None:
        self.w, self.a, self.b = w, a, b
        self.lost = 1.0 - w[b][a]
        _, farkle = every_roll()
        # From here up banking is certainly best: rolling is worth at most f x + 1 - f.
        self.cap = next(
            pos
            for pos in range(LEVELS - a, 10 * LEVELS)
            if final_turn(a + pos - b, 0, 6) <= min(farkle) * (1.0 - self.lost)
        )
        self.memo: dict[tuple[int, int], float] = {}
        self.settled: dict[tuple[int, int], float] = {}

    def bank(self, pos: int) -> float | None:
        if pos == 0:
            return None
        if self.a + pos < LEVELS:
            return 1.0 - self.w[self.b][self.a + pos]
        return 1.0 - final_turn(self.a + pos - self.b, 0, 6)

    def roll(self, pos: int, n: int) -> float:
        key = (pos, n)
        if key not in self.memo:
            self.memo[key] = rolled(n, self.after, pos, self.lost)
        return self.memo[key]

    def after(self, pos: int, n: int) -> float:
        key = (pos, n)
        if key not in self.settled:
            self.settled[key] = self._after(pos, n)
        return self.settled[key]

    def _after(self, pos: int, n: int) -> float:
        bank = self.bank(pos)
        if pos >= self.cap:
            assert bank is not None
            return bank
        roll = self.roll(pos, n)
        return roll if bank is None else max(bank, roll)


def w_of(table: gs.GameTable) -> list[list[float]]:
    return table.chances.tolist()  # type: ignore[no-any-return]


def plain_plays(
    table: gs.GameTable, roll: list[int], points: int, a: int, b: int
) -> list[tuple[tuple[int, ...], float | None, float]]:
    """(keep, bank, roll) for every selection of ``roll``, valued by the plain turn."""
    turn = PlainTurn(w_of(table), a // 50, b // 50)
    out = []
    for s in score_table(CLASSIC).selections(tuple(roll.count(f) for f in range(1, 7))):
        pos = (points + s.points) // 50
        to_roll = (len(roll) - len(s.dice)) or 6
        out.append((s.dice, turn.bank(pos), turn.roll(pos, to_roll)))
    return out


def best_of(bank: float | None, roll: float) -> float:
    return roll if bank is None else max(bank, roll)


# -- the hint

POSITIONS = [
    ([1, 5, 2, 2, 3, 6], 300, 1200, 1500),
    ([1, 5, 2, 2, 3, 6], 600, 1200, 1500),
    ([1, 5, 2, 2, 3, 6], 1000, 800, 1700),
    ([1, 5, 2, 3], 300, 1700, 1800),
    ([1, 5, 5, 2, 3, 4], 1000, 1500, 1500),
    ([1, 1, 1, 5, 5, 6], 0, 0, 0),
    ([2, 2, 2, 3, 3, 3], 250, 1750, 300),
]


@pytest.mark.parametrize(("roll", "points", "mine", "theirs"), POSITIONS)
def test_hint_ranks_plays_by_the_plain_turns_chance_of_winning(
    table: gs.GameTable, roll: list[int], points: int, mine: int, theirs: int
) -> None:
    args = [str(d) for d in roll] + ["--points", str(points), "--score", str(mine), "--opponent", str(theirs)]
    code, out, _ = run("hint", *args, "--target", str(TARGET), "--json")
    assert code == 0
    data = json.loads(out)
    plain = {keep: (bank, roll_on) for keep, bank, roll_on in plain_plays(table, roll, points, mine, theirs)}
    options = data["options"]
    assert sorted(tuple(o["keep"]) for o in options) == sorted(plain)
    bests = [o["win_chance"]["best"] for o in options]
    assert bests == sorted(bests, reverse=True)
    assert bests[0] == pytest.approx(max(best_of(*v) for v in plain.values()), abs=1e-10)
    for o in options:
        bank, roll_on = plain[tuple(o["keep"])]
        chance = o["win_chance"]
        assert chance["roll"] == pytest.approx(roll_on, abs=1e-10)
        assert chance["bank"] == (None if bank is None else pytest.approx(bank, abs=1e-10))
        assert chance["best"] == pytest.approx(best_of(bank, roll_on), abs=1e-10)
        action = "roll" if bank is None or roll_on >= bank - 1e-12 else "bank"
        assert o["best_action"] == action
        assert o["gives_up_pp"] == pytest.approx(100 * (bests[0] - chance["best"]), abs=1e-8)


@pytest.mark.parametrize(("roll", "points", "mine", "theirs"), POSITIONS)
def test_the_points_note_appears_exactly_when_the_objectives_part(
    tables: Tables, table: gs.GameTable, roll: list[int], points: int, mine: int, theirs: int
) -> None:
    plain = plain_plays(table, roll, points, mine, theirs)
    keep, bank, roll_on = max(plain, key=lambda p: best_of(p[1], p[2]))
    to_win = (keep, "roll" if bank is None or roll_on >= bank else "bank")
    by_points = hint(tables, roll, points, CLASSIC).best
    assert by_points is not None
    for_points = (by_points.keep, by_points.value.action)
    args = [str(d) for d in roll] + ["--points", str(points), "--score", str(mine), "--opponent", str(theirs)]
    code, out, _ = run("hint", *args, "--target", str(TARGET), "--plain")
    assert code == 0
    note = (
        f"For points: keep {' '.join(map(str, for_points[0]))} and {for_points[1]}; "
        f"to win: keep {' '.join(map(str, to_win[0]))} and {to_win[1]}."
    )
    assert (note in out.splitlines()) == (for_points != to_win)
    assert ("For points:" in out) == (for_points != to_win)
    data = json.loads(run("hint", *args, "--target", str(TARGET), "--json")[1])
    assert data["objectives_differ"] == (for_points != to_win)
    assert (tuple(data["points_best"]), data["points_action"]) == for_points


def test_both_kinds_of_note_occur(tables: Tables) -> None:
    # The positions above must show the note both ways, or the test above proves little.
    differ = [
        game_hint(tables, r, p, CLASSIC, a, b, target=TARGET).objectives_differ for r, p, a, b in POSITIONS
    ]
    assert any(differ) and not all(differ)


def test_hint_plain_text(table: gs.GameTable) -> None:
    code, out, _ = run(
        "hint", "1", "5", "2", "2", "3", "6", "--points", "600", "--score", "1200", "--opponent", "1500",
        "--target", "2000", "--plain",
    )  # fmt: skip
    assert code == 0
    plain = {keep: best_of(b, r) for keep, b, r in plain_plays(table, [1, 5, 2, 2, 3, 6], 600, 1200, 1500)}
    best = max(plain.values())
    lines = out.splitlines()
    assert lines[0] == "Roll: 1 2 2 3 5 6, 600 points at stake (classic rules)"
    assert (
        lines[1]
        == "Game to 2,000: you have 1,200, the opponent 1,500; values are chances of winning the game."
    )
    assert lines[2] == f"Best play: set aside 5 (50) and roll 5 dice; chance of winning {100 * best:.2f}%."
    assert lines[3] == "For points: keep 1 and roll; to win: keep 5 and roll."
    assert lines[4] == "Plays, best first (bank / roll on / gives up, in percentage points):"
    assert f"gives up {100 * (best - plain[(1,)]):.2f} pp" in lines[6]


def test_the_json_keeps_the_hint_contract(tables: Tables) -> None:
    code, out, _ = run("hint", "1", "5", "2", "2", "3", "6", "--points", "300", "--score", "1200",
                       "--opponent", "1500", "--target", "2000", "--json")  # fmt: skip
    assert code == 0
    data = json.loads(out)
    for key in ("roll", "points", "farkle", "options", "target", "score", "opponent", "best_action",
                "points_best", "points_action"):  # fmt: skip
        assert key in data
    expected = {p.keep: p for p in hint(tables, [1, 5, 2, 2, 3, 6], 300, CLASSIC).plays}
    for o in data["options"]:
        for key in ("keep", "score", "dice_left", "bank_ev", "roll_ev", "ev", "best_action", "win_chance",
                    "gives_up_pp"):  # fmt: skip
            assert key in o
        p = expected[tuple(o["keep"])]
        assert (o["bank_ev"], o["roll_ev"], o["ev"]) == (p.expected.bank, p.expected.roll, p.expected.best)
        assert o["points_action"] == p.expected.action


def test_last_turn_is_the_chance_of_passing_the_leader() -> None:
    code, out, _ = run("hint", "1", "5", "2", "3", "--points", "300", "--score", "1200", "--opponent", "2100",
                       "--target", "2000", "--last-turn", "--json")  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert data["last_turn"] is True
    need = (2100 - 1200) // 50
    for o in data["options"]:
        pos = (300 + o["score"]) // 50
        to_roll = (4 - len(o["keep"])) or 6
        assert o["win_chance"]["bank"] == final_bank(need, pos)
        assert o["win_chance"]["roll"] == pytest.approx(final_turn(need, pos, to_roll), abs=1e-12)
    text = run("hint", "1", "5", "2", "3", "--points", "750", "--score", "1200", "--opponent", "2100",
               "--target", "2000", "--last-turn", "--plain")[1]  # fmt: skip
    # 750 + 150 ties the leader: banking the tie is worth exactly one half.
    assert "bank 50.00%" in text
    assert "chances of passing them (a tie counts one half)" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--score", "1225", "--opponent", "900"], "multiple of 50"),
        (["--score", "1200", "--opponent", "-50"], "at least 0"),
        (["--score", "1200"], "--score and --opponent go together"),
        (["--opponent", "1200"], "--score and --opponent go together"),
        (["--score", "2000", "--opponent", "900"], "reached the target"),
        (["--score", "1000", "--opponent", "2050"], "add --last-turn"),
        (["--score", "1000", "--opponent", "1500", "--last-turn"], "the opponent has reached the target"),
        (["--score", "1900", "--opponent", "2000", "--last-turn", "--points", "0", "--need", "50"], "--need"),
        (["--target", "2000"], "give --score and --opponent"),
        (["--last-turn"], "give --score and --opponent"),
        (["--score", "0", "--opponent", "0", "--target", "2025"], "target must be a multiple of 50"),
    ],
)
def test_bad_game_input_is_one_error_line(args: list[str], message: str) -> None:
    full = ["hint", "1", "5", "2", "2", "3", "6", "--target", "2000", *args]
    if "--target" in args:
        full = ["hint", "1", "5", "2", "2", "3", "6", *args]
    code, out, err = run(*full)
    assert code == 2, out
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], err


def test_a_rule_file_s_penalty_is_played(tmp_path: Path) -> None:
    rules = tmp_path / "penalty.toml"
    rules.write_text('name = "penalty"\n[house]\nthree_farkle_penalty = 500\ntarget = 1000\n')
    code, out, err = run(
        "hint", "1", "5", "--score", "0", "--opponent", "0", "--rules", str(rules), "--plain"
    )
    assert code == 0, err
    assert "Three Farkles in a row cost 500 (never below 0)." in out
    code, out, err = run("strategy", "--game", "--rules", str(rules), "--step", "500", "--json")
    assert code == 0, err
    assert json.loads(out)["penalty"] == 500


def test_the_hint_table_fits_or_falls_back_to_plain_lines(tables: Tables, table: gs.GameTable) -> None:
    h = game_hint(tables, [1, 5, 2, 2, 3, 6], 600, CLASSIC, 1200, 1500, target=TARGET)
    wide = rich_text(render.game_hint_rich(h), 100)
    assert "┃ keep" in wide and "…" not in wide
    for width in (60, 20):
        narrow = rich_text(render.game_hint_rich(h), width)
        assert "┃" not in narrow and "…" not in narrow
        assert "52.49%" in narrow and "0.50 pp" in narrow


def play_lines(text: str) -> list[str]:
    lines = text.splitlines()
    return lines[lines.index("Plays, best first (bank / roll on / gives up, in percentage points):") + 1 :]


def test_plain_columns_line_up_where_banking_is_not_allowed(tables: Tables) -> None:
    h = game_hint(tables, [1, 5, 1, 1, 3, 6], 250, CLASSIC, 0, 0, target=TARGET, opening=500)
    rows = play_lines(render.game_hint_text(h))
    assert any("bank not allowed" in row for row in rows) and any("bank  " in row for row in rows)
    for column in ("bank ", " roll ", "->"):
        assert len({row.index(column) for row in rows}) == 1, (column, rows)


def test_a_play_as_good_as_the_best_reads_as_best(tables: Tables) -> None:
    h = game_hint(tables, [1, 5, 2, 3], 850, CLASSIC, 1200, 2100, target=TARGET, last_turn=True)
    rows = play_lines(render.game_hint_text(h))
    assert rows[0].endswith("-> bank, best") and rows[1].endswith("-> bank, equal best")
    assert rows[2].endswith("-> roll, gives up 27.78 pp")
    wide = rich_text(render.game_hint_rich(h), 100)
    assert "┃" in wide and "│ equal best │" in wide and "0.00 pp" not in wide


def test_a_narrow_screen_shows_the_best_play_first_and_each_value_beside_its_name(
    tables: Tables,
    table: gs.GameTable,
) -> None:
    h = game_hint(tables, [1, 5, 2, 2, 3, 6], 600, CLASSIC, 1200, 1500, target=TARGET)
    lines = rich_text(render.game_hint_rich(h), 60).splitlines()
    assert max(len(line) for line in lines) <= 60
    best = next(i for i, line in enumerate(lines) if line.startswith("Best play:"))
    assert best < next(i for i, line in enumerate(lines) if line.startswith("Plays, best first"))
    values = "\n".join(lines)
    for name in ("bank", "roll"):
        assert len(re.findall(rf"{name} +\d+\.\d\d%", values)) == len(h.plays), values
    assert "   2. keep 1    +100    5 left  -> roll" in lines
    assert "      bank 54.29%  roll 56.40%  gives up 0.18 pp" in lines


def rich_text(renderable: object, width: int) -> str:
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text()


# -- strategy --game


def test_strategy_game_against_the_plain_turn(table: gs.GameTable) -> None:
    code, out, _ = run("strategy", "--game", "--target", "2000", "--step", "500", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["scores"] == [0, 500, 1000, 1500]
    w = w_of(table)
    for i, a in enumerate(data["scores"]):
        for j, b in enumerate(data["scores"]):
            # Each grid value satisfies its own turn's equation, worked out by the plain turn.
            turn = PlainTurn(w, a // 50, b // 50)
            assert data["win_chance"][i][j] == pytest.approx(turn.roll(0, 6), abs=1e-9)
    first = data["win_chance"][0][0]
    assert data["first_player_chance"] == first
    assert data["first_player_edge_pp"] == pytest.approx(100 * (first - 0.5))
    fair = next(h * 50 for h in range(LEVELS) if w[0][h] <= 0.5)
    assert data["fair_head_start"] == fair
    high, low = comparison_scores(TARGET)
    assert (high, low) == (1400, 800)
    for name, (a, b) in {"level": (0, 0), "behind": (low, high), "ahead": (high, low)}.items():
        found = data["thresholds"][name]
        assert (found["score"], found["opponent"]) == (a, b)
        turn = PlainTurn(w, a // 50, b // 50)
        for n in range(1, 7):
            rolls_at = [
                pos * 50 for pos in range(1, turn.cap) if turn.roll(pos, n) >= (turn.bank(pos) or 0.0) - 1e-12
            ]
            assert found["roll_while_at_most"][str(n)] == (max(rolls_at) if rolls_at else None)


def test_strategy_game_plain_text(table: gs.GameTable) -> None:
    code, out, _ = run("strategy", "--game", "--target", "2000", "--step", "500", "--plain")
    assert code == 0
    lines = out.splitlines()
    w = table.chances
    assert lines[0] == "Game strategy for classic rules: two players to 2,000"
    assert lines[2].split() == ["0", "500", "1,000", "1,500"]
    assert lines[3].split() == ["0"] + [f"{100 * w[0, j * 10]:.1f}" for j in range(4)]
    edge = 100 * (w[0, 0] - 0.5)
    assert (
        f"At 0-0 the first player wins {100 * w[0, 0]:.2f}%: an edge of {edge:.2f} pp over an even game."
        in lines
    )
    assert "  behind: 600 behind (800 v 1,400); ahead: 600 ahead (1,400 v 800)." in lines
    assert "  dice      at 0-0      behind       ahead" in lines
    assert max(len(line) for line in lines[2:7]) <= 60


def test_strategy_game_heat_map_and_narrow_screens(tables: Tables) -> None:
    s = game_strategy(tables, CLASSIC, TARGET, step=500)
    console = Console(width=100, record=True, file=io.StringIO(), color_system="truecolor")
    console.print(render.game_strategy_rich(s))
    assert "48;2;" in console.export_text(styles=True)  # cells have a background colour
    for width in (60, 20):
        narrow = rich_text(render.game_strategy_rich(s), width)
        assert "…" not in narrow
        assert f"{100 * s.first_player_chance:.1f}" in narrow
        assert max(len(line.rstrip()) for line in narrow.splitlines()) <= width or width == 20
    assert render.heat(0.0) == "black on rgb(255,0,96)"
    assert render.heat(1.0) == "black on rgb(0,255,96)"


def test_strategy_game_options_need_game() -> None:
    code, _, err = run("strategy", "--target", "2000")
    assert code == 2 and "add --game" in err
    code, _, err = run("strategy", "--game", "--target", "2000", "--step", "2000")
    assert code == 2 and err.startswith("Error: ")


# -- the progress bar


def test_the_bar_waits_a_second_then_shows_an_estimate() -> None:
    now = [0.0]
    file = io.StringIO()
    console = Console(file=file, force_terminal=True, width=80)
    bar = bars.SolveBar(console, "Solving", clock=lambda: now[0])
    bar(0.1)
    assert bar.bar is None
    now[0] = 1.5
    bar(0.3)
    assert bar.bar is not None
    bar.close()
    assert "Solving" in file.getvalue()
    quick = bars.SolveBar(console, "Solving", clock=lambda: 0.0)
    quick(1.0)
    assert quick.bar is None


def test_no_bar_without_a_terminal() -> None:
    with bars.solve_progress(None, "Solving") as callback:
        assert callback is None


@pytest.mark.parametrize("value", ["0", "abc", "500", "999", "100050", "20050", "2025", "١٢٠٠", "-1000"])
@pytest.mark.parametrize(
    "command",
    [
        ["hint", "1", "5", "--score", "0", "--opponent", "0"],
        ["strategy", "--game"],
        ["decide", "--kind", "game", "--plain"],
        ["play", "--plain"],
    ],
    ids=["hint", "strategy", "decide", "play"],
)
def test_every_target_out_of_range_is_refused_in_the_same_words(command: list[str], value: str) -> None:
    result = runner.invoke(app, [*command, "--target", value])
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: --target must be a multiple of 50 from 1,000 to 20,000, not ")


def test_a_score_below_the_opening_minimum_cannot_happen(tables: Tables) -> None:
    result = runner.invoke(
        app,
        [
            "hint",
            "1",
            "5",
            "--points",
            "600",
            "--score",
            "0",
            "--opponent",
            "300",
            "--target",
            "2000",
            "--opening",
            "500",
        ],
    )
    assert result.exit_code == 2
    assert result.stderr.startswith(
        "Error: the opponent's score of 300 cannot happen with an opening minimum of 500"
    )
    # The table itself has a value there: a head start below the minimum counts as opened.
    assert 0 < tables.game(CLASSIC, 2000, opening=500).win_chance(0, 300) < 1
