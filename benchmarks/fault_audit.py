"""The fault-injection audit: does a planted fault get past both the cross-check and the tests?

Run as ``python -m benchmarks.fault_audit [--only NAME ...] [--jobs 2] [--out FOLDER]
[--write docs/results.md] [--list]``.  For each single-point fault of
`benchmarks.fault_catalogue.FAULTS` it copies the repository's tracked files to a
temporary folder, plants the fault, stages the copy as the ``crosscheck`` package first on
``PYTHONPATH`` (a canary checks that the faulted module is the one imported) and runs

- ``crosscheck compare`` on small seeded generated sets without index entries (each
  puzzle's `crosscheck.models.puzzle.Puzzle.small_sets`),
  judging its records against the answers the unfaulted code found on the same sets:
  the cross-check *misses* the fault when a wrong answer is reported ``agree`` with 2 or
  more independent provers;
- ``crosscheck morph`` with only the formulations the fault feeds, on the same sets
  (`benchmarks.fault_relations`): the relations catch it on a ``morph-mismatch`` or a
  failing verdict of a related instance;
- the fault's test files (``pytest -x``): the tests catch it when they fail.

A fault is **missed by both** when the cross-check misses it and the tests pass: the
defect this audit exists to find.  The table (also written as the ``fault-audit`` section
of a results file with ``--write``) gives, per fault, what the cross-check reported (the
verdicts of the instances with a wrong answer, or of any failure), what the relations
reported, the tests' outcome, and which of the three caught it; the summary counts the
faults only one of them caught, and names those only the relations caught and those none did.
"""

from __future__ import annotations

import argparse
import ast
import datetime
import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from crosscheck.harness.independence.trusted import is_trusted
from crosscheck.harness.judging.verdicts import FAILURES, InstanceVerdict, Verdict, judge_all
from crosscheck.harness.records.record import environment, read_records
from crosscheck.harness.reports.numbers import significant
from crosscheck.models.answers import ExactAnswer
from crosscheck.models.registry import get_puzzle, puzzles
from crosscheck.solvers.base import FAILED_STATUSES

from benchmarks.fault_catalogue import FAULTS, Fault
from benchmarks.fault_relations import Relations, fed_formulations, run_morph, subprocess_runner
from benchmarks.inputs import read_json, shaped
from benchmarks.results_file import Provenance, current_text, section, update

ROOT = Path(__file__).resolve().parents[1]
#: The folders that install as ``crosscheck.<name>`` (pyproject.toml's package-dir).
PACKAGES = ("models", "solvers", "harness")
#: The folder of the distributions of their own (a puzzle brought from outside, its
#: formulations), each installed from its folder: ``examples/NAME/PACKAGE/...``.
DISTRIBUTIONS = "examples"
COMPARE_OPTIONS = ["--time-limit", "10", "--clock", "cpu", "--jobs", "1"]
TEST_OPTIONS = ["-x", "-q", "-p", "no:cacheprovider"]
#: What can catch a planted fault, as the table names them.
CATCHERS = ("cross-check", "relations", "tests")


@dataclass(frozen=True)
class CrossCheck:
    """What ``compare`` reported under a fault, judged against the unfaulted answers."""

    wrong_agreed: int  # instances whose wrong answer is `agree` with 2+ independent provers
    one_line: int  # instances whose wrong answer is `agree` resting on one line (1 independent)
    verdicts: Counter[str]  # the verdicts of every instance whose answer is wrong or that failed
    failed_runs: int  # runs that ended in error or memout

    @property
    def missed(self) -> bool:
        return self.wrong_agreed > 0

    def summary(self) -> str:
        if self.missed:
            return f"MISSED: {self.wrong_agreed} wrong agree (2+ independent)"
        parts = [f"{name} {count}" for name, count in sorted(self.verdicts.items())]
        if self.failed_runs:
            parts.append(f"{self.failed_runs} runs failed")
        if not parts:
            return "no wrong answer, nothing flagged"
        return ("caught: " if self.flagged else "one line: ") + ", ".join(parts)

    @property
    def flagged(self) -> bool:
        """Whether compare said something is wrong (a failing verdict or failed runs)."""
        return self.failed_runs > 0 or any(name in {v.value for v in FAILURES} for name in self.verdicts)


