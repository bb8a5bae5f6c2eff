"""The daily game's library: the dice function, the UTC day, official and practice plays, the share line."""

from __future__ import annotations

import hashlib
import io
import json
from collections import Counter
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from factories import interactive_frontend
from prompt_toolkit.input import PipeInput

from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.db import Store
from farkle_trainer.training.frontend import EndOfInput
from farkle_trainer.training.games import daily, dice, play, tenturns
from farkle_trainer.training.games import match as game
from farkle_trainer.training.games.analysis import review
from farkle_trainer.training.games.daily import DailyError, next_attempt, plan, share_line
from farkle_trainer.training.games.dice import daily_die
from farkle_trainer.training.games.setup import TEN_TURNS
from farkle_trainer.training.progress import load_progress, load_stats
from farkle_trainer.ui.terminal import PlainFrontend
from farkle_trainer.ui.views import daily as view

DAY = date(2026, 11, 29)
NOON = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)

# -- the dice

#: (date, roll, places 1..6): pinned once, so a change in the dice function can never slip through.
PINNED = [
    ("2026-11-29", 1, [4, 1, 4, 3, 1, 4]),
    ("2026-11-29", 2, [6, 4, 1, 2, 3, 2]),
    ("2026-11-29", 37, [2, 2, 4, 2, 2, 1]),
    ("2026-11-01", 1, [5, 3, 3, 5, 5, 5]),
    ("2026-11-01", 2, [4, 5, 2, 6, 3, 1]),
    ("2026-11-01", 37, [2, 1, 1, 5, 6, 1]),
    ("2024-02-29", 1, [2, 5, 6, 5, 2, 3]),
    ("2024-02-29", 2, [5, 1, 3, 6, 3, 5]),
    ("2024-02-29", 37, [6, 2, 2, 6, 3, 3]),
]


def documented_die(day: str, roll: int, place: int) -> int:
    """The formula in the daily module's docstring, written out again from hashlib alone."""
    key = f"{day}:{roll}:{place}"
    suffix = 0
    while True:
        text = key if suffix == 0 else f"{key}:{suffix}"
        for b in hashlib.sha256(text.encode("utf-8")).digest():
            if b < 252:
                return b % 6 + 1
        suffix += 1


@pytest.mark.parametrize(("day", "roll", "faces"), PINNED, ids=[f"{d}:{r}" for d, r, _ in PINNED])
def test_pinned_dice(day: str, roll: int, faces: list[int]) -> None:
    assert [daily_die(date.fromisoformat(day), roll, place) for place in range(1, 7)] == faces
    assert [documented_die(day, roll, place) for place in range(1, 7)] == faces


@pytest.mark.parametrize(
    ("roll", "place", "first_bytes", "face"),
    [(5, 5, [254, 235], 2), (12, 1, [254, 72], 1), (59, 1, [252, 230], 3), (59, 5, [255, 238], 5)],
)
def test_bytes_from_252_up_are_skipped(roll: int, place: int, first_bytes: list[int], face: int) -> None:
    digest = hashlib.sha256(f"2026-11-29:{roll}:{place}".encode()).digest()
    assert list(digest[:2]) == first_bytes
    assert daily_die(DAY, roll, place) == face == first_bytes[1] % 6 + 1


def test_a_digest_of_rejected_bytes_moves_on_to_the_next() -> None:
    assert dice.face_from([bytes([255] * 32), bytes([252, 7])]) == 2
    blocks = dice.digests("2026-11-29:1:1")
    assert next(blocks) == hashlib.sha256(b"2026-11-29:1:1").digest()
    assert next(blocks) == hashlib.sha256(b"2026-11-29:1:1:1").digest()
    assert next(blocks) == hashlib.sha256(b"2026-11-29:1:1:2").digest()
    with pytest.raises(ValueError):
        dice.face_from([bytes([253] * 32)])


def test_every_face_comes_from_the_same_number_of_byte_values() -> None:
    assert Counter(b % 6 + 1 for b in range(dice.BYTE_LIMIT)) == {face: 42 for face in range(1, 7)}


def test_the_dice_are_unbiased() -> None:
    days = [date(2026, 1, 1) + timedelta(days=i) for i in range(100)]
    faces = Counter(
        daily_die(d, roll, place) for d in days for roll in range(1, 101) for place in range(1, 7)
    )
    total = sum(faces.values())
    assert total == 60_000
    # One face's share has a standard deviation of 0.15 percentage points over 60,000 dice.
    for face in range(1, 7):
        assert abs(faces[face] / total - 1 / 6) < 0.006, faces
    chi2 = sum((faces[f] - total / 6) ** 2 / (total / 6) for f in range(1, 7))
    assert chi2 < 20.5  # chi-squared, 5 degrees of freedom, 0.1% level


