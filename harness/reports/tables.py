"""Tables rebuilt from run records: plain text and Markdown for people, tidy data for programs.

Reports never rerun anything: `crosscheck report FILE` and the table printed at the
end of `compare` come from the same records through `render`.

Human formats (``table``, ``markdown``) show one row per (instance, solver): with
repeated runs (``compare --repeat``) the row gives the median, minimum and interquartile
range of the solver's seconds over the repetitions.  The verdict and how many
independent formulations proved the answer (on ``wrong-expected``: the answer that
contradicts the index) stand on the instance's first row, and the
reasons behind every verdict other than ``agree`` follow the table (`notes`), as do the
agreements that rest on one line of evidence (``independent`` 1) and the pairs of
formulations whose identical effort makes their independence doubtful (`evidence_notes`).

Machine formats (``csv``, ``jsonl``: the tidy rows of `crosscheck.harness.records.tidy`; ``json``: the full
records as one JSON array) hold data only, one row per record; `notes` is for stderr.  The
tidy rows and the summaries as data end in a ``left_out`` column: the solvers `leave_out`
took out before judging, ``;``-separated (empty when none), so a file read later says its
verdicts and summaries are over the other formulations.
``latex`` gives the same table as a booktabs tabular for a paper (`crosscheck.harness.reports.latex`);
its notes stand in the comments above it, and go to stderr too.  Every note comes from
`note_lines`, so no format shows one the others leave out (the HTML page shows them part
by part: `crosscheck.harness.reports.html`).
"""

from __future__ import annotations

import csv
import io
import json
import re
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence

from crosscheck.harness.judging.same_effort import effort_figure, same_effort
from crosscheck.harness.judging.unanswered import Unanswered
from crosscheck.harness.judging.verdicts import SEVERITY, InstanceVerdict, JudgedRuns, Verdict
from crosscheck.harness.records.record import RunRecord, dump_records, solver_runs
from crosscheck.harness.records.tidy import to_csv, to_jsonl
from crosscheck.harness.records.versions import mixed_versions
from crosscheck.harness.reports.aggregate import FAMILY_COLUMNS, MIN_SECONDS, empty_common, family_rows, repetitions
from crosscheck.harness.reports.certificates import certificate_notes, status_cell
from crosscheck.harness.reports.conditions import condition_lines
from crosscheck.harness.reports.formats import LONG_TABLE_ROWS, MACHINE_FORMATS
from crosscheck.harness.reports.latex import tabular
from crosscheck.harness.reports.numbers import significant
from crosscheck.harness.reports.wording import counted, first_line
from crosscheck.harness.runs.external import TEMPORARY_PREFIX
from crosscheck.solvers.base import FAILED_STATUSES, Status

COLUMNS = ("instance", "solver", "status", "cost", "bound", "plan", "seconds", "effort", "verdict", "independent")
#: With repetitions, "seconds" becomes these columns.
REPEAT_COLUMNS = ("runs", "median s", "min s", "iqr s")
SUMMARY_COLUMNS = ("puzzle", "solver", "instances", "runs", "exact", "feasible", "timeout", "memout", "error",
                   "invalid plans", "median s (exact)", "max s (exact)", "median cpu s (exact)", "max peak MB",
                   "max own MB")


def leave_out(records: Sequence[RunRecord], keep: Sequence[str] = (),
              drop: Sequence[str] = ()) -> tuple[list[RunRecord], list[str], list[str]]:
    """`records` without the runs of the solvers not in `keep` (when given) or in `drop`,
    the solvers left out (for `crosscheck.harness.judging.verdicts.judged`, whence the data formats'
    ``left_out`` column) and a remark naming them and their runs ([] when none is), for
    every format to show: a table that hides a formulation must say so.  Records of unreadable files
    (no solver) stay.  ValueError, naming the solvers present, for a name of `keep` or
    `drop` that ran nowhere in `records`, or when no run would be left."""
    present = list(dict.fromkeys(r.solver for r in solver_runs(records)))
    unknown = [name for name in (*keep, *drop) if name not in present]
    if unknown:
        raise ValueError(f"no run of {', '.join(unknown)} in the records; their solvers: {', '.join(present)}")
    left_out = [name for name in present if (keep and name not in keep) or name in drop]
    kept = [r for r in records if r.solver not in left_out]
    if not solver_runs(kept):
        raise ValueError(f"no run left without {', '.join(left_out)}")
    if not left_out:
        return kept, [], []
    runs = Counter(r.solver for r in records if r.solver in left_out)
    option = "--exclude-solver" if drop else "--solver"
    named = ", ".join(f"{name} ({counted(runs[name], 'run')})" for name in left_out)
    return kept, left_out, [f"left out by {option}: {named}; verdicts, tables and figures are over the other "
                            "formulations' runs"]


