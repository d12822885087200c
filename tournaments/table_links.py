"""Table links: each table of a round gets an unguessable token (the QR code on its printed
sheet) and a short code to type, which open the table's own page on the players' phones with
no account. This module issues, finds and revokes them; the rights of whoever holds a link
are `tournaments.rights.TableSeat`'s.

A token is 32 URL-safe characters from `secrets` (192 bits). A code is 8 characters from an
alphabet with one of each look-alike pair (no O/0, I/1/L, S/5, B, Z, G, U/V), unique among the
live links; it is typed on the /t/ page, in any case and with or without its dash.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import audit, rights
from tournaments.errors import NotFound
from tournaments.models import Round, Table, TableLink

CODE_ALPHABET = "2346789ACDEFHJKMNPQRTWXY"
CODE_LENGTH = 8
TOKEN_BYTES = 24
# secrets.token_urlsafe: the URL-safe base64 alphabet, 4 characters per 3 bytes.
TOKEN_PATTERN = re.compile(rf"[A-Za-z0-9_-]{{{TOKEN_BYTES * 4 // 3}}}")


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


def live_link(table: Table) -> TableLink | None:
    return TableLink.objects.filter(table=table, revoked_at__isnull=True).first()


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
