"""Golden outputs of `crosscheck report`: what it prints for two results files of real runs
is compared with the files beside them, byte for byte.

``tests/fixtures/golden/old.jsonl`` and ``new.jsonl`` hold elevator and key vault runs with repeats
on the wall and the CPU clock, a crashing and a lying external program and an unreadable
instance file; runs both files record make the merged HTML case warn.  Each case reports them as `crosscheck report`
does (table, Markdown, LaTeX, CSV, JSON Lines, HTML, ``--against``): stdout, stderr and the
exit status.  The HTML page is compared without its figures, style sheet and script (their
own tests are in test_html_report.py and test_paper_output.py).

A change to the report side that is meant to leave the output alone must pass as it is.
A change meant to alter the output rewrites the files (``python -m tests.test_report_golden``);
its diff is then the change to review.
"""

from __future__ import annotations

import re
import sys

import pytest
from click.testing import CliRunner
from crosscheck.harness.cli import main

from tests.fixtures import ROOT

GOLDEN = ROOT / "tests" / "fixtures" / "golden"
#: The expected file's name and the arguments of `crosscheck report` (files named from GOLDEN).
CASES = {
    "old-table.txt": ["old.jsonl"],
    "new-table.txt": ["new.jsonl"],
    "new-markdown-solver.txt": ["new.jsonl", "--format", "markdown", "--by", "solver"],
    "new-table-family.txt": ["new.jsonl", "--by", "family"],
    "new-latex-run.txt": ["new.jsonl", "--format", "latex"],
    "new-latex-family.txt": ["new.jsonl", "--format", "latex", "--by", "family"],
    "new-csv.txt": ["new.jsonl", "--format", "csv"],
    "new-jsonl-solver.txt": ["new.jsonl", "--format", "jsonl", "--by", "solver"],
    "both-html.txt": ["old.jsonl", "new.jsonl", "--format", "html"],
    "against.txt": ["old.jsonl", "--against", "new.jsonl"],
    "against-back-markdown.txt": ["new.jsonl", "--against", "old.jsonl", "--format", "markdown", "--fail-on-slower"],
}
#: What the HTML comparison leaves out: embedded figures, the inlined style sheet and script.
_ASSETS = re.compile(r'src="data:image/svg\+xml;base64,[^"]*"|<style>.*?</style>|<script>.*?</script>', re.DOTALL)


def report(args: list[str]) -> str:
    """stdout, stderr and exit status of ``crosscheck report ARGS`` run in GOLDEN, as one text."""
    result = CliRunner().invoke(main, ["report", *args])
    return f"{_ASSETS.sub('…', result.stdout)}--- stderr\n{result.stderr}--- exit {result.exit_code}\n"


@pytest.mark.parametrize("name", CASES)
def test_report_prints_what_it_printed(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(GOLDEN)
    assert report(CASES[name]) == (GOLDEN / name).read_text(encoding="utf-8")


def rewrite() -> None:
    """Write every case's output as its expected file (after a change meant to alter them)."""
    import os

    os.chdir(GOLDEN)
    for name, args in CASES.items():
        (GOLDEN / name).write_text(report(args), encoding="utf-8")
        print(f"wrote {GOLDEN / name}", file=sys.stderr)


if __name__ == "__main__":
    rewrite()
