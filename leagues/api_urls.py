"""API routes of leagues and cup series (included under /api/v1/)."""

from django.urls import path

from leagues import api

S = "leagues/<slug:slug>/seasons/<slug:season>/"

urlpatterns = [
    path("leagues/", api.LeagueListView.as_view(), name="api-leagues"),
    path("leagues/<slug:slug>/", api.LeagueDetailView.as_view(), name="api-league"),
    path("leagues/<slug:slug>/seasons/", api.SeasonListView.as_view(), name="api-league-seasons"),
    path(S, api.SeasonDetailView.as_view(), name="api-season"),
    path(S + "standings/", api.StandingsView.as_view(), name="api-season-standings"),
    path(S + "schedule/", api.ScheduleView.as_view(), name="api-season-schedule"),
    path(S + "schedule/swap/", api.ScheduleSwapView.as_view(), name="api-season-schedule-swap"),
    path(S + "members/", api.MembersView.as_view(), name="api-season-members"),
    path(S + "members/<num:player>/", api.MemberDetailView.as_view(), name="api-season-member"),
    path(S + "applicants/", api.ApplicantsView.as_view(), name="api-season-applicants"),
    path(S + "matchdays/", api.MatchdayListView.as_view(), name="api-season-matchdays"),
    path(S + "matchdays/<num:number>/", api.MatchdayDetailView.as_view(), name="api-season-matchday"),
    path(S + "matchdays/<num:number>/seat/", api.MatchdaySeatView.as_view(),
         name="api-season-matchday-seat"),
    path(S + "matchdays/<num:number>/publish/", api.MatchdayPublishView.as_view(),
         name="api-season-matchday-publish"),
    path(S + "matchdays/<num:number>/close/", api.MatchdayCloseView.as_view(),
         name="api-season-matchday-close"),
    path(S + "finish/", api.SeasonFinishView.as_view(), name="api-season-finish"),
    path(S + "final-order/", api.FinalOrderView.as_view(), name="api-season-final-order"),
    path(S + "next-plan/", api.NextPlanView.as_view(), name="api-season-next-plan"),
    path(S + "advance/", api.SeasonAdvanceView.as_view(), name="api-season-advance"),
    path("cups/", api.CupListView.as_view(), name="api-cups"),
    path("cups/<slug:slug>/", api.CupDetailView.as_view(), name="api-cup"),
    path("cups/<slug:slug>/ranking/", api.CupRankingView.as_view(), name="api-cup-ranking"),
    path("cups/<slug:slug>/points/", api.CupPointsView.as_view(), name="api-cup-points"),
    path("cups/<slug:slug>/events/", api.CupEventsView.as_view(), name="api-cup-events"),
    path("cups/<slug:slug>/events/<slug:event>/", api.CupEventDetailView.as_view(), name="api-cup-event"),
    path("players/<num:pk>/leagues-and-cups/", api.PlayerCareerView.as_view(), name="api-player-career"),
]
