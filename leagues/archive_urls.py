"""API routes of the archives of a league season and of a cup series, included under /api/v1/ by config/urls.py."""

from django.urls import path

from leagues import archive_api

urlpatterns = [
    path("archive/seasons/", archive_api.SeasonArchiveImportView.as_view(), name="api-archive-season-import"),
    path("archive/seasons/<slug:league>/<slug:season>/", archive_api.SeasonArchiveView.as_view(),
         name="api-archive-season"),
    path("archive/cups/", archive_api.CupArchiveImportView.as_view(), name="api-archive-cup-import"),
    path("archive/cups/<slug:slug>/", archive_api.CupArchiveView.as_view(), name="api-archive-cup"),
]
