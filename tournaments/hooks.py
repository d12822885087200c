"""What other modules and apps add to the tournaments app, registered in their
AppConfig.ready(): sections of a player's public page and of the organiser's dashboard, tabs
of an event's public pages, the records they keep of a player (which follow him when two
records of one person are merged), the archives they add to a backup, and who hears of
audited changes and of changed results (the ratings, the background PDFs). Dependencies run
one way (rankings → leagues → tournaments): the modules that write the audit trail never
import what listens to it; they ask this registry."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PlayerSection:
    """A part of a player's page: `build(player)` answers the template's context, or None when
    the app has nothing public to show of him."""

    template: str
    build: Callable[[Any], dict[str, Any] | None]


_player_sections: list[PlayerSection] = []


def register_player_section(section: PlayerSection) -> None:
    if section not in _player_sections:
        _player_sections.append(section)


def player_sections(player: Any) -> list[tuple[str, dict[str, Any]]]:
    """(template, context) of every registered section with something to show."""
    out = []
    for section in _player_sections:
        context = section.build(player)
        if context:
            out.append((section.template, context))
    return out


@dataclass(frozen=True)
class EventTab:
    """A public page of an event another app adds to the event's tabs: the URL's name (taking
    the event's slug), a short label (a lazy translation) and the `tab` its page marks as
    current."""

    url_name: str
    label: Any
    tab: str


_event_tabs: list[EventTab] = []


def register_event_tab(tab: EventTab) -> None:
    if all(t.url_name != tab.url_name for t in _event_tabs):
        _event_tabs.append(tab)


def event_tabs() -> list[EventTab]:
    return list(_event_tabs)


@dataclass(frozen=True)
class PlayerRecords:
    """What an app keeps of a player, for merging two records of one person
    (`tournaments.services.player_registry.player_merge`):

    - `conflicts(keep, duplicate)`: the contract errors (`{"hand", "field", "code",
      "message"}`) that forbid the merge, such as both records in one league season;
    - `move(keep, duplicate, actor)`: moves the duplicate's records to `keep` inside the
      merge's transaction (auditing them) and answers what it moved, for the merge's entry;
    - `describe(player)`: short labels of what the player has there, shown before merging.
    """

    name: str
    conflicts: Callable[[Any, Any], list[dict[str, Any]]]
    move: Callable[[Any, Any, Any], Any]
    describe: Callable[[Any], list[str]]


_player_records: list[PlayerRecords] = []


def register_player_records(records: PlayerRecords) -> None:
    if all(r.name != records.name for r in _player_records):
        _player_records.append(records)


def player_records() -> list[PlayerRecords]:
    return list(_player_records)


@dataclass(frozen=True)
class DashboardSection:
    """A part of the organiser's dashboard: `build(user)` answers the template's context, or
    None when the app has nothing for him."""

    template: str
    build: Callable[[Any], dict[str, Any] | None]


_dashboard_sections: list[DashboardSection] = []


def register_dashboard_section(section: DashboardSection) -> None:
    if section not in _dashboard_sections:
        _dashboard_sections.append(section)


def dashboard_sections(user: Any) -> list[tuple[str, dict[str, Any]]]:
    """(template, context) of every registered section with something for `user`."""
    out = []
    for section in _dashboard_sections:
        context = section.build(user)
        if context:
            out.append((section.template, context))
    return out


@dataclass(frozen=True)
class BackupProvider:
    """Archives an app adds to a backup (`tournaments.archive.write_backup`):

    - `documents()`: (relative path, kind, name, document) of each archive it writes;
    - `events_covered()`: ids of the events those documents already hold, which the backup
      then does not write again on their own;
    - `after_events`: its documents come after every event in the backup (and so are
      imported after them): documents that name events without holding them, such as cup
      series.
    """

    name: str
    documents: Callable[[], Any]
    events_covered: Callable[[], set[int]]
    after_events: bool = False


_backup_providers: list[BackupProvider] = []


def register_backup_provider(provider: BackupProvider) -> None:
    if all(p.name != provider.name for p in _backup_providers):
        _backup_providers.append(provider)


def backup_providers() -> list[BackupProvider]:
    return list(_backup_providers)


# Called by `tournaments.services.audit.record` for every audited change of an event, inside the
# change's transaction: `listener(action, event, target)`. Apps that derive something from an
# event's results (the rankings' ratings) queue their work from here, after the commit.
_audit_listeners: list[Callable[[str, Any, Any], None]] = []


def register_audit_listener(listener: Callable[[str, Any, Any], None]) -> None:
    if listener not in _audit_listeners:
        _audit_listeners.append(listener)


# Demo data of each app, in the order the apps are ready: (slug, builder) pairs that
# `manage.py seed_demo` runs (a builder is idempotent and answers what it built).
_demos: list[tuple[str, Callable[[], Any]]] = []


def register_demos(demos: list[tuple[str, Callable[[], Any]]]) -> None:
    for slug, build in demos:
        if all(known != slug for known, _build in _demos):
            _demos.append((slug, build))


def demos() -> list[tuple[str, Callable[[], Any]]]:
    return list(_demos)


_results_listeners: list[Callable[[Any], None]] = []


def register_results_listener(listener: Callable[[Any], None]) -> None:
    """`listener(event)` is called by every audited change that may change what the event's
    public pages show (the change that bumps its results version)."""
    if listener not in _results_listeners:
        _results_listeners.append(listener)


def results_changed(event: Any) -> None:
    for listener in _results_listeners:
        listener(event)


def audited(action: str, event: Any, target: Any) -> None:
    for listener in _audit_listeners:
        listener(action, event, target)


# Called by `tournaments.services.audit.record` for every audited change of an event this
# installation holds from a federation's server (a venue's laptop, docs/venue.md), inside the
# change's transaction: `listener(event)`. The venue room pushes the event's new state from
# here, after the commit.
_held_listeners: list[Callable[[Any], None]] = []


def register_held_event_listener(listener: Callable[[Any], None]) -> None:
    if listener not in _held_listeners:
        _held_listeners.append(listener)


def held_event_changed(event: Any) -> None:
    for listener in _held_listeners:
        listener(event)
