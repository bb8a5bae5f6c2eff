"""Rules by name or file: a preset, or a TOML rule file read here and parsed by the engine."""

from __future__ import annotations

from pathlib import Path

from farkle_trainer.engine.rules import PRESETS, Rules, RulesError, preset, rules_from_toml
from farkle_trainer.store.files import FileTooLarge, NotARegularFile, read_limited

#: Rule files are a few lines; anything larger is not one.
MAX_RULE_FILE = 64 * 1024


def load_rules(name_or_path: str | Path | Rules | None = None) -> Rules:
    """Return a preset by name, or the rules in a TOML file.

    ``None`` gives the default preset (``classic``). Raises :class:`RulesError` with
    the offending key when a file cannot be used.
    """
    if name_or_path is None or isinstance(name_or_path, Rules):
        return preset(name_or_path)
    text = str(name_or_path)
    if text.lower() in PRESETS:
        return preset(text)
    path = Path(text).expanduser()
    if path.suffix.lower() != ".toml" and not path.exists():
        return preset(text)  # neither a preset nor a rule file: refused, naming the presets
    return rules_from_toml(_read_rule_file(path), default_name=path.stem, source=str(path))


def _read_rule_file(path: Path) -> bytes:
    """The bytes of a rule file: a regular file of at most MAX_RULE_FILE bytes."""
    try:
        return read_limited(path, MAX_RULE_FILE)
    except FileNotFoundError:
        raise RulesError("no such rule file", source=str(path)) from None
    except NotARegularFile:
        raise RulesError("not a regular file", source=str(path)) from None
    except FileTooLarge:
        too_large = f"too large for a rule file (over {MAX_RULE_FILE:,} bytes)"
        raise RulesError(too_large, source=str(path)) from None
    except OSError as exc:
        raise RulesError(f"cannot read the rule file ({exc.strerror})", source=str(path)) from None
