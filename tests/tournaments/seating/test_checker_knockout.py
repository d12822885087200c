"""The checker's knock-out rules (seed 000 §4.1 a) one by one: the whole list of violations a
broken draw or a broken later round gets, in the checker's order, with the values each
message names."""

from __future__ import annotations

import copy

from tests.tournaments.seating.tournament_generator import play_knockout, player_ids
from tournaments.seating.checker import check_seating


def violations(request, result):
    return [(v["code"], v["message"], v["params"]) for v in check_seating(request, result)]


def _result(tables, *, byes=(), eliminated=()):
    return {"tables": tables, "byes": list(byes), "eliminated": list(eliminated), "notes": [],
            "repeat_pairs": 0}


def _sixteen():
    """Three rounds of sixteen players: the draw, the second round by the halves rule, the
    final (seed 11, placings drawn by the generator)."""
    return list(play_knockout(16, 11))


def test_a_knockout_at_tables_of_three_is_refused_before_anything_else_of_it():
    ids = player_ids(6)
    request = {"system": "knockout", "round": 1, "seed": 1, "table_size": 3,
               "players": [{"id": p} for p in ids]}
    assert violations(request, _result([ids[:3], ids[3:]])) == [
        ("request_invalid", "a knock-out seats four at a table", {})]


def test_three_players_are_too_few_for_a_knockout():
    ids = player_ids(3)
    request = {"system": "knockout", "round": 1, "seed": 1, "players": [{"id": p} for p in ids]}
    assert violations(request, _result([ids])) == [
        ("too_few_players", "a knock-out needs at least four players", {"count": 3})]


def test_a_draw_that_eliminates_gives_a_bye_in_a_full_field_and_has_the_wrong_tables():
    request, result = _sixteen()[0]
    broken = copy.deepcopy(result)
    broken["eliminated"] = [broken["tables"][0].pop()]
    broken["byes"] = [broken["tables"][1].pop()]
    assert violations(request, broken) == [
        ("eliminated_in_draw", "nobody is eliminated before playing", {}),
        ("knockout_draw_size", "16 players: the main draw needs 16, so the first round needs 4 "
         "tables of four; got sizes [3, 3, 4, 4]", {"count": 16, "target": 16, "fours": 4, "threes": 0}),
        ("unexpected_bye", "a full main draw has no byes", {}),
    ]


def test_a_later_round_with_a_bye_and_a_short_table():
    request, result = _sixteen()[1]
    assert check_seating(request, result) == []
    broken = copy.deepcopy(result)
    broken["byes"] = [broken["tables"][0].pop()]  # p009, second at previous table 4
    assert violations(request, broken) == [
        ("unexpected_bye", "after the first draw nobody has a bye", {}),
        ("two_go_through", "1 players of previous table 4 are seated; exactly two go through",
         {"table": 4, "count": 1}),
        ("eliminated_list", "eliminated must list exactly the previous round's players who did not "
         "go through: expected ['p002', 'p003', 'p006', 'p008', 'p009', 'p010', 'p013', 'p015', "
         "'p016'], got ['p002', 'p003', 'p006', 'p008', 'p010', 'p013', 'p015', 'p016']",
         {"expected": "p002, p003, p006, p008, p009, p010, p013, p015, p016"}),
        ("knockout_table_size", "every table after the first draw seats four", {}),
        ("halves_rule", "table 1 must take the second-placed of previous table 4 (halves A and B, "
         "Tarok.net rules §4.1 a); it has []", {"table": 1, "place": 2, "previous": 4}),
    ]


