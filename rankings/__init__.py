"""Rankings across events: every player's rating per game family, computed from the confirmed
tables of the rated public events, its history, and the public ranking lists built on it."""
