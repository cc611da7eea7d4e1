"""An optional accelerator of `entry` whose dependency is missing: importing it fails, so
its code can run nowhere here and the footprint leaves it out (it must not fail on it)."""

from __future__ import annotations

import a_dependency_not_installed_here  # type: ignore[import-not-found]  # noqa: F401
