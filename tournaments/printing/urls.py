"""Printouts (PDF) of an event under /e/<slug>/: table sheets, a round's sheets and their
rendering progress, filled scorecards, the seating list and the standings and theirs."""

from django.urls import path

from tournaments.printing import views

urlpatterns = [
    path("e/<slug:slug>/standings.pdf", views.standings, name="pdf-standings"),
    path("e/<slug:slug>/standings.pdf/status/", views.standings_status,
         name="pdf-standings-status"),
    path("e/<slug:slug>/rounds/<num:number>/sheets.pdf", views.round_sheets,
         name="pdf-round-sheets"),
    path("e/<slug:slug>/rounds/<num:number>/sheets/status/", views.round_sheets_status,
         name="pdf-round-sheets-status"),
    path("e/<slug:slug>/rounds/<num:number>/seating.pdf", views.seating,
         name="pdf-seating"),
    path("e/<slug:slug>/rounds/<num:number>/seating.pdf/status/", views.seating_status,
         name="pdf-seating-status"),
    path("e/<slug:slug>/rounds/<num:number>/tables/<num:table>/sheet.pdf",
         views.table_sheet, name="pdf-table-sheet"),
    path("e/<slug:slug>/rounds/<num:number>/tables/<num:table>/scorecard.pdf",
         views.scorecard, name="pdf-scorecard"),
]
