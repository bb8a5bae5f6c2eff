"""Decisions: a moment of a turn to decide, every legal play valued exactly, and its grading.

A :class:`Position` is the turn points already set aside, the roll in front of the player
and what the player is playing for. A play is a selection of dice plus an action (bank,
or roll the dice left); it is worth what :func:`~farkle_trainer.engine.plays.hint` says
that play is worth, and it loses the difference to the best play, graded on the one scale
of :mod:`farkle_trainer.engine.grading`.

Kinds of decision (:class:`Kind`):

* ``bank-or-roll``: the dice are already set aside; only bank, or roll the dice left;
* ``keep``: which dice to set aside, then bank or roll (the full decision);
* ``final-round``: the leader has S, the player has B banked and must pass S this turn;
  the value of a play is its exact chance of passing, not its expected score (a player with
  nothing banked may have an opening minimum to meet before banking);
* ``opening``: the player has nothing banked and may not bank a turn below the opening
  minimum (the rule set's, or 500 when it has none);
* ``game``: a two-player game to a target, both banked scores known; a play is worth its
  exact chance of winning the game (:mod:`farkle_trainer.engine.game`). An opponent on the
  target or past it has reached it: the player's turn is the last, and a tie shares the win;
* ``solo``: alone, the target in as few turns as possible; a play is worth the expected
  number of turns still needed after this one (fewer is better).

Game and solo positions keep the rule set's opening minimum (a player on 0 has not opened).
Their expected-points play is worked out too: where it differs from the play that wins
(or saves turns), the grading says so. A ``keep`` position of a game valued in points may
hold the player's banked score and two Farkles in a row, under the three-Farkle penalty: a
Farkle then costs the penalty too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any

from farkle_trainer.engine.dice import counts_of, is_subset, size
from farkle_trainer.engine.errors import InputError
from farkle_trainer.engine.farkles import FARKLES_FOR_PENALTY, NO_RUNS, Runs
from farkle_trainer.engine.grading import (
    TIE,
    Grade,
    Unit,
    grade_for,
    grade_scale,
    in_points,
    loss,
    loss_figure,
)
from farkle_trainer.engine.kinds import KINDS, SCORE_KINDS, Kind
from farkle_trainer.engine.notation import dice_count, dice_text, ev, in_a_row, percent, points
from farkle_trainer.engine.plays import Action, Hint, Selection, hint, round_up
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.solver import STEP, Objective, solve

DEFAULT_OPENING = 500
#: The most an opponent who has reached the target may have above it, in a game position of a
#: last turn: far more than any turn banks, and it bounds the last turn's solve.
MAX_LAST_TURN_LEAD = 20_000
#: The most a keep position's banked score may be.
MAX_BANKED = 100_000


class DrillError(InputError):
    """A position or a play that is not possible: dice not in the roll, dice that don't score, ..."""


def opening_minimum(rules: Rules) -> int:
    """The opening minimum of opening drills: the rule set's own, else 500."""
    return rules.opening_minimum or DEFAULT_OPENING


