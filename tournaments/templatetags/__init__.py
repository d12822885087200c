"""Template tags and filters of the tournament pages (see `tarok.py`)."""
