"""The README's and docs/'s examples are true for the current code: every `crosscheck` command
in their shell blocks names a real command and real options, every `python -m benchmarks.X`
command real options of that script (from its --help), every relative link leads to a
file, and the formulation example of docs/formulations.md runs and agrees with a built-in one.
(docs/usage.md's pandas example runs in tests/test_measure.py.)"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from crosscheck.harness.cli import main
from crosscheck.models.registry import load_instance

from tests.fixtures import INSTANCES, ROOT

PAGES = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _shell_blocks(page: Path) -> list[str]:
    return re.findall(r"```sh\n(.*?)```", page.read_text(), re.DOTALL)


#: A shell operator between commands (``&&``, ``;``, ``|``) outside single quotes: a quoted
#: ``'keys-graph[bound=none|default]'`` is one word.
_OPERATOR = re.compile(r"(?:&&|;|\|)(?=(?:[^']*'[^']*')*[^']*$)")


def _invocations(page: Path) -> list[list[str]]:
    """Every command in `page`'s shell blocks (continued lines joined, comments dropped), as words."""
    found = []
    for block in _shell_blocks(page):
        for line in block.replace("\\\n", " ").splitlines():
            line = line.split(" #", 1)[0]
            found += [shlex.split(part.replace("{path}", "PATH")) for part in _OPERATOR.split(line)]
    return found


def _commands(page: Path) -> list[list[str]]:
    """Every `crosscheck` invocation in `page`'s shell blocks, as words after `crosscheck`."""
    found = []
    for words in _invocations(page):
        at = [i for i, word in enumerate(words) if word.endswith("bin/crosscheck") or word == "crosscheck"]
        if at:
            found.append(words[at[0] + 1:])
    return found


def _benchmark_commands(page: Path) -> list[list[str]]:
    """Every `python -m benchmarks.NAME` invocation in `page`'s shell blocks, as words from
    the module's name on."""
    found = []
    for words in _invocations(page):
        at = [i for i in range(len(words) - 1) if words[i] == "-m" and words[i + 1].startswith("benchmarks.")]
        if at:
            found.append(words[at[0] + 1:])
    return found


def _options(command: click.Command) -> set[str]:
    return {name for parameter in command.params for name in getattr(parameter, "opts", [])
            + getattr(parameter, "secondary_opts", [])}


CASES = [(page.relative_to(ROOT).as_posix(), words) for page in PAGES for words in _commands(page)]


def test_the_pages_show_commands() -> None:
    assert len(CASES) >= 20  # the parser below found them (else every check would pass vacuously)


@pytest.mark.parametrize(("page", "words"), CASES, ids=[f"{page}: {' '.join(w)[:60]}" for page, w in CASES])
def test_every_shown_command_names_a_real_command_and_options(page: str, words: list[str]) -> None:
    assert isinstance(main, click.Group)
    command = main.get_command(click.Context(main), words[0]) if words else None
    assert command is not None, f"{page}: no crosscheck command {words[:1]}"
    unknown = [word.split("=")[0] for word in words[1:] if word.startswith("-")
               and word.split("=")[0] not in _options(command)]
    assert not unknown, f"{page}: crosscheck {words[0]} has no option {unknown}"


BENCHMARK_CASES = [(page.relative_to(ROOT).as_posix(), words) for page in PAGES for words in _benchmark_commands(page)]


