"""How a whole game reads: every line ``play`` prints, plain text first.

The game is text line by line in both front ends (a screen reader, a pipe and a terminal get
the same words); a terminal adds styles to whole lines and draws the chance of winning as a
small chart. Rolls show each die with the letter of its place (``a:5 b:2 c:1``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from farkle_trainer.engine.dice import counts_of
from farkle_trainer.engine.grading import Unit, gives_up_text, in_points, loss_unit_name, rating_figure
from farkle_trainer.engine.notation import dice_count, dice_text, labelled_roll, move_words, percent, plural
from farkle_trainer.engine.notation import points as pts
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games.analysis import Account, Analysis, Review, Summary, Values
from farkle_trainer.training.games.computers import Choice
from farkle_trainer.training.games.play import RESUME_COMMAND, Position, resigned_seat
from farkle_trainer.training.games.setup import SOLO_TURNS, Form, GameKind, Player, Setup
from farkle_trainer.ui.views.fit import fit

if TYPE_CHECKING:
    from rich.console import RenderableType

    from farkle_trainer.store.rows import GameRow

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
#: The review shows this many costly decisions in full, the worst first.
REVIEW_IN_FULL = 3
#: The plain chart of the chance of winning has at most this many rows.
CHART_ROWS = 10
SPARKS = "▁▂▃▄▅▆▇█"


def _who(p: Player) -> str:
    if p.human:
        return p.name
    level = "" if p.name.split(" ")[0].lower() == p.level else f"{p.level} "
    return f"{p.name} ({level}computer)"


def _does(name: str, verb: str) -> str:
    """``Ana rolls``, ``You roll``."""
    return f"{name} {verb[:-1] if name == 'You' else verb}"


def _line_up(setup: Setup) -> str:
    names = [_who(p) for p in setup.players]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _house(setup: Setup) -> str:
    rules = [f"{setup.rules.name} table"]
    if setup.opening:
        rules.append(f"opening minimum {pts(setup.opening)}")
    if setup.penalty:
        rules.append(f"three Farkles in a row cost {pts(setup.penalty)}")
    return ", ".join(rules)


def kind_line(state: m.MatchState) -> str:
    """Whether the game counts in stats, and why not when it does not."""
    setup = state.setup
    if state.rated:
        return (
            "Rated game: it counts in stats (no coach and no hints; farkle-train play --coach starts "
            "a coached game)."
        )
    if setup.kind == GameKind.SOLO:
        why = "solo practice"
    elif setup.kind == GameKind.PASS_AND_PLAY:
        why = "pass and play"
    elif setup.kind == GameKind.COMPUTERS:
        why = "computers only"
    elif setup.coached:
        why = "the coach is on"
    elif setup.code:
        why = "the class code's dice are the same for everyone"
    elif setup.chosen_seed:
        why = "a chosen seed deals dice that can be known in advance"
    else:
        why = "a hint was asked"
    return f"Training game ({why}): recorded as progress, never in stats."


def header(state: m.MatchState) -> str:
    setup = state.setup
    if setup.form == Form.TEN_TURNS:
        what = f"Farkle solo: {SOLO_TURNS} turns for the highest score ({_house(setup)})."
    elif setup.form == Form.FEWEST_TURNS:
        what = f"Farkle solo: {pts(setup.target)} in as few turns as you can ({_house(setup)})."
    else:
        what = f"Farkle to {pts(setup.target)}: {_line_up(setup)} ({_house(setup)})."
    lines = [what, kind_line(state)]
    if setup.code:
        lines.append(f"Class code {setup.code}: everyone who plays it gets the same dice.")
    if setup.coached:
        lines.append("The coach warns after a play that is a mistake or worse.")
    lines.append(HOW_TO_PLAY_RATED if state.rated else HOW_TO_PLAY)
    return "\n".join(lines)


def resume_line(state: m.MatchState) -> str:
    return f"Carrying on where the game stopped: turn {state.turn}, {scores_text(state)}."


def scores_text(state: m.MatchState) -> str:
    setup = state.setup
    if setup.form != Form.MATCH:
        return f"{pts(state.scores[0])} banked"
    return ", ".join(f"{p.name} {pts(s)}" for p, s in zip(setup.players, state.scores, strict=True))


def turn_line(state: m.MatchState) -> str:
    setup = state.setup
    if setup.form == Form.TEN_TURNS:
        return f"Turn {state.turn} of {SOLO_TURNS}: {scores_text(state)}."
    if setup.form == Form.FEWEST_TURNS:
        return f"Turn {state.turn}: {scores_text(state)} of {pts(setup.target)}."
    last = " (last turn)" if state.last_turn else ""
    return f"Turn {state.turn}, {state.player.name} to roll{last}. Scores: {scores_text(state)}."


def roll_line(state: m.MatchState) -> str:
    """``Ana rolls 6 dice, 300 at stake: a:5 b:2 c:1 d:3 e:1 f:4``."""
    at_stake = f", {pts(state.stake)} at stake" if state.stake else ""
    rolls = _does(state.player.name, "rolls")
    return f"{rolls} {dice_count(len(state.roll))}{at_stake}: {labelled_roll(state.roll)}"


def thrown_line(move: m.Move) -> None:
    """Nothing before a Farkle's line: it says the dice itself."""
    return None


