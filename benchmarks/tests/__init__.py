"""Tests of the benchmark scripts' own code (`benchmarks`): options, judging, the results file,
the fault audit's machinery.  They run with the project's tests (pyproject.toml's
``testpaths``) but import nothing from ``tests/``, nor does ``tests/`` import the benchmarks."""
