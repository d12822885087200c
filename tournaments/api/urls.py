"""Routes of the tournaments API, included under /api/v1/ by config/urls.py. Objects are named
the way a tournament names them: an event by its slug, a registration by its start number, a
round, a table and a hand by their numbers."""

from django.urls import path

from tournaments.api import views, views_results, views_rounds, views_tables

EVENT = "events/<slug:slug>/"
ROUND = EVENT + "rounds/<num:number>/"
TABLE = ROUND + "tables/<num:table>/"
CARD = TABLE + "scorecard/"

urlpatterns = [
    path("auth/token/", views.TokenView.as_view(), name="api-token"),
    path("me/", views.MeView.as_view(), name="api-me"),
    path("players/", views.PlayerListView.as_view(), name="api-players"),
    path("players/<num:pk>/", views.PlayerDetailView.as_view(), name="api-player"),
    path("players/<num:pk>/merge/", views.PlayerMergeView.as_view(), name="api-player-merge"),
    path("jobs/<num:pk>/", views.JobDetailView.as_view(), name="api-job"),
    path("events/", views.EventListView.as_view(), name="api-events"),
    path(EVENT, views.EventDetailView.as_view(), name="api-event"),
    path(EVENT + "registrations/", views.RegistrationListView.as_view(), name="api-registrations"),
    path(EVENT + "registrations/import/", views.RegistrationImportView.as_view(),
         name="api-registrations-import"),
    path(EVENT + "registrations/<num:start_number>/", views.RegistrationDetailView.as_view(),
         name="api-registration"),
    path(EVENT + "rounds/", views_rounds.RoundListView.as_view(), name="api-rounds"),
    path(EVENT + "rounds/generate/", views_rounds.RoundGenerateView.as_view(),
         name="api-rounds-generate"),
    path(ROUND, views_rounds.RoundDetailView.as_view(), name="api-round"),
    path(ROUND + "swap/", views_rounds.RoundSwapView.as_view(), name="api-round-swap"),
    path(ROUND + "publish/", views_rounds.RoundPublishView.as_view(), name="api-round-publish"),
    path(ROUND + "start-clock/", views_rounds.RoundStartClockView.as_view(),
         name="api-round-start-clock"),
    path(ROUND + "close/", views_rounds.RoundCloseView.as_view(), name="api-round-close"),
    path(ROUND + "unpublish/", views_rounds.RoundUnpublishView.as_view(), name="api-round-unpublish"),
    path(ROUND + "reopen/", views_rounds.RoundReopenView.as_view(), name="api-round-reopen"),
    path(TABLE, views_tables.TableDetailView.as_view(), name="api-table"),
    path(TABLE + "penalties/", views_results.TablePenaltyView.as_view(), name="api-table-penalties"),
    path(TABLE + "audit/", views_results.TableAuditView.as_view(), name="api-table-audit"),
    path(CARD, views_tables.ScorecardView.as_view(), name="api-scorecard"),
    path(CARD + "hands/", views_tables.HandListView.as_view(), name="api-hands"),
    path(CARD + "hands/<num:hand>/", views_tables.HandDetailView.as_view(), name="api-hand"),
    path(CARD + "hands/<num:hand>/confirm/", views_tables.HandConfirmView.as_view(),
         name="api-hand-confirm"),
    path(CARD + "submit/", views_tables.ScorecardSubmitView.as_view(), name="api-scorecard-submit"),
    path(CARD + "confirm/", views_tables.ScorecardConfirmView.as_view(),
         name="api-scorecard-confirm"),
    path(CARD + "annul/", views_tables.ScorecardAnnulView.as_view(), name="api-scorecard-annul"),
    path(CARD + "verify/", views_tables.ScorecardVerifyView.as_view(), name="api-scorecard-verify"),
    path(CARD + "money-sheet/", views_tables.MoneySheetView.as_view(), name="api-money-sheet"),
    path(EVENT + "penalties/", views_results.EventPenaltyListView.as_view(), name="api-penalties"),
    path(EVENT + "disputes/", views_results.DisputeListView.as_view(), name="api-disputes"),
    path(EVENT + "disputes/<num:pk>/", views_results.DisputeDetailView.as_view(), name="api-dispute"),
    path(EVENT + "disputes/<num:pk>/decide/", views_results.DisputeDecideView.as_view(),
         name="api-dispute-decide"),
    path(EVENT + "standings/", views_results.StandingsView.as_view(), name="api-standings"),
    path(EVENT + "standings/csv/", views_results.StandingsCSVView.as_view(), name="api-standings-csv"),
    path(EVENT + "standings/adjustments/", views_results.StandingsAdjustView.as_view(),
         name="api-standings-adjust"),
    path(EVENT + "audit/", views_results.EventAuditView.as_view(), name="api-audit"),
]