def judge_crosscheck(truth: dict[str, ExactAnswer], verdicts: Iterable[InstanceVerdict],
                     failed_runs: int = 0) -> CrossCheck:
    """Judge compare's `verdicts` under a fault against the unfaulted answers `truth` (by
    instance key, see `instance_key`).  An instance counts when its verdict is a failure or
    its agreed answer differs from the truth; `agree` with a wrong answer is a miss when 2+
    independent provers back it, else it rests on one line."""
    wrong_agreed = one_line = 0
    seen: Counter[str] = Counter()
    for verdict in verdicts:
        expected = truth.get(instance_key(verdict))
        if verdict.verdict is Verdict.AGREE and expected is not None and verdict.answer != expected:
            if verdict.independent >= 2:
                wrong_agreed += 1
            else:
                one_line += 1
            seen[f"wrong agree ({verdict.independent} independent)"] += 1
        elif verdict.verdict in FAILURES:
            seen[verdict.verdict.value] += 1
    return CrossCheck(wrong_agreed, one_line, seen, failed_runs)


def instance_key(verdict: InstanceVerdict) -> str:
    return f"{verdict.instance}{' [variant]' if verdict.variant else ''}"


def truth_of(verdicts: Iterable[InstanceVerdict]) -> dict[str, ExactAnswer]:
    """The agreed answers of the unfaulted code (instances it did not settle are left out)."""
    return {instance_key(v): v.answer for v in verdicts if v.verdict is Verdict.AGREE and v.answer is not None}


def plant(fault: Fault, root: Path) -> None:
    """Replace `fault.original` by `fault.replacement` in `root / fault.path`; `ValueError`
    unless the original occurs exactly once."""
    path = root / fault.path
    text = path.read_text(encoding="utf-8")
    if text.count(fault.original) != 1:
        raise ValueError(f"{fault.name}: the snippet occurs {text.count(fault.original)} times in {fault.path}")
    path.write_text(text.replace(fault.original, fault.replacement), encoding="utf-8")


def copy_tracked(source: Path, target: Path) -> None:
    """Copy the files git tracks under `source` (as they are on disk) to `target`."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=source, capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        origin = source / name
        if origin.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(origin, target / name)


def stage(copy: Path) -> Path:
    """Give the copy's ``crosscheck/`` the installed package's layout (links to the copy's
    `PACKAGES`), so that the copy's folder first on ``sys.path`` imports the copy as
    ``crosscheck``; the folder to put there.  (A ``crosscheck/`` without them would win the
    top-level name for the copy yet leave ``crosscheck.models`` to the editable install.)"""
    for name in PACKAGES:
        (copy / "crosscheck" / name).symlink_to(copy / name, target_is_directory=True)
    return copy


def module_of(path: str) -> str:
    """The dotted name a repository file installs as (``models/keys/model.py`` ->
    ``crosscheck.models.keys.model``; ``examples/tiles/crosscheck_tiles/model.py`` -> ``crosscheck_tiles.model``)."""
    parts = path.removesuffix(".py").split("/")
    return ".".join(parts[2:]) if parts[0] == DISTRIBUTIONS else "crosscheck." + ".".join(parts)


def canary(fault: Fault, env: dict[str, str], cwd: Path) -> None:
    """Raise `RuntimeError` unless the faulted module imported under `env` carries the fault."""
    code = (f"import importlib, inspect; m = importlib.import_module({module_of(fault.path)!r}); "
            f"print(m.__file__); print({fault.replacement!r} in inspect.getsource(m))")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=cwd, capture_output=True, text=True)
    if out.returncode != 0 or not out.stdout.strip().endswith("True"):
        raise RuntimeError(f"{fault.name}: the fault is not active in the copy:\n{out.stdout}{out.stderr}")


def environment_for(staged: Path) -> dict[str, str]:
    """The environment that imports the staged copy: its ``crosscheck`` first on ``PYTHONPATH``,
    then each of its distributions' folders, so that an installed one (whose entry points name
    its modules) is imported from the copy too."""
    env = dict(os.environ)
    own = [str(folder.parent) for folder in sorted((staged / DISTRIBUTIONS).glob("*/pyproject.toml"))]
    env["PYTHONPATH"] = os.pathsep.join([str(staged), *own, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def audited_puzzles() -> list[str]:
    """The puzzles whose compare and morph runs the audit makes: every known one with small
    sets (`Puzzle.small_sets`)."""
    return sorted(name for name, puzzle in puzzles().items() if puzzle.small_sets)


def set_arguments(puzzle: str) -> list[list[str]]:
    """`puzzle`'s small sets (`Puzzle.small_sets`), each as the arguments of ``crosscheck generate``."""
    return [[puzzle, *sample.arguments()] for sample in get_puzzle(puzzle).small_sets]


