"""The laptop's side of a venue hold (docs/venue.md), over HTTP to the federation's server:
take an event (its archive imported here, the key kept), push its state, hand it back.

A push sends the event's state with the laptop's version of it (the newest entry of its audit
trail: every change of the event leaves one, so a hand typed on an open card moves it too):
the first push the whole archive, each later one only what changed since the archive the server
last acknowledged (archive.delta, kept on the hold in parts), with the digest of the archive it
makes (archive.parts: each card counted by its own digest).
That archive is made from the acknowledged one by reading again only what may have changed
(archive.export_event_since), and exported whole at least every WHOLE_EXPORT_SECONDS.
The server applies a newer version and ignores an older one, so a push may be repeated or
overtaken without harm; a delta against a state the server does not hold is refused, and the
whole archive goes instead. What the server answered is kept on the hold
for the organiser's page: the version it acknowledged, or why not.

`transport` is the HTTP call (`http_json`, urllib); the tests give their own."""

from __future__ import annotations

import gzip
import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments import archive
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Event, VenueHold
from tournaments.runtime import collector
from tournaments.venue import services, state

TIMEOUT_SECONDS = 30
Transport = Callable[[str, str, dict, dict], tuple[int, dict]]


class Unreachable(Exception):
    """The server did not answer (no line, the server down, a timeout)."""


