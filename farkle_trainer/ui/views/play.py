"""How a whole game reads: every line ``play`` prints while it is played, plain text first.

The game is text line by line in both front ends (a screen reader, a pipe and a terminal get
the same words); a terminal adds styles to whole lines and lays a hint out for its width.
Rolls show each die with the letter of its place (``a:5 b:2 c:1``). What follows the game,
its analysis and chart, is :mod:`farkle_trainer.ui.views.review`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from farkle_trainer.engine.dice import counts_of
from farkle_trainer.engine.farkles import FARKLES_FOR_PENALTY
from farkle_trainer.engine.grading import Unit, gives_up_text
from farkle_trainer.engine.notation import dice_count, dice_text, labelled_roll, move_words, percent, plural
from farkle_trainer.engine.notation import points as pts
from farkle_trainer.engine.rules import PRESETS, Rules
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.solver import STEP
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games.dice import ClassCode, Day, Dice
from farkle_trainer.training.games.setup import (
    RATED_OPENINGS,
    RATED_TARGETS,
    SOLO_TURNS,
    Form,
    OffRules,
    Player,
    Setup,
    Unrated,
    off_rules,
    unrated_because,
)
from farkle_trainer.training.games.workflow import RESUME_COMMAND
from farkle_trainer.ui.views.fit import fit

# The game's analysis, its computers and its hints load the solvers: a game that must be solved
# says so before they load (see farkle_trainer.training.games.workflow).
if TYPE_CHECKING:
    from rich.console import RenderableType

    from farkle_trainer.store.rows import GameRow
    from farkle_trainer.training.games.analysis import Review
    from farkle_trainer.training.games.computers import Choice
    from farkle_trainer.training.games.play import Position

SET_ASIDE_PROMPT = "Set aside:"
#: The header offers u to change a set-aside: at the set-aside prompt there is none yet.
NOTHING_SET_ASIDE: str | None = (
    "nothing is set aside yet, so there is nothing to change: set dice aside by face (1 5) or by place (a e)"
)
_HOW_TO_SET_ASIDE = (
    "Set dice aside by face (1 5) or by place (a e), then b to bank or r to roll on "
    "(u or other dice change the set-aside until then); "
)
HOW_TO_PLAY = f"{_HOW_TO_SET_ASIDE}h asks the coach, resign gives up, q stops and saves the game."
#: A rated game has no coach.
HOW_TO_PLAY_RATED = f"{_HOW_TO_SET_ASIDE}resign gives up, q stops and saves the game."


def who(p: Player) -> str:
    if p.human:
        return p.name
    level = "" if p.name.split(" ")[0].lower() == p.level else f"{p.level} "
    return f"{p.name} ({level}computer)"


def does(name: str, verb: str) -> str:
    """``Ana rolls``, ``You roll``."""
    return f"{name} {verb[:-1] if name == 'You' else verb}"


def line_up(setup: Setup) -> str:
    names = [who(p) for p in setup.players]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def house(setup: Setup) -> str:
    rules = [f"{setup.rules.name} table"]
    if setup.opening:
        rules.append(f"opening minimum {pts(setup.opening)}")
    if setup.penalty:
        rules.append(f"three Farkles in a row cost {pts(setup.penalty)}")
    return ", ".join(rules)


RATED_LINE = (
    "Rated game: it counts in stats (no coach and no hints; farkle-train play --coach starts a coached game)."
)
#: A pass and play game says what becomes of each person's decisions instead.
PASS_AND_PLAY_LINE = (
    "Training game (pass and play): each person's decisions are in the analysis after the game and in "
    "farkle-train review, never in anyone's progress or stats."
)
#: Why a game is training, in the header's words (those that depend on the game are below).
UNRATED_WORDS = {
    Unrated.SOLO: "solo practice",
    Unrated.COMPUTERS_ONLY: "computers only",
    Unrated.SEVERAL_COMPUTERS: "only a game against one computer is rated",
    Unrated.COACHED: "the coach is on",
    Unrated.HINTED: "a hint was asked",
}


def kind_line(state: m.MatchState) -> str:
    """Whether the game counts in stats, and why not when it does not."""
    setup = state.setup
    why = unrated_because(setup, hinted=state.hinted)
    if why is None:
        return RATED_LINE
    if why is Unrated.PASS_AND_PLAY:
        return PASS_AND_PLAY_LINE
    if why is Unrated.KNOWN_DICE:
        words = known_dice_words(setup.dice)
    elif why is Unrated.OFF_RULES:
        off = off_rules(setup.rules)
        assert off is not None
        words = off_rules_words(setup.rules, off)
    else:
        words = UNRATED_WORDS[why]
    return f"Training game ({words}): recorded as progress, never in stats."


def known_dice_words(dice: Dice) -> str:
    """Why dice that can be known in advance keep a game from being rated."""
    if isinstance(dice, ClassCode):
        return "the class code's dice are the same for everyone"
    if isinstance(dice, Day):
        return "the day's dice are the same for everyone"
    return "a chosen seed deals dice that can be known in advance"


def off_rules_words(rules: Rules, off: OffRules) -> str:
    """Why a game on ``rules`` is not rated, in the words of the rule it misses."""
    if off == OffRules.TABLE:
        return f"the {rules.name} table is not a preset: rated games are on {or_list(list(PRESETS))}"
    if off == OffRules.TARGET:
        targets = or_list([pts(t) for t in RATED_TARGETS])
        return f"a target of {pts(rules.target)} is not rated: rated games go to {targets}"
    openings = or_list([pts(o) for o in RATED_OPENINGS if o])
    opening = pts(rules.opening_minimum)
    return f"an opening minimum of {opening} is not rated: rated games have none, {openings}"


def or_list(words: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


#: What a game of each form is played for, as its first line says: the target, the players (a
#: game to the target), the table and house rules, and the turns of a game that lasts a count.
PLAYED_FOR = {
    Form.MATCH: "Farkle to {target}: {players} ({house}).",
    Form.TEN_TURNS: "Farkle solo: {turns} turns for the highest score ({house}).",
    Form.FEWEST_TURNS: "Farkle solo: {target} in as few turns as you can ({house}).",
}


def header(state: m.MatchState) -> str:
    setup = state.setup
    what = PLAYED_FOR[setup.form].format(
        target=pts(setup.target), players=line_up(setup), house=house(setup), turns=setup.form.turn_limit
    )
    lines = [what, kind_line(state)]
    if setup.class_code:
        lines.append(f"Class code {setup.class_code}: everyone who plays it gets the same dice.")
    if setup.coached:
        lines.append("The coach warns after a play that is a mistake or worse.")
    lines.append(HOW_TO_PLAY_RATED if state.rated else HOW_TO_PLAY)
    return "\n".join(lines)


def resume_line(state: m.MatchState) -> str:
    return f"Carrying on where the game stopped: turn {state.turn}, {scores_text(state)}."


def scores_text(state: m.MatchState) -> str:
    setup = state.setup
    if setup.form.solo:
        return f"{pts(state.scores[0])} banked"
    return ", ".join(f"{p.name} {pts(s)}" for p, s in zip(setup.players, state.scores, strict=True))


def turn_line(state: m.MatchState) -> str:
    setup = state.setup
    limit = setup.form.turn_limit
    if limit is not None:
        return f"Turn {state.turn} of {limit}: {scores_text(state)}."
    if setup.form.solo:
        return f"Turn {state.turn}: {scores_text(state)} of {pts(setup.target)}."
    need = need_words(state)
    need = f"you{need[3:]}" if need.startswith("You ") else need
    last = f" (last turn: {need})" if state.last_turn else ""
    return f"Turn {state.turn}, {state.player.name} to roll{last}. Scores: {scores_text(state)}."


def _leaders(state: m.MatchState) -> tuple[int, str]:
    """The top score among the other players, and who has it (``Medium``, ``Ana and Ben``)."""
    others = [i for i in range(state.setup.size) if i != state.seat]
    top = max(state.scores[i] for i in others)
    names = [state.setup.players[i].name for i in others if state.scores[i] == top]
    return top, names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def need_words(state: m.MatchState) -> str:
    """In a last turn, what passing the leader takes from here: ``You need 2,100 more to pass
    Medium; banking now loses``."""
    top, leaders = _leaders(state)
    total = state.banked + state.points
    name = state.player.name
    if total > top:
        return f"banking now passes {leaders}"
    more = "more " if state.points else ""
    needs = f"{does(name, 'needs')} {pts(top - total + STEP)} {more}to pass {leaders}"
    if not state.points:
        return needs
    return f"{needs}; banking now {'ties' if total == top else 'loses'}"


def short_bank_prompt(state: m.MatchState) -> str | None:
    """The question before a bank that loses the game: one in a last turn, short of the
    leader (default no). None for any other bank."""
    if not state.last_turn:
        return None
    top, leaders = _leaders(state)
    total = state.banked + state.points
    if total >= top:
        return None
    return f"Bank {pts(state.points)} and lose to {leaders}?"


def roll_line(state: m.MatchState) -> str:
    """``Ana rolls 6 dice, 300 at stake: a:5 b:2 c:1 d:3 e:1 f:4``."""
    at_stake = f", {pts(state.stake)} at stake" if state.stake else ""
    rolls = does(state.player.name, "rolls")
    return f"{rolls} {dice_count(len(state.roll))}{at_stake}: {labelled_roll(state.roll)}"


def thrown_line(move: m.Move) -> None:
    """Nothing before a Farkle's line: it says the dice itself."""
    return None


