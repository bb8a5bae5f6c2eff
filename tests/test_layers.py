"""The architecture holds: layers point one way, the engine touches no file, and one record,
one grade scale, one error boundary."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from farkle_trainer import load_rules
from farkle_trainer.cli import app
from farkle_trainer.engine.decisions import Kind, Position, decision_for, grade
from farkle_trainer.engine.errors import FarkleError
from farkle_trainer.engine.grading import Grade, Unit, grade_for
from farkle_trainer.engine.tables import Tables
from farkle_trainer.store.db import Store
from farkle_trainer.training.games import match as game
from farkle_trainer.training.games.analysis import review_move
from farkle_trainer.training.games.setup import TEN_TURNS
from farkle_trainer.training.record import AnswerRecord

PACKAGE = Path(__file__).resolve().parents[1] / "farkle_trainer"
LAYERS = ["engine", "store", "training", "ui", "cli"]
CLASSIC = load_rules("classic")


def _project_imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("farkle_trainer."):
            found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found |= {a.name.split(".")[1] for a in node.names if a.name.startswith("farkle_trainer.")}
    return found


@pytest.mark.parametrize("layer", LAYERS)
def test_a_layer_imports_only_the_layers_below_it(layer: str) -> None:
    allowed = set(LAYERS[: LAYERS.index(layer) + 1])
    for path in (PACKAGE / layer).rglob("*.py"):
        above = _project_imports(path) & set(LAYERS) - allowed
        assert not above, f"{path.relative_to(PACKAGE)} imports {sorted(above)}"


# -- the engine computes and never touches a file: finding, reading and keeping files is the store's

_FILE_MODULES = {"tempfile", "shutil", "glob", "platformdirs"}
_OS_FILES = {"open", "fdopen", "replace", "rename", "remove", "unlink", "mkdir", "makedirs", "rmdir", "chmod"}
_OS_LOOKS = {"listdir", "scandir", "walk", "stat", "environ", "getenv"}
_NUMPY_FILES = {"load", "save", "savez", "savez_compressed", "loadtxt", "savetxt", "fromfile", "memmap"}
_MODULE_CALLS = {"os": _OS_FILES | _OS_LOOKS, "np": _NUMPY_FILES, "numpy": _NUMPY_FILES}
_PATH_READS = {"open", "read_bytes", "read_text", "exists", "is_file", "is_dir", "expanduser"}
_PATH_WRITES = {"write_bytes", "write_text", "mkdir", "touch", "unlink", "rmdir", "chmod", "tofile"}
_PATH_METHODS = _PATH_READS | _PATH_WRITES | {"glob", "rglob", "iterdir"}


def _file_access(source: str) -> list[str]:
    """Every place in ``source`` that opens, reads, writes or lists a file, or reads the environment."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [f"{node.module}.{a.name}" for a in node.names]
        for name in names:
            top, _, rest = name.partition(".")
            if top in _FILE_MODULES or rest in _MODULE_CALLS.get(top, ()):
                found.append(f"line {node.lineno}: import {name}")
        owner = node.value.id if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) else ""
        if isinstance(node, ast.Attribute) and node.attr in _MODULE_CALLS.get(owner, ()):
            found.append(f"line {node.lineno}: {owner}.{node.attr}")
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id == "open":
                found.append(f"line {node.lineno}: open()")
            elif isinstance(func, ast.Attribute) and func.attr in _PATH_METHODS:
                module = isinstance(func.value, ast.Name) and func.value.id in _MODULE_CALLS
                if not module:
                    found.append(f"line {node.lineno}: .{func.attr}()")
    return found


def test_the_scan_for_files_sees_every_way_in() -> None:
    ways = [
        "open('t.toml')",
        "Path('t').read_bytes()",
        "path.write_text('')",
        "os.open(path, os.O_RDONLY)",
        "os.replace(tmp, path)",
        "np.load(io.BytesIO(data))",
        "numpy.savez(fh, values=v)",
        "directory.glob('*.npz')",
        "directory.iterdir()",
        "directory.mkdir(mode=0o700)",
        "path.exists()",
        "import tempfile",
        "from platformdirs import user_cache_dir",
        "os.environ.get('FARKLE_TRAIN_HOME')",
        "from os import environ",
    ]
    for way in ways:
        assert _file_access(way), way
    assert _file_access("text.replace('a', 'b')\nnp.maximum(a, b)\nos.cpu_count()\nreplace(rules)") == []