def farkle_line(move: m.Move, after: m.MatchState) -> str:
    name = after.setup.players[move.seat].name
    lost = f"the {pts(move.points)} at stake are lost" if move.points else "the turn scores nothing"
    text = f"{_does(name, 'rolls')} {dice_count(len(move.roll))}: {dice_text(move.roll)}. Farkle: {lost}"
    score = after.scores[move.seat]
    if score < move.score:
        text += f"; a third Farkle in a row costs {pts(move.score - score)}"
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
    return f"Set aside {_kept(state, state.kept)}: {pts(state.points)} at stake, {left}."


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
    return f"Bank {pts(state.points)} or roll {dice} ({chance})? (b/r)"


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
    return f"{_does(name, 'banks')}: {name} {pts(after.scores[move.seat])}."


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


def _plays(v: Values) -> list[tuple[tuple[int, ...], str, float]]:
    out: list[tuple[tuple[int, ...], str, float]] = []
    for keep, (bank, roll) in v.options.items():
        out.append((keep, "roll", roll))
        if bank is not None:
            out.append((keep, "bank", bank))
    out.sort(key=lambda p: p[2] if v.unit == Unit.TURNS else -p[2])
    return out


def _play_words(keep: tuple[int, ...], action: str, roll: tuple[int, ...]) -> str:
    return move_words(keep, action, len(roll) - len(keep))


def hint_line(position: Position, *, first: bool) -> str:
    v = position.values
    roll = position.state.roll
    unit = v.unit
    lines = [f"Coach ({_measure(unit)}):"]
    if position.kept:
        bank, rolled = v.options[position.kept]
        left = len(roll) - len(position.kept)
        dice = "all 6 dice" if left == 0 else dice_count(left)
        bank_text = "banking is not allowed yet" if bank is None else f"bank {value_text(bank, unit)}"
        lines.append(
            f"  with {dice_text(position.kept)} set aside: {bank_text}, "
            f"roll {dice} {value_text(rolled, unit)}"
        )
    for keep, action, value in _plays(v)[:3]:
        lines.append(f"  {_play_words(keep, action, roll)}: {value_text(value, unit)}")
    return "\n".join(lines)


def resign_prompt(state: m.MatchState) -> str:
    """The question before a game is given up, saying what it means: a loss in a rated game,
    else who wins (a game of three or four ends for everyone)."""
    if state.rated:
        return "Resign this game? It counts as a loss."
    winners = m.final_winners(state, state.seat)
    if not winners:
        return "Resign this game?"
    ends = "It ends here for everyone, and " if state.setup.size > 2 else "Then "
    return f"Resign this game? {ends}{_wins(state.setup, winners)}."