def test_each_place_is_unbiased_too() -> None:
    days = [date(2025, 6, 1) + timedelta(days=i) for i in range(200)]
    for place in range(1, 7):
        faces = Counter(daily_die(d, roll, place) for d in days for roll in range(1, 31))
        for face in range(1, 7):
            assert abs(faces[face] / 6000 - 1 / 6) < 0.02


def test_a_die_needs_a_roll_and_a_place() -> None:
    for roll, place in [(0, 1), (1, 0), (1, 7)]:
        with pytest.raises(ValueError, match="rolls count from 1"):
            daily_die(DAY, roll, place)


def test_the_source_is_the_die_function() -> None:
    source = dice.daily_source(DAY)
    assert [source(2, p) for p in range(1, 7)] == [6, 4, 1, 2, 3, 2]


# -- the day


def test_the_day_changes_at_midnight_utc() -> None:
    assert daily.utc_date(datetime(2026, 11, 29, 23, 59, 59, tzinfo=UTC)) == date(2026, 11, 29)
    assert daily.utc_date(datetime(2026, 11, 30, 0, 0, 0, tzinfo=UTC)) == date(2026, 11, 30)
    new_york = timezone(timedelta(hours=-5))
    assert daily.utc_date(datetime(2026, 11, 29, 18, 59, tzinfo=new_york)) == date(2026, 11, 29)
    assert daily.utc_date(datetime(2026, 11, 29, 19, 0, tzinfo=new_york)) == date(2026, 11, 30)
    tokyo = timezone(timedelta(hours=9))
    assert daily.utc_date(datetime(2026, 11, 30, 8, 0, tzinfo=tokyo)) == date(2026, 11, 29)
    assert daily.utc_date(datetime(2026, 11, 29, 23, 0)) == date(2026, 11, 29)  # naive is UTC


def test_time_to_the_next_game() -> None:
    assert daily.until_next_game(datetime(2026, 11, 29, 23, 59, tzinfo=UTC)) == timedelta(minutes=1)
    assert daily.until_next_game(datetime(2026, 11, 30, 0, 0, tzinfo=UTC)) == timedelta(days=1)
    tokyo = timezone(timedelta(hours=9))
    assert daily.until_next_game(datetime(2026, 11, 30, 8, 0, tzinfo=tokyo)) == timedelta(hours=1)


@pytest.mark.parametrize("text", ["yesterday", "2026-13-01", "29/11/2026", ""])
def test_bad_dates_are_refused(text: str) -> None:
    with pytest.raises(DailyError, match="YYYY-MM-DD"):
        daily.parse_day(text)
    assert daily.parse_day(" 2026-11-01 ") == date(2026, 11, 1)


# -- which game


def test_plan(tmp_path: Path) -> None:
    with Store.open(tmp_path, clock=lambda: NOON) as store:
        yesterday = DAY - timedelta(days=1)
        assert plan(DAY, DAY, replay=False, official=None) == "play"
        assert plan(yesterday, DAY, replay=False, official=None) == "play"
        assert plan(yesterday, DAY, replay=True, official=None) == "play"
        with pytest.raises(DailyError, match="not out yet"):
            plan(DAY + timedelta(days=1), DAY, replay=False, official=None)
        with pytest.raises(DailyError, match="first play of the day is the official one"):
            plan(DAY, DAY, replay=True, official=None)
        attempt = next_attempt(store, DAY, DAY)
        assert attempt.official
        assert plan(DAY, DAY, replay=False, official=attempt) == "play"
        with pytest.raises(DailyError, match=r"not finished: finish it first with farkle-train daily$"):
            plan(DAY, DAY, replay=True, official=attempt)
        with pytest.raises(DailyError, match="farkle-train daily --date 2026-11-29"):
            plan(DAY, DAY + timedelta(days=1), replay=True, official=attempt)
        assert plan(DAY, DAY + timedelta(days=1), replay=False, official=attempt) == "play"
        store.finish_daily(
            attempt.id, score=100, perfect_score=None, marks="", turns=[], version=attempt.version
        )
        done = store.get_daily(attempt.id)
        assert plan(DAY, DAY, replay=False, official=done) == "done"
        assert plan(DAY, DAY, replay=True, official=done) == "play"
        assert plan(DAY, DAY + timedelta(days=1), replay=False, official=done) == "play"


