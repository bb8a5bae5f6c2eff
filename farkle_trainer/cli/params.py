"""Command-line values read the way the commands need them, without loading pydantic.

Typer coerces every value through a pydantic ``TypeAdapter``, and loading pydantic costs
about a tenth of a second per run, more than the rest of a ``hint``. Every parameter
here is a flag, a string, a path, a whole number (perhaps bounded) or a list of strings
or paths, which take a line each to read; anything else still goes to Typer.

Every number a command reads, whether Typer hands it over as an ``int`` option or the
command takes it as text (points, a target, a lesson or a game's number), is read by
:func:`whole`: the digits 0 to 9 only, and never more of them than any option takes.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, get_args, get_origin

from typer._click.exceptions import BadParameter
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from farkle_trainer.engine.errors import InputError

_WHOLE = re.compile(r"\s*[+-]?[0-9]+\s*", re.ASCII)
#: A number as people write points: a minus sign at most, thousands grouped by commas or spaces.
_GROUPED = re.compile(r"-?[0-9]+", re.ASCII)
_SEPARATORS = re.compile(r"[,\s]")
#: More digits than any number a command takes (a seed has 19), far fewer than the 4,300 past
#: which Python refuses to read one.
MOST_DIGITS = 100
_TRUE = frozenset({"1", "true", "t", "yes", "y", "on"})
_FALSE = frozenset({"0", "false", "f", "no", "n", "off"})
# Constraints a plain reading would skip; a parameter using any of them is left to Typer.
_CHECKS = ("parser", "click_type", "exists", "writable", "resolve_path", "clamp", "formats")


class NotANumber(ValueError):
    """Text that is not a whole number in the digits 0 to 9 (``abc``, ``1.5``, ``٣``, ``²``)."""


class FarTooLong(NotANumber):
    """A number of more digits than any option takes."""


def whole(text: str, *, grouped: bool = False) -> int:
    """The whole number ``text`` writes, with an optional sign and spaces around it.

    ``grouped`` reads points as people write them: thousands may be grouped by commas or
    spaces (``1,350``, ``1 350``), and a minus is the only sign. Raises :class:`NotANumber`,
    or :class:`FarTooLong` past :data:`MOST_DIGITS` digits.
    """
    if grouped:
        text = _SEPARATORS.sub("", text)
        written = _GROUPED.fullmatch(text) is not None
    else:
        written = _WHOLE.fullmatch(text) is not None
    if not written:
        raise NotANumber(text)
    if len(text.strip().lstrip("+-").lstrip("0")) > MOST_DIGITS:
        raise FarTooLong(text)
    return int(text)


def number_or_text(text: str) -> int | str:
    """An argument that is a number or a name (a lesson, a saved game or a file): the number when
    ``text`` writes one in the digits 0 to 9, else ``text`` itself, to be looked up by name."""
    try:
        return whole(text)
    except NotANumber:
        return text


def quoted(text: str, most: int = 30) -> str:
    """What the user typed, quoted for an error line: cut short if it would flood the line."""
    return repr(text) if len(text) <= most else repr(text[: most - 1] + "…")


#: The most points --points, --need and --opening take: far above any real turn, and a solve
#: up there still takes a few seconds (the solver works up from the points given).
MAX_POINTS = 100_000


def parse_points(text: str, option: str, *, positive: bool = False) -> int:
    """Read points as people write them ("1350", "1,350", "1 350"), in steps of 50, up to MAX_POINTS."""
    try:
        value = whole(text, grouped=True)
    except NotANumber:
        raise InputError(
            f"{option} takes a whole number of points from 0 to {MAX_POINTS:,}, like 350, not {quoted(text)}"
        ) from None
    if value > MAX_POINTS:
        raise InputError(f"{option} must be at most {MAX_POINTS:,}, not {value:,}")
    if value < 0 or (positive and value == 0):
        raise InputError(f"{option} must be {'above' if positive else 'at least'} 0, not {value:,}")
    if value % 50 and option != "--need":
        raise InputError(f"{option} must be a multiple of 50 (turn points move in fifties), not {value:,}")
    return value


def parse_target(text: str) -> int:
    """``--target``: a game's target, a multiple of 50 within the game solver's range.

    Every way of getting it wrong gets the same line, so the range is always said.
    """
    from farkle_trainer.engine.rules import MAX_TARGET, MIN_TARGET

    try:
        value: int | None = whole(text, grouped=True)
    except NotANumber:
        value = None
    if value is None or value % 50 or not MIN_TARGET <= value <= MAX_TARGET:
        shown = f"{value:,}" if value is not None else quoted(text)
        raise InputError(
            f"--target must be a multiple of 50 from {MIN_TARGET:,} to {MAX_TARGET:,}, not {shown}"
        )
    return value


def dice_from(words: list[str]) -> tuple[int, ...]:
    """Dice as a command's arguments give them ("1 5 5", or "155")."""
    from farkle_trainer.engine.dice import parse_dice

    return parse_dice(words)


