"""Checking a run's certificate in the harness, never in the formulation that made it.

A formulation that refutes CNF formulas hands over a `crosscheck.solvers.certificate.Certificate`:
for each refutation, which CNF of its encoding it was, the CNF's digest and the file holding
the solver's DRUP proof.  After the run has ended, the process that started it (`certified`,
called where the run's record is settled) checks it in a process of its own, under a time limit
on the run's clock (`check_limit`; under a CPU-time limit a profiling timer stops the check, and a
wall cap of `WALL_CAP_FACTOR` times the limit, plus `CHECK_GRACE`, one that waits): for each query it

1. rebuilds the CNF from the instance with the formulation's encoder (`Solver.encoding`), a pure
   function of the instance and the query, and compares its digest with the one the run used;
2. keeps the CNF, the proof and the query's data gzipped under ``--certificates DIR`` when asked
   (`keep`), before checking, so a check that runs out of time can be made later with
   ``crosscheck check-certificates``;
3. checks the proof against the rebuilt CNF (`check_proof`): ``dratify`` (a forward DRAT checker,
   pure Python) always, and ``drup`` (extracted from a checker verified in Why3) where the proof
   is small enough for it (`DRUP_WORK`): its checking time grows with the formula's size times
   the proof's, far beyond the other's.  Every checker that ran must accept.

The claim must follow from the queries' kinds (`crosscheck.solvers.certificate.unproven`).  Only
then does the record's evidence become ``certified``; a failed check makes the certificate's
``checked`` False, which the verdicts read as ``bad-certificate``; a check that could not finish
leaves it None (not certified, nothing wrong).  The run's temporary proof folder is removed.
"""

from __future__ import annotations

import gzip
import json
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from crosscheck.harness.records.evidence import Evidence
from crosscheck.harness.records.record import RunRecord, Task
from crosscheck.harness.runs.limits import WALL_CAP_FACTOR
from crosscheck.solvers.certificate import Certificate, Encoding, UnsatQuery, unproven
from crosscheck.solvers.engines.sat import Cnf, discard_proofs
from pydantic import ValidationError

#: drup also checks a proof when the formula's clauses times the proof's added clauses are at most this.
DRUP_WORK = 100_000
#: A check may take this many times the run's time limit, and at least `CHECK_MINIMUM` seconds.
CHECK_FACTOR = 5
CHECK_MINIMUM = 60.0
#: Under a CPU-time limit, wall seconds a check gets beyond `WALL_CAP_FACTOR` times its limit (to start and report).
CHECK_GRACE = 5.0


def missing() -> str | None:
    """Why certificates cannot be checked here (a proof checker is not installed), or None."""
    try:
        import dratify  # noqa: F401 (only whether they import)
        import drup  # noqa: F401
    except ImportError as error:
        from crosscheck.extras import missing_extra

        return missing_extra("checking certificates", "certificates", str(error))
    return None


# --- proofs and formulas as text ------------------------------------------------------------

def read_dimacs(text: str, source: str = "<cnf>") -> Cnf:
    """A DIMACS text as a `Cnf`; `ValueError` naming the line for anything else."""
    cnf, declared = Cnf(), None
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split()
        if not words or words[0] == "c":
            continue
        if words[0] == "p":
            if len(words) != 4 or words[1] != "cnf" or not words[2].isdigit() or not words[3].isdigit():
                raise ValueError(f"{source}:{number}: expected 'p cnf VARIABLES CLAUSES'")
            cnf.variables, declared = int(words[2]), int(words[3])
            continue
        cnf.add(*_clause(words, f"{source}:{number}", cnf.variables))
    if declared is None or declared != len(cnf.clauses):
        raise ValueError(f"{source}: the header declares {declared} clauses, the text holds {len(cnf.clauses)}")
    return cnf


def _clause(words: Sequence[str], where: str, variables: int | None = None) -> tuple[int, ...]:
    """The literals of one clause line ending in 0; `ValueError` naming `where` otherwise."""
    try:
        literals = [int(word) for word in words]
    except ValueError:
        raise ValueError(f"{where}: expected integer literals ending in 0") from None
    if not literals or literals[-1] != 0 or 0 in literals[:-1]:
        raise ValueError(f"{where}: expected one clause, its literals ending in 0")
    if variables is not None and any(abs(literal) > variables for literal in literals):
        raise ValueError(f"{where}: a literal beyond the {variables} variables declared")
    return tuple(literals[:-1])