def _wins(setup: Setup, seats: Sequence[int]) -> str:
    """``Ana wins``, ``You win``, ``Ana and Ben share the win``."""
    names = [setup.players[i].name for i in seats]
    if len(names) > 1:
        return f"{', '.join(names[:-1])} and {names[-1]} share the win"
    return f"{names[0]} {'win' if names[0] == 'You' else 'wins'}"


def coach_line(review: Review) -> str:
    move = review.move
    best = _play_words(review.best_keep, review.best_action, move.roll)
    return (
        f"Coach: that play gives up {gives_up_text(review.lost, review.unit)} ({review.grade}); "
        f"best was {best} ({value_text(review.best_value, review.unit)} against "
        f"{value_text(review.chosen, review.unit)})."
    )


# -- saved games

RESUME_PROMPT = "Carry on with it?"
SETTINGS_KEPT = "Carrying on with the saved game, in its own settings."
NOTHING_STARTED = "Nothing was started; the unfinished game is kept."
NOTHING_SAVED = "Nothing was started."


def _game_name(row: GameRow) -> str:
    kind = {"computer": "against the computer", "pass-and-play": "pass and play", "solo": "solo"}.get(
        row.kind, row.kind
    )
    level = f" ({row.level})" if row.level else ""
    rated = "rated" if row.rated else "training"
    return f"game {row.id}, {kind}{level}, {rated}, started {row.started_at:%Y-%m-%d %H:%M} UTC"


def unused_options_line(options: Sequence[str]) -> str:
    listed = options[0] if len(options) == 1 else f"{', '.join(options[:-1])} and {options[-1]}"
    verb = "is" if len(options) == 1 else "are"
    return f"Note: the saved game keeps its own players and settings, so {listed} {verb} not used."


def unfinished_line(row: GameRow) -> str:
    text = f"You have an unfinished {_game_name(row)}."
    if row.rated:
        text += " Starting a new game instead counts it as resigned (a loss)."
    return text


def abandoned_line(row: GameRow) -> str:
    if row.rated:
        return f"The unfinished rated game {row.id} counts as resigned."
    return f"The unfinished game {row.id} is closed."


def closed_damaged_line(row: GameRow, reason: str, where: object) -> str:
    """An unfinished game closed because it cannot be played on, and where its saved state is kept."""
    return (
        f"The unfinished game {row.id} cannot be carried on ({reason}): it is closed as damaged, and "
        f"its saved state is kept as it was in {where} (game {row.id}); it counts in no stats."
    )


def stopped_line(state: m.MatchState) -> str:
    return f"Game saved at turn {state.turn} ({scores_text(state)}). Carry on with: {RESUME_COMMAND}"


# -- the end of a game


def result_line(state: m.MatchState, resigned: int | None = None) -> str:
    setup = state.setup
    if setup.form != Form.MATCH and resigned is not None:
        return f"Game given up after {plural(state.turns[0], 'turn')}, on {pts(state.scores[0])}."
    if setup.form == Form.TEN_TURNS:
        return f"Game over: {pts(state.scores[0])} in {SOLO_TURNS} turns."
    if setup.form == Form.FEWEST_TURNS:
        turns = plural(state.turns[0], "turn")
        return f"Game over: {pts(setup.target)} reached in {turns} ({pts(state.scores[0])})."
    winners = m.final_winners(state, resigned)
    assert winners is not None
    if resigned is not None:
        who = setup.players[resigned].name
        return f"{who} resigned: {_wins(setup, winners)}. Scores: {scores_text(state)}."
    return f"Game over: {_wins(setup, winners)}. Scores: {scores_text(state)}."


def _review_lines(r: Review, setup: Setup) -> list[str]:
    move = r.move
    name = setup.players[move.seat].name
    played = _play_words(move.keep, move.action, move.roll)
    best = _play_words(r.best_keep, r.best_action, move.roll)
    return [
        f"  Turn {move.turn}, {name} rolled {dice_text(move.roll)} with {pts(move.points)} at stake:",
        f"    played: {played}, {value_text(r.chosen, r.unit)}: gives up {gives_up_text(r.lost, r.unit)}",
        f"    best: {best}, {value_text(r.best_value, r.unit)}",
    ]


