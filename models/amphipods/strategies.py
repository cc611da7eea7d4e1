"""Hypothesis strategies that draw valid burrows, and the published inputs' shape.

Burrows of depth 1 to 5 in any arrangement, including amphipods already settled at the bottom
of their rooms, and arrangements with no solution; shrinking moves toward fewer swaps away
from the sorted burrow.  The published inputs are of depth 2 or 4 with an empty hallway.
"""

from __future__ import annotations

from collections.abc import Mapping

from crosscheck.models.amphipods import model as amphipods
from crosscheck.models.puzzle import Range
from hypothesis import strategies as st


def instances(ranges: Mapping[str, Range], published: bool) -> st.SearchStrategy[amphipods.Burrow]:
    """Burrows of a depth in `ranges`; with `published`, of depth 2 or 4 only (`ValueError`
    when the range holds neither)."""
    if not published:
        return burrows(ranges["depth"])
    depths = [d for d in range(ranges["depth"][0], ranges["depth"][1] + 1) if d in (2, 4)]
    if not depths:
        raise ValueError(f"depth={ranges['depth'][0]}-{ranges['depth'][1]} holds no published depth (2 or 4)")
    return st.sampled_from(depths).flatmap(lambda depth: burrows((depth, depth)))


@st.composite
def burrows(draw: st.DrawFn, depth_range: Range) -> amphipods.Burrow:
    """A burrow: the sorted one with some pairs of cells exchanged (none: already sorted;
    enough: any arrangement).  Cells are numbered up to the deepest depth and wrap
    around, so a shallower burrow keeps most of the exchanges."""
    depth = draw(st.integers(*depth_range))
    cells = [kind for kind in amphipods.KINDS for _ in range(depth)]
    cell = st.integers(0, 4 * depth_range[1] - 1).map(lambda value: value % len(cells))
    for i, j in draw(st.lists(st.tuples(cell, cell), max_size=3 * len(cells))):
        cells[i], cells[j] = cells[j], cells[i]
    a, b, c, d = ("".join(cells[r * depth:(r + 1) * depth]) for r in range(4))
    return amphipods.Burrow(name="hunted-burrow", rooms=(a, b, c, d))
