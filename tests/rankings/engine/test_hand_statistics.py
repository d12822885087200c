"""The counting of rankings.hand_statistics on small hand-made cards, every figure worked out by
hand in the test: a player's games declared and won, his average score by role, announcements,
contras, radelci and renonses (Slovenian tarok and Königrufen), and an event's most played
games, biggest hands and longest winning streaks."""

from __future__ import annotations

import pytest

from rankings import hand_statistics as hs


def hand(record, scores, state=None):
    return {"record": record, "scores": scores, "state": state or {}}


def radelci(**counts):
    return {"radelci": {str(k.strip("p")): v for k, v in counts.items()}}


# Tarok.net rules, TRI + 1: player "1" declares, defends, plays klop, rests and renonses.
SLOVENIAN_CARD = {
    "ruleset": "tarok-net-2007", "players": ["1", "2", "3", "4"], "key": (1, 1),
    "hands": [
        # trojka with 40: won; trula announced and made, pagat ultimo announced and lost;
        # the kontra of "2" on the game is wrong.
        hand({"game": "trojka", "declarer": "1", "resting": "4", "points": 40,
              "announcements": [
                  {"name": "trula", "by": "1", "announced": True, "achieved": True},
                  {"name": "pagat_ultimo", "by": "1", "announced": True, "achieved": False}],
              "contras": [{"on": "game", "by": "2", "level": 1}]},
             {"1": 30, "2": -10, "3": 0, "4": 0}),
        # klop: "1" rests in TRI + 1 but plays klop; everybody gets a radelc.
        hand({"game": "klop", "resting": "1",
              "points_by_player": {"1": 10, "2": 20, "3": 30, "4": 10}},
             {"1": -10, "2": -20, "3": -30, "4": -10}, radelci(p1=1, p2=1, p3=1, p4=1)),
        # dvojka of "2" with 30: lost; "1" defends and his kontra is right.
        hand({"game": "dvojka", "declarer": "2", "resting": "3", "points": 30,
              "contras": [{"on": "game", "by": "1", "level": 1}]},
             {"1": 0, "2": -50, "3": 0, "4": 0}, radelci(p1=1, p2=1, p3=1, p4=1)),
        # enka of "1" ended by his renons: declared, neither won nor lost.
        hand({"game": "enka", "declarer": "1", "resting": "2",
              "penalties": [{"kind": "renons", "player": "1"}]},
             {"1": -50, "2": 0, "3": 0, "4": 0}, radelci(p1=1, p2=1, p3=1, p4=1)),
        # trojka of "1" with 50: won, his radelc struck off; a silent trula made.
        hand({"game": "trojka", "declarer": "1", "resting": "3", "points": 50,
              "announcements": [{"name": "trula", "by": "1", "announced": False,
                                 "achieved": True}]},
             {"1": 70, "2": 0, "3": 0, "4": 0}, radelci(p1=0, p2=1, p3=1, p4=1)),
        # "1" rests: no role, not counted as played.
        hand({"game": "trojka", "declarer": "3", "resting": "1", "points": 20},
             {"1": 0, "2": 0, "3": -25, "4": 0}, radelci(p1=0, p2=1, p3=1, p4=1)),
        # a second klop: "1" gets his radelc again (0 -> 1), the others stay at 1 -> 2.
        hand({"game": "klop", "resting": "2",
              "points_by_player": {"1": 0, "2": 30, "3": 30, "4": 10}},
             {"1": 70, "2": -30, "3": -30, "4": -10}, radelci(p1=1, p2=2, p3=2, p4=2)),
    ],
}


def test_a_slovenian_players_figures():
    stats = hs.player_statistics([{**SLOVENIAN_CARD, "me": "1"}])
    assert stats.cards == 1
    assert stats.hands == 6  # every hand but the one he rested
    assert {code: (t.declared, t.won, t.lost) for code, t in stats.games.items()} == {
        "trojka": (2, 2, 0), "enka": (1, 0, 0)}
    assert (stats.declared, stats.won) == (3, 2)
    roles = {role: (t.hands, t.total) for role, t in stats.roles.items()}
    assert roles == {"declarer": (3, 30 - 50 + 70), "partner": (0, 0), "defender": (1, 0),
                     "klop": (2, -10 + 70)}
    assert stats.roles["declarer"].average == pytest.approx(50 / 3)
    assert stats.roles["klop"].average == 30
    assert stats.roles["partner"].average is None
    ann = {code: (t.announced, t.achieved, t.silent_achieved)
           for code, t in stats.announcements.items()}
    assert ann == {"trula": (1, 1, 1), "pagat_ultimo": (1, 0, 0)}
    assert (stats.contras_given, stats.contras_right, stats.contras_wrong) == (1, 1, 0)
    assert stats.radelci == 2  # the first klop, and the second after the first was struck off
    assert stats.renonses == 1