@dataclass(frozen=True)
class Position:
    """One moment of a turn to decide.

    ``points``: turn points set aside before ``roll``, the dice in front of the player
    (in the order rolled, so they can be picked by place). ``kept``: for bank-or-roll
    drills, the dice of ``roll`` already set aside. ``leader`` and ``banked``: the
    scores of a final round. Game and solo positions: ``banked`` is the player's score,
    ``opponent`` the other player's (game only: at the target or past it, this is the
    player's last turn), ``target`` the game's and ``opening`` the opening minimum in force;
    ``runs``: the Farkles in a row so far and who has opened, under the rules' three-Farkle
    penalty (solo: the player's own only). A keep position under the penalty may hold
    ``banked`` with two Farkles in a row in ``runs``: a third would cost the penalty.
    ``title``: the name of a built-in teaching position.
    """

    rules: Rules
    kind: Kind
    points: int
    roll: tuple[int, ...]
    kept: tuple[int, ...] | None = None
    opening: int = 0
    leader: int | None = None
    banked: int | None = None
    title: str | None = None
    opponent: int | None = None
    target: int | None = None
    runs: Runs = NO_RUNS

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise DrillError(f"unknown kind of drill {self.kind!r}: use {', '.join(KINDS)}")
        object.__setattr__(self, "kind", Kind(self.kind))
        if self.points < 0 or self.points % STEP:
            raise DrillError(f"turn points must be a non-negative multiple of {STEP}, not {self.points}")
        counts = counts_of(self.roll)
        if not 1 <= size(counts) <= 6:
            raise DrillError(f"a roll has 1 to 6 dice, not {size(counts)}")
        if (self.kept is None) != (self.kind != "bank-or-roll"):
            raise DrillError(
                "the dice already set aside are given for bank-or-roll drills, and only for them"
            )
        if self.kept is not None:
            kept = counts_of(self.kept)
            split = score_table(self.rules).split(kept)
            if not is_subset(kept, counts) or split is None or not split.dice:
                raise DrillError(f"{self.kept} is not a scoring set-aside from the roll {self.roll}")
        if self.kind == "final-round":
            if self.leader is None or self.banked is None or not 0 <= self.banked < self.leader:
                raise DrillError("a final round needs the leader's score above the player's banked score")
        elif self.leader is not None:
            raise DrillError("only final-round drills have a leader")
        elif self.kind in SCORE_KINDS:
            self._check_scores()
        elif self.banked is not None and not self.third_farkle:
            raise DrillError(
                "only final-round, game and solo drills have a banked score, and keep drills with "
                "a third Farkle in a row at stake"
            )
        if (self.opponent is not None) != (self.kind == "game"):
            raise DrillError("game drills, and only they, have an opponent's score")
        if (self.target is not None) != (self.kind in SCORE_KINDS):
            raise DrillError("game and solo drills, and only they, have a target")
        if self.opening < 0 or self.opening % STEP:
            raise DrillError(f"an opening minimum is a non-negative multiple of {STEP}")
        unopened_final = self.kind == Kind.FINAL_ROUND and self.banked == 0
        if (
            self.kind not in SCORE_KINDS
            and self.opening > 0
            and self.kind != "opening"
            and not unopened_final
        ):
            raise DrillError(
                "opening drills, and final rounds of a player with nothing banked, only have an opening "
                "minimum (a multiple of 50)"
            )
        if self.kind == "opening" and not self.opening:
            raise DrillError("an opening drill has an opening minimum (a multiple of 50)")
        if self.runs != NO_RUNS:
            self._check_runs()

    @property
    def third_farkle(self) -> bool:
        """A keep position whose next Farkle would be the third in a row, under the penalty, for a
        player with points banked."""
        return (
            self.kind == Kind.KEEP
            and bool(self.rules.three_farkle_penalty)
            and self.runs == Runs(my_farkles=FARKLES_FOR_PENALTY - 1)
            and isinstance(self.banked, int)
            and 0 < self.banked <= MAX_BANKED
            and self.banked % STEP == 0
        )

    def _check_runs(self) -> None:
        runs = self.runs
        if self.kind == Kind.KEEP and self.third_farkle:
            return
        if self.kind not in SCORE_KINDS or not self.rules.three_farkle_penalty:
            raise DrillError("only game and solo drills under the three-Farkle penalty have runs of Farkles")
        if self.kind == Kind.SOLO and (runs.opponent_farkles or runs.opponent_opened is not None):
            raise DrillError("a solo drill has no opponent")
        for score, opened in ((self.banked, runs.my_opened), (self.opponent, runs.opponent_opened)):
            if opened is not None and opened != (score == 0 and self.opening > 0):
                raise DrillError("only a player on 0 under an opening minimum can have opened or not")

    def _check_scores(self) -> None:
        from farkle_trainer.engine.rules import MAX_TARGET, MIN_TARGET

        target = self.target
        if not isinstance(target, int) or target % STEP or not MIN_TARGET <= target <= MAX_TARGET:
            raise DrillError(
                f"a game or solo drill has a target, a multiple of {STEP} from {MIN_TARGET:,} "
                f"to {MAX_TARGET:,}, not {target!r}"
            )
        scores = [self.banked] + ([self.opponent] if self.kind == "game" and not self.last_turn else [])
        for score in scores:
            if not isinstance(score, int) or score < 0 or score % STEP or score >= target:
                raise DrillError(
                    f"a banked score is a multiple of {STEP} below the target of {target:,}, not {score!r}"
                )
        opponent = self.opponent
        if (
            isinstance(opponent, int)
            and self.last_turn
            and (opponent % STEP or opponent > target + MAX_LAST_TURN_LEAD)
        ):
            raise DrillError(
                f"an opponent who has reached the target has a multiple of {STEP} up to "
                f"{target + MAX_LAST_TURN_LEAD:,}, not {opponent!r}"
            )
        if self.opening > target:
            raise DrillError("the opening minimum is above the target")

    @property
    def last_turn(self) -> bool:
        """A game position whose opponent has reached the target: the player's last turn."""
        return (
            self.kind == Kind.GAME
            and isinstance(self.opponent, int)
            and isinstance(self.target, int)
            and self.opponent >= self.target
        )

    @property
    def unit(self) -> Unit:
        """What values are in: expected points, the chance of passing the leader, the
        chance of winning the game, or expected turns still needed."""
        return {Kind.FINAL_ROUND: Unit.CHANCE, Kind.GAME: Unit.WIN, Kind.SOLO: Unit.TURNS}.get(
            self.kind, Unit.POINTS
        )

    @property
    def opened(self) -> bool:
        """Game and solo: whether the player may bank below the opening minimum."""
        return bool(self.banked) or self.opening == 0 or bool(self.runs.my_opened)

    @property
    def farkle_value(self) -> int:
        """Game, solo and keep positions holding a banked score: what a Farkle costs beyond the
        turn's points (the penalty, on a turn that would be the third Farkle in a row)."""
        penalty = self.rules.three_farkle_penalty
        if not penalty or self.runs.my_farkles < FARKLES_FOR_PENALTY - 1 or self.banked is None:
            return 0
        return -min(penalty, self.banked)

    @property
    def need(self) -> int | None:
        """Final round: the turn total that passes the leader (more than leader - banked)."""
        if self.leader is None or self.banked is None:
            return None
        return round_up(self.leader - self.banked + 1)

    @property
    def objective(self) -> Objective:
        need = self.need
        if need:
            return Objective.reach(need, opening=self.opening)
        return Objective.expected(opening=self.opening, farkle_value=self.farkle_value)

    @property
    def at_stake(self) -> int:
        """Turn points after the set-aside already made (bank-or-roll), else before this roll's."""
        if self.kept is None:
            return self.points
        split = score_table(self.rules).split(counts_of(self.kept))
        assert split is not None
        return self.points + split.points

    @property
    def dice_to_roll(self) -> int | None:
        """Bank-or-roll: the dice a roll on would throw (6 after hot dice)."""
        if self.kept is None:
            return None
        return (len(self.roll) - len(self.kept)) or 6

    @property
    def item(self) -> str:
        """A stable key of the decision: the same decision always has the same key."""
        parts = [self.kind, self.rules.name, str(self.points), "".join(map(str, sorted(self.roll)))]
        if self.kept is not None:
            parts.append("kept" + "".join(map(str, sorted(self.kept))))
        if self.opening:
            parts.append(f"opening{self.opening}")
        if self.leader is not None:
            parts.append(f"leader{self.leader}-banked{self.banked}")
        elif self.kind == Kind.KEEP and self.banked is not None:
            parts.append(f"banked{self.banked}")
        if self.kind == Kind.GAME:
            parts.append(f"scores{self.banked}-{self.opponent}-to{self.target}")
        elif self.kind == Kind.SOLO:
            parts.append(f"score{self.banked}-to{self.target}")
        if self.runs != NO_RUNS:
            r = self.runs
            parts.append(f"runs{r.my_farkles}-{r.opponent_farkles}-{r.my_opened}-{r.opponent_opened}")
        return ":".join(parts)

    @property
    def family(self) -> str:
        """Positions alike enough that a miss on one calls for more of them."""
        if self.kind == "bank-or-roll":
            return f"{self.kind}:{self.dice_to_roll}"
        return f"{self.kind}:{len(self.roll)}"


