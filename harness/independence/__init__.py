"""independence."""
