"""Tests of leagues (seasons, promotion and relegation) and cup series."""