def proof_additions(text: str, source: str = "<proof>") -> list[tuple[int, ...]]:
    """The clauses a DRUP proof adds, in order (its ``d`` deletions left out); `ValueError`
    naming the line for a line that is no clause."""
    return [_clause(line.split(), f"{source}:{number}") for number, line in enumerate(text.splitlines(), start=1)
            if line.strip() and not line.lstrip().startswith(("d", "c"))]


@dataclass(frozen=True)
class ProofCheck:
    """How a proof fared: `ok` when every checker that ran accepted it; `reason` why not."""

    ok: bool
    checkers: tuple[str, ...]
    reason: str = ""


def check_proof(cnf: Cnf, proof: str) -> ProofCheck:
    """Check the DRUP `proof` (text) of `cnf`'s unsatisfiability with dratify, and with drup too
    when `cnf`'s clauses times the proof's added clauses are at most `DRUP_WORK`."""
    import dratify

    try:
        additions = proof_additions(proof)
    except ValueError as error:
        return ProofCheck(False, (), str(error))
    if not additions or additions[-1]:
        return ProofCheck(False, (), "the proof does not end with the empty clause")
    checkers = ["dratify"]
    result = dratify.check_proof(dratify.parse_dimacs(cnf.dimacs()), proof, engine="python")
    if not result.ok:
        return ProofCheck(False, tuple(checkers), f"dratify rejects it: {result.reason}")
    if len(cnf.clauses) * len(additions) <= DRUP_WORK:
        import drup

        checkers.append("drup")
        if drup.check_proof(cnf.clauses, additions).outcome is not drup.Outcome.VALID:
            return ProofCheck(False, tuple(checkers), "drup rejects it (dratify accepts it)")
    return ProofCheck(True, tuple(checkers))


def read_text(path: Path) -> str:
    """A file's text, gunzipped when its name ends in ``.gz``."""
    if path.suffix == ".gz":
        with gzip.open(path, "rt", encoding="ascii") as handle:
            return handle.read()
    return path.read_text(encoding="ascii")


# --- checking a certificate ---------------------------------------------------------------------

def rebuilt(encoding: Encoding, instance: Any, query: UnsatQuery, folder: Path | None = None) -> Cnf:
    """The CNF `encoding` builds for `query` on `instance` (its data read from the query's data
    file, relative to `folder` when given)."""
    data = None
    if query.data_file:
        data = json.loads(read_text(Path(query.data_file) if folder is None else folder / query.data_file))
    cnf: Cnf = encoding.cnf(instance, query.kind, query.bound, data)
    return cnf


def check(certificate: Certificate, encoding: Encoding, instance: Any, keep_in: Path | None = None) -> Certificate:
    """`certificate` with its check's outcome (module doc); the proofs are read from the files its
    queries name, and kept in `keep_in` (gzipped, with the rebuilt CNFs) when given."""
    start = time.perf_counter()
    outcome = _checked(certificate, encoding, instance, keep_in)
    return outcome.model_copy(update={"check_seconds": round(time.perf_counter() - start, 3)})


def _checked(certificate: Certificate, encoding: Encoding, instance: Any, keep_in: Path | None) -> Certificate:
    why = unproven(certificate.claim, certificate.bound, certificate.queries)
    if why:
        return certificate.model_copy(update={"checked": False, "error": why})
    formulas = []
    for query in certificate.queries:
        try:
            cnf = rebuilt(encoding, instance, query)
        except (OSError, ValueError) as error:
            return certificate.model_copy(update={"checked": False, "error": f"{_named(query)}: {error}"})
        if cnf.digest() != query.digest:
            return certificate.model_copy(update={"checked": False, "error": (
                f"{_named(query)}: the CNF the run refuted is not the one the encoder builds from the instance "
                f"(digest {query.digest[:12]}, rebuilt {cnf.digest()[:12]})")})
        formulas.append(cnf)
    if keep_in is not None:
        certificate = keep(certificate, formulas, keep_in)
    return proofs_checked(certificate, formulas, keep_in)


def proofs_checked(certificate: Certificate, formulas: Sequence[Cnf], folder: Path | None) -> Certificate:
    """`certificate` with each query's proof (its file relative to `folder` when given) checked
    against its formula in `formulas`."""
    used: set[str] = set()
    for query, cnf in zip(certificate.queries, formulas, strict=True):
        path = Path(query.proof_file) if folder is None else folder / query.proof_file
        try:
            proof = check_proof(cnf, read_text(path))
        except (OSError, UnicodeDecodeError) as error:
            proof = ProofCheck(False, (), f"the proof cannot be read: {error}")
        used.update(proof.checkers)
        if not proof.ok:
            return certificate.model_copy(update={"checked": False, "error": f"{_named(query)}: {proof.reason}",
                                                  "checker": ", ".join(sorted(used))})
    return certificate.model_copy(update={"checked": True, "error": "", "checker": ", ".join(sorted(used))})


