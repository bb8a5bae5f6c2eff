"""Options several commands share, taken as one value: :class:`Options` groups."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, get_type_hints


@dataclass(frozen=True)
class Options:
    """Options several commands share, declared once: a frozen dataclass subclassing this one,
    each field an option (``Annotated`` with ``typer.Option``) and its default.

    A command parameter of such a type stands for the group's options, at its place in the
    command's options (and ``--help``); the command receives them as one value.
    """


def with_groups(command: Callable[..., Any]) -> Callable[..., Any]:
    """``command`` as Typer is to read it: each :class:`Options` parameter spread into its options."""
    hints = get_type_hints(command, include_extras=True)
    groups = {name: t for name, t in hints.items() if isinstance(t, type) and issubclass(t, Options)}
    if not groups:
        return command
    keyword = inspect.Parameter.KEYWORD_ONLY
    params = []
    for param in inspect.signature(command).parameters.values():
        group = groups.get(param.name)
        if group is None:
            params.append(param.replace(kind=keyword, annotation=hints[param.name]))
            continue
        types = get_type_hints(group, include_extras=True)
        params += [
            inspect.Parameter(f.name, keyword, default=f.default, annotation=types[f.name])
            for f in fields(group)
        ]

    @functools.wraps(command)
    def run(**values: Any) -> Any:
        for name, group in groups.items():
            values[name] = group(**{f.name: values.pop(f.name) for f in fields(group)})
        return command(**values)

    run.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    return run
