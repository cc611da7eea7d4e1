"""Formulations counted as independent whose searches look the same: identical effort.

The independent count (`crosscheck.harness.judging.verdicts.independent_count`) rests on what each
formulation declares it shares (`Solver.shares`, checked statically by
`crosscheck.harness.independence.copies`).  A copy of a formulation with do-nothing edits (``+ 0``,
``or False``, a loop turned round) can pass as independent of it; its runs then expand
exactly as many states as the original's, instance after instance.  Two genuinely
different searches rarely do that on several instances of some size, so `same_effort`
warns about such a pair.  It is a heuristic: the warning never changes a verdict or an
independent count (two formulations can count alike and still be built apart), it asks
the reader to check.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from crosscheck.harness.records.record import RunRecord
from crosscheck.harness.reports.wording import some_named

#: The stats a run records as its effort, the first present counts, with their noun:
#: states expanded (searches) or conflicts (CP-SAT).
EFFORT_STATS = (("expanded", "state"), ("conflicts", "conflict"))
#: Effort below this tells nothing: different searches of a tiny space may well count alike.
MIN_TELLING_EFFORT = 10
#: How many instances of telling, identical effort make the warning.
MIN_SAME_INSTANCES = 3
#: How many of those instances the warning names.
NAMED = 5

Figure = tuple[str, int | float | str]  # (noun, value) of a run's stats, e.g. ("state", 73)
InstanceKey = tuple[str, bool]


def effort_figure(record: RunRecord) -> Figure | None:
    """The run's own measure of work as (noun, value): the first of `EFFORT_STATS` its
    stats hold (a plugin's stats may hold any scalar); None without one."""
    for key, noun in EFFORT_STATS:
        if key in record.stats:
            return noun, record.stats[key]
    return None


def same_effort(records: Sequence[RunRecord]) -> list[str]:
    """A warning per pair of formulations counted as independent (no shared component) whose
    exact runs recorded the same effort on every instance both proved where either's effort
    is telling (at least `MIN_TELLING_EFFORT`), when there are at least `MIN_SAME_INSTANCES`
    such instances; [] when no pair does.  Each names both and the instances."""
    figures: dict[str, dict[InstanceKey, set[Figure]]] = {}
    shares: dict[str, set[str]] = {}
    formulation: dict[str, str] = {}
    for record in records:
        figure = effort_figure(record)
        if record.exact_answer and figure is not None:
            figures.setdefault(record.solver, {}).setdefault((record.instance, record.variant), set()).add(figure)
            shares.setdefault(record.solver, set()).update(record.shares)
            formulation[record.solver] = record.formulation
    warnings = []
    for first, second in combinations(figures, 2):
        if shares[first] & shares[second] or formulation[first] == formulation[second]:
            continue  # already one line of evidence (configurations of one formulation too)
        same = _same_instances(figures[first], figures[second])
        if same is not None and len(same) >= MIN_SAME_INSTANCES:
            named = some_named([_described(key, figures[first][key]) for key in same], NAMED)
            warnings.append(
                f"{first} and {second}: independence doubtful: both recorded the same effort on every one of "
                f"the {len(same)} instances both proved with telling effort ({named}); identical search effort "
                "suggests the same search (they are still counted as independent: check their code)")
    return warnings


def _same_instances(first: dict[InstanceKey, set[Figure]],
                    second: dict[InstanceKey, set[Figure]]) -> list[InstanceKey] | None:
    """The common instances on which either effort is telling, in `first`'s order, when the
    two recorded the same effort on each of them; None when they differ on one."""
    telling = [key for key in first if key in second and (_telling(first[key]) or _telling(second[key]))]
    return telling if all(first[key] == second[key] for key in telling) else None


def _telling(figures: set[Figure]) -> bool:
    """Whether some run's effort is a number of at least `MIN_TELLING_EFFORT`."""
    return any(isinstance(value, int | float) and not isinstance(value, bool) and value >= MIN_TELLING_EFFORT
               for _, value in figures)


def _described(key: InstanceKey, figures: set[Figure]) -> str:
    """``INSTANCE (73 states)``, ``[variant]`` marked, the values of repetitions joined by '/'."""
    instance, variant = key
    values = "/".join(sorted(str(value) for _, value in figures))
    noun = next(iter(figures))[0]
    return f"{instance}{' [variant]' if variant else ''} ({values} {noun}s)"