def recheck(certificate: Certificate, folder: Path, encoding: Encoding | None, instance: Any) -> Certificate:
    """`certificate`, kept in `folder` (`keep`), checked again: each kept CNF's digest against the
    one refuted, the CNF rebuilt from `instance` by `encoding` against it (skipped when `instance`
    is None: the kept CNF stands for itself), and each proof against the kept CNF."""
    start = time.perf_counter()
    why = unproven(certificate.claim, certificate.bound, certificate.queries)
    formulas = []
    for query in certificate.queries if not why else []:
        try:
            formulas.append(_kept_formula(query, folder, encoding, instance))
        except (OSError, ValueError, UnicodeDecodeError) as error:
            why = f"{_named(query)}: {error}"
            break
    checked = (certificate.model_copy(update={"checked": False, "error": why}) if why
               else proofs_checked(certificate, formulas, folder))
    return checked.model_copy(update={"check_seconds": round(time.perf_counter() - start, 3)})


def _kept_formula(query: UnsatQuery, folder: Path, encoding: Encoding | None, instance: Any) -> Cnf:
    """The kept CNF of `query` in `folder`, once its digest is the refuted one's and, with an
    `encoding` and `instance`, the rebuilt CNF's; `ValueError` saying which differs."""
    cnf = read_dimacs(read_text(folder / cnf_name(query)), str(folder / cnf_name(query)))
    digest = cnf.digest()
    if digest != query.digest:
        raise ValueError(f"the kept CNF is not the one refuted (digest {digest[:12]}, refuted {query.digest[:12]})")
    if encoding is not None and instance is not None and rebuilt(encoding, instance, query, folder).digest() != digest:
        raise ValueError("the CNF the encoder builds from the instance is not the one refuted")
    return cnf


def _named(query: UnsatQuery) -> str:
    return f"the {query.kind} query" + ("" if query.bound is None else f" at {query.bound}")


def keep(certificate: Certificate, formulas: Sequence[Cnf], folder: Path) -> Certificate:
    """Write each query's CNF, proof and data gzipped into `folder` (made if missing); the
    certificate then names them relative to it, and `folder` as `Certificate.kept`."""
    folder.mkdir(parents=True, exist_ok=True)
    for number, (query, cnf) in enumerate(zip(certificate.queries, formulas, strict=True), start=1):
        named = _kept_query(query, number)
        _gzip_text(folder / cnf_name(named), cnf.dimacs())
        _gzip_file(Path(query.proof_file), folder / named.proof_file)
        if query.data_file:
            _gzip_file(Path(query.data_file), folder / named.data_file)
    return kept_as(certificate, folder)


def kept_as(certificate: Certificate, folder: Path) -> Certificate:
    """`certificate` naming its files as `keep` writes them in `folder`."""
    queries = [_kept_query(query, number) for number, query in enumerate(certificate.queries, start=1)]
    return certificate.model_copy(update={"queries": queries, "kept": str(folder)})


def _kept_query(query: UnsatQuery, number: int) -> UnsatQuery:
    """`query` naming its kept proof (and data) files, the `number`-th query of its certificate."""
    stem = f"{number}-{query.kind}" + ("" if query.bound is None else f"-{query.bound}")
    data = Path(query.data_file).name + ".gz" if query.data_file else ""  # one file for queries sharing their data
    return query.model_copy(update={"proof_file": f"{stem}.drup.gz", "data_file": data})


def cnf_name(query: UnsatQuery) -> str:
    """The kept CNF's file name of a kept `query` (beside its proof)."""
    return query.proof_file.removesuffix(".drup.gz") + ".cnf.gz"


def _gzip_text(path: Path, text: str) -> None:
    with gzip.open(path, "wt", encoding="ascii", compresslevel=6) as handle:
        handle.write(text)


def _gzip_file(source: Path, target: Path) -> None:
    with open(source, "rb") as reading, gzip.open(target, "wb", compresslevel=6) as writing:
        shutil.copyfileobj(reading, writing)


def kept_folder(root: Path, record: RunRecord) -> Path:
    """Where the certificate of `record` is kept under `root`: the instance's name as folders
    (a ``..`` in it spelled ``__``), then the solver (with ``+variant`` and the repetition)."""
    parts = [part if part not in ("..", ".") else "__" for part in PurePosixPath(record.instance).parts]
    run = record.solver + ("+variant" if record.variant else "") + (f"-{record.repeat}" if record.repeat else "")
    return root.joinpath(*parts, run)


