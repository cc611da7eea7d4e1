"""crosscheck: cross-validate independent formulations of combinatorial search puzzles.

Everything installs under this one name, mapped from the repository's top-level folders:

- `crosscheck.models`: what each puzzle is (parsers, rules, generators, plan checkers);
- `crosscheck.solvers`: its formulations, every one answering with the same `Result`;
- `crosscheck.harness`: runs, cross-checks, records, reports and the command line.
"""


def __getattr__(name: str) -> str:
    """``crosscheck.__version__``, read from the installed distribution only when asked
    (importing the package stays free of metadata look-ups)."""
    if name != "__version__":
        raise AttributeError(f"module 'crosscheck' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("crosscheck")
    except PackageNotFoundError:  # a source tree that was never installed
        return "0+unknown"
