"""Rich views that fit the screen: a table too wide for the console gives way to the plain layout.

Rich squeezes a table that does not fit by wrapping cells and then cutting them with "…", so
a narrow terminal would show "400.…" for 400.12 or empty boxes. A view made with :func:`fit`
draws its tables only where every one fits at its natural width, and otherwise prints the
view's plain text. Lines of text are wrapped at spaces but never inside a number or a list of
dice ("1 5 2 2"), nor between a number and "pp", so a wrapped line still reads right.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
    from rich.measure import Measurement
    from rich.text import Text

#: A space where a line may break: not one between two digits, which joins a roll's dice, nor
#: one between a number and "pp", which means nothing on a line of its own.
_BREAK = re.compile(r"(?<!\d) | (?!\d|pp\b)| {2,}")
#: Wide enough that rich never squeezes a table while measuring it.
_UNBOUNDED = 10_000


class Fitted:
    """A rich renderable with a plain-text stand-in for consoles too narrow for its tables.

    The stand-in is the view's plain text, or a function of the width that gives it, for a view
    whose plain layout has a narrower form.
    """

    def __init__(self, renderable: RenderableType, text: str | Callable[[int], str]) -> None:
        self.renderable = renderable
        self.text = text

    def plain(self, width: int) -> str:
        return self.text if isinstance(self.text, str) else self.text(width)

    def fits(self, console: Console, options: ConsoleOptions) -> bool:
        from rich.measure import Measurement

        wide = options.update_width(_UNBOUNDED)
        return all(
            Measurement.get(console, wide, table).maximum <= options.max_width
            for table in _tables(self.renderable)
        )

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.text import Text

        if not self.fits(console, options):
            for line in self.plain(options.max_width).split("\n"):
                yield from wrap(Text(line), options.max_width)
            return
        for part in _parts(self.renderable):
            if isinstance(part, Text) and "\n" not in part.plain:
                yield from wrap(part, options.max_width)
            else:
                yield part

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        from rich.measure import Measurement

        return Measurement.get(console, options, self.renderable)


def fit(renderable: RenderableType, text: str | Callable[[int], str]) -> Fitted:
    """``renderable`` where its tables fit the console, else ``text`` (the view's plain layout,
    or a function of the console's width that gives it)."""
    return Fitted(renderable, text)


def _parts(renderable: RenderableType) -> list[RenderableType]:
    from rich.console import Group

    if isinstance(renderable, Group):
        return [p for r in renderable.renderables for p in _parts(r)]
    return [renderable]


def _tables(renderable: RenderableType) -> Iterator[RenderableType]:
    from rich.table import Table

    for part in _parts(renderable):
        if isinstance(part, Table):
            yield part


def wrap(text: Text, width: int) -> Iterable[Text]:
    """``text`` as lines of at most ``width`` cells, broken only where :data:`_BREAK` allows.

    A continuation line keeps the first line's indent plus two spaces; a single word wider
    than the screen is folded, the one case where a word has to be split.
    """
    from rich.text import Text

    plain = text.plain
    indent = len(plain) - len(plain.lstrip(" "))
    hang = " " * min(indent + 2, max(0, width // 3))
    lines: list[Text] = []
    rest = text
    first = True
    while True:
        room = width - (0 if first else len(hang))
        if rest.cell_len <= room or room <= 0:
            lines.append(rest if first else Text(hang) + rest)
            break
        cut = _cut(rest.plain, room, 0 if not first else indent)
        head, tail = rest.divide([cut])[:2] if cut < len(rest.plain) else (rest, Text())
        head.rstrip()
        lines.append(head if first else Text(hang) + head)
        rest = tail
        stripped = len(rest.plain) - len(rest.plain.lstrip(" "))
        if stripped:
            rest = rest[stripped:]
        first = False
        if not rest.plain:
            break
    for line in lines:
        line.no_wrap = True
        line.overflow = "fold"
    return lines


def _cut(plain: str, room: int, after: int) -> int:
    """Where to break ``plain`` so the head fits ``room`` cells: the last allowed space, else fold."""
    best = 0
    for match in _BREAK.finditer(plain, after):
        if match.start() > room:
            break
        best = match.start()
    return best if best > after else room