# --- in the harness, after a run --------------------------------------------------------------------

def check_limit(task: Task) -> float | None:
    """Seconds on `task`'s clock a certificate check of its run may take: `CHECK_FACTOR` times
    its time limit, at least `CHECK_MINIMUM`; None without a time limit."""
    return None if task.time_limit is None else max(CHECK_MINIMUM, CHECK_FACTOR * task.time_limit)


def certified(record: RunRecord, task: Task) -> RunRecord:
    """`record` with its certificate checked (module doc) in a process of its own, the run's
    proof folder removed; a record without a certificate to check, unchanged."""
    certificate = record.certificate
    if certificate is None or certificate.checked is not None:
        return record
    keep_in = None if task.certificates is None else kept_folder(Path(task.certificates), record)
    try:
        certificate = _check_elsewhere(task, certificate, keep_in)
    finally:
        discard_proofs(record.certificate)
    update: dict[str, Any] = {"certificate": certificate}
    if certificate.checked:
        update["evidence"] = Evidence.CERTIFIED
    return record.model_copy(update=update)


def _check_elsewhere(task: Task, certificate: Certificate, keep_in: Path | None) -> Certificate:
    """`check` run by ``python -m crosscheck.harness.runs.certify`` within `check_limit`."""
    from crosscheck.solvers.registry import pass_import_path

    missing_checker = missing()
    if missing_checker is not None:
        return certificate.model_copy(update={"error": f"not checked: {missing_checker}"})
    limit = check_limit(task)
    cpu_limit = limit if task.clock == "cpu" else None
    request = {"path": task.path, "variant": task.variant, "solver": task.solver, "plugins": list(task.plugins),
               "certificate": certificate.model_dump(mode="json"), "keep": None if keep_in is None else str(keep_in),
               "cpu_limit": cpu_limit}
    pass_import_path()
    try:
        done = subprocess.run([sys.executable, "-P", "-m", "crosscheck.harness.runs.certify"], check=False,
                              input=json.dumps(request), capture_output=True, text=True,
                              timeout=limit if cpu_limit is None else WALL_CAP_FACTOR * cpu_limit + CHECK_GRACE)
    except subprocess.TimeoutExpired:
        return _unfinished(certificate, keep_in, f"{limit:g} s" + ("" if cpu_limit is None else " of CPU time "
                                                                         "(stopped at its wall cap)"))
    if cpu_limit is not None and done.returncode == -signal.SIGPROF:
        return _unfinished(certificate, keep_in, f"{cpu_limit:g} s of CPU time")
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        return certificate.model_copy(update={"error": f"not checked: the checking process failed ({last})"})
    try:
        return Certificate.model_validate_json(done.stdout)
    except ValidationError as error:
        return certificate.model_copy(update={"error": f"not checked: the checking process answered no certificate "
                                                       f"({error.errors()[0]['msg']})"})


def _unfinished(certificate: Certificate, keep_in: Path | None, limit: str) -> Certificate:
    """`certificate`, not checked: its check did not end within `limit`."""
    if keep_in is not None and keep_in.is_dir():  # kept before the proofs were checked
        certificate = kept_as(certificate, keep_in)
    return certificate.model_copy(update={"error": f"not checked: the check did not end within {limit}"})


def _limit_cpu(seconds: float) -> None:
    """Have the kernel end this process (SIGPROF, whose default action ends it) once it has spent
    `seconds` of CPU time, its start-up included."""
    signal.setitimer(signal.ITIMER_PROF, max(seconds - time.process_time(), 1e-6))


def _main() -> None:
    """Check the certificate of the request on standard input; print it, checked, on standard output."""
    from crosscheck.models.registry import load_instance
    from crosscheck.solvers.registry import add_plugins, get_solver, take_import_path

    take_import_path()
    request = json.loads(sys.stdin.read())
    if request["cpu_limit"] is not None:
        _limit_cpu(request["cpu_limit"])
    add_plugins(tuple(request["plugins"]))
    puzzle, instance = load_instance(request["path"])
    if request["variant"]:
        instance = puzzle.variant(instance)
    certificate = Certificate.model_validate(request["certificate"])
    encoding = get_solver(request["solver"]).encoding
    if encoding is None:
        certificate = certificate.model_copy(update={"checked": False, "error": f"{request['solver']} has no encoding"})
    else:
        keep_in = None if request["keep"] is None else Path(request["keep"])
        certificate = check(certificate, encoding, instance, keep_in)
    sys.stdout.write(certificate.model_dump_json())


if __name__ == "__main__":
    _main()
