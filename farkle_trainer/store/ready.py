"""Tables that ship with the package, so a newcomer's first game starts at once.

The game tables a new user meets first (the four built-in rule tables to 10,000, and
``classic`` with an opening minimum of 500, alone and with the 1,000 three-Farkle penalty:
"the harder rules"), their solo tables, and the merged rolls and final-turn tables those need,
are files in ``farkle_trainer/ready``, made by ``tools/make_ready_tables.py`` from the solver.
Each is pinned below by the SHA-256 of its bytes: a shipped file that does not match (damaged,
edited, or from another build) is never read, and the table is solved and cached instead.
What a pinned file holds is checked by the engine as any kept table is.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from farkle_trainer.store.files import read_limited

#: No shipped table is larger than this.
MAX_READY_FILE = 16 * 1024 * 1024
#: Where the shipped tables are, inside the installed package.
READY_DIR = Path(__file__).resolve().parent.parent / "ready"

#: Each shipped file and the SHA-256 of its bytes (``tools/make_ready_tables.py`` writes this).
PINNED: dict[str, str] = {}


def ready_file(name: str, directory: Path = READY_DIR) -> bytes | None:
    """The bytes of a shipped table, if it is pinned and its bytes are the pinned ones."""
    pin = PINNED.get(name)
    if pin is None:
        return None
    try:
        data = read_limited(directory / name, MAX_READY_FILE)
    except OSError:
        return None
    return data if hashlib.sha256(data).hexdigest() == pin else None
