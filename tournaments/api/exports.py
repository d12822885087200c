"""The standings as a CSV file, one row per player in rank order, with the per-round results,
for spreadsheets and federation reports; text cells are made safe as on the page's CSV
(tournaments.runtime.spreadsheets)."""

from __future__ import annotations

import csv
import io

from tournaments.domain.standings import Standings
from tournaments.runtime.spreadsheets import text_cell


def standings_csv(standings: Standings) -> str:
    rounds = sorted({n for row in standings.rows for n in row.per_round})
    header = ["rank", "start_number", "first_name", "last_name", "club", "country"]
    if standings.uses_points:
        header.append("points")
    header += ["score", "rounds_played"]
    for n in rounds:
        if standings.uses_points:
            header.append(f"round_{n}_points")
        header.append(f"round_{n}_score")
    header.append("adjusted")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for row in standings.rows:
        player = row.player
        cells: list[object] = [row.rank, row.start_number, text_cell(player.first_name),
                               text_cell(player.last_name), text_cell(player.club),
                               text_cell(player.country)]
        if standings.uses_points:
            cells.append(row.points)
        cells += [row.score, row.rounds_played]
        for n in rounds:
            points, score = row.per_round.get(n, (None, None))
            if standings.uses_points:
                cells.append("" if points is None else points)
            cells.append("" if score is None else score)
        cells.append("yes" if row.adjusted else "")
        writer.writerow(cells)
    return out.getvalue()
