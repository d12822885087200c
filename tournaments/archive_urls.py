"""API routes of the archive format, included under /api/v1/ by config/urls.py."""

from django.urls import path

from tournaments import archive_api

urlpatterns = [
    path("archive/events/", archive_api.EventArchiveImportView.as_view(), name="api-archive-event-import"),
    path("archive/events/<slug:slug>/", archive_api.EventArchiveView.as_view(), name="api-archive-event"),
]
