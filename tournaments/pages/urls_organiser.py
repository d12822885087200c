"""Organiser pages under /manage/: events, players, rounds, jobs, standings, the table page
where hands are entered (the address printed as a QR code on the table sheets), and the
player registry with the merging of two records of one person."""

from django.urls import path

from tournaments.pages import checkin, entries, officials, player_link, players, table, venue
from tournaments.pages import organiser as views

T = "e/<slug:slug>/rounds/<num:number>/tables/<num:table_number>/"

urlpatterns = [
    path("", views.dashboard, name="manage-dashboard"),
    path("players/", players.registry, name="manage-player-registry"),
    path("players/<num:player_id>/merge/", players.player_merge, name="manage-player-merge"),
    path("players/<num:player_id>/edit/", players.player_edit, name="manage-player-edit"),
    path("players/managers/", players.registry_managers, name="manage-registry-managers"),
    path("events/new/", views.event_create, name="manage-event-create"),
    path("venue/take/", venue.venue_take, name="manage-venue-take"),
    path("events/ruleset-fields/", views.ruleset_fields, name="manage-ruleset-fields"),
    path("e/<slug:slug>/", views.event_manage, name="manage-event"),
    path("e/<slug:slug>/edit/", views.event_edit, name="manage-event-edit"),
    path("e/<slug:slug>/finish/", views.event_finish, name="manage-event-finish"),
    path("e/<slug:slug>/venue/push/", venue.venue_push, name="manage-venue-push"),
    path("e/<slug:slug>/venue/hand-back/", venue.venue_hand_back, name="manage-venue-hand-back"),
    path("e/<slug:slug>/venue/take-back/", venue.venue_take_back, name="manage-venue-take-back"),
    path("e/<slug:slug>/officials/", officials.officials_page, name="manage-officials"),
    path("e/<slug:slug>/officials/add/", officials.official_add, name="manage-official-add"),
    path("e/<slug:slug>/officials/new/", officials.official_create, name="manage-official-create"),
    path("e/<slug:slug>/officials/remove/", officials.official_remove, name="manage-official-remove"),
    path("e/<slug:slug>/standings/", views.standings, name="manage-standings"),
    path("e/<slug:slug>/players/", views.players, name="manage-players"),
    path("e/<slug:slug>/players/add/", views.player_add, name="manage-player-add"),
    path("e/<slug:slug>/players/import/", views.players_import, name="manage-players-import"),
    path("e/<slug:slug>/players/links/", player_link.personal_links, name="manage-player-links"),
    path("e/<slug:slug>/players/<num:start_number>/link/reissue/", player_link.personal_link_reissue,
         name="manage-player-link-reissue"),
    path("e/<slug:slug>/entries/<num:entry_id>/approve/", entries.entry_approve,
         name="manage-entry-approve"),
    path("e/<slug:slug>/entries/<num:entry_id>/refuse/", entries.entry_refuse,
         name="manage-entry-refuse"),
    path("e/<slug:slug>/players/bulk/", checkin.registrations_bulk,
         name="manage-registrations-bulk"),
    path("e/<slug:slug>/players/<num:registration_id>/status/", views.registration_status,
         name="manage-registration-status"),
    path("e/<slug:slug>/players/<num:registration_id>/absent/", checkin.registration_absent,
         name="manage-registration-absent"),
    path("e/<slug:slug>/rounds/generate/", views.round_generate, name="manage-round-generate"),
    path("e/<slug:slug>/jobs/<num:job_id>/", views.job_detail, name="manage-job"),
    path("e/<slug:slug>/jobs/<num:job_id>/status/", views.job_status, name="manage-job-status"),
    path("e/<slug:slug>/jobs/<num:job_id>/retry/", views.job_retry, name="manage-job-retry"),
    path("e/<slug:slug>/rounds/<num:number>/", views.round_manage, name="manage-round"),
    path("e/<slug:slug>/rounds/<num:number>/swap/", views.round_swap, name="manage-round-swap"),
    path("e/<slug:slug>/rounds/<num:number>/publish/", views.round_publish, name="manage-round-publish"),
    path("e/<slug:slug>/rounds/<num:number>/clock/", views.round_clock, name="manage-round-clock"),
    path("e/<slug:slug>/rounds/<num:number>/close/", views.round_close, name="manage-round-close"),
    path("e/<slug:slug>/rounds/<num:number>/reopen/", views.round_reopen, name="manage-round-reopen"),
    path("e/<slug:slug>/rounds/<num:number>/unpublish/", views.round_unpublish,
         name="manage-round-unpublish"),
    path(T, table.table_entry, name="manage-table"),
    path(T + "validate/", table.hand_validate, name="manage-hand-validate"),
    path(T + "hands/<num:hand_number>/", table.hand_edit, name="manage-hand-edit"),
    path(T + "hands/<num:hand_number>/delete/", table.hand_delete, name="manage-hand-delete"),
    path(T + "hands/<num:hand_number>/confirm/", table.hand_confirm, name="manage-hand-confirm"),
    path(T + "submit/", table.scorecard_submit, name="manage-card-submit"),
    path(T + "confirm/", table.scorecard_confirm, name="manage-card-confirm"),
    path(T + "money/", table.money_sheet, name="manage-money-sheet"),
    path(T + "link/reissue/", views.table_link_reissue, name="manage-table-link-reissue"),
]
