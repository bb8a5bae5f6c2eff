"""The daily game and whole games, stats kept apart from training, resets, all-or-nothing."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import pytest
from builders import START, Clock, answer, play_official

from farkle_trainer.store.db import Store
from farkle_trainer.store.errors import StaleAttemptError, StoreError
from farkle_trainer.training.games.daily import next_attempt
from farkle_trainer.training.progress import load_progress, load_stats

# -- the daily game, and stats kept apart


def test_a_date_has_at_most_one_official_attempt(store: Store) -> None:
    today = START.date()
    first = store.add_daily_attempt(today.isoformat(), official=True, rules="classic")
    assert first is not None and first.official and first.session_id is None
    assert store.add_daily_attempt(today, official=True, rules="classic") is None
    practice = store.add_daily_attempt(today, official=False, rules="classic")
    assert practice is not None and not practice.official and practice.session_id is not None
    with pytest.raises(StoreError, match="not a date"):
        store.add_daily_attempt("yesterday", official=False, rules="classic")


def test_only_the_first_attempt_at_today_is_official(store: Store) -> None:
    today = START.date()
    yesterday = next_attempt(store, today - timedelta(days=1), today)
    assert not yesterday.official
    first = next_attempt(store, today, today)
    assert first.official
    store.finish_daily(first.id, score=100, perfect_score=None, marks="", turns=[], version=first.version)
    assert not next_attempt(store, today, today).official


def test_next_daily_resumes_then_falls_back_to_practice(store: Store, clock: Clock, tmp_path: Path) -> None:
    today = START.date()
    official = next_attempt(store, today, store.now().date())
    assert official.official
    store.save_daily_state(official.id, {"turn": 3, "roll": [1, 5, 2]}, version=official.version)

    # A new process (the game was killed) resumes the same attempt on the same roll.
    with Store.open(tmp_path / "data", clock=clock) as again:
        resumed = next_attempt(again, today, again.now().date())
    assert resumed.id == official.id and resumed.state == {"turn": 3, "roll": [1, 5, 2]}

    store.finish_daily(
        official.id,
        score=5300,
        perfect_score=5650.0,
        marks="gg",
        turns=[{"t": 1}],
        version=official.version + 1,
    )
    practice = next_attempt(store, today, store.now().date())
    assert not practice.official and practice.session_id is not None
    assert next_attempt(store, today, store.now().date()).id == practice.id
    assert store.daily_attempt(today, official=True).turns == [{"t": 1}]  # type: ignore[union-attr]
    assert store.daily_attempt(today, official=False).id == practice.id  # type: ignore[union-attr]

    past = next_attempt(store, today - timedelta(days=3), store.now().date())
    assert not past.official


def test_a_save_names_the_version_it_read(store: Store, clock: Clock, tmp_path: Path) -> None:
    attempt = next_attempt(store, START.date(), START.date())
    with Store.open(tmp_path / "data", clock=clock) as other:
        newer = other.save_daily_state(attempt.id, {"banked": 450}, version=attempt.version)
    assert newer == attempt.version + 1
    with pytest.raises(StaleAttemptError):
        store.save_daily_state(attempt.id, {"banked": 0}, version=attempt.version)
    assert store.get_daily(attempt.id).state == {"banked": 450}


def test_saved_games_are_written_by_compare_and_set(store: Store, clock: Clock, tmp_path: Path) -> None:
    game = store.add_game({"turn": 0}, kind="match", level="medium", rated=True, rules="classic")
    with Store.open(tmp_path / "data", clock=clock) as other:
        newer = other.save_game(game.id, {"turn": 1}, version=game.version, rated=True)
    assert newer == game.version + 1
    with pytest.raises(StaleAttemptError, match=f"game {game.id} was saved by another terminal"):
        store.save_game(game.id, {"turn": 9}, version=game.version, rated=True)
    assert store.get_game(game.id).state == {"turn": 1}
    store.finish_game(game.id, {"turn": 2}, outcome="won", score=2000, version=newer)
    with pytest.raises(StoreError, match=f"the game {game.id} is already over"):
        store.save_game(game.id, {"turn": 3}, version=newer + 1, rated=True)
    with pytest.raises(StoreError, match="there is no saved game 99"):
        store.save_game(99, {}, version=1, rated=True)


def test_finished_attempts_stay_finished(store: Store) -> None:
    attempt = next_attempt(store, START.date(), store.now().date())
    store.finish_daily(attempt.id, score=100, perfect_score=None, marks="", turns=[], version=attempt.version)
    finished = store.get_daily(attempt.id)
    with pytest.raises(StoreError, match="already finished"):
        store.save_daily_state(attempt.id, {}, version=finished.version)
    with pytest.raises(StaleAttemptError):
        store.finish_daily(
            attempt.id, score=9000, perfect_score=None, marks="", turns=[], version=attempt.version
        )
    with pytest.raises(StoreError, match="no daily attempt 42"):
        store.save_daily_state(42, {}, version=0)


def test_training_never_changes_stats(store: Store, clock: Clock) -> None:
    empty = load_stats(store)
    sid = store.start_session("decide", rules="classic", params={})
    for n in range(30):
        answer(store, sid, "final-round", f"f{n}", n % 2 == 0, lost=5.0)
    for day in (START.date() - timedelta(days=2), START.date() - timedelta(days=1)):
        practice = next_attempt(store, day, store.now().date())
        assert not practice.official
        answer(store, practice.session_id, "bank-or-roll", "p", True, lost=0.0)  # type: ignore[arg-type]
        store.finish_daily(
            practice.id, score=9000, perfect_score=None, marks="", turns=[], version=practice.version
        )
    assert load_stats(store) == empty
    assert empty.games_played == 0 and empty.best is None and empty.histogram == ()

    p = load_progress(store)
    assert p.practice_games == 2
    assert {t.kind for t in p.topics} == {"decide", "daily-practice"}


def test_official_results_never_enter_progress(store: Store, clock: Clock) -> None:
    play_official(store, clock, START.date(), 4000)
    p = load_progress(store)
    assert (p.answers, p.sessions, p.practice_games) == (0, 0, 0)


def test_stats_streaks_best_average_histogram(store: Store, clock: Clock) -> None:
    d = date(2026, 11, 1)
    for offset, score in [(0, 4200), (1, 5100), (2, 5900), (4, 6100), (5, 12_500)]:
        play_official(store, clock, d + timedelta(days=offset), score)
    s = load_stats(store, d + timedelta(days=5))
    assert (s.games_played, s.current_streak, s.longest_streak) == (5, 2, 3)
    assert s.best is not None and (s.best.date, s.best.score) == ("2026-11-06", 12_500)
    assert s.average_score == pytest.approx(6760)
    assert [(b.low, b.high, b.count) for b in s.histogram] == [
        (4000, 4999, 1),
        (5000, 5999, 2),
        (6000, 6999, 1),
        (7000, 7999, 0),
        (8000, 8999, 0),
        (9000, 9999, 0),
        (10_000, None, 1),
    ]
    assert [r.date for r in s.recent][:2] == ["2026-11-06", "2026-11-05"]
    assert s.played_today
    assert load_stats(store, date.fromisoformat("2026-11-07")).current_streak == 2
    later = load_stats(store, date(2026, 11, 8))
    assert later.current_streak == 0 and later.longest_streak == 3 and not later.played_today


def test_reset_removes_one_kind_only(store: Store, clock: Clock) -> None:
    sid = store.start_session("score", rules="classic", params={})
    answer(store, sid, "worth", "w", False)
    practice = next_attempt(store, START.date() - timedelta(days=1), store.now().date())
    play_official(store, clock, START.date(), 5000)

    assert store.reset("progress") == 1
    assert load_progress(store).answers == 0 and store.due_items("score") == []
    assert store.daily_attempt(START.date() - timedelta(days=1), official=False) is None
    assert store.get_daily(practice.id + 1).official
    assert load_stats(store).games_played == 1

    answer(store, store.start_session("score", rules="classic", params={}), "worth", "w", True)
    assert store.reset("stats") == 1
    assert load_stats(store).games_played == 0
    assert load_progress(store).answers == 1
    with pytest.raises(StoreError, match="progress or stats"):
        store.reset("everything")


def test_atomic_keeps_all_or_nothing(store: Store) -> None:
    added = store.add_daily_attempt(START.date(), official=False, rules="classic")
    assert added is not None
    attempt = added.id
    session = added.session_id
    assert session is not None
    with pytest.raises(RuntimeError), store.atomic():
        store.save_daily_state(attempt, {"turn": 2}, version=0)
        answer(store, session, "bank-or-roll", "m1", True)
        raise RuntimeError("killed between the two")
    assert store.get_daily(attempt).state is None
    assert load_progress(store).answers == 0
    with store.atomic():
        store.save_daily_state(attempt, {"turn": 2}, version=0)
        with store.atomic():
            answer(store, session, "bank-or-roll", "m1", True)
    assert store.get_daily(attempt).state == {"turn": 2}
    assert load_progress(store).answers == 1