def _given_up_what(unit: Unit) -> str:
    return {Unit.WIN: "win chance", Unit.TURNS: "turns", Unit.CHANCE: "chance"}.get(unit, "points")


def _luck(a: Account) -> str:
    if a.unit == Unit.WIN:
        return f"{a.luck:+.2f} pp"
    if a.unit == Unit.TURNS:
        return f"{a.luck:+.2f} turns"
    return f"{a.luck:+,.2f} points"


def _average_loss(s: Summary) -> str:
    """The average loss in the unit the decisions were shown in; decisions shown in points and
    in pp (last turns) are averaged in points, at the rate ratings count a pp."""
    assert s.average_in_unit is not None
    shown = f"{rating_figure(s.average_in_unit, s.loss_unit)} {loss_unit_name(s.loss_unit)}"
    counted = f", a pp counted as {in_points(1.0, Unit.CHANCE):g} points" if s.mixed else ""
    return f"{shown} given up a decision on average{counted}"


def analysis_lines(state: m.MatchState, a: Analysis) -> list[str]:
    setup = state.setup
    out: list[str] = []
    costly = [r for r in a.reviews if not r.right]
    total = len(a.reviews)
    if not total:
        out.append("No decisions by a person to review.")
    elif not costly:
        out.append(f"Every one of the {plural(total, 'decision')} was the best play or close to it.")
    else:
        out.append(f"Decisions that gave up {_given_up_what(a.unit)}: {len(costly)} of {total}, worst first:")
        for r in costly[:REVIEW_IN_FULL]:
            out += _review_lines(r, setup)
        rest = costly[REVIEW_IN_FULL:]
        if rest:
            out.append(
                f"  and {len(rest):,} more: "
                + "; ".join(f"turn {r.move.turn} {gives_up_text(r.lost, r.unit)}" for r in rest)
            )
    for s in a.summaries:
        if s.error_rate is None or s.average_in_unit is None:
            continue
        out.append(
            f"{setup.players[s.seat].name}: error rate {percent(s.error_rate)} "
            f"({s.errors} of {s.decisions}); rating {s.rating} ({_average_loss(s)})."
        )
    luck = ", ".join(f"{setup.players[x.seat].name} {_luck(x)}" for x in a.accounts)
    out.append(f"Luck of the dice (against average, 0 on average): {luck}.")
    if a.chances:
        name = setup.players[a.chart_seat].name
        whose = "Your" if name == "You" else f"{name}'s"
        out.append(f"{whose} chance of winning through the game:")
        out += [f"  turn {turn:>3}: {percent(c):>7}" for turn, c in chart_rows(a.chances)]
    return out


def chart_rows(chances: Sequence[tuple[int, float]]) -> list[tuple[int, float]]:
    """At most :data:`CHART_ROWS` points, evenly spread, always the first and the last."""
    if len(chances) <= CHART_ROWS:
        return list(chances)
    step = (len(chances) - 1) / (CHART_ROWS - 1)
    return [chances[round(i * step)] for i in range(CHART_ROWS)]


def sparkline(chances: Sequence[tuple[int, float]]) -> str:
    return "".join(SPARKS[min(len(SPARKS) - 1, int(c * len(SPARKS)))] for _, c in chances)


def game_over_text(state: m.MatchState, a: Analysis | None, resigned: int | None = None) -> str:
    lines = [result_line(state, resigned)]
    if a is not None:
        lines += analysis_lines(state, a)
    return "\n".join(lines)