def effort(record: RunRecord) -> str:
    """The solver's own measure of work (`crosscheck.harness.judging.same_effort.effort_figure`): states
    expanded, or CP-SAT conflicts; '' without one."""
    figure = effort_figure(record)
    if figure is None:
        return ""
    noun, value = figure  # a plugin's stats may hold any scalar
    return counted(value, noun) if isinstance(value, int) else f"{value} {noun}s"


def _plan_cell(record: RunRecord) -> str:
    if record.plan_valid is None:
        return "-"
    return "ok" if record.plan_valid else "INVALID"


def _name(record: RunRecord | InstanceVerdict) -> str:
    return record.instance + (" [variant]" if record.variant else "")


def spread(values: Sequence[float]) -> tuple[float, float, float]:
    """Median, minimum and interquartile range of `values` (the range is 0 for one value)."""
    quartiles = statistics.quantiles(values, n=4, method="inclusive") if len(values) > 1 else [values[0]] * 3
    return statistics.median(values), min(values), quartiles[2] - quartiles[0]


def _joined(values: Iterable[str]) -> str:
    """Distinct values in first-seen order, separated by '/' (repetitions that differ show it)."""
    return "/".join(dict.fromkeys(values))


def rows(judged: JudgedRuns) -> tuple[tuple[str, ...], list[list[str]]]:
    """The columns and one row per (instance, solver), repetitions summarised; the instance's
    verdict stands on its first row."""
    groups = repetitions(judged.records)
    repeated = any(len(group) > 1 for group in groups)
    table, seen = [], set()
    for group in groups:
        key = (group[0].instance, group[0].variant)
        table.append(row_cells(group, judged.verdict_of(*key) if key not in seen else None, repeated))
        seen.add(key)
    return columns_for(repeated), table


def columns_for(repeated: bool) -> tuple[str, ...]:
    """The columns of `rows`: with repetitions, the time columns are `REPEAT_COLUMNS`."""
    return COLUMNS[:6] + REPEAT_COLUMNS + COLUMNS[7:] if repeated else COLUMNS


def row_cells(group: list[RunRecord], verdict: InstanceVerdict | None, repeated: bool) -> list[str]:
    """The row (columns `columns_for(repeated)`) of one solver's repetitions on one instance;
    instance, verdict and provers are left empty without `verdict`."""
    first = group[0]
    median, low, iqr = spread([r.seconds for r in group])
    times = [str(len(group)), *map(significant, (median, low, iqr))] if repeated else [significant(median)]
    return [
        _name(first) if verdict else "", first.solver, _joined(status_cell(r) for r in group),
        _joined("" if r.cost is None else str(r.cost) for r in group),
        _joined("" if r.bound is None else str(r.bound) for r in group),
        _joined(_plan_cell(r) for r in group), *times, effort(first),
        verdict.verdict.value if verdict else "", str(verdict.independent) if verdict else "",
    ]


def summary_rows(records: list[RunRecord]) -> list[list[str]]:
    """One row per (puzzle, solver): how many runs ended how, and the times of the exact ones.

    Times are first summarised per instance (the median over its repetitions), then over
    instances, so an instance run five times weighs as much as one run once; only exact
    answers' times count.  The memory figures (`memory_cells`) are over the runs that did
    not run out of it (a memout is counted in its column).
    """
    groups: dict[tuple[str, str], list[RunRecord]] = {}
    for record in records:
        if record.puzzle is not None:  # unreadable files have no solver to summarise
            groups.setdefault((record.puzzle, record.solver), []).append(record)
    table = []
    for (puzzle, solver), runs in sorted(groups.items()):
        per_instance = repetitions([r for r in runs if r.exact])
        times = [statistics.median(r.seconds for r in group) for group in per_instance]
        cpu = [statistics.median(cpus) for group in per_instance
               if (cpus := [r.cpu_seconds for r in group if r.cpu_seconds is not None])]
        counts = [sum(r.exact for r in runs), *(sum(r.status is status for r in runs)
                  for status in (Status.FEASIBLE, Status.TIMEOUT, Status.MEMOUT, Status.ERROR))]
        table.append([
            puzzle, solver, str(len({(r.instance, r.variant) for r in runs})), str(len(runs)), *map(str, counts),
            str(sum(r.plan_valid is False for r in runs)),
            significant(statistics.median(times)) if times else "-", significant(max(times)) if times else "-",
            significant(statistics.median(cpu)) if cpu else "-", *memory_cells(runs),
        ])
    return table


