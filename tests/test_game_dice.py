"""Where a game's dice come from: one value of four kinds, each checked as it is made, saved in the
layout every version has read."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from farkle_trainer.engine.rules import PRESETS
from farkle_trainer.engine.seeded import MAX_SEED, Stream
from farkle_trainer.training.classroom.codes import code_stream
from farkle_trainer.training.games import dice as game_dice
from farkle_trainer.training.games.dice import (
    ClassCode,
    Day,
    Dice,
    Drawn,
    Seeded,
    daily_die,
    dice_from_data,
)
from farkle_trainer.training.games.setup import Level, MatchError, Player, Setup, is_rated

AGAINST_HARD = (Player("You"), Player("Hard", Level.HARD))
TO_2000 = PRESETS["classic"].with_house_rules(target=2_000)


def setup_on(dice: Dice) -> Setup:
    return Setup(AGAINST_HARD, TO_2000, dice=dice)


#: Each kind of dice, and the part of a saved setup that says so, written out as the files of
#: earlier versions have it.
SAVED: list[tuple[Dice, dict[str, Any]]] = [
    (Seeded("a1b2c3d4"), {"seed": "a1b2c3d4", "code": "", "chosen_seed": False}),
    (Seeded("42", chosen=True), {"seed": "42", "code": "", "chosen_seed": True}),
    (ClassCode("MATH7B"), {"seed": "", "code": "MATH7B", "chosen_seed": False}),
    (
        ClassCode("MATH7B", "challenge"),
        {"seed": "", "code": "MATH7B", "chosen_seed": False, "activity": "challenge"},
    ),
    (Day(date(2026, 11, 29)), {"seed": "", "code": "", "chosen_seed": False, "day": "2026-11-29"}),
    (Drawn(), {"seed": "", "code": "", "chosen_seed": False, "drawn": True}),
]


@pytest.mark.parametrize(("dice", "saved"), SAVED, ids=[repr(d) for d, _ in SAVED])
def test_each_kind_is_saved_as_before_and_read_back(dice: Dice, saved: dict[str, Any]) -> None:
    data = setup_on(dice).to_dict()
    assert {k: v for k, v in data.items() if k not in ("players", "rules", "form", "coached")} == saved
    assert list(data)[:7] == ["players", "rules", "form", "coached", "seed", "code", "chosen_seed"]
    assert Setup.from_dict(data) == setup_on(dice)


def test_games_saved_before_class_codes_chosen_seeds_or_drawn_dice_read_as_seeded() -> None:
    data = setup_on(Seeded("abc")).to_dict()
    for key in ("code", "chosen_seed"):
        del data[key]
    assert Setup.from_dict(data).dice == Seeded("abc")


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"seed": "3", "drawn": True}, "drawn as they are rolled has no seed"),
        ({"code": "MATH7B", "drawn": True}, "drawn as they are rolled has no seed"),
        ({"seed": "3", "code": "MATH7B"}, "a game's dice come from one place"),
        ({"day": "2026-11-29", "code": "MATH7B"}, "a game's dice come from one place"),
        ({"day": "2026-11-29", "seed": "3"}, "a game's dice come from one place"),
        ({"chosen_seed": True, "code": "MATH7B"}, "a game's dice come from one place"),
        ({"activity": "challenge"}, "only a class code's dice are for a challenge"),
        ({"code": "MATH7B", "activity": "quiz"}, "for play or a challenge, not 'quiz'"),
        ({"code": "math7b"}, "the class code must be written as MATH7B"),
        ({"seed": "abc", "chosen_seed": True}, "a chosen seed is a whole number"),
        ({"seed": str(MAX_SEED + 1), "chosen_seed": True}, "a chosen seed is a whole number"),
        ({"seed": "x" * 65}, "the seed must be text of at most 64 characters"),
        ({"seed": 3}, "the seed must be text"),
        ({"code": 7}, "the class code must be text"),
        ({"drawn": "yes"}, "drawn must be true or false"),
        ({"chosen_seed": 1}, "chosen_seed must be true or false"),
        ({"day": 20261129}, "the day must be a date"),
    ],
)
def test_dice_from_two_places_or_of_the_wrong_kind_are_refused(changes: dict[str, Any], message: str) -> None:
    data = {"seed": "", "code": "", "chosen_seed": False, **changes}
    with pytest.raises(MatchError, match=message):
        dice_from_data(data)


def test_each_kind_is_checked_as_it_is_made() -> None:
    with pytest.raises(MatchError, match="a chosen seed is a whole number"):
        Seeded("-1", chosen=True)
    with pytest.raises(MatchError, match="the class code must be written as MATH7B"):
        ClassCode("math-7b")
    with pytest.raises(MatchError, match="for play or a challenge"):
        ClassCode("MATH7B", "score")  # type: ignore[arg-type]
    with pytest.raises(MatchError, match="the day must be a date"):
        Day("2026-11-29")  # type: ignore[arg-type]
    with pytest.raises(MatchError, match="a game's dice come from"):
        setup_on("3")  # type: ignore[arg-type]
    assert Seeded(str(MAX_SEED), chosen=True).seed == str(MAX_SEED)


def test_each_kind_deals_its_own_dice() -> None:
    def first_roll(dice: Dice) -> list[int]:
        source = dice.source()
        return [source(1, place) for place in range(1, 7)]

    def stream_roll(stream: Stream) -> list[int]:
        return [stream.child(f"1:{place}").randint(1, 6) for place in range(1, 7)]

    assert first_roll(Seeded("3")) == stream_roll(Stream("match:3"))
    assert first_roll(Seeded("3", chosen=True)) == first_roll(Seeded("3"))
    assert first_roll(ClassCode("MATH7B")) == stream_roll(code_stream("MATH7B", "play"))
    assert first_roll(ClassCode("MATH7B", "challenge")) == stream_roll(code_stream("MATH7B", "challenge"))
    assert first_roll(Day(date(2026, 11, 29))) == [daily_die(date(2026, 11, 29), 1, p) for p in range(1, 7)]
    assert first_roll(Day(date(2026, 11, 29))) == [4, 1, 4, 3, 1, 4]  # the module's worked example


def test_only_dice_nobody_can_know_in_advance_leave_a_game_rated() -> None:
    rated = {kind: is_rated(setup_on(kind), hinted=False) for kind, _ in SAVED}
    assert rated == {
        Seeded("a1b2c3d4"): True,
        Seeded("42", chosen=True): False,
        ClassCode("MATH7B"): False,
        ClassCode("MATH7B", "challenge"): False,
        Day(date(2026, 11, 29)): False,
        Drawn(): True,
    }


def test_a_game_played_again_is_dealt_new_dice_only_where_the_program_drew_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(game_dice.secrets, "token_hex", lambda n: "0f1e2d3c")
    assert Seeded("a1b2c3d4").again() == Seeded("0f1e2d3c")
    for same in (Seeded("42", chosen=True), ClassCode("MATH7B"), Day(date(2026, 11, 29)), Drawn()):
        assert same.again() == same
    again = setup_on(Seeded("42", chosen=True)).again()
    assert again.players == (AGAINST_HARD[1], AGAINST_HARD[0]) and again.dice == Seeded("42", chosen=True)
