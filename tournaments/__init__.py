"""Events, players, registrations, rounds, tables, seats, scorecards, penalties, disputes and
the audit trail; the pure seating engine lives in `tournaments.seating`."""
