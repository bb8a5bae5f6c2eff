"""Tables that ship with the package, so a newcomer's first game starts at once.

The game tables a new user meets first (the four built-in rule tables to 10,000; ``classic``
with the 1,000 three-Farkle penalty, with an opening minimum of 500 and the two together: "the
harder rules"; and ``classic`` to 2,000, the game of lesson 7 and its drill), their solo tables,
and the merged rolls and final-turn tables those need, are files in ``farkle_trainer/ready``,
made by ``tools/make_ready_tables.py`` from the solver.
Each is pinned below by the SHA-256 of its bytes: a shipped file that does not match (damaged,
edited, or from another build) is never read, and the table is solved and cached instead.
A file that matches holds what the solver made (``tools/make_ready_tables.py --check`` compares
it with a new solve), so the engine does not check it again as it checks a kept table: that
keeps a newcomer's first game as quick as a warm one.
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
PINNED: dict[str, str] = {
    "final-v1-5bf150062616ec5c-n1400.npz": "0c02536ffe3a4089edf621cdcf2cf011df68ee5aaa8dc5796918efd17e510cee",
    "final-v1-5bf150062616ec5c-n920.npz": "3f0f3a85e545c38174fd22276ca15e875df8f4c502b309d468c6dcd0df99c928",
    "final-v1-7b01a052a0ebb92c-n1400.npz": "3e61c1c0c7bfd700c45d42404ffe2c72198b43d6ec1555930744c65d1f6e257b",
    "final-v1-94d4187892a07b32-n1400.npz": "c84ea6afa493c3783bf4cad0fe4924decd9ed9163751d1b888b6e38ba7fd874e",
    "final-v1-963a98b8310d354d-n1400.npz": "b86b8108b18b53fbaf66f4c4bb0d9f76f7613c29c0ed6b1393694b0fdd86f4d0",
    "game-v1-5bf150062616ec5c-t10000-o0-p0.npz": "7e1ea10e3e6543194310d5483986a6c18bb1d07a6071f69997e613fafe391bf9",
    "game-v1-5bf150062616ec5c-t10000-o0-p1000.npz": "f24dad3e0aec4384d2475ff3cc4158b35e53061bdc4c8bb25f06e9f25e71674e",
    "game-v1-5bf150062616ec5c-t10000-o500-p0.npz": "4a63aa4b5c81a9bc78b8e55b297860e98f0dad73b25b9ef27b25f882f9bb9c12",
    "game-v1-5bf150062616ec5c-t10000-o500-p1000.npz": "542cc0707aabbf25c2b55de1c678c469bfdee69969228efe91625b63b50bde01",
    "game-v1-5bf150062616ec5c-t2000-o0-p0.npz": "83a59454da7462ec507158ae5377f48adbd89b5f0246919dc01cfd21d327bc74",
    "game-v1-7b01a052a0ebb92c-t10000-o0-p0.npz": "60be372a657116e77c635907e81f3983f553db25f92c9041a9bfa9748ff83f37",
    "game-v1-94d4187892a07b32-t10000-o0-p0.npz": "2b6c989c051269d4531bf90ebfaf0fe02f38e4b0b1d304b7d0d27006514b3790",
    "game-v1-963a98b8310d354d-t10000-o0-p0.npz": "4d1132cdc275ca4d623795b519e4a7f5533b9b5983599b33085caae90512390b",
    "rolls-v1-5bf150062616ec5c.npz": "001341cc97dfacca9ec1501f3aa8d6f4e9c53fc300845893f07cc7426753ed76",
    "rolls-v1-7b01a052a0ebb92c.npz": "a73dc6a9224ca1584d35742654633e0000d5b6681bdfce0997468a34b23e8c59",
    "rolls-v1-94d4187892a07b32.npz": "c81431750ab33f71c55b4bce8df1dda57019865e5fd534a816ef3a66f2f926c0",
    "rolls-v1-963a98b8310d354d.npz": "c89b62f7978e2e2c14e7d2c767f739f4e3800340148942afc4406f21f1b7fc3e",
    "solo-v1-5bf150062616ec5c-t10000-o0-p0.npz": "a749c4178da7f0bee1faa96434596d8d290363f757f3232e4bfcefee1f7f1b50",
    "solo-v1-5bf150062616ec5c-t10000-o0-p1000.npz": "a02d5d4ba2ffa6a37b8044c40dc79c2e3219cf7a4ffe067b7ff32e090cd1b31a",
    "solo-v1-5bf150062616ec5c-t10000-o500-p1000.npz": "cee4fd9d68f52bc86f7a6c10ff000a0f9a85424685979871b3d72e3b91591869",
    "solo-v1-5bf150062616ec5c-t2000-o0-p0.npz": "6cd6c88456e6b56583b985a33aa0d10e8d983e0665d7b38c8c2f3ba9cd63d1da",
    "solo-v1-7b01a052a0ebb92c-t10000-o0-p0.npz": "8015b75283b85409fd80060c68062bba152ea3e83fcae746081d42dec304954d",
    "solo-v1-94d4187892a07b32-t10000-o0-p0.npz": "9524a7a06e40e9910c12263ae4d875584d125a438fadf084f46a67fb538f1ee3",
    "solo-v1-963a98b8310d354d-t10000-o0-p0.npz": "f7224eb751b8b447a6f468893de9c3668e612ca5e1e6f89d981e83628639fcb8",
}


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