def position_data(p: Position) -> dict[str, Any]:
    """A position as JSON-able data, to be asked again later (see :func:`position_from_data`)."""
    return {
        "kind": p.kind,
        "rules": p.rules.name,
        "rules_key": p.rules.scoring_key,
        "points": p.points,
        "roll": list(p.roll),
        "kept": None if p.kept is None else list(p.kept),
        "opening": p.opening,
        "leader": p.leader,
        "banked": p.banked,
        "title": p.title,
        "opponent": p.opponent,
        "target": p.target,
        "runs": None if p.runs == NO_RUNS else asdict(p.runs),
    }


def position_from_data(data: Mapping[str, Any] | None, rules: Rules) -> Position | None:
    """The position stored by :func:`position_data`, or None if it was made under other rules
    or cannot be read."""
    if not data or data.get("rules") != rules.name or data.get("rules_key") != rules.scoring_key:
        return None
    try:
        kept = data.get("kept")
        return Position(
            rules=rules,
            kind=data["kind"],
            points=int(data["points"]),
            roll=tuple(int(d) for d in data["roll"]),
            kept=None if kept is None else tuple(int(d) for d in kept),
            opening=int(data.get("opening") or 0),
            leader=data.get("leader"),
            banked=data.get("banked"),
            title=data.get("title"),
            opponent=data.get("opponent"),
            target=data.get("target"),
            runs=Runs(**(data.get("runs") or {})),
        )
    except (KeyError, TypeError, ValueError):
        return None


