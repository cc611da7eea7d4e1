"""Formulation options and configurations: a formulation with its design choices set.

A formulation declares its design choices (the bound, a pruning rule, an optional constraint
family, a search setting) as a pydantic model, its ``Options`` (`Options` here is the base; a
formulation without choices has none).  Every field has a default and a one-line
``description``; a choice among named values is a ``Literal[...]``, so an unknown value is an
error naming the valid ones.  A field whose value gives up optimality (a weighted bound, a
beam, a greedy cut) says which values do with `option` (``inexact=...``): such a
configuration's answers are upper bounds from checked plans, never optima, never proven
bounds (`Solver.solve` reads them so, and the harness records them as evidence of a plan
only, `crosscheck.harness.records.evidence.Evidence.PLAN`).

A *configuration* is a formulation plus its resolved options, named by its *label*: the
formulation's name, then the options that differ from their defaults in brackets, in the
order the formulation declares them (``keys-graph[bound=none,dominance=off]``); the
default configuration's label is the plain name.  CP-SAT's own parameters pass through as
``cpsat.NAME=VALUE`` (`crosscheck.solvers.engines.cpsat.CpsatOptions`), after the others,
sorted by name.

What a researcher writes, `parse_specs` reads: ``NAME`` or ``NAME[option=value,...]``; a value
may list alternatives, ``bound=door-free|none|default``, and the spec stands for one
configuration per combination (``default`` is the option's default).  An unknown formulation,
option or value is a `ConfigurationError` naming the valid ones.  A label written otherwise
(defaults spelled out, another order) means the same configuration: `canonical` gives its label.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import TYPE_CHECKING, Any, Literal, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.config import JsonDict

if TYPE_CHECKING:
    from crosscheck.solvers.base import Solver

#: The value word that stands for an option's default in a spec.
DEFAULT = "default"
#: Options given as ``PREFIX.NAME=VALUE`` go into the mapping field named PREFIX (CP-SAT's parameters).
PASS_THROUGH = ("cpsat",)


class ConfigurationError(ValueError):
    """A configuration spec that names no configuration: the message says what is wrong and
    what is valid instead (the command line makes it a usage error)."""


def _spelled(name: str) -> str:
    """An option's name as specs and labels spell it: ``cycle_tours`` is ``cycle-tours``."""
    return name.replace("_", "-")


class Options(BaseModel):
    """The base of every formulation's options: no fields, immutable, no unknown field.

    A field's name is spelled with hyphens in specs and labels (``cycle_tours`` is
    ``cycle-tours``)."""

    model_config = ConfigDict(frozen=True, extra="forbid", alias_generator=_spelled, populate_by_name=True)


def option(default: Any, description: str, *, inexact: Sequence[Any] = ()) -> Any:
    """A field of an `Options` model: its `default`, its one-line `description`, and the values
    that give up optimality (`inexact`: the configuration's answers are then plans only)."""
    extra: JsonDict | None = {"inexact": list(inexact)} if inexact else None
    return Field(default, description=description, json_schema_extra=extra)


def choices(options: type[Options], name: str) -> tuple[Any, ...] | None:
    """The values the field `name` of `options` may take, when it is a ``Literal`` (else None)."""
    annotation = options.model_fields[name].annotation
    return get_args(annotation) if get_origin(annotation) is Literal else None


def inexact_values(options: type[Options], name: str) -> tuple[Any, ...]:
    """The values of the field `name` that give up optimality (see `option`)."""
    extra = options.model_fields[name].json_schema_extra
    return tuple(extra.get("inexact", ())) if isinstance(extra, dict) else ()  # type: ignore[arg-type]


def gives_up_optimality(options: Options) -> tuple[str, ...]:
    """The settings of `options` (``name=value``) that give up optimality; empty for an exact configuration."""
    fields = type(options).model_fields
    return tuple(f"{_spelled(name)}={_word(getattr(options, name))}" for name in fields
                 if getattr(options, name) in inexact_values(type(options), name))


