"""Login with a rate limit: after too many failed attempts from one address or for one
username, further attempts are refused for a while (429), whatever the password."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.http import HttpResponse
from django.utils.translation import gettext as _


def _keys(request) -> list[str]:
    address = request.META.get("REMOTE_ADDR", "unknown")
    username = (request.POST.get("username") or "").strip().lower()
    keys = [f"login-fail:ip:{address}"]
    if username:
        keys.append("login-fail:user:" + hashlib.sha256(username.encode()).hexdigest()[:32])
    return keys


class RateLimitedLoginView(auth_views.LoginView):
    def post(self, request, *args, **kwargs):
        keys = _keys(request)
        if any(cache.get(k, 0) >= settings.LOGIN_FAILURES_ALLOWED for k in keys):
            minutes = max(1, settings.LOGIN_FAILURE_WINDOW_SECONDS // 60)
            return HttpResponse(
                _("Too many failed logins. Try again in %(minutes)d minutes.") % {"minutes": minutes},
                status=429, content_type="text/plain; charset=utf-8",
            )
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        for key in _keys(self.request):
            try:
                cache.incr(key)
            except ValueError:
                cache.set(key, 1, timeout=settings.LOGIN_FAILURE_WINDOW_SECONDS)
        return super().form_invalid(form)

    def form_valid(self, form):
        cache.delete_many(_keys(self.request))
        return super().form_valid(form)
