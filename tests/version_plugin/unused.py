"""A module of the plugin package that its formulation never imports: not its code."""

UNUSED = True
