"""The README is a front door: its two commands are the ones CI and users actually run, and a
newcomer finds install, the main command, the test command and the verdicts on the first screen."""


from crosscheck.harness.judging.verdicts import Verdict

from tests.fixtures import ROOT

TEST_COMMAND = "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test,planners,cluster,analysis,certificates]' -e examples/tiles && .venv/bin/python -m pytest"
MAIN_COMMAND = "python3 -m venv .venv && .venv/bin/pip install -q -e . && .venv/bin/crosscheck compare instances/"
FIRST_SCREEN = 50  # lines


def test_readme_opens_with_the_two_commands() -> None:
    readme = (ROOT / "README.md").read_text()
    head = readme[: readme.index("## ")]
    assert MAIN_COMMAND in head and TEST_COMMAND in head


def test_the_first_screen_holds_the_commands_and_every_verdict() -> None:
    screen = "\n".join((ROOT / "README.md").read_text().splitlines()[:FIRST_SCREEN])
    assert MAIN_COMMAND in screen and TEST_COMMAND in screen
    assert all(f"| `{verdict.value}` |" in screen for verdict in Verdict)
    assert "Exit status" in screen


def test_the_readme_stays_a_front_door() -> None:
    assert len((ROOT / "README.md").read_text().splitlines()) <= 200


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    assert TEST_COMMAND in (ROOT / ".ci" / "run").read_text().splitlines()
