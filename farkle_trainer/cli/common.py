"""What every command shares: the app, its common options, input parsing and errors."""

from __future__ import annotations

import functools
import importlib
import inspect
import sys
from collections.abc import Callable, Iterator, MutableMapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, get_type_hints

import typer
import typer.main

from farkle_trainer.cli.errors import BoundaryGroup, fail
from farkle_trainer.cli.params import PlainCommand, PlainGroup, parse_points, parse_target, plain_parameters
from farkle_trainer.ui.terminal import is_terminal

if TYPE_CHECKING:
    from farkle_trainer.engine.rules import Rules
    from farkle_trainer.store.connection import Clock
    from farkle_trainer.store.db import Store
    from farkle_trainer.training.classroom.codes import Activity
    from farkle_trainer.training.classroom.entry import ClassEntry
    from farkle_trainer.training.classroom.results import ResultRecorder
    from farkle_trainer.training.frontend import Frontend
    from farkle_trainer.training.session import Session
    from farkle_trainer.ui.terminal import Terminal

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


@dataclass(frozen=True)
class Options:
    """Options several commands share, declared once: a frozen dataclass subclassing this one,
    each field an option (``Annotated`` with ``typer.Option``) and its default.

    A command parameter of such a type stands for the group's options, at its place in the
    command's options (and ``--help``); the command receives them as one value.
    """


def _with_groups(command: Callable[..., Any]) -> Callable[..., Any]:
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


class _Group(typer.Typer):
    """A group of commands whose parameters are read plainly (see :mod:`.params`), and whose
    commands may take :class:`Options`."""

    def command(self, *args: Any, cls: Any = None, **kwargs: Any) -> Any:
        register = super().command(*args, cls=cls or PlainCommand, **kwargs)

        def decorator(command: Callable[..., Any]) -> Callable[..., Any]:
            register(_with_groups(command))
            return command

        return decorator


def command_group(**options: Any) -> typer.Typer:
    """A module's own group of commands, listed in :data:`COMMANDS` and shown by ``app``."""
    return _Group(**{"cls": PlainGroup, **_SETTINGS, **options})


def _print_version(value: bool) -> None:
    if value:
        from farkle_trainer import __version__

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
    from farkle_trainer.store.tables import keep_tables_on_disk

    keep_tables_on_disk()


def points_option(name: str, help: str) -> Any:
    """An option taking points as people write them ("1350", "1,350"), absent unless given."""
    return typer.Option(name, metavar="POINTS", help=help, show_default=False)


def file_option(name: str, metavar: str, help: str) -> Any:
    """An option naming a file to write, absent unless given."""
    return typer.Option(name, metavar=metavar, help=help, show_default=False)


def argument(metavar: str, help: str, complete: Callable[[str], list[Any]] | None = None) -> Any:
    """A command's argument, shown in ``--help`` by ``metavar`` alone, never by a default;
    ``complete`` says what the shell offers for it."""
    return typer.Argument(metavar=metavar, help=help, show_default=False, autocompletion=complete)


def complete_rules(incomplete: str) -> list[str]:
    """What the shell offers for ``--rules``: the presets, then the rule files and the folders
    that may hold one (``--install-completion`` sets the shell up to ask)."""
    from farkle_trainer.engine.rules import PRESETS

    offered = [name for name in PRESETS if name.startswith(incomplete.lower())]
    folder, slash, start = incomplete.rpartition("/")
    try:
        entries = sorted(Path(folder + slash or ".").iterdir())
    except OSError:
        return offered
    for entry in entries:
        if not entry.name.startswith(start) or (entry.name.startswith(".") and not start.startswith(".")):
            continue
        if entry.is_dir():
            offered.append(f"{folder}{slash}{entry.name}/")
        elif entry.suffix.lower() == ".toml":
            offered.append(f"{folder}{slash}{entry.name}")
    return offered


def complete_from(
    names: Callable[[], Sequence[str]], *, listed: bool = False, repeats: bool = False
) -> Callable[[str], list[str]]:
    """What the shell offers for an option or argument of a closed set (``names``, read only when
    the shell asks, so a module that declares it loads nothing more). With ``listed`` the value is
    a comma list, and the shell completes its last name, after the names already given (those
    again too with ``repeats``: ``--vs easy,easy``)."""

    def complete(incomplete: str) -> list[str]:
        given, comma, last = incomplete.rpartition(",") if listed else ("", "", incomplete)
        chosen = {word.strip().lower() for word in given.split(",")} if comma else set()
        return [
            f"{given}{comma}{name}"
            for name in names()
            if name.startswith(last.lower()) and (repeats or name not in chosen)
        ]

    return complete


def _kinds() -> tuple[str, ...]:
    from farkle_trainer.engine.kinds import KINDS

    return KINDS


def _topics() -> tuple[str, ...]:
    from farkle_trainer.training.quizzes.topics import TOPICS

    return TOPICS