def farkle_line(move: m.Move, after: m.MatchState) -> str:
    name = after.setup.players[move.seat].name
    lost = f"the {pts(move.points)} at stake are lost" if move.points else "the turn scores nothing"
    text = f"{does(name, 'rolls')} {dice_count(len(move.roll))}: {dice_text(move.roll)}. Farkle: {lost}"
    score = after.scores[move.seat]
    if score < move.score:
        text += f"; a third Farkle in a row costs {pts(move.score - score)}"
    elif move.last_turn and after.setup.penalty and move.farkles == FARKLES_FOR_PENALTY - 1:
        text += "; in a last turn a third Farkle in a row just ends the game, with no penalty"
    return f"{text}. {name} {pts(score)}."


def _kept(rules_state: m.MatchState, keep: tuple[int, ...]) -> str:
    split = score_table(rules_state.rules).split(counts_of(keep))
    assert split is not None
    return f"{dice_text(keep)} for {pts(split.points)} ({split.describe()})"


def kept_line(state: m.MatchState) -> str:
    left = (
        "hot dice: all 6 may roll again"
        if len(state.kept) == len(state.roll)
        else f"{dice_count(state.dice)} left"
    )
    kept = f"Set aside {_kept(state, state.kept)}: {pts(state.points)} at stake, {left}."
    if not state.last_turn:
        return kept
    need = need_words(state)
    return f"{kept} {need[:1].upper()}{need[1:]}."


