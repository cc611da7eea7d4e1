"""A module of the plugin package that nothing in it imports: no object of its class can
reach `entry`'s formulations, so its same-named method is not in their footprints.  Importing
it would fail (below): a module nothing imports is never imported to compute a footprint."""

from __future__ import annotations

raise ImportError("tests.footprint_plugin.unrelated is never to be imported")


class _Stranger:
    def settle_rule(self) -> bool:
        return False
