"""The rules of the tournament domain that every edge and service asks: who may do what
(`rights`), the states of rounds and cards (`lifecycle`), the standings, the bounds of
input (`limits`), searching players, countries, presets, exact points and the rulesets
the registry offers. No writes here: the services write, asking these."""