# -- the decision


@dataclass(frozen=True)
class Choice:
    """One legal play: a set-aside and an action, with its value under the position's objective."""

    keep: tuple[int, ...]
    score: int
    action: Action
    points_after: int
    dice_left: int  # 0 after hot dice
    value: float

    @property
    def dice_to_roll(self) -> int:
        return self.dice_left or 6

    @property
    def hot_dice(self) -> bool:
        return self.dice_left == 0


@dataclass(frozen=True)
class Decision:
    """Every legal play of a position, best first, valued by the exact solver."""

    position: Position
    hint: Hint
    choices: tuple[Choice, ...]

    @property
    def best(self) -> Choice:
        return self.choices[0]

    @property
    def keeps(self) -> tuple[tuple[int, ...], ...]:
        """The distinct set-asides the player may choose from, in the order of their best play."""
        return tuple(dict.fromkeys(c.keep for c in self.choices))

    @property
    def gap(self) -> float:
        """How far the best play is ahead of the best play that is worse, in points.

        Ties with the best do not count (either is right); 0 when every play ties.
        """
        best = self.best.value
        for c in self.choices[1:]:
            diff = in_points(loss(best, c.value, self.position.unit), self.position.unit)
            if diff >= TIE:
                return diff
        return 0.0

    @property
    def forced(self) -> bool:
        """Only one legal play, or only plays of equal value: nothing to decide."""
        return len(self.choices) == 1 or self.gap < TIE

    def choices_for(self, keep: tuple[int, ...]) -> tuple[Choice, ...]:
        return tuple(c for c in self.choices if c.keep == keep)

    def choice(self, keep: tuple[int, ...], action: Action) -> Choice:
        """The legal play that sets aside ``keep`` and then does ``action``."""
        keep = tuple(sorted(keep))
        for c in self.choices:
            if c.keep == keep and c.action == action:
                return c
        if not self.choices_for(keep):
            raise DrillError(f"setting aside {keep} is not a play of this position")
        raise DrillError(f"you cannot bank {self.choices_for(keep)[0].points_after:,} here")


def _choices(play: Selection, bank: float | None, roll: float, chosen: Action) -> list[tuple[Choice, bool]]:
    """The bank and roll choices after one set-aside, each with whether it is the solver's action."""
    made = []
    for action, value in (("bank", bank), ("roll", roll)):
        if value is not None:
            choice = Choice(play.keep, play.score, action, play.points_after, play.dice_left, value)  # type: ignore[arg-type]
            made.append((choice, action == chosen))
    return made


@lru_cache(maxsize=4096)
def decision_for(position: Position) -> Decision:
    """Value every legal play of ``position`` exactly, best first.

    Equal values keep the solver's order: its set-aside order (from :func:`hint`, or the
    game solver's for game and solo positions), and its action (rolling on an exact tie)
    before the other. For game and solo positions ``hint`` is the expected-points hint of
    the same roll, which :func:`points_choice` compares with the play that wins.
    """
    p = position
    made: list[list[tuple[Choice, bool]]]
    if p.kind in SCORE_KINDS:
        h = hint(p.roll, p.points, p.rules, opening=0 if p.opened else p.opening, farkle_value=p.farkle_value)
        made = _game_choices(p) if p.kind == Kind.GAME else _solo_choices(p)
    else:
        h = hint(p.roll, p.points, p.rules, opening=p.opening, need=p.need, farkle_value=p.farkle_value)
        plays = h.plays if p.kept is None else tuple(x for x in h.plays if x.keep == tuple(sorted(p.kept)))
        made = [_choices(play, play.value.bank, play.value.roll, play.value.action) for play in plays]
    sign = 1.0 if p.unit.lower_is_better else -1.0
    ranked: list[tuple[float, int, int, Choice]] = []
    for i, pair in enumerate(made):
        for choice, preferred in pair:
            ranked.append((sign * choice.value, i, 0 if preferred else 1, choice))
    ranked.sort(key=lambda r: r[:3])
    return Decision(p, h, tuple(r[3] for r in ranked))


