"""Reading answers: forgiving in form, strict in substance.

Each parser takes what a person typed and returns a value, or raises
:class:`AnswerError` with a hint on how to type it. A malformed answer is asked
again; it is never graded as wrong.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from typing import Literal

from farkle_trainer.engine.dice import format_dice
from farkle_trainer.engine.errors import InputError

Action = Literal["bank", "roll"]
#: An answer to the bank-or-roll question: the action, the set-aside taken back, or other dice.
BankOrRoll = Action | Literal["undo"] | tuple[int, ...]
PLACES = string.ascii_lowercase[:6]


class AnswerError(InputError):
    """An answer that could not be read; the message says how to type it."""


_GROUPED = re.compile(r"\d+|\d{1,3}(?:[ ,_']\d{3})+")
#: A unit people add after a number of points ("500 points", "500 pts").
#: No roll of six dice scores more than seven digits of points under any rule file.
_MOST_DIGITS = 7
_UNIT = re.compile(r"\s*(?:points?|pts?)\.?\s*$", re.I)
#: Answers that stop any activity, at any prompt (Ctrl-D does the same).
STOP_WORDS = ("q", "quit", "exit", "stop")
#: The answers to the bank-or-roll question, and taking back the set-aside before it is answered.
#: Where dice are set aside nothing can be banked yet, so a letter a to f there is always a place
#: (``b`` is the die in place b); the other words are refused there (:data:`SET_ASIDE_FIRST`).
BANK_WORDS = ("b", "bank", "banks", "stop")
ROLL_WORDS = ("r", "roll", "roll on", "rolls", "go", "continue")
UNDO_WORDS = ("u", "undo", "back")
SET_ASIDE_FIRST = "set dice aside first, by faces like 1 5 or places like a e: bank or roll comes after"


def is_stop(text: str) -> bool:
    """Whether an answer asks to stop the activity (``q``, ``quit``, ...)."""
    return text.strip().lower() in STOP_WORDS


def printable(text: str) -> str:
    """An answer as it may be quoted back: control characters and undecodable bytes shown escaped."""
    return "".join("?" if ch == "\ufffd" else ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


def quoted_answer(text: str, most: int = 30) -> str:
    """An answer quoted back in a line that says what is wrong with it: :func:`printable`, in
    quotes, cut short where it would flood the line."""
    shown = printable(text)
    return f"'{shown}'" if len(shown) <= most else f"'{shown[: most - 1]}…'"


def parse_number(text: str) -> int:
    """``"1100"``, ``"1,100"``, ``"1 100"`` and ``"1_100"`` are all 1,100.

    Separators must group thousands, so dice typed by mistake (``"1 5 5"``) are asked
    again rather than read as 155.
    """
    cleaned = _UNIT.sub("", text.strip())
    if not _GROUPED.fullmatch(cleaned):
        raise AnswerError("type a whole number of points, like 1100 or 1,100")
    digits = re.sub(r"[ ,_']", "", cleaned)
    if len(digits.lstrip("0")) > _MOST_DIGITS:
        raise AnswerError("no dice score that many points: type the points, like 1100 or 1,100")
    return int(digits)


def parse_yes_no(text: str, default: bool | None = None) -> bool:
    """``y``/``yes`` or ``n``/``no``; an empty answer is ``default`` where there is one."""
    word = text.strip().lower()
    if not word and default is not None:
        return default
    if word in ("y", "yes", "yeah", "true"):
        return True
    if word in ("n", "no", "nope", "false"):
        return False
    raise AnswerError("type y for yes or n for no")


def _word(text: str) -> str:
    return " ".join(text.strip().lower().split())


def parse_action(text: str) -> Action:
    """``b``/``bank`` or ``r``/``roll`` (also ``roll on``)."""
    word = _word(text)
    if word in BANK_WORDS:
        return "bank"
    if word in ROLL_WORDS:
        return "roll"
    raise AnswerError("type b to bank or r to roll on")


def parse_bank_or_roll(text: str, roll: tuple[int, ...] | list[int]) -> BankOrRoll:
    """The answer to the bank-or-roll question after a set-aside from ``roll``: bank, roll on,
    ``"undo"`` (take the set-aside back), or other dice of the roll to set aside instead.

    Here ``b``, ``r`` and ``u`` are actions; anything else is read as dice (see
    :func:`parse_selection`), whether they score being the caller's to judge.
    """
    if _word(text) in UNDO_WORDS:
        return "undo"
    try:
        return parse_action(text)
    except AnswerError as not_action:
        try:
            return parse_selection(text, roll)
        except AnswerError:
            raise AnswerError(
                f"{not_action}, u to take back the set-aside, or set aside other dice"
            ) from None


_NUMBERS = ("no", "one", "two", "three", "four", "five", "six")


def _how_many(n: int, face: int) -> str:
    """``one 1``, ``three 4s``: a count of one face in words."""
    return f"{'only ' if n == 1 else ''}{_NUMBERS[n]} {face}{'' if n == 1 else 's'}"


def place_label(index: int) -> str:
    """The letter that names the die at ``index`` in a roll: a, b, c, ..."""
    return PLACES[index]


def labelled_roll(roll: tuple[int, ...] | list[int]) -> str:
    """``(5, 2, 1)`` -> ``"a:5 b:2 c:1"``: each die with the letter of its place."""
    return " ".join(f"{place_label(i)}:{face}" for i, face in enumerate(roll))


def _looks_like_points(text: str) -> bool:
    """``100``, ``1,050`` or ``250 points``: a number of points, not faces (no face is 0 or 7-9)."""
    cleaned = _UNIT.sub("", text.strip())
    number = re.sub(r"[ ,_']", "", cleaned)
    named = cleaned != text.strip()
    return (
        number.isascii()
        and number.isdigit()
        and (named or (len(number) > 1 and not set(number) <= set("123456")))
    )


def parse_selection(text: str, roll: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """Dice picked from a roll, by faces (``"1 5"``, ``"15"``) or places (``"a c"``, ``"ac"``).

    Nothing is banked while dice are picked, so every letter a to f is a place; ``r``, ``bank``,
    ``u`` and the like are refused with :data:`SET_ASIDE_FIRST`.
    Returns the picked faces in ascending order. Raises :class:`AnswerError` when a
    die is not in the roll (or more of a face are picked than were rolled). Whether
    the pick scores is for the caller to judge.
    """
    word = _word(text)
    if word in (*BANK_WORDS, *ROLL_WORDS, *UNDO_WORDS) and not set(word) <= set(PLACES):
        raise AnswerError(SET_ASIDE_FIRST)
    if _looks_like_points(text):
        raise AnswerError("type the dice to set aside (faces like 1 5, or places like a e), not their points")
    words = re.split(r"[\s,;/\-+]+", text.strip().lower())
    words = [w for w in words if w]
    if not words:
        raise AnswerError("pick at least one die: type faces like 1 5, or places like a c")
    picked: list[int] = []
    places: set[int] = set()
    for word in words:
        if word.isdigit():
            for ch in word:
                if ch not in "123456":
                    raise AnswerError(f"{ch} is not a die face: faces are 1 to 6")
                picked.append(int(ch))
        elif word.isalpha():
            for ch in word:
                index = PLACES.find(ch)
                if index < 0 or index >= len(roll):
                    last = place_label(len(roll) - 1)
                    raise AnswerError(
                        f"{quoted_answer(ch)} is not a place in this roll: places are a to {last}"
                    )
                if index in places:
                    raise AnswerError(f"place {ch} is picked twice")
                places.add(index)
                picked.append(roll[index])
        else:
            raise AnswerError(f"{quoted_answer(word)} is neither faces (like 1 5) nor places (like a c)")
    have = Counter(roll)
    want = Counter(picked)
    for face, n in sorted(want.items()):
        if n > have[face]:
            shown = format_dice(roll, " ")
            if not have[face]:
                raise AnswerError(f"the roll {shown} has no {face}")
            asked = _NUMBERS[n] if n < len(_NUMBERS) else f"{n:,}"
            raise AnswerError(f"the roll {shown} has {_how_many(have[face], face)}, not {asked}")
    return tuple(sorted(picked))


# -- numbers and dice in words, the same on every screen, in records and in result files


def points(value: int) -> str:
    """``1200`` -> ``"1,200"``."""
    return f"{value:,}"


def ev(value: float) -> str:
    """An expected score, to two decimals: ``"702.35"``."""
    return f"{value:,.2f}"


def figure(value: float, bounds: tuple[float, ...] = (), *, digits: int = 2) -> str:
    """``value`` to ``digits`` decimals, or to as many more (up to six) as it takes to stay on the
    same side of every bound in ``bounds``: 0.4977 under a bound of 0.5 is ``"0.498"``, not
    ``"0.50"``."""
    for places in range(digits, 7):
        shown = round(value, places)
        if all((shown < b) == (value < b) for b in bounds):
            return f"{value:,.{places}f}"
    return f"{value:,.6f}"


def percent(value: float) -> str:
    return f"{100 * value:.2f}%"


def dice_text(dice: tuple[int, ...] | list[int]) -> str:
    """``"1 5 5"``: dice as they are read aloud."""
    return format_dice(dice, " ")


def dice_count(n: int) -> str:
    """``"1 die"``, ``"4 dice"``."""
    return f"{n} {'die' if n == 1 else 'dice'}"


def plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


# -- a decision of a game, in words: what the records and result files keep


def in_a_row(farkles: int) -> str:
    """A run of Farkled turns as it reads after a score: `` (2 Farkles in a row)``, or nothing."""
    return f" ({plural(farkles, 'Farkle')} in a row)" if farkles else ""


def move_words(keep: tuple[int, ...], action: str, dice_left: int) -> str:
    """``keep 1 5 and roll 4 dice`` / ``keep 1 1 1 and bank``."""
    if action == "bank":
        return f"keep {dice_text(keep)} and bank"
    return f"keep {dice_text(keep)} and roll {'all 6 dice' if dice_left == 0 else dice_count(dice_left)}"


def decision_item(roll: tuple[int, ...], at_stake: int) -> str:
    """A stable key for a game decision: the roll (sorted) and the points at stake."""
    return f"{format_dice(sorted(roll))}@{at_stake}"


def decision_question(roll: tuple[int, ...], at_stake: int) -> str:
    roll_text = dice_text(sorted(roll))
    return f"Roll {roll_text} with {points(at_stake)} at stake: what do you keep, and bank or roll?"
