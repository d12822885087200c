"""HTTP entry points of the archive format (docs/archive-format.md), routed by
`tournaments.archive.urls` under /api/v1/:

- GET  archive/events/<slug>/                 the event's archive file (its organisers, staff)
- POST archive/events/                        import an event archive (staff)

A GET answers exactly the bytes `manage.py export_event` writes, compressed with gzip
(`Content-Encoding: gzip`) when the request accepts it. A POST takes the archive as the JSON
body or, for files larger than a request body may be, as the multipart file field `archive`,
either of them compressed with gzip or not; a refused archive answers 400 with every problem at its path, and nothing is
written. Thin: they check the role, call `tournaments.archive`, answer. The season archive's
views (leagues.archive_api) use the same file response and upload reading from here.
"""

from __future__ import annotations

import gzip
import zlib
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import archive
from tournaments.api import permissions
from tournaments.api.parsers import MultiPartParser
from tournaments.api.schema import refusals
from tournaments.domain import rights
from tournaments.errors import Forbidden, ServiceError, TooLarge
from tournaments.models import Hand


class ArchiveUploadSerializer(serializers.Serializer):
    archive = serializers.FileField(help_text="the archive file (JSON)")


ARCHIVE_FILE = OpenApiResponse(OpenApiTypes.OBJECT, description="the archive file (docs/archive-format.md)")
IMPORT_REQUEST = {"application/json": OpenApiTypes.OBJECT, "multipart/form-data": ArchiveUploadSerializer}


def file_response(text: str, filename: str, request: Any = None) -> HttpResponse:
    """The archive file as an attachment; compressed with gzip (`Content-Encoding: gzip`, the
    file's bytes unchanged once inflated) when the request accepts it: an archive is JSON of
    some 3 KB a hand, 150 bytes compressed."""
    body = text.encode("utf-8")
    headers = {"Content-Disposition": f'attachment; filename="{filename}"', "Vary": "Accept-Encoding"}
    if request is not None and _accepts_gzip(request):
        # Level 1: the fastest, within a few per cent of the best on an archive's repetitive
        # JSON; a large file is compressed in the request.
        body = gzip.compress(body, compresslevel=1)
        headers["Content-Encoding"] = "gzip"
    return HttpResponse(body, content_type="application/json; charset=utf-8", headers=headers)


def _accepts_gzip(request: Any) -> bool:
    """Whether Accept-Encoding names gzip without refusing it (`gzip;q=0`)."""
    for part in request.headers.get("Accept-Encoding", "").split(","):
        name, _sep, params = part.strip().partition(";")
        if name.strip().lower() in ("gzip", "x-gzip"):
            q = params.strip().removeprefix("q=").strip()
            try:
                return not params.strip().startswith("q=") or float(q) > 0
            except ValueError:
                return False
    return False


def inflated(raw: bytes) -> bytes:
    """An archive sent compressed with gzip (the file itself, or a body with
    `Content-Encoding: gzip`) as its JSON bytes; at most ARCHIVE_MAX_BYTES once inflated (a
    compressed bomb is refused, not inflated). Bytes that are not gzip are returned as they
    are: JSON never begins with gzip's magic bytes."""
    if not raw.startswith(b"\x1f\x8b"):
        return raw
    limit = settings.ARCHIVE_MAX_BYTES
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = inflater.decompress(raw, limit + 1)
    except zlib.error as exc:
        raise ServiceError(_("the archive is not valid gzip"), field="archive", code="invalid") from exc
    if len(out) > limit or inflater.unconsumed_tail:
        raise TooLarge(_("the archive is larger than this server takes"), field="archive",
                       code="too_large")
    if not inflater.eof:
        raise ServiceError(_("the archive is not valid gzip"), field="archive", code="invalid")
    return out


def require_staff(user: Any) -> None:
    if not rights.is_staff(user):
        raise Forbidden(_("only staff may import archives"), code="not_staff")


def archive_document(request: Request) -> Any:
    """The archive sent: the multipart file `archive`, or else the raw JSON body (read as
    bytes, so a file that is not JSON is refused in the archive's own error shape)."""
    if (request.content_type or "").startswith("multipart/form-data"):
        upload = request.FILES.get("archive")
        if upload is None:
            raise ServiceError(_("send the archive as the file field 'archive'"), field="archive",
                               code="required")
        return archive.loads(inflated(upload.read()))
    try:
        body = request.body
    except RequestDataTooBig as exc:
        raise ServiceError(_("the archive is larger than a request body may be: send it as the "
                             "multipart file field 'archive', or use manage.py import_event"),
                           field="archive", code="too_large") from exc
    return archive.loads(inflated(body))


class EventArchiveView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=["archives"], summary="The archive of an event (organisers and staff)",
                   responses={200: ARCHIVE_FILE, **refusals(403, 404)}, operation_id="archive_event_export")
    def get(self, request: Request, slug: str) -> HttpResponse:
        event = permissions.visible_event(request.user, slug)
        permissions.require_organiser(request.user, event)
        with archive.read_snapshot():
            text = archive.dumps(archive.export_event(event))
        return file_response(text, f"{event.slug}.json", request)


class EventArchiveImportView(APIView):
    permission_classes = [IsAuthenticated]
    # A JSON body is read raw (see archive_document); only file uploads go through a parser.
    parser_classes = [MultiPartParser]

    @extend_schema(tags=["archives"], summary="Import an event archive, all or nothing (staff)",
                   request=IMPORT_REQUEST, responses={201: OpenApiTypes.OBJECT, **refusals(400, 403)},
                   operation_id="archive_event_import")
    def post(self, request: Request) -> Response:
        require_staff(request.user)
        event = archive.import_event(archive_document(request), actor=request.user)
        return Response({
            "event": event.slug,
            "registrations": event.registrations.count(),
            "rounds": event.rounds.count(),
            "hands": Hand.objects.filter(scorecard__table__round__event=event).count(),
        }, status=status.HTTP_201_CREATED)