def _game_choices(p: Position) -> list[list[tuple[Choice, bool]]]:
    """Bank and roll after each set-aside, valued by the chance of winning the game."""
    from farkle_trainer.engine.game import game_plays, solve_game

    assert p.banked is not None and p.opponent is not None
    table = solve_game(p.rules, p.target, p.opening)
    roll = counts_of(p.roll)
    plays = game_plays(roll, p.points, p.banked, p.opponent, table, last_turn=p.last_turn, runs=p.runs).plays
    return [_choices(play, play.bank, play.roll, play.action) for play in plays]


def _solo_choices(p: Position) -> list[list[tuple[Choice, bool]]]:
    """Bank and roll after each set-aside, valued by the expected turns still needed."""
    from farkle_trainer.engine.game import solve_solo

    assert p.banked is not None
    table = solve_solo(p.rules, p.target, p.opening)
    made = []
    for split in score_table(p.rules).selections(counts_of(p.roll)):
        left = len(p.roll) - len(split.dice)
        t = p.points + split.points
        bank = table.bank_value(p.banked, t, p.runs)
        roll = table.roll_value(p.banked, t, left or 6, p.runs)
        chosen: Action = "roll" if table.should_roll(p.banked, t, left or 6, p.runs) else "bank"
        made.append(_choices(Selection(split, t, left), bank, roll, chosen))
    # The set-aside order of a hint: best value first, then more points, then more dice to roll.
    made.sort(key=lambda pair: (min(c.value for c, _ in pair), -pair[0][0].score, -pair[0][0].dice_to_roll))
    return made


def points_choice(d: Decision) -> Choice | None:
    """Game and solo: the play that expected points would make, when it is not a best play here.

    That is the expected-points hint's best set-aside and action, valued under the
    position's own objective; None when it ties with the best play (the two agree), and
    for every other kind of drill.
    """
    p = d.position
    if p.kind not in SCORE_KINDS or d.hint.farkle:
        return None
    top = d.hint.plays[0]
    choice = d.choice(top.keep, top.value.action)
    if loss(d.best.value, choice.value, p.unit) < grade_scale(p.unit)[0]:
        return None
    return choice


# -- grading


@dataclass(frozen=True)
class Grading:
    """A graded play: what was chosen, what was best, and what it gave up.

    ``lost`` is in the position's display unit: points of expected turn score, or
    percentage points of the chance of passing the leader.
    """

    decision: Decision
    chosen: Choice
    lost: float
    grade: Grade

    @property
    def points_play(self) -> Choice | None:
        """Game and solo: the expected-points play, when it is not a best play here."""
        return points_choice(self.decision)

    @property
    def position(self) -> Position:
        return self.decision.position

    @property
    def best(self) -> Choice:
        return self.decision.best

    @property
    def right(self) -> bool:
        return self.grade.right

    @property
    def points_lost(self) -> float:
        """The loss in points (a percentage point counts as :data:`POINTS_PER_PERCENTAGE_POINT`)."""
        return in_points(self.lost, self.position.unit)


def grade(decision: Decision, keep: tuple[int, ...], action: Action) -> Grading:
    """Grade the play ``keep`` + ``action`` against the best play of the decision."""
    chosen = decision.choice(keep, action)
    unit = decision.position.unit
    lost = loss(decision.best.value, chosen.value, unit)
    return Grading(decision, chosen, lost, grade_for(lost, unit))


@dataclass(frozen=True)
class StrategyNote:
    """The bank threshold the player should have used for the dice they would roll.

    ``roll_while_at_most``: the largest turn total at which rolling ``dice_to_roll`` dice is
    at least as good as banking (None: banking is always at least as good). In a final round
    it is one step short of ``need``: roll until the turn passes the leader, then bank.
    """

    dice_to_roll: int
    roll_while_at_most: int | None
    points_after: int
    action: Action
    opening: int
    need: int | None
    #: Which play the threshold is for (``the best play``, ``your play``) and its set-aside
    #: (empty in a bank-or-roll drill, where the set-aside is given).
    whose: str = "the best play"
    play: str = ""


