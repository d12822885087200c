"""Printouts of an event: the table sheets (the Czech money sheet, the TRI+1 sheet, the
Austrian Schrift), filled scorecards, the seating list and the standings, rendered to PDF with
WeasyPrint from the templates in `templates/pdf/`.

- `selectors`: what goes on each sheet, read from the database in a fixed number of queries;
- `grid`: the ruled rows of the score sheets, drawn as one SVG;
- `render`: turns that into PDF bytes in the event's language;
- `catalogue` and `locale/`: the printouts' own translations (message context "printout");
- `services`: the background rendering of a whole round's sheets, stored under MEDIA_ROOT
  per round and seating version, with a Job carrying its progress;
- `public_pdfs`: the public PDFs of a large event, rendered in the background;
- `links`: the URLs printed on (and pointing at) the sheets.

The job kinds of the two background renderings are named here, so that the app can register
their tasks (tournaments.apps) without loading WeasyPrint in every process.
"""

SHEETS_JOB = "render_sheets"
# The Celery task of one part of a round's sheets (not a job of its own: the parts report to
# the round's render_sheets job).
SHEETS_PART_TASK = "render_sheets_part"
PUBLIC_PDF_JOB = "render_public_pdf"
