"""The code base type-checks: mypy, configured by ``[tool.mypy]`` in pyproject.toml.

mypy reads its settings (files, strictness, per-module overrides) from the repository
root, so the test runs it there.  A cold run takes about 15 s; later runs reuse
``.mypy_cache`` and take about a second.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mypy import api  # in the 'test' extra: a missing mypy is a broken test set-up, not a skip

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_reports_no_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    report, errors, status = api.run([])
    assert status == 0, f"mypy found problems:\n{report}{errors}"
    assert "Success" in report