def game_over_rich(state: m.MatchState, a: Analysis | None, resigned: int | None = None) -> RenderableType:
    from rich.console import Group
    from rich.text import Text

    parts: list[RenderableType] = [Text(result_line(state, resigned), style="bold")]
    if a is None:
        return Group(*parts)
    lines = analysis_lines(state, a)
    if a.chances:
        cut = next(i for i, line in enumerate(lines) if line.endswith("through the game:"))
        lines = lines[: cut + 1]
    parts += [Text(line) for line in lines]
    if a.chances:
        first, last = a.chances[0], a.chances[-1]
        parts.append(
            Text(
                f"  {percent(first[1])} {sparkline(a.chances)} {percent(last[1])}  "
                f"(turn {first[0]} to the end; "
                "each mark one turn, low 0%, high 100%)"
            )
        )
    return Group(*parts)


def again_prompt(setup: Setup) -> str:
    if setup.size == 1:
        return "Play again?"
    who = "the other player" if setup.size == 2 else "the next player"
    return f"Play again? ({who} starts)"


def saved_file_line(path: object) -> str:
    return f"The game is in {path}: farkle-train review {path} shows it again."


def file_not_written_line(path: object, reason: str | None) -> str:
    """A resumed game's file that it no longer goes to: replaced by something else (no
    ``reason``), or out of reach."""
    why = f"{path} no longer holds this game" if reason is None else f"{reason}"
    return f"Note: {why}, so the game is not written there (add --save FILE.json to write it to a file)."


# -- saved games: games and review


def _resigned(state: m.MatchState, outcome: str | None) -> int | None:
    """The seat that gave a stored game up, if it was given up."""
    return resigned_seat(state) if outcome == "resigned" and not state.over else None


def _result_words(state: m.MatchState, outcome: str | None, finished: bool) -> str:
    if not finished:
        return f"unfinished (turn {state.turn})"
    resigned = _resigned(state, outcome)
    winners = m.final_winners(state, resigned)
    if outcome == "resigned":
        if resigned is None or not winners:
            return "resigned"
        return f"{state.setup.players[resigned].name} resigned, {_wins(state.setup, winners)}"
    if not state.over:
        return outcome or "over"
    if state.setup.form == Form.TEN_TURNS:
        return f"{pts(state.scores[0])} in {SOLO_TURNS} turns"
    if state.setup.form == Form.FEWEST_TURNS:
        return f"{pts(state.setup.target)} in {plural(state.turns[0], 'turn')}"
    assert winners is not None
    return _wins(state.setup, winners)


def _started(row: GameRow) -> str:
    return f"{row.started_at:%Y-%m-%d %H:%M}"


def _kind(row: GameRow) -> str:
    return "rated" if row.rated else "training"


UNREADABLE = "its saved state cannot be read"


def game_row_line(row: GameRow, state: m.MatchState | None) -> str:
    when = f"{_started(row)} UTC"
    if state is None:
        return f"Game {row.id}, {when}, {_kind(row)}: {UNREADABLE}."
    players = _line_up(state.setup)
    result = _result_words(state, row.outcome, row.finished)
    return f"Game {row.id}, {when}: {players}, {_kind(row)}; {result}; {scores_text(state)}."


NO_GAMES = "No saved games yet: start one with farkle-train play."


def _games_heading(count: int) -> str:
    return f"Saved games, newest first ({count}); farkle-train review ID shows one again:"


def games_text(rows: Sequence[tuple[GameRow, m.MatchState | None]]) -> str:
    if not rows:
        return NO_GAMES
    lines = [_games_heading(len(rows))]
    lines += [game_row_line(row, state) for row, state in rows]
    return "\n".join(lines)


def _game_cells(row: GameRow, state: m.MatchState | None) -> tuple[str, ...]:
    if state is None:
        return (str(row.id), _started(row), _kind(row), UNREADABLE, "")
    result = _result_words(state, row.outcome, row.finished)
    return (str(row.id), _started(row), _kind(row), result, scores_text(state))


def games_rich(rows: Sequence[tuple[GameRow, m.MatchState | None]]) -> RenderableType:
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    if not rows:
        return Text(NO_GAMES)
    # The scores name the players in order, so the table leaves out the plain lines' line-up.
    table = Table()
    for name, justify in [
        ("game", "right"),
        ("started (UTC)", "left"),
        ("kind", "left"),
        ("result", "left"),
        ("scores", "left"),
    ]:
        table.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for row, state in rows:
        table.add_row(*_game_cells(row, state), style="" if row.finished else "bold")
    return fit(Group(Text(_games_heading(len(rows))), table), games_text(rows))


