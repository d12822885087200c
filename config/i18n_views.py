"""Switching the interface language with a plain link or GET form.

Django's own `set_language` wants a POST with a CSRF token; a language preference is harmless
to change, and keeping tokens out of anonymous pages lets those pages be cached and served
to every visitor alike (tournaments.runtime.page_cache)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme


def switch_language(request: HttpRequest) -> HttpResponseRedirect:
    code = request.GET.get("language", "")
    next_url = request.GET.get("next") or "/"
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        next_url = "/"
    response = HttpResponseRedirect(next_url)
    if code in dict(settings.LANGUAGES):
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME, code, max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH, domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE or request.is_secure(),
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE or "Lax",
        )
    return response