def memory_cells(runs: list[RunRecord]) -> list[str]:
    """The summary's ``max peak MB`` and ``max own MB`` of `runs` ("-" where no run has the figure):
    the largest resident peak, and the largest peak minus the memory the run started with
    (`RunRecord.start_memory_mb`, inherited from the forkserver), over the runs that have both
    (older records have no start memory).  Memouts are left out: their resident peak is not
    what they needed (`crosscheck.harness.runs.runner.failed_figures`; older records have one)."""
    measured = [(r.peak_memory_mb, r.start_memory_mb) for r in runs
                if r.peak_memory_mb is not None and r.status is not Status.MEMOUT]
    peaks = [peak for peak, _ in measured]
    own = [peak - start for peak, start in measured if start is not None]
    return [f"{max(peaks):.0f}" if peaks else "-", f"{max(own):.0f}" if own else "-"]


def render(judged: JudgedRuns, fmt: str = "table", by: str = "run", environment: bool = False,
           remarks: Sequence[str] = (), long_rows: int = LONG_TABLE_ROWS) -> str:
    """The judged records in format `fmt`, one row per run (`by="run"`), per puzzle and solver
    (`by="solver"`: `summary_rows`) or per family and solver (`by="family"`:
    `crosscheck.harness.reports.aggregate.family_rows`): for people, `remarks` (what the table
    leaves out: `leave_out`) then the table followed (with `environment`) by
    `environment_block` and by `notes`, whose summary line stays last; ``latex``, a
    booktabs tabular (a longtable past `long_rows` rows), `remarks` and `note_lines` among its comments; for
    programs, data only (see the module doc; a summary as CSV is the summary table)."""
    records = judged.records
    columns: Sequence[str]
    if by != "run":
        columns, table = (SUMMARY_COLUMNS, summary_rows(records)) if by == "solver" else \
            (FAMILY_COLUMNS, family_rows(records))
        if fmt in MACHINE_FORMATS:
            left_out = ";".join(judged.left_out)
            return _summary_data((*columns, "left_out"), [
                {**dict(zip(columns, map(_number, row), strict=True)), "left_out": left_out} for row in table], fmt)
    elif fmt in MACHINE_FORMATS:
        return {"json": lambda: dump_records(records) + "\n", "csv": lambda: to_csv(judged),
                "jsonl": lambda: to_jsonl(judged)}[fmt]()
    else:
        columns, table = rows(judged)
    empty = empty_common(table) if by == "family" else []
    if fmt == "latex":
        floor = [f"geo mean: times below {MIN_SECONDS:g} s count as {MIN_SECONDS:g} s"] if by == "family" else []
        return tabular(columns, _dashed(columns, table) if by == "run" else table,
                       [f"crosscheck report --by {by}: {counted(len(records), 'run')}", *remarks,
                        *condition_lines(records), *floor, *empty, "notes:", *note_lines(judged)], long_rows)
    return ("".join(f"{remark}\n\n" for remark in remarks) + render_table(columns, table, fmt)
            + "".join(f"{line}\n" for line in empty)
            + (environment_block(records, fmt) if environment else "") + notes(judged))


def environment_block(records: list[RunRecord], fmt: str) -> str:
    """The lines of `crosscheck.harness.reports.conditions` under a heading, between blank lines (Markdown: a list)."""
    bullet = "- " if fmt == "markdown" else ""
    return "\nenvironment of the runs:\n" + "".join(f"{bullet}{line}\n" for line in condition_lines(records)) + "\n"


#: Columns of the run table whose empty cells mean unknown (the instance's name, verdict and
#: provers are left empty on its later rows, which is no unknown).
UNKNOWN_WHEN_EMPTY = ("cost", "bound", "effort")


def _dashed(columns: Sequence[str], table: list[list[str]]) -> list[list[str]]:
    """`table` with '-' for the unknown values (empty cells of `UNKNOWN_WHEN_EMPTY`)."""
    unknown = [name in UNKNOWN_WHEN_EMPTY for name in columns]
    return [["-" if is_unknown and not cell else cell for cell, is_unknown in zip(row, unknown, strict=True)]
            for row in table]


def _number(cell: str) -> int | float | str | None:
    """A summary cell as data: a number where it is one, None for '-'."""
    if cell == "-":
        return None
    for kind in (int, float):
        try:
            return kind(cell)
        except ValueError:
            continue
    return cell