#: What ``--level`` of a quiz, a drill or a worksheet takes.
DIFFICULTIES = ("easy", "medium", "hard")
#: The shell's completions for ``--kind`` of decide, ``--topic`` of score, and ``--level``.
complete_kinds = complete_from(_kinds, listed=True)
complete_topics = complete_from(_topics, listed=True)
complete_level = complete_from(lambda: DIFFICULTIES)


RulesOpt = Annotated[
    str,
    typer.Option(
        "--rules",
        "-r",
        metavar="NAME|FILE.toml",
        help="Scoring table: classic, fixed, doubling, multiplier, or a TOML rule file.",
        autocompletion=complete_rules,
    ),
]
PlainOpt = Annotated[
    bool, typer.Option("--plain", help="Plain line-based text (the default when not on a terminal).")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
OpeningOpt = Annotated[
    str | None,
    points_option(
        "--opening",
        "Opening minimum in force (you have nothing banked): no bank below it. "
        "Default: the rule set's own, 0 for the presets.",
    ),
]
TargetOpt = Annotated[
    str | None,
    points_option(
        "--target",
        "The target of game and solo drills, 1,000 to 20,000 in fifties. Default: the rule set's own.",
    ),
]
PenaltyOpt = Annotated[
    str | None,
    points_option(
        "--penalty", "Three Farkles in a row cost 500 or 1000 (never below 0). Default: the rule set's own."
    ),
]
#: What ``--penalty`` takes: the three-Farkle penalties tables play with (0: none).
PENALTIES = (0, 500, 1000)


DiceArg = Annotated[list[str], argument("DICE", "Dice faces 1-6, as '1 5 5' or '155'.")]


def one_of(names: tuple[str, ...]) -> str:
    """``a, b or c``: the choices an option takes, as its help lists them."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def load(rules: str) -> Rules:
    from farkle_trainer.store.rules import load_rules

    return load_rules(rules)


def with_target(rules: Rules, target: str | None) -> Rules:
    """The rules with ``--target`` as their target."""
    return rules if target is None else rules.with_house_rules(target=parse_target(target))


def with_penalty(rules: Rules, penalty: str | None) -> Rules:
    """The rules with ``--penalty`` as their three-Farkle penalty (the rules' own if not given)."""
    if penalty is None:
        return rules
    value = parse_points(penalty, "--penalty")
    if value not in PENALTIES:
        fail(f"--penalty is 500 or 1000 points (0 for none), not {value:,}")
    return rules.with_house_rules(three_farkle_penalty=value)


def opening_for(rules: Rules, opening: str | None) -> int:
    return rules.opening_minimum if opening is None else parse_points(opening, "--opening")


def dice_from(words: list[str]) -> tuple[int, ...]:
    from farkle_trainer.engine.dice import parse_dice

    return parse_dice(words)


def classic_only_rules(what: str) -> Any:
    """``--rules`` for a command that is always played on ``classic``: left out of the help,
    since it changes nothing, but still accepted (and said to be unused) for scripts that pass it.

    ``what`` completes "Not used: ... always played on the classic table", e.g. "the daily game is".
    """
    return typer.Option(
        "--rules",
        "-r",
        metavar="NAME|FILE.toml",
        help=f"Not used: {what} always played on the classic table with no house rules.",
        autocompletion=complete_rules,
        hidden=True,
    )


def unused_rules_note(rules: str, what: str) -> str | None:
    """The line that tells a user their ``--rules`` changes nothing here, or None for classic."""
    if rules.strip().lower() == "classic":
        return None
    return f"Note: --rules {rules} is not used: {what} always classic, with no house rules."


def _keep_cache_in_data_dir(value: Path | None) -> Path | None:
    # Run while the options are read, so a solve that comes before the store opens (decide
    # prepares its tables first) already writes inside the student's directory.
    if value is not None:
        from farkle_trainer.store.tables import set_cache_dir

        set_cache_dir(value.expanduser() / "cache")
    return value


DataDirOpt = Annotated[
    Path | None,
    typer.Option(
        "--data-dir",
        metavar="DIR",
        help="Keep progress, stats and the solver cache in DIR (default: $FARKLE_TRAIN_HOME, "
        "else your user data directory).",
        show_default=False,
        callback=_keep_cache_in_data_dir,
    ),
]

_NO_ANSWER_HINT = "answer y when asked (in a terminal, or by piping it: echo y | farkle-train ...)"


def open_store_or_explain(path: Path | None, term: Terminal, *, clock: Clock | None = None) -> Store:
    """Open the store in data directory ``path`` (None: the default), or explain why not.

    A damaged or foreign file is named, and the user is asked whether to keep it aside
    (renamed, never deleted) and start a fresh store. When nobody can answer, or the answer
    is no, nothing changes and a :class:`~farkle_trainer.ui.terminal.UserError` says how to proceed;
    ``clock`` is the store's clock (the system's by default).
    """
    from farkle_trainer.store.db import Store
    from farkle_trainer.store.errors import DamagedStoreError
    from farkle_trainer.store.paths import set_aside_damaged

    try:
        return Store.open(path, clock=clock)
    except DamagedStoreError as exc:
        damaged = exc
    if not term.plain:
        print(f"{damaged}.", file=sys.stderr)
        question = "Keep that file aside (renamed, never deleted) and start a fresh store?"
    else:
        question = f"{damaged}. Keep it aside (renamed, never deleted) and start a fresh store?"
    answer = term.confirm(question)
    if answer is None:
        fail(f"{damaged}. Nothing was changed; to start a fresh store, {_NO_ANSWER_HINT}.")
    if not answer:
        fail(f"{damaged}. Nothing was changed.")
    kept = set_aside_damaged(damaged.path)
    print(f"Kept the damaged file as {kept}; starting a fresh store.", file=sys.stderr)
    return Store.open(path, clock=clock)


ReplaceOpt = Annotated[bool, typer.Option("--force", help="Replace a file that exists already.")]


def may_replace(path: Path, option: str, term: Terminal, *, force: bool) -> None:
    """Refuse to write over an existing ``path`` unless ``force``, or a yes typed on a terminal.

    A file given by mistake (a result file named as the CSV to write) is someone's work.
    """
    from farkle_trainer.ui.terminal import is_terminal

    if not (path.exists() or path.is_symlink()):
        return
    if path.is_dir():
        fail(f"{option}: {path} is a folder: give a file name")
    if path.exists() and not path.is_file():
        # A FIFO or a device would take the writing and never give it back, --force or not.
        fail(f"{option}: {path} is not a regular file: give a file name")
    if force:
        return
    if is_terminal(sys.stdin) and term.confirm(f"{path} exists. Replace it?"):
        return
    fail(f"{option}: {path} exists: choose another name, or add --force to replace it")


# -- joining a class code: score, decide and challenge

CodeOpt = Annotated[
    str | None,
    typer.Option(
        "--code",
        metavar="CODE",
        help="A class code, like MATH7B: everyone who types it gets the same questions, whatever their "
        "progress. Kept with your answers.",
        show_default=False,
    ),
]
SaveResultOpt = Annotated[
    Path | None,
    file_option(
        "--save-result",
        "FILE.json",
        "With a class code: keep your answers in FILE.json to hand in (farkle-train class report reads it).",
    ),
]
ForceOpt = Annotated[
    bool,
    typer.Option(
        "--force",
        help="Replace the file even if it holds another result than your own unfinished one for this "
        "code and activity.",
    ),
]
NameOpt = Annotated[
    str | None,
    typer.Option(
        "--name",
        metavar="NAME",
        help="With a class code: your name on the result (asked on a terminal when --save-result is given).",
        show_default=False,
    ),
]


@dataclass(frozen=True)
class ClassCodeOptions(Options):
    """``--code`` and what goes with it: the result file, the student's name, ``--force``."""

    code: CodeOpt = None
    save_result: SaveResultOpt = None
    name: NameOpt = None
    force: ForceOpt = False

    def class_entry(self, activity: Activity, *, seed: object = None) -> ClassEntry | None:
        """The class code options, checked before anything is asked (see the training module)."""
        from farkle_trainer.training.classroom.entry import class_entry as check

        return check(
            self.code,
            activity,
            seed=seed,
            save_result=self.save_result,
            name=self.name,
            force=self.force,
            can_ask=is_terminal(sys.stdin),
        )


@dataclass(frozen=True)
class SessionOptions(ClassCodeOptions):
    """What a session of ``score`` or ``decide`` takes besides its questions: a class code to
    join, the rules, plain text and the data directory."""

    rules: RulesOpt = "classic"
    plain: PlainOpt = False
    data_dir: DataDirOpt = None


def start_session(
    store: Store,
    kind: str,
    rules: Rules,
    planned: int,
    entry: ClassEntry | None,
    front: Frontend,
    *,
    seed: int | None,
    settings: dict[str, Any],
    adaptive: bool,
) -> Session:
    """Start recording a session of ``kind``, ``planned`` questions long; with a class code, its
    result too (the student's name asked first when it is needed). ``settings`` are kept with both."""
    from farkle_trainer.training.session import Session

    result = (
        None if entry is None else entry.begin(front, rules=rules.name, settings=settings, planned=planned)
    )
    code = None if entry is None else entry.code
    params = {**settings, "adaptive": adaptive}
    return Session.start(store, kind, rules=rules.name, seed=seed, code=code, params=params, result=result)


def end_result(front: Frontend, recorder: ResultRecorder, result_complete: bool, **totals: Any) -> None:
    """Finish the result, say where it went in one line, and fail if the file could not be written."""
    from farkle_trainer.ui.views import classroom as view

    result = recorder.finish(complete=result_complete, **totals)
    saved = str(recorder.path) if recorder.saved else None
    front.say(view.result_line(result, saved_to=saved, file_given=recorder.path is not None))
    if recorder.error is not None:
        fail(recorder.error)
