"""Public pages: the event list, an event, its standings (live fragment and CSV), the
seating of a round, a table's scorecard, a player, the projector screen, and online entry
(the form, the entry list, an entry's own page)."""

from django.urls import path

from tournaments.pages import entries
from tournaments.pages import public as views

urlpatterns = [
    path("", views.event_list, name="event-list"),
    path("e/<slug:slug>/", views.event_detail, name="event-detail"),
    path("e/<slug:slug>/standings/", views.standings, name="standings"),
    path("e/<slug:slug>/standings/live/", views.standings_live, name="standings-live"),
    path("e/<slug:slug>/standings.csv", views.standings_csv, name="standings-csv"),
    path("e/<slug:slug>/projector/", views.projector, name="projector"),
    path("e/<slug:slug>/rounds/<num:number>/", views.round_seating, name="round-seating"),
    path("e/<slug:slug>/rounds/<num:number>/tables/<num:table_number>/", views.table_detail,
         name="table-detail"),
    path("e/<slug:slug>/enter/", entries.entry_form, name="entry-form"),
    path("e/<slug:slug>/entries/", entries.entry_list, name="entry-list"),
    path("e/<slug:slug>/entry/<str:token>/", entries.entry_page, name="entry-page"),
    path("e/<slug:slug>/entry/<str:token>/confirm/", entries.entry_confirm, name="entry-confirm"),
    path("e/<slug:slug>/entry/<str:token>/withdraw/", entries.entry_withdraw, name="entry-withdraw"),
    path("players/<num:player_id>/", views.player_detail, name="player-detail"),
    path("players/<num:player_id>/career-visibility/", views.player_career_visibility,
         name="player-career-visibility"),
    path("welcome/", views.after_login, name="after-login"),
]