def _summary_data(columns: Sequence[str], table: list[dict[str, int | float | str | None]], fmt: str) -> str:
    """A summary (per solver or per family) as CSV (empty cells for unknown), JSON Lines or a JSON array."""
    if fmt == "json":
        return json.dumps(table, indent=2) + "\n"
    if fmt == "jsonl":
        return "".join(json.dumps(row) + "\n" for row in table)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows(["" if value is None else value for value in row.values()] for row in table)
    return out.getvalue()


def render_table(columns: Sequence[str], body: list[list[str]], fmt: str) -> str:
    """`body` under `columns` as a Markdown table or aligned plain text."""
    if fmt == "markdown":
        lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
        lines += ["| " + " | ".join(row) + " |" for row in body]
        return "\n".join(lines) + "\n"
    widths = [max(len(columns[i]), *(len(row[i]) for row in body)) for i in range(len(columns))] if body else []
    # without rows there are no widths, and the header is left out too
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=False)).rstrip()]
    lines += ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in body]
    return "\n".join(lines) + "\n"


def notes(judged: JudgedRuns) -> str:
    """`note_lines`, one per line: what the terminal prints under the table (or on stderr)."""
    return "\n".join(note_lines(judged)) + "\n"


def note_lines(judged: JudgedRuns) -> list[str]:
    """Every note on the judged runs, the one source of the terminal's notes, the LaTeX
    comments and (part by part) the HTML page: the reason behind every verdict other than
    `agree` (`verdict_line`), `evidence_notes`, the certificates' (`certificate_notes`), `run_notes`, why runs crashed or timed out
    (`failure_reasons`), and the summary line last (`summary_line`)."""
    return [*(verdict_line(v) for v in judged.verdicts if v.verdict is not Verdict.AGREE), *evidence_notes(judged),
            *certificate_notes(judged.records), *run_notes(judged.records), *failure_reasons(judged.records),
            summary_line(judged)]


def evidence_notes(judged: JudgedRuns) -> list[str]:
    """How firm the agreements are: each `agree` that rests on one line of evidence (its
    provers all share code: ``independent`` 1), and each pair of formulations counted as
    independent whose identical effort makes that doubtful
    (`crosscheck.harness.judging.same_effort.same_effort`; a warning only, no count changes)."""
    return [*(f"{_name(v)}: agree on one line of evidence: {v.reason}"
              for v in judged.verdicts if v.verdict is Verdict.AGREE and v.independent == 1),
            *same_effort(judged.records)]


def run_notes(records: list[RunRecord]) -> list[str]:
    """The solvers whose runs come from more than one version of their code
    (`crosscheck.harness.records.versions.mixed_versions`) and those that answered none of their
    instances, every run ``unsupported`` (`crosscheck.harness.judging.unanswered.Unanswered.declined_everywhere`)."""
    return [*mixed_versions(records), *Unanswered().add(records).declined_everywhere()]


def summary_line(judged: JudgedRuns) -> str:
    """The last line of `notes` (and the HTML page's): `verdict_count`, then `crashed` if any run did."""
    summary = verdict_count(judged.verdicts)
    crashes = crashed(judged.records)
    return f"{summary}; {crashes}" if crashes else summary


def verdict_line(verdict: InstanceVerdict) -> str:
    """``INSTANCE: VERDICT: REASON``, one line for people (a variant marked ``[variant]``)."""
    return f"{_name(verdict)}: {verdict.verdict.value}: {verdict.reason}"


def verdict_count(verdicts: list[InstanceVerdict]) -> str:
    """How many instances got each verdict, worst first, e.g. ``3 instances: 1 wrong-expected, 2 agree``
    (``0 instances`` for none)."""
    counts = Counter(v.verdict for v in verdicts)
    tally = ", ".join(f"{counts[verdict]} {verdict.value}" for verdict in sorted(counts, key=SEVERITY.__getitem__))
    return f"{counted(len(verdicts), 'instance')}: {tally}" if verdicts else counted(0, "instance")


#: The statuses of runs `failure_reasons` says why of: crashes, and runs stopped at a time limit.
EXPLAINED = FAILED_STATUSES | {Status.TIMEOUT}
#: A temporary folder's name (`tempfile`'s, made by `crosscheck.harness.runs.external`), in an error message.
TEMPORARY = re.compile(re.escape(TEMPORARY_PREFIX) + r"[a-z0-9_]{8}")


