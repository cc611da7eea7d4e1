"""What one run produces and how runs are saved: JSON Lines, one record per run.

A record is written (and flushed to disk) as soon as its run ends, so an interrupted
or crashed comparison loses nothing already computed; `read_records` skips a last
line cut short by a kill (`read_results` says so), and refuses any other line that is
not a record, naming file, line and what is wrong.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import re
import shlex
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypedDict

from crosscheck.harness.records.evidence import Evidence
from crosscheck.harness.records.schema import SCHEMA_VERSION, MalformedRecord, upgrade
from crosscheck.harness.reports.wording import counted
from crosscheck.models.answers import ExactAnswer, from_json, to_json
from crosscheck.models.relations import parse_expectation
from crosscheck.solvers.base import EXACT_STATUSES, Clock, Stats, Status
from crosscheck.solvers.certificate import Certificate
from pydantic import BaseModel, Field, PlainSerializer, PlainValidator, ValidationError, WithJsonSchema, field_validator, model_validator

if TYPE_CHECKING:
    from crosscheck.solvers.base import Solver

#: The solver name of the record standing for a file that could not be read or parsed.
UNREADABLE = "-"
#: The smallest and largest cost a record holds: the tidy rows' columns are int64 (pandas,
#: parquet).  A negative cost is no cost a plan has, but a claim of one is still a claim
#: (an external program's, a plugin's bound), which the verdicts judge.
COST_MIN, COST_MAX = -(2**63), 2**63 - 1
#: A cost or bound in a record: an integer in `COST_MIN`..`COST_MAX` (an older file holding
#: another, an external program's claim then unchecked, is refused naming its line).
Cost = Annotated[int, Field(ge=COST_MIN, le=COST_MAX)]
#: What the index expects of a run's answer, kept in a record as its JSON value (an integer
#: optimum, ``"infeasible"``, or null for unknown: `crosscheck.models.answers.to_json`).
Expected = Annotated[ExactAnswer | None, PlainValidator(from_json), PlainSerializer(to_json),
                     WithJsonSchema({"anyOf": [{"type": "integer"}, {"type": "string"}, {"type": "null"}]})]


class Task(BaseModel):
    """One run to perform: `solver` on the instance file at `path`.

    `instance` is the name reports use (the path relative to the instance index when
    there is one); `variant` asks for the puzzle's variant transform first.
    """

    path: str
    instance: str
    solver: str
    puzzle: str | None = None  # known once the file was parsed; crash records carry it
    variant: bool = False
    time_limit: float | None = None
    clock: Clock = "wall"  # what `time_limit` counts (crosscheck.solvers.base.Deadline)
    memory_limit_mb: int | None = None
    plugins: tuple[str, ...] = ()  # extra solver modules to register first (CROSSCHECK_SOLVERS)
    external: str | None = None  # an external program's command (`solver` is then its name)
    external_sources: tuple[str, ...] = ()  # files or folders that program depends on besides (--external-source)
    repeat: int = 0  # which repetition of the same run this is (`compare --repeat`)
    cpsat_workers: int | None = None  # CP-SAT's worker threads (None: the run's share, harness.runs.batch.core_share)
    cores: tuple[int, ...] = ()  # the cores the run is pinned to (empty: not pinned)
    start: dict[str, Any] = Field(default_factory=dict)  # `start_facts` as the run started (empty: not yet)
    identity: dict[str, str] | None = None  # its solver's version, pinned as the invocation started
    # (`crosscheck.harness.records.versions.Pinned`); None: computed as the record is made
    related_to: RelatedTo | None = None  # a related instance's link to its original (morph); None: an instance of its own
    certificates: str | None = None  # the folder to keep checked certificates in (``--certificates``); None: not kept
    # The command line of the invocation (`command_line`), read where the task is made: a Dask
    # worker or a launched interpreter that runs it records the researcher's command, not its own.
    argv: str = Field(default_factory=lambda: command_line())

    @property
    def key(self) -> RunKey:
        """Identifies a run across a resumed comparison."""
        return (self.instance, self.variant, self.solver, self.repeat)

    @property
    def evidence(self) -> Evidence:
        """The strength of this run's answer: an external program's is a claim."""
        return Evidence.PROOF if self.external is None else Evidence.CLAIM


class RelatedTo(BaseModel):
    """What makes a run's instance a related instance (``morph``, ``compare --morph``): the
    `original` instance's name (as its records carry it), the `relation`'s name, what it
    did (`detail`), and the `expectation` its answer must meet against the same runner's
    answer on the original, written as `crosscheck.models.relations.parse_expectation` reads it."""

    original: str
    relation: str
    detail: str = ""
    expectation: str

    @field_validator("expectation")
    @classmethod
    def _known(cls, text: str) -> str:
        parse_expectation(text)  # ValueError (a record that cannot be judged) names what it reads
        return text


#: What identifies a run: instance, variant, solver and repetition.
RunKey = tuple[str, bool, str, int]


class EncodingCheck(BaseModel):
    """A checked plan written as an assignment of a certified formulation's CNF at the plan's
    cost (`crosscheck.harness.runs.certify.EncodingLedger`): `satisfied` False means the encoding
    leaves out a plan that exists, so what its refutations prove is not about the puzzle."""

    encoding: str  # the formulation whose encoding built the CNF
    plan_of: str  # the formulation whose checked plan was written as an assignment
    cost: int
    satisfied: bool
    falsified: str = ""  # the first clause the assignment falsifies, as DIMACS text


class RunRecord(BaseModel):
    """The outcome of one task, with the plan's verdict from the puzzle's checker.

    `plan_valid` is None when there was no plan to check; `checked_cost` is the cost
    the checker recomputed.  `expected` is the index's answer (`crosscheck.models.answers.ExactAnswer`;
    None when unknown), kept in files as an integer, the string ``"infeasible"`` or null.  Times: `seconds` is the solver's own,
    `wall_seconds` the harness's for the whole run (start of the process to its
    record), `cpu_seconds` the user and system time of the run's process and the
    children it waited for (Fast Downward's included); `peak_memory_mb` the largest
    resident set among them, and `start_memory_mb` the resident set the run's process
    held as it started (inherited from the forkserver, or a launched interpreter's
    imports), which that peak includes: the run's own memory is the peak minus it.
    Measurements are None where unknown (old records, runs in the harness's own process,
    a start memory where ``/proc`` is absent or of a run killed before it sent its record).  `evidence` is the strength of the record's answer
    (status, optimum, bound): a proof for built-in and plugin formulations, a claim for an
    external program (`crosscheck.harness.records.evidence`); its checked plan is a fact either way;
    ``certified`` once the harness checked the run's `certificate`.  `encoding_checks` are the
    checked plans written as assignments of a certified formulation's CNF as this record came in.
    A run that answered after its time limit had passed is a `timeout` (every figure counts it
    so), its answer kept: `late_status` says what it answered, `answer_status` and
    `exact_answer` weigh that answer for the verdicts (`crosscheck.harness.runs.limits`).
    The field list is versioned: see `crosscheck.harness.records.schema`.
    """

    schema_version: int = SCHEMA_VERSION
    instance: str
    puzzle: str | None
    solver: str
    variant: bool = False
    status: Status
    cost: Cost | None = None
    bound: Cost | None = None
    plan_valid: bool | None = None
    plan_error: str = ""
    checked_cost: Cost | None = None
    seconds: float = 0.0
    wall_seconds: float | None = None
    cpu_seconds: float | None = None
    peak_memory_mb: float | None = None
    start_memory_mb: float | None = Field(default=None, description=(
        "Resident MB (VmRSS) the run's process held as it started, before the formulation did anything: "
        "what it inherited, which peak_memory_mb includes; the run's own memory is the peak minus this. "
        "None where unknown (records before schema version 5, no /proc, a run killed from outside)."))
    repeat: int = 0
    cpsat_workers: int | None = None
    evidence: Evidence = Evidence.PROOF
    stats: Stats = Field(default_factory=dict)
    message: str = ""
    expected: Expected = None
    features: dict[str, int] = Field(default_factory=dict)  # the instance's size measures
    shares: list[str] = Field(default_factory=list)  # see `Solver.shares`: what makes answers dependent
    plan: list[Any] | None = None
    environment: dict[str, Any] = Field(default_factory=dict)
    related_to: RelatedTo | None = None  # see `RelatedTo`: set on a related instance's runs
    certificate: Certificate | None = None  # what proves the answer, and the harness's check of it
    encoding_checks: list[EncodingCheck] = Field(default_factory=list)  # plans checked against certified CNFs
    formulation: str = Field(default="", description=(
        "The formulation that ran (NAME for NAME[bound=none]); the solver's name for a record "
        "without one (before schema version 7, an external program). Configurations of one formulation are "
        "one line of evidence."))
    configuration: str = Field(default="", description=(
        "The configuration's label (crosscheck.solvers.configuration.label): the formulation's name for its "
        "default options, else with the options that differ in brackets; the solver field holds it too."))
    options: dict[str, Any] = Field(default_factory=dict, description=(
        "Every option of the configuration with its resolved value, as labels spell them (empty: none)."))

    @model_validator(mode="before")
    @classmethod
    def _named(cls, data: Any) -> Any:
        """A record without `formulation` or `configuration` (one of an older schema, or made
        without them) takes them from its solver's name (a label's formulation comes before its ``[``)."""
        if isinstance(data, dict) and isinstance(data.get("solver"), str):
            data = {**data}
            data.setdefault("configuration", data["solver"])
            data.setdefault("formulation", data["solver"].partition("[")[0])
            data["configuration"] = data["configuration"] or data["solver"]
            data["formulation"] = data["formulation"] or data["solver"].partition("[")[0]
        return data

    late_status: Status | None = Field(default=None, description=(
        "The status the solver answered with after its time limit had passed; `status` is then "
        "`timeout` (every figure counts the run so) while the answer (cost, bound, plan) stays evidence "
        "for the verdicts. None for a run that answered within its limit (and records before schema version 8)."))

    @property
    def answer_status(self) -> Status:
        """The status of the answer the run returned, in time or late: what the verdicts weigh."""
        return self.late_status or self.status

    @property
    def exact(self) -> bool:
        """An exact answer within the limit: a proof of infeasibility, or a proven optimum whose
        plan the checker accepted (an external program's answer is a claim, never one); what
        every figure counts as solved exactly.  A late answer is not (see `exact_answer`)."""
        return self.late_status is None and self.exact_answer

    @property
    def exact_answer(self) -> bool:
        """An exact answer, in time or late (`answer_status`): the verdicts' evidence, since a
        proof or a checked plan is no less true for coming after the limit."""
        return (self.evidence.proves and self.answer_status in EXACT_STATUSES
                and (self.answer_status is Status.INFEASIBLE or self.plan_valid is True))

    @property
    def key(self) -> RunKey:
        return (self.instance, self.variant, self.solver, self.repeat)


class Configured(TypedDict):
    """The fields of a record `configured` gives."""

    formulation: str
    configuration: str
    options: dict[str, Any]
    evidence: Evidence


def configured(solver: Solver) -> Configured:
    """The record fields of `solver`'s configuration (`crosscheck.solvers.configuration`): its
    formulation, label and options, and its evidence: a plan only when the options give up
    optimality (as the formulation declares them, whatever its answers say), else a proof."""
    return Configured(formulation=solver.name, configuration=solver.label,
                       options=solver.options.model_dump(mode="json", by_alias=True),
                       evidence=Evidence.PLAN if solver.gives_up_optimality else Evidence.PROOF)


def task_configuration(task: Task) -> dict[str, Any]:
    """The configuration fields of a record of `task` made without its run (a crash, a kill):
    `configured` of its solver when this process has its formulation registered, else the
    task's evidence alone (the record's names then come from its label)."""
    from crosscheck.solvers.registry import registered

    solver = None if task.external is not None else registered(task.solver)
    return {"evidence": task.evidence} if solver is None else {**configured(solver)}


def solver_runs(records: Iterable[RunRecord]) -> list[RunRecord]:
    """The records of solver runs, in order: an unreadable file's record (solver `UNREADABLE`)
    is no run, though it stands in the verdicts as an ``error`` instance."""
    return [r for r in records if r.solver != UNREADABLE]


def environment() -> dict[str, Any]:
    """Versions and machine facts of this process (computed once per process, see
    `crosscheck.harness.runs.preload`), and its `command_line` as ``argv``."""
    return {**_machine_facts(), "argv": command_line()}


def command_line() -> str:
    """The command line that started this process, quoted as a shell would need it
    (``shlex.join``: it can be pasted back); ``python -m crosscheck.harness.cli`` (whose
    ``argv[0]`` is the package's ``__main__.py``) is written as ``crosscheck``, which it runs."""
    program = Path(sys.argv[0]).name
    return shlex.join([*("crosscheck" if program == "__main__.py" else program).split(), *sys.argv[1:]])


def run_environment(task: Task) -> dict[str, Any]:
    """The environment of a record of `task` but its solver's version: the machine facts of
    the process that makes the record (`environment`), the invocation's command line the task
    carries (`Task.argv`), the facts of the run's start (`Task.start`, else `start_facts` now
    for a task that carries none) and the task's limits (and cores, when pinned)."""
    pinned = {"pinned_cores": list(task.cores)} if task.cores else {}
    return {**environment(), "argv": task.argv, **(task.start or start_facts(None)), "time_limit": task.time_limit,
            "clock": task.clock, "memory_limit_mb": task.memory_limit_mb, **pinned}


def start_facts(jobs: int | None) -> dict[str, Any]:
    """What a run's record says about the moment it started: ``started``, the UTC time in
    ISO 8601 (seconds); ``load_average``, the machine's 1-minute load average (None where
    the system has none); and ``jobs``, how many runs its command ran at a time (left out
    when unknown: a cluster decides it)."""
    try:
        load: float | None = round(os.getloadavg()[0], 2)
    except OSError:
        load = None
    jobs_entry = {} if jobs is None else {"jobs": jobs}
    return {"started": datetime.now(UTC).isoformat(timespec="seconds"), "load_average": load, **jobs_entry}


@cache
def _machine_facts() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "ortools": _version("ortools"),
        "pydantic": _version("pydantic"),
        "crosscheck": _version("crosscheck"),
        "commit": _git_commit(),
        "source": source_digest(Path(__file__).resolve().parents[2]),
        "machine": platform.machine(),
        "cpu_model": cpu_model(),
        "system": f"{platform.system()} {platform.release()}",
        "host": platform.node(),
        "cpus": os.cpu_count(),  # logical CPUs (hardware threads) of the machine
    }


def cpu_model(cpuinfo: Path = Path("/proc/cpuinfo")) -> str:
    """The processor's name: the first ``model name`` of `cpuinfo` (Linux), else what
    `platform.processor` says, else the machine type (``x86_64``)."""
    try:
        text = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    for line in text.splitlines():
        name, _, value = line.partition(":")
        if name.strip() == "model name" and value.strip():
            return value.strip()
    return platform.processor() or platform.machine()


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def _git_commit() -> str | None:
    source = Path(__file__).resolve().parents[2]
    try:
        done = subprocess.run(
            ["git", "-C", str(source), "rev-parse", "--short", "HEAD"],
            capture_output=True, text=True, timeout=5, check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None


#: The packages whose code decides a run's answer and its checking.
SOURCE_PACKAGES = ("models", "solvers", "harness")


def source_digest(root: Path) -> str:
    """A short digest of the Python files of `SOURCE_PACKAGES` under `root` (names and
    contents): equal commits with different uncommitted edits get different digests."""
    digest = hashlib.sha256()
    for path in sorted(p for package in SOURCE_PACKAGES for p in (root / package).rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def plugin_source(solver_class: type) -> str | None:
    """A short digest of a plugin formulation's own code (`plugin_files`: names and
    contents), None for a built-in one (defined in the ``crosscheck`` package, whose
    ``source`` digest and ``commit`` cover it): a record of a researcher's own formulation
    names the version of it that ran, its helper modules included."""
    files = plugin_files(solver_class)
    if not files:
        return None
    digest = hashlib.sha256()
    for name, path in sorted(files.items()):
        digest.update(name.encode() + b"\0" + _file_digest(path).encode() + b"\0")
    return digest.hexdigest()[:12]


def plugin_files(solver_class: type) -> dict[str, Path]:
    """The source files of a plugin formulation's own code by module name: the module defining
    `solver_class` and the modules of its package that it imports, transitively, read from the
    files (`crosscheck.harness.independence.considered.import_closure`: a module imported by a name built
    at run time is not seen); empty for a built-in or a class without a source file."""
    from crosscheck.harness.independence.considered import home_package, import_closure

    name = solver_class.__module__
    file = getattr(sys.modules.get(name), "__file__", None)
    if file is None or name.split(".")[0] == "crosscheck":
        return {}
    try:
        closure = import_closure(name, home_package(name))
    except (ImportError, ValueError, SyntaxError, OSError):  # no spec (``__main__``), a file unread: itself alone
        closure = {}
    return {**closure, name: Path(file)}


def command_source(command: str, sources: tuple[str, ...] = ()) -> str | None:
    """A short digest of the files an external command names (its program, its script,
    any file it reads given by path) and of `sources`, files or folders it depends on
    besides (`source_files`); names and contents; None when there are none."""
    try:
        words = shlex.split(command)
    except ValueError:
        words = []
    named = {Path(word).resolve() for word in words if "{path}" not in word and Path(word).is_file()}
    files = sorted(named | {path.resolve() for source in sources for path in source_files(Path(source))})
    if not files:
        return None
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.as_posix().encode() + b"\0" + _file_digest(path).encode() + b"\0")
    return digest.hexdigest()[:12]


def source_files(source: Path) -> list[Path]:
    """The files of a source an external program depends on: the file itself, or the
    `visible_files` below a folder."""
    if not source.is_dir():
        return [source] if source.is_file() else []
    return visible_files(source)


def visible_files(folder: Path) -> list[Path]:
    """The files below `folder` (searched recursively, in sorted order) but hidden ones and
    those in a hidden folder or ``__pycache__`` (written by running or by version control,
    not anyone's code or instances); those folders are not entered."""
    found = []
    for root, folders, names in os.walk(folder):
        folders[:] = sorted(name for name in folders if not name.startswith(".") and name != "__pycache__")
        found += [Path(root) / name for name in sorted(names) if not name.startswith(".")]
    return [path for path in found if path.is_file()]


def _file_digest(path: Path) -> str:
    """The first 12 hex digits of the SHA-256 of a file's contents, cached per path, size and change time."""
    stat = path.stat()
    return _cached_file_digest(path, stat.st_size, stat.st_mtime_ns)


@cache
def _cached_file_digest(path: Path, size: int, changed: int) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def append_record(path: Path, record: RunRecord) -> None:
    """Append `record` as one JSON line and force it to disk."""
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(record.model_dump_json() + "\n")
        handle.flush()
        os.fsync(handle.fileno())


def read_records(path: Path) -> list[RunRecord]:
    """All complete records in a JSON Lines file (a last line cut short by a kill, one
    without its newline, is skipped; blank lines too).

    Every other line must be a record: one that is not raises `MalformedRecord`, and a
    record of a newer schema version `NewerSchemaError`, each naming ``FILE:LINE`` (and
    the column where JSON gives one) and what is wrong.  Records of older schema versions
    load with defaults for the newer fields.  `read_results` also says what was skipped.
    """
    return read_results(path).records


@dataclass(frozen=True)
class ResultsFile:
    """A results file as read by `read_results`: its records, and the number of its last
    line when that was cut short (and left out), else None."""

    records: list[RunRecord]
    cut_line: int | None = None

    def notes(self, name: str) -> list[str]:
        """What a reader of the file `name` should be told: a last line left out, and
        records of older schema versions (read with defaults for the fields added since)."""
        notes = []
        if self.cut_line is not None:
            notes.append(cut_short_note(name, self.cut_line))
        old = Counter(r.schema_version for r in self.records if r.schema_version < SCHEMA_VERSION)
        if old:
            versions = " and ".join(str(version) for version in sorted(old))
            notes.append(f"{name}: {counted(old.total(), 'record')} of schema version {versions} (this crosscheck "
                         f"writes {SCHEMA_VERSION}): fields added since take their defaults")
        return notes


def cut_short_note(name: str, line: int) -> str:
    """The note on the last line `line` of the results file `name`, cut short and left out
    (every reader and `repair_tail` say it in these words)."""
    return f"{name}:{line}: last line cut short (a run interrupted while its record was written); left out"


def read_results(path: Path) -> ResultsFile:
    """`read_records`, with the number of a last line cut short (nothing for a missing file)."""
    records: list[RunRecord] = []
    if not path.exists():
        return ResultsFile(records)
    with open(path, "rb") as handle:  # bytes: a line that is not UTF-8 is named like any other bad line
        for number, line in enumerate(handle, start=1):
            if not line.endswith(b"\n"):  # the last line, cut short by an interruption
                return ResultsFile(records, number if line.strip() else None)
            # A blank line loses no record and holds nothing to mend (a file concatenated
            # or edited by hand): skipped without a note, which would only be noise.
            if line.strip():
                records.append(parse_record(line, f"{path}:{number}"))
    return ResultsFile(records)


def parse_record(line: bytes, where: str) -> RunRecord:
    """One line of a results file as a record; `UnreadableRecord` (`MalformedRecord` or
    `NewerSchemaError`) says what is wrong, starting with `where` (``FILE:LINE``)."""
    try:
        data = json.loads(line.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise MalformedRecord(f"{where}:{error.start + 1}: not UTF-8 text ({error.reason})") from None
    except json.JSONDecodeError as error:
        raise MalformedRecord(_not_json(error, where)) from None
    except ValueError:  # JSON, but an integer longer than Python converts (sys.get_int_max_str_digits)
        raise MalformedRecord(f"{where}: not a run record: it holds an integer of more than "
                              f"{sys.get_int_max_str_digits()} digits, expected costs of at most 19 "
                              "(64 bits)") from None
    if not isinstance(data, dict):
        raise MalformedRecord(f"{where}: expected a JSON object (a run record), got a JSON {type(data).__name__}")
    if _PAIR_FIELDS <= data.keys():
        raise MalformedRecord(f"{where}: not a run record but a pair verdict of morph (morph-verdicts.jsonl); "
                              "give the runs beside it, morph.jsonl: their pairs are judged from them")
    try:
        return RunRecord.model_validate(upgrade(data, where))
    except ValidationError as error:
        raise MalformedRecord(f"{where}: not a run record: {_first_problem(error)}") from None


def _not_json(error: json.JSONDecodeError, where: str) -> str:
    """What is wrong with the line at `where` that JSON could not read, and what was
    expected: a line whose JSON stops unfinished at its end is a line cut short (in the
    middle of a file: the last one is skipped), placed just after its last character."""
    text = error.doc.rstrip()
    expected = "(expected one JSON object, a run record, per line)"
    if error.pos >= len(text):
        return f"{where}:{len(text) + 1}: line cut short: its JSON stops unfinished at the end of the line {expected}"
    # JSON's message is a sentence to end with its position ("Invalid control character at"):
    # the column says where.
    return f"{where}:{error.colno}: not JSON: {re.sub(r'( starting)? at$', '', error.msg)} {expected}"


#: The fields of a line of ``morph-verdicts.jsonl`` (`crosscheck.harness.workflows.morph.PairVerdict`),
#: which a reader given it instead of ``morph.jsonl`` recognises.
_PAIR_FIELDS = frozenset({"runner", "relation", "original_answer", "related_answer"})


def _first_problem(error: ValidationError) -> str:
    """The first field pydantic refused and why, and how many other problems there are."""
    problems = error.errors()
    first = problems[0]
    field = ".".join(str(part) for part in first["loc"]) or "record"
    got = "" if first["type"] == "missing" else f", got {_short(repr(first['input']))}"
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return f"field {field!r}: {first['msg']}{got}{more}"


def _short(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def json_schema() -> dict[str, Any]:
    """The JSON Schema of one record (one line of a results file), from the pydantic model."""
    schema = RunRecord.model_json_schema()
    schema["title"] = f"crosscheck run record, schema version {SCHEMA_VERSION}"
    return schema


def repair_tail(path: Path) -> None:
    """Drop a last line cut short by a kill, so appending continues cleanly, and say so on
    stderr (``note: FILE:LINE: last line cut short ...``, `cut_short_note`) unless it held
    only blanks: the readers would have left it out with that note, so must this."""
    if not path.exists():
        return
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        kept = data.rfind(b"\n") + 1
        path.write_bytes(data[:kept])
        if data[kept:].strip():
            line = data.count(b"\n") + 1
            print(f"note: {cut_short_note(str(path), line)}", file=sys.stderr)


def dump_records(records: Iterable[RunRecord]) -> str:
    """A JSON array of records (for `--json`)."""
    return json.dumps([record.model_dump(mode="json") for record in records], indent=2)
