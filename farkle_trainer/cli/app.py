"""The ``farkle-train`` app: its commands in the order ``--help`` lists them, each module loaded
only when one of its commands runs, and the group every module's commands are made in."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, MutableMapping
from typing import Annotated, Any

import typer
import typer.main

from farkle_trainer.cli.errors import BoundaryGroup
from farkle_trainer.cli.groups import with_groups
from farkle_trainer.cli.params import PlainCommand, PlainGroup, plain_parameters

#: Every command in the order ``--help`` lists them, with the module (in this package)
#: that defines it. A command's module is imported only when that command runs, so
#: ``hint`` never pays for the classroom's or the game's imports.
COMMANDS: dict[str, str] = {
    "learn": "learn",
    "score": "score",
    "decide": "decide",
    "daily": "daily",
    "play": "play",
    "explain": "engine",
    "hint": "engine",
    "strategy": "engine",
    "progress": "records",
    "stats": "records",
    "reset": "records",
    "games": "review",
    "review": "review",
    "challenge": "classroom",
    "worksheet": "classroom",
    "class": "classroom",
}


class _Commands(MutableMapping[str, Any]):
    """The app's commands by name, each module's built the first time one of them is asked for."""

    def __init__(self, where: dict[str, str]):
        self._where = where
        self._built: dict[str, Any] = {}

    def _build(self, module_name: str) -> None:
        module = importlib.import_module(f"{__package__}.{module_name}")
        self._built.update(typer.main.get_group(module.app).commands)

    def __getitem__(self, name: str) -> Any:
        if name not in self._built and name in self._where:
            self._build(self._where[name])
        return self._built[name]

    def __setitem__(self, name: str, command: Any) -> None:
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        del self._built[name]

    def __iter__(self) -> Iterator[str]:
        yield from self._where
        yield from (name for name in self._built if name not in self._where)

    def __len__(self) -> int:
        return len(self._where.keys() | self._built.keys())


class _AppGroup(BoundaryGroup):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = _Commands(COMMANDS)

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self.commands)

    def get_params(self, ctx: Any) -> list[Any]:
        # Typer adds --install-completion and --show-completion once the group is made.
        plain_parameters(self)
        return super().get_params(ctx)


_SETTINGS: dict[str, Any] = {
    "add_completion": False,
    "pretty_exceptions_enable": False,
    "rich_markup_mode": None,
    "context_settings": {"help_option_names": ["-h", "--help"]},
}

app = typer.Typer(
    cls=_AppGroup,
    name="farkle-train",
    help="Learn Farkle scoring and bank-or-roll strategy against an exact solver.",
    no_args_is_help=True,
    **{**_SETTINGS, "add_completion": True},
)


class _Group(typer.Typer):
    """A group of commands whose parameters are read plainly (see :mod:`.params`), and whose
    commands may take :class:`~farkle_trainer.cli.groups.Options`."""

    def command(self, *args: Any, cls: Any = None, **kwargs: Any) -> Any:
        register = super().command(*args, cls=cls or PlainCommand, **kwargs)

        def decorator(command: Callable[..., Any]) -> Callable[..., Any]:
            register(with_groups(command))
            return command

        return decorator


def command_group(**options: Any) -> typer.Typer:
    """A module's own group of commands, listed in :data:`COMMANDS` and shown by ``app``."""
    return _Group(**{"cls": PlainGroup, **_SETTINGS, **options})


def _print_version(value: bool) -> None:
    if value:
        from farkle_trainer.version import __version__

        print(f"farkle-train {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """Learn Farkle scoring and bank-or-roll strategy against an exact solver."""