def hot_dice_line(state: m.MatchState) -> None:
    """Nothing after the set-aside's line: it says hot dice itself."""
    return None


def farkle_chance(state: m.MatchState) -> str:
    return percent(float(score_table(state.rules).farkle_chance(state.dice)))


def action_prompt(state: m.MatchState) -> str:
    dice = "all 6 dice" if len(state.kept) == len(state.roll) else dice_count(state.dice)
    chance = f"Farkle chance {farkle_chance(state)}"
    if not state.can_bank:
        return f"Roll {dice} ({chance}; {pts(state.setup.opening)} opens the score)? (r)"
    bank = f"Bank {pts(state.points)}"
    if state.last_turn:
        # What a bank does to the game, said where it is chosen (the line before says the need).
        top, _ = _leaders(state)
        total = state.banked + state.points
        bank += " and lose," if total < top else " for a tie," if total == top else ""
    return f"{bank} or roll {dice} ({chance})? (b/r)"


def computer_line(before: m.MatchState, choice: Choice) -> str:
    name = before.player.name
    split = score_table(before.rules).split(counts_of(choice.keep))
    assert split is not None
    total = before.points + split.points
    kept = f"{name} sets aside {dice_text(choice.keep)} ({pts(total)} at stake)"
    if choice.action == "bank":
        return f"{kept} and banks: {name} {pts(before.scores[before.seat] + total)}."
    left = len(before.roll) - len(choice.keep)
    return f"{kept} and rolls {'all 6 dice' if left == 0 else dice_count(left)}."


def bank_line(move: m.Move, after: m.MatchState) -> str:
    name = after.setup.players[move.seat].name
    return f"{does(name, 'banks')}: {name} {pts(after.scores[move.seat])}."


def final_round_line(state: m.MatchState) -> str:
    assert state.closer is not None
    name = state.setup.players[state.closer].name
    verb = "have" if name == "You" else "has"
    return f"{name} {verb} reached {pts(state.setup.target)}: everyone else gets one last turn."