def generate_sets(puzzles: Sequence[str], folder: Path, env: dict[str, str]) -> list[Path]:
    """Generate each puzzle's sets into `folder` (once: an existing set is kept); their folders."""
    made = []
    for puzzle in puzzles:
        for number, arguments in enumerate(set_arguments(puzzle)):
            target = folder / f"{puzzle}-{number}"
            if not target.exists():
                subprocess.run([sys.executable, "-m", "crosscheck", "generate", *arguments, "-o", str(target)],
                               env=env, check=True, capture_output=True)
            made.append(target)
    return made


def run_compare(sets: list[Path], out: Path, env: dict[str, str], cwd: Path) -> tuple[list[InstanceVerdict], int]:
    """Run ``crosscheck compare`` on `sets`, records to `out`; the verdicts and the failed runs."""
    if out.exists():
        out.unlink()
    subprocess.run(["nice", sys.executable, "-m", "crosscheck", "compare", *map(str, sets), *COMPARE_OPTIONS,
                    "--out", str(out)], env=env, cwd=cwd, capture_output=True, text=True)
    records = read_records(out)
    return judge_all(records), sum(r.status in FAILED_STATUSES for r in records)


def run_tests(fault: Fault, env: dict[str, str], cwd: Path) -> tuple[bool, str]:
    """Run the fault's tests in the copy: (whether they failed, pytest's last line)."""
    done = subprocess.run(["nice", sys.executable, "-m", "pytest", *fault.tests, *TEST_OPTIONS],
                          env=env, cwd=cwd, capture_output=True, text=True)
    lines = done.stdout.strip().splitlines()
    return done.returncode != 0, lines[-1] if lines else done.stderr.strip()[-200:]


@dataclass(frozen=True)
class Outcome:
    """What one fault did: the cross-check's and the relations' judgements and the tests' outcome."""

    fault: Fault
    crosscheck: CrossCheck
    relations: Relations
    tests_failed: bool
    tests_line: str

    @property
    def missed_by_both(self) -> bool:
        return self.crosscheck.missed and not self.tests_failed

    @property
    def caught_by(self) -> tuple[str, ...]:
        """Which of the cross-check, the relations and the tests caught the fault (in that order)."""
        caught = (self.crosscheck.flagged, self.relations.caught, self.tests_failed)
        return tuple(name for name, flag in zip(CATCHERS, caught, strict=True) if flag)


def prepared(fault: Fault | None, work: Path) -> tuple[Path, dict[str, str]]:
    """A fresh copy of the repository under `work` with `fault` planted (None: none), staged;
    the copy and the environment that imports it (checked by `canary`)."""
    copy = work / "copy"
    copy.mkdir(parents=True)
    copy_tracked(ROOT, copy)
    env = environment_for(stage(copy))
    if fault is not None:
        plant(fault, copy)
        canary(fault, env, copy)
    return copy, env


def truth(sets: dict[str, list[Path]], out: Path) -> dict[str, ExactAnswer]:
    """The answers the unfaulted code agrees on over every set (kept in ``out/unfaulted``)."""
    work = out / "unfaulted"
    if not (work / "compare.jsonl").exists():
        shutil.rmtree(work, ignore_errors=True)
        copy, env = prepared(None, work)
        run_compare([folder for folders in sets.values() for folder in folders], work / "compare.jsonl", env, copy)
        shutil.rmtree(copy)
    return truth_of(judge_all(read_records(work / "compare.jsonl")))


def audit_fault(fault: Fault, sets: dict[str, list[Path]], answers: dict[str, ExactAnswer], out: Path) -> Outcome:
    """One fault's outcome (its compare records are kept in ``out/NAME/compare.jsonl``, its
    morph runs in ``out/NAME/morph/`` and its output in ``out/NAME/morph.log``)."""
    work = out / fault.name
    if work.exists():
        shutil.rmtree(work)
    start = time.monotonic()
    copy, env = prepared(fault, work)
    verdicts, failed_runs = run_compare([folder for puzzle in fault.puzzles for folder in sets[puzzle]],
                                        work / "compare.jsonl", env, copy)
    relations = run_morph(fault, fed_formulations(fault, enclosing(fault)), sets, work / "morph",
                          subprocess_runner(env, copy, work / "morph.log"))
    failed, line = run_tests(fault, env, copy)
    shutil.rmtree(copy)
    outcome = Outcome(fault, judge_crosscheck(answers, verdicts, failed_runs), relations, failed, line)
    print(f"{fault.name}: {outcome.crosscheck.summary()}; relations {relations.summary()}; "
          f"tests {'FAILED' if failed else 'passed'} ({line}); {significant(time.monotonic() - start)} s", flush=True)
    return outcome