def test_share_line() -> None:
    marks = ["F", ".", ".", "H", ".", "F", ".", ".", ".", "."]
    assert share_line(DAY, 6350, marks) == "Farkle daily 2026-11-29: 6,350 in 10 turns | F . . H . F . . . ."
    assert share_line("2026-11-01", 0, "F" * 10, official=False) == (
        "Farkle daily 2026-11-01 (practice): 0 in 10 turns | F F F F F F F F F F"
    )


# -- playing an attempt through a front end

#: A whole game of 2026-11-29: the most points from each roll, bank at 300 or more.
SCRIPT = (
    "1 1 4 4 4\nb\n1\nr\n1 5\nr\n5\nb\n1\nr\n1 4 4 4 4\nb\n3 3 3 5\nb\n5\nr\n1\nr\n5 5 5\nb\n"
    "1 1 5\nr\n1 1 1\nb\n5 5\nr\n5 5\nr\n1\nb\n1 5 5\nr\n5\nr\n"
)
SCORE = 4550
MARKS = ". . F . . . H . F F"


def plain(answers: str) -> tuple[PlainFrontend, io.StringIO]:
    out = io.StringIO()
    return PlainFrontend(io.StringIO(answers), out, echo=True), out


def test_an_official_game_goes_to_the_stats(tables: Tables, tmp_path: Path) -> None:
    with Store.open(tmp_path, clock=lambda: NOON) as store:
        attempt = next_attempt(store, DAY, DAY)
        front, out = plain(SCRIPT)
        outcome = daily.run_attempt(tables, front, view, store, attempt, DAY)
        assert outcome.finished and outcome.exit_code == 0 and outcome.state.banked == SCORE
        done = store.get_daily(attempt.id)
        assert done.official and done.finished and done.score == SCORE and done.marks == MARKS
        assert done.perfect_score == tenturns.perfect_play(tables, dice.daily_source(DAY)) == 5600
        assert [t["score"] for t in done.turns or []] == list(outcome.state.turn_scores)
        stats = load_stats(store)
        assert stats.games_played == 1 and stats.played_today and stats.current_streak == 1
        assert load_progress(store).answers == 0  # an official game is never training
    text = out.getvalue()
    assert "Hints are off in the official game." in text
    assert "Recorded as the official result of 2026-11-29. Streak: 1 day." in text
    assert text.endswith(f"Farkle daily 2026-11-29: 4,550 in 10 turns | {MARKS}\n")


def test_a_practice_game_is_training_progress_only(tables: Tables, tmp_path: Path) -> None:
    past = date(2026, 11, 1)
    with Store.open(tmp_path, clock=lambda: NOON) as store:
        attempt = next_attempt(store, past, DAY)
        assert not attempt.official and attempt.session_id is not None
        script = "5 5 5\nh\nb\nq\n"
        front, out = plain(script)
        outcome = daily.run_attempt(tables, front, view, store, attempt, DAY)
        assert not outcome.finished and outcome.exit_code == 0
        progress = load_progress(store)
        assert progress.answers == 1 and progress.decisions == 1
        assert [(t.kind, t.topic) for t in progress.topics] == [("daily-practice", "bank-or-roll")]
        lost = progress.topics[0].average_points_lost
        assert lost is not None and lost > 0  # 5 5 5 when 5 5 5 5 was there
        assert load_stats(store).games_played == 0
    text = out.getvalue()
    assert "Hints are on: type h at a prompt; restart plays the day again from turn 1." in text
    assert (
        "Hint: banking 500 is worth 500.00, rolling 3 dice 475.15 (expected turn score). Best: banking."
        in text
    )
    assert "Carry on with: farkle-train daily --date 2026-11-01" in text


def test_hints_in_practice_and_not_in_the_official_game(tables: Tables, tmp_path: Path) -> None:
    with Store.open(tmp_path, clock=lambda: NOON) as store:
        official = next_attempt(store, DAY, DAY)
        front, out = plain("h\nq\n")
        daily.run_attempt(tables, front, view, store, official, DAY)
        assert "Set aside: h\n  (hints are off in the official game)\nSet aside: q" in out.getvalue()
        practice = next_attempt(store, date(2026, 11, 28), DAY)
        front, out = plain("h\nq\n")
        daily.run_attempt(tables, front, view, store, practice, DAY)
        assert "Set aside: h\nHint: Roll: 2 2 3 5 6 6, 0 points at stake (classic rules)\n" in out.getvalue()


