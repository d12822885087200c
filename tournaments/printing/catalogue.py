"""The headings and notes of the printouts, marked for translation in Python as well as in
the templates of `templates/pdf/`.

Every printout string has the message context "printout", so the sheets' wording (the seeds'
own words where they have them) is decided by their own catalogue in
`tournaments/printing/locale/` and never collides with the same English word elsewhere in the
UI. `makemessages` files a template's strings under the project's `locale/`; listing them here
as well puts them in the printouts' catalogue on every run. tests/tournaments/pdf/test_translations.py
checks that this list and the templates agree, and that the Slovenian, Czech and German
catalogues translate every entry.

`DRAWING_LABELS` are the words drawn into the ruled grids (tournaments.printing.grid), which
are not template text.
"""

from django.utils.translation import pgettext_lazy

TEMPLATE_MESSAGES = (
    pgettext_lazy("printout", 'Ruleset'),
    pgettext_lazy("printout", 'Round'),
    pgettext_lazy("printout", 'Table'),
    pgettext_lazy("printout", 'Scan to enter the results online'),
    pgettext_lazy("printout", 'or type the code at %(url)s'),
    pgettext_lazy("printout", 'First join the Wi-Fi “%(name)s”'),
    pgettext_lazy("printout", 'Referee'),
    pgettext_lazy("printout", 'Printed %(when)s'),
    pgettext_lazy("printout", 'Page'),
    pgettext_lazy("printout", 'Money sheet'),
    pgettext_lazy(
        "printout",
        "If a player's money runs short, he calls the referee and buys another "
        '%(amount)s Kč of his own. Money bought stays with the player who bought '
        'it.'
    ),
    pgettext_lazy(
        "printout",
        'Self-check at the table: at the end of the round the players of the '
        "table count each player's final sum, make the total, write it with the "
        'start numbers on this card and confirm it with their signatures. Players '
        'of a table that hands in a wrong or no card may have their results of '
        'the round annulled.'
    ),
    pgettext_lazy("printout", 'Discrepancies in the sum are settled by the referee.'),
    pgettext_lazy(
        "printout",
        'After each game is counted, the players share out the money into their '
        'bags as the table of personal money shows. After the last round they '
        'hand this amount to the organisers.'
    ),
    pgettext_lazy("printout", 'Personal money stays on the table for the whole game!'),
    pgettext_lazy("printout", 'Schrift'),
    pgettext_lazy("printout", 'No.'),
    pgettext_lazy("printout", 'Dealer'),
    pgettext_lazy("printout", 'Game'),
    pgettext_lazy("printout", 'Check'),
    pgettext_lazy(
        "printout",
        'Every game is written at once, plus and minus; each row adds up to zero. '
        'Contras count only for the payout, not for the Schrift.'
    ),
    pgettext_lazy("printout", 'TRI + 1 score sheet'),
    pgettext_lazy("printout", 'Score sheet'),
    pgettext_lazy("printout", 'Resting'),
    pgettext_lazy("printout", 'Radelci'),
    pgettext_lazy("printout", 'Total'),
    pgettext_lazy(
        "printout",
        'Three play and the dealer rests; in klop all four play. Write every game '
        "as soon as it is scored: the shaded cell is the resting player's. Mark "
        "each radelc in the player's box and cross it out when it is used."
    ),
    pgettext_lazy(
        "printout",
        'Write every game as soon as it is scored. Mark each radelc in the '
        "player's box and cross it out when it is used."
    ),
    pgettext_lazy("printout", 'Write every game as soon as it is scored.'),
    pgettext_lazy("printout", 'Scorecard'),
    pgettext_lazy("printout", 'submitted by'),
    pgettext_lazy("printout", 'confirmed by'),
    pgettext_lazy("printout", 'verified by'),
    pgettext_lazy("printout", 'version'),
    pgettext_lazy(
        "printout",
        'Hands entered by %(entered)s and confirmed by %(confirmed)s unless '
        'noted.'
    ),
    pgettext_lazy("printout", 'Annulled'),
    pgettext_lazy("printout", 'Provisional: not yet confirmed.'),
    pgettext_lazy("printout", 'No money sheet entered.'),
    pgettext_lazy("printout", 'declarer'),
    pgettext_lazy("printout", 'resting'),
    pgettext_lazy("printout", 'Penalty'),
    pgettext_lazy("printout", 'entered by'),
    pgettext_lazy("printout", 'not confirmed'),
    pgettext_lazy("printout", 'No hands entered.'),
    pgettext_lazy("printout", 'Payout'),
    pgettext_lazy("printout", 'Penalties'),
    pgettext_lazy("printout", 'hand'),
    pgettext_lazy("printout", 'Disputes'),
    pgettext_lazy("printout", 'Decision'),
    pgettext_lazy("printout", 'Seating, round %(round)s'),
    pgettext_lazy("printout", 'By table'),
    pgettext_lazy("printout", 'Not playing this round'),
    pgettext_lazy("printout", 'Alphabetical'),
    pgettext_lazy("printout", 'Sheets of round %(round)s'),
    pgettext_lazy("printout", 'Download the sheets of round %(round)s (PDF)'),
    pgettext_lazy("printout", 'Rendering the sheets failed:'),
    pgettext_lazy("printout", 'Try again'),
    pgettext_lazy("printout", 'Rendering the sheets: %(done)s of %(total)s tables'),
    pgettext_lazy("printout", 'Final results'),
    pgettext_lazy("printout", 'Standings after round %(round)s'),
    pgettext_lazy("printout", 'Standings'),
    pgettext_lazy("printout", 'Rank'),
    pgettext_lazy("printout", 'Player'),
    pgettext_lazy("printout", 'Club'),
    pgettext_lazy("printout", 'R%(round)s'),
    pgettext_lazy("printout", 'Points'),
    pgettext_lazy("printout", 'Result'),
    pgettext_lazy("printout", 'Score'),
    pgettext_lazy("printout", 'No results yet.'),
    pgettext_lazy(
        "printout",
        'Ranked by table points (4, 3, 2, 1 at each table), then by score. Per '
        'round: table points and score.'
    ),
    pgettext_lazy("printout", 'adjusted by a referee'),
    pgettext_lazy("printout", 'Provisional'),
    pgettext_lazy("printout", 'tables not yet confirmed'),
)

DRAWING_LABELS = {
    "total": pgettext_lazy("printout", "Total"),
    "sum": pgettext_lazy("printout", "Sum of plus and minus"),
    "balance": pgettext_lazy("printout", "Balance"),
}
