"""Hypothesis strategies that draw valid facilities, and the published inputs' shape.

Facilities of 2 to 6 floors and 1 to 6 pairs by default, items on any floor (the top one too),
unsafe starts and facilities without a solution; shrinking moves toward fewer floors and pairs
with items lower down.  The published inputs have four floors and a safe start.
"""

from __future__ import annotations

from collections.abc import Mapping

from crosscheck.models.elevator import model as elevator
from crosscheck.models.puzzle import Range
from hypothesis import strategies as st


def instances(ranges: Mapping[str, Range], published: bool) -> st.SearchStrategy[elevator.Facility]:
    """Facilities within `ranges`; with `published`, of four floors and a safe start
    (`ValueError` when the floors range excludes four)."""
    if published and not ranges["floors"][0] <= 4 <= ranges["floors"][1]:
        raise ValueError(f"floors={ranges['floors'][0]}-{ranges['floors'][1]} excludes the published 4 floors")
    return facilities((4, 4) if published else ranges["floors"], ranges["pairs"], always_safe=published)


@st.composite
def facilities(draw: st.DrawFn, floors_range: Range, pairs_range: Range, always_safe: bool = False
               ) -> elevator.Facility:
    """A facility: each chip and generator on any floor (safe or not).

    The pairs are one list (the shrinker deletes a pair at a time) of floors drawn up to
    the highest floor count and lowered onto the top floor, so that dropping floors keeps
    the items' places (rather than redrawing them all).  A flag drawn first (the shrinker
    can turn it off) makes the start safe with `_safe_start`: drawn uniformly, about half
    the facilities with three pairs or more start unsafe, and an unsafe start shows
    nothing of how a formulation moves.  With `always_safe` every start is made safe.
    """
    safe = always_safe or draw(st.booleans())
    floors = draw(st.integers(*floors_range))
    floor = st.integers(0, floors_range[1] - 1).map(lambda value: min(value, floors - 1))
    pairs = draw(st.lists(st.tuples(floor, floor), min_size=pairs_range[0], max_size=pairs_range[1]))
    if safe:
        pairs = _safe_start(pairs)
    return elevator.Facility(name="hunted-facility", floors=floors,
                             elements=tuple(sorted(elevator.ELEMENT_NAMES[:len(pairs)])),
                             chips=tuple(chip for chip, _ in pairs), generators=tuple(gen for _, gen in pairs))


def _safe_start(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The (chip, generator) floors with every chip that would be fried moved onto its
    own generator's floor: a chip stays where it is if its generator is there too or no
    generator is; generators do not move, so the moved chips fry nothing either."""
    generator_floors = {generator for _, generator in pairs}
    return [(generator if chip in generator_floors else chip, generator) for chip, generator in pairs]
