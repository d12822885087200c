"""API routes of the archive format, included under /api/v1/ by config/urls.py."""

from django.urls import path

from tournaments.archive import api

urlpatterns = [
    path("archive/events/", api.EventArchiveImportView.as_view(), name="api-archive-event-import"),
    path("archive/events/<slug:slug>/", api.EventArchiveView.as_view(), name="api-archive-event"),
]
