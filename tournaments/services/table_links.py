"""Table links: each table of a round gets an unguessable token (the QR code on its printed
sheet) and a short code to type, which open the table's own page on the players' phones with
no account. This module issues, finds and revokes them; the rights of whoever holds a link
are `tournaments.domain.rights.TableSeat`'s.

A token is 32 URL-safe characters from `secrets` (192 bits). A code is 8 characters from an
alphabet with one of each look-alike pair (no O/0, I/1/L, S/5, B, Z, G, U/V), unique among the
live links; it is typed on the /t/ page, in any case and with or without its dash.

Guessing is slowed to a stop without stopping a venue (`open_by_code`, `open_by_token`). Wrong
codes and tokens are counted per phone (the table link's device cookie) and per address: at a
venue every phone shares the Wi-Fi's one address, so the address's limit
(`TABLE_CODE_ADDRESS_MISSES`, 300 a quarter of an hour) is sized for a hall of 64 tables and a
few typos at each, and a phone that has opened a table before is held only by its own limit
(`TABLE_CODE_DEVICE_MISSES`, 10): whoever guesses from the hall stops himself, not his
neighbours. A phone that throws its cookie away to start afresh is an unknown phone, held by
the address's limit. A right token always opens its table (it cannot be guessed anyway).
Check and count are one step (`guard.counters`): a typed code takes its place in the counts
before it is looked up, and gives it back when it was right. A draft round's code is a wrong
code, in its answer and in the counts.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from guard import counters
from tournaments.domain import lifecycle, rights
from tournaments.errors import NotFound, TooManyAttempts
from tournaments.models import Round, Table, TableLink
from tournaments.services import audit

CODE_ALPHABET = "2346789ACDEFHJKMNPQRTWXY"
CODE_LENGTH = 8
TOKEN_BYTES = 24
# secrets.token_urlsafe: the URL-safe base64 alphabet, 4 characters per 3 bytes.
TOKEN_PATTERN = re.compile(rf"[A-Za-z0-9_-]{{{TOKEN_BYTES * 4 // 3}}}")
# What a phone's device cookie may hold: the id the site gave it (anything else is no id).
DEVICE_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,32}")
# A phone that opened a table is known for a tournament day; a table's link makes at most
# this many phones known in that time (its players, a re-scan or two).
KNOWN_DEVICE_SECONDS = 24 * 3600
KNOWN_DEVICES_PER_TABLE = 8


def normalise_code(typed: str) -> str:
    """What a person typed, as stored: upper case, without spaces and dashes."""
    return "".join(ch for ch in typed.upper() if ch.isascii() and ch.isalnum())[:CODE_LENGTH * 2]


def display_code(code: str) -> str:
    """The code as printed and shown: two groups of four."""
    return f"{code[:4]}-{code[4:]}" if len(code) == CODE_LENGTH else code


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def _issue(table: Table, actor: Any) -> TableLink:
    # A code drawn twice among the live links (1 in 10^11 per pair) is drawn again.
    for _attempt in range(8):
        try:
            with transaction.atomic():
                return TableLink.objects.create(
                    table=table, token=secrets.token_urlsafe(TOKEN_BYTES), code=_new_code(),
                    created_by=actor if rights.is_signed_in(actor) else None)
        except IntegrityError:
            if TableLink.objects.filter(table=table, revoked_at__isnull=True).exists():
                return TableLink.objects.get(table=table, revoked_at__isnull=True)
    raise RuntimeError("no free table code after 8 draws")


def _issue_all(tables: list[Table], actor: Any) -> dict[int, TableLink]:
    """Links for all these tables in one insert ({table id: link}); should a code be drawn
    twice, they are issued one by one, each drawing again."""
    created_by = actor if rights.is_signed_in(actor) else None
    try:
        with transaction.atomic():
            links = TableLink.objects.bulk_create(
                TableLink(table=table, token=secrets.token_urlsafe(TOKEN_BYTES), code=_new_code(),
                          created_by=created_by) for table in tables)
            return {link.table_id: link for link in links}
    except IntegrityError:
        return {table.pk: _issue(table, actor) for table in tables}


@transaction.atomic
def links_ensure(*, rnd: Round, actor: Any = None, audited: bool = True) -> dict[int, TableLink]:
    """The live link of every table of the round, issuing the missing ones; idempotent.
    {table number: link}. An archive's import issues them unaudited: the restored audit trail
    is the archived one, and a link is not part of the results."""
    tables = list(rnd.tables.order_by("number"))
    live = {link.table_id: link for link in
            TableLink.objects.filter(table__round=rnd, revoked_at__isnull=True)}
    missing = [table for table in tables if table.pk not in live]
    if missing:
        live.update(_issue_all(missing, actor))
    out = {table.number: live[table.pk] for table in tables}
    issued = [table.number for table in missing]
    if issued and audited:
        audit.record(actor=actor, action="table_link.issue", target=rnd, event=rnd.event,
                     after={"tables": issued})
    return out


@transaction.atomic
def link_revoke(*, table: Table, actor: Any) -> TableLink:
    """Revoke the table's live link (a lost or photographed sheet) and issue a new one; the
    round's sheets are printed again with it."""
    rights.require_organiser(actor, table.round.event)
    old = TableLink.objects.select_for_update().filter(table=table, revoked_at__isnull=True).first()
    if old is not None:
        old.revoked_at = timezone.now()
        old.save(update_fields=["revoked_at"])
    new = _issue(table, actor)
    # The printed sheets carry the token: the round's sheets are rendered again.
    Round.objects.filter(pk=table.round_id).update(seating_version=table.round.seating_version + 1)
    audit.record(actor=actor, action="table_link.reissue", target=table, event=table.round.event,
                 table=table, before={"code": old.code} if old else None, after={"code": new.code})
    return new


