"""Django app configuration of the scoring app (management command and API views only; the
engine itself is framework-free)."""

from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring engine"