def test_the_other_players_of_the_same_card():
    two = hs.player_statistics([{**SLOVENIAN_CARD, "me": "2"}])
    # kontra on a won trojka: wrong; his dvojka with 30 lost
    assert (two.contras_given, two.contras_right, two.contras_wrong) == (1, 0, 1)
    assert {c: (t.declared, t.won, t.lost) for c, t in two.games.items()} == {"dvojka": (0 + 1, 0, 1)}
    assert two.radelci == 2 and two.renonses == 0
    # "2" rested in the enka and in the second klop he plays: 6 hands
    assert two.hands == 6
    assert two.roles["defender"].hands == 3 and two.roles["defender"].total == -10
    four = hs.player_statistics([{**SLOVENIAN_CARD, "me": "4"}])
    assert four.hands == 6 and not four.games and four.roles["klop"].total == -20


# Königrufen (Steirischer Tarockcup), four players: partners, Trischaken, a premium's contra.
KOENIGRUFEN_CARD = {
    "ruleset": "steirischer-tarockcup-2017", "players": ["1", "2", "3", "4"], "key": (1, 2),
    "hands": [
        # Rufer of "1" with "3" as partner, 40 points: won. "3" announced the Pagat and made
        # it; the kontra of "2" on it is wrong.
        hand({"game": "rufer", "declarer": "1", "partner": "3", "points": 40,
              "announcements": [{"name": "pagat", "by": "3", "announced": True,
                                 "achieved": True}],
              "contras": [{"on": "pagat", "by": "2", "level": 1}]},
             {"1": 3, "2": -3, "3": 3, "4": -3}),
        # Trischaken: everybody for himself.
        hand({"game": "trischaken", "forehand": "1",
              "points_by_player": {"1": 10, "2": 20, "3": 30, "4": 10}},
             {"1": 3, "2": 3, "3": -9, "4": 3}),
        # Bettler of "3": lost; the kontra of "1" is right, the re of "3" wrong.
        hand({"game": "bettler", "declarer": "3", "won": False,
              "contras": [{"on": "game", "by": "1", "level": 1},
                          {"on": "game", "by": "3", "level": 2}]},
             {"1": 4, "2": 4, "3": -12, "4": 4}),
        # Rufer of "1" with "2", 35 points and the Blatt: won. "4" renonses.
        hand({"game": "rufer", "declarer": "1", "partner": "2", "points": 35, "won": True,
              "penalties": [{"kind": "renons", "player": "4"}]},
             {"1": 2, "2": 2, "3": -2, "4": -2}),
    ],
}


def test_a_koenigrufen_players_figures():
    one = hs.player_statistics([{**KOENIGRUFEN_CARD, "me": "1"}])
    assert one.hands == 4
    assert {c: (t.declared, t.won, t.lost) for c, t in one.games.items()} == {"rufer": (2, 2, 0)}
    assert {r: (t.hands, t.total) for r, t in one.roles.items()} == {
        "declarer": (2, 5), "partner": (0, 0), "defender": (1, 4), "klop": (1, 3)}
    assert (one.contras_given, one.contras_right, one.contras_wrong) == (1, 1, 0)
    assert one.radelci == 0 and one.renonses == 0

    three = hs.player_statistics([{**KOENIGRUFEN_CARD, "me": "3"}])
    assert {r: (t.hands, t.total) for r, t in three.roles.items()} == {
        "declarer": (1, -12), "partner": (1, 3), "defender": (1, -2), "klop": (1, -9)}
    assert {c: (t.declared, t.won, t.lost) for c, t in three.games.items()} == {"bettler": (1, 0, 1)}
    assert {c: (t.announced, t.achieved) for c, t in three.announcements.items()} == {"pagat": (1, 1)}
    assert (three.contras_given, three.contras_right, three.contras_wrong) == (1, 0, 1)

    two = hs.player_statistics([{**KOENIGRUFEN_CARD, "me": "2"}])
    assert (two.contras_given, two.contras_right, two.contras_wrong) == (1, 0, 1)
    assert two.roles["partner"].hands == 1
    four = hs.player_statistics([{**KOENIGRUFEN_CARD, "me": "4"}])
    assert four.renonses == 1


def test_figures_add_up_over_cards_of_several_rulesets_of_one_family():
    zei = {"ruleset": "slovenski-tarok-zei", "players": ["7", "8", "9"], "me": "9",
           "hands": [hand({"game": "tri", "declarer": "9", "points": 36}, {"9": 11}),
                     hand({"game": "tri", "declarer": "9", "points": 35}, {"9": -10})]}
    stats = hs.player_statistics([{**SLOVENIAN_CARD, "me": "1"}, zei])
    assert stats.cards == 2 and stats.hands == 8
    assert (stats.games["tri"].declared, stats.games["tri"].won, stats.games["tri"].lost) == (2, 1, 1)
    assert stats.rulesets == ["tarok-net-2007", "slovenski-tarok-zei"]


