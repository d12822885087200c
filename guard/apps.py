"""The guard's app configuration: the counting of sign-ins hears Django's sign-in signal."""

from django.apps import AppConfig


class GuardConfig(AppConfig):
    name = "guard"
    verbose_name = "Guard against guessing"

    def ready(self) -> None:
        from guard import login_limit  # noqa: F401  (registers its signal receiver)
