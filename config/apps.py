"""The project's own app configuration: loads the system checks of the deployment
(config.checks)."""

from django.apps import AppConfig


class ProjectConfig(AppConfig):
    name = "config"
    label = "project"
    verbose_name = "Project"

    def ready(self) -> None:
        from config import checks  # noqa: F401  (registers the checks)
