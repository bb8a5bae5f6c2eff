"""Decisions: the drills' positions, every legal play of one valued exactly, and its grading.

A :class:`Position` is a drill's moment of a turn: the turn points already set aside, the roll
in front of the player and what the player is playing for, which it holds as a
:class:`~farkle_trainer.engine.situations.Situation`. Its plays are valued and ranked by
:func:`~farkle_trainer.engine.ranked.ranked_plays`, the one valuation every decision of the
trainer is graded by; a play loses the difference to the best play, graded on the one scale of
:mod:`farkle_trainer.engine.grading`.

Kinds of decision (:class:`Kind`), and the situation each is:

* ``bank-or-roll``: the dice are already set aside; only bank, or roll the dice left
  (expected points);
* ``keep``: which dice to set aside, then bank or roll (expected points; under the
  three-Farkle penalty a position may hold the player's banked score and two Farkles in a
  row, and a Farkle then costs the penalty too);
* ``final-round``: the leader has S, the player has B banked and must pass S this turn: the
  chance of reaching what passing takes (a player with nothing banked may have an opening
  minimum to meet before banking);
* ``opening``: the player has nothing banked and may not bank a turn below the opening
  minimum (the rule set's, or 500 when it has none): expected points;
* ``game``: a two-player game to a target, both banked scores known: the chance of winning
  the game (:mod:`farkle_trainer.engine.game`). An opponent on the target or past it has
  reached it: the player's turn is the last, and a tie shares the win;
* ``solo``: alone, the target in as few turns as possible: the expected number of turns still
  needed after this one (fewer is better).

Game and solo positions keep the rule set's opening minimum (a player on 0 has not opened).
Their expected-points play is worked out too: where it differs from the play that wins (or
saves turns), the grading says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from farkle_trainer.engine.dice import counts_of, is_subset, size
from farkle_trainer.engine.farkles import FARKLES_FOR_PENALTY, NO_RUNS, Runs
from farkle_trainer.engine.grading import TIE, Grade, Unit, grade_scale, in_points
from farkle_trainer.engine.kinds import KINDS, SCORE_KINDS, Kind
from farkle_trainer.engine.notation import Action, dice_count, dice_text, points
from farkle_trainer.engine.ranked import Candidate, Ranked, ranked_plays
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.engine.situations import (
    ReachTotal,
    Situation,
    SituationError,
    TurnPoints,
    WinGame,
    situation,
)
from farkle_trainer.engine.solver import STEP, Objective

if TYPE_CHECKING:
    from farkle_trainer.engine.tables import Tables

DEFAULT_OPENING = 500
#: The most an opponent who has reached the target may have above it, in a game position of a
#: last turn: far more than any turn banks, and it bounds the last turn's solve.
MAX_LAST_TURN_LEAD = 20_000
#: The most a keep position's banked score may be.
MAX_BANKED = 100_000

#: A position or a play that is not possible: the drills' name for a situation that cannot be.
DrillError = SituationError
#: One legal play of a position: a set-aside and an action, with its value.
Choice = Candidate


def opening_minimum(rules: Rules) -> int:
    """The opening minimum of opening drills: the rule set's own, else 500."""
    return rules.opening_minimum or DEFAULT_OPENING


