"""Make the game tables that ship with farkle-trainer, from the solver.

    python tools/make_ready_tables.py          # solve them, write farkle_trainer/ready and the pins
    python tools/make_ready_tables.py --check  # solve them again and compare with what ships

Each table is solved afresh, with nothing kept or shipped read, exactly as a first use would
solve it; every table file that first use keeps (the game and solo tables, the merged rolls
and the final-turn tables they need) ships. The pins (each file's SHA-256) are written into
``farkle_trainer/store/ready.py``. ``--check`` compares every shipped value with a new solve to
1e-10 (another machine may round the last digits differently) and every shipped file with its
pin, and exits 1 if anything differs.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
READY = ROOT / "farkle_trainer" / "ready"
PINS = ROOT / "farkle_trainer" / "store" / "ready.py"

#: What ships: (preset, target, opening minimum, three-Farkle penalty).
SHIPPED = (
    ("classic", 10_000, 0, 0),
    ("fixed", 10_000, 0, 0),
    ("doubling", 10_000, 0, 0),
    ("multiplier", 10_000, 0, 0),
    # The three-Farkle penalty, alone and with an opening minimum of 500 ("the harder rules").
    ("classic", 10_000, 0, 1_000),
    ("classic", 10_000, 500, 1_000),
    # Lesson 7 and its drill play to 2,000.
    ("classic", 2_000, 0, 0),
)


def solve_all(into: Path) -> list[Path]:
    """Solve every shipped table with the disk cache in ``into``; the table files made there."""
    from farkle_trainer.engine.rules import PRESETS
    from farkle_trainer.engine.tables import Tables
    from farkle_trainer.store.tables import DiskTables

    tables = Tables(DiskTables(into, ready=None))
    for name, target, opening, penalty in SHIPPED:
        rules = PRESETS[name].with_house_rules(opening_minimum=opening, three_farkle_penalty=penalty)
        print(f"solving {name} to {target:,}, opening {opening:,}, penalty {penalty:,}", file=sys.stderr)
        tables.game(rules, target)
        tables.solo(rules, target)
    return sorted(p for p in into.iterdir() if p.suffix == ".npz")


def write(files: list[Path]) -> None:
    if READY.exists():
        shutil.rmtree(READY)
    READY.mkdir()
    pins = {}
    for path in files:
        shutil.copyfile(path, READY / path.name)
        pins[path.name] = hashlib.sha256(path.read_bytes()).hexdigest()
    lines = "".join(f'    "{name}": "{pin}",\n' for name, pin in pins.items())
    text = PINS.read_text()
    start = text.index("PINNED: dict[str, str] = {")
    end = text.index("}\n", start) + 2
    text = text[:start] + f"PINNED: dict[str, str] = {{\n{lines}}}\n" + text[end:]
    PINS.write_text(text)
    print(f"wrote {len(files)} tables to {READY} and their pins to {PINS}", file=sys.stderr)


def check(files: list[Path]) -> int:
    import numpy as np

    from farkle_trainer.store.ready import PINNED

    wrong = 0
    made = {p.name: p for p in files}
    for name, pin in PINNED.items():
        shipped = READY / name
        if not shipped.exists() or hashlib.sha256(shipped.read_bytes()).hexdigest() != pin:
            print(f"{name}: the shipped file does not match its pin", file=sys.stderr)
            wrong += 1
            continue
        if name not in made:
            print(f"{name}: no longer made by a first use", file=sys.stderr)
            wrong += 1
            continue
        with np.load(shipped) as old, np.load(made[name]) as new:
            for key in old.files:
                if key == "digest":
                    continue
                a, b = old[key], new[key]
                if a.shape != b.shape or not np.allclose(a, b, rtol=0, atol=1e-10):
                    print(f"{name}: {key} differs from a new solve", file=sys.stderr)
                    wrong += 1
    for name in sorted(set(made) - set(PINNED)):
        print(f"{name}: made by a first use but not shipped", file=sys.stderr)
        wrong += 1
    print("every shipped table matches a new solve" if not wrong else f"{wrong} differences", file=sys.stderr)
    return 1 if wrong else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="solve again and compare with what ships")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="farkle-ready-") as tmp:
        files = solve_all(Path(tmp))
        if args.check:
            return check(files)
        write(files)
    return 0


if __name__ == "__main__":
    sys.exit(main())
