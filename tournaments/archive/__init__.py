"""The open archive format of an event (docs/archive-format.md): export an event with
everything needed to rebuild it, write it as deterministic JSON, and import such a file into
another database.

Responsibilities:
- `export_event(event) -> dict` and `dumps(doc) -> str`: the archive as a document with natural
  keys only (start numbers, round, table and hand numbers, usernames), no database ids, UTC
  timestamps, lists in a stable order; `dumps` sorts keys, so export, import into an empty
  database and export again gives the same bytes.
- `validate_event(doc) -> list of errors` and `import_event(doc, actor) -> Event`: the whole
  file is checked before anything is written (format, version, kind, every key and value,
  every reference, and every stored score against the scoring engine) and refused with every
  problem listed at its path (`event.rounds[0].tables[2].seats[1].start_number`); then the
  event is written in one transaction, re-scored from the database once more, and an
  `archive.import` audit entry records the import.

This package is a service of its own: it writes the models directly rather than through
`tournaments.services`, because replaying the services would renumber versions, restamp
every time and add audit entries, and the archive must come back exactly as it was.

The package, one module per step: `format` (names, versions, fields, JSON), `export`,
`check` (the checker, the header, players and users), `check_event` (an event's body and its
references), `verify` (stored scores against the engine), `write`, `importing` (the entry
points) and `backup` (files and backup folders). Their building blocks are shared with
`leagues.archive`, whose season archives embed events. What other modules call is named here.
"""

from tournaments.archive.backup import read_file, write_backup, write_file
from tournaments.archive.export import export_event
from tournaments.archive.format import dumps, loads
from tournaments.archive.importing import import_event, read_snapshot, validate_event

__all__ = ["dumps", "export_event", "import_event", "loads", "read_file", "read_snapshot",
           "validate_event", "write_backup", "write_file"]