def value_text(value: float, unit: Unit) -> str:
    if unit in (Unit.WIN, Unit.CHANCE):
        return percent(value)
    if unit == Unit.TURNS:
        return f"{value:,.2f} turns"
    return f"{value:,.2f}"


def _measure(unit: Unit) -> str:
    return {
        Unit.WIN: "chance of winning",
        Unit.CHANCE: "chance of passing the leader",
        Unit.TURNS: "expected turns still needed after this one",
        Unit.POINTS: "expected points this turn banks",
    }[unit]


def play_words(keep: tuple[int, ...], action: str, roll: tuple[int, ...]) -> str:
    return move_words(keep, action, len(roll) - len(keep))


def hint_line(position: Position, *, first: bool) -> str:
    v = position.values
    roll = position.state.roll
    unit = v.unit
    lines = [f"Coach ({_measure(unit)}):"]
    if position.kept:
        kept = v.option(position.kept)
        dice = "all 6 dice" if kept.dice_left == 0 else dice_count(kept.dice_left)
        bank = kept.bank
        bank_text = "banking is not allowed yet" if bank is None else f"bank {value_text(bank.amount, unit)}"
        lines.append(
            f"  with {dice_text(position.kept)} set aside: {bank_text}, "
            f"roll {dice} {value_text(kept.roll.amount, unit)}"
        )
    for c in v.candidates[:3]:
        lines.append(f"  {play_words(c.keep, c.action, roll)}: {value_text(c.value.amount, unit)}")
    return "\n".join(lines)


def hint_rich(position: Position, *, first: bool) -> RenderableType:
    """The hint's lines on a terminal, each wrapped for its width under its own start, never
    inside a number, a list of dice or a loss in pp."""
    from rich.console import Group
    from rich.text import Text

    lines = hint_line(position, first=first).split("\n")
    return fit(Group(Text(lines[0], style="bold"), *(Text(line) for line in lines[1:])), "\n".join(lines))


def resign_prompt(state: m.MatchState) -> str:
    """The question before a game is given up, saying what it means: a loss in a rated game,
    else who wins (a game of three or four ends for everyone)."""
    if state.rated:
        return "Resign this game? It counts as a loss."
    winners = m.final_winners(state, state.seat)
    if not winners:
        return "Resign this game?"
    ends = "It ends here for everyone, and " if state.setup.size > 2 else "Then "
    return f"Resign this game? {ends}{wins(state.setup, winners)}."


def wins(setup: Setup, seats: Sequence[int]) -> str:
    """``Ana wins``, ``You win``, ``Ana and Ben share the win``."""
    names = [setup.players[i].name for i in seats]
    if len(names) > 1:
        return f"{', '.join(names[:-1])} and {names[-1]} share the win"
    return f"{names[0]} {'win' if names[0] == 'You' else 'wins'}"


def coach_line(review: Review) -> str:
    move = review.move
    best = play_words(review.best_keep, review.best_action, move.roll)
    return (
        f"Coach: that play gives up {gives_up_text(review.lost, review.unit)} ({review.grade}); "
        f"best was {best} ({value_text(review.best_value, review.unit)} against "
        f"{value_text(review.chosen, review.unit)})."
    )


# -- saved games

SETTINGS_KEPT = "Carrying on with the saved game, in its own settings."
#: Said before the unfinished rated game is offered to someone who asked for a coached game.
COACH_NEEDS_NO = (
    "It is rated, so it has no coach: for the coached game you asked for, answer n (the rated game "
    "then counts as resigned)."
)
NOTHING_STARTED = "Nothing was started; the unfinished game is kept."
NOTHING_SAVED = "Nothing was started."


def _game_name(row: GameRow, *, rated: bool) -> str:
    kind = {"computer": "against the computer", "pass-and-play": "pass and play", "solo": "solo"}.get(
        row.kind, row.kind
    )
    level = f" ({row.level})" if row.level else ""
    return (
        f"game {row.id}, {kind}{level}, {'rated' if rated else 'training'}, "
        f"started {row.started_at:%Y-%m-%d %H:%M} UTC"
    )


def unused_options_line(options: Sequence[str]) -> str:
    listed = options[0] if len(options) == 1 else f"{', '.join(options[:-1])} and {options[-1]}"
    verb = "is" if len(options) == 1 else "are"
    return f"Note: the saved game keeps its own players and settings, so {listed} {verb} not used."


