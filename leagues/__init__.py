"""Leagues (seasons, divisions, matchdays, promotion and relegation) and cup series."""
