"""The puzzle interface: one object holds everything the harness needs of a puzzle.

A puzzle is a `Puzzle` value.  crosscheck's own three live in ``crosscheck.models.keys``,
``crosscheck.models.amphipods`` and ``crosscheck.models.elevator`` (each a folder: model,
relations, strategies); a puzzle of your own is any `Puzzle` an installed distribution names
under the entry point group ``crosscheck.puzzles`` (`crosscheck.models.registry`).  The
harness reaches a puzzle only through this object, so a puzzle brought from outside runs in
``compare``, ``hunt``, ``morph`` and ``report`` as the built-in ones do.

Example (the sliding-tile puzzle of ``examples/tiles``)::

    PUZZLE = Puzzle(
        name="tiles", title="sliding-tile puzzle", shape="rows of numbers, 0 the blank",
        detect=detect, parse=parse, check_plan=check_plan, generate=generate,
        generator_params={"rows": "board rows", "columns": "board columns"},
        relations=RELATIONS, sizes=(SizeParameter("rows", "board rows", (2, 3), 2, 5), ...),
        instances=boards, corpus=corpus, reference="tiles-search",
        real_shapes={"8-puzzle": Shape({"rows": 3, "columns": 3}), "15-puzzle": Shape({"rows": 4, "columns": 4})},
        small_sets=(Sample({"rows": 2, "columns": 3}, count=4),))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import TYPE_CHECKING, Any, get_args, get_type_hints

from crosscheck.models.base import Instance, InvalidInstance, out_of_range

if TYPE_CHECKING:
    from crosscheck.models.relations import Relation
    from hypothesis.strategies import SearchStrategy

#: An inclusive range of a size parameter, ``(low, high)``.
Range = tuple[int, int]


@dataclass(frozen=True)
class SizeParameter:
    """A size that `hunt` draws instances within (``-p NAME=LOW-HIGH``).

    `default` is the range drawn when none is given; `least` and `most` bound every range
    (the values `Puzzle.instances` can honour)."""

    name: str
    meaning: str
    default: Range
    least: int
    most: int


#: The value of a generator parameter (its annotation says which: `generator_argument`).
ParamValue = int | bool | str


@dataclass(frozen=True)
class Shape:
    """Generated instances of one shape: ``generate(seed, **params)``, with the puzzle's variant
    applied to each when `variant` (`Puzzle.shaped`)."""

    params: Mapping[str, ParamValue]
    variant: bool = False


@dataclass(frozen=True)
class Sample:
    """A seeded set of generated instances: ``generate(seed, **params)`` for `count` seeds from
    `seed` on, as ``crosscheck generate PUZZLE --count COUNT --seed SEED -p NAME=VALUE ...``
    writes them (`arguments`)."""

    params: Mapping[str, ParamValue]
    count: int
    seed: int = 0

    def arguments(self) -> list[str]:
        """The options of ``crosscheck generate`` that write this set (after the puzzle's name)."""
        options = ["--count", str(self.count), "--seed", str(self.seed)]
        for name, value in self.params.items():
            options += ["-p", f"{name}={str(value).lower() if isinstance(value, bool) else value}"]
        return options


def _always_published(instance: Instance) -> str:
    return ""


def _no_features(instance: Instance) -> dict[str, int]:
    return {}


def _no_variant(instance: Instance) -> Instance:
    raise InvalidInstance("this puzzle has no variant", source=instance.name)


@dataclass(frozen=True)
class Puzzle:
    """How the harness talks to one puzzle.

    Attributes:
        name: short identifier on the command line and in records (a formulation's name
            starts with it: ``keys-graph``).
        title: human-readable name.
        shape: what `detect` looks for, in words, for the error on a text no puzzle claims.
        detect: True when a text looks like an instance of this puzzle (a cheap test that
            routes files found in a folder; it must not claim another puzzle's texts).
        parse: ``parse(text, source)`` returns an instance or raises `InvalidInstance`
            naming line, column and what was expected.
        check_plan: ``check_plan(instance, plan)`` replays a plan in the puzzle's move
            vocabulary (JSON-compatible values accepted) and returns its recomputed cost, or
            raises `InvalidPlan`; it never calls a solver.
        generate: ``generate(seed, **params)`` returns a seeded random instance; each
            parameter is typed by its annotation (int, bool or str).
        generator_params: each generator parameter and what it means.
        variant: the puzzle's variant transform (four robots, deep burrow, ...); raises
            `InvalidInstance` where it does not apply.
        variant_name: what the variant is called ('' when the puzzle has none).
        features: ``features(instance)`` gives size measures (keys, robots) that reports
            plot running times against; the first is the default axis.
        relations: the metamorphic relations of the puzzle (`crosscheck.models.relations`).
        sizes: the parameters `hunt` draws instances within.
        instances: ``instances(ranges, published)`` is a Hypothesis strategy of valid
            instances within `ranges` (every `sizes` parameter given); with `published`,
            only instances of the published inputs' shape.  `ValueError` saying why when
            the ranges leave no instance.  Called when a hunt starts, so that Hypothesis is
            imported only then.
        published_shape: why an instance is not of the published inputs' shape ('' when
            it is, or when the puzzle has no published inputs).
        corpus: the small instances (edge cases included) on which the independence
            analysis traces each formulation (`crosscheck.harness.independence.sharing`).
        formulations: the modules whose ``SOLVERS`` lists are the puzzle's built-in
            formulations, imported when a solver of the puzzle is first asked for (a
            plugin's formulations come by the ``crosscheck.solvers`` entry point group).
        reference: the puzzle's fastest exact formulation: run beside external programs
            when nothing else is named, so that their claims can be contradicted.
        real_shapes: the shapes of the published inputs' parts, by name (``1-robot``,
            ``depth-4``): generator parameters that draw instances like them, at their size.
            A program is timed side by side with `reference` on them
            (``python -m benchmarks.bench_external``).
        small_sets: seeded sets of small generated instances, edge cases among them (no
            solution, an unusual start), that every exact formulation answers within seconds:
            the fault audit compares and morphs on them (``python -m benchmarks.fault_audit``).
        trusted: the puzzle's pieces of the trusted base (qualified name -> the tests that
            hold it against an independent reference): parser, data types, plan checker,
            move vocabulary.  Code every formulation may run without it counting as shared
            (`crosscheck.harness.independence.trusted`).
        lemmas: shared arguments (lemma -> the modules whose answers rest on it): formulations
            that run code of those modules share the lemma though they share no code.
    """

    name: str
    title: str
    shape: str
    detect: Callable[[str], bool]
    parse: Callable[[str, str], Any]
    check_plan: Callable[[Any, Sequence[Any]], int]
    generate: Callable[..., Any]
    generator_params: Mapping[str, str] = field(default_factory=dict)
    variant: Callable[[Any], Any] = _no_variant
    variant_name: str = ""
    features: Callable[[Any], dict[str, int]] = _no_features
    relations: Sequence[Relation] = ()
    sizes: Sequence[SizeParameter] = ()
    instances: Callable[[Mapping[str, Range], bool], SearchStrategy[Any]] | None = None
    published_shape: Callable[[Any], str] = _always_published
    corpus: Callable[[], Sequence[Any]] = tuple
    formulations: Sequence[str] = ()
    reference: str = ""
    real_shapes: Mapping[str, Shape] = field(default_factory=dict)
    small_sets: Sequence[Sample] = ()
    trusted: Mapping[str, str] = field(default_factory=dict)
    lemmas: Mapping[str, Sequence[str]] = field(default_factory=dict)

    def relation(self, name: str) -> Relation:
        """The relation called `name`; a `KeyError` lists the valid names on a typo."""
        for relation in self.relations:
            if relation.name == name:
                return relation
        raise KeyError(f"unknown relation {name!r} for {self.name}; valid relations: "
                       f"{', '.join(r.name for r in self.relations)}")

    def shaped(self, shape: Shape, seed: int) -> Any:
        """The instance of `shape` that `seed` draws."""
        instance = self.generate(seed, **shape.params)
        return self.variant(instance) if shape.variant else instance

    def ranges(self, given: Mapping[str, Range]) -> dict[str, Range]:
        """The default ranges of `sizes` with `given` ones in their place.

        Raises `ValueError` for an unknown parameter, or naming the parameter, the range given
        and the allowed one for an empty or out-of-domain range."""
        sizes = {size.name: size for size in self.sizes}
        unknown = sorted(set(given) - set(sizes))
        if unknown:
            raise ValueError(f"unknown parameter {unknown[0]!r} for {self.name}; valid: {', '.join(sizes)}")
        merged = {name: given.get(name, size.default) for name, size in sizes.items()}
        for name, (low, high) in merged.items():
            least, most = sizes[name].least, sizes[name].most
            if low > high:
                raise ValueError(f"{name}={low}-{high}: empty range, need low <= high within {least} to {most}")
            if low < least or high > most:
                raise out_of_range(name, f"{low}-{high}", least, most)
        return merged

    def strategy(self, given: Mapping[str, Range] | None = None, published: bool = False) -> SearchStrategy[Any]:
        """Valid instances within `given` ranges (see `ranges`); `ValueError` when the puzzle
        draws no instances, or when the ranges leave none."""
        if self.instances is None:
            raise ValueError(f"the puzzle {self.name} draws no instances (it has no strategy)")
        return self.instances(self.ranges(given or {}), published)


def strategies_in(module: str) -> Callable[[Mapping[str, Range], bool], SearchStrategy[Any]]:
    """A `Puzzle.instances` that imports `module` (which defines ``instances(ranges, published)``)
    when a hunt first draws, so that Hypothesis is imported by hunts only."""
    def instances(ranges: Mapping[str, Range], published: bool) -> SearchStrategy[Any]:
        drawn: SearchStrategy[Any] = import_module(module).instances(ranges, published)
        return drawn
    return instances


def parse_range(text: str) -> Range:
    """``"3"`` or ``"2-5"`` as an inclusive range; `ValueError` otherwise (``"3-"`` too: an
    open end is not a range)."""
    low, dash, high = text.partition("-")
    try:
        return int(low), int(high if dash else low)
    except ValueError:
        raise ValueError(f"expected an integer or a range LOW-HIGH such as 3-5, got {text!r}") from None


def parse_ranges(params: Iterable[str]) -> dict[str, Range]:
    """``NAME=LOW-HIGH`` (or ``NAME=N``) options as a dict of ranges; `ValueError` naming
    the option for a malformed one (the names are checked by `Puzzle.ranges`)."""
    ranges = {}
    for param in params:
        name, separator, text = param.partition("=")
        if not separator:
            raise ValueError(f"{param!r}: expected NAME=RANGE such as floors=2-4 or pairs=3")
        try:
            ranges[name] = parse_range(text)
        except ValueError as error:
            raise ValueError(f"{param}: {error}") from None
    return ranges


def generator_argument(puzzle: Puzzle, name: str, text: str) -> int | bool | str:
    """The value of the generator parameter `name` written as `text`, of the type its
    ``generate`` annotation gives (an integer, true/false, or a word); `ValueError` naming
    the parameter, the text and what was expected otherwise.  Ranges are the generator's
    own to check (it raises `ValueError` too)."""
    hint = get_type_hints(puzzle.generate)[name]
    kinds = set(get_args(hint)) - {type(None)} or {hint}  # `int | None`: None is the default, never written
    meaning = puzzle.generator_params.get(name, "")
    if kinds == {bool}:
        if text.strip().lower() in ("true", "false"):
            return text.strip().lower() == "true"
        raise ValueError(f"{name}={text}: expected true or false ({meaning}), got {text!r}")
    if kinds == {int}:
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"{name}={text}: expected an integer ({meaning}), got {text!r}") from None
    if kinds == {str}:
        return text
    raise TypeError(f"{puzzle.name}.generate: parameter {name!r} has a type no option can give: {hint}")
