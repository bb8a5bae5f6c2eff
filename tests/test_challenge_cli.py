"""``farkle-train challenge CODE``: the ten-turn game on a class code's dice, played as a student would."""

from __future__ import annotations

import io
import json
import sqlite3
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from factories import interactive_frontend
from prompt_toolkit.input import PipeInput
from typer.testing import CliRunner

import farkle_trainer.cli.classcode as classcode_cli
import farkle_trainer.training.classroom.entry as class_entry_module
from farkle_trainer.cli import app
from farkle_trainer.engine.plays import hint
from farkle_trainer.engine.solver import Objective
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.db import Store
from farkle_trainer.store.paths import store_path
from farkle_trainer.training.classroom.codes import code_stream
from farkle_trainer.training.classroom.results import read_result
from farkle_trainer.training.games.analysis import review
from farkle_trainer.training.games.dice import seeded_source
from farkle_trainer.training.games.match import MatchState, bank, new_match, roll, roll_on, set_aside
from farkle_trainer.training.games.setup import TEN_TURNS
from farkle_trainer.training.games.tenturns import best_play, perfect_play
from farkle_trainer.training.progress import load_progress, load_stats
from farkle_trainer.ui import terminal as frontend
from farkle_trainer.ui.terminal import PlainFrontend
from farkle_trainer.ui.views.engine import points

runner = CliRunner()
NOON = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
Policy = Callable[[Tables, MatchState], tuple[tuple[int, ...], str]]


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(class_entry_module, "clock", lambda: NOON)


def perfect(tables: Tables, state: MatchState) -> tuple[tuple[int, ...], str]:
    play = best_play(tables, state)
    return play.keep, play.action


def greedy(tables: Tables, state: MatchState) -> tuple[tuple[int, ...], str]:
    """Keep every point; bank once the turn is worth 300 (roll on after hot dice)."""
    h = hint(tables, state.roll, state.points, TEN_TURNS.rules)
    play = max(h.plays, key=lambda p: (p.score, -p.dice_to_roll))
    action = "roll" if play.dice_left == 0 or play.points_after < 300 else "bank"
    return play.keep, action


def script(tables: Tables, code: str, policy: Policy) -> tuple[list[str], MatchState]:
    """The lines a player following ``policy`` types in the code's challenge, and the game it makes."""
    source = seeded_source(code_stream(code, "challenge"))
    state = new_match(TEN_TURNS)
    lines: list[str] = []
    while not state.over:
        if state.phase == "roll":
            state = roll(state, source)
            continue
        keep, action = policy(tables, state)
        lines.append(" ".join(map(str, keep)))
        state = set_aside(state, keep)
        lines.append(action[0])
        state = bank(state) if action == "bank" else roll_on(state, source)
    return lines, state


