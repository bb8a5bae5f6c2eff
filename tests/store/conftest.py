"""A fresh store for each store test, on a clock the test moves by hand."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import Clock

from farkle_trainer.store.db import Store


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(tmp_path: Path, clock: Clock) -> Store:
    with Store.open(tmp_path / "data", clock=clock) as s:
        yield s  # type: ignore[misc]