def unfinished_line(row: GameRow, *, rated: bool) -> str:
    text = f"You have an unfinished {_game_name(row, rated=rated)}."
    if rated:
        return f"{text} Starting a new game instead counts it as resigned (a loss)."
    return (
        f"{text} Starting a new game instead sets it aside: it stays in farkle-train games, "
        "never finished, and farkle-train review shows its decisions so far."
    )


def resume_prompt(*, rated: bool) -> str:
    """Whether to carry on with the unfinished game, saying what no does to it."""
    no = "it counts as resigned" if rated else "it is set aside"
    return f"Carry on with it? (n: {no})"


def _closed_counts(*, rated: bool) -> str:
    """What an unfinished game closed as damaged counts as."""
    return "it counts as resigned (a loss)" if rated else "it counts in no stats"


def damaged_unfinished_line(row: GameRow, reason: str, where: object, *, rated: bool) -> str:
    """An unfinished game that cannot be carried on, said before anything is asked: why, and
    what starting a new game does to it."""
    return (
        f"You have an unfinished {_game_name(row, rated=rated)}, which cannot be carried on ({reason}). "
        f"Starting a new game closes it as damaged, its saved state kept as it is in {where} "
        f"(game {row.id}); {_closed_counts(rated=rated)}."
    )


#: The question after :func:`damaged_unfinished_line`.
START_NEW_PROMPT = "Start the new game? (n: nothing is started)"


def cannot_resume_line(row: GameRow, reason: str, *, rated: bool) -> str:
    """``play --resume`` on a game that cannot be played on."""
    return (
        f"the unfinished game {row.id} cannot be carried on ({reason}); farkle-train play starts a new "
        f"game and closes it as damaged: {_closed_counts(rated=rated)}"
    )


def abandoned_line(row: GameRow, *, rated: bool, damaged: bool = False) -> str:
    if damaged:
        return f"The unfinished game {row.id} is closed as damaged: {_closed_counts(rated=rated)}."
    if rated:
        return f"The unfinished rated game {row.id} counts as resigned."
    return (
        f"The unfinished game {row.id} is set aside: farkle-train review {row.id} shows its decisions so far."
    )


def stopped_line(state: m.MatchState) -> str:
    return f"Game saved at turn {state.turn} ({scores_text(state)}). Carry on with: {RESUME_COMMAND}"


def result_line(state: m.MatchState, resigned: int | None = None, *, stopped: bool = False) -> str:
    """How the game ended: over, given up by the seat ``resigned``, or set aside (``stopped``)."""
    setup = state.setup
    if stopped and not state.over and isinstance(setup.dice, ClassCode) and setup.dice.challenge:
        # A challenge is never carried on: it stopped there.
        return f"Challenge stopped at turn {state.turn} of {SOLO_TURNS}, with {scores_text(state)}."
    if stopped and not state.over:
        return f"Game set aside at turn {state.turn}, unfinished. Scores: {scores_text(state)}."
    if setup.form.solo:
        score, taken = pts(state.scores[0]), plural(state.turns[0], "turn")
        if resigned is not None:
            return f"Game given up after {taken}, on {score}."
        if setup.form.turn_limit is not None:
            return f"Game over: {score} in {setup.form.turn_limit} turns."
        return f"Game over: {pts(setup.target)} reached in {taken} ({score})."
    winners = m.final_winners(state, resigned)
    assert winners is not None
    if resigned is not None:
        name = setup.players[resigned].name
        return f"{name} resigned: {wins(setup, winners)}. Scores: {scores_text(state)}."
    return f"Game over: {wins(setup, winners)}. Scores: {scores_text(state)}."


def again_prompt(setup: Setup) -> str:
    if setup.size == 1:
        return "Play again?"
    starts = "the other player" if setup.size == 2 else "the next player"
    return f"Play again? ({starts} starts)"


def saved_file_line(path: object) -> str:
    return f"The game is in {path}: farkle-train review {path} shows it again."


def file_not_written_line(path: object, reason: str | None) -> str:
    """A resumed game's file that it no longer goes to: replaced by something else (no
    ``reason``), or out of reach."""
    why = f"{path} no longer holds this game" if reason is None else f"{reason}"
    return f"Note: {why}, so the game is not written there (add --save FILE.json to write it to a file)."
