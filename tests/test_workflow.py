"""The game workflow driven from Python, as ``play`` drives it: a front end, the views and a store."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from plays import greedy_script

from farkle_trainer.engine.rules import PRESETS
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.db import Store
from farkle_trainer.training.games.dice import Seeded
from farkle_trainer.training.games.gamefile import read_game_file
from farkle_trainer.training.games.setup import Level, seats
from farkle_trainer.training.games.workflow import NothingToResume, Sitting, new_game
from farkle_trainer.ui.terminal import PlainFrontend
from farkle_trainer.ui.views import play as view
from farkle_trainer.ui.views import review

AGAINST_EASY = seats(["You", Level.EASY])
TO_1000 = PRESETS["classic"].with_house_rules(target=1000)


def sitting(tables: Tables, store: Store, lines: list[str], **kw: object) -> tuple[Sitting, io.StringIO]:
    out = io.StringIO()
    front = PlainFrontend(io.StringIO("".join(f"{line}\n" for line in lines)), out, echo=True)
    return Sitting(front, view, review, store, tables, **kw), out  # type: ignore[arg-type]


def test_a_game_is_played_kept_written_and_played_again(tables: Tables, tmp_path: Path) -> None:
    game = new_game(AGAINST_EASY, TO_1000, dice=Seeded("3", chosen=True))
    first, final = greedy_script(tables, game.setup)
    second, again = greedy_script(tables, game.setup.again())
    with Store.open(tmp_path / "home") as store:
        played, out = sitting(tables, store, [*first, "y", *second, "n"], save=tmp_path / "game.json")
        played.play(game)
        newer, older = store.games()
    shown = out.getvalue()
    assert shown.startswith("Farkle to 1,000: You and Easy (computer) (classic table).\n")
    assert "Game over: You win. Scores: You 1,450, Easy 650." in shown
    assert "Play again? (the other player starts) (y/N) y\nFarkle to 1,000: Easy (computer) and You" in shown
    assert older.finished and older.outcome == "over" and newer.finished
    assert read_game_file(tables, tmp_path / "game.json").state == final
    assert read_game_file(tables, tmp_path / "game-2.json").state == again


def test_carrying_on_with_no_unfinished_game_says_so(tables: Tables, tmp_path: Path) -> None:
    with Store.open(tmp_path / "home") as store:
        played, out = sitting(tables, store, [])
        with pytest.raises(NothingToResume, match="there is no unfinished game to carry on"):
            played.play(None)
    assert out.getvalue() == ""


def test_a_new_game_replacing_an_unfinished_rated_one_counts_it_resigned(
    tables: Tables, tmp_path: Path
) -> None:
    rated = new_game(seats(["You", Level.EASY]), PRESETS["classic"].with_house_rules(target=2000))
    assert rated.setup.dice.known_in_advance is False and rated.setup.kind.one_person
    with Store.open(tmp_path / "home") as store:
        sitting(tables, store, ["q"])[0].play(rated)
        played, out = sitting(tables, store, ["n", "q"])
        played.play(new_game(AGAINST_EASY, TO_1000, dice=Seeded("3", chosen=True)))
        newer, older = store.games()
        assert older.rated and older.outcome == "resigned" and newer.finished_at is None
    assert "The unfinished rated game 1 counts as resigned." in out.getvalue()