def _word(value: Any) -> str:
    """A value as a label writes it: ``on``, ``2``, ``0.5``, ``true``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def label(formulation: str, options: Options) -> str:
    """The configuration's label: `formulation`, then in brackets the options that differ from
    their defaults (declared order; pass-through parameters last, by name); the plain name
    when none does."""
    words = []
    for name in _in_order(type(options)):
        value = getattr(options, name)
        if name in PASS_THROUGH:
            words += [f"{name}.{key}={_word(value[key])}" for key in sorted(value)]
        elif value != type(options).model_fields[name].default:
            words.append(f"{_spelled(name)}={_word(value)}")
    return f"{formulation}[{','.join(words)}]" if words else formulation


def described(options: type[Options]) -> list[tuple[str, str, str, str]]:
    """Each option of `options` as (name, values, default, meaning) for a listing: values a
    ``|``-separated list for a choice, else the type, with the values that give up optimality marked."""
    rows = []
    for name in _in_order(options):
        info = options.model_fields[name]
        inexact = inexact_values(options, name)
        known = choices(options, name)
        if name in PASS_THROUGH:
            values = "VALUE"
        elif known is not None:
            values = "|".join(_word(v) + (" (inexact)" if v in inexact else "") for v in known)
        else:
            values = getattr(info.annotation, "__name__", str(info.annotation))
        default = "none given" if name in PASS_THROUGH else _word(info.default)
        rows.append((_spelled(name) if name not in PASS_THROUGH else f"{name}.NAME", values, default,
                     info.description or ""))
    return rows


def _in_order(options: type[Options]) -> list[str]:
    """The fields of `options` in the order labels write them: declared order, pass-through fields last."""
    fields = list(options.model_fields)
    return [name for name in fields if name not in PASS_THROUGH] + [name for name in fields if name in PASS_THROUGH]


def parse_specs(specs: Sequence[str]) -> tuple[str, ...]:
    """The labels of the configurations `specs` stand for, each once, in the order given
    (`expand` of each); a `ConfigurationError` for a spec that names none."""
    labels: dict[str, None] = {}
    for spec in specs:
        labels.update(dict.fromkeys(configuration.label for configuration in expand(spec)))
    return tuple(labels)


class Configuration:
    """A formulation (`solver`, the registered one) with resolved `options`, and its `label`."""

    def __init__(self, solver: Solver, options: Options) -> None:
        self.solver = solver
        self.options = options
        self.label = label(solver.name, options)


def expand(spec: str) -> list[Configuration]:
    """The configurations a spec stands for: one per combination of the alternatives its
    values list (in the order written, each once); a `ConfigurationError` naming what is wrong."""
    name, assignments = _split(spec)
    solver = _formulation(name)
    options_class = solver.Options
    fields = _field_names(options_class)
    given: dict[str, list[Any]] = {}
    for key, words in assignments:
        field = _field(name, key, fields)
        if field in given and field not in PASS_THROUGH:
            raise ConfigurationError(f"{spec}: option {key!r} given twice")
        values = given.setdefault(field, [{}] if field in PASS_THROUGH else [])
        if field in PASS_THROUGH:
            parameter = key.partition(".")[2]
            given[field] = [{**before, **({} if word == DEFAULT else {parameter: word})}
                            for before in values for word in words]
        else:
            values += [_value(name, options_class, field, word) for word in words]
    found: dict[str, Configuration] = {}
    for combination in product(*given.values()):
        options = _resolved(name, options_class, dict(zip(given, combination, strict=True)))
        configuration = Configuration(solver, options)
        found.setdefault(configuration.label, configuration)
    return list(found.values())


def canonical(spec: str) -> Configuration:
    """The one configuration `spec` names; a `ConfigurationError` when it names several (a
    value listing alternatives) or none."""
    found = expand(spec)
    if len(found) != 1:
        raise ConfigurationError(f"{spec}: names {len(found)} configurations, one was expected "
                                 f"({', '.join(c.label for c in found)})")
    return found[0]


def _split(spec: str) -> tuple[str, list[tuple[str, list[str]]]]:
    """A spec's formulation name and its (option, alternatives) as written."""
    text = spec.strip()
    name, bracket, rest = text.partition("[")
    if not bracket:
        return name, []
    if not rest.endswith("]"):
        raise ConfigurationError(f"{spec}: expected NAME[option=value,...] ending in ']'")
    assignments = []
    for part in rest[:-1].split(","):
        if not part.strip():
            continue
        key, equals, value = part.partition("=")
        words = [word.strip() for word in value.split("|")]
        if not equals or not key.strip() or not all(words):
            raise ConfigurationError(f"{spec}: expected option=value (alternatives value|value), got {part.strip()!r}")
        assignments.append((key.strip(), words))
    return name.strip(), assignments


def _formulation(name: str) -> Solver:
    """The registered formulation `name`; a `ConfigurationError` listing the valid names."""
    from crosscheck.solvers.registry import get_solver

    try:
        return get_solver(name)
    except KeyError as error:
        raise ConfigurationError(error.args[0]) from None


def _field_names(options: type[Options]) -> dict[str, str]:
    """The fields of `options` by the name specs give them (``cycle-tours``; pass-through fields as themselves)."""
    return {(name if name in PASS_THROUGH else _spelled(name)): name for name in options.model_fields}


def _field(formulation: str, key: str, fields: dict[str, str]) -> str:
    """The field the option `key` of a spec sets; a `ConfigurationError` naming the options there are."""
    prefix, dot, _ = key.partition(".")
    if dot and prefix in PASS_THROUGH and prefix in fields:
        return prefix
    if not dot and key in fields and key not in PASS_THROUGH:
        return fields[key]
    valid = [f"{name}.NAME" if name in PASS_THROUGH else name for name in fields]
    have = f"its options: {', '.join(valid)}" if valid else "it has no options"
    raise ConfigurationError(f"{formulation} has no option {key!r}; {have}")


def _value(formulation: str, options: type[Options], field: str, word: str) -> Any:
    """The value `word` of the option `field`: the default for ``default``, one of a choice's
    values by its spelling, else what pydantic makes of the text; a `ConfigurationError` naming the valid values."""
    info = options.model_fields[field]
    if word == DEFAULT:
        return info.default
    known = choices(options, field)
    if known is not None:
        for value in known:
            if _word(value) == word:
                return value
        raise ConfigurationError(f"{formulation} option {_spelled(field)}: {word!r} is not one of "
                                 f"{', '.join(_word(v) for v in known)} (or {DEFAULT})")
    return word  # validated with the whole model (`_resolved`)


def _resolved(formulation: str, options: type[Options], values: dict[str, Any]) -> Options:
    """`options` with `values` set (by field name), validated; a `ConfigurationError` saying what is wrong."""
    try:
        return options.model_validate(values)
    except ValidationError as error:
        problems = "; ".join(_problem(problem) for problem in error.errors())
        raise ConfigurationError(f"{formulation}: {problems}") from None


def _problem(problem: Any) -> str:
    """One of pydantic's problems in words: the option it is about, then pydantic's message."""
    where = ".".join(_spelled(str(part)) for part in problem["loc"])
    words = str(problem["msg"]).removeprefix("Value error, ")
    return f"option {where}: {words}" if where else words
