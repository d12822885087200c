"""Public pages of leagues and cup series, and their PDFs (included at the site root)."""

from django.urls import path

from leagues import views

urlpatterns = [
    path("leagues/", views.league_list, name="league-list"),
    path("leagues/<slug:slug>/", views.league_detail, name="league-detail"),
    path("leagues/<slug:slug>/<slug:season>/", views.season_detail, name="season-detail"),
    path("leagues/<slug:slug>/<slug:season>/pdf/", views.season_pdf, name="season-pdf"),
    path("cups/", views.cup_list, name="cup-list"),
    path("cups/<slug:slug>/", views.cup_detail, name="cup-detail"),
    path("cups/<slug:slug>/pdf/", views.cup_pdf, name="cup-pdf"),
]