def links_of_round(rnd: Round) -> dict[int, TableLink]:
    """{table id: live link} of a round, in one query (for the printed sheets)."""
    return {link.table_id: link for link in
            TableLink.objects.filter(table__round=rnd, revoked_at__isnull=True)}


def link_by_token(token: str) -> TableLink:
    """The live link of a token, with its table, round and event; NotFound otherwise (a
    revoked or mistyped token is answered like one that never existed)."""
    # Only the characters a token is made of reach the database (PostgreSQL refuses a NUL).
    if not TOKEN_PATTERN.fullmatch(token):
        raise NotFound(_("There is no table with this link."), field="token", code="not_found")
    link = (TableLink.objects.select_related("table__round__event", "table__scorecard")
            .filter(token=token, revoked_at__isnull=True).first())
    if link is None:
        raise NotFound(_("There is no table with this link."), field="token", code="not_found")
    return link


def link_by_code(typed: str) -> TableLink:
    code = normalise_code(typed)
    link = (TableLink.objects.select_related("table__round__event")
            .filter(code=code, revoked_at__isnull=True).first()) if len(code) == CODE_LENGTH else None
    if link is None:
        raise NotFound(_("There is no table with this code. Check the code on the sheet."),
                       field="code", code="not_found")
    return link


# ---------------------------------------------------------------------------------------
# Guessing (see the module's docstring)
# ---------------------------------------------------------------------------------------

def device_id(raw: str | None) -> str:
    """A phone's id from its cookie, or "" when the cookie holds something else."""
    return raw if raw and DEVICE_PATTERN.fullmatch(raw) else ""


def _known_key(device: str) -> str:
    return f"table-link-known:{device}"


def device_opened(device: str, link: TableLink) -> None:
    """This phone opened `link`'s table with a right code or token: from now on it is held only
    by its own count of wrong ones. A table's link makes at most `KNOWN_DEVICES_PER_TABLE`
    phones known a day: whoever holds one sheet cannot mint known phones (fresh cookies) to
    guess past the address's limit."""
    if not device or _is_known(device):
        return
    per_table = f"table-link-devices:{link.pk}"
    if counters.take(per_table, KNOWN_DEVICE_SECONDS) > KNOWN_DEVICES_PER_TABLE:
        counters.give_back(per_table)
        return
    counters.hold(_known_key(device), KNOWN_DEVICE_SECONDS)


def _is_known(device: str) -> bool:
    return bool(device) and counters.value(_known_key(device)) > 0


def _counts(device: str, address: str) -> list[tuple[str, int, bool]]:
    """(key, allowed, whether it holds this phone) of every count a miss goes into: the
    phone's own, and the address's, which holds only phones that never opened a table."""
    counts = [(f"table-link-miss:ip:{address}", settings.TABLE_CODE_ADDRESS_MISSES,
               not _is_known(device))]
    if device:
        counts.append((f"table-link-miss:device:{device}", settings.TABLE_CODE_DEVICE_MISSES, True))
    return counts


def _too_many() -> TooManyAttempts:
    return TooManyAttempts(_("Too many wrong codes from this phone. Wait a quarter of an hour, "
                             "scan the QR code on your table's sheet, or ask the referee."),
                           field="code", code="too_many_attempts")


def _take(device: str, address: str) -> list[str]:
    """Take a place in every count; TooManyAttempts (and nothing taken) when one that holds
    this phone is full."""
    window = settings.TABLE_CODE_MISS_WINDOW_SECONDS
    taken = []
    for key, allowed, holds in _counts(device, address):
        taken.append(key)
        if counters.take(key, window) > allowed and holds:
            for done in taken:
                counters.give_back(done)
            raise _too_many()
    return taken


def is_throttled(device: str, address: str) -> bool:
    """Whether this phone would be refused a typed code now (without counting)."""
    counts = _counts(device, address)
    found = counters.values([key for key, _allowed, _holds in counts])
    return any(holds and found[key] >= allowed for key, allowed, holds in counts)


def _open(link: TableLink | None) -> TableLink | None:
    """A link players may open: live and of a published round."""
    if link is None or lifecycle.is_draft(link.table.round):
        return None
    return link


def open_by_code(typed: str, *, device: str, address: str) -> TableLink:
    """The table a typed code opens, held by the counts of wrong codes: TooManyAttempts when
    this phone (or, for a phone that never opened a table, its address) guessed too often,
    NotFound for a wrong code or a draft round's."""
    taken = _take(device, address)
    try:
        link = _open(link_by_code(typed))
    except NotFound:
        link = None
    if link is None:
        raise NotFound(_("There is no table with this code. Check the code on the sheet."),
                       field="code", code="not_found")
    for key in taken:
        counters.give_back(key)
    device_opened(device, link)
    return link


def open_by_token(token: str, *, device: str, address: str) -> TableLink:
    """The table a token opens; a right token always does. A wrong one (or a draft round's)
    is NotFound and counted, TooManyAttempts once this phone guessed too often."""
    try:
        link = _open(link_by_token(token))
    except NotFound:
        link = None
    if link is not None:
        return link
    _take(device, address)
    raise NotFound(_("There is no table with this link."), field="token", code="not_found")
