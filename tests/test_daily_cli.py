"""``farkle-train daily`` as a user meets it: through a pipe, killed and resumed, day after day."""

from __future__ import annotations

import os
import select
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

import farkle_trainer.cli.daily as daily_cli
from farkle_trainer.cli import app
from farkle_trainer.store.db import Store
from farkle_trainer.training.games.daily import next_attempt
from farkle_trainer.training.progress import load_progress, load_stats
from farkle_trainer.ui.views.daily import HOW_TO_PLAY

runner = CliRunner()
NOON = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)

#: A whole game of 2026-11-29 (the most points from each roll, bank at 300 or more), with
#: mistakes typed along the way: each is answered with a line and the same prompt again.
SCRIPT = [
    "",  # empty
    "1 1 4 4 4 4",  # four 4s: there are three
    "a b c d e",  # 4 1 4 3 1: the 3 and the two 4s do not score
    "b e a c f",  # by places: 1 1 4 4 4
    "maybe",
    "b",
    "1",
    "r",
    "1 5",
    "r",
    "5",
    "b",
    "1",
    "r",
    "1 4 4 4 4",
    "b",
    "3 3 3 5",
    "b",
    "5",
    "r",
    "1",
    "r",
    "5 5 5",
    "b",
    "1 1 5",
    "r",
    "1 1 1",
    "b",
    "5 5",
    "r",
    "5 5",
    "r",
    "1",
    "b",
    "1 5 5",
    "r",
    "5",
    "r",
]
SCORE_LINE = "Game over: 4,550 in 10 turns."
SHARE = "Farkle daily 2026-11-29: 4,550 in 10 turns | . . F . . . H . F F"
#: Every roll of that game, as it is shown: the dice seen are pinned along with the score.
ROLLS = [
    "Turn 1 of 10, 0 banked. Roll: a:4 b:1 c:4 d:3 e:1 f:4",
    "Turn 2 of 10, 600 banked. Roll: a:6 b:4 c:1 d:2 e:3 f:2",
    "Turn 2 of 10, 600 banked, 100 at stake. Roll: a:4 b:5 c:4 d:1 e:2",
    "Turn 2 of 10, 600 banked, 250 at stake. Roll: a:5 b:4 c:2",
    "Turn 3 of 10, 900 banked. Roll: a:6 b:2 c:1 d:4 e:2 f:3",
    "Turn 3 of 10, 900 banked, 100 at stake. Roll: a:4 b:3 c:3 d:6 e:4",
    "Turn 4 of 10, 900 banked. Roll: a:4 b:4 c:1 d:2 e:4 f:4",
    "Turn 5 of 10, 2,000 banked. Roll: a:3 b:3 c:2 d:5 e:2 f:3",
    "Turn 6 of 10, 2,350 banked. Roll: a:6 b:4 c:2 d:2 e:5 f:4",
    "Turn 6 of 10, 2,350 banked, 50 at stake. Roll: a:3 b:1 c:4 d:3 e:4",
    "Turn 6 of 10, 2,350 banked, 150 at stake. Roll: a:3 b:5 c:5 d:5",
    "Turn 7 of 10, 3,000 banked. Roll: a:1 b:4 c:5 d:1 e:2 f:6",
    "Turn 7 of 10, 3,000 banked, 250 at stake. Roll: a:1 b:1 c:1",
    "Turn 8 of 10, 4,250 banked. Roll: a:2 b:5 c:6 d:3 e:5 f:4",
    "Turn 8 of 10, 4,250 banked, 100 at stake. Roll: a:5 b:6 c:4 d:5",
    "Turn 8 of 10, 4,250 banked, 200 at stake. Roll: a:1 b:2",
    "Turn 9 of 10, 4,550 banked. Roll: a:4 b:3 c:2 d:4 e:3 f:6",
    "Turn 10 of 10, 4,550 banked. Roll: a:2 b:3 c:4 d:1 e:5 f:5",
    "Turn 10 of 10, 4,550 banked, 200 at stake. Roll: a:3 b:5 c:4",
    "Turn 10 of 10, 4,550 banked, 250 at stake. Roll: a:6 b:4",
]


