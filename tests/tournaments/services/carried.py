"""What the tests of the carried totals compare: the totals stored on the registrations, and
what the whole standings up to a round give each player."""

from __future__ import annotations

from tournaments.domain.standings import event_standings


def carried(event):
    """{start number: (tournament points, score)} as stored on the registrations."""
    return {r.start_number: (r.tournament_points, r.score) for r in event.registrations.all()}


def standings_totals(event, up_to_round):
    """{start number: (points, score)} of the standings up to `up_to_round`, (0, 0) for a
    registration with no line."""
    rows = {r.start_number: r for r in event_standings(event, up_to_round=up_to_round).rows}
    return {r.start_number: (rows[r.start_number].exact_points, rows[r.start_number].score)
            if r.start_number in rows else (0, 0) for r in event.registrations.all()}