#: What each kind of position holds besides its points and roll, and what it is played for.
_HOLDS: Mapping[Kind, tuple[frozenset[str], Unit]] = MappingProxyType(
    {
        Kind.BANK_OR_ROLL: (frozenset({"kept"}), Unit.POINTS),
        Kind.KEEP: (frozenset({"banked", "runs"}), Unit.POINTS),
        Kind.FINAL_ROUND: (frozenset({"leader", "banked", "opening"}), Unit.CHANCE),
        Kind.OPENING: (frozenset({"opening"}), Unit.POINTS),
        Kind.GAME: (frozenset({"banked", "opponent", "target", "opening", "runs"}), Unit.WIN),
        Kind.SOLO: (frozenset({"banked", "target", "opening", "runs"}), Unit.TURNS),
    }
)
#: Each field a position may hold, as it is when the kind does not hold it, and its name.
_UNSET: Mapping[str, tuple[object, str]] = MappingProxyType(
    {
        "kept": (None, "dice already set aside"),
        "leader": (None, "leader"),
        "banked": (None, "banked score"),
        "opponent": (None, "opponent's score"),
        "target": (None, "target"),
        "opening": (0, "opening minimum"),
        "runs": (NO_RUNS, "runs of Farkles"),
    }
)


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
    ``title``: the name of a built-in teaching position. ``situation``: what the position
    is played for, made from the rest.
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
    situation: Situation = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise DrillError(f"unknown kind of drill {self.kind!r}: use {', '.join(KINDS)}")
        object.__setattr__(self, "kind", Kind(self.kind))
        if not 1 <= size(counts_of(self.roll)) <= 6:
            raise DrillError(f"a roll has 1 to 6 dice, not {len(self.roll)}")
        holds, unit = _HOLDS[self.kind]
        for name, (unset, words) in _UNSET.items():
            if name not in holds and getattr(self, name) != unset:
                raise DrillError(f"a {self.kind} drill has no {words}")
        _CHECKS[self.kind](self)
        object.__setattr__(self, "situation", self.played_for(unit))

    def played_for(self, unit: Unit) -> Situation:
        """This moment of a game played for ``unit`` (see
        :func:`~farkle_trainer.engine.situations.situation`)."""
        return situation(
            self.rules,
            self.points,
            unit,
            score=self.banked or 0,
            leader=self.leader or self.opponent or 0,
            runs=self.runs,
            target=self.target,
            opening=self.opening,
        )

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

    @property
    def last_turn(self) -> bool:
        """A game position whose opponent has reached the target: the player's last turn."""
        return isinstance(self.situation, WinGame) and self.situation.last_turn

    @property
    def unit(self) -> Unit:
        """What values are in: expected points, the chance of passing the leader, the
        chance of winning the game, or expected turns still needed."""
        return self.situation.unit

    @property
    def points_situation(self) -> TurnPoints:
        """The same moment played for expected points: the situation itself where the position is
        played for points; a game or solo position's own opening minimum in force and Farkle cost."""
        made = self.situation if isinstance(self.situation, TurnPoints) else self.played_for(Unit.POINTS)
        assert isinstance(made, TurnPoints)
        return made

    @property
    def need(self) -> int | None:
        """Final round: the turn total that passes the leader (more than leader - banked)."""
        return self.situation.need if isinstance(self.situation, ReachTotal) else None

    @property
    def objective(self) -> Objective:
        """What the turn solver plays for in a position of one turn."""
        s = self.situation
        if isinstance(s, ReachTotal):
            return Objective.reach(s.need, opening=s.opening)
        return self.points_situation.objective

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


# -- what each kind of position must hold (the situation checks the rest)


def _check_bank_or_roll(p: Position) -> None:
    if p.kept is None:
        raise DrillError("a bank-or-roll drill has the dice already set aside")
    kept = counts_of(p.kept)
    split = score_table(p.rules).split(kept)
    if not is_subset(kept, counts_of(p.roll)) or split is None or not split.dice:
        raise DrillError(f"{p.kept} is not a scoring set-aside from the roll {p.roll}")


def _check_keep(p: Position) -> None:
    if (p.banked is not None or p.runs != NO_RUNS) and not p.third_farkle:
        raise DrillError(
            "a keep drill has a banked score and runs of Farkles only with a third Farkle in a row at "
            "stake, under the penalty"
        )


def _check_final_round(p: Position) -> None:
    if p.leader is None or p.banked is None or not 0 <= p.banked < p.leader:
        raise DrillError("a final round needs the leader's score above the player's banked score")
    if p.opening and p.banked:
        raise DrillError("only a final round of a player with nothing banked has an opening minimum")


def _check_opening(p: Position) -> None:
    if not p.opening:
        raise DrillError("an opening drill has an opening minimum (a multiple of 50)")


