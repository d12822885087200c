"""A real mail server for the tests (aiosmtpd, in the test process): Django's SMTP backend
talks to it, and a test reads what it received as a mail server would (issue #31)."""

from __future__ import annotations

import email
import socket
from email import policy

import pytest
from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Inbox:
    """What the SMTP server received: one parsed e-mail per message."""

    def __init__(self) -> None:
        self.mails: list[email.message.EmailMessage] = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's name
        self.mails.append(email.message_from_bytes(envelope.content, policy=policy.default))
        return "250 OK"

    def to(self, address: str) -> list[email.message.EmailMessage]:
        return [m for m in self.mails if m["To"] == address]


def point_django_at(settings, port: int) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_TIMEOUT = 5
    settings.EMAIL_CONFIGURED = True
    settings.DEFAULT_FROM_EMAIL = "turnir@example.org"


@pytest.fixture
def smtp(settings):
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    point_django_at(settings, controller.port)
    try:
        yield inbox
    finally:
        controller.stop()
