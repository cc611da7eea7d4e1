"""A module of the plugin package that `entry` imports only inside a function: its class's
method is one a call on a receiver of unknown class may run, whether that import has run yet
or not."""

from __future__ import annotations


class _Late:
    def settle_rule(self) -> bool:
        return True
