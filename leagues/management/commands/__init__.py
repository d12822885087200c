"""`manage.py export_season` and `import_season`: season archives (docs/archive-format.md)."""