def feed(lines: list[str]) -> str:
    return "".join(f"{line}\n" for line in lines)


@pytest.fixture
def at(monkeypatch: pytest.MonkeyPatch):
    """Set the command's clock: ``at(datetime)``; noon of 2026-11-29 UTC to start with."""

    def set_clock(moment: datetime) -> None:
        monkeypatch.setattr(daily_cli, "clock", lambda: moment)

    set_clock(NOON)
    return set_clock


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, ["daily", *args], input=input)
    return result.exit_code, result.stdout, result.stderr


def store(home: Path) -> Store:
    return Store.open(home, clock=lambda: NOON)


def test_a_whole_game_through_a_pipe(at, farkle_home: Path) -> None:
    code, out, err = run("--plain", input=feed(SCRIPT))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[:3] == [
        "Farkle daily 2026-11-29 (UTC), the official game: ten turns, the same dice for everyone.",
        "Your first play of the day is the one that counts. Hints are off in the official game.",
        HOW_TO_PLAY + " q stops, and the game is saved.",
    ]
    assert lines[3:15] == [
        ROLLS[0],
        "Set aside: ",
        "  (pick at least one die: type faces like 1 5, or places like a c)",
        "Set aside: 1 1 4 4 4 4",
        "  (the roll 4 1 4 3 1 4 has three 4s, not four)",
        "Set aside: a b c d e",
        "  (a single 3 scores nothing: 3s score only as three or more alike "
        "or in a straight; two 4s score nothing: 4s score only as three or more alike, in three pairs or "
        "in a straight)",
        "Set aside: b e a c f",
        "Set aside 1 1 4 4 4 for 600 (three 4s 400 + single 1 100 + single 1 100): 600 at stake, 1 die left.",
        "Bank 600 or roll 1 die? (b/r) maybe",
        "  (type b to bank or r to roll on, u to take back the set-aside, or set aside other dice)",
        "Bank 600 or roll 1 die? (b/r) b",
    ]
    assert [line for line in lines if line.startswith("Turn ")] == ROLLS
    farkle = lines.index(ROLLS[5])
    assert (
        lines[farkle + 1]
        == "Farkle: nothing scores in 4 3 3 6 4. So the 100 points at stake are lost; total 900."
    )
    hot = lines.index(ROLLS[12])
    assert lines[hot + 1 : hot + 5] == [
        "Set aside: 1 1 1",
        "Set aside 1 1 1 for 1,000 (three 1s 1,000): 1,250 at stake.",
        "Hot dice: all six have scored, so you may roll all 6 again.",
        "Bank 1,250 or roll all 6 dice? (b/r) b",
    ]
    # Worst first, three in full, the rest in one line; 879.64 = 462.74 + 143.38 + 107.80 + 165.72.
    review = lines.index("Decisions that gave up expected points: 9 of 17; the worst first:")
    assert lines[review + 1 : review + 11] == [
        "  Turn 7, roll 1 1 1 with 250 at stake:",
        "    you: keep 1 1 1 and bank, expected 1,250.00: gives up 462.74 points",
        "    best: keep 1 1 1 and roll all 6 dice, expected 1,712.74",
        "  Turn 10, roll 2 3 4 1 5 5 with 0 at stake:",
        "    you: keep 1 5 5 and roll 3 dice, expected 260.27: gives up 143.38 points",
        "    best: keep 1 and roll 5 dice, expected 403.65",
        "  Turn 7, roll 1 4 5 1 2 6 with 0 at stake:",
        "    you: keep 1 1 5 and roll 3 dice, expected 295.86: gives up 107.80 points",
        "    best: keep 1 and roll 5 dice, expected 403.65",
        "  The other 6 decisions gave up 165.72 points in all.",
    ]
    assert SCORE_LINE in lines
    # 10 x 593.58 (strategy's classic turn); 4,550 - 5,935.77 = -1,385.77 = -879.64 - 506.13.
    assert lines[lines.index(SCORE_LINE) + 1 : lines.index(SCORE_LINE) + 3] == [
        "Perfect play is expected to score 5,935.77 over 10 turns (10 x 593.58, the exact expected "
        "score of a turn).",
        "You scored 4,550, 1,385.77 below that: your decisions gave up 879.64 expected points, and the "
        "luck of the dice was -506.13 (0 on average).",
    ]
    assert not any("perfect play" in line.lower() and "5,600" in line for line in lines)
    assert lines[-3:] == [
        "Recorded as the official result of 2026-11-29. Streak: 1 day.",
        "6 of your decisions, inaccuracies or worse, are now personal positions: farkle-train decide "
        "--mistakes drills them now, and again whenever they are due; farkle-train progress shows what "
        "is due.",
        SHARE,
    ]
    with store(farkle_home) as s:
        official = s.daily_attempt("2026-11-29", official=True)
        assert official is not None and official.finished and official.score == 4550
        assert load_stats(s).games_played == 1