class Interrupting(io.StringIO):
    """Standard input that is interrupted (Ctrl-C) once its lines run out."""

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        line = super().readline()
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_saves_and_the_game_resumes_on_the_same_roll(tables: Tables, tmp_path: Path) -> None:
    lines = SCRIPT.splitlines(keepends=True)
    with Store.open(tmp_path, clock=lambda: NOON) as store:
        attempt = next_attempt(store, DAY, DAY)
        out = io.StringIO()
        front = PlainFrontend(Interrupting("".join(lines[:4])), out, echo=True)
        outcome = daily.run_attempt(tables, front, view, store, attempt, DAY)
        assert not outcome.finished and outcome.exit_code == 130
        assert outcome.state.phase == "pick" and outcome.state.turn == 2 and outcome.state.banked == 600
        assert out.getvalue().endswith(
            "Turn 2 of 10, 600 banked, 100 at stake. Roll: a:4 b:5 c:4 d:1 e:2\nSet aside: \n"
            "Game saved at turn 2 of 10, 600 banked. Carry on with: farkle-train daily\n"
        )
        again = next_attempt(store, DAY, DAY)
        assert again.id == attempt.id and again.state == outcome.state.to_dict()
        front, out = plain("".join(lines[4:]))
        finished = daily.run_attempt(tables, front, view, store, again, DAY)
        assert finished.finished and finished.state.banked == SCORE
    assert out.getvalue().splitlines()[3:5] == [
        "Carrying on where you stopped: turn 2 of 10, 600 banked.",
        "Turn 2 of 10, 600 banked, 100 at stake. Roll: a:4 b:5 c:4 d:1 e:2",
    ]


def test_resuming_between_set_aside_and_bank(tables: Tables, tmp_path: Path) -> None:
    with Store.open(tmp_path, clock=lambda: NOON) as store:
        attempt = next_attempt(store, DAY, DAY)
        daily.run_attempt(tables, plain("1 1 4 4 4\n")[0], view, store, attempt, DAY)
        front, out = plain("b\nq\n")
        daily.run_attempt(tables, front, view, store, next_attempt(store, DAY, DAY), DAY)
    assert out.getvalue().splitlines()[3:7] == [
        "Carrying on where you stopped: turn 1 of 10, 0 banked.",
        "Turn 1 of 10, 0 banked. Roll: a:4 b:1 c:4 d:3 e:1 f:4",
        "Set aside 1 1 4 4 4 for 600 (three 4s 400 + single 1 100 + single 1 100): 600 at stake, 1 die left.",
        "Bank 600 or roll 1 die? (b/r) b",
    ]


def test_status(tables: Tables, tmp_path: Path) -> None:
    late = datetime(2026, 11, 29, 22, 30, tzinfo=UTC)
    with Store.open(tmp_path, clock=lambda: late) as store:
        s = daily.daily_status(store, late)
        assert (
            s.official is None and s.current_streak == 0 and s.next_game_in == timedelta(hours=1, minutes=30)
        )
        attempt = next_attempt(store, DAY, DAY)
        daily.run_attempt(tables, plain("1 1 4 4 4\nb\n")[0], view, store, attempt, DAY)
        s = daily.daily_status(store, late)
        assert s.official_state is not None and s.official_state.turn == 2 and s.share is None
        daily.run_attempt(
            tables, plain(SCRIPT.split("\n", 2)[2])[0], view, store, store.get_daily(attempt.id), DAY
        )
        s = daily.daily_status(store, late)
        assert s.official is not None and s.official.finished and s.played_today and s.current_streak == 1
        assert s.share == f"Farkle daily 2026-11-29: 4,550 in 10 turns | {MARKS}"
        tomorrow = late + timedelta(days=1)
        s = daily.daily_status(store, tomorrow)
        assert s.official is None and s.current_streak == 1 and not s.played_today


def test_the_interactive_front_end_plays_the_same_lines(
    tables: Tables, tmp_path: Path, pipe: PipeInput
) -> None:
    front, out = interactive_frontend(pipe, width=200)
    pipe.send_text("2\r")  # refused: a single 2 does not score, still on the prompt
    pipe.send_text("\x7f1 1 4 4 4\r")
    pipe.send_text("b\r")
    pipe.send_text("\x04")  # Ctrl-D: the game is saved
    with Store.open(tmp_path, clock=lambda: NOON) as store:
        attempt = next_attempt(store, DAY, DAY)
        outcome = daily.run_attempt(tables, front, view, store, attempt, DAY)
        assert outcome.exit_code == 0 and outcome.state.banked == 600 and outcome.state.turn == 2
    text = out.getvalue()
    assert "Turn 1 of 10, 0 banked. Roll: a:4 b:1 c:4 d:3 e:1 f:4" in text
    assert "Banked 600: total 600 after turn 1 of 10." in text
    assert "Turn 2 of 10, 600 banked. Roll: a:6 b:4 c:1 d:2 e:3 f:2" in text
    assert "Carry on with: farkle-train daily" in text


