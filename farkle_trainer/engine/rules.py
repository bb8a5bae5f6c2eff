"""Scoring tables and house rules: the presets, and custom tables parsed from TOML.

A :class:`Rules` value is immutable and hashable, so everything derived from it
(score tables, solved turns) can be cached by it.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from types import MappingProxyType
from typing import Any, Literal

from farkle_trainer.engine.errors import InputError

OfAKindMode = Literal["fixed", "multiply"]

FACE_WORDS: Mapping[int, str] = MappingProxyType(
    {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
)


class RulesError(InputError):
    """A rule set that cannot be used: an unknown preset, or a bad rule file.

    ``key`` names the offending setting when there is one.
    """

    def __init__(self, message: str, *, key: str | None = None, source: str | None = None):
        self.key = key
        self.source = source
        self.detail = message
        where = f"{source}: " if source else ""
        what = f"{key}: " if key else ""
        super().__init__(f"{where}{what}{message}")


@dataclass(frozen=True)
class Rules:
    """One Farkle scoring table plus the house rules that go with it.

    Points are in steps of 50, the unit the turn solver counts in.
    Four, five and six of a kind are either fixed points (``of_a_kind="fixed"``)
    or a whole multiple of that face's three of a kind (``of_a_kind="multiply"``).
    A combination set to ``None`` is not part of the table.
    """

    name: str = "classic"
    single_one: int = 100
    single_five: int = 50
    #: Three of a kind for faces 1..6.
    triples: tuple[int, int, int, int, int, int] = (1000, 200, 300, 400, 500, 600)
    of_a_kind: OfAKindMode = "fixed"
    four_of_a_kind: int | None = 1000
    five_of_a_kind: int | None = 2000
    six_of_a_kind: int | None = 3000
    straight: int | None = 1500
    three_pairs: int | None = 1500
    four_of_a_kind_and_pair: int | None = None
    two_triplets: int | None = 2500
    #: Five-dice straights 1-2-3-4-5 and 2-3-4-5-6.
    partial_straight_low: int | None = None
    partial_straight_high: int | None = None
    opening_minimum: int = 0
    three_farkle_penalty: int = 0
    target: int = 10_000
    description: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        # Every way of making rules (a preset, a rule file, a saved game, a copy with house rules
        # changed) meets the same bounds, so nothing out of range ever reaches a solver.
        _validate(self, None)

    def of_a_kind_points(self, face: int, count: int) -> int | None:
        """Points for ``count`` (3..6) dice showing ``face``, or None if the table has none."""
        triple = self.triples[face - 1]
        if count == 3:
            return triple
        value = {4: self.four_of_a_kind, 5: self.five_of_a_kind, 6: self.six_of_a_kind}[count]
        if value is None:
            return None
        return triple * value if self.of_a_kind == "multiply" else value

    @property
    def scoring_key(self) -> str:
        """A short digest of everything that decides what dice score.

        House rules and the name are left out, so two tables that score alike share
        cached solutions.
        """
        data = asdict(self)
        for key in ("name", "description", "opening_minimum", "three_farkle_penalty", "target"):
            data.pop(key)
        text = json.dumps(data, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def with_house_rules(
        self,
        *,
        opening_minimum: int | None = None,
        three_farkle_penalty: int | None = None,
        target: int | None = None,
    ) -> Rules:
        """A copy with some house rules changed (None keeps the current value)."""
        changes: dict[str, Any] = {}
        if opening_minimum is not None:
            changes["opening_minimum"] = _check_points("opening_minimum", opening_minimum, zero_ok=True)
        if three_farkle_penalty is not None:
            changes["three_farkle_penalty"] = _check_points(
                "three_farkle_penalty", three_farkle_penalty, zero_ok=True
            )
        if target is not None:
            changes["target"] = _check_points("target", target, high=MAX_TARGET)
        return replace(self, **changes)

    def table(self) -> list[tuple[str, str]]:
        """The scoring table as (combination, points) rows, for display."""

        def pts(value: int | None) -> str:
            return "-" if value is None else f"{value:,}"

        def kind(count: int) -> str:
            value = {4: self.four_of_a_kind, 5: self.five_of_a_kind, 6: self.six_of_a_kind}[count]
            if value is None:
                return "-"
            return f"{value}x the triple" if self.of_a_kind == "multiply" else f"{value:,}"

        rows = [("single 1", pts(self.single_one)), ("single 5", pts(self.single_five))]
        rows += [(f"three {face}s", pts(self.triples[face - 1])) for face in range(1, 7)]
        rows += [("four of a kind", kind(4)), ("five of a kind", kind(5)), ("six of a kind", kind(6))]
        rows += [
            ("straight 1-6", pts(self.straight)),
            ("three pairs", pts(self.three_pairs)),
            ("four of a kind and a pair", pts(self.four_of_a_kind_and_pair)),
            ("two triplets", pts(self.two_triplets)),
        ]
        if self.partial_straight_low is not None:
            rows.append(("straight 1-5", pts(self.partial_straight_low)))
        if self.partial_straight_high is not None:
            rows.append(("straight 2-6", pts(self.partial_straight_high)))
        return rows


def preset(name: str | Rules | None = None) -> Rules:
    """A preset by name, in any case; ``None`` gives the default (``classic``), and rules
    are returned as they are. Rule files are read by :func:`farkle_trainer.load_rules`.
    """
    if name is None:
        return PRESETS[DEFAULT_RULES]
    if isinstance(name, Rules):
        return name
    if name.lower() in PRESETS:
        return PRESETS[name.lower()]
    names = ", ".join(PRESETS)
    raise RulesError(f"unknown rules {name!r}: use a preset ({names}) or a .toml file")


def rules_from_toml(raw: bytes, *, default_name: str, source: str) -> Rules:
    """The rules in the bytes of a rule file (see :func:`rules_from_mapping`); ``source``
    names the file in every error."""
    try:
        data = tomllib.loads(raw.decode("utf-8-sig"))
        return rules_from_mapping(data, default_name=default_name, source=source)
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise RulesError(f"not valid TOML ({exc})", source=source) from None
    except RecursionError:
        # Nested arrays or inline tables thousands deep: no rule file looks like that.
        raise RulesError("not a rule file: arrays or tables nested too deeply", source=source) from None


# The TOML layout: section -> key -> Rules field.  Face names in [three_of_a_kind]
# map to positions in Rules.triples.
_SECTIONS: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {
        "singles": MappingProxyType({"one": "single_one", "five": "single_five"}),
        "of_a_kind": MappingProxyType(
            {
                "mode": "of_a_kind",
                "four": "four_of_a_kind",
                "five": "five_of_a_kind",
                "six": "six_of_a_kind",
            }
        ),
        "combinations": MappingProxyType(
            {
                "straight": "straight",
                "three_pairs": "three_pairs",
                "four_of_a_kind_and_pair": "four_of_a_kind_and_pair",
                "two_triplets": "two_triplets",
                "partial_straight_low": "partial_straight_low",
                "partial_straight_high": "partial_straight_high",
            }
        ),
        "house": MappingProxyType(
            {
                "opening_minimum": "opening_minimum",
                "three_farkle_penalty": "three_farkle_penalty",
                "target": "target",
            }
        ),
    }
)
_OPTIONAL = frozenset(
    {
        "four_of_a_kind",
        "five_of_a_kind",
        "six_of_a_kind",
        "straight",
        "three_pairs",
        "four_of_a_kind_and_pair",
        "two_triplets",
        "partial_straight_low",
        "partial_straight_high",
    }
)
#: The most any value of a rule file may be worth. The solver's work grows with the points a
#: turn can reach: with every value at these maxima a strategy still takes about 2 s of CPU.
MAX_RULE_POINTS = 10_000
#: Games are played to a target from MIN_TARGET to MAX_TARGET (in fifties): the game solver's
#: range. A rule file may name a lower target, used by nothing that needs a game.
MIN_TARGET = 1_000
MAX_TARGET = 20_000
#: The highest opening minimum of a game (and of a rule file): above it a player all but never
#: opens, and the game's chances stop settling in floating point.
MAX_OPENING = MAX_RULE_POINTS
MAX_FACTOR = 10
_HOUSE_ZERO_OK = frozenset({"opening_minimum", "three_farkle_penalty"})
_TOP_LEVEL = frozenset({"name", "base", "description", "three_of_a_kind", *_SECTIONS})


def rules_from_mapping(
    data: dict[str, Any], *, default_name: str = "custom", source: str | None = None
) -> Rules:
    """Build rules from a parsed TOML document (see ``docs`` in the README for the layout).

    Every key is checked; an unknown key or a bad value raises :class:`RulesError`
    naming it, so a typo never silently falls back to a default.
    """

    def fail(key: str, message: str) -> RulesError:
        return RulesError(message, key=key, source=source)

    for key in data:
        if key not in _TOP_LEVEL:
            known = ", ".join(sorted(_TOP_LEVEL))
            raise fail(key, f"unknown setting (known: {known})")
    base_name = data.get("base", DEFAULT_RULES)
    if not isinstance(base_name, str) or base_name.lower() not in PRESETS:
        raise fail("base", f"must name a preset: {', '.join(PRESETS)}")
    rules = PRESETS[base_name.lower()]
    name = data.get("name", default_name)
    if not isinstance(name, str) or not name.strip():
        raise fail("name", "must be a non-empty string")
    description = data.get("description", f"custom table based on {rules.name}")
    if not isinstance(description, str):
        raise fail("description", "must be a string")
    changes: dict[str, Any] = {"name": name.strip(), "description": description}

    for section, keys in _SECTIONS.items():
        if section not in data:
            continue
        table = data[section]
        if not isinstance(table, dict):
            raise fail(section, "must be a table, like [" + section + "]")
        for key, value in table.items():
            dotted = f"{section}.{key}"
            if key not in keys:
                raise fail(dotted, f"unknown setting (known: {', '.join(keys)})")
            attr = keys[key]
            if attr == "of_a_kind":
                if value not in ("fixed", "multiply"):
                    raise fail(dotted, 'must be "fixed" (points) or "multiply" (times the triple)')
                changes[attr] = value
            elif value is False and attr in _OPTIONAL:
                changes[attr] = None
            elif attr in _HOUSE_ZERO_OK:
                changes[attr] = _check_points(dotted, value, zero_ok=True, source=source)
            else:
                changes[attr] = value

    if "three_of_a_kind" in data:
        table = data["three_of_a_kind"]
        if not isinstance(table, dict):
            raise fail("three_of_a_kind", "must be a table, like [three_of_a_kind]")
        triples = list(changes.get("triples", rules.triples))
        by_word = {word: face for face, word in FACE_WORDS.items()}
        for key, value in table.items():
            if key not in by_word:
                raise fail(f"three_of_a_kind.{key}", "unknown face (use one, two, ..., six)")
            triples[by_word[key] - 1] = _check_points(f"three_of_a_kind.{key}", value, source=source)
        changes["triples"] = tuple(triples)

    try:
        return replace(rules, **changes)
    except RulesError as exc:
        raise RulesError(exc.detail, key=exc.key, source=source) from None


def as_rule_file(values: dict[str, Any]) -> dict[str, Any]:
    """Rules given field by field (as :func:`dataclasses.asdict` gives them) laid out as a rule
    file, so that :func:`rules_from_mapping` checks them exactly as it checks one (a combination
    that is None is ``false``). Every field must be there: a missing one is a ``KeyError``."""

    def value(attr: str) -> Any:
        given = values[attr]
        return False if given is None and attr in _OPTIONAL else given

    layout: dict[str, Any] = {"name": values["name"], "description": values["description"]}
    for section, keys in _SECTIONS.items():
        layout[section] = {key: value(attr) for key, attr in keys.items()}
    triples = values["triples"]
    layout["three_of_a_kind"] = {FACE_WORDS[face]: points for face, points in enumerate(triples, 1)}
    return layout


def _validate(rules: Rules, source: str | None) -> None:
    """Check every value in a rule set, naming the TOML key of the first bad one."""
    toml_key = {attr: f"{sec}.{key}" for sec, keys in _SECTIONS.items() for key, attr in keys.items()}
    if not isinstance(rules.name, str) or not isinstance(rules.description, str):
        raise RulesError("a rule table's name and description are text", key="name", source=source)
    if rules.of_a_kind not in ("fixed", "multiply"):
        raise RulesError(
            'must be "fixed" (points) or "multiply" (times the triple)', key="of_a_kind.mode", source=source
        )
    triples = rules.triples
    if not isinstance(triples, tuple) or len(triples) != 6:
        raise RulesError("six values, one for each face", key="three_of_a_kind", source=source)
    for face, value in zip(FACE_WORDS.values(), triples, strict=True):
        _check_points(f"three_of_a_kind.{face}", value, source=source)
    for attr in sorted(_HOUSE_ZERO_OK):
        _check_points(toml_key[attr], getattr(rules, attr), zero_ok=True, source=source)
    kinds = ("four_of_a_kind", "five_of_a_kind", "six_of_a_kind")
    points = ("single_one", "single_five", "target", *(a for a in _OPTIONAL if a not in kinds))
    for attr in sorted(points):
        value = getattr(rules, attr)
        if value is None and attr in _OPTIONAL:
            continue
        high = MAX_TARGET if attr == "target" else MAX_RULE_POINTS
        _check_points(toml_key[attr], value, source=source, high=high)
    for attr in kinds:
        value = getattr(rules, attr)
        if value is None:
            continue
        if rules.of_a_kind == "multiply":
            if not _is_int(value) or not 1 <= value <= MAX_FACTOR:
                raise RulesError(
                    f'with mode = "multiply" this is a whole factor of the triple, '
                    f"1 to {MAX_FACTOR} (or false)",
                    key=toml_key[attr],
                    source=source,
                )
        else:
            _check_points(toml_key[attr], value, source=source)


def _toml(value: object) -> str:
    """A value as a rule file writes it: ``true``, ``"lots"``, ``1.5``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    return repr(value)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_points(
    key: str, value: object, *, zero_ok: bool = False, source: str | None = None, high: int = MAX_RULE_POINTS
) -> int:
    """Points must be whole multiples of 50: the solver counts turn points in fifties."""
    if not _is_int(value):
        raise RulesError(f"must be a whole number of points, not {_toml(value)}", key=key, source=source)
    assert isinstance(value, int)
    low = 0 if zero_ok else 50
    if value < low or value > high:
        raise RulesError(f"must be between {low:,} and {high:,}, not {value:,}", key=key, source=source)
    if value % 50:
        raise RulesError(f"must be a multiple of 50, not {value:,}", key=key, source=source)
    return value


# The presets, last: building them checks them like any rules.
CLASSIC = Rules(
    name="classic",
    description="Farkle Challenge table: fixed four/five/six of a kind, two triplets 2,500",
)
FIXED = replace(
    CLASSIC,
    name="fixed",
    four_of_a_kind_and_pair=1500,
    description="printed rule sheets' fixed table: adds four of a kind and a pair 1,500",
)
DOUBLING = replace(
    CLASSIC,
    name="doubling",
    of_a_kind="multiply",
    four_of_a_kind=2,
    five_of_a_kind=4,
    six_of_a_kind=8,
    three_pairs=1000,
    two_triplets=None,
    description="each extra die doubles the triple; three pairs 1,000; no two triplets",
)
MULTIPLIER = replace(
    CLASSIC,
    name="multiplier",
    of_a_kind="multiply",
    four_of_a_kind=2,
    five_of_a_kind=3,
    six_of_a_kind=4,
    two_triplets=None,
    description="four/five/six of a kind 2x/3x/4x the triple; no two triplets",
)

PRESETS: Mapping[str, Rules] = MappingProxyType({r.name: r for r in (CLASSIC, FIXED, DOUBLING, MULTIPLIER)})
DEFAULT_RULES = "classic"