def strategy_notes(g: Grading) -> tuple[StrategyNote, ...]:
    """Thresholds for the dice the best play rolls, and for the player's if that differs.

    Each note names the play it is for. A final round has one rule whatever the dice (roll
    until the turn passes the leader), so it gets one note.
    """
    p = g.position
    if p.kind in SCORE_KINDS:
        # A game's thresholds move with both scores; the turn solver's would mislead here.
        return ()
    solution = solve(p.rules, p.objective)
    notes: list[StrategyNote] = []
    plays = (g.best,) if p.need is not None else (g.best, g.chosen)
    for whose, choice in zip(("the best play", "your play"), plays, strict=False):
        n = choice.dice_to_roll
        if any(note.dice_to_roll == n for note in notes):
            continue
        best_here = g.decision.choices_for(choice.keep)[0]
        notes.append(
            StrategyNote(
                n,
                solution.roll_while_at_most(n),
                choice.points_after,
                best_here.action,
                p.opening,
                p.need,
                whose,
                f"keep {dice_text(choice.keep)}" if p.kept is None else "",
            )
        )
    return tuple(notes)


def reason_lines(g: Grading) -> list[str]:
    """Why the best set-aside beats the player's: for each, the dice it leaves, the chance
    that their roll Farkles, and what rolling them and banking are worth.

    Empty when the player set aside what the best play sets aside (then only the action
    differs, and the values already say why).
    """
    p = g.position
    if g.chosen.keep == g.best.keep:
        return []
    table = score_table(p.rules)
    out = []
    for whose, keep in (("The best play", g.best.keep), ("Your play", g.chosen.keep)):
        options = {c.action: c for c in g.decision.choices_for(keep)}
        roll = options["roll"]
        n = roll.dice_to_roll
        left = "hot dice, so all 6 roll again" if roll.hot_dice else f"{dice_count(n)} left"
        chance = float(table.farkle_chance(n))
        bank = options.get("bank")
        banking = (
            f"banking {points(roll.points_after)} is worth {value_text(p, bank.value)}"
            if bank is not None
            else f"banking {points(roll.points_after)} is not allowed"
        )
        out.append(
            f"{whose}, keep {dice_text(keep)} for {points(roll.points_after)}: {left}, "
            f"a {percent(chance)} chance that the next roll Farkles; rolling on is worth "
            f"{value_text(p, roll.value)}, {banking} ({measure(p)})."
        )
    return out


# -- decisions in words: what the screen shows, the records and result files keep


def _action_words(c: Choice, *, joiner: str) -> str:
    if c.action == "bank":
        return f"bank {points(c.points_after)}"
    if c.hot_dice:
        return "roll all 6 again (hot dice)" if joiner == " and " else "hot dice, roll 6"
    return f"roll {dice_count(c.dice_left)}"


def play_words(p: Position, c: Choice) -> str:
    """``"keep 1 5 and roll 4 dice"``; only the action in a bank-or-roll drill."""
    if p.kept is not None:
        return _action_words(c, joiner=" and ")
    return f"keep {dice_text(c.keep)} and {_action_words(c, joiner=' and ')}"


def play_short(p: Position, c: Choice) -> str:
    """``"keep 1 5, roll 4 dice"``, for the table of plays."""
    if p.kept is not None:
        return _action_words(c, joiner=", ")
    return f"keep {dice_text(c.keep)}, {_action_words(c, joiner=', ')}"


def _so_far(p: Position) -> str:
    if p.points == 0:
        return "Nothing set aside yet this turn."
    return f"{points(p.points)} points set aside this turn."


def _not_opened(p: Position) -> str:
    return f"You have not opened yet: you cannot bank a turn worth less than {points(p.opening)}."


