"""A whole game in a file (``play --save FILE.json``), and reading one back without trusting it.

The file holds the setup (players, rules with their house rules, form, seed or class code),
how many hints were asked, and every move in order: whose it was, the dice it showed, what
was set aside and whether the player banked or rolled on (or Farkled). Its result (over or
resigned, scores, winners) is written too, for a reader's convenience.

Reading a file replays it: the dice come again from the setup's seed or class code (a rated
game keeps no seed: its dice are the rolls its moves show), each move must be legal on those
dice, a computer's move must be the one that computer makes, and the result written in the file
must be the one the moves give. The setup is checked before anything is built from it: its rules
as a rule file's are, every number within the bounds the same number has on the command line.
Anything else is a :class:`GameFileError` that says which move or figure is wrong: a file can be
edited, so nothing in it is taken on trust.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from farkle_trainer.engine.dice import MAX_DICE
from farkle_trainer.engine.errors import InputError
from farkle_trainer.store.files import FileTooLarge, NotARegularFile, read_text, write_whole
from farkle_trainer.training.games import computers
from farkle_trainer.training.games import match as m
from farkle_trainer.training.games.setup import MatchError, Setup

if TYPE_CHECKING:
    from farkle_trainer.engine.tables import Tables

FORMAT = "farkle-train game"
FILE_VERSION = 1
KEEP = "choose another name, or add --force to replace it"


class GameFileError(InputError):
    """A game file that cannot be written here, or read, or whose moves or result do not hold."""


@dataclass(frozen=True)
class SavedGame:
    """A game replayed from a file: its state after the last move, and the seat that resigned."""

    state: m.MatchState
    resigned: int | None


def game_document(state: m.MatchState, *, resigned: int | None = None) -> dict[str, Any]:
    from farkle_trainer.version import __version__

    return {
        "format": FORMAT,
        "version": FILE_VERSION,
        "program": f"farkle-trainer {__version__}",
        "setup": state.setup.to_dict(),
        "hints": state.hints,
        "moves": [
            {"seat": mv.seat, "roll": list(mv.roll), "keep": list(mv.keep), "action": mv.action}
            for mv in state.log
        ],
        "over": state.over,
        "resigned": resigned,
        "scores": list(state.scores),
        "winners": _listed(m.final_winners(state, resigned)),
    }


def _listed(seats: tuple[int, ...] | None) -> list[int] | None:
    return None if seats is None else list(seats)


def write_game_file(path: Path, state: m.MatchState, *, resigned: int | None = None) -> None:
    """Write the game whole or not at all (a new file is renamed over the old one), so a game
    stopped at any moment leaves the file of its last action."""
    text = json.dumps(game_document(state, resigned=resigned), indent=2) + "\n"
    write_whole(path, text.encode("utf-8"))


class GameFileWriter:
    """Writes a game to ``path`` (if any) after each action, and once more with its ending: the
    seat that resigned, if one did."""

    def __init__(self, path: Path | None) -> None:
        self.path = path

    def __call__(self, state: m.MatchState, resigned: int | None = None) -> None:
        if self.path is None:
            return
        try:
            write_game_file(self.path, state, resigned=resigned)
        except OSError as exc:
            raise GameFileError(f"--save: cannot write {self.path}: {exc.strerror or exc}") from None


def check_game_path(path: Path, *, force: bool = False) -> None:
    """Refuse, before the first roll, a place the game cannot be written to.

    A file already there that is not a game file this program wrote is refused (unless
    ``force``): it may be someone's work. Whether a game file there is the game's own is
    known once the game is (:func:`check_replace`).
    """
    if path.is_dir():
        raise GameFileError(f"{path} is a folder: give a file name, like {path / 'game.json'}")
    if path.suffix.lower() != ".json":
        raise GameFileError(f"a game file's name ends in .json, like game.json, not {path.name}")
    if not path.parent.is_dir():
        raise GameFileError(f"there is no folder {path.parent} to save {path.name} in")
    if (path.exists() or path.is_symlink()) and not force and not _is_game_file(path):
        raise GameFileError(f"{path} exists and is not a game file saved by farkle-train: {KEEP}")
    if not os.access(path.parent, os.W_OK):
        raise GameFileError(f"cannot write in the folder {path.parent}")


def check_replace(path: Path, game: m.MatchState | None, *, force: bool = False) -> None:
    """Refuse to write over a file at ``path`` that is not this game's own: ``game`` is the game
    carried on (its file may be written on), None a new game (no file there is its own yet)."""
    if force or not (path.exists() or path.is_symlink()):
        return
    if not _is_game_file(path):
        raise GameFileError(f"{path} exists and is not a game file saved by farkle-train: {KEEP}")
    if game is None or not holds_game(path, game):
        raise GameFileError(f"{path} holds another game: {KEEP}")


def holds_game(path: Path, game: m.MatchState) -> bool:
    """Whether ``path`` is ``game``'s own file as written so far: the same setup, the game's first
    moves, and no ending (a file only ever falls behind the game it is written for)."""
    data = _game_data(path)
    if data is None:
        return False
    written = game_document(game)
    moves = data.get("moves")
    return (
        data.get("setup") == written["setup"]
        and isinstance(moves, list)
        and moves == written["moves"][: len(moves)]
        and data.get("over") is False
        and data.get("resigned") is None
    )


def _game_data(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(_read_text(path))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError, GameFileError):
        return None
    return data if isinstance(data, dict) and data.get("format") == FORMAT else None


def _is_game_file(path: Path) -> bool:
    return _game_data(path) is not None


#: A game file holds one game's moves: a few tens of kilobytes. Anything far larger is not one.
MAX_GAME_FILE = 4 * 1024 * 1024


def _read_text(path: Path) -> str:
    """The text of a game file: a regular file of at most MAX_GAME_FILE bytes."""
    try:
        return read_text(path, MAX_GAME_FILE)
    except NotARegularFile:
        raise GameFileError(f"{path} is not a game file: it is not a regular file") from None
    except FileTooLarge:
        raise GameFileError(
            f"{path} is too large to be a game file (over {MAX_GAME_FILE // 2**20} MB)"
        ) from None


def numbered(path: Path, number: int) -> Path:
    """Where the ``number``-th game of one ``play`` goes: ``game.json``, ``game-2.json``, ..."""
    return path if number == 1 else path.with_name(f"{path.stem}-{number}{path.suffix}")


# -- reading


def read_game_file(tables: Tables, path: Path) -> SavedGame:
    """The game in ``path``, replayed from its setup and seed (see the module)."""
    try:
        text = _read_text(path)
    except FileNotFoundError:
        raise GameFileError(f"there is no file {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise GameFileError(f"{path} cannot be read: {exc}") from None
    try:
        data = json.loads(text)
    except ValueError:
        raise GameFileError(f"{path} is not a game file: it is not JSON") from None
    except RecursionError:
        raise GameFileError(f"{path} is not a game file: it is nested too deeply") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise GameFileError(f"{path} is not a game file saved by farkle-train")
    if data.get("version") != FILE_VERSION:
        raise GameFileError(f"{path} was saved by another version of farkle-train ({data.get('version')!r})")
    try:
        return replay(tables, data)
    except GameFileError as exc:
        raise GameFileError(f"{path}: {exc}") from None


def _need(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str = "") -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise GameFileError(f"{where}{key} is missing or not the right kind of value")
    return value


def _faces(value: Any, what: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(v, int) and 1 <= v <= 6 for v in value):
        raise GameFileError(f"{what} must be a list of die faces 1 to 6")
    if len(value) > MAX_DICE:
        raise GameFileError(f"{what} has {len(value):,} dice, where a roll throws at most {MAX_DICE}")
    return tuple(value)


def replay(tables: Tables, data: Mapping[str, Any]) -> SavedGame:
    """Play a game document's moves again on the setup's own dice, each computer's move checked
    as it plays (valued in ``tables``); :class:`GameFileError` names the first move or figure
    that does not hold."""
    try:
        setup = Setup.from_dict(_need(data, "setup", dict))
    except (MatchError, KeyError, TypeError, ValueError) as exc:
        raise GameFileError(f"its setup cannot be read: {exc}") from None
    try:
        hints = m.hint_count(data.get("hints"))
    except MatchError as exc:
        raise GameFileError(str(exc)) from None
    moves = _need(data, "moves", list)
    claims = (_claim(i, claim) for i, claim in enumerate(moves))
    try:
        state = m.replay(setup, claims, hints=hints, vet=partial(computers.as_played, tables))
    except MatchError as exc:
        raise GameFileError(str(exc)) from None
    return SavedGame(state, _check_result(data, state))


def _claim(i: int, claim: Any) -> m.Claim:
    where = f"move {i + 1}: "
    if not isinstance(claim, dict):
        raise GameFileError(f"{where}not a move")
    seat = _need(claim, "seat", int, where)
    roll = _faces(claim.get("roll"), f"{where}the roll")
    keep = _faces(claim.get("keep"), f"{where}the dice set aside")
    action = claim.get("action")
    if action not in ("bank", "roll", "farkle"):
        raise GameFileError(f"{where}the action is bank, roll or farkle, not {action!r}")
    return m.Claim(seat, roll, keep, action)


def _check_result(data: Mapping[str, Any], state: m.MatchState) -> int | None:
    over = data.get("over")
    if over is not state.over:
        said = "over" if over else "not over"
        raise GameFileError(f"the file says the game is {said}, but its moves say otherwise")
    scores = data.get("scores")
    if scores != list(state.scores):
        given = ", ".join(f"{s:,}" for s in state.scores)
        raise GameFileError(f"the file gives the scores as {scores!r}, but its moves give {given}")
    resigned = _check_resigned(data.get("resigned"), state)
    winners = data.get("winners")
    actual = _listed(m.final_winners(state, resigned))
    # Files written before a resignation named its winners give none; the moves still say who.
    written_before = resigned is not None and winners is None
    if winners != actual and not written_before:
        names = ", ".join(state.setup.players[w].name for w in actual or ()) or "nobody yet"
        raise GameFileError(f"the file gives the winners as {winners!r}, but its moves give {names}")
    return resigned


def _check_resigned(resigned: Any, state: m.MatchState) -> int | None:
    if resigned is None:
        return None
    if (
        not isinstance(resigned, int)
        or isinstance(resigned, bool)
        or state.over
        or not 0 <= resigned < state.setup.size
        or not state.setup.players[resigned].human
    ):
        raise GameFileError(f"the file says player {resigned!r} resigned, which its moves do not allow")
    return resigned
