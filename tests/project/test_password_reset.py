"""The password reset pages (config.auth_views; issue 12, finding 8): they exist only where
the settings can send mail; elsewhere they answer 404 and the login page does not link them."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client

from sample_data.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_password_reset_does_not_exist_without_mail_settings(settings):
    settings.EMAIL_CONFIGURED = False
    UserFactory(username="ana", email="ana@example.org")
    client = Client()
    assert client.get("/accounts/password_reset/").status_code == 404
    assert client.post("/accounts/password_reset/", {"email": "ana@example.org"}).status_code == 404
    assert "password_reset" not in client.get("/accounts/login/").content.decode()
    assert mail.outbox == []

def test_password_reset_works_with_mail_settings(settings):
    settings.EMAIL_CONFIGURED = True
    UserFactory(username="ana", email="ana@example.org")
    client = Client()
    assert "/accounts/password_reset/" in client.get("/accounts/login/").content.decode()
    response = client.post("/accounts/password_reset/", {"email": "ana@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
