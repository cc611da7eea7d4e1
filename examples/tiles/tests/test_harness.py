"""crosscheck's commands on the puzzle, as a user runs them (``python -m crosscheck``): it is
listed with its formulations, they are independent, compare judges its instances, a wrong
formulation of it is caught, and hunt and morph run on it."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

INSTANCES = Path(__file__).resolve().parents[1] / "instances"
INDEX = tomllib.loads((INSTANCES / "index.toml").read_text())
#: Small instances of every kind: a plan, no plan, a non-square board.
SMALL = ("2x2-random.txt", "2x3-unsolvable.txt", "3x2-random.txt")

#: A formulation that claims every board has no plan.
LIAR = '''
from crosscheck import Answer, Solver, Status

class TilesLiar(Solver):
    name = "tiles-liar"
    puzzle = "tiles"
    summary = "claims that no board has a plan"

    def _solve(self, instance, deadline):
        return Answer(Status.INFEASIBLE, message="no board has a plan")

SOLVERS = [TilesLiar]
'''


def crosscheck(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m crosscheck ARGS`` in `cwd`."""
    return subprocess.run([sys.executable, "-m", "crosscheck", *args], cwd=cwd, env=env or dict(os.environ),
                          capture_output=True, text=True, timeout=600)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """The `SMALL` instances in a folder of their own, with their index entries."""
    (tmp_path / "tiles").mkdir()
    entries = []
    for name in SMALL:
        (tmp_path / "tiles" / name).write_text((INSTANCES / "tiles" / name).read_text())
        entry = INDEX[f"tiles/{name}"]
        entries.append(f'["tiles/{name}"]\n' + ("infeasible = true\n" if entry.get("infeasible")
                                                 else f"optimum = {entry['optimum']}\n"))
    (tmp_path / "index.toml").write_text("\n".join(entries))
    return tmp_path


def rows(output: str) -> list[dict[str, str]]:
    """The runs of a ``--format csv`` output (the summary lines after them left out)."""
    return [row for row in csv.DictReader(output.splitlines()) if row.get("solver")]


def test_list_shows_the_puzzle_and_its_formulations_from_the_entry_point(tmp_path: Path) -> None:
    done = crosscheck("list", "--shares", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    start = lines.index("tiles: sliding-tile puzzle (variant: transposed (tiles renamed so the goal maps to the goal))")
    ours = lines[start:]
    for name in ("tiles-search", "tiles-cpsat"):
        assert any(line.split()[0] == name and "[entry point tiles (crosscheck-tiles" in line for line in ours[1:3])
    assert "    tiles-search & tiles-cpsat: nothing" in ours
    assert "  independent: 2 (tiles-search, tiles-cpsat)" in ours


def test_compare_agrees_with_the_index_by_two_independent_provers(folder: Path) -> None:
    done = crosscheck("compare", str(folder), "--format", "csv", "--out", str(folder / "runs.jsonl"), cwd=folder)
    assert done.returncode == 0, done.stderr
    runs = rows(done.stdout)
    assert sorted({run["instance"] for run in runs}) == [f"tiles/{name}" for name in SMALL]
    assert {(run["solver"], run["verdict"], run["independent"], run["plan_valid"] or "none") for run in runs} == {
        ("tiles-search", "agree", "2", "true"), ("tiles-cpsat", "agree", "2", "true"),
        ("tiles-search", "agree", "2", "none"), ("tiles-cpsat", "agree", "2", "none")}
    report = crosscheck("report", str(folder / "runs.jsonl"), "--format", "html", "-o", str(folder / "r.html"),
                        cwd=folder)
    assert report.returncode == 0 and "tiles-cpsat" in (folder / "r.html").read_text(), report.stderr


def test_a_formulation_claiming_no_plan_is_caught(folder: Path) -> None:
    (folder / "tiles_liar.py").write_text(LIAR)
    env = {**os.environ, "CROSSCHECK_SOLVERS": "tiles_liar",
           "PYTHONPATH": os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")])}
    done = crosscheck("compare", str(folder), "--format", "csv", "--out", str(folder / "runs.jsonl"), cwd=folder,
                      env=env)
    assert done.returncode == 1, done.stderr
    verdicts = {run["instance"]: run["verdict"] for run in rows(done.stdout) if run["verdict"]}
    assert verdicts == {"tiles/2x2-random.txt": "false-infeasible", "tiles/2x3-unsolvable.txt": "agree",
                        "tiles/3x2-random.txt": "false-infeasible"}


def test_hunt_and_morph_run_on_the_puzzle(folder: Path) -> None:
    hunt = crosscheck("hunt", "tiles", "--examples", "4", "-p", "rows=2", "-p", "columns=2-3", "-p", "moves=0-12",
                      "--out", str(folder / "hunt"), cwd=folder)
    assert hunt.returncode == 0, hunt.stderr
    assert "No wrong verdict on 4 tiles instances" in hunt.stdout
    morph = crosscheck("morph", str(folder), "--count", "1", "--out", str(folder / "morph"), cwd=folder)
    assert morph.returncode == 0, morph.stderr
    assert " pairs judged: " in morph.stdout and "morph-mismatch" not in morph.stdout