def test_declarer_won_reads_won_then_points_and_leaves_a_renons_undecided():
    assert hs.declarer_won({"points": 36}) is True
    assert hs.declarer_won({"points": 35}) is False
    assert hs.declarer_won({"points": 35, "won": True}) is True
    assert hs.declarer_won({"won": False}) is False
    assert hs.declarer_won({"penalties": [{"kind": "renons", "player": "1"}]}) is None


def test_an_events_most_played_games_biggest_hands_and_streaks():
    cards = [
        {"ruleset": "tarok-net-2007", "key": (1, 1), "hands": [
            hand({"game": "trojka", "declarer": "1", "resting": "4", "points": 50},
                 {"1": 25, "2": 0, "3": 0, "4": 0}),
            hand({"game": "trojka", "declarer": "1", "resting": "2", "points": 40},
                 {"1": 15, "2": 0, "3": 0, "4": 0}),
            hand({"game": "klop", "resting": "1",
                  "points_by_player": {"1": 0, "2": 20, "3": 40, "4": 10}},
                 {"1": 70, "2": -20, "3": -40, "4": -10}),
        ]},
        {"ruleset": "tarok-net-2007", "key": (1, 2), "hands": [
            hand({"game": "dvojka", "declarer": "5", "resting": "8", "points": 70},
                 {"5": 55, "6": 0, "7": 0, "8": 0}),
            hand({"game": "trojka", "declarer": "5", "resting": "6", "points": 20},
                 {"5": -25, "6": 0, "7": 0, "8": 0}),
            hand({"game": "trojka", "declarer": "6", "resting": "7", "points": 36},
                 {"5": 0, "6": 11, "7": 0, "8": 0}),
        ]},
        # round 2: "1" wins a third declared game in a row; "5" wins again after his loss;
        # a renons leaves "6"'s streak as it was.
        {"ruleset": "tarok-net-2007", "key": (2, 1), "hands": [
            hand({"game": "trojka", "declarer": "1", "resting": "6", "points": 45},
                 {"1": 20, "5": 0, "2": 0, "6": 0}),
            hand({"game": "enka", "declarer": "6", "resting": "1",
                  "penalties": [{"kind": "renons", "player": "6"}]},
                 {"1": 0, "5": 0, "2": 0, "6": -60}),
            hand({"game": "trojka", "declarer": "6", "resting": "2", "points": 55},
                 {"1": 0, "5": 0, "2": 0, "6": 30}),
            hand({"game": "trojka", "declarer": "5", "resting": "2", "points": 60},
                 {"1": 0, "5": 35, "2": 0, "6": 0}),
        ]},
    ]
    stats = hs.event_statistics(cards, top=3)
    assert stats.cards == 3 and stats.hands == 10
    # trojka 7 times (won by the declarer 6 times: all but "5"'s with 20), then the others
    # by their count, ties by code
    # (game, hands, won, with a declarer's result): the renonsed enka and klop have none
    assert stats.most_played() == [("trojka", 7, 6, 7), ("dvojka", 1, 1, 1), ("enka", 1, 0, 0),
                                   ("klop", 1, 0, 0)]
    assert [(b.player, b.score, b.game, b.card, b.number) for b in stats.biggest] == [
        ("1", 70, "klop", (1, 1), 3), ("5", 55, "dvojka", (1, 2), 1),
        ("5", 35, "trojka", (2, 1), 4)]
    # "1": 3 won in a row; "6": won, (renons), won = 2; "5": won, lost, won = 1
    assert [(s.player, s.length) for s in stats.streaks] == [("1", 3), ("6", 2), ("5", 1)]


def test_nothing_counted_gives_empty_figures():
    stats = hs.event_statistics([])
    assert (stats.hands, stats.most_played(), stats.biggest, stats.streaks) == (0, [], [], [])
    assert hs.player_statistics([]).hands == 0


def test_stored_nonsense_counts_as_nothing_rather_than_failing():
    cards = [{"ruleset": "tarok-net-2007", "me": "1", "players": ["1", "2", "3"], "key": (1, 1),
              "hands": [{"record": ["trojka"], "scores": None, "state": 7},
                        {"record": {"game": "trojka", "declarer": "1", "points": "many",
                                    "announcements": "trula", "contras": [3], "penalties": 5},
                         "scores": {"1": "ten"}, "state": {"radelci": [1]}}]}]
    stats = hs.player_statistics(cards)
    assert stats.hands == 1 and stats.games["trojka"].declared == 1
    assert stats.games["trojka"].won == 0 and stats.roles["declarer"].total == 0
    assert stats.contras_given == 0 and stats.radelci == 0
    event = hs.event_statistics(cards)
    assert event.hands == 1 and event.biggest == [] and event.streaks == []
