"""A module of the plugin package that `entry` does not import: its class's method is one a
call on a receiver of unknown class may run all the same (an object of it could be handed in)."""

from __future__ import annotations


class _Late:
    def settle_rule(self) -> bool:
        return True