def runner_script(tmp_path: Path) -> Path:
    """A farkle-train whose clock says noon of 2026-11-29 UTC, to run as a real process."""
    script = tmp_path / "farkle_at_noon.py"
    script.write_text(
        "import sys\n"
        "from datetime import UTC, datetime\n"
        "import farkle_trainer.cli.daily as daily_cli\n"
        "daily_cli.clock = lambda: datetime(2026, 11, 29, 12, 0, tzinfo=UTC)\n"
        "from farkle_trainer.cli import main\n"
        "sys.argv = ['farkle-train', *sys.argv[1:]]\n"
        "main()\n"
    )
    return script


def read_until(proc: subprocess.Popen[bytes], text: str, timeout: float = 30.0) -> str:
    assert proc.stdout is not None
    seen = b""
    deadline = time.monotonic() + timeout
    while text.encode() not in seen:
        ready, _, _ = select.select([proc.stdout], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            raise AssertionError(f"no {text!r} in time; the output so far:\n{seen.decode()}")
        chunk = os.read(proc.stdout.fileno(), 65536)
        if not chunk:
            raise AssertionError(f"the game ended before {text!r}:\n{seen.decode()}")
        seen += chunk
    return seen.decode()


def test_a_killed_game_resumes_on_the_same_roll(tmp_path: Path) -> None:
    script = runner_script(tmp_path)
    command = [sys.executable, str(script), "daily", "--plain"]
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None
    answered = ["1 1 4 4 4", "b", "1", "r"]
    proc.stdin.write(feed(answered).encode())
    proc.stdin.flush()
    # The roll is saved before it is shown: once its prompt is out, the process is killed.
    shown = read_until(proc, f"{ROLLS[2]}\nSet aside: ")
    proc.kill()
    proc.wait(timeout=10)
    assert proc.returncode == -9
    assert "Game saved" not in shown
    rest = SCRIPT[SCRIPT.index("r") + 1 :]
    resumed = subprocess.run(command, input=feed(rest).encode(), capture_output=True, timeout=60, check=False)
    assert resumed.returncode == 0, resumed.stderr.decode()
    lines = resumed.stdout.decode().splitlines()
    assert lines[3:5] == ["Carrying on where you stopped: turn 2 of 10, 600 banked.", ROLLS[2]]
    assert [line for line in lines if line.startswith("Turn ")] == ROLLS[2:]
    assert SCORE_LINE in lines and lines[-1] == SHARE


def test_a_real_pipe_and_end_of_input(tmp_path: Path) -> None:
    command = [sys.executable, str(runner_script(tmp_path)), "daily"]
    first = subprocess.run(command, input=b"1 1 4 4 4\nb\n", capture_output=True, timeout=60, check=False)
    assert first.returncode == 0 and first.stderr == b""
    out = first.stdout.decode()
    assert "\x1b[" not in out  # no colour codes in a pipe
    assert out.endswith(
        "Set aside: \nGame saved at turn 2 of 10, 600 banked. Carry on with: farkle-train daily\n"
    )
    status = subprocess.run([*command, "--status"], capture_output=True, timeout=60, check=False)
    assert status.stdout.decode().splitlines()[:2] == [
        "Today's daily game (2026-11-29 UTC): in progress, turn 2 of 10, 600 banked.",
        "Carry on with: farkle-train daily",
    ]


def test_official_then_replay_then_a_past_day(at, farkle_home: Path) -> None:
    code, _, _ = run("--plain", input=feed(SCRIPT))
    assert code == 0
    # Today's game is done: running it again shows the result, not a second official game.
    code, out, _ = run("--plain", input="")
    assert code == 0
    assert out.splitlines()[:2] == [
        "Today's daily game (2026-11-29 UTC): done, 4,550.",
        SHARE,
    ]
    assert out.splitlines()[-1] == "Play it again for practice: farkle-train daily --replay"
    # A replay is practice: its decisions are training, never stats.
    code, out, _ = run("--replay", "--plain", input=feed(SCRIPT))
    assert code == 0
    assert "Farkle daily 2026-11-29, practice: ten turns on the day's dice." in out
    assert out.splitlines()[-3:] == [
        "Practice: recorded as training progress, not in stats.",
        "6 of your decisions, inaccuracies or worse, are now personal positions: farkle-train decide "
        "--mistakes drills them now, and again whenever they are due; farkle-train progress shows what "
        "is due.",
        "Farkle daily 2026-11-29 (practice): 4,550 in 10 turns | . . F . . . H . F F",
    ]
    # A past day is practice too; stopped, it says how to carry on.
    code, out, _ = run("--date", "2026-11-01", "--plain", input=feed(["5 5 5 5", "b", "q"]))
    assert code == 0 and "Farkle daily 2026-11-01, practice" in out
    assert "Carry on with: farkle-train daily --date 2026-11-01" in out
    decisions = sum(1 for answer in SCRIPT if answer in ("b", "r"))
    with store(farkle_home) as s:
        stats = load_stats(s)
        assert stats.games_played == 1 and stats.best is not None and stats.best.score == 4550
        assert [r.date for r in stats.recent] == ["2026-11-29"]
        progress = load_progress(s)
        assert progress.answers == decisions + 1 and progress.sessions == 2 and progress.practice_games == 1
        assert {t.kind for t in progress.topics} == {"daily-practice"}
        official = s.daily_attempt("2026-11-29", official=True)
        replay = s.daily_attempt("2026-11-29", official=False)
        past = s.daily_attempt("2026-11-01", official=False)
        assert official is not None and official.official and official.session_id is None
        assert replay is not None and replay.finished and replay.session_id is not None
        assert past is not None and not past.finished and past.session_id is not None
        assert s.daily_attempt("2026-11-01", official=True) is None
    # Another replay is a new practice game.
    code, out, _ = run("--replay", "--plain", input="q\n")
    assert code == 0 and "Carrying on" not in out
    with store(farkle_home) as s:
        latest = s.daily_attempt("2026-11-29", official=False)
        assert latest is not None and replay is not None and latest.id != replay.id


def test_replay_and_dates_that_are_refused(at) -> None:
    code, out, err = run("--replay", "--plain")
    assert code == 2 and out == ""
    assert err == (
        "Error: today's game has not been played yet, and the first play of the day is the official one: "
        "play it with farkle-train daily\n"
    )
    code, _, err = run("--date", "2026-11-30", "--plain")
    assert (
        code == 2 and err == "Error: the daily game of 2026-11-30 is not out yet: today is 2026-11-29 (UTC)\n"
    )
    code, _, err = run("--date", "30/11/2026", "--plain")
    assert code == 2 and "YYYY-MM-DD" in err
    code, _, err = run("--status", "--replay", "--plain")
    assert code == 2 and "leave out --replay and --date" in err
    run("--plain", input="1 1 4 4 4\n")
    code, _, err = run("--replay", "--plain")
    assert code == 2
    assert (
        err
        == "Error: the official game of 2026-11-29 is not finished: finish it first with farkle-train daily\n"
    )


def test_the_day_changes_at_midnight_utc(at, farkle_home: Path) -> None:
    at(datetime(2026, 11, 29, 23, 59, 30, tzinfo=UTC))
    code, out, _ = run("--plain", input="1 1 4 4 4\nb\n")
    assert code == 0 and "Farkle daily 2026-11-29 (UTC), the official game" in out
    at(datetime(2026, 11, 30, 0, 0, 0, tzinfo=UTC))
    code, out, _ = run("--plain", input="q\n")
    lines = out.splitlines()
    assert lines[0] == (
        "Your official game of 2026-11-29 is unfinished: finish it with farkle-train daily --date 2026-11-29"
    )
    assert (
        lines[1] == "Farkle daily 2026-11-30 (UTC), the official game: ten turns, the same dice for everyone."
    )
    assert "Turn 1 of 10, 0 banked. Roll: a:4 b:6 c:6 d:1 e:3 f:3" in lines
    # Yesterday's official game can still be finished, and stays official.
    code, out, _ = run("--date", "2026-11-29", "--plain", input=feed(SCRIPT[6:]))
    assert code == 0
    assert "Carrying on where you stopped: turn 2 of 10, 600 banked." in out
    assert out.splitlines()[-1] == SHARE
    with Store.open(farkle_home) as s:
        assert load_stats(s, date.fromisoformat("2026-11-30")).games_played == 1
        today = s.daily_attempt("2026-11-30", official=True)
        assert today is not None and not today.finished


def test_status(at) -> None:
    at(datetime(2026, 11, 29, 21, 15, 10, tzinfo=UTC))
    code, out, _ = run("--status", "--plain")
    assert code == 0
    assert out.splitlines() == [
        "Today's daily game (2026-11-29 UTC): not played yet. Play it with: farkle-train daily",
        "Streak: 0 days (longest 0 days).",
        "The next game starts at 00:00 UTC, in 2 h 45 min.",
    ]
    run("--plain", input=feed(SCRIPT))
    code, out, _ = run("--status", "--plain")
    assert out.splitlines() == [
        "Today's daily game (2026-11-29 UTC): done, 4,550.",
        SHARE,
        "Streak: 1 day (longest 1 day).",
        "The next game starts at 00:00 UTC, in 2 h 45 min.",
    ]
    at(datetime(2026, 11, 30, 9, 0, tzinfo=UTC))
    code, out, _ = run("--status", "--plain")
    assert out.splitlines() == [
        "Today's daily game (2026-11-30 UTC): not played yet. Play it with: farkle-train daily",
        "Streak: 1 day (longest 1 day); play today to keep it going.",
        "The next game starts at 00:00 UTC, in 15 h 0 min.",
    ]


def test_other_rules_are_named_and_set_aside(at, farkle_home: Path) -> None:
    code, out, _ = run("--rules", "multiplier", "--plain", input="q\n")
    assert code == 0
    assert out.splitlines()[0] == (
        "Note: --rules multiplier is not used: the daily game is always classic, with no house rules."
    )
    with store(farkle_home) as s:
        attempt = s.daily_attempt("2026-11-29", official=True)
        assert attempt is not None and attempt.rules == "classic"


def test_the_daily_command_is_documented_in_help() -> None:
    result = runner.invoke(app, ["daily", "--help"])
    assert result.exit_code == 0
    for option in ("--replay", "--date", "--restart", "--status", "--plain", "--data-dir"):
        assert option in result.stdout
    # The game is always on classic: --rules, which would change nothing, is not offered.
    assert "--rules" not in result.stdout


def test_data_dir(at, tmp_path: Path) -> None:
    elsewhere = tmp_path / "class"
    code, _, _ = run("--plain", "--data-dir", str(elsewhere), input="1 1 4 4 4\nb\n")
    assert code == 0
    with Store.open(elsewhere) as s:
        attempt = s.daily_attempt("2026-11-29", official=True)
        assert attempt is not None and attempt.state is not None and attempt.state["scores"] == [600]


def test_a_saved_game_that_cannot_be_read(at, farkle_home: Path) -> None:
    with store(farkle_home) as s:
        attempt = next_attempt(s, NOON.date(), NOON.date())
        s.save_daily_state(attempt.id, {"version": 99}, version=attempt.version)
    code, out, err = run("--plain", input="")
    assert code == 1 and out == ""
    assert err == (
        "Error: the official game of 2026-11-29 cannot go on: the saved game cannot be read: saved by "
        "another version of the game (99); it is kept in the store, closed as damaged, and scores "
        "nothing; play the day for practice with farkle-train daily --replay\n"
    )
    with store(farkle_home) as s:
        kept = s.daily_attempt("2026-11-29", official=True)
        assert kept is not None and kept.finished and kept.raw_state == '{"version":99}'


@pytest.mark.parametrize("column", ["state", "turns"])
def test_a_damaged_json_value_is_named_kept_and_counted(at, farkle_home: Path, column: str) -> None:
    with store(farkle_home) as s:
        attempt = next_attempt(s, NOON.date(), NOON.date())
    with sqlite3.connect(farkle_home / "farkle.sqlite3") as db:
        db.execute(f"UPDATE daily_attempts SET {column} = '{{garbage' WHERE id = ?", (attempt.id,))
        db.execute("UPDATE sessions SET params = '{garbage'")
    code, out, err = run("--status", "--plain")
    assert code == 0 and err == ""
    assert out.splitlines()[0].startswith("Today's daily game (2026-11-29 UTC): its saved game is damaged (")
    code, out, err = run("--plain", input="")
    assert code == 1 and out == "" and err.startswith("Error: the official game of 2026-11-29 cannot go on: ")
    assert "kept in the store, closed as damaged" in err and "farkle-train daily --replay" in err
    # The user goes on: the day can be replayed for practice, and the damage is counted.
    code, out, err = run("--replay", "--plain", input="q\n")
    assert code == 0 and "Farkle daily 2026-11-29, practice" in out
    with store(farkle_home) as s:
        kept = s.daily_attempt("2026-11-29", official=True)
        assert kept is not None and kept.finished and kept.damage is not None
        assert getattr(kept, f"raw_{column}") == "{garbage"
        assert load_stats(s, NOON.date()).damaged == 1
    result = runner.invoke(app, ["reset", "stats", "--yes", "--plain"])
    assert result.exit_code == 0 and result.stdout.startswith(
        "Deleted all official results (1 official daily game;"
    )


def clocked_script(tmp_path: Path) -> Path:
    """A farkle-train whose clock reads $FARKLE_TEST_NOW (ISO 8601), to run as a real process."""
    script = tmp_path / "farkle_at.py"
    script.write_text(
        "import os, sys\n"
        "from datetime import datetime\n"
        "import farkle_trainer.cli.daily as daily_cli\n"
        "moment = datetime.fromisoformat(os.environ['FARKLE_TEST_NOW'])\n"
        "daily_cli.clock = lambda: moment\n"
        "from farkle_trainer.cli import main\n"
        "sys.argv = ['farkle-train', *sys.argv[1:]]\n"
        "main()\n"
    )
    return script


def daily_at(script: Path, moment: datetime, lines: list[str]) -> subprocess.CompletedProcess[bytes]:
    env = os.environ | {"FARKLE_TEST_NOW": moment.isoformat()}
    return subprocess.run(
        [sys.executable, str(script), "daily", "--plain"],
        input=feed(lines).encode(),
        capture_output=True,
        timeout=60,
        check=False,
        env=env,
    )


def test_one_official_game_is_played_in_one_terminal_at_a_time(tmp_path: Path, farkle_home: Path) -> None:
    script = clocked_script(tmp_path)
    env = os.environ | {"FARKLE_TEST_NOW": NOON.isoformat()}
    first = subprocess.Popen(
        [sys.executable, str(script), "daily", "--plain"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert first.stdin is not None and first.stderr is not None
    try:
        first.stdin.write(feed(["1 1 4 4 4", "b", "1"]).encode())
        first.stdin.flush()
        read_until(first, "Bank 100 or roll 5 dice? (b/r) ")

        # While the first terminal holds the game, a second is told so and shown no dice.
        second = daily_at(script, NOON, ["b"])
        assert second.returncode == 1
        assert "Roll:" not in second.stdout.decode()
        assert second.stderr.decode() == (
            "Error: this game is open in another terminal: carry on there, "
            "or after 12:10 UTC with farkle-train daily\n"
        )

        # Once the hold has lapsed, another terminal takes the game over and banks.
        later = daily_at(script, NOON.replace(minute=11), ["b"])
        assert later.returncode == 0, later.stderr.decode()
        assert "Carrying on where you stopped: turn 2 of 10, 600 banked." in later.stdout.decode()
        assert "Turn 3 of 10, 700 banked. Roll:" in later.stdout.decode()

        # The first terminal rolls on at the same decision: it sees no new dice and overwrites nothing.
        first.stdin.write(b"r\n")
        first.stdin.close()
        first.wait(timeout=60)
        rest = first.stdout.read().decode() if first.stdout is not None else ""
        assert first.returncode == 1
        assert ROLLS[2] not in rest
        assert first.stderr.read().decode() == (
            "Error: this game was continued in another terminal; run farkle-train daily to see it\n"
        )
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    with store(farkle_home) as s:
        official = s.daily_attempt("2026-11-29", official=True)
        assert official is not None and official.state is not None
        assert official.state["scores"] == [700]


def test_one_clock_reading_decides_the_day(monkeypatch: pytest.MonkeyPatch, farkle_home: Path) -> None:
    readings = iter([datetime(2026, 11, 29, 23, 59, 59, 999000, tzinfo=UTC)])
    after = datetime(2026, 11, 30, 0, 0, 0, 1000, tzinfo=UTC)
    monkeypatch.setattr(daily_cli, "clock", lambda: next(readings, after))
    code, out, _ = run("--plain", input="q\n")
    assert code == 0
    assert out.splitlines()[0].startswith("Farkle daily 2026-11-29 (UTC), the official game")
    with store(farkle_home) as s:
        attempt = s.daily_attempt("2026-11-29", official=True)
        assert attempt is not None and attempt.official


def test_an_official_game_closes_two_days_later_as_it_stands(at, farkle_home: Path) -> None:
    code, _, _ = run("--plain", input="1 1 4 4 4\nb\n1\n")  # 600 banked, 100 at stake
    assert code == 0
    at(datetime(2026, 11, 30, 23, 59, 59, tzinfo=UTC))
    code, out, _ = run("--date", "2026-11-29", "--plain", input="q\n")
    assert "Carrying on where you stopped" in out  # still open the next day
    at(datetime(2026, 12, 7, 9, 0, tzinfo=UTC))
    code, out, _ = run("--date", "2026-11-29", "--plain", input="q\n")
    assert code == 0 and "Farkle daily 2026-11-29, practice" in out
    with store(farkle_home) as s:
        official = s.daily_attempt("2026-11-29", official=True)
        assert official is not None and official.finished and official.score == 600
        assert load_stats(s, date(2026, 12, 7)).games_played == 1
