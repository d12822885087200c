"""API routes of the scoring engine."""

from django.urls import path

from scoring import api

urlpatterns = [
    path("score/", api.ScoreView.as_view(), name="api-score"),
    path("rulesets/", api.RulesetListView.as_view(), name="api-rulesets"),
    path("rulesets/<str:code>/", api.RulesetDetailView.as_view(), name="api-ruleset"),
]
