"""Named presets of the league form: the league a rulebook describes (its ruleset and mode, its
leagues, their size, who goes up and down, the games of a matchday), stored as data in one
place and applied to a new league form's initial values only, as the event form's presets
(tournaments.domain.presets). Choosing one fills a blank form; it never changes a league.

Each preset quotes the clause it follows (docs/leagues.md, "Presets").
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from tournaments.domain.presets import Preset

PRESETS: tuple[Preset, ...] = (
    Preset(
        code="tarok-net-league",
        label=_("Tarok.net league championship"),
        summary=_("TRI + 1, 24 games a matchday; three leagues of 32 and a qualification group, "
                  "10 players up and 10 down."),
        seed_clause=('seed 000 §4.2: "Ligo praviloma igra 32 igralcev." … "Ena tekma zajema 24 '
                     'iger. Tarok se igra po sistemu tri + 1" … "Praviloma se igrajo tri lige '
                     '(I. II. in III. liga) in kvalifikacijska skupina." … "izpade iz vsake lige '
                     '10 igralcev v nižjo ligo … in po 10 igralcev napreduje v višjo ligo"'),
        values={"ruleset_code": "tarok-net-2007", "ruleset_mode": "tri+1",
                "division_count": 3, "division_size": 32, "movement_count": 10,
                "qualification_group": True, "hands_per_matchday": 24, "table_size": 4,
                "min_table_size": 3},
    ),
    Preset(
        code="tarok-net-revised-league",
        label=_("Tarok.net league championship, later revision (leagues of 28)"),
        summary=_("The later revision of the rules: TRI + 1, 24 games a matchday; three leagues "
                  "of 28 and a qualification group, 10 players up and 10 down."),
        seed_clause=('seed 002 §4.2: "Ligo praviloma igra 28 ali 32 igralcev." … "Ena tekma '
                     'zajema 24 iger." … "Praviloma se igrajo tri lige (I. II. in III. liga) in '
                     'kvalifikacijska skupina." … "izpade iz vsake lige 10 igralcev in po 10 '
                     'napreduje."'),
        values={"ruleset_code": "tarok-net-revised", "ruleset_mode": "tri+1",
                "division_count": 3, "division_size": 28, "movement_count": 10,
                "qualification_group": True, "hands_per_matchday": 24, "table_size": 4,
                "min_table_size": 3},
    ),
)


def get(code: str) -> Preset | None:
    return next((p for p in PRESETS if p.code == code), None)


def for_ruleset(code: str) -> list[Preset]:
    return [p for p in PRESETS if p.values.get("ruleset_code") == code]
