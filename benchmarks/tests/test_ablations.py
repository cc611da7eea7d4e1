"""The ablation benchmark writes its studies to results.md, one section per puzzle."""

from __future__ import annotations

from pathlib import Path

import pytest


def test_the_ablation_benchmark_writes_one_table_per_puzzle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A study of two tiny facilities, through generate and compare, written as its section."""
    from benchmarks import ablations

    study = ablations.Study("elevator", (ablations.Family("p2", 2, 7, ("pairs=2",),
                                                          ("elevator-quotient[bound=none|default]",)),), "a question")
    monkeypatch.setattr(ablations, "STUDIES", {"elevator": study})
    results = tmp_path / "results.md"
    results.write_text("# Results\n\n<!-- speed:ablations-elevator -->\nold\n<!-- /speed:ablations-elevator -->\n")
    ablations.main(["--out", str(tmp_path / "runs"), "--write", str(results), "--time-limit", "10"])
    text = results.read_text()
    assert "#### ablations-elevator" in text and "- command: `.venv/bin/python -m benchmarks.ablations --out" in text
    assert "| p2 | elevator-quotient[bound=none] | bound=none | 2 | 2 / 2 | 2 / 2 | cpu |" in text
    assert "old" not in text and "a question." in capsys.readouterr().out
