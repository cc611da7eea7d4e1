"""A plugin package whose formulation keeps its rule in a helper module (tests/test_plugin_source.py):
`lifts` holds the formulation and imports `rules`; `unused` is a module of the package that
nothing imports."""
