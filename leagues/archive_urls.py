"""API routes of a league season's archive, included under /api/v1/ by config/urls.py."""

from django.urls import path

from leagues import archive_api

urlpatterns = [
    path("archive/seasons/", archive_api.SeasonArchiveImportView.as_view(), name="api-archive-season-import"),
    path("archive/seasons/<slug:league>/<slug:season>/", archive_api.SeasonArchiveView.as_view(),
         name="api-archive-season"),
]