def http_json(method: str, url: str, payload: dict, headers: dict) -> tuple[int, dict]:
    """One JSON request, its body compressed; (status, answer). Unreachable when nothing
    answers."""
    body = gzip.compress(json.dumps(payload, ensure_ascii=False).encode("utf-8"))
    request = urllib.request.Request(url, data=body, method=method, headers={
        "Content-Type": "application/json", "Content-Encoding": "gzip",
        "Accept": "application/json", **headers})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:  # noqa: S310 - the organiser's server
            return response.status, _json(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, _json(exc.read())
    except (urllib.error.URLError, OSError) as exc:
        raise Unreachable(str(getattr(exc, "reason", exc))) from exc


def _json(raw: bytes) -> dict:
    try:
        answer = json.loads(raw or b"{}")
    except ValueError:
        return {}
    return answer if isinstance(answer, dict) else {}


def _endpoint(server_url: str, slug: str, action: str) -> str:
    return f"{server_url.rstrip('/')}/api/v1/events/{quote(slug, safe='')}/venue/{action}/"


def _problem(answer: dict, status: int) -> str:
    errors = answer.get("errors") if isinstance(answer.get("errors"), list) else []
    first = errors[0] if errors and isinstance(errors[0], dict) else {}
    return str(first.get("message") or _("the server answered %(status)s") % {"status": status})


def take(*, server_url: str, slug: str, token: str, actor: Any, holder: str = "",
         transport: Transport | None = None) -> Event:
    """Take the event `slug` from the server (with an organiser's API token there): its
    archive is imported here and the key kept; from now on the server shows it read-only."""
    transport = transport or http_json
    status, answer = transport("POST", _endpoint(server_url, slug, "take"), {"holder": holder},
                               {"Authorization": f"Token {token}"})
    if status != 200 or not isinstance(answer.get("archive"), dict) or not answer.get("key"):
        raise ServiceError(_problem(answer, status), field="server", code="take_refused")
    body = answer["archive"].get("event")
    if not isinstance(body, dict) or body.get("slug") != slug:
        raise ServiceError(_("The server answered with another event than %(slug)s.") % {"slug": slug},
                           field="server", code="other_event")
    return services.taken_from_server(doc=answer["archive"], server_url=server_url,
                                      key=str(answer["key"]), actor=actor)


def state_version(event: Event) -> int:
    """The laptop's version of the event: its newest audit entry."""
    return AuditEntry.objects.filter(event=event).aggregate(m=Max("pk"))["m"] or 0


def _send(event: Event, action: str, transport: Transport | None) -> dict[str, Any]:
    transport = transport or http_json
    hold = VenueHold.objects.filter(event=event, side=VenueHold.Side.HELD).first()
    if hold is None:
        raise ServiceError(_("This event was not taken from a server."), field="event",
                           code="not_held")
    if hold.revoked_at is not None:
        return {"ok": False, "error": _("The event went back to the server.")}
    # The collector waits while whole archives are read and made, and until those the push
    # does not send are gone (tournaments.runtime.collector); not while the push travels, on
    # a line that may take its time: the web process's own garbage is collected meanwhile.
    payload, kept, version = collector.run_paused(_payload, event, hold, action=action)
    url = _endpoint(hold.server_url, event.slug, action)
    try:
        status, answer = transport("POST", url, payload, {"X-Venue-Key": hold.key})
        if "delta" in payload and status == 409 and _code(answer) == "base_mismatch":
            # The server holds another state than the last one it acknowledged here (an
            # answer lost on the way): the whole archive then.
            payload, kept, version = collector.run_paused(_payload, event, hold, action=action,
                                                          whole=True)
            status, answer = transport("POST", url, payload, {"X-Venue-Key": hold.key})
    except Unreachable as exc:
        error = _("The server cannot be reached: %(reason)s") % {"reason": exc}
        services.push_failed(hold, error)
        return {"ok": False, "error": error}
    if status == 200:
        acknowledged = int(answer.get("version") or version)
        services.push_recorded(hold, acknowledged,
                               kept.packed() if acknowledged == version else b"")
        if action == "return":
            services.hold_revoked(hold, returned=True)
        return {"ok": True, "version": answer.get("version"), "applied": answer.get("applied"),
                "sent": "delta" if "delta" in payload else "archive"}
    error = _problem(answer, status)
    if status == 403:
        # The server took the event back (or never gave it with this key): stop for good.
        services.hold_revoked(hold, returned=False)
    else:
        services.push_failed(hold, error)
    return {"ok": False, "error": error}


def _payload(event: Event, hold: VenueHold, *, action: str, whole: bool = False
             ) -> tuple[dict[str, Any], archive.parts.Kept, int]:
    """The push's body, the archive it brings the server to as the hold keeps it, and the
    laptop's version of it: the whole archive (`whole`, or no push acknowledged yet), or what
    changed since the acknowledged one with the digest of the archive it makes."""
    previous = state.stored(hold) if hold.version and not whole else None
    doc, version = _exported(event, hold, previous, whole=whole or action == "return")
    kept = state.kept(doc)
    if previous is None:
        return {"version": version, "archive": doc}, kept, version
    return {"version": version, "base": hold.version, "delta": archive.delta.diff(previous, doc),
            "sha256": kept.digest()}, kept, version


# A whole export at least this often (seconds) on each process that pushes, and at the
# hand-back: what an export since the acknowledged archive would miss (a write that moved no
# card's version or time and left no entry in the trail, which no service makes, but an edit in
# Django's admin, a user renamed, does) then reaches the server all the same.
WHOLE_EXPORT_SECONDS = 300.0
_whole_exported_at: dict[int, float] = {}


def _exported(event: Event, hold: VenueHold, previous: dict | None, *, whole: bool
              ) -> tuple[dict, int]:
    """The event's archive and the laptop's version of it, read in one snapshot: made from the
    archive the server acknowledged by reading again what may have changed since
    (archive.export_event_since: a hand typed reads one card and the trail's new entries),
    or exported whole (`whole`: the last state, at the hand-back; the first push, or one due
    by WHOLE_EXPORT_SECONDS)."""
    due = whole or (time.monotonic() - _whole_exported_at.get(hold.pk, -WHOLE_EXPORT_SECONDS)
                    >= WHOLE_EXPORT_SECONDS)
    with archive.read_snapshot():
        doc = None
        if previous is not None and not due:
            doc = archive.export_event_since(event, previous, hold.version)
        if doc is None:
            doc = archive.export_event(event)
            _whole_exported_at[hold.pk] = time.monotonic()
        return doc, state_version(event)


def _code(answer: dict) -> str:
    errors = answer.get("errors") if isinstance(answer.get("errors"), list) else []
    return str(errors[0].get("code") or "") if errors and isinstance(errors[0], dict) else ""


def push(event: Event, *, transport: Transport | None = None) -> dict[str, Any]:
    """Send the event's state to the server; what it answered ({"ok", "version", "applied",
    "sent": "archive" or "delta"}, or {"ok": false, "error"})."""
    return _send(event, "push", transport)


def hand_back(event: Event, *, transport: Transport | None = None) -> dict[str, Any]:
    """Send the last state and give the event back to the server: this laptop then writes
    nothing more to it."""
    return _send(event, "return", transport)
