"""The repository's instance files and the optima its index records, for tests.

Tests read instances from `instances/` (never from outside the repository), so they run
the same on a fresh clone.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

INSTANCES = Path(__file__).resolve().parent.parent / "instances"
INDEX: dict[str, dict[str, Any]] = tomllib.loads((INSTANCES / "index.toml").read_text(encoding="utf-8"))


def published_optima(puzzle: str) -> dict[str, int]:
    """The published examples of `puzzle` (paths relative to `instances/`) and their optima."""
    return {
        name: int(entry["optimum"])
        for name, entry in sorted(INDEX.items())
        if name.startswith(f"{puzzle}/") and entry.get("origin") == "published example"
    }


def read(name: str) -> str:
    """The text of the instance file `name` (relative to `instances/`)."""
    return (INSTANCES / name).read_text(encoding="utf-8")