@cache
def _help(module: str) -> str:
    done = subprocess.run([sys.executable, "-m", module, "--help"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, f"python -m {module} --help: {done.stderr}"
    return done.stdout


def test_the_pages_show_benchmark_commands() -> None:
    assert {words[0] for _, words in BENCHMARK_CASES} >= {"benchmarks.bench_external", "benchmarks.fault_audit"}


@pytest.mark.parametrize(("page", "words"), BENCHMARK_CASES,
                         ids=[f"{page}: {' '.join(w)[:60]}" for page, w in BENCHMARK_CASES])
def test_every_shown_benchmark_command_names_real_options(page: str, words: list[str]) -> None:
    offered = set(re.findall(r"(?<![\w-])--[\w-]+", _help(words[0])))
    unknown = [word.split("=")[0] for word in words[1:] if word.startswith("--") and word.split("=")[0] not in offered]
    assert not unknown, f"{page}: python -m {words[0]} has no option {unknown}"


def test_relative_links_lead_to_files() -> None:
    broken = []
    for page in PAGES:
        for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", page.read_text()):
            if "://" not in target and not (page.parent / target).exists():
                broken.append(f"{page.relative_to(ROOT)} -> {target}")
    assert not broken


def test_the_formulation_example_runs_beside_a_built_in_one_and_agrees(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "formulations.md").read_text()
    start = text.index("```python\n# my_formulations.py\n") + len("```python\n")
    (tmp_path / "my_formulations.py").write_text(text[start: text.index("```", start)])
    [command] = [c for c in _commands(ROOT / "docs" / "formulations.md") if c[0] == "solve"]
    environment = {**os.environ, "CROSSCHECK_SOLVERS": "my_formulations", "PYTHONPATH": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "crosscheck", *command, "--format", "json"], cwd=ROOT,
                          env=environment, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    runs = {run["solver"]: run for run in json.loads(done.stdout)}
    assert runs["elevator-mine"]["status"] == "optimal" and runs["elevator-mine"]["plan_valid"]
    assert runs["elevator-mine"]["cost"] == runs["elevator-quotient"]["cost"] == 11


def test_the_formulation_example_is_right_on_edge_cases_and_independent(tmp_path: Path) -> None:
    """The example agrees with elevator-bfs where no move is needed (every item already on
    the top floor, the elevator below), on an unsafe start and on the published instances,
    and shares no code with any built-in (it carries its own safety rule)."""
    text = (ROOT / "docs" / "formulations.md").read_text()
    start = text.index("```python\n# my_formulations.py\n") + len("```python\n")
    (tmp_path / "my_formulations.py").write_text(text[start: text.index("```", start)])
    folder = tmp_path / "lifts"
    folder.mkdir()
    for name in ("two-pairs-example.txt", "three-matched.txt", "stranded-chip.txt", "stuck-generator.txt"):
        shutil.copy(INSTANCES / "elevator" / name, folder / name)
    (folder / "all-up.txt").write_text(
        "The first floor contains nothing relevant.\nThe second floor contains nothing relevant.\n"
        "The third floor contains nothing relevant.\n"
        "The fourth floor contains a hydrogen generator and a hydrogen-compatible microchip.\n")
    environment = {**os.environ, "CROSSCHECK_SOLVERS": "my_formulations", "PYTHONPATH": str(tmp_path)}

    def crosscheck(*args: str) -> str:
        done = subprocess.run([sys.executable, "-m", "crosscheck", *args], cwd=tmp_path, env=environment,
                              capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode == 0, done.stderr
        return done.stdout

    runs = json.loads(crosscheck("compare", "lifts", "--solver", "elevator-mine", "--solver", "elevator-bfs",
                                 "--format", "json", "--out", str(tmp_path / "runs.jsonl")))
    answers: dict[str, dict[str, object]] = {}
    for run in runs:
        answers.setdefault(run["instance"], {})[run["solver"]] = (run["status"], run["cost"])
    assert len(answers) == 5 and all(len(set(pair.values())) == 1 for pair in answers.values()), answers
    assert answers["all-up.txt"]["elevator-mine"] == ("optimal", 0)
    shares = crosscheck("list", "--shares")
    assert "elevator-mine" in shares and not re.search(r"elevator-mine[^\n]*: \d+ shared", shares)
    assert re.search(r"independent: 4 \([^)]*elevator-mine", shares), shares


def test_the_study_example_makes_the_size_figure_its_table_lists(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/usage.md's study promises ``size-keys.pdf``, which `plot` draws only when the
    instances differ in their first size measure: its `generate` commands must make them so."""
    page = ROOT / "docs" / "usage.md"
    assert "| `size-keys.pdf` |" in page.read_text()
    generates = [words for words in _commands(page) if words[0] == "generate" and words[-1].startswith("study/")]
    monkeypatch.chdir(tmp_path)
    for words in generates:
        assert CliRunner().invoke(main, words).exit_code == 0
    sizes = set()
    for path in (tmp_path / "study").rglob("*.txt"):
        puzzle, instance = load_instance(str(path))
        sizes.add(next(iter(puzzle.features(instance).values())))  # the first size measure, the size figure's x
    assert len(sizes) > 1, f"every vault of the study has the first size measure {sizes}: no size figure"


#: Run in a fresh interpreter by the test below: the corridor of docs/adding-a-puzzle.md, imported
#: from the folder it was written to.
CORRIDOR_CHECK = """
import random
from pathlib import Path
from hypothesis import given, settings
from crosscheck import InvalidInstance, Puzzle
import crosscheck_corridor as corridor

puzzle = corridor.PUZZLE
assert isinstance(puzzle, Puzzle) and puzzle.reference in {c.name for c in corridor.SOLVERS}
for name in ("keys/loop-1.txt", "elevator/three-matched.txt", "amphipods/depth2-example.txt"):
    assert not puzzle.detect(Path(ROOT, "instances", name).read_text())  # it claims no built-in's text
try:
    puzzle.parse("@.x", "bad.txt")
    raise AssertionError("a bad character was read")
except InvalidInstance as error:
    assert str(error).startswith("bad.txt:1:3: "), error
boards = [*puzzle.corpus(), *(puzzle.generate(seed, length) for seed in range(10) for length in (2, 5, 13))]
for instance in boards:
    assert puzzle.detect(instance.to_text()) and puzzle.parse(instance.to_text(), instance.name) == instance
    costs = set()
    for solver_class in corridor.SOLVERS:
        result = solver_class().solve(instance, time_limit=10)
        assert result.status == "optimal" and puzzle.check_plan(instance, result.plan) == result.cost, result
        costs.add(result.cost)
    related = puzzle.relation("mirror").derive(instance, random.Random(0), None)
    assert len(costs) == 1 and corridor.CorridorCount().solve(related.instance).cost in costs


@settings(max_examples=20, database=None)
@given(puzzle.strategy({"length": (3, 6)}))
def drawn(instance):
    assert 3 <= puzzle.features(instance)["length"] <= 6


drawn()
"""


def test_the_puzzle_example_reads_checks_and_its_formulations_agree(tmp_path: Path) -> None:
    """docs/adding-a-puzzle.md's corridor is a working puzzle: it reads its own texts back and
    claims no built-in's, refuses a bad one by line and column, its two formulations agree and
    their plans pass its checker, its relation keeps the answer, hunt draws within the ranges,
    and the pyproject.toml shown names its entry points.  (In a fresh interpreter: a `Solver`
    subclass defined in this one would count as formulation code for the rest of the suite.)"""
    text = (ROOT / "docs" / "adding-a-puzzle.md").read_text()
    start = text.index("```python\n# crosscheck_corridor/__init__.py\n") + len("```python\n")
    (tmp_path / "crosscheck_corridor").mkdir()
    (tmp_path / "crosscheck_corridor" / "__init__.py").write_text(text[start: text.index("```", start)])
    toml = text[text.index("```toml\n", start) + len("```toml\n"):]
    assert 'corridor = "crosscheck_corridor:PUZZLE"' in toml.split("```")[0]
    assert 'corridor = "crosscheck_corridor"\n' in toml.split("```")[0]
    done = subprocess.run([sys.executable, "-c", f"ROOT = {str(ROOT)!r}\n{CORRIDOR_CHECK}"], cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(tmp_path)}, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
