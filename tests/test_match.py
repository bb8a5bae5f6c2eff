"""Whole games: setup, transitions, house rules, the final round, solo forms, saved state, dice."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from matches import person, play_out, rolls

from farkle_trainer.engine.rules import PRESETS
from farkle_trainer.engine.seeded import Stream
from farkle_trainer.engine.tables import Tables
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games.dice import NO_SEED, ClassCode, Drawn, Seeded
from farkle_trainer.training.games.setup import (
    Form,
    GameKind,
    Level,
    MatchError,
    Player,
    Setup,
    Unrated,
    is_rated,
    new_setup,
    unrated_because,
)
from farkle_trainer.ui.views.play import farkle_line

ANN, BOB, CAT = Player("Ann"), Player("Bob"), Player("Cat")
HAL = Player("Hal", Level.HARD)
FARKLE6 = [2, 2, 3, 3, 4, 6]


def setup(*players: Player, **kw) -> Setup:
    kw.setdefault("target", 2_000)
    return new_setup(players or (ANN, BOB), **kw)


def test_a_turn_banked_passes_the_dice() -> None:
    state = m.new_match(setup())
    source = rolls([1, 5, 2, 3, 4, 6], [1, 1, 1, 2], [2, 2, 3, 4, 4, 6])
    state = m.roll(state, source)
    assert state.phase == "pick" and state.roll == (1, 5, 2, 3, 4, 6) and state.seat == 0
    state = m.set_aside(state, (5, 1))
    assert state.phase == "choose" and state.points == 150 and state.dice == 4 and state.stake == 0
    state = m.roll_on(state, source)
    state = m.set_aside(state, (1, 1, 1))
    assert state.points == 1_150 and state.stake == 150 and state.dice == 1
    state = m.bank(state)
    assert state.scores == (1_150, 0) and state.seat == 1 and state.turn == 2 and state.turns == (1, 0)
    assert [(x.action, x.points, x.keep, x.scores) for x in state.log] == [
        ("roll", 0, (1, 5), (0, 0)),
        ("bank", 150, (1, 1, 1), (0, 0)),
    ]
    state = m.roll(state, source)  # Bob's Farkle: back to Ann
    assert state.seat == 0 and state.scores == (1_150, 0) and state.log[-1].action == "farkle"
    assert state.farkles == (0, 1)


def test_hot_dice_roll_six_again() -> None:
    state = m.roll(m.new_match(setup()), rolls([1, 1, 1, 5, 5, 5]))
    state = m.set_aside(state, (1, 1, 1, 5, 5, 5))
    assert state.dice == 6 and state.points == 2_500  # two triplets


def test_moves_out_of_turn_and_bad_picks_are_refused() -> None:
    state = m.new_match(setup())
    for move in (lambda s: m.bank(s), lambda s: m.set_aside(s, (1,)), lambda s: m.roll_on(s, rolls())):
        with pytest.raises(MatchError, match="waits to roll"):
            move(state)
    state = m.roll(state, rolls([1, 5, 2, 3, 4, 6]))
    with pytest.raises(MatchError, match="not all in the roll"):
        m.set_aside(state, (1, 1))
    with pytest.raises(MatchError, match="2"):
        m.set_aside(state, (1, 2))
    with pytest.raises(MatchError, match="at least one"):
        m.set_aside(state, ())


def test_opening_minimum() -> None:
    source = rolls([1, 5, 2, 3, 4, 6], [1, 2, 3, 4], [5, 5, 5, 2, 3, 4], [1, 2, 3, 4, 6, 6])
    state = m.new_match(setup(opening=500))
    state = m.set_aside(m.roll(state, source), (1, 5))
    assert not state.can_bank
    with pytest.raises(MatchError, match="opening minimum of 500"):
        m.bank(state)
    state = m.set_aside(m.roll_on(state, source), (1,))
    assert state.points == 250 and not state.can_bank
    state = m.bank(replace(state, points=500))
    assert state.scores == (500, 0)
    # Once opened, any total may be banked.
    state = m.set_aside(m.roll(state, source), (5, 5, 5))
    state = m.bank(m.set_aside(m.roll(replace(state, seat=0, points=0, kept=(), roll=()), source), (1,)))
    assert state.scores[0] == 600


def test_three_farkles_in_a_row_cost_the_penalty_never_below_zero() -> None:
    source = rolls(*[FARKLE6] * 20)
    state = m.new_match(setup(penalty=500))
    state = replace(state, scores=(700, 300))
    for _ in range(2):
        state = m.roll(m.roll(state, source), source)
    assert state.scores == (700, 300) and state.farkles == (2, 2)
    state = m.roll(state, source)
    assert state.scores == (200, 300) and state.farkles == (0, 2)
    state = m.roll(state, source)
    assert state.scores == (200, 0) and state.farkles == (0, 0)  # 300 - 500 stops at 0
    assert [x.farkles for x in state.log] == [0, 0, 1, 1, 2, 2]


def test_banking_ends_a_run_of_farkles() -> None:
    source = rolls(FARKLE6, FARKLE6, [1, 2, 3, 4, 6, 6], FARKLE6, FARKLE6)
    state = m.new_match(setup(penalty=1_000))
    state = m.roll(m.roll(state, source), source)
    state = m.bank(m.set_aside(m.roll(state, source), (1,)))
    assert state.farkles == (0, 1)
    state = m.roll(m.roll(state, source), source)
    assert state.farkles == (1, 2)


def test_without_the_penalty_a_third_farkle_costs_nothing() -> None:
    state = replace(m.new_match(setup()), scores=(700, 300))
    for _ in range(6):
        state = m.roll(state, rolls(*[FARKLE6] * 20))
        state = replace(state, rolls=0)
    assert state.scores == (700, 300)


def _bank_turn(state: m.MatchState, points: int) -> m.MatchState:
    """The player to act keeps a 1 and banks ``points`` (a stand-in for a whole turn)."""
    state = m.set_aside(m.roll(state, lambda r, p: (1, 2, 3, 4, 6, 6)[p - 1]), (1,))
    return m.bank(replace(state, points=points))


def _farkle_turn(state: m.MatchState) -> m.MatchState:
    return m.roll(state, lambda r, p: FARKLE6[p - 1])


def test_final_round_every_other_player_gets_exactly_one_last_turn() -> None:
    state = m.new_match(setup(ANN, BOB, CAT))
    state = _bank_turn(state, 500)  # Ann
    state = _bank_turn(state, 2_100)  # Bob reaches the target: the final round starts
    assert state.closer == 1 and state.seat == 2 and state.last_turn and not state.over
    state = _bank_turn(state, 2_200)  # Cat passes Bob in her last turn
    assert not state.over and state.seat == 0 and state.closer == 1
    state = _farkle_turn(state)  # Ann's last turn; Bob does not play again
    assert state.over and state.scores == (500, 2_100, 2_200) and state.turns == (2, 1, 1)
    assert state.winners() == (2,) and state.result(2) == 1.0 and state.result(1) == 0.0
    assert [x.last_turn for x in state.log] == [False, False, True, True]
    with pytest.raises(MatchError, match="over"):
        m.roll(state, rolls(FARKLE6))


def test_a_farkle_in_a_last_turn_just_ends_the_game_without_the_penalty() -> None:
    state = m.new_match(setup(ANN, BOB, CAT, penalty=500))
    for banked in (500, 300, 800):
        state = _bank_turn(state, banked)
    for _ in range(6):  # two Farkles in a row each
        state = _farkle_turn(state)
    assert state.farkles == (2, 2, 2)
    state = _bank_turn(state, 2_100)  # Ann reaches the target: Bob and Cat have a last turn each
    before = state
    state = _farkle_turn(state)
    assert state.scores == (2_600, 300, 800) and state.seat == 2
    line = farkle_line(state.log[-1], state)
    said = "in a last turn a third Farkle in a row just ends the game, with no penalty"
    assert line.endswith(f"; {said}. Bob 300.")
    state = _farkle_turn(state)
    assert state.over and state.scores == (2_600, 300, 800)
    assert [x.farkles for x in state.log[-2:]] == [2, 2] and all(x.last_turn for x in state.log[-2:])
    # Before the final round the same third Farkle costs the penalty.
    earlier = _farkle_turn(replace(before, closer=None))
    assert earlier.scores == (2_600, 0, 800)
    assert "a third Farkle in a row costs 300. Bob 0." in farkle_line(earlier.log[-1], earlier)


def test_equal_top_scores_share_the_win() -> None:
    state = _bank_turn(m.new_match(setup()), 2_000)
    assert state.seat == 1 and state.last_turn
    state = _bank_turn(state, 2_000)
    assert state.over and state.winners() == (0, 1) and state.result(0) == state.result(1) == 0.5


def test_the_second_player_can_close_the_game() -> None:
    state = _bank_turn(m.new_match(setup()), 300)
    state = _bank_turn(state, 2_500)
    assert state.seat == 0 and state.last_turn and not state.over
    state = _bank_turn(state, 2_150)
    assert state.over and state.scores == (2_450, 2_500) and state.winners() == (1,)


def test_solo_ten_turns() -> None:
    state = m.new_match(new_setup((ANN,), form=Form.TEN_TURNS))
    for turn in range(1, 11):
        assert not state.over and state.seat == 0
        state = _farkle_turn(state) if turn % 2 else _bank_turn(state, 5_000)
    assert state.over and state.scores == (25_000,) and state.turns == (10,) and state.winners() == (0,)


def test_solo_fewest_turns_counts_farkles() -> None:
    state = m.new_match(new_setup((ANN,), form=Form.FEWEST_TURNS, target=1_000))
    state = _farkle_turn(state)
    state = _bank_turn(state, 600)
    assert not state.over
    state = _bank_turn(state, 400)
    assert state.over and state.turns == (3,) and state.scores == (1_000,)


@pytest.mark.parametrize(
    ("players", "kw", "message"),
    [
        ((ANN,), {}, "2 to 4 players"),
        ((ANN, BOB, CAT, Player("Dan"), Player("Eve")), {}, "2 to 4 players"),
        ((ANN, BOB), {"form": Form.TEN_TURNS}, "exactly one player"),
        ((Player("Hal", Level.EASY),), {"form": Form.FEWEST_TURNS}, "a person"),
        ((ANN, Player("ann")), {}, "share a name"),
        ((ANN, Player(" Bob")), {}, "name"),
        ((ANN, Player("Bo\x1b[41mb")), {}, r"cannot contain control characters.*'Bo\\x1b\[41mb'"),
        ((ANN, Player("Bo\tb")), {}, "control characters"),
        ((ANN, Player("Bo\rb")), {}, "control characters"),
        ((ANN, Player("Bo\u202eb")), {}, "control characters"),
        ((ANN, Player("Bo\u2028b")), {}, "control characters"),
        ((ANN, Player("Bo\x85b")), {}, "control characters"),
        ((ANN, Player("B" * 21)), {}, "at most 20 characters, not 21"),
        ((ANN, BOB), {"target": 950}, "target"),
        ((ANN, BOB), {"target": 20_050}, "target"),
        ((ANN, BOB), {"target": 2_020}, "target"),
        ((ANN, BOB), {"opening": 2_050}, "opening"),
        ((ANN, BOB), {"opening": 75}, "opening"),
        ((ANN, BOB), {"penalty": 250}, "penalty"),
    ],
)
def test_setups_that_are_refused(players, kw, message) -> None:
    kw.setdefault("target", 2_000)
    with pytest.raises(MatchError, match=message):
        new_setup(players, **kw)


def test_a_name_of_twenty_characters_is_fine() -> None:
    name = "Ana María-José Ñuñez"
    assert len(name) == 20
    assert new_setup((ANN, Player(name))).players[1].name == name
    assert new_setup((ANN, Player("Zoë\u00a0Li 李"))).players[1].name == "Zoë\u00a0Li 李"


def test_house_rules_in_the_setup() -> None:
    s = new_setup((ANN, BOB), PRESETS["multiplier"], target=5_000, opening=350, penalty=1_000)
    assert (s.target, s.opening, s.penalty, s.rules.name) == (5_000, 350, 1_000, "multiplier")
    assert new_setup((ANN, BOB)).target == 10_000


@pytest.mark.parametrize(
    ("players", "form", "kind"),
    [
        ((ANN,), Form.TEN_TURNS, GameKind.SOLO),
        ((ANN,), Form.FEWEST_TURNS, GameKind.SOLO),
        ((ANN, Player("Hal", Level.HARD)), Form.MATCH, GameKind.COMPUTER),
        ((Player("Hal", Level.EASY), ANN, Player("Med", Level.MEDIUM)), Form.MATCH, GameKind.COMPUTER),
        ((ANN, BOB), Form.MATCH, GameKind.PASS_AND_PLAY),
        ((ANN, BOB, Player("Hal", Level.EASY)), Form.MATCH, GameKind.PASS_AND_PLAY),
        ((Player("Hal", Level.EASY), Player("Med", Level.MEDIUM)), Form.MATCH, GameKind.COMPUTERS),
    ],
)
def test_rated_only_against_the_computer_without_coach_or_hint(players, form, kind) -> None:
    for coached in (False, True):
        s = new_setup(players, form=form, coached=coached)
        assert s.kind == kind
        for hinted in (False, True):
            # One person against one computer: a game against two or three is training.
            expected = kind == GameKind.COMPUTER and len(players) == 2 and not coached and not hinted
            assert is_rated(s, hinted=hinted) is expected


def test_each_form_says_what_ends_it_and_who_plays() -> None:
    # (solo, turns that end it, played for turns): ten turns, the target alone, a race of 2 to 4.
    assert [(f.solo, f.turn_limit, f.for_turns) for f in Form] == [
        (False, None, False),
        (True, 10, False),
        (True, None, True),
    ]
    ten, fewest = Form.TEN_TURNS, Form.FEWEST_TURNS
    assert not ten.over_alone(9, 20_000, 2_000) and ten.over_alone(10, 0, 2_000)
    assert not fewest.over_alone(30, 1_950, 2_000) and fewest.over_alone(1, 2_000, 2_000)


@pytest.mark.parametrize(
    ("players", "form", "coached", "dice", "rules", "hinted", "why"),
    [
        ((ANN,), Form.TEN_TURNS, True, NO_SEED, PRESETS["classic"], True, Unrated.SOLO),
        ((ANN, BOB), Form.MATCH, True, NO_SEED, PRESETS["classic"], True, Unrated.PASS_AND_PLAY),
        ((HAL, Player("Med", Level.MEDIUM)), Form.MATCH, True, NO_SEED, None, True, Unrated.COMPUTERS_ONLY),
        (
            (ANN, HAL, Player("Eve", Level.EASY)),
            Form.MATCH,
            True,
            NO_SEED,
            None,
            True,
            Unrated.SEVERAL_COMPUTERS,
        ),
        ((ANN, HAL), Form.MATCH, True, Seeded("3", chosen=True), None, True, Unrated.COACHED),
        ((ANN, HAL), Form.MATCH, False, Seeded("3", chosen=True), None, True, Unrated.KNOWN_DICE),
        ((ANN, HAL), Form.MATCH, False, ClassCode("MATH7B"), None, True, Unrated.KNOWN_DICE),
        (
            (ANN, HAL),
            Form.MATCH,
            False,
            NO_SEED,
            PRESETS["classic"].with_house_rules(target=1_000),
            True,
            Unrated.OFF_RULES,
        ),
        ((ANN, HAL), Form.MATCH, False, Drawn(), None, True, Unrated.HINTED),
        ((ANN, HAL), Form.MATCH, False, Drawn(), None, False, None),
    ],
)
def test_a_training_game_says_the_first_rule_it_misses(
    players, form, coached, dice, rules, hinted, why
) -> None:
    s = Setup(players, rules or PRESETS["classic"], form, coached, dice)
    assert unrated_because(s, hinted=hinted) is why
    assert is_rated(s, hinted=hinted) is (why is None)


def test_asking_for_a_hint_makes_the_game_training() -> None:
    s = new_setup((ANN, Player("Hal", Level.MEDIUM)))
    state = m.new_match(s)
    assert state.rated
    state = m.ask_hint(state)
    assert not state.rated and state.hints == 1
    assert not m.MatchState.from_dict(state.to_dict()).rated
    with pytest.raises(MatchError, match="hints"):
        m.ask_hint(replace(state, seat=1))


def test_a_seed_reproduces_a_game_and_every_state_saves_and_loads(tables: Tables) -> None:
    players = (ANN, Player("Med", Level.MEDIUM), Player("Eve", Level.EASY))
    s = new_setup(players, target=2_000, opening=350, penalty=500, dice=Seeded("abc"))
    saved: list[m.MatchState] = []
    one = play_out(tables, m.new_match(s), s.source(), person(Stream("p")), saved=saved)
    two = play_out(tables, m.new_match(s), s.source(), person(Stream("p")))
    assert one == two and one.over and len(saved) > 10
    other = new_setup(players, target=2_000, opening=350, penalty=500, dice=Seeded("abd"))
    three = play_out(tables, m.new_match(other), other.source(), person(Stream("p")))
    assert [x.roll for x in three.log] != [x.roll for x in one.log]
    # Any saved state resumes to the same end.
    middle = m.MatchState.from_dict(json.loads(json.dumps(saved[len(saved) // 2].to_dict())))
    assert play_out(tables, middle, s.source(), person(Stream("q"))).over


def test_the_dice_follow_the_roll_number_not_the_player() -> None:
    s = setup(dice=Seeded("x"))
    source = s.source()
    state = m.roll(m.new_match(s), source)
    assert state.roll == tuple(source(1, place) for place in range(1, 7))


def test_saved_games_that_cannot_be_read() -> None:
    s = new_setup((ANN, Player("Hal", Level.HARD)), target=2_000, opening=500, dice=Seeded("z"))
    state = m.set_aside(m.roll(m.new_match(s), rolls([1, 5, 2, 3, 4, 6])), (1,))
    data = state.to_dict()
    assert m.MatchState.from_dict(json.loads(json.dumps(data))) == state
    assert m.MatchState.from_dict(data).setup.players[1].level == Level.HARD
    hal = data["setup"]["players"][1]
    broken = [
        {**data, "version": 2},
        {k: v for k, v in data.items() if k != "scores"},
        {**data, "scores": [0]},
        {**data, "seat": 5},
        {**data, "turn": 4},
        {**data, "finished": "no"},
        {**data, "roll": [1, 7]},
        {**data, "kept": [6]},
        {**data, "setup": {**data["setup"], "form": "chess"}},
        {**data, "setup": {**data["setup"], "rules": {"name": "classic"}}},
        {**data, "setup": {**data["setup"], "players": [{"name": "Ann", "level": "god"}]}},
        {**data, "setup": {**data["setup"], "coached": "yes"}},
        {**data, "setup": {**data["setup"], "players": [{"name": "Ann\x1b[2J", "level": None}, hal]}},
        {**data, "setup": {**data["setup"], "players": [{"name": "A" * 500, "level": None}, hal]}},
        {**data, "log": [{"action": "dance"}]},
    ]
    for bad in broken:
        with pytest.raises(MatchError, match="saved game cannot be read"):
            m.MatchState.from_dict(bad)


def test_a_rule_made_after_saved_games_is_saved_only_where_it_is_on(monkeypatch: pytest.MonkeyPatch) -> None:
    from farkle_trainer.training.games import setup as game_setup

    plain = new_setup((ANN, BOB), PRESETS["classic"], target=2000)
    harder = new_setup((ANN, BOB), PRESETS["classic"], target=2000, penalty=500)
    first = json.loads(json.dumps(m.new_match(plain).to_dict()))
    assert set(first["setup"]["rules"]) == game_setup._FIRST_FIELDS
    # As if the three-Farkle penalty had been made after saved games were first written.
    monkeypatch.setattr(game_setup, "_FIRST_FIELDS", game_setup._FIRST_FIELDS - {"three_farkle_penalty"})
    without = json.loads(json.dumps(m.new_match(plain).to_dict()))
    assert "three_farkle_penalty" not in without["setup"]["rules"]
    assert m.MatchState.from_dict(without).setup.penalty == 0
    kept = json.loads(json.dumps(m.new_match(harder).to_dict()))
    assert kept["setup"]["rules"]["three_farkle_penalty"] == 500
    assert m.MatchState.from_dict(kept).setup.penalty == 500
    # A field saved games have always had is every saved game's, and a field no table has is none's.
    broken = json.loads(json.dumps(first))
    del broken["setup"]["rules"]["straight"]
    unknown = json.loads(json.dumps(first))
    unknown["setup"]["rules"]["house_rule_to_come"] = 300
    for data in (broken, unknown):
        with pytest.raises(MatchError, match="do not have the fields of a rule table"):
            m.MatchState.from_dict(data)