def _check_game(p: Position) -> None:
    _check_solo(p)
    opponent, target = p.opponent, p.target or 0
    if opponent is None:
        raise DrillError("a game drill has the opponent's score")
    if opponent >= target and (opponent % STEP or opponent > target + MAX_LAST_TURN_LEAD):
        raise DrillError(
            f"an opponent who has reached the target has a multiple of {STEP} up to "
            f"{target + MAX_LAST_TURN_LEAD:,}, not {opponent!r}"
        )


def _check_solo(p: Position) -> None:
    if p.banked is None or p.target is None:
        raise DrillError("a game or solo drill has a banked score and a target")


_CHECKS = MappingProxyType(
    {
        Kind.BANK_OR_ROLL: _check_bank_or_roll,
        Kind.KEEP: _check_keep,
        Kind.FINAL_ROUND: _check_final_round,
        Kind.OPENING: _check_opening,
        Kind.GAME: _check_game,
        Kind.SOLO: _check_solo,
    }
)


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
class Decision:
    """Every legal play of a position, best first, valued by the one valuation.

    ``ranked``: the position's plays (in a bank-or-roll drill, only those of the set-aside
    made); ``by_points``: for game and solo positions, the same roll valued by expected points.
    """

    position: Position
    ranked: Ranked
    by_points: Ranked | None = None

    @property
    def choices(self) -> tuple[Choice, ...]:
        return self.ranked.candidates

    @property
    def best(self) -> Choice:
        return self.choices[0]

    @property
    def keeps(self) -> tuple[tuple[int, ...], ...]:
        """The distinct set-asides the player may choose from, in the order of their best play."""
        return self.ranked.keeps

    @property
    def gap(self) -> float:
        """How far the best play is ahead of the best play that is worse, in points.

        Ties with the best do not count (either is right); 0 when every play ties.
        """
        for c in self.choices[1:]:
            diff = in_points(self.ranked.loss(c), self.position.unit)
            if diff >= TIE:
                return diff
        return 0.0

    @property
    def forced(self) -> bool:
        """Only one legal play, or only plays of equal value: nothing to decide."""
        return len(self.choices) == 1 or self.gap < TIE

    def choices_for(self, keep: tuple[int, ...]) -> tuple[Choice, ...]:
        return self.ranked.for_keep(keep)

    def choice(self, keep: tuple[int, ...], action: Action) -> Choice:
        """The legal play that sets aside ``keep`` and then does ``action``."""
        return self.ranked.choice(keep, action)


def decision_for(tables: Tables, position: Position) -> Decision:
    """Value every legal play of ``position`` exactly by its tables in ``tables``, best first (see
    :mod:`~farkle_trainer.engine.ranked` for the order of equal values); the decisions valued
    lately are held there."""
    return tables.recent(("decision", position), lambda: _decide(tables, position))


def _decide(tables: Tables, p: Position) -> Decision:
    ranked = ranked_plays(tables, p.situation, p.roll)
    if p.kept is not None:
        ranked = ranked.only(p.kept)
    by_points = ranked_plays(tables, p.points_situation, p.roll) if p.kind in SCORE_KINDS else None
    return Decision(p, ranked, by_points)


def points_choice(d: Decision) -> Choice | None:
    """Game and solo: the play that expected points would make, when it is not a best play here.

    That is the expected-points table's best set-aside and its action, valued under the
    position's own objective; None when it ties with the best play (the two agree), and
    for every other kind of drill.
    """
    top = None if d.by_points is None else d.by_points.table_play
    if top is None:
        return None
    choice = d.choice(top.keep, top.action)
    if d.ranked.loss(choice) < grade_scale(d.position.unit)[0]:
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
    return Grading(decision, chosen, decision.ranked.loss(chosen), decision.ranked.grade(chosen))


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


def strategy_notes(tables: Tables, g: Grading) -> tuple[StrategyNote, ...]:
    """Thresholds for the dice the best play rolls, and for the player's if that differs.

    Each note names the play it is for. A final round has one rule whatever the dice (roll
    until the turn passes the leader), so it gets one note.
    """
    p = g.position
    if p.kind in SCORE_KINDS:
        # A game's thresholds move with both scores; the turn solver's would mislead here.
        return ()
    solution = tables.turn(p.rules, p.objective)
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


# -- a play in notation: what the screen shows, the records and result files keep


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
