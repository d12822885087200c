"""Routes of the table link (/t/): the players' own page of their table, opened from the QR
code of the sheet or by typing its code; and of the personal link (/p/), a player's own page
for the event. The prefixes are printed on the sheets and badges (tournaments.printing.links)."""

from django.urls import path

from tournaments.pages import player_link
from tournaments.pages import table_link as views

T = "t/<str:token>/"

urlpatterns = [
    path("t/", views.code_entry, name="table-link-code"),
    path(T, views.table_page, name="table-link"),
    path(T + "seat/", views.choose_seat, name="table-link-seat"),
    path(T + "hands/", views.hand_new, name="table-link-hand-new"),
    path(T + "hands/<int:hand_number>/", views.hand_edit, name="table-link-hand-edit"),
    path(T + "hands/<int:hand_number>/delete/", views.hand_delete, name="table-link-hand-delete"),
    path(T + "validate/", views.validate, name="table-link-validate"),
    path(T + "submit/", views.submit, name="table-link-submit"),
    path(T + "confirm/", views.confirm, name="table-link-confirm"),
    path(T + "money/", views.money_sheet, name="table-link-money"),
    path(T + "call/", views.referee_call, name="table-link-call"),
    path("p/<str:token>/", player_link.personal_page, name="player-link"),
    path("p/<str:token>/table/", player_link.personal_table, name="player-link-table"),
    path("p/<str:token>/messages/", player_link.personal_messages, name="player-link-messages"),
    path("p/<str:token>/withdraw/", player_link.personal_withdraw, name="player-link-withdraw"),
    path("p/<str:token>/absent/", player_link.personal_absent, name="player-link-absent"),
]
