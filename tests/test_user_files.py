"""The files a user hands over and the files a command writes.

Every file a command writes replaces what is at its path: a symbolic link gives way, its target
is kept. A file saved by an editor that begins UTF-8 with a byte-order mark reads as any other.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from farkle_trainer.cli import app
from farkle_trainer.store.files import write_whole

runner = CliRunner()
DATA = Path(__file__).parent / "data"
EXAMPLES = Path(__file__).parent.parent / "examples"
BOM = "\ufeff".encode()
PRECIOUS = "someone's work\n"

#: Each option that writes a file, in a command that writes it (replacing what is there).
WRITERS = {
    "--export": (["progress", "--export", "{out}.csv", "--force"], ""),
    "--csv": (["class", "report", str(DATA / "class-MATH7B"), "--csv", "{out}.csv", "--force"], ""),
    "--questions-csv": (
        ["class", "report", str(DATA / "class-MATH7B"), "--questions-csv", "{out}.csv", "--force"],
        "",
    ),
    "--key": (["worksheet", "--code", "MATH7B", "--count", "2", "--key", "{out}.md", "--force"], ""),
    "--save": (
        ["play", "--vs", "easy", "--seed", "3", "--target", "1000", "--save", "{out}.json", "--force"],
        "q\n",
    ),
    "--save-result": (
        [
            "score",
            "--code",
            "MATH7B",
            "--count",
            "2",
            "--name",
            "Ana",
            "--save-result",
            "{out}.json",
            "--force",
        ],
        "1\nq\n",
    ),
}


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="symbolic links")
@pytest.mark.parametrize("option", sorted(WRITERS))
def test_a_link_at_the_path_is_replaced_never_written_through(tmp_path: Path, option: str) -> None:
    words, stdin = WRITERS[option]
    target = tmp_path / "elsewhere" / "kept.txt"
    target.parent.mkdir()
    target.write_text(PRECIOUS)
    out = tmp_path / "out"
    args = [w.replace("{out}", str(out)) for w in words]
    link = Path(next(a for a in args if a.startswith(str(out))))
    link.symlink_to(target)
    result = runner.invoke(app, [*args, "--plain"] if option != "--key" else args, input=stdin)
    assert result.exit_code == 0, result.output
    assert target.read_text() == PRECIOUS
    assert not link.is_symlink() and link.is_file() and link.stat().st_size > 0


def test_write_whole_replaces_a_link_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "target.txt"
    target.write_text(PRECIOUS)
    link = tmp_path / "out.txt"
    link.symlink_to(target)
    write_whole(link, b"new\n")
    assert link.read_bytes() == b"new\n" and not link.is_symlink()
    assert target.read_text() == PRECIOUS
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt", "target.txt"]


def test_write_whole_leaves_the_file_as_it_was_when_writing_fails(tmp_path: Path) -> None:
    path = tmp_path / "out.txt"
    path.write_text(PRECIOUS)

    def fails(fh: object) -> None:
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        write_whole(path, fails)
    assert path.read_text() == PRECIOUS
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def with_bom(source: Path, target: Path) -> Path:
    target.write_bytes(BOM + source.read_bytes())
    return target


def test_a_result_file_with_a_byte_order_mark_is_counted(tmp_path: Path) -> None:
    folder = tmp_path / "results"
    shutil.copytree(DATA / "class-MATH7B", folder)
    with_bom(folder / "ana.json", folder / "ana.json")
    result = runner.invoke(app, ["class", "report", str(folder), "--plain"])
    assert result.exit_code == 0, result.output
    assert "3 results counted" in result.stdout and "not JSON" not in result.stdout
    assert "  Ana      3 of 3      100%" in result.stdout


def test_a_game_file_with_a_byte_order_mark_is_reviewed(tmp_path: Path) -> None:
    game = with_bom(EXAMPLES / "hard-1000.json", tmp_path / "game.json")
    result = runner.invoke(app, ["review", str(game), "--plain"])
    assert result.exit_code == 0, result.output
    assert "Game over: You win. Scores: You 1,450, Hard 650." in result.stdout


def test_a_rule_file_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    rules = tmp_path / "house.toml"
    rules.write_bytes(BOM + b'name = "house"\n[singles]\nfive = 100\n')
    result = runner.invoke(app, ["explain", "5", "--rules", str(rules), "--plain"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:2] == ["Dice: 5 (house rules)", "Score: 100"]