def test_no_engine_module_touches_a_file() -> None:
    touching = {
        str(path.relative_to(PACKAGE)): found
        for path in sorted((PACKAGE / "engine").rglob("*.py"))
        if (found := _file_access(path.read_text(encoding="utf-8")))
    }
    assert not touching, touching


# -- the engine keeps no state of its own: what it holds, the caller's Tables holds

#: Calls that make a container anyone may change.
_MUTABLE_CALLS = {"dict", "list", "set", "defaultdict", "OrderedDict", "deque", "bytearray", "Counter"}


def _changeable(node: ast.expr) -> bool:
    if isinstance(node, ast.Dict | ast.List | ast.Set | ast.DictComp | ast.ListComp | ast.SetComp):
        return True
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        return name in _MUTABLE_CALLS
    return False


def _process_state(source: str) -> list[str]:
    """Every ``global`` (or ``nonlocal``) statement in ``source``, and every container that can be
    changed made where a module or a class is defined, so shared by whoever imports it."""
    tree = ast.parse(source)
    found = [
        f"line {node.lineno}: {type(node).__name__.lower()} statement"
        for node in ast.walk(tree)
        if isinstance(node, ast.Global | ast.Nonlocal)
    ]

    def scan(body: list[ast.stmt], where: str) -> None:
        for st in body:
            if isinstance(st, ast.Assign | ast.AnnAssign) and st.value is not None and _changeable(st.value):
                target = st.targets[0] if isinstance(st, ast.Assign) else st.target
                found.append(f"line {st.lineno}: {where}{ast.unparse(target)} can be changed")
            elif isinstance(st, ast.ClassDef):
                scan(st.body, f"{st.name}.")
            elif isinstance(st, ast.If | ast.Try | ast.With):
                scan(st.body, where)

    scan(tree.body, "")
    return found


def test_the_scan_for_process_state_sees_every_way_in() -> None:
    ways = [
        "def f():\n    global x\n    x = 1",
        "_HELD: set[str] = set()",
        "_CACHE = {}",
        "TABLE = {1: 'one'}",
        "NAMES = ['a']",
        "SEEN = {k for k in 'ab'}",
        "class A:\n    memory: dict[str, int] = {}",
        "if True:\n    _WAITING = []",
        "from collections import defaultdict\nBY_KIND = defaultdict(list)",
    ]
    for way in ways:
        assert _process_state(way), way
    frozen = "TABLE = MappingProxyType({1: 'one'})\nNAMES = ('a',)\nKINDS = frozenset({'a'})\n"
    local = "def f():\n    seen = {}\n    seen[1] = 2\n    return seen\n"
    assert _process_state(frozen + local) == []


def test_the_engine_keeps_no_state_between_calls() -> None:
    """No ``global`` statement and no changeable container shared by a module: what the solvers
    work out is held by the caller's :class:`~farkle_trainer.engine.tables.Tables`. Constants are
    frozen (tuples, frozensets, ``MappingProxyType``); the ``functools`` caches that stay hold pure
    functions of immutable arguments (the rules' scoring table, roll models, seats)."""
    keeping = {
        str(path.relative_to(PACKAGE)): found
        for path in sorted((PACKAGE / "engine").rglob("*.py"))
        if (found := _process_state(path.read_text(encoding="utf-8")))
    }
    assert not keeping, keeping


def test_the_engine_does_not_read_how_busy_the_machine_is() -> None:
    """The estimate of a solve's time takes how busy the machine is from its caller: reading the
    load average is the front end's."""
    reading = [
        str(path.relative_to(PACKAGE))
        for path in sorted((PACKAGE / "engine").rglob("*.py"))
        if "getloadavg" in path.read_text(encoding="utf-8")
    ]
    assert reading == []


def test_the_import_linter_contract_is_kept() -> None:
    linter = Path(sys.executable).with_name("lint-imports")
    if not linter.exists():
        pytest.skip("import-linter is not installed")
    done = subprocess.run([str(linter)], capture_output=True, text=True, cwd=PACKAGE.parent)
    assert done.returncode == 0, done.stdout[-2000:]


def test_every_project_error_derives_from_one_base() -> None:
    classes = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.name.endswith("Error"):
                classes.append((path, node.name))
    import importlib

    for path, name in classes:
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        cls = getattr(importlib.import_module(module), name)
        assert issubclass(cls, FarkleError), f"{module}.{name}"


