"""API routes of leagues and cup series (included under /api/v1/)."""

from django.urls import path

from leagues.api import views_cups, views_leagues, views_matchdays, views_seasons

S = "leagues/<slug:slug>/seasons/<slug:season>/"

urlpatterns = [
    path("leagues/", views_leagues.LeagueListView.as_view(), name="api-leagues"),
    path("leagues/<slug:slug>/", views_leagues.LeagueDetailView.as_view(), name="api-league"),
    path("leagues/<slug:slug>/seasons/", views_leagues.SeasonListView.as_view(), name="api-league-seasons"),
    path(S, views_leagues.SeasonDetailView.as_view(), name="api-season"),
    path(S + "standings/", views_leagues.StandingsView.as_view(), name="api-season-standings"),
    path(S + "schedule/", views_seasons.ScheduleView.as_view(), name="api-season-schedule"),
    path(S + "schedule/swap/", views_seasons.ScheduleSwapView.as_view(), name="api-season-schedule-swap"),
    path(S + "members/", views_seasons.MembersView.as_view(), name="api-season-members"),
    path(S + "members/<num:player>/", views_seasons.MemberDetailView.as_view(), name="api-season-member"),
    path(S + "applicants/", views_seasons.ApplicantsView.as_view(), name="api-season-applicants"),
    path(S + "matchdays/", views_matchdays.MatchdayListView.as_view(), name="api-season-matchdays"),
    path(S + "matchdays/<num:number>/", views_matchdays.MatchdayDetailView.as_view(), name="api-season-matchday"),
    path(S + "matchdays/<num:number>/seat/", views_matchdays.MatchdaySeatView.as_view(),
         name="api-season-matchday-seat"),
    path(S + "matchdays/<num:number>/publish/", views_matchdays.MatchdayPublishView.as_view(),
         name="api-season-matchday-publish"),
    path(S + "matchdays/<num:number>/close/", views_matchdays.MatchdayCloseView.as_view(),
         name="api-season-matchday-close"),
    path(S + "finish/", views_seasons.SeasonFinishView.as_view(), name="api-season-finish"),
    path(S + "final-order/", views_seasons.FinalOrderView.as_view(), name="api-season-final-order"),
    path(S + "next-plan/", views_seasons.NextPlanView.as_view(), name="api-season-next-plan"),
    path(S + "advance/", views_seasons.SeasonAdvanceView.as_view(), name="api-season-advance"),
    path("cups/", views_cups.CupListView.as_view(), name="api-cups"),
    path("cups/<slug:slug>/", views_cups.CupDetailView.as_view(), name="api-cup"),
    path("cups/<slug:slug>/ranking/", views_cups.CupRankingView.as_view(), name="api-cup-ranking"),
    path("cups/<slug:slug>/points/", views_cups.CupPointsView.as_view(), name="api-cup-points"),
    path("cups/<slug:slug>/events/", views_cups.CupEventsView.as_view(), name="api-cup-events"),
    path("cups/<slug:slug>/events/<slug:event>/", views_cups.CupEventDetailView.as_view(), name="api-cup-event"),
    path("players/<num:pk>/leagues-and-cups/", views_leagues.PlayerCareerView.as_view(), name="api-player-career"),
]
