"""Printouts (PDF) of an event under /e/<slug>/: table sheets, a round's sheets and their
rendering progress, filled scorecards, the seating list and the standings and theirs."""

from django.urls import path

from tournaments import views_pdf

urlpatterns = [
    path("e/<slug:slug>/standings.pdf", views_pdf.standings, name="pdf-standings"),
    path("e/<slug:slug>/standings.pdf/status/", views_pdf.standings_status,
         name="pdf-standings-status"),
    path("e/<slug:slug>/rounds/<num:number>/sheets.pdf", views_pdf.round_sheets,
         name="pdf-round-sheets"),
    path("e/<slug:slug>/rounds/<num:number>/sheets/status/", views_pdf.round_sheets_status,
         name="pdf-round-sheets-status"),
    path("e/<slug:slug>/rounds/<num:number>/seating.pdf", views_pdf.seating,
         name="pdf-seating"),
    path("e/<slug:slug>/rounds/<num:number>/seating.pdf/status/", views_pdf.seating_status,
         name="pdf-seating-status"),
    path("e/<slug:slug>/rounds/<num:number>/tables/<num:table>/sheet.pdf",
         views_pdf.table_sheet, name="pdf-table-sheet"),
    path("e/<slug:slug>/rounds/<num:number>/tables/<num:table>/scorecard.pdf",
         views_pdf.scorecard, name="pdf-scorecard"),
]
