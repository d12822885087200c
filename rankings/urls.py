"""Public pages of the rankings (included at the site root): the ranking lists and an
event's statistics."""

from django.urls import path

from rankings import views

urlpatterns = [
    path("rankings/", views.ranking_index, name="ranking-index"),
    path("rankings/<slug:family>/", views.ranking_list, name="ranking-list"),
    path("rankings/<slug:family>/csv/", views.ranking_csv, name="ranking-csv"),
    path("e/<slug:slug>/statistics/", views.event_statistics, name="event-statistics"),
]
