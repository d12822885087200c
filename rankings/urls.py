"""Public pages of the rankings (included at the site root): the ranking and points lists
and an event's statistics."""

from django.urls import path

from rankings import views

urlpatterns = [
    path("rankings/", views.ranking_index, name="ranking-index"),
    path("rankings/points/", views.points_index, name="points-index"),
    path("rankings/<slug:family>/", views.ranking_list, name="ranking-list"),
    path("rankings/<slug:family>/csv/", views.ranking_csv, name="ranking-csv"),
    path("rankings/<slug:family>/points/", views.points_list, name="points-list"),
    path("rankings/<slug:family>/points/csv/", views.points_csv, name="points-csv"),
    path("e/<slug:slug>/statistics/", views.event_statistics, name="event-statistics"),
]
