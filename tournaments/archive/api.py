"""HTTP entry points of the archive format (docs/archive-format.md), routed by
`tournaments.archive.urls` under /api/v1/:

- GET  archive/events/<slug>/                 the event's archive file (its organisers, staff)
- POST archive/events/                        import an event archive (staff)

A GET answers exactly the bytes `manage.py export_event` writes. A POST takes the archive as
the JSON body or, for files larger than a request body may be, as the multipart file field
`archive`; a refused archive answers 400 with every problem at its path, and nothing is
written. Thin: they check the role, call `tournaments.archive`, answer. The season archive's
views (leagues.archive_api) use the same file response and upload reading from here.
"""

from __future__ import annotations

from typing import Any

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
from tournaments.errors import Forbidden, ServiceError
from tournaments.models import Hand


class ArchiveUploadSerializer(serializers.Serializer):
    archive = serializers.FileField(help_text="the archive file (JSON)")


ARCHIVE_FILE = OpenApiResponse(OpenApiTypes.OBJECT, description="the archive file (docs/archive-format.md)")
IMPORT_REQUEST = {"application/json": OpenApiTypes.OBJECT, "multipart/form-data": ArchiveUploadSerializer}


def file_response(text: str, filename: str) -> HttpResponse:
    return HttpResponse(text.encode("utf-8"), content_type="application/json; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{filename}"'})


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
        return archive.loads(upload.read())
    try:
        body = request.body
    except RequestDataTooBig as exc:
        raise ServiceError(_("the archive is larger than a request body may be: send it as the "
                             "multipart file field 'archive', or use manage.py import_event"),
                           field="archive", code="too_large") from exc
    return archive.loads(body)


class EventArchiveView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=["archives"], summary="The archive of an event (organisers and staff)",
                   responses={200: ARCHIVE_FILE, **refusals(403, 404)}, operation_id="archive_event_export")
    def get(self, request: Request, slug: str) -> HttpResponse:
        event = permissions.visible_event(request.user, slug)
        permissions.require_organiser(request.user, event)
        with archive.read_snapshot():
            text = archive.dumps(archive.export_event(event))
        return file_response(text, f"{event.slug}.json")


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