def test_a_third_table_of_losers_breaks_every_rule_of_a_later_round():
    request, result = _sixteen()[1]
    broken = copy.deepcopy(result)
    broken["tables"].append(broken["eliminated"][:4])  # the third and fourth of tables 1 and 2
    broken["eliminated"] = broken["eliminated"][4:]
    # Table 3 has no slots of its own in a round of two tables: it is checked for the winners
    # of previous tables 3 and 4 only (the second-placed would come from tables 5 and 6).
    assert violations(request, broken) == [
        ("repeat_pairs_wrong", "2 pairs in this round met before, the result says 0",
         {"repeats": 2, "claimed": 0}),
        ("eliminated_player_seated", "p002 did not finish in the top two of table 1 but is seated",
         {"player": "p002", "previous": 1}),
        ("eliminated_player_seated", "p006 did not finish in the top two of table 1 but is seated",
         {"player": "p006", "previous": 1}),
        ("eliminated_player_seated", "p003 did not finish in the top two of table 2 but is seated",
         {"player": "p003", "previous": 2}),
        ("eliminated_player_seated", "p010 did not finish in the top two of table 2 but is seated",
         {"player": "p010", "previous": 2}),
        ("two_go_through", "4 players of previous table 1 are seated; exactly two go through",
         {"table": 1, "count": 4}),
        ("two_go_through", "4 players of previous table 2 are seated; exactly two go through",
         {"table": 2, "count": 4}),
        ("halves_rule", "table 3 must take the winner of previous table 3 (halves A and B, "
         "Tarok.net rules §4.1 a); it has []", {"table": 3, "place": 1, "previous": 3}),
        ("halves_rule", "table 3 must take the winner of previous table 4 (halves A and B, "
         "Tarok.net rules §4.1 a); it has []", {"table": 3, "place": 1, "previous": 4}),
        ("met_again", "table 3 seats 2 players from previous table 1", {"table": 3, "times": 2, "previous": 1}),
        ("met_again", "table 3 seats 2 players from previous table 2", {"table": 3, "times": 2, "previous": 2}),
    ]


def test_a_player_out_in_an_earlier_round_is_not_seated_in_the_final():
    request, result = _sixteen()[2]
    assert check_seating(request, result) == []
    broken = copy.deepcopy(result)
    # p002 went out in the first round; p004 (second at previous table 2) makes way for him.
    broken["tables"][0][broken["tables"][0].index("p004")] = "p002"
    broken["eliminated"] = [p for p in broken["eliminated"] if p != "p002"] + ["p004"]
    assert violations(request, broken) == [
        ("two_go_through", "1 players of previous table 2 are seated; exactly two go through",
         {"table": 2, "count": 1}),
        ("eliminated_player_seated", "p002 went out in an earlier round but is seated", {"player": "p002"}),
        ("eliminated_list", "eliminated must list exactly the previous round's players who did not "
         "go through: expected ['p001', 'p002', 'p003', 'p004', 'p005', 'p006', 'p007', 'p008', "
         "'p010', 'p012', 'p013', 'p015', 'p016'], got ['p001', 'p003', 'p004', 'p005', 'p006', "
         "'p007', 'p008', 'p010', 'p012', 'p013', 'p015', 'p016']",
         {"expected": "p001, p002, p003, p004, p005, p006, p007, p008, p010, p012, p013, p015, p016"}),
    ]


def test_a_previous_round_of_three_tables_is_no_main_draw_round():
    ids = player_ids(12)
    previous = [{"players": ids[i:i + 4], "placing": ids[i:i + 4]} for i in (0, 4, 8)]
    request = {"system": "knockout", "round": 2, "seed": 1, "players": [{"id": p} for p in ids],
               "previous_round": previous}
    through = [p for t in previous for p in t["placing"][:2]]
    out = [p for t in previous for p in t["placing"][2:]]
    assert violations(request, _result([through[:4], through[4:]], eliminated=out)) == [
        ("table_too_small", "table 2 has 2 players, fewer than min_table_size 3",
         {"table": 2, "count": 2, "smallest": 3}),
        ("knockout_table_size", "every table after the first draw seats four", {}),
        ("request_invalid", "previous_round is not a main-draw round", {"count": 12}),
    ]


def test_a_previous_table_without_placing_or_totals_stops_the_check_of_the_round():
    request, result = _sixteen()[1]
    request = copy.deepcopy(request)
    del request["previous_round"][2]["placing"]
    assert violations(request, result) == [
        ("request_invalid", "previous_round table 3 has no usable placing or totals", {"previous": 3})]