class PlainValue:
    """Reads a string, a path or a whole number within optional bounds (one or a list)."""

    def __init__(self, kind: type, low: int | None = None, high: int | None = None):
        self.kind, self.low, self.high = kind, low, high

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        if param.multiple or param.nargs == -1:
            if value is None:
                return ()
            if isinstance(value, str):
                raise BadParameter("Value must be an iterable.", ctx=ctx, param=param)
            return [self.one(item, param, ctx) for item in value]
        return None if value is None else self.one(value, param, ctx)

    def one(self, value: Any, param: Any, ctx: Any) -> Any:
        if self.kind is bool:
            return self.flag(value, param, ctx)
        if self.kind is str:
            return value if isinstance(value, str) else str(value)
        if self.kind is Path:
            if isinstance(value, str) and not value.strip():
                # Path("") is the current folder: an empty name must not quietly mean "here".
                raise BadParameter("an empty name is not a file or folder.", ctx=ctx, param=param)
            return value if isinstance(value, Path) else Path(value)
        return self.whole(value, param, ctx)

    def flag(self, value: Any, param: Any, ctx: Any) -> bool:
        if isinstance(value, bool):
            return value
        word = str(value).strip().lower()
        if word in _TRUE or word in _FALSE:
            return word in _TRUE
        raise BadParameter(f"{value!r} is not yes or no.", ctx=ctx, param=param)

    def whole(self, value: Any, param: Any, ctx: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise BadParameter(f"{value!r} is not a whole number.", ctx=ctx, param=param)
        if isinstance(value, str):
            try:
                value = whole(value)
            except FarTooLong:
                raise BadParameter("the number is far too long.", ctx=ctx, param=param) from None
            except NotANumber:
                raise BadParameter(f"{quoted(value)} is not a whole number.", ctx=ctx, param=param) from None
        low, high = self.low, self.high
        if (low is not None and value < low) or (high is not None and value > high):
            if low is not None and high is not None:
                bounds = f"from {low:,} to {high:,}"
            elif low is not None:
                bounds = f"at least {low:,}"
            else:
                bounds = f"at most {high:,}"
            raise BadParameter(f"must be {bounds}, not {value:,}.", ctx=ctx, param=param)
        return value


def plain_value(param: Any) -> PlainValue | None:
    """The plain reading for a Typer parameter, or None when Typer should read it."""
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is None:
        return None
    info = descriptor.parameter_info
    if any(getattr(info, check, None) for check in _CHECKS):
        return None
    if getattr(info, "file_okay", True) is not True or getattr(info, "dir_okay", True) is not True:
        return None
    annotation = descriptor.annotation
    if get_origin(annotation) is list:
        (annotation,) = get_args(annotation) or (None,)
    if annotation is int:
        return PlainValue(int, info.min, info.max)
    if annotation in (str, Path, bool):
        if info.min is not None or info.max is not None:
            return None
        return PlainValue(annotation)
    return None


class PlainOption(TyperOption):
    """A Typer option read without pydantic where it can be."""

    def get_runtime_param(self) -> Any:
        return plain_value(self) or super().get_runtime_param()


class PlainArgument(TyperArgument):
    """An argument read without pydantic where it can be, and shown in help as its metavar
    alone: ``DICE...``, ``[LESSON]``, never a Python type."""

    def get_runtime_param(self) -> Any:
        return plain_value(self) or super().get_runtime_param()

    def _usage_display_name(self) -> str:
        name = self.display_name_raw
        if not self.required and not name.startswith("["):
            name = f"[{name}]"
        return name + ("..." if self.nargs != 1 else "")

    def _rich_display_name(self) -> str:
        return self._usage_display_name()

    def display_type_rich(self, ctx: Any) -> str | None:
        return None


def plain_parameters(command: Any) -> None:
    """Make every parameter of ``command`` a plain one (Typer makes them as it builds it)."""
    for param in getattr(command, "params", ()):
        if type(param) is TyperArgument:
            param.__class__ = PlainArgument
        elif type(param) is TyperOption:
            param.__class__ = PlainOption


def _plain_help(option: Any) -> Any:
    if type(option) is TyperOption:
        option.__class__ = PlainOption
    return option


class _PlainParameters:
    """Makes a command's parameters, ``--help`` included, plain ones."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        plain_parameters(self)

    def get_help_option(self, ctx: Any) -> Any:
        return _plain_help(super().get_help_option(ctx))  # type: ignore[misc]


class PlainCommand(_PlainParameters, TyperCommand):
    """A command whose parameters are read plainly."""


class PlainGroup(_PlainParameters, TyperGroup):
    """A group of commands whose own parameters are read plainly."""
