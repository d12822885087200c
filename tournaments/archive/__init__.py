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
references), `verify` (stored scores against the engine), `write`, `write_changes` (an event
brought from one archive of it to the next, writing what changed), `delta` (what changed
between two archives, as a patch), `parts` (an archive kept with each card apart), `importing` (the entry points) and `backup` (files and
backup folders). Their building blocks are shared with
`leagues.archive` and `leagues.archive_cups`, whose season and cup archives embed events.

What other modules call is named here: the apps above tournaments import this package, never
its modules (import-linter's front-door contract), but for `archive.api`, the toolkit of the
archive's endpoints, which the leagues' archive endpoints share.
"""

from tournaments.archive import delta, parts
from tournaments.archive.backup import read_file, write_backup, write_file
from tournaments.archive.check import Checker, check_header, check_player, ensure_users
from tournaments.archive.check_event import ImportContext, check_event_body, resolve_players
from tournaments.archive.check_refs import check_audit_list
from tournaments.archive.export import audit_out, event_body, export_event, export_event_since
from tournaments.archive.format import (
    FORMAT,
    IMPORT_ACTION,
    LOCAL_ACTIONS,
    VERSION,
    dumps,
    exported_with,
    loads,
    plain,
    player_key,
    username,
    usernames_of,
)
from tournaments.archive.importing import (
    atomic_import,
    import_event,
    read_snapshot,
    record_import,
    refuse_if_rescored_differently,
    replace_event,
    update_event,
    validate_event,
)
from tournaments.archive.write import Stamps, write_audit, write_event_body

__all__ = [
    # An event's archive, whole.
    "dumps", "export_event", "import_event", "loads", "read_file", "read_snapshot",
    "validate_event", "write_backup", "write_file",
    # An event brought in place to the state of its archive (a venue's push), what changed
    # between two archives of it (`delta`: diff, patch, digest), and its archive made from an
    # earlier one by reading again what may have changed since (`export_event_since`).
    "delta", "export_event_since", "replace_event", "update_event",
    # An event's archive kept in parts, each card apart (a venue hold's kept archive).
    "parts",
    # The building blocks of the archives that embed events (leagues.archive, archive_cups).
    "FORMAT", "IMPORT_ACTION", "LOCAL_ACTIONS", "VERSION", "Checker", "ImportContext", "Stamps",
    "atomic_import", "audit_out", "check_audit_list", "check_event_body", "check_header",
    "check_player", "ensure_users", "event_body", "exported_with", "plain", "player_key",
    "record_import", "refuse_if_rescored_differently", "resolve_players", "username",
    "usernames_of", "write_audit", "write_event_body",
]