def test_q_stops_the_interactive_front_end_cleanly(tables: Tables, tmp_path: Path, pipe: PipeInput) -> None:
    front, out = interactive_frontend(pipe, width=200)
    # Answers are checked on every key press: "q" and "h" on their way to "quit" and "1 1 4 4 4".
    pipe.send_text("1 1 4 4 4\r")
    pipe.send_text("q\r")
    with Store.open(tmp_path, clock=lambda: NOON) as store:
        outcome = daily.run_attempt(tables, front, view, store, next_attempt(store, DAY, DAY), DAY)
        assert outcome.exit_code == 0 and not outcome.finished and outcome.state.phase == "choose"
    assert out.getvalue().endswith(
        "Game saved at turn 1 of 10, 0 banked. Carry on with: farkle-train daily\n"
    )


class KeyByKey(PlainFrontend):
    """Plain lines, each also checked at every key press, as the interactive front end's validator does.

    That check may only refuse an answer (ValueError); anything else would break the prompt.
    """

    def ask(self, prompt, parse):  # type: ignore[no-untyped-def]
        def checked(text: str):  # type: ignore[no-untyped-def]
            for end in range(1, len(text) + 1):
                try:
                    parse(text[:end])
                except ValueError:
                    pass
                except BaseException as exc:
                    raise AssertionError(f"checking {text[:end]!r} raised {exc!r}") from exc
            return parse(text)

        return super().ask(prompt, checked)


@pytest.mark.parametrize("day", [DAY, date(2026, 11, 28)], ids=["official", "practice"])
def test_answers_are_checked_key_by_key_without_surprises(tables: Tables, tmp_path: Path, day: date) -> None:
    out = io.StringIO()
    answers = "hint\nh\nbank\n2\n5\nh\nroll on\nquit\n"
    front = KeyByKey(io.StringIO(answers), out, echo=True)
    with Store.open(tmp_path, clock=lambda: NOON) as store:
        outcome = daily.run_attempt(tables, front, view, store, next_attempt(store, day, DAY), DAY)
    assert outcome.exit_code == 0 and not outcome.finished
    assert "Game saved at turn 1 of 10" in out.getvalue()


def test_playing_like_the_solver_scores_what_perfect_play_scores(tables: Tables, tmp_path: Path) -> None:
    perfect = tenturns.perfect_game(tables, dice.daily_source(DAY))
    answers = "".join(f"{' '.join(map(str, m.keep))}\n{m.action[0]}\n" for m in perfect.decisions)
    with Store.open(tmp_path, clock=lambda: NOON) as store:
        front, out = plain(answers)
        outcome = daily.run_attempt(tables, front, view, store, next_attempt(store, DAY, DAY), DAY)
    assert outcome.finished and outcome.state.banked == perfect.banked == 5600
    assert outcome.state.log == perfect.log
    lines = out.getvalue().splitlines()
    assert lines[-7:-2] == [
        "Game over: 5,600 in 10 turns.",
        "Perfect play is expected to score 5,935.77 over 10 turns (10 x 593.58, the exact expected "
        "score of a turn).",
        "You scored 5,600, 335.77 below that: your decisions gave up 0.00 expected points, and the luck "
        "of the dice was -335.77 (0 on average).",
        # Playing as perfect play does, the play is perfect play's, whatever the dice gave.
        "Your play this game: 5,935.77 points against perfect play (5,935.77), the score with the luck of "
        "the dice taken out.",
        f"Every one of your {len(perfect.decisions)} decisions was the solver's best play.",
    ]


def test_a_saved_game_that_cannot_be_read_is_reported(tables: Tables, tmp_path: Path) -> None:
    with Store.open(tmp_path, clock=lambda: NOON) as store:
        attempt = next_attempt(store, DAY, DAY)
        store.save_daily_state(attempt.id, {"turn": "three"}, version=attempt.version)
        with pytest.raises(daily.DamagedGame, match="the saved game cannot be read"):
            daily.run_attempt(tables, plain("")[0], view, store, store.get_daily(attempt.id), DAY)
        closed = store.get_daily(attempt.id)
        assert closed.finished and closed.damage is not None and closed.raw_state == '{"turn":"three"}'


