"""The project's own app configuration: loads the system checks of the deployment
(config.checks) and the counting of failed sign-ins (config.login_limit), and holds the
rate limits' counts (config.models)."""

from django.apps import AppConfig


class ProjectConfig(AppConfig):
    name = "config"
    label = "project"
    verbose_name = "Project"

    def ready(self) -> None:
        from config import checks, login_limit  # noqa: F401  (registers checks and receivers)