def _scores_lines(p: Position) -> list[str]:
    assert p.banked is not None and p.target is not None
    runs = p.runs
    if p.kind == "solo":
        out = [
            f"Solo to {points(p.target)} in as few turns as you can: you have {points(p.banked)} banked"
            f"{in_a_row(runs.my_farkles)}."
        ]
    elif p.last_turn:
        assert p.opponent is not None
        behind = p.opponent - p.banked
        out = [
            f"Your last turn in a game to {points(p.target)}: your opponent reached it with "
            f"{points(p.opponent)}, and you have {points(p.banked)} banked.",
            f"You need {points(behind + STEP)} this turn to win; {points(behind)} ties, and a tie "
            "shares the win.",
        ]
    else:
        assert p.opponent is not None
        theirs = f"{points(p.opponent)}{in_a_row(runs.opponent_farkles)}"
        out = [
            f"Game to {points(p.target)} against one opponent: you have {points(p.banked)} banked"
            f"{in_a_row(runs.my_farkles)}, your opponent {theirs}."
        ]
    penalty = p.rules.three_farkle_penalty
    if penalty and not p.last_turn:
        out.append(f"Three Farkles in a row cost {points(penalty)} (never below 0).")
    if p.opening:
        if not p.opened:
            out.append(_not_opened(p))
        elif not p.banked:
            out.append(
                f"You have opened already (the penalty knocked you back to 0): the opening minimum "
                f"of {points(p.opening)} no longer holds you."
            )
        if p.kind == "game" and not p.opponent:
            out.append(
                "Your opponent has opened already (the penalty knocked them back to 0)."
                if runs.opponent_opened
                else f"Your opponent has not opened yet (opening minimum {points(p.opening)})."
            )
    return out


def situation_lines(p: Position) -> list[str]:
    """The moment to decide, in sentences: scores, turn points and the roll."""
    out: list[str] = []
    if p.kind in SCORE_KINDS:
        out += _scores_lines(p)
    if p.kind == "final-round":
        assert p.leader is not None and p.banked is not None and p.need is not None
        out.append(
            f"Final round: the leader has {points(p.leader)} and you have {points(p.banked)} banked, "
            f"so you need {points(p.need)} this turn to pass."
        )
        if p.opening:
            out.append(_not_opened(p))
    if p.kind == "opening":
        out.append(
            f"You have nothing banked yet: you cannot bank a turn worth less than {points(p.opening)}."
        )
    if p.third_farkle:
        assert p.banked is not None
        out.append(
            f"You have {points(p.banked)} banked{in_a_row(p.runs.my_farkles)}: a Farkle now costs "
            f"{points(-p.farkle_value)} more (three in a row cost {points(p.rules.three_farkle_penalty)}, "
            "never below 0)."
        )
    if p.kept is not None:
        n = p.dice_to_roll
        left = "hot dice, all 6 to roll again" if len(p.kept) == len(p.roll) else f"{dice_count(n or 0)} left"
        out.append(
            f"{_so_far(p)} You rolled {dice_text(p.roll)} and set aside {dice_text(p.kept)}: "
            f"{points(p.at_stake)} points at stake, {left}."
        )
    elif p.points and len(p.roll) == 6:
        # Six dice with points at stake can only come from hot dice; say so, or it reads like a slip.
        out.append(
            f"Hot dice: all six scored, so you roll six again with {points(p.points)} at stake: "
            f"{dice_text(p.roll)}"
        )
    else:
        out.append(f"{_so_far(p)} You roll {dice_count(len(p.roll))}: {dice_text(p.roll)}")
    return out


def question_line(p: Position) -> str:
    """The situation in one line, as kept in the progress records."""
    return " ".join(situation_lines(p))


def value_text(p: Position, value: float) -> str:
    if p.unit in (Unit.CHANCE, Unit.WIN):
        return percent(value)
    return f"{value:.3f}" if p.unit == Unit.TURNS else ev(value)


def measure(p: Position) -> str:
    return {
        Unit.CHANCE: "chance of passing the leader",
        Unit.WIN: "chance of winning",
        Unit.TURNS: "expected turns after this one",
    }.get(p.unit, "expected turn score")


def loss_text(p: Position, lost: float) -> str:
    if p.unit in (Unit.CHANCE, Unit.WIN):
        return f"{loss_figure(lost, p.unit)} percentage points"
    return f"{loss_figure(lost, p.unit)} {'turns' if p.unit == Unit.TURNS else 'points'}"


def points_line(g: Grading) -> str | None:
    """``"For points you would keep 1 5 and bank 650; to win, keep 1 and roll 5 dice."``

    Said for a game or solo position where the expected-points play is not a best play.
    """
    other = g.points_play
    if other is None:
        return None
    p = g.position
    goal = "to win" if p.kind == "game" else "for the fewest turns"
    lost = loss(g.best.value, other.value, p.unit)
    return (
        f"For points you would {play_words(p, other)}; {goal}, {play_words(p, g.best)} "
        f"(playing for points gives up {loss_text(p, lost)})."
    )