def table(outcomes: Sequence[Outcome]) -> str:
    """The audit's table, one row per fault, then the totals."""
    rows = [("fault", "area", "trusted", "cross-check", "relations", "tests", "caught by", "missed by both")]
    for o in outcomes:
        rows.append((o.fault.name, o.fault.area, "yes" if is_trusted(enclosing(o.fault)) else "no",
                     o.crosscheck.summary(), o.relations.summary(), "caught" if o.tests_failed else "passed",
                     "+".join(o.caught_by) or "NONE", "YES" if o.missed_by_both else "no"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in rows]
    missed = [o.fault.name for o in outcomes if o.missed_by_both]
    caught = sum(o.crosscheck.flagged for o in outcomes)
    lines += ["", f"{len(outcomes)} faults: cross-check flagged {caught}, relations caught "
                  f"{sum(o.relations.caught for o in outcomes)}, tests caught {sum(o.tests_failed for o in outcomes)}, "
                  f"missed by both {len(missed)}" + (f" ({', '.join(missed)})" if missed else ""), alone(outcomes)]
    return "\n".join(lines) + "\n"


def alone(outcomes: Sequence[Outcome]) -> str:
    """One line: how many faults each catcher caught alone (naming those of the relations)
    and how many none caught (naming them)."""
    def named(names: list[str], always: bool) -> str:
        return f"{len(names)}" + (f" ({', '.join(names)})" if names and always else "")

    only = {catcher: [o.fault.name for o in outcomes if o.caught_by == (catcher,)] for catcher in CATCHERS}
    nobody = [o.fault.name for o in outcomes if not o.caught_by]
    return ("caught only by " + ", ".join(f"{catcher} {named(names, catcher == 'relations')}"
                                          for catcher, names in only.items())
            + f"; by none {named(nobody, True)}")


def enclosing(fault: Fault) -> str:
    """The qualified name of the innermost function or class holding the fault's snippet in
    the unfaulted file; for a line of a module-level or class-level assignment to one name
    (a constant such as ``ENERGY``), that name; else the module's or class's name."""
    text = (ROOT / fault.path).read_text(encoding="utf-8")
    line = text[:text.index(fault.original)].count("\n") + 1
    name, body = module_of(fault.path), ast.parse(text).body
    kinds: tuple[type[ast.FunctionDef | ast.ClassDef | ast.Assign], ...] = (ast.FunctionDef, ast.ClassDef, ast.Assign)
    while True:
        inner = next((node for node in body if isinstance(node, kinds)
                      and node.lineno <= line <= (node.end_lineno or node.lineno)), None)
        if isinstance(inner, ast.Assign):
            targets = [target.id for target in inner.targets if isinstance(target, ast.Name)]
            return f"{name}.{targets[0]}" if len(inner.targets) == len(targets) == 1 else name
        if inner is None:
            return name
        name, body = f"{name}.{inner.name}", inner.body
        # a function's own assignments are its locals, not names of their own
        kinds = (ast.FunctionDef, ast.ClassDef) if isinstance(inner, ast.FunctionDef) else kinds


def save(outcome: Outcome, path: Path) -> None:
    """Keep a fault's outcome, so that ``--resume`` reuses it and nothing computed is lost."""
    c, r = outcome.crosscheck, outcome.relations
    relations = {"pairs": r.pairs, "mismatches": dict(r.mismatches), "related_failures": dict(r.related_failures),
                 "unverified": r.unverified}
    path.write_text(json.dumps({"wrong_agreed": c.wrong_agreed, "one_line": c.one_line, "verdicts": dict(c.verdicts),
                                "failed_runs": c.failed_runs, "relations": relations,
                                "tests_failed": outcome.tests_failed, "tests_line": outcome.tests_line}) + "\n",
                    encoding="utf-8")


#: What a kept outcome in ``--out`` must be.
KEPT = "a fault's outcome as fault_audit keeps it (JSON; delete the file to audit the fault again)"


def load(fault: Fault, path: Path) -> Outcome | None:
    """The outcome kept at `path`; None when it was kept before the relations column (to run again).
    Exits 2 with one line naming the file when it is no kept outcome (delete it to audit the fault again)."""
    data = read_json(path, KEPT)
    if isinstance(data, dict) and "relations" not in data:
        return None

    def outcome() -> Outcome:
        check = CrossCheck(data["wrong_agreed"], data["one_line"], Counter(data["verdicts"]), data["failed_runs"])
        r = data["relations"]
        relations = Relations(r["pairs"], Counter(r["mismatches"]), Counter(r["related_failures"]), r["unverified"])
        return Outcome(fault, check, relations, data["tests_failed"], data["tests_line"])

    return shaped(path, KEPT, outcome)


def run_all(faults: Sequence[Fault], out: Path, jobs: int, resume: bool) -> list[Outcome]:
    """Every fault's outcome, `jobs` faults at a time, in the order of `faults`."""
    needed = {puzzle for fault in faults for puzzle in fault.puzzles}
    sets = {puzzle: generate_sets([puzzle], out / "sets", dict(os.environ)) for puzzle in audited_puzzles()
            if puzzle in needed}
    answers = truth(sets, out)
    print(f"unfaulted answers: {len(answers)} instances", flush=True)

    def one(fault: Fault) -> Outcome:
        kept = out / f"{fault.name}.json"
        earlier = load(fault, kept) if resume and kept.exists() else None
        if earlier is not None:
            return earlier
        try:
            outcome = audit_fault(fault, sets, answers, out)
        except Exception as error:  # one broken fault must not stop the others
            print(f"{fault.name}: not audited: {error}", flush=True)
            raise
        save(outcome, kept)
        return outcome

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(one, fault) for fault in faults]
    outcomes = []
    for fault, future in zip(faults, futures, strict=True):
        if future.exception() is None:
            outcomes.append(future.result())
        else:
            print(f"{fault.name}: left out of the table: {future.exception()}", flush=True)
    return outcomes


