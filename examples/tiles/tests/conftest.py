"""The example's tests run only where the example is installed (the README's test command
installs it): without it they are not collected, and pytest's header says so, unless
``CROSSCHECK_REQUIRE_EXAMPLE`` is set (CI sets it), which makes the absence an error."""

from __future__ import annotations

import importlib.util
import os

import pytest

INSTALLED = importlib.util.find_spec("crosscheck_tiles") is not None
MISSING = "examples/tiles/tests: not run: crosscheck-tiles is not installed (pip install -e examples/tiles)"

if not INSTALLED:
    if os.environ.get("CROSSCHECK_REQUIRE_EXAMPLE"):
        raise pytest.UsageError(f"CROSSCHECK_REQUIRE_EXAMPLE is set, but {MISSING}")
    collect_ignore_glob = ["test_*.py"]


def pytest_report_header() -> list[str]:
    """Say that the example's tests were left out, when they were."""
    return [] if INSTALLED else [MISSING]