# -- one grade scale, one tie: a play is graded alike in decide, daily practice and a challenge

POSITIONS = [
    ((1, 5, 2, 2, 3, 6), 0),
    ((1, 1, 5, 3, 4, 6), 300),
    ((5, 3, 4), 250),
    ((1, 5), 300),
]


@pytest.mark.parametrize(("roll", "points"), POSITIONS)
def test_a_game_decision_is_graded_as_the_same_keep_drill(
    tables: Tables, roll: tuple[int, ...], points: int
) -> None:
    d = decision_for(tables, Position(CLASSIC, Kind.KEEP, points, roll))
    for choice in d.choices:
        drill = grade(d, choice.keep, choice.action)
        move = game.Move(1, 1, roll, points, choice.keep, choice.action)
        review = review_move(tables, TEN_TURNS, move)
        assert review.grade == drill.grade
        assert review.right == drill.right
        record = AnswerRecord.of_game(review, date="2026-11-29")
        assert record.correct == drill.right and record.grade == drill.grade
        assert AnswerRecord.of_drill(drill).correct == record.correct


def test_a_small_loss_is_fine_everywhere() -> None:
    # A loss under five points is "fine" and right, whatever the activity.
    assert grade_for(2.0, Unit.POINTS) == Grade.FINE and Grade.FINE.right
    assert grade_for(0.004, Unit.POINTS) == Grade.BEST
    assert grade_for(0.4977, Unit.CHANCE) == Grade.FINE
    assert not Grade.INACCURACY.right


# -- one record: the store row and the result entry carry the same fields


def test_an_answer_record_is_kept_alike_in_the_store_and_the_result_file(
    tables: Tables, tmp_path: Path
) -> None:
    d = decision_for(tables, Position(CLASSIC, Kind.KEEP, 0, (1, 5, 2, 2, 3, 6)))
    worst = d.choices[-1]
    record = AnswerRecord.of_drill(grade(d, worst.keep, worst.action))
    with Store.open(tmp_path) as store:
        session = store.start_session("decide", rules="classic")
        record.save(store, session)
        row = store._db.execute("SELECT * FROM answers WHERE session_id = ?", (session,)).fetchone()
    entry = record.numbered(1).entry()
    for key in ("topic", "item", "question", "answer", "correct_answer", "grade", "unit"):
        assert row[key] == entry[key] == getattr(record, key)
    assert bool(row["correct"]) == entry["correct"] == record.correct
    assert row["points_lost"] == record.points_lost
    assert entry["points_lost"] == record.points_lost  # exact: a total over files is rounded once


# -- one error boundary


def test_a_store_failure_is_one_line_with_exit_code_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from farkle_trainer.store import db, errors

    def locked(*args: object, **kwargs: object) -> Store:
        raise errors.StoreFailure(f"{tmp_path}: database is locked")

    monkeypatch.setattr(db.Store, "open", locked)
    result = CliRunner().invoke(app, ["learn", "1", "--plain", "--data-dir", str(tmp_path)])
    assert result.exit_code == 1
    assert result.output.strip() == f"Error: {tmp_path}: database is locked"


def test_ctrl_c_inside_any_command_is_a_quiet_exit_130(monkeypatch: pytest.MonkeyPatch) -> None:
    from farkle_trainer.engine import scoring

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(scoring, "explain", interrupted)
    result = CliRunner().invoke(app, ["explain", "1", "5", "--plain"])
    assert result.exit_code == 130
    assert "Traceback" not in result.output and "Aborted" not in result.output


def test_ctrl_c_while_starting_up_is_a_quiet_exit_130() -> None:
    # SIGINT arrives while the package is still being imported.
    program = (
        "import builtins, sys\n"
        "real = builtins.__import__\n"
        "def slow(name, *a, **k):\n"
        "    if name == 'typer':\n"
        "        raise KeyboardInterrupt\n"
        "    return real(name, *a, **k)\n"
        "builtins.__import__ = slow\n"
        "sys.argv = ['farkle-train', '--help']\n"
        "from farkle_trainer.entry import main\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert done.returncode == 130
    assert "Traceback" not in done.stderr


def test_no_import_cycle() -> None:
    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("farkle_trainer")
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            back = graph.find_shortest_chain(importer=imported, imported=module)
            assert back is None, f"import cycle: {module} -> {' -> '.join(back or ())}"