def failure_reasons(records: list[RunRecord]) -> list[str]:
    """Why runs crashed or timed out, each distinct reason once, counted: per solver, status
    and reason, how many runs and the first one's instance and message (its first line; the
    rest is in the record), e.g. ``mine: 2 error runs; on a.txt: cannot run 'mine': No such
    file or directory``, or ``mine: 2 of 3 error runs; on a.txt: ...`` when its other error
    runs failed otherwise.  A timeout or memout is one reason per solver (its limit): their
    messages differ only by the seconds or megabytes seen, so the line shows the first run
    of the group with a message, or, when none has one (a solver that stops at its own
    deadline says nothing), the limit its first run had (`_limit_reached`); nor do the
    names of the temporary folders an external program's instance was written to
    (`TEMPORARY`) make a reason of their own.  Unreadable files are no runs."""
    runs = explained_runs(records)
    totals = Counter((r.solver, r.status) for r in runs)
    groups: dict[tuple[str, Status, str], list[RunRecord]] = {}
    for run in runs:
        groups.setdefault((run.solver, run.status, failure_reason(run)), []).append(run)
    lines = []
    for (solver, status, _), group in groups.items():
        total = counted(totals[solver, status], status.value + " run")
        share = total if len(group) == totals[solver, status] else f"{len(group)} of {total}"
        # The first by instance name, not by arrival: parallel runs finish in any order, and the
        # same records must quote the same run (as `Unanswered.declined_everywhere` does).
        shown = min(group, key=lambda run: (not run.message.strip(), run.instance, run.variant))
        lines.append(f"{solver}: {share}; on {shown.instance}: {first_line(shown.message, _limit_reached(shown))}")
    return lines


def _limit_reached(record: RunRecord) -> str:
    """A failed run's reason when its message is blank: for a timeout or memout, the limit
    from the record's environment, e.g. ``time limit of 5 s wall reached (no message)``;
    else, or where the record names no limit, ``no message``."""
    environment = record.environment
    if record.status is Status.TIMEOUT and environment.get("time_limit") is not None:
        limit = f"time limit of {float(environment['time_limit']):g} s {environment.get('clock') or 'wall'}"
    elif record.status is Status.MEMOUT and environment.get("memory_limit_mb") is not None:
        limit = f"memory limit of {environment['memory_limit_mb']} MB"
    else:
        return first_line("")
    return f"{limit} reached (no message)"


def failure_reason(record: RunRecord) -> str:
    """What tells a failed run's reason from another's (`failure_reasons`): an error's first
    line of its message, temporary folder names masked; '' for a timeout or memout."""
    if record.status is not Status.ERROR:
        return ""
    return TEMPORARY.sub(TEMPORARY_PREFIX + "*", first_line(record.message))


def why_failed(record: RunRecord) -> str:
    """Why a run failed, in full: a crashed or timed-out run's message (`EXPLAINED`), a
    rejected plan's checker error; '' otherwise."""
    if record.status in EXPLAINED:
        return record.message
    return record.plan_error if record.plan_valid is False else ""


def explained_runs(records: list[RunRecord]) -> list[RunRecord]:
    """The runs `failure_reasons` says why of (`EXPLAINED`: crashed or timed out)."""
    return _runs_with(records, EXPLAINED)


def _crashed_runs(records: list[RunRecord]) -> list[RunRecord]:
    """The runs that crashed (failed statuses)."""
    return _runs_with(records, FAILED_STATUSES)


def _runs_with(records: list[RunRecord], statuses: frozenset[Status]) -> list[RunRecord]:
    """The runs of one of `statuses`, unreadable instance files left out: they are no runs."""
    return [r for r in solver_runs(records) if r.status in statuses]


def crashed(records: list[RunRecord]) -> str:
    """How many runs crashed, by status and solver, e.g. ``3 runs crashed: 2 error
    (elevator-mine), 1 memout (keys-cpsat)`` (a count per solver when several share a
    status); '' when none did.  A crash leaves the instance's verdict to the other
    solvers, so this is where it shows.  Unreadable instance files are not runs: they
    are `error` instances in the verdict count."""
    runs = _crashed_runs(records)
    if not runs:
        return ""
    parts = []
    for status in sorted(FAILED_STATUSES):
        solvers = Counter(r.solver for r in runs if r.status is status).most_common()
        if solvers:
            names = ", ".join(name if len(solvers) == 1 else f"{name} {n}" for name, n in solvers)
            parts.append(f"{sum(n for _, n in solvers)} {status.value} ({names})")
    return f"{counted(len(runs), 'run')} crashed: " + ", ".join(parts)