def interleaved(faults: Sequence[Fault]) -> list[Fault]:
    """`faults` taken one area at a time in turn, so that a run cut short still covers every area."""
    areas: dict[str, list[Fault]] = {}
    for fault in faults:
        areas.setdefault(fault.area, []).append(fault)
    return [queue[i] for i in range(max(map(len, areas.values()))) for queue in areas.values() if i < len(queue)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", metavar="NAME", help="audit only these faults")
    parser.add_argument("--jobs", type=int, default=2, help="faults audited at once")
    parser.add_argument("--out", type=Path, default=Path("fault-audit-runs"),
                        help="folder of the generated sets, the compare records and each fault's outcome")
    parser.add_argument("--resume", action="store_true", help="reuse the outcomes already in --out")
    parser.add_argument("--kept", action="store_true",
                        help="run nothing: table the outcomes already in --out, naming the faults not run")
    parser.add_argument("--write", type=Path, metavar="FILE", help="write the table as a section of this file")
    parser.add_argument("--list", action="store_true", help="print the faults and stop")
    args = parser.parse_args(argv)
    known = {fault.name: fault for fault in FAULTS}
    unknown = sorted(set(args.only or ()) - set(known))
    if unknown:
        parser.error(f"unknown faults: {', '.join(unknown)}")
    faults = [known[name] for name in args.only] if args.only else interleaved(FAULTS)
    absent = [fault.name for fault in faults if not set(fault.puzzles) <= set(puzzles())]
    if absent and args.only:
        parser.error(f"the puzzle of {absent[0]} is not installed (see crosscheck list)")
    if absent:
        print(f"not audited, their puzzle not installed ({len(absent)}): {', '.join(absent)}", flush=True)
        faults = [fault for fault in faults if fault.name not in absent]
    if args.list:
        for fault in faults:
            print(f"{fault.name} ({fault.area}, in {enclosing(fault)}): {fault.description}")
        return
    if args.write is not None:
        current_text(args.write)  # an unreadable file is said now, not after the audit
    args.out.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    if args.kept:
        kept = [load(fault, args.out / f"{fault.name}.json") for fault in faults
                if (args.out / f"{fault.name}.json").exists()]
        outcomes = [outcome for outcome in kept if outcome is not None]
    else:
        outcomes = run_all(faults, args.out, args.jobs, args.resume)
    text = table(outcomes)
    not_run = [fault.name for fault in faults if fault not in {o.fault for o in outcomes}]
    if not_run:
        text += f"not run ({len(not_run)}): {', '.join(not_run)}\n"
    print(text, end="")
    if args.write is not None:
        facts = environment()
        command = ".venv/bin/python -m benchmarks.fault_audit " + " ".join(argv if argv is not None else sys.argv[1:])
        provenance = Provenance(command=command.strip(), commit=str(facts["commit"]),
                                date=datetime.datetime.now().isoformat(timespec="seconds"),
                                load=" ".join(f"{x:.2f}" for x in os.getloadavg()),
                                machine=f"host {facts['host']}, {facts['cpus']} cpus")
        update(args.write, "fault-audit", section("fault-audit", provenance, text,
                                                  f"{len(outcomes)} of {len(faults)} faults audited, "
                                                  f"{significant(time.monotonic() - start)} s wall"))
    sys.exit(1 if len(outcomes) < len(faults) or any(o.missed_by_both for o in outcomes) else 0)


if __name__ == "__main__":
    main()
