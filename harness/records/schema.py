"""Versions of the run-record schema, so saved results stay readable as the record grows.

Every record written carries ``schema_version``.  History:

- 1: records written before the field existed (read as version 1; the fields added
  later take their defaults: ``repeat`` 0, measurements unknown).
- 2: adds ``schema_version``, ``repeat`` (the repetition's index), ``wall_seconds`` (the
  harness's wall time for the whole run), ``cpu_seconds`` and ``peak_memory_mb`` (the
  run's process and its waited-for children), and ``cpsat_workers``.
- 3: adds ``evidence`` (`crosscheck.harness.records.evidence.Evidence`: ``proof`` or ``claim``).
  Older records get it by the rule used before the field existed: ``claim`` when their
  ``stats`` hold ``external`` (the command of an external program), else ``proof``; so
  an old results file is judged as it was.
- 4: adds ``related_to`` (`crosscheck.harness.records.record.RelatedTo`): on the runs of a related
  instance (``morph``, ``compare --morph``), the original's name, the relation and its
  expectation, so ``report`` judges the pairs as the run did.  Older records take None
  (no pair can be judged from them; their run's ``morph-verdicts.jsonl`` or output has them).
- 5: adds ``start_memory_mb``: the resident set (``VmRSS``) of the run's process as it
  started, inherited from the forkserver and counted in ``peak_memory_mb``, so a report
  can tell what the run itself added.  Older records take None (unknown; their peak
  alone is all there is).
- 6: adds ``certificate`` (`crosscheck.solvers.certificate.Certificate`: what a SAT formulation's
  refutations were and the harness's check of them), ``encoding_checks`` (checked plans written as
  assignments of a certified CNF) and the evidence ``certified``.  Older records take None and
  an empty list: none of their answers is certified.
- 7: adds ``formulation``, ``configuration`` and ``options`` (`crosscheck.solvers.configuration`):
  the formulation that ran, its configuration's label (``keys-graph[bound=none]``; the
  ``solver`` field holds it too) and every option's resolved value; and the evidence value
  ``plan`` (a configuration whose options give up optimality).  Older records take their
  solver's name for both names and no options: every run then was its formulation's default.
- 8: adds ``late_status``: the status a run answered with after its time limit had passed
  (its ``status`` is then ``timeout``, as every figure counts it, while its checked plan and
  proof stay evidence for the verdicts).  Older records take None: a late answer was
  recorded under its own status then.

The ``environment`` mapping is open: entries join it without a new version, and readers
treat a missing entry as unknown (``pinned_cores``, ``solver_source``; ``started``,
``jobs``, ``load_average`` and ``cpu_model`` came later than version 3 and are absent from
older records, whose reports say ``unknown``; see `crosscheck.harness.reports.conditions`).

A file written by a newer crosscheck (a version above `SCHEMA_VERSION`) is refused with
`NewerSchemaError` rather than read wrongly; a line that is not a record at all with
`MalformedRecord`.  Both are `UnreadableRecord`s, whose message is one line
``FILE:LINE[:COLUMN]: what is wrong``.  `crosscheck schema` prints the current JSON
Schema, generated from the pydantic model `crosscheck.harness.records.record.RunRecord`.
"""

from __future__ import annotations

from typing import Any

from crosscheck.harness.records.evidence import Evidence

#: The version of the records this crosscheck writes.
SCHEMA_VERSION = 8
#: The version of a record that has no ``schema_version`` field (written before it existed).
UNVERSIONED = 1
#: The first version whose records carry ``evidence``.
EVIDENCE_FIELD = 3


class UnreadableRecord(ValueError):
    """A line of a results file this crosscheck cannot read as a run record; the message
    is one line, ``FILE:LINE[:COLUMN]: what is wrong``."""


class MalformedRecord(UnreadableRecord):
    """A line that is not a run record: not JSON, not an object, or fields that do not fit."""


class NewerSchemaError(UnreadableRecord):
    """A record written by a newer crosscheck than this one: its meaning is unknown here."""


def upgrade(data: dict[str, Any], where: str) -> dict[str, Any]:
    """`data` (one record as parsed JSON) ready for validation: an unversioned record is
    marked version 1; a newer one raises `NewerSchemaError`, a version that is no integer
    `MalformedRecord`, each naming `where` (file:line).  A record older than
    `EVIDENCE_FIELD` gets its ``evidence`` (see the history above)."""
    version = data.setdefault("schema_version", UNVERSIONED)
    if not isinstance(version, int) or isinstance(version, bool):
        raise MalformedRecord(f"{where}: schema_version must be an integer, got {version!r}")
    if version > SCHEMA_VERSION:
        raise NewerSchemaError(
            f"{where}: record schema version {version} is newer than this crosscheck reads "
            f"(up to {SCHEMA_VERSION}); upgrade crosscheck to read this file")
    if version < EVIDENCE_FIELD:
        data.setdefault("evidence", _evidence_before_the_field(data))
    return data


def _evidence_before_the_field(data: dict[str, Any]) -> Evidence:
    """The evidence of a record written before the field: an external program's record
    was the one whose stats held ``external`` (stats that are no mapping fail validation later)."""
    stats = data.get("stats")
    return Evidence.CLAIM if isinstance(stats, dict) and "external" in stats else Evidence.PROOF
