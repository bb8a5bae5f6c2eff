"""Result files as plain data: written whole, read back, checked for edits and kept current."""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from factories import answer, result

from farkle_trainer.training.classroom.results import (
    ResultError,
    ResultRecorder,
    check_result_path,
    checksum,
    file_contents,
    parse_result,
    read_result,
    result_document,
    write_result,
)

NOON = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def test_a_result_file_round_trips(tmp_path: Path) -> None:
    r = result("Ana", [("q1", "right"), ("q2", "5")])
    path = tmp_path / "ana.json"
    umask = os.umask(0o022)
    try:
        write_result(path, r)
    finally:
        os.umask(umask)
    doc = json.loads(path.read_text())
    assert doc["format"] == "farkle-trainer result" and doc["version"] == 4
    assert doc["checksum"] == checksum(doc) and doc["checksum"].startswith("sha256:")
    assert list(doc)[-1] == "checksum"
    assert {"name", "code", "activity", "rules", "answers", "score", "points_lost", "started"} <= set(doc)
    assert read_result(path) == r
    assert [p.name for p in tmp_path.iterdir()] == ["ana.json"]  # no temporary file left behind
    assert path.stat().st_mode & 0o777 == 0o644  # a new file like any other: the teacher can read it


def test_reformatting_a_file_keeps_it_valid(tmp_path: Path) -> None:
    doc = result_document(result("Ana", [("q1", "right")]))
    assert parse_result(json.dumps(doc, sort_keys=True)) == parse_result(json.dumps(doc, indent=4))


@pytest.mark.parametrize(
    ("edit", "kind", "message"),
    [
        (
            lambda d: d["answers"][1].update(answer="right", correct=True),
            "tampered",
            "checksum does not match",
        ),
        (lambda d: d.update(score=2), "tampered", "checksum does not match"),
        (lambda d: d.update(name="Someone Else"), "tampered", "checksum does not match"),
        (lambda d: d.pop("checksum"), "tampered", "no checksum"),
        (lambda d: d.update(version=5), "newer", "newer farkle-trainer"),
        (lambda d: d.update(format="something else"), "not-result", "not a farkle-trainer result"),
    ],
)
def test_an_edited_file_is_recognised(edit: Callable[[dict], object], kind: str, message: str) -> None:
    doc = result_document(result("Ana", [("q1", "right"), ("q2", "5")]))
    edit(doc)
    with pytest.raises(ResultError, match=message) as caught:
        parse_result(json.dumps(doc))
    assert caught.value.kind == kind


def test_an_edit_with_a_recomputed_checksum_must_still_add_up() -> None:
    doc = result_document(result("Ana", [("q1", "right"), ("q2", "5")]))
    doc["answers"][1].update(answer="right", correct=True)
    doc["checksum"] = checksum(doc)
    with pytest.raises(ResultError, match="totals do not add up") as caught:
        parse_result(json.dumps(doc))
    assert caught.value.kind == "tampered"


@pytest.mark.parametrize(
    ("text", "kind"),
    [("not json at all", "not-json"), ("[1, 2]", "not-result"), ('{"name": "Ana"}', "not-result")],
)
def test_files_that_are_not_results(text: str, kind: str) -> None:
    with pytest.raises(ResultError) as caught:
        parse_result(text)
    assert caught.value.kind == kind


def test_where_a_result_may_be_written(tmp_path: Path) -> None:
    check = functools.partial(check_result_path, code="MATH7B", activity="score")
    check(tmp_path / "ana.json")
    with pytest.raises(ResultError, match=r"ends in \.json"):
        check(tmp_path / "ana.txt")
    with pytest.raises(ResultError, match="no folder"):
        check(tmp_path / "missing" / "ana.json")
    with pytest.raises(ResultError, match="is a folder"):
        check(tmp_path)
    other = tmp_path / "settings.json"
    other.write_text('{"theme": "dark"}')
    with pytest.raises(ResultError, match="exists and is not a valid result file"):
        check(other)
    check(other, force=True)
    earlier = tmp_path / "earlier.json"
    write_result(earlier, result("Ana", [("q1", "right")]))
    check(earlier)  # the student's earlier result may be replaced
    check(earlier, name=" ana ")


def test_the_recorder_keeps_the_file_current(tmp_path: Path) -> None:
    path = tmp_path / "ana.json"
    times = iter([NOON, NOON.replace(minute=1), NOON.replace(minute=2), NOON.replace(minute=3)])
    rec = ResultRecorder(
        code="MATH7B",
        activity="score",
        rules="classic",
        settings={"count": 2},
        planned=2,
        name="Ana",
        path=path,
        clock=lambda: next(times),
    )
    rec.add(answer(0, "q1", "right", "right"))
    partial = read_result(path)
    assert not partial.complete and partial.finished is None and len(partial.answers) == 1
    rec.add(answer(0, "q2", "5", "right"))
    done = rec.finish(complete=True)
    assert read_result(path) == done
    assert [a.number for a in done.answers] == [1, 2]
    assert done.score == 1 and done.started == "2026-11-29T12:00:00Z" and done.complete
    assert rec.saved and rec.error is None


