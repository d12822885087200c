"""League and cup organiser pages under /manage/leagues/ and /manage/cups/ (included in the
organiser's area next to tournaments.pages.urls_organiser)."""

from django.urls import path

from leagues import views_manage as views
from leagues import views_manage_cups as cups
from leagues import views_manage_members as members

S = "leagues/<slug:slug>/<slug:season>/"

urlpatterns = [
    path("leagues/new/", views.league_create, name="manage-league-create"),
    path("leagues/new/ruleset-fields/", views.league_ruleset_fields, name="manage-league-ruleset-fields"),
    path("leagues/<slug:slug>/", views.league_manage, name="manage-league"),
    path("leagues/<slug:slug>/edit/", views.league_edit, name="manage-league-edit"),
    path("leagues/<slug:slug>/seasons/new/", views.season_create, name="manage-season-create"),
    path(S, views.season_manage, name="manage-season"),
    path(S + "edit/", views.season_edit, name="manage-season-edit"),
    path(S + "players/", members.season_players, name="manage-season-players"),
    path(S + "players/add/", members.member_add, name="manage-season-member-add"),
    path(S + "players/import/", members.members_import, name="manage-season-members-import"),
    path(S + "players/<num:membership_id>/move/", members.member_move, name="manage-season-member-move"),
    path(S + "players/<num:membership_id>/remove/", members.member_remove, name="manage-season-member-remove"),
    path(S + "schedule/", views.season_schedule, name="manage-season-schedule"),
    path(S + "schedule/draw/", views.schedule_draw, name="manage-season-schedule-draw"),
    path(S + "schedule/swap/", views.schedule_swap, name="manage-season-schedule-swap"),
    path(S + "matchdays/add/", views.matchday_add, name="manage-matchday-add"),
    path(S + "matchdays/<num:number>/edit/", views.matchday_edit, name="manage-matchday-edit"),
    path(S + "matchdays/<num:number>/seat/", views.matchday_seat, name="manage-matchday-seat"),
    path(S + "matchdays/<num:number>/publish/", views.matchday_publish, name="manage-matchday-publish"),
    path(S + "matchdays/<num:number>/close/", views.matchday_close, name="manage-matchday-close"),
    path(S + "finish/", views.season_finish, name="manage-season-finish"),
    path(S + "next/", views.season_next, name="manage-season-next"),
    path("cups/new/", cups.cup_create, name="manage-cup-create"),
    path("cups/<slug:slug>/", cups.cup_manage, name="manage-cup"),
    path("cups/<slug:slug>/edit/", cups.cup_edit, name="manage-cup-edit"),
    path("cups/<slug:slug>/points/", cups.cup_points, name="manage-cup-points"),
    path("cups/<slug:slug>/events/add/", cups.cup_event_add, name="manage-cup-event-add"),
    path("cups/<slug:slug>/events/<slug:event_slug>/remove/", cups.cup_event_remove,
         name="manage-cup-event-remove"),
]
