"""Imported once by the forkserver that starts isolated runs (see `crosscheck.harness.runs.runner`).

Every run's child process is forked from that server, so whatever is loaded here is
loaded once instead of once per run: the command's script, the plugins (entry points, and
the modules named in ``CROSSCHECK_SOLVERS`` when the server starts, with the version of each
as imported, `crosscheck.harness.records.versions.note_imported`; the built-in formulations
the runs need are further modules of the server's preload list, `crosscheck.harness.runs.runner._context`),
and the environment facts every record carries (their versions and git commit cost a
subprocess and several package look-ups, which a hunt over thousands of tiny instances
would otherwise pay per run).

First of all it takes the command's module search path and imports the command's script
(`crosscheck.harness.runs.server_start.take_command_imports`; the server started without the
current folder on its path), so that it imports the same modules from the same files as
the command: never a namesake of crosscheck, of a library or of a plugin in the current folder.
"""

from __future__ import annotations

from crosscheck.harness.runs.server_start import take_command_imports

take_command_imports()

import crosscheck.harness.independence.sharing  # noqa: E402, F401  (every run records what its solver shares)
import crosscheck.harness.runs.runner  # noqa: E402, F401  (the child's entry point and everything it imports)
from crosscheck.harness.records.record import environment  # noqa: E402
from crosscheck.harness.records.versions import note_imported  # noqa: E402
from crosscheck.solvers.registry import load_plugins  # noqa: E402

load_plugins()
note_imported()
environment()
