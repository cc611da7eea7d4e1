"""A hunt's outcome in words: what was found, how it was shrunk, how to judge it again.

`explain` is the paragraph ``crosscheck hunt`` prints (the counterexample, or why there
is none and what to try next, and every run that gave no answer); `reproduce` the shell
command that judges the shrunk counterexample again.
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

from crosscheck.harness.records.evidence import Evidence
from crosscheck.harness.reports.tables import failure_reasons
from crosscheck.harness.reports.wording import alternatives, counted
from crosscheck.harness.workflows.hunt_files import counterexample_paths
from crosscheck.solvers.registry import PLUGIN_VARIABLE

if TYPE_CHECKING:
    from crosscheck.harness.records.record import RunRecord
    from crosscheck.harness.workflows.hunt import HuntOutcome, HuntSettings


def reproduce(outcome: HuntOutcome) -> str | None:
    """A shell command that judges the shrunk counterexample again (None without one):
    ``crosscheck compare`` on its file with the same formulations, programs and limits, or,
    for a morph hunt's draw, ``crosscheck morph`` with its relation and seed (which relate
    the same instance to the file, `instance_rng`), its output in ``OUT/reproduce``.  Both
    exit 1 on the wrong verdict; plugins loaded are named in ``CROSSCHECK_SOLVERS`` before it."""
    shrunk, settings = outcome.shrunk, outcome.settings
    if shrunk is None:
        return None
    path = str(counterexample_paths(settings, as_found=False)[0])
    words = ["crosscheck", "compare", path]
    if shrunk.relation is not None:
        words = ["crosscheck", "morph", path, "--relations", shrunk.relation, "--count", "1",
                 "--seed", str(shrunk.seed), "--out", str(settings.out / "reproduce")]
    for solver in settings.runs.solvers:
        words += ["--solver", solver]
    for external in settings.runs.externals:
        words += ["--external", f"{external.name}={external.command}"]
        for source in external.sources:
            words += ["--external-source", f"{external.name}={source}"]
    words += ["--time-limit", str(settings.runs.time_limit), "--clock", settings.runs.clock,
              "--memory-limit", str(settings.runs.memory_limit_mb)]
    plugins = f"{PLUGIN_VARIABLE}={shlex.quote(','.join(settings.plugins))} " if settings.plugins else ""
    return plugins + shlex.join(words)


def explain(outcome: HuntOutcome) -> str:
    """One paragraph: what was contradicted by what, the sizes before and after shrinking,
    and every run that gave no answer (timeout, unsupported, error, memout), per formulation."""
    settings = outcome.settings
    if outcome.shrunk is None or outcome.first is None:
        why = ("Hypothesis ran out of distinct instances in these ranges" if outcome.exhausted
               else "before the hunt was interrupted" if outcome.interrupted
               else f"before the hunt stopped early: {outcome.stopped}" if outcome.stopped
               else f"within the budget ({_budget(settings)})")
        after = ("Fix the program or its command (run it on a file of judged/ by hand), then hunt again."
                 if outcome.stopped else _not_evidence(outcome, settings))
        return (f"No wrong verdict on {counted(outcome.tried, settings.puzzle.name + ' instance')} "
                f"({_ranges(outcome.sizes)}), "
                f"{why}.{_unanswered(outcome)}{_crashes(outcome)}{_reasons(outcome)}\n{after}")
    shrunk, first = outcome.shrunk, outcome.first
    features = settings.puzzle.features
    shrunk_name = "Smallest so far (shrinking was interrupted)" if outcome.interrupted else "Shrunk instance"
    return (f"Counterexample ({shrunk.verdict.verdict}): {shrunk.verdict.reason}. {shrunk_name}: "
            f"{_sizes(features(shrunk.instance))}; as found: {_sizes(features(first.instance))}, after "
            f"{counted(outcome.tried, 'instance')} in {outcome.seconds_to_find:.1f} s; shrinking judged "
            f"{outcome.shrink_tried} more in {outcome.seconds_to_shrink:.1f} s. Answers on the shrunk instance: "
            f"{'; '.join(_answer(r) for r in shrunk.records)}.{_unanswered(outcome)}{_crashes(outcome)}"
            f"{_reasons(outcome)}")


def _not_evidence(outcome: HuntOutcome, settings: HuntSettings) -> str:
    """The line after a hunt that found nothing: that is no evidence of correctness (a
    wrong answer may need instances this search did not draw), and what to try next."""
    tries = (["wider -p ranges"] if outcome.exhausted else
             ["a larger --budget (or --examples)", "another --seed" if settings.seed is not None else "running it again "
              "(a new seed each time)", "narrower -p ranges around the sizes you suspect"])
    tries += [] if settings.morph is not None else ["--morph"]
    return (f"Finding none is no evidence that the formulations are right: a wrong answer may need an instance "
            f"this search did not draw. Try {alternatives(tries)}.")


def _budget(settings: HuntSettings) -> str:
    """The search's limits in words: "60 s", "200 instances" or "60 s or 200 instances"."""
    limits = [] if settings.budget is None else [f"{settings.budget:g} s"]
    limits += [] if settings.examples is None else [counted(settings.examples, "instance")]
    return " or ".join(limits) or "none"


def _sizes(values: dict[str, int]) -> str:
    return ", ".join(f"{name} {value}" for name, value in values.items())


def _ranges(sizes: dict[str, tuple[int, int]]) -> str:
    return ", ".join(f"{name} {low}-{high}" if low != high else f"{name} {low}" for name, (low, high) in sizes.items())


def _unanswered(outcome: HuntOutcome) -> str:
    """The runs that gave no answer, per formulation and status, e.g. `` Runs without an
    answer: mine 10 of 110 (10 timeout); lift 3 of 110 (2 error, 1 memout).``; '' when
    every run answered."""
    parts = outcome.unanswered.parts()
    return f" Runs without an answer: {'; '.join(parts)}." if parts else ""


def _crashes(outcome: HuntOutcome) -> str:
    return (f" {counted(outcome.crashed, 'run')} crashed or ran out of memory (their instances are in judged/, their "
            "records in judged.jsonl)." if outcome.crashed else "")


def _reasons(outcome: HuntOutcome) -> str:
    """Why runs crashed or timed out (`failure_reasons`, as compare notes them), a line
    each after the paragraph; '' when none did."""
    return "".join(f"\n{line}" for line in failure_reasons(list(outcome.failed)))


def _answer(record: RunRecord) -> str:
    """A run's answer in a few words: status, cost, proven bound, and what the checker said."""
    text = f"{record.solver} {record.status}"
    if record.cost is not None:
        text += f" {record.cost}"
    if record.bound is not None and record.bound != record.cost:
        text += f" (bound {record.bound})"
    if record.plan_valid is not None:
        text += " with a checked plan" if record.plan_valid else f" with an invalid plan ({record.plan_error})"
    return text + (" [claim]" if record.evidence is Evidence.CLAIM else "")