def game_row_json(row: GameRow, state: m.MatchState | None) -> dict[str, object]:
    data: dict[str, object] = {
        "id": row.id,
        "started_at": row.started_at.isoformat(),
        "finished_at": None if row.finished_at is None else row.finished_at.isoformat(),
        "kind": "rated" if row.rated else "training",
        "game": row.kind,
        "finished": row.finished,
        "outcome": row.outcome,
        "score": row.score,
    }
    if state is not None:
        data["players"] = [{"name": p.name, "level": p.level and p.level.value} for p in state.setup.players]
        data["scores"] = list(state.scores)
        winners = m.final_winners(state, _resigned(state, row.outcome))
        data["winners"] = None if winners is None else [state.setup.players[i].name for i in winners]
        data["result"] = _result_words(state, row.outcome, row.finished)
        data["target"] = state.setup.target
        data["rules"] = state.setup.rules.name
    return data


def review_heading(source: str, state: m.MatchState) -> str:
    played = plural(state.turn - 1, "turn")
    return f"{source}: {_line_up(state.setup)} ({_house(state.setup)}); {played} played."


def _review_json(r: Review, setup: Setup) -> dict[str, object]:
    move = r.move
    return {
        "turn": move.turn,
        "player": setup.players[move.seat].name,
        "roll": list(move.roll),
        "points": move.points,
        "keep": list(move.keep),
        "action": move.action,
        "value": r.chosen,
        "best_keep": list(r.best_keep),
        "best_action": r.best_action,
        "best_value": r.best_value,
        "lost": r.lost,
        "grade": str(r.grade),
    }


#: The unit of a summary's average loss, in words (``average_points`` is what the rating reads).
_JSON_UNITS = {
    Unit.POINTS: "points",
    Unit.CHANCE: "percentage points",
    Unit.WIN: "percentage points",
    Unit.TURNS: "turns",
}


def review_json(state: m.MatchState, a: Analysis | None, resigned: int | None) -> dict[str, object]:
    """A game and its analysis as figures (values in the unit's own terms: a chance 0 to 1,
    points or turns; ``lost`` and ``luck`` as shown, percentage points for a chance)."""
    setup = state.setup
    names = [p.name for p in setup.players]
    winners = m.final_winners(state, resigned)
    data: dict[str, object] = {
        "setup": setup.to_dict(),
        "scores": dict(zip(names, state.scores, strict=True)),
        "turns": dict(zip(names, state.turns, strict=True)),
        "over": state.over,
        "resigned": None if resigned is None else names[resigned],
        "winners": None if winners is None else [names[i] for i in winners],
        "moves": [mv.to_dict() for mv in state.log],
    }
    if a is None:
        data["analysis"] = None
        return data
    data["analysis"] = {
        "unit": a.unit.value,
        "decisions": [_review_json(r, setup) for r in a.reviews],
        "summaries": [
            {
                "player": names[s.seat],
                "decisions": s.decisions,
                "errors": s.errors,
                "error_rate": s.error_rate,
                "average_loss": s.average_in_unit,
                "average_loss_unit": _JSON_UNITS[s.loss_unit],
                "average_points": s.average_loss,
                "rating": s.rating,
                "grades": {str(g): n for g, n in s.grades.items()},
            }
            for s in a.summaries
        ],
        "accounts": [
            {
                "player": names[x.seat],
                "expected": x.expected,
                "luck": x.luck,
                "given_up": x.given_up,
                "result": x.result,
            }
            for x in a.accounts
        ],
        "win_chances": (
            None
            if not a.chances
            else {"player": names[a.chart_seat], "by_turn": [{"turn": t, "chance": c} for t, c in a.chances]}
        ),
    }
    return data
