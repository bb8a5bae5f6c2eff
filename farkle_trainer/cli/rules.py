"""The rule table a command plays on: ``--rules`` loaded, with the house rules its options set."""

from __future__ import annotations

from typing import TYPE_CHECKING

from farkle_trainer.cli.errors import fail
from farkle_trainer.cli.params import parse_points, parse_target

if TYPE_CHECKING:
    from farkle_trainer.engine.rules import Rules

#: What ``--penalty`` takes: the three-Farkle penalties tables play with (0: none).
PENALTIES = (0, 500, 1000)


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


def unused_rules_note(rules: str, what: str) -> str | None:
    """The line that tells a user their ``--rules`` changes nothing here, or None for classic."""
    if rules.strip().lower() == "classic":
        return None
    return f"Note: --rules {rules} is not used: {what} always classic, with no house rules."
