"""What the shell offers as a command line is typed (``--install-completion`` sets it up): rule
files and presets, and the values of options that take one of a closed set."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path


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
