"""Signing in with a rate limit (guard.login_limit): the login page and the admin's login
page refuse further attempts for a while (429, with Retry-After) while the limit holds for this
browser, address and username, and mark a browser that signed in as a known device of the
account. The password reset pages exist only where the
settings can send mail (EMAIL_CONFIGURED); elsewhere they answer 404 and no page links them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import Http404, HttpRequest, HttpResponse

from guard import login_limit


def too_many_logins(request: HttpRequest, username: str | None) -> HttpResponse:
    refusal = login_limit.refusal(request, username) or login_limit.Refusal(
        settings.LOGIN_FAILURE_WINDOW_SECONDS)
    response = HttpResponse(refusal.message, status=429, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(refusal.seconds)
    return response


def _signed_in(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """What every entry point does after the form ran: a refusal of the limit found only by
    `authenticate()` (a parallel attempt took the last place) is answered as such, and a
    successful sign-in marks the browser as a known device of the account."""
    if login_limit.was_limited(request):
        return too_many_logins(request, request.POST.get("username"))
    return login_limit.remember_device(request, response)


class RateLimitedLoginView(auth_views.LoginView):
    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        username = request.POST.get("username")
        if login_limit.is_blocked(request, username):
            return too_many_logins(request, username)
        return _signed_in(request, super().post(request, *args, **kwargs))

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs),
                "password_reset": settings.EMAIL_CONFIGURED}


def admin_login(request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
    """The admin's own login page, behind the same limit as every other sign-in."""
    if request.method != "POST":
        return admin.site.login(request, extra_context)
    username = request.POST.get("username")
    if login_limit.is_blocked(request, username):
        return too_many_logins(request, username)
    return _signed_in(request, admin.site.login(request, extra_context))


def needs_mail(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A password reset page that exists only when mail can be sent: without mail settings a
    reset would claim to have sent a message that nobody receives."""

    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not settings.EMAIL_CONFIGURED:
            raise Http404("password reset needs mail settings")
        return view(request, *args, **kwargs)

    return wrapper
