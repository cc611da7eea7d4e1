"""A plugin package whose formulations' footprints need more than the modules they import
(tests/test_sharing_rules.py): `entry` holds the formulations, `unloaded` a class that
`entry` never imports but whose method a call on a receiver of unknown class may run."""
