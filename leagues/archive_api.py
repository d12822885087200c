"""HTTP entry points of the archives of a league season and of a cup series, routed by
`leagues.archive_urls` under /api/v1/:

- GET  archive/seasons/<league>/<season>/     a league season's archive (league organisers, staff)
- POST archive/seasons/                       import a season archive (staff)
- GET  archive/cups/<slug>/                   a cup series' archive (its organisers, staff)
- POST archive/cups/                          import a cup series' archive (staff)

They live in the leagues app because leagues build on tournaments, never the other way round;
the file response and the upload reading are the event archive's (tournaments.archive.api).
"""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from leagues import archive as season_archive
from leagues import archive_cups as cup_archive
from leagues import roles as league_roles
from leagues.api.serializers import CupArchiveImportedSerializer, SeasonArchiveImportedSerializer
from tournaments import archive
from tournaments.api.parsers import MultiPartParser
from tournaments.api.schema import refusals
from tournaments.archive.api import (
    ARCHIVE_FILE,
    IMPORT_REQUEST,
    archive_document,
    file_response,
    require_staff,
)
from tournaments.errors import Forbidden, NotFound


class SeasonArchiveView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=["archives"], summary="The archive of a league season (league organisers and staff)",
                   responses={200: ARCHIVE_FILE, **refusals(403, 404)}, operation_id="archive_season_export")
    def get(self, request: Request, league: str, season: str) -> HttpResponse:
        found = season_archive.season_by_slugs(league, season)
        if found is None or not league_roles.can_view_league(request.user, found.league):
            raise NotFound(_("league %(league)s has no season %(season)s")
                           % {"league": league, "season": season}, field="season", code="not_found")
        if not league_roles.can_organise_league(request.user, found.league):
            raise Forbidden(_("only the organisers of %(league)s may do this") % {"league": league},
                            code="not_organiser")
        with archive.read_snapshot():
            text = archive.dumps(season_archive.export_season(found))
        return file_response(text, f"{league}-{season}.json", request)


class SeasonArchiveImportView(APIView):
    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]

    @extend_schema(tags=["archives"], summary="Import a league season archive, all or nothing (staff)",
                   request=IMPORT_REQUEST, responses={201: SeasonArchiveImportedSerializer, **refusals(400, 403)},
                   operation_id="archive_season_import")
    def post(self, request: Request) -> Response:
        require_staff(request.user)
        season = season_archive.import_season(archive_document(request), actor=request.user)
        return Response(SeasonArchiveImportedSerializer(season).data, status=status.HTTP_201_CREATED)


class CupArchiveView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=["archives"], summary="The archive of a cup series (its organisers and staff)",
                   responses={200: ARCHIVE_FILE, **refusals(403, 404)}, operation_id="archive_cup_export")
    def get(self, request: Request, slug: str) -> HttpResponse:
        found = cup_archive.cup_by_slug(slug)
        if found is None or not league_roles.can_view_cup(request.user, found):
            raise NotFound(_("there is no cup series %(slug)s") % {"slug": slug}, field="cup",
                           code="not_found")
        if not league_roles.can_organise_cup(request.user, found):
            raise Forbidden(_("only the organisers of %(cup)s may do this") % {"cup": slug},
                            code="not_organiser")
        with archive.read_snapshot():
            text = archive.dumps(cup_archive.export_cup(found))
        return file_response(text, f"{slug}.json", request)


class CupArchiveImportView(APIView):
    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]

    @extend_schema(tags=["archives"], summary="Import a cup series' archive, all or nothing (staff)",
                   request=IMPORT_REQUEST, responses={201: CupArchiveImportedSerializer, **refusals(400, 403)},
                   operation_id="archive_cup_import")
    def post(self, request: Request) -> Response:
        require_staff(request.user)
        series = cup_archive.import_cup(archive_document(request), actor=request.user)
        return Response(CupArchiveImportedSerializer(series).data, status=status.HTTP_201_CREATED)
