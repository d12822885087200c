"""URL routing: the admin, the API (v1, schema, docs), and the pages split by audience:
public (/), organiser (/manage/), referee (/referee/), printouts (PDF under /e/<slug>/),
leagues and cups (/leagues/, /cups/)."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config.auth_views import RateLimitedLoginView
from config.health import healthz
from config.i18n_views import switch_language

urlpatterns = [
    path("healthz/", healthz, name="healthz"),
    # The public pages first: they are what the hall's phones and projector poll all day.
    path("", include("tournaments.urls_public")),
    path("admin/", admin.site.urls),
    path("accounts/login/", RateLimitedLoginView.as_view(), name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/language/", switch_language, name="switch-language"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include("scoring.urls")),
    path("api/v1/", include("tournaments.api.urls")),
    path("api/v1/", include("leagues.api_urls")),
    path("api/v1/", include("tournaments.archive_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("manage/", include("tournaments.urls_organiser")),
    path("referee/", include("tournaments.urls_referee")),
    path("", include("leagues.urls")),
    path("", include("tournaments.urls_pdf")),
]

# Unmatched paths under /api/ answer in the API's error shape (DEBUG off, as in production).
handler404 = "tournaments.api.errors.not_found"
