"""URL routing: the admin, the API (v1, schema, docs), and the pages split by audience:
public (/), organiser (/manage/, its leagues and cups under /manage/leagues/ and
/manage/cups/), referee (/referee/), printouts (PDF under /e/<slug>/),
leagues and cups (/leagues/, /cups/), rankings (/rankings/)."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config.auth_views import RateLimitedLoginView, admin_login, needs_mail
from config.health import healthz
from config.i18n_views import switch_language

urlpatterns = [
    path("healthz/", healthz, name="healthz"),
    # Browsers ask for /favicon.ico whatever a page links; the icon is an SVG.
    path("favicon.ico", lambda request: redirect(static("favicon.svg"), permanent=True)),
    # The public pages first: they are what the hall's phones and projector poll all day.
    path("", include("tournaments.pages.urls_public")),
    path("", include("tournaments.pages.urls_table_link")),
    # Every sign-in shares one rate limit (guard.login_limit), the admin's included.
    path("admin/login/", admin_login),
    path("admin/", admin.site.urls),
    path("accounts/login/", RateLimitedLoginView.as_view(), name="login"),
    # Asking for a password reset by mail only where mail can be sent (EMAIL_CONFIGURED); 404
    # elsewhere. Setting a password from a one-time link always works: the organiser hands
    # such a link to a new official (tournaments.services.officials.set_password_path).
    path("accounts/password_reset/", needs_mail(auth_views.PasswordResetView.as_view()),
         name="password_reset"),
    path("accounts/password_reset/done/", needs_mail(auth_views.PasswordResetDoneView.as_view()),
         name="password_reset_done"),
    path("accounts/reset/<uidb64>/<token>/", auth_views.PasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    path("accounts/reset/done/", auth_views.PasswordResetCompleteView.as_view(),
         name="password_reset_complete"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/language/", switch_language, name="switch-language"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include("scoring.urls")),
    path("api/v1/", include("tournaments.api.urls")),
    path("api/v1/", include("leagues.api_urls")),
    path("api/v1/", include("tournaments.archive.urls")),
    path("api/v1/", include("tournaments.venue.urls")),
    path("api/v1/", include("leagues.archive_urls")),
    path("api/v1/", include("rankings.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("manage/", include("tournaments.pages.urls_organiser")),
    path("manage/", include("leagues.urls_organiser")),
    path("referee/", include("tournaments.pages.urls_referee")),
    path("", include("leagues.urls")),
    path("", include("rankings.urls")),
    path("", include("tournaments.printing.urls")),
]

# Unmatched paths under /api/ answer in the API's error shape (DEBUG off, as in production).
handler404 = "tournaments.api.errors.not_found"
