"""Referee pages under /referee/: an event's disputes, penalties and adjustments, the queue of
calls from the tables and the notices to the hall, a table's penalties, annulment, corrections
and disputes, and the audit history."""

from django.urls import path

from tournaments.pages import referee as views
from tournaments.pages import referee_calls as calls

T = "e/<slug:slug>/rounds/<num:number>/tables/<num:table_number>/"

urlpatterns = [
    path("", views.dashboard, name="referee-dashboard"),
    path("e/<slug:slug>/", views.event_referee, name="referee-event"),
    path("e/<slug:slug>/adjust/", views.standings_adjust, name="referee-adjust"),
    path("e/<slug:slug>/disputes/", views.disputes, name="referee-disputes"),
    path("e/<slug:slug>/disputes/<num:dispute_id>/", views.dispute_detail, name="referee-dispute"),
    path("e/<slug:slug>/history/", views.history_event, name="referee-history"),
    path("e/<slug:slug>/calls/", calls.calls_queue, name="referee-calls"),
    path("e/<slug:slug>/calls/<num:call_id>/", calls.call_detail, name="referee-call"),
    path("e/<slug:slug>/calls/<num:call_id>/take/", calls.call_take, name="referee-call-take"),
    path("e/<slug:slug>/notices/", views.notice_post, name="referee-notice-post"),
    path("e/<slug:slug>/notices/<num:notice_id>/withdraw/", views.notice_withdraw,
         name="referee-notice-withdraw"),
    path(T, views.table_referee, name="referee-table"),
    path(T + "penalty/", views.penalty_record, name="referee-penalty"),
    path(T + "annul/", views.table_annul, name="referee-annul"),
    path(T + "verify/", views.table_verify, name="referee-verify"),
    path(T + "dispute/", views.dispute_open, name="referee-dispute-open"),
    path(T + "history/", views.history_table, name="referee-table-history"),
    path(T + "hands/<num:hand_number>/correct/", views.hand_correct, name="referee-hand-correct"),
]