def test_a_decision_and_its_saved_state_are_kept_together(tables: Tables) -> None:
    # Turn 1 of 2026-11-29 rolls 4 1 4 3 1 4: keep 1 1 4 4 4 and bank.
    front, _ = plain("1 1 4 4 4\nb\nq\n")
    events: list[str] = []
    depth = [0]

    class Together:
        def __enter__(self) -> None:
            depth[0] += 1

        def __exit__(self, *exc: object) -> None:
            depth[0] -= 1

    def save(state: game.MatchState) -> None:
        events.append(f"save{'-grouped' if depth[0] else ''}")

    def decided(move: game.Move) -> None:
        events.append(f"decided{'-grouped' if depth[0] else ''}")

    with pytest.raises(EndOfInput):
        play.play_game(
            tables,
            front,
            view,
            game.new_match(TEN_TURNS),
            dice.daily_source(DAY),
            hints=True,
            save=save,
            decided=decided,
            together=Together,
        )
    assert events == ["save", "save", "save-grouped", "decided-grouped", "save"]


def test_the_account_splits_a_score_into_play_and_dice(tables: Tables) -> None:
    """Luck is the sum, over every roll, of how far the roll moved the turn's expected score."""
    from farkle_trainer.engine.plays import hint
    from farkle_trainer.engine.solver import Objective

    solution = tables.turn(TEN_TURNS.rules, Objective.expected())
    source = dice.daily_source(DAY)
    state = game.new_match(TEN_TURNS)
    while not state.over:  # keep every scoring die, roll on while 3 or more dice are left
        state = game.roll(state, source)
        while state.phase == "pick":
            keep = max(
                hint(tables, state.roll, state.points, TEN_TURNS.rules).plays, key=lambda p: len(p.keep)
            ).keep
            state = game.set_aside(state, keep)
            state = game.roll_on(state, source) if state.dice >= 3 else game.bank(state)
    reviews = review(tables, state)
    a = tenturns.account(tables, state, reviews)
    luck = 0.0
    for move in state.log:
        before = solution.roll_value(move.points, len(move.roll))
        best = hint(tables, move.roll, move.points, TEN_TURNS.rules).best
        luck += (0.0 if best is None else best.value.best) - before
    assert a.luck == pytest.approx(luck, abs=1e-6)
    assert a.perfect_expected == pytest.approx(10 * solution.roll_value(0, 6))
    assert a.given_up == pytest.approx(sum(r.lost for r in reviews)) and a.given_up > 0
    assert a.score == pytest.approx(a.perfect_expected - a.given_up + a.luck)


def test_an_edited_saved_game_is_rebuilt_from_its_moves(tables: Tables, tmp_path: Path) -> None:
    # A forged "banked" in the saved state changes nothing: the moves are replayed on the day's
    # dice.
    with Store.open(tmp_path) as store:
        attempt = next_attempt(store, DAY, DAY)
        front, _ = plain("1 1 4 4 4\nb\n")
        daily.run_attempt(tables, front, view, store, attempt, DAY)
        saved = store.get_daily(attempt.id)
        assert saved.state is not None
        honest = daily.load_state(saved)
        forged = {**saved.state, "banked": 1_000_000, "scores": [1_000_000]}
        store._db.execute(
            "UPDATE daily_attempts SET state = ? WHERE id = ?", (json.dumps(forged), attempt.id)
        )
        store._db.commit()
        again = daily.load_state(store.get_daily(attempt.id))
        assert again == honest and again.banked < 1_000_000


def test_stats_count_only_results_their_moves_give(tables: Tables, tmp_path: Path) -> None:
    with Store.open(tmp_path) as store:
        attempt = next_attempt(store, DAY, DAY)
        front, _ = plain(SCRIPT)
        outcome = daily.run_attempt(tables, front, view, store, attempt, DAY)
        assert outcome.finished
        stats = daily.official_stats(tables, store, DAY)
        assert stats.games_played == 1 and stats.best is not None
        assert stats.best.score == outcome.state.banked
        store._db.execute("UPDATE daily_attempts SET score = 1000950 WHERE id = ?", (attempt.id,))
        store._db.commit()
        forged = daily.official_stats(tables, store, DAY)
        assert forged.games_played == 0 and forged.damaged == 1
