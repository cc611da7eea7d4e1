"""Files the benchmark scripts are given to read: one line naming the file and what was expected.

A benchmark given a file it cannot read (missing, not text, not JSON, not of the expected
shape) stops with exit status 2 and one line on standard error,
``error: FILE[:LINE:COLUMN]: cannot read it (why); expected WHAT``, instead of a traceback.
Scripts read such files before they time anything, so a bad argument costs no run.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

T = TypeVar("T")

#: The exit status of a benchmark given a file it cannot read (argparse's for bad usage).
BAD_INPUT = 2


def refuse(path: Path | str, expected: str, why: str, where: str = "") -> NoReturn:
    """Stop with `BAD_INPUT` after one line naming `path` (with ``:LINE:COLUMN`` `where`),
    `why` it cannot be read and what was `expected`."""
    reason = " ".join(why.split()) or "no reason given"  # one line, whatever the error said
    print(f"error: {path}{where}: cannot read it ({reason}); expected {expected}", file=sys.stderr)
    raise SystemExit(BAD_INPUT)


def read_text(path: Path, expected: str) -> str:
    """The UTF-8 text of `path`; `refuse` when it is missing, a folder or not UTF-8."""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        refuse(path, expected, error.strerror if isinstance(error, OSError) and error.strerror else str(error))


def read_json(path: Path, expected: str) -> Any:
    """The parsed JSON of `path`; `refuse` (with the line and column of a syntax error) when
    it cannot be read or is not JSON."""
    text = read_text(path, expected)
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        refuse(path, expected, f"not JSON: {error.msg}", f":{error.lineno}:{error.colno}")


def shaped(path: Path | str, expected: str, build: Callable[[], T]) -> T:
    """What `build` makes of the already-parsed contents of `path`; `refuse` when it raises
    because they are not of the `expected` shape (a missing key, a wrong type or value)."""
    try:
        return build()
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        why = f"missing {error}" if isinstance(error, KeyError) else str(error) or type(error).__name__
        refuse(path, expected, f"wrong shape: {why}")
