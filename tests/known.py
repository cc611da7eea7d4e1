"""The repository's instance files and the optima its index records, for tests.

Tests read instances from `instances/` (never from outside the repository), so they run
the same on a fresh clone.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from crosscheck.models.base import InvalidInstance

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


def assert_parse_error(parse: Callable[[str, str], object], text: str, line: int, column: int,
                       words: str) -> InvalidInstance:
    """`parse(text, "bad.txt")` must fail naming the file, `line` and `column` (also as the
    message's ``bad.txt:LINE:COLUMN:`` prefix) with `words` in the message; returns the error."""
    with pytest.raises(InvalidInstance) as caught:
        parse(text, "bad.txt")
    error = caught.value
    assert (error.source, error.line, error.column) == ("bad.txt", line, column)
    assert str(error).startswith(f"bad.txt:{line}:{column}: ") and words in str(error)
    return error