def play(args: list[str], lines: list[str] | str) -> tuple[int, str, str]:
    stdin = lines if isinstance(lines, str) else "".join(line + "\n" for line in lines)
    result = runner.invoke(app, ["challenge", *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def answers(home: Path) -> list[dict[str, object]]:
    """Every training answer in the store, with its session's kind, code, rules and seed."""
    db = sqlite3.connect(store_path(home))
    db.row_factory = sqlite3.Row
    try:
        rows = db.execute(
            "SELECT s.kind, s.code, s.rules, s.seed, a.* "
            "FROM answers a JOIN sessions s ON s.id = a.session_id"
        )
        return [dict(row) for row in rows]
    finally:
        db.close()


# -- two students, one code


def test_two_students_with_the_same_choices_play_the_same_game(tables: Tables, tmp_path: Path) -> None:
    lines, game = script(tables, "MATH7B", greedy)
    runs = []
    for name, spelled in (("Ana", "MATH7B"), ("Ben", "math 7b")):
        path = tmp_path / f"{name.lower()}.json"
        code, out, err = play(
            [
                spelled,
                "--plain",
                "--name",
                name,
                "--save-result",
                str(path),
                "--data-dir",
                str(tmp_path / name),
            ],
            lines,
        )
        assert code == 0, out + err
        runs.append((out, path))
    (ana_out, ana_path), (ben_out, ben_path) = runs
    assert ana_out.replace("Ana", "Ben").replace("ana.json", "ben.json") == ben_out
    assert "Turn 1 of 10, 0 banked. Roll: a:6 b:5 c:1 d:3 e:2 f:1" in ana_out
    assert f"Game over: {points(game.banked)} in 10 turns." in ana_out
    ana, ben = read_result(ana_path), read_result(ben_path)
    assert ana.name == "Ana" and ben.name == "Ben"
    assert ana.answers == ben.answers and ana.score == ben.score == game.banked
    ana_doc, ben_doc = json.loads(ana_path.read_text()), json.loads(ben_path.read_text())
    for doc in (ana_doc, ben_doc):
        doc.pop("name"), doc.pop("checksum")
    assert ana_doc == ben_doc


def test_other_codes_deal_other_dice() -> None:
    _, out_b = play(["MATH7B", "--plain"], "q\n")[:2]
    _, out_c = play(["MATH7C", "--plain"], "q\n")[:2]
    first_roll = [line for line in out_b.splitlines() if line.startswith("Turn 1 of 10")]
    assert first_roll and first_roll[0] not in out_c


# -- a whole game


def test_a_perfect_game_matches_perfect_play(tables: Tables, tmp_path: Path, farkle_home: Path) -> None:
    lines, game = script(tables, "MATH7B", perfect)
    path = tmp_path / "ana.json"
    code, out, _ = play(["MATH7B", "--plain", "--name", "Ana", "--save-result", str(path)], lines)
    assert code == 0
    best = perfect_play(tables, seeded_source(code_stream("MATH7B", "challenge")))
    assert game.banked == best
    decisions = len(game.decisions)
    tail = out.splitlines()[-9:]
    expected = 10 * tables.turn(TEN_TURNS.rules, Objective.expected()).roll_value(0, 6)
    side = "above" if best >= expected else "below"
    assert tail == [
        f"Game over: {points(best)} in 10 turns.",
        f"Perfect play is expected to score {expected:,.2f} over 10 turns (10 x {expected / 10:,.2f}, "
        "the exact expected score of a turn).",
        f"You scored {points(best)}, {abs(best - expected):,.2f} {side} that: your decisions gave up 0.00 "
        f"expected points, and the luck of the dice was {best - expected:+,.2f} (0 on average).",
        f"Your play this game: {expected:,.2f} points against perfect play ({expected:,.2f}), the score "
        "with the luck of the dice taken out.",
        f"Every one of your {decisions} decisions was the solver's best play.",
        "Practice: recorded as training progress, not in stats.",
        f"Farkle class MATH7B: {points(best)} in 10 turns | {' '.join(game.marks)}",
        "Kept as game 1 in farkle-train games: farkle-train review 1 shows it as it ended.",
        f"Result for class MATH7B: Ana, class challenge, {points(best)} points, "
        f"0.00 expected points given up. Saved to {path} for your teacher.",
    ]
    r = read_result(path)
    assert r.complete and r.activity == "challenge" and r.rules == "classic" and r.code == "MATH7B"
    assert r.score == r.solver_game_score == best and r.points_lost == 0.0
    assert len(r.answers) == decisions and all(a.correct for a in r.answers)
    assert r.started == r.finished == "2026-11-29T12:00:00Z"


def test_a_challenge_is_progress_never_stats(tables: Tables, farkle_home: Path) -> None:
    lines, game = script(tables, "MATH7B", greedy)
    code, out, _ = play(["MATH7B", "--plain"], lines)
    assert code == 0
    assert "To hand it in as a file, add --save-result FILE.json." in out.splitlines()[-1]
    rows = answers(farkle_home)
    assert len(rows) == len(game.decisions)
    assert {(r["kind"], r["code"], r["rules"], r["seed"]) for r in rows} == {
        ("challenge", "MATH7B", "classic", None)
    }
    reviews = review(tables, game)
    assert [r["points_lost"] for r in rows] == pytest.approx([x.gave_up for x in reviews])
    with Store.open(farkle_home) as store:
        assert load_stats(store).games_played == 0
        assert load_progress(store).answers == len(rows)


def test_mistakes_are_reviewed_and_kept_in_the_result(tables: Tables, tmp_path: Path) -> None:
    lines, game = script(tables, "MATH7B", greedy)
    path = tmp_path / "ben.json"
    code, out, _ = play(["MATH7B", "--plain", "--name", "Ben", "--save-result", str(path)], lines)
    assert code == 0
    lost = [r for r in review(tables, game) if r.gave_up > 0]
    assert lost, "the greedy player should give up points on these dice"
    assert f"Decisions that gave up expected points: {len(lost)} of {len(game.decisions)}" in out
    assert out.count("    best: ") == min(3, len(lost))
    worst = sorted(lost, key=lambda x: -x.lost)
    shown = [line for line in out.splitlines() if line.startswith("    you: ")]
    assert [line.rsplit("gives up ", 1)[1] for line in shown] == [f"{r.lost:,.2f} points" for r in worst[:3]]
    if len(lost) > 3:
        rest = sum(r.lost for r in worst[3:])
        others = "1 decision" if len(lost) == 4 else f"{len(lost) - 3} decisions"
        assert f"  The other {others} gave up {rest:,.2f} points in all." in out
    r = read_result(path)
    assert r.points_lost == pytest.approx(sum(x.gave_up for x in lost), abs=0.01)
    assert sum(not a.correct for a in r.answers) == sum(not x.right for x in lost)
    assert {a.grade for a in r.answers if not a.correct} <= {"inaccuracy", "mistake", "blunder"}


# -- stopping, hints, options


def test_no_hints_and_q_stops_with_a_partial_result(
    tables: Tables, tmp_path: Path, farkle_home: Path
) -> None:
    lines, _ = script(tables, "MATH7B", greedy)
    path = tmp_path / "ana.json"
    code, out, _ = play(
        ["MATH7B", "--plain", "--name", "Ana", "--save-result", str(path)], ["h", *lines[:2], "q"]
    )
    assert code == 0
    assert "  (no hints in a class challenge: everyone plays on their own)" in out
    assert "hints are off in the official game" not in out
    assert "Challenge stopped at turn " in out and "To play it again from turn 1: " in out
    r = read_result(path)
    assert not r.complete and r.finished is None and len(r.answers) == 1
    assert "stopped with" in out.splitlines()[-1]
    assert len(answers(farkle_home)) == 1


def test_end_of_input_before_a_move() -> None:
    code, out, _ = play(["MATH7B", "--plain"], "")
    assert code == 0
    assert out.splitlines()[-3:] == [
        "Challenge stopped at turn 1 of 10 with 0 banked. "
        "To play it again from turn 1: farkle-train challenge MATH7B",
        "Kept as game 1 in farkle-train games: farkle-train review 1 shows it up to where it stopped.",
        "Nothing was answered, so there is no result to hand in.",
    ]


def test_ctrl_c_keeps_the_result_and_exits_130(
    tables: Tables, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines, _ = script(tables, "MATH7B", greedy)
    read = PlainFrontend._read
    calls = {"n": 0}

    def read_then_interrupt(self: PlainFrontend, prompt: str) -> str:
        calls["n"] += 1
        if calls["n"] > 4:
            raise KeyboardInterrupt
        return read(self, prompt)

    monkeypatch.setattr(PlainFrontend, "_read", read_then_interrupt)
    path = tmp_path / "ana.json"
    code, out, _ = play(["MATH7B", "--plain", "--name", "Ana", "--save-result", str(path)], lines)
    assert code == 130
    assert "Challenge stopped at turn" in out
    assert len(read_result(path).answers) == 2


def test_other_rules_are_named_and_set_aside() -> None:
    code, out, _ = play(["MATH7B", "--rules", "fixed", "--plain"], "q\n")
    assert code == 0
    assert out.splitlines()[0] == (
        "Note: --rules fixed is not used: a challenge is always classic, with no house rules."
    )
    assert "Turn 1 of 10, 0 banked. Roll: a:6 b:5 c:1 d:3 e:2 f:1" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        # The code is an argument, not --code: the error names it as typed.
        (["M!"], "Error: 'M!' is not a class code: a class code has only letters and digits"),
        (["AB"], "Error: 'AB' is not a class code: a class code has 3 to 12 letters and digits, not 2"),
        (
            ["MATH7B", "--save-result", "ana.txt", "--name", "Ana"],
            "Error: --save-result: a result file's name",
        ),
        (["MATH7B", "--save-result", "ana.json"], "Error: --save-result needs --name NAME"),
        (["MATH7B", "--name", "   "], "Error: --name: type your name"),
    ],
)
def test_bad_options_are_one_line_errors(args: list[str], message: str) -> None:
    code, out, err = play([*args, "--plain"], "")
    assert code == 2 and out == ""
    assert err.startswith(message) and err.count("\n") == 1


def test_the_name_is_asked_on_a_terminal(
    tables: Tables, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(classcode_cli, "is_terminal", lambda stream: True)
    path = tmp_path / "ana.json"
    lines, _ = script(tables, "MATH7B", greedy)
    code, out, _ = play(
        ["MATH7B", "--plain", "--save-result", str(path)], ["", "  Ana  Lee ", *lines[:2], "q"]
    )
    assert code == 0
    assert "Your name (for your teacher): \n  (type your name, as your teacher will see it)" in out
    assert read_result(path).name == "Ana Lee"
    code, out, _ = play(["MATH7B", "--plain", "--save-result", str(path)], "")
    assert code == 0 and out.splitlines()[-1] == "No name given, so nothing was started."


# -- interactive, through prompt_toolkit's pipe input


@pytest.fixture
def pipe(pipe: PipeInput, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[PipeInput, io.StringIO]]:
    front, out = interactive_frontend(pipe)
    monkeypatch.setattr(frontend, "open_terminal", lambda plain: front)
    monkeypatch.setattr(classcode_cli, "is_terminal", lambda stream: True)
    yield pipe, out


def test_interactive_name_moves_and_ctrl_d(
    tables: Tables, pipe: tuple[PipeInput, io.StringIO], tmp_path: Path
) -> None:
    inp, out = pipe
    lines, _ = script(tables, "MATH7B", greedy)
    path = tmp_path / "ana.json"
    inp.send_text("Ana\r" + "".join(line + "\r" for line in lines[:4]) + "\x04")
    result = runner.invoke(app, ["challenge", "MATH7B", "--save-result", str(path)])
    assert result.exit_code == 0, result.output
    shown = out.getvalue()
    assert "Turn 1 of 10, 0 banked. Roll: a:6 b:5 c:1 d:3 e:2 f:1" in shown
    assert "Challenge stopped at turn" in shown
    r = read_result(path)
    assert r.name == "Ana" and len(r.answers) == 2


def test_a_finished_challenge_is_kept_when_enter_is_pressed(
    tables: Tables, pipe: tuple[PipeInput, io.StringIO], tmp_path: Path
) -> None:
    inp, out = pipe
    lines, _ = script(tables, "MATH7B", greedy)
    path = tmp_path / "ana.json"
    args = ["challenge", "MATH7B", "--name", "Ana", "--save-result", str(path)]
    inp.send_text("".join(line + "\r" for line in lines))
    assert runner.invoke(app, args).exit_code == 0
    finished = path.read_bytes()
    # Enter takes the choice offered first, no; Ctrl-D ends a game started by mistake.
    inp.send_text("\r\x04")
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    # The question itself is drawn by the prompt; what is said after it is on the console.
    said = " ".join(out.getvalue().split())
    assert said.endswith(f"Nothing was started: {path} keeps your finished result.")
    assert path.read_bytes() == finished


# -- looking at a challenge again


def listed_games() -> list[str]:
    result = runner.invoke(app, ["games", "--plain"])
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()[1:]


def review_cli(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["review", *args])
    return result.exit_code, result.output


def test_a_challenge_is_in_games_and_reviews_by_number_and_from_its_result_file(
    tables: Tables, tmp_path: Path, farkle_home: Path
) -> None:
    lines, game = script(tables, "MATH7B", greedy)
    path = tmp_path / "ana.json"
    code, out, _ = play(["MATH7B", "--plain", "--name", "Ana", "--save-result", str(path)], lines)
    assert code == 0, out
    assert "Kept as game 1 in farkle-train games: farkle-train review 1 shows it as it ended." in out
    (listed,) = listed_games()
    banked = points(game.banked)
    assert listed.startswith("Game 1, ")
    assert listed.endswith(f": class challenge MATH7B, training; {banked} in 10 turns; {banked} banked.")
    code, by_number = review_cli("1", "--plain", "--moves")
    assert code == 0, by_number
    code, from_file = review_cli(str(path), "--plain", "--moves")
    assert code == 0, from_file
    assert by_number.splitlines()[0].startswith("Class challenge MATH7B, game 1, started ")
    assert from_file.splitlines()[0] == (
        f"Class challenge MATH7B of Ana from {path} (every move checked on the class's dice): "
        "You (classic table); 10 turns played."
    )
    # The same analysis, the one any game gets: the game the moves make on the code's dice.
    from farkle_trainer.training.games.analysis import analyse
    from farkle_trainer.ui.views.review import game_over_text

    analysed = game_over_text(game, analyse(tables, game)).splitlines()
    # Stored, the challenge is yours: the review says which of its decisions are your personal positions.
    kept = by_number.splitlines()[1 + len(analysed)]
    assert kept.startswith("3 of your decisions, inaccuracies or worse, are personal positions: ")
    assert [line for line in by_number.splitlines()[1:] if line != kept] == from_file.splitlines()[1:]
    assert by_number.splitlines()[1 : 1 + len(analysed)] == analysed
    assert "Perfect play is expected to score 5,935.77 over 10 turns" in by_number
    code, data = review_cli("1", "--json")
    # Each move as it was saved, with its luck and its plays after it.
    moves = json.loads(data)["moves"]
    assert code == 0 and [
        {k: mv[k] for k in move.to_dict()} for mv, move in zip(moves, game.log, strict=True)
    ] == [move.to_dict() for move in game.log]
    assert len(moves) == len(game.log) and all("candidates" in mv for mv in moves)
    # Its decisions are the challenge's answers: the game has no session of its own.
    with Store.open(farkle_home) as store:
        (row,) = store.games()
        assert row.kind == "challenge" and not row.rated and row.outcome == "over"
    kinds = {a["kind"] for a in answers(farkle_home)}
    assert kinds == {"challenge"} and len(answers(farkle_home)) == len(game.decisions)


def test_a_stopped_challenge_is_kept_as_it_stands_and_never_carried_on(
    tables: Tables, farkle_home: Path
) -> None:
    lines, _ = script(tables, "MATH7B", greedy)
    code, out, _ = play(["MATH7B", "--plain"], [*lines[:4], "q"])
    assert code == 0, out
    (stopped,) = [line for line in out.splitlines() if line.startswith("Challenge stopped at turn ")]
    turn = stopped.split()[4]
    (listed,) = listed_games()
    assert f": class challenge MATH7B, training; stopped at turn {turn}; " in listed
    code, shown = review_cli("1", "--plain")
    assert code == 0, shown
    assert shown.splitlines()[1].startswith(f"Challenge stopped at turn {turn} of 10, with ")
    # Neither play nor play --resume offers it: a challenge starts again from turn 1.
    result = runner.invoke(app, ["play", "--resume", "--plain"])
    assert result.exit_code == 2 and "there is no unfinished game" in result.output


def test_a_challenge_whose_terminal_closed_is_listed_as_stopped(tables: Tables, farkle_home: Path) -> None:
    from farkle_trainer.training.classroom.challenge import start_challenge
    from farkle_trainer.training.games import match as m
    from farkle_trainer.training.games.play import saved_state

    with Store.open(farkle_home) as store:
        session = store.start_session("challenge", rules="classic", code="MATH7B")
        row = start_challenge(store, "MATH7B", session=session)
        state = m.roll(saved_state(tables, row), saved_state(tables, row).setup.source())
        store.save_game(row.id, state.to_dict(), version=row.version, rated=False)
        assert store.unfinished_game() is None
    (listed,) = listed_games()
    assert listed.endswith(": class challenge MATH7B, training; stopped at turn 1; 0 banked.")
    code, shown = review_cli("1", "--plain")
    assert code == 0 and "Challenge stopped at turn 1 of 10, with 0 banked." in shown
    result = runner.invoke(app, ["play", "--plain"], input="q\n")
    assert "You have an unfinished" not in result.output


def seal_again(path: Path, edit: Callable[[dict[str, object]], object]) -> None:
    from farkle_trainer.training.classroom.results import checksum

    doc = json.loads(path.read_text())
    edit(doc)
    doc.pop("checksum")
    doc["checksum"] = checksum(doc)
    path.write_text(json.dumps(doc))


def test_a_result_file_is_reviewed_only_for_what_its_moves_prove(tables: Tables, tmp_path: Path) -> None:
    lines, _ = script(tables, "MATH7B", greedy)
    path = tmp_path / "ana.json"
    assert play(["MATH7B", "--plain", "--name", "Ana", "--save-result", str(path)], lines)[0] == 0
    good = path.read_text()
    # A move the code's dice never allowed, however well sealed, is refused in one line.
    seal_again(path, lambda d: d["answers"][0].update(keep=[2, 2, 2, 2, 2, 2]))  # type: ignore[index]
    code, out = review_cli(str(path), "--plain")
    assert code == 2 and out.startswith(
        f"Error: {path} cannot be reviewed: does not add up: answer 1's move "
    )
    assert len(out.splitlines()) == 1
    path.write_text(good.replace('"score": ', '"score": 1'))
    code, out = review_cli(str(path), "--plain")
    assert code == 2 and out == (
        f"Error: {path} cannot be reviewed: edited by hand or damaged: its checksum does not match its "
        "contents\n"
    )
    # A quiz's result holds no game.
    quiz = tmp_path / "quiz.json"
    args = [
        "score",
        "--code",
        "MATH7B",
        "--count",
        "1",
        "--plain",
        "--name",
        "Ana",
        "--save-result",
        str(quiz),
    ]
    assert runner.invoke(app, args, input="0\n").exit_code == 0
    code, out = review_cli(str(quiz), "--plain")
    assert code == 2 and out == (
        f"Error: {quiz} cannot be reviewed: it holds a scoring quiz result, not a game (class report reads "
        "it)\n"
    )


def test_a_result_file_of_an_earlier_version_keeps_its_figure_under_its_own_name(
    tables: Tables, tmp_path: Path
) -> None:
    from farkle_trainer.training.classroom.verify import verify

    lines, game = script(tables, "MATH7B", perfect)
    path = tmp_path / "ana.json"
    assert play(["MATH7B", "--plain", "--name", "Ana", "--save-result", str(path)], lines)[0] == 0
    written = json.loads(path.read_text())
    assert written["version"] == 4 and written["solver_game_score"] == game.banked
    assert "perfect_score" not in written

    def as_version_3(doc: dict[str, object]) -> None:
        doc["version"] = 3
        doc["perfect_score"] = doc.pop("solver_game_score")

    seal_again(path, as_version_3)
    older = read_result(path)
    assert older.version == 3 and older.solver_game_score == game.banked and verify(tables, older) is None
    code, out = review_cli(str(path), "--plain")
    assert code == 0 and f"Game over: {points(game.banked)} in 10 turns." in out
    # Under the other version's name the figure is not there: a finished challenge then claims none.
    seal_again(path, lambda d: d.update(version=4))
    code, out = review_cli(str(path), "--plain")
    assert (
        code == 2 and f"the solver's own game on the class's dice scores {points(game.banked)}, not " in out
    )
