"""Split a comparison into N parts for batch systems, and merge their result files back.

``compare --shard K/N`` makes only the runs of part K (1 <= K <= N): those whose
(instance, variant, solver) hashes to K - 1 modulo N.  The split needs no coordination
and no running service: it depends on the run alone, not on the order files are found
in, on which runs a resumed file already holds, or on the machine, so N jobs of a Slurm
array (or any batch system) given the same paths and options make every run exactly once
between them.  Repetitions of a run (``--repeat``) stay in one part, so their times come
from one machine.  Parts hold about the same number of runs, not the same work.

`merge` joins the records of several result files (parts, or reruns of some runs):
one record per run key, a later one (later in its file, or in a later file) replacing an
earlier one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from crosscheck.harness.records.record import RunKey, RunRecord


@dataclass(frozen=True)
class Shard:
    """Part `index` of `count` (1-based, as ``K/N`` on the command line)."""

    index: int
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        """``K/N`` with 1 <= K <= N; `ValueError` says what is wrong."""
        index, slash, count = text.partition("/")
        try:
            shard = cls(int(index), int(count))
        except ValueError:
            raise ValueError(f"expected K/N with whole numbers, got {text!r}") from None
        if not slash or not 1 <= shard.index <= shard.count:
            raise ValueError(f"expected K/N with 1 <= K <= N, got {text!r}")
        return shard

    def holds(self, key: RunKey) -> bool:
        """Whether the run with `key` belongs to this part (its repeat index does not matter)."""
        instance, variant, solver = key[:3]
        digest = hashlib.sha256(f"{instance}\0{int(variant)}\0{solver}".encode()).digest()
        return int.from_bytes(digest[:8], "big") % self.count == self.index - 1


def merge(files: Iterable[tuple[str, list[RunRecord]]]) -> tuple[list[RunRecord], list[str]]:
    """The records of several files (name, records), one per run key, the last one read
    winning; and a warning per run key found more than once, naming the files."""
    merged: dict[RunKey, RunRecord] = {}
    sources: dict[RunKey, list[str]] = {}
    for name, records in files:
        for record in records:
            merged[record.key] = record  # a replaced key keeps its first place
            sources.setdefault(record.key, []).append(name)
    warnings = [f"{_describe(key)} is recorded {len(names)} times ({', '.join(names)}): the last one is used"
                for key, names in sources.items() if len(names) > 1]
    return list(merged.values()), warnings


def _describe(key: RunKey) -> str:
    instance, variant, solver, repeat = key
    return f"{instance}{' [variant]' if variant else ''} {solver}{f' (repeat {repeat})' if repeat else ''}"
