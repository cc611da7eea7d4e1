"""The README's two commands are the ones CI and users actually run."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEST_COMMAND = "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test,planners,cluster,analysis]' && .venv/bin/python -m pytest"
MAIN_COMMAND = "python3 -m venv .venv && .venv/bin/pip install -q -e . && .venv/bin/crosscheck compare instances/"


def test_readme_opens_with_the_two_commands() -> None:
    readme = (ROOT / "README.md").read_text()
    head = readme[: readme.index("## ")]
    assert MAIN_COMMAND in head and TEST_COMMAND in head


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    assert TEST_COMMAND in (ROOT / ".ci" / "run").read_text().splitlines()