def test_a_write_that_fails_is_reported_once_not_raised(tmp_path: Path) -> None:
    rec = ResultRecorder(
        code="MATH7B",
        activity="score",
        rules="classic",
        settings={},
        planned=1,
        path=tmp_path / "gone" / "a.json",
    )
    rec.add(answer(0, "q1", "right", "right"))
    assert rec.error is not None and "could not save the result" in rec.error
    assert not rec.saved


# -- two sessions, one file


def recorder(path: Path, name: str, planned: int = 3) -> ResultRecorder:
    """A session's recorder as it begins: the file it may replace is the one there now."""
    return ResultRecorder(
        code="MATH7B",
        activity="score",
        rules="classic",
        settings={"count": planned},
        planned=planned,
        name=name,
        path=path,
        held=file_contents(path),
    )


def test_two_sessions_saving_to_one_file_never_write_over_each_other(tmp_path: Path) -> None:
    path = tmp_path / "race.json"
    ana, ben = recorder(path, "Ana"), recorder(path, "Ben")  # both found no file at the start
    ana.add(answer(0, "q1", "right", "right"))
    ben.add(answer(0, "q1", "5", "right"))
    assert read_result(path).name == "Ana"
    assert ben.error == (
        f"this result was NOT saved to {path}: another student's result ('Ana') is there now and "
        "was not written over; to save yours, run the command again with another --save-result file name"
    )
    said = ben.error
    ana.add(answer(0, "q2", "right", "right"))
    ben.add(answer(0, "q2", "right", "right"))
    done = ana.finish(complete=True)
    ben.finish(complete=True)
    assert read_result(path) == done and len(done.answers) == 2
    assert ana.saved and ana.error is None
    assert not ben.saved and ben.error == said  # said once, as it was first found
    assert [p.name for p in tmp_path.iterdir()] == ["race.json"]


def test_a_file_changed_under_a_session_is_left_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "ana.json"
    ana = recorder(path, "Ana")
    ana.add(answer(0, "q1", "right", "right"))
    path.write_text('{"theme": "dark"}')
    ana.add(answer(0, "q2", "right", "right"))
    assert path.read_text() == '{"theme": "dark"}'
    assert ana.error is not None and ": another file is there now" in ana.error
    # The same student's other session is named as such, not as another student.
    again = recorder(tmp_path / "again.json", "Ana")
    again.add(answer(0, "q1", "right", "right"))
    other = recorder(tmp_path / "again.json", " ana ")
    other.add(answer(0, "q1", "5", "right"))
    again.add(answer(0, "q2", "right", "right"))
    assert again.error is not None and "your result from another session is there now" in again.error


def test_a_file_not_the_one_a_session_began_with_is_not_replaced(tmp_path: Path) -> None:
    path = tmp_path / "ana.json"
    write_result(path, result("Ana", [("q1", "right")]))
    # Without what the file held when it began, a session writes only where no file is.
    ana = ResultRecorder(
        code="MATH7B", activity="score", rules="classic", settings={}, planned=3, name="Ana", path=path
    )
    ana.add(answer(0, "q1", "5", "right"))
    assert ana.error is not None and "your result from another session is there now" in ana.error
    assert len(read_result(path).answers) == 1


def test_a_session_replaces_the_file_it_began_with_and_writes_one_that_was_removed(tmp_path: Path) -> None:
    path = tmp_path / "ana.json"
    write_result(path, result("Ana", [("q1", "right")]))
    ana = recorder(path, "Ana")  # the student's own earlier result, checked at the start
    ana.add(answer(0, "q1", "5", "right"))
    path.unlink()  # nothing is lost by writing where nothing is
    ana.add(answer(0, "q2", "right", "right"))
    assert ana.error is None and len(read_result(path).answers) == 2


def test_a_file_that_appears_just_before_the_first_write_is_not_written_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import farkle_trainer.training.classroom.results as results

    path = tmp_path / "race.json"
    ben = recorder(path, "Ben")
    write_result(path, result("Ana", [("q1", "right")]))
    before = path.read_bytes()
    # Ben's session looks, finds no file, and Ana's is put there before Ben's is.
    monkeypatch.setattr(results, "file_contents", lambda p: None)
    ben.add(answer(0, "q1", "5", "right"))
    assert path.read_bytes() == before
    assert ben.error is not None and "another student's result ('Ana')" in ben.error
    assert [p.name for p in tmp_path.iterdir()] == ["race.json"]
