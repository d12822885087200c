"""API routes of the rankings (included under /api/v1/)."""

from django.urls import path

from rankings import api

urlpatterns = [
    path("rankings/<slug:family>/", api.RankingView.as_view(), name="api-ranking"),
    path("rankings/<slug:family>/points/", api.PointsView.as_view(), name="api-points"),
]
