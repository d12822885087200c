"""Worked examples of seed 001 (Die Regeln des Steirischen Tarockcups 2017 / 2018) for the
ruleset `steirischer-tarockcup-2017`, each citing the clause it checks.

Players A, B, C, D sit in this order; every expected number is written out by hand.
"""

from __future__ import annotations

import pytest

from scoring import evaluate
from scoring.rules import get

RULESET = "steirischer-tarockcup-2017"
P = ["A", "B", "C", "D"]


def run(hands, options=None):
    card = {"ruleset": RULESET, "players": P, "hands": hands}
    if options is not None:
        card["options"] = options
    return evaluate(card)


def one(hand, options=None):
    return run([hand], options)["hands"][0]


def ann(name, by, announced=True, achieved=True):
    return {"name": name, "by": by, "announced": announced, "achieved": achieved}


def sc(a, b, c, d):
    return {"A": a, "B": b, "C": c, "D": d}


# -- the tariff: "Die Spiele und ihre Bewertung" ------------------------------------------------
TARIFF = {
    "rufer": 1, "piccolo": 2, "zwiccolo": 2, "solorufer": 2, "pagatrufer": 3, "bettler": 4,
    "sechserdreier": 4, "uhurufer": 5, "farbendreier": 5, "dreier": 5, "piccolo_ouvert": 6,
    "zwiccolo_ouvert": 6, "kakadurufer": 7, "bettler_ouvert": 8, "quapilrufer": 9,
    "farbensolo": 10, "solodreier": 10, "trischaken": 3,
}


def test_tariff_table_is_the_seeds():
    """Seed 001, "Die Spiele und ihre Bewertung": Piccolo, Zwiccolo 2 ... Solodreier 10;
    "Spiele für die Vorhand ...: Trischaken 3, Rufer 1"."""
    described = {g["code"]: g["value"] for g in get(RULESET).describe()["games"]}
    assert described == TARIFF
    assert get(RULESET).describe()["games"][7]["lost_value"] == 8  # "Sechserdreier 4/–8"


def test_premium_table_is_the_seeds():
    """Seed 001, "Die Prämien angesagt/still": König ultimo 2/1, Trull 2/1, 4 Könige 2/1,
    Pagat 2/1, Uhu 4/2, Kakadu 6/3, Quapil 8/4, Valat 8-fach/4-fach."""
    described = {a["code"]: (a["announced_value"], a["silent_value"])
                 for a in get(RULESET).describe()["announcements"]}
    assert described == {
        "koenig_ultimo": (2, 1), "trull": (2, 1), "vier_koenige": (2, 1), "pagat": (2, 1),
        "uhu": (4, 2), "kakadu": (6, 3), "quapil": (8, 4), "valat": (None, None),
    }
    valat = [a for a in get(RULESET).describe()["announcements"] if a["code"] == "valat"][0]
    assert (valat["game_multiplier_announced"], valat["game_multiplier_silent"]) == (8, 4)


@pytest.mark.parametrize("game", ["dreier", "farbendreier", "farbensolo", "solodreier",
                                  "sechserdreier", "piccolo", "zwiccolo", "bettler",
                                  "piccolo_ouvert", "zwiccolo_ouvert", "bettler_ouvert"])
def test_one_against_three_games_won_pay_the_tariff_three_times(game):
    """Tariff table; one against three the declarer is paid by each of the three (seed 001,
    renonce clause: "dem Dreierspieler 3 Mal")."""
    v = TARIFF[game]
    h = one({"game": game, "declarer": "A", "won": True, "forehand": "A"})
    assert h["value"] == v
    assert h["scores"] == sc(3 * v, -v, -v, -v)
    assert h["payout"] == sc(30 * v, -10 * v, -10 * v, -10 * v)


@pytest.mark.parametrize("game", ["rufer", "solorufer"])
def test_rufer_two_against_two(game):
    """Tariff: Rufer 1, Solorufer 2; the declarer and the holder of the called king win or
    lose together, one against one."""
    v = TARIFF[game]
    h = one({"game": game, "declarer": "A", "partner": "C", "won": False})
    assert h["scores"] == sc(-v, v, -v, v)


def test_rufer_for_the_forehand_after_all_passed_is_worth_1():
    """"Spiele für die Vorhand, wenn die anderen Spieler Weiter! gesagt haben ... Rufer 1"."""
    h = one({"game": "rufer", "declarer": "B", "partner": "D", "forehand": "B", "won": True})
    assert h["value"] == 1 and h["scores"] == sc(-1, 1, -1, 1)


def test_sechserdreier_lost_counts_double_game_only():
    """"Ein verlorener Sechserdreier zählt doppelt (nur das Spiel, nicht die Prämien)":
    4/–8; an announced Trull lost still costs 2 per opponent."""
    h = one({"game": "sechserdreier", "declarer": "A", "forehand": "A", "won": False,
             "announcements": [ann("trull", "A", achieved=False)]})
    assert h["value"] == 8
    assert h["scores"] == sc(-24 - 6, 8 + 2, 8 + 2, 8 + 2)


def test_points_decide_like_won_35_and_2_blatt():
    """"Zum Gewinn braucht der Spielaufnehmer eines positiven Spiels 35 Punkte und 2 Blatt":
    36 points win, 34 lose, 35 needs won."""
    assert one({"game": "dreier", "declarer": "A", "points": 36})["scores"]["A"] == 15
    assert one({"game": "dreier", "declarer": "A", "points": 34})["scores"]["A"] == -15
    assert one({"game": "dreier", "declarer": "A", "points": 35, "won": True}
               )["scores"]["A"] == 15


# -- premiums -----------------------------------------------------------------------------
def test_premiums_announced_and_silent_in_a_rufer():
    """Prämien table: Trull announced 2 made, Pagat silent 1 lost, Uhu announced 4 made by
    a defender; two against two each settles one to one."""
    h = one({"game": "rufer", "declarer": "A", "partner": "B", "won": True,
             "announcements": [ann("trull", "A"), ann("pagat", "B", announced=False,
                                                      achieved=False),
                               ann("uhu", "C")]})
    # game +1, trull +2, pagat -1, uhu -4 for A/B
    assert h["scores"] == sc(-2, -2, 2, 2)


@pytest.mark.parametrize("game,partner", [("solorufer", "B"), ("solodreier", None),
                                          ("farbensolo", None)])
def test_premiums_double_in_solorufer_solodreier_farbensolo(game, partner):
    """"Im Solorufer, Solodreier und Farbensolo gelten alle Prämien doppelt"."""
    hand = {"game": game, "declarer": "A", "won": True,
            "announcements": [ann("vier_koenige", "A")]}
    if partner is not None:
        hand["partner"] = partner
    h = one(hand)
    v = TARIFF[game]
    if partner:
        assert h["scores"] == sc(v + 4, v + 4, -v - 4, -v - 4)
    else:
        assert h["scores"] == sc(3 * (v + 4), -v - 4, -v - 4, -v - 4)


def test_vogerl_rufer_scores_game_and_named_vogerl():
    """"Ein Ruferspiel mit Vogerl muss sofort unter Nennung des Vogerls lizitiert werden":
    Uhurufer 5 plus the named Uhu announced 4, made."""
    h = one({"game": "uhurufer", "declarer": "A", "partner": "D", "won": True,
             "announcements": [ann("uhu", "A")]})
    assert h["scores"] == sc(9, -9, -9, 9)


def test_valat_announced_multiplies_the_game_by_8_and_counts_vogerln_unmultiplied():
    """Valat 8-fach; "Im angesagten und stillen Valat zählen alle Vogerln und der König
    ultimo (egal ob angesagt oder still), werden aber nicht vervielfacht"."""
    h = one({"game": "rufer", "declarer": "A", "partner": "B",
             "announcements": [ann("valat", "A"),
                               ann("pagat", "B", announced=False, achieved=True),
                               ann("koenig_ultimo", "A", announced=True, achieved=True)]})
    assert h["scores"] == sc(8 + 1 + 2, 8 + 1 + 2, -11, -11)


def test_valat_silent_counts_4_fold_and_announced_trull_but_not_silent():
    """Valat 4-fach still; "Im stillen Valat zählen angesagte Trull und angesagte 4
    Könige" (a silent Trull does not)."""
    h = one({"game": "dreier", "declarer": "A", "won": True,
             "announcements": [ann("valat", "A", announced=False),
                               ann("trull", "A"),
                               ann("vier_koenige", "A", announced=False)]})
    assert h["scores"] == sc(3 * (20 + 2), -22, -22, -22)
    assert [ln["code"] for ln in h["lines"]] == ["valat_won", "premium_won", "premium_in_valat"]


def test_valat_announced_and_failed_costs_8_fold():
    """Valat 8-fach: an announced Valat lost costs the eightfold game."""
    h = one({"game": "rufer", "declarer": "A", "partner": "B",
             "announcements": [ann("valat", "A", achieved=False)]})
    assert h["scores"] == sc(-8, -8, 8, 8)


def test_pagatrufer_valat_multiplies_only_the_game():
    """"Bei Pagatrufer, Uhurufer, etc. wird im Fall eines Valats nur das Spiel vervielfacht,
    nicht auch das Vogerl": 3 x 8 + Pagat 2."""
    h = one({"game": "pagatrufer", "declarer": "A", "partner": "B",
             "announcements": [ann("pagat", "A"), ann("valat", "A")]})
    assert h["scores"] == sc(26, 26, -26, -26)


def test_solorufer_valat_keeps_8_fold_with_premiums_doubled():
    """"(Valat bleibt aber 8-fach/4-fach)" in Solorufer; the Kakadu doubles: 2x8 + 6x2."""
    h = one({"game": "solorufer", "declarer": "A", "partner": "B",
             "announcements": [ann("valat", "A"), ann("kakadu", "A")]})
    assert h["scores"] == sc(28, 28, -28, -28)


# -- contras: payout only -------------------------------------------------------------------
def test_contras_change_the_payout_not_the_schrift():
    """"Kontrierungen wirken sich nicht auf die Schrift aus; wenn um Geld gespielt wird, dann
    nur auf die Auszahlung." and "1 Punkt = 10 Cent"; Kontra doubles, Re fourfold, Sub
    eightfold, for all players in a positive game."""
    base = {"game": "dreier", "declarer": "A", "won": True}
    for calls, factor in [([], 1), ([1], 2), ([1, 2], 4), ([1, 2, 3], 8)]:
        by = {1: "B", 2: "A", 3: "C"}
        contras = [{"on": "game", "by": by[lv], "level": lv} for lv in calls]
        h = one(dict(base, contras=contras))
        assert h["scores"] == sc(15, -5, -5, -5)
        assert h["payout"] == sc(150 * factor, -50 * factor, -50 * factor, -50 * factor)


def test_contra_on_a_premium_multiplies_that_premium_only():
    """"er muss zuvor angesagte Prämien anderer Spieler gleich kontrieren": Kontra on the
    declarer's Trull doubles the Trull's payout only."""
    h = one({"game": "rufer", "declarer": "A", "partner": "B", "won": True,
             "announcements": [ann("trull", "A")],
             "contras": [{"on": "trull", "by": "C", "level": 1}]})
    assert h["scores"] == sc(3, 3, -3, -3)
    assert h["payout"] == sc(10 + 40, 10 + 40, -50, -50)


def test_negative_games_are_contra_d_individually():
    """"bei negativen Spielen wird individuell kontriert": B's Kontra and A's Re on it touch
    only A and B; C's Kontra only A and C."""
    h = one({"game": "bettler", "declarer": "A", "won": True,
             "contras": [{"on": "game", "by": "B", "level": 1},
                         {"on": "game", "by": "C", "level": 1},
                         {"on": "game", "by": "A", "level": 2, "against": "B"}]})
    assert h["scores"] == sc(12, -4, -4, -4)
    assert h["payout"] == sc(160 + 80 + 40, -160, -80, -40)


def test_contra_between_partners_does_not_count():
    """"Stellt sich am Ende heraus, dass sich Partner kontriert haben, zählt dies nicht."""
    h = one({"game": "rufer", "declarer": "A", "partner": "B", "won": True,
             "announcements": [ann("trull", "A")],
             "contras": [{"on": "trull", "by": "B", "level": 1}]})
    assert h["payout"] == sc(30, 30, -30, -30)
    assert h["lines"][0]["code"] == "contra_void_partners"


def test_solorufer_with_king_in_talon_contras_do_not_count():
    """"Liegt beim Solorufer der gerufene König im Talon, erhält der Alleinspieler die
    Talonhälfte mit dem König. Kontras zählen in diesem Fall nicht"."""
    h = one({"game": "solorufer", "declarer": "A", "partner": None, "won": False,
             "contras": [{"on": "game", "by": "B", "level": 1}]})
    assert h["scores"] == sc(-6, 2, 2, 2)
    assert h["payout"] == sc(-60, 20, 20, 20)


def test_valat_makes_the_contra_on_the_game_lapse():
    """"Sobald ein Valat angesagt oder still erzielt wird, ist ein Kontra auf das Spiel
    hinfällig (ein Kontra auf einen angesagten Valat ist selbstverständlich möglich)"."""
    h = one({"game": "rufer", "declarer": "A", "partner": "B", "won": True,
             "announcements": [ann("valat", "A", announced=False)],
             "contras": [{"on": "game", "by": "C", "level": 1}]})
    assert h["scores"] == sc(4, 4, -4, -4) and h["payout"] == sc(40, 40, -40, -40)
    h = one({"game": "rufer", "declarer": "A", "partner": "B",
             "announcements": [ann("valat", "A")],
             "contras": [{"on": "valat", "by": "C", "level": 1}]})
    assert h["payout"] == sc(160, 160, -160, -160)


# -- king in the talon ------------------------------------------------------------------------
def test_rufer_with_king_in_talon_is_played_alone():
    """"Liegt beim Rufer, Pagatrufer etc. der gerufene König im Talon, kann sich der Spieler
    frei entscheiden, welche Talonhälfte er aufnimmt": he plays one against three."""
    h = one({"game": "rufer", "declarer": "A", "partner": None, "won": True})
    assert h["scores"] == sc(3, -1, -1, -1)


def test_schleifen_scores_the_normal_game():
    """"Wer sich selbst ruft, kann „schleifen". In diesem Fall werden die Punkte des normalen
    Spiels gewertet (z.B. Pagatrufer 3 Punkte)."""
    h = one({"game": "pagatrufer", "declarer": "A", "partner": None, "conceded": True})
    assert h["value"] == 3
    assert h["scores"] == sc(-9, 3, 3, 3)
    assert h["payout"] == sc(-90, 30, 30, 30)


# -- renonce -----------------------------------------------------------------------------------
def test_renoncing_rufer_player_pays_his_partner_too():
    """"der renoncierende Ruferspieler zahlt also auch dem Partner": the game (1) and the
    announced Trull (2) as if the other three had won them."""
    h = one({"game": "rufer", "declarer": "A", "partner": "B",
             "announcements": [{"name": "trull", "by": "A", "announced": True}],
             "penalties": [{"kind": "renons", "player": "A"}]})
    assert h["scores"] == sc(-9, 3, 3, 3)


def test_renoncing_defender_of_a_dreier_pays_declarer_three_times():
    """"der renoncierende Gegner eines Dreierspielers zahlt den anderen 2 Gegnern 1 Mal, dem
    Dreierspieler 3 Mal, also wie wenn die anderen 3 Spieler gewonnen hätten"."""
    h = one({"game": "dreier", "declarer": "A",
             "penalties": [{"kind": "renons", "player": "C"}]})
    assert h["scores"] == sc(15, 5, -25, 5)
    assert h["payout"] == sc(150, 50, -250, 50)


def test_renonce_pays_announced_premiums_and_claimed_silent_ones():
    """"Die anderen Spieler bekommen vom renoncierenden Spieler nur das Spiel und die
    angesagten Prämien" - and a player "kann diese Punkte beim renoncierenden Spieler
    einfordern" for an obvious loss of a silent Vogerl."""
    h = one({"game": "rufer", "declarer": "A", "partner": "B",
             "announcements": [{"name": "uhu", "by": "C", "announced": True},
                               ann("pagat", "A", announced=False, achieved=True)],
             "penalties": [{"kind": "renons", "player": "D"}]})
    # A: game 1 + Uhu failed 4 + claimed silent Pagat 1 = 6; B: 1 + 4 + 1 = 6 (his side's
    # claim); C: 1 + 4 = 5
    assert h["scores"] == sc(6, 6, 5, -17)


def test_renonce_in_a_sechserdreier_by_the_declarer_pays_the_lost_value():
    """"als hätten sie das Spiel ... gewonnen": the defenders winning a Sechserdreier win
    its lost value 8 ("4/–8")."""
    h = one({"game": "sechserdreier", "declarer": "A", "forehand": "A",
             "penalties": [{"kind": "renons", "player": "A"}]})
    assert h["scores"] == sc(-24, 8, 8, 8)


def test_renonce_payout_includes_the_contras():
    """Contras "gelten nur für die Auszahlung": the renonce payout is the payout as if the
    others had won, Kontra included."""
    h = one({"game": "dreier", "declarer": "A", "contras": [{"on": "game", "by": "B",
                                                             "level": 1}],
             "penalties": [{"kind": "renons", "player": "A"}]})
    assert h["scores"] == sc(-15, 5, 5, 5)
    assert h["payout"] == sc(-300, 100, 100, 100)


def test_two_renoncers_each_pay():
    """"so hat der Spieler mit den zu vielen und der mit den zu wenigen Karten Renonce
    begangen": each renoncing player pays the other three."""
    h = one({"game": "rufer", "declarer": "A", "partner": "B",
             "penalties": [{"kind": "renons", "player": "C"},
                           {"kind": "renons", "player": "D"}]})
    assert h["scores"] == sc(2, 2, -3 + 1, -3 + 1)


# -- Trischaken -----------------------------------------------------------------------------
def tri(points, forehand="A", blatt=None, **extra):
    hand = {"game": "trischaken", "forehand": forehand, "points_by_player": sc(*points)}
    if blatt is not None:
        hand["blatt_by_player"] = sc(*blatt)
    hand.update(extra)
    return hand


def test_trischaken_loser_pays_3_each():
    """"Verlierer des Trischakens ist der Spieler mit den meisten Punkten. Er zahlt den
    anderen Spielern je 3 Punkte."""
    h = one(tri((15, 30, 13, 12)))
    assert h["value"] == 3
    assert h["scores"] == sc(3, -9, 3, 3)
    assert h["payout"] == sc(30, -90, 30, 30)


def test_trischaken_forehand_loser_pays_6_each():
    """"Hat der Vorhandspieler die meisten Punkte, zahlt er doppelt, also je 6 Punkte"."""
    assert one(tri((30, 15, 13, 12)))["scores"] == sc(-18, 6, 6, 6)


def test_trischaken_forehand_tied_pays_6_each():
    """"(gilt auch dann, wenn er punktegleich mit einem anderen Spieler ist)"; the other tied
    loser pays 3 ("Bei Punktegleichheit zweier ... Verlierer zahlen diese ... je 3")."""
    assert one(tri((25, 25, 10, 10)))["scores"] == sc(-12, -6, 9, 9)


def test_trischaken_buergermeister_pays_6_each():
    """"Hat der Verlierer mindestens 35 Punkte und 2 Blatt erzielt (Bürgermeister), zahlt er
    ebenfalls doppelt, also je 6 Punkte."""
    assert one(tri((10, 40, 10, 10)))["scores"] == sc(6, -18, 6, 6)
    # 35 points and 2 Blatt is Bürgermeister, 35 and 1 Blatt is not
    assert one(tri((10, 35, 12, 12), blatt=(1, 2, 0, 0)))["scores"] == sc(6, -18, 6, 6)
    assert one(tri((10, 35, 12, 12), blatt=(1, 1, 1, 0)))["scores"] == sc(3, -9, 3, 3)


def test_trischaken_forehand_buergermeister_pays_12_each():
    """"Ist der Vorhandspieler Bürgermeister, zahlt er vierfach, also je 12 Punkte."""
    assert one(tri((40, 10, 10, 10)))["scores"] == sc(-36, 12, 12, 12)


def test_trischaken_two_or_three_tied_losers():
    """"Bei Punktegleichheit zweier oder dreier Verlierer zahlen diese an die bzw. an den
    Gewinner je 3 Punkte."""
    assert one(tri((10, 25, 25, 10)))["scores"] == sc(6, -6, -6, 6)
    assert one(tri((10, 20, 20, 20)))["scores"] == sc(9, -3, -3, -3)


def test_trischaken_jungfrau_gets_9_from_the_loser():
    """"Hat ein Spieler keinen Stich (Jungfrau), erhält er vom Verlierer 9 Punkte; die
    anderen Spieler bekommen nichts."""
    assert one(tri((20, 30, 20, 0)))["scores"] == sc(0, -9, 0, 9)


def test_trischaken_jungfrau_with_two_tied_losers():
    """"Bei Punktegleichheit von 2 Verlierern erhält die Jungfrau von diesen je 9 Punkte."""
    assert one(tri((10, 30, 30, 0)))["scores"] == sc(0, -9, -9, 18)


def test_trischaken_two_jungfrauen():
    """"Haben 2 Spieler keinen Stich (2 Jungfrauen), so erhalten sie vom Verlierer je 9
    Punkte." (35 and 1 Blatt against 34 and 2 Blatt: no Bürgermeister)"""
    h = one(tri((34, 35, 0, 0), blatt=(2, 1, 0, 0)))
    assert h["scores"] == sc(0, -18, 9, 9)


def test_trischaken_two_jungfrauen_two_losers_at_35():
    """"Bei Punktegleichheit zweier Verlierer, (also jeweils 35 Punkte) erhält jede Jungfrau
    von einem der Verlierer 9 Punkte."""
    assert one(tri((35, 35, 0, 0)))["scores"] == sc(-9, -9, 9, 9)


def test_trischaken_buergermeister_and_jungfrauen():
    """"Der Bürgermeister zahlt der Jungfrau 18 Punkte, gibt es 2 Jungfrauen, zahlt er je 9
    Punkte."""
    assert one(tri((20, 40, 10, 0)))["scores"] == sc(0, -18, 0, 18)
    assert one(tri((20, 50, 0, 0)))["scores"] == sc(0, -18, 9, 9)


def test_trischaken_all_tricks():
    """"Hat der Verlierer alle Stiche, zahlt er je 12 Punkte. Hat der Vorhandspieler alle
    Stiche, zahlt er je 24 Punkte."""
    assert one(tri((0, 70, 0, 0)))["scores"] == sc(12, -36, 12, 12)
    assert one(tri((70, 0, 0, 0)))["scores"] == sc(-72, 24, 24, 24)


def test_trischaken_renonce_pays_9_each():
    """"Bei Renonce zahlt der Renoncespieler den 3 regulären Spielern je 9 Punkte, egal wer
    getrischakt hat."""
    h = one({"game": "trischaken", "forehand": "A",
             "penalties": [{"kind": "renons", "player": "C"}]})
    assert h["scores"] == sc(9, 9, -27, 9)


def test_trischaken_forehand_jungfrau_option():
    """Option trischaken_forehand_doubles_jungfrau: the Jungfrau clause names 9 without the
    Vorhand doubling (default); the option applies "zahlt er doppelt" to it."""
    hand = tri((30, 20, 20, 0))
    assert one(hand)["scores"] == sc(-9, 0, 0, 9)
    assert one(hand, {"trischaken_forehand_doubles_jungfrau": True})["scores"] == \
        sc(-18, 0, 0, 18)


def test_trischaken_dropped_blatt_tolerance():
    """Points counted in whole points may add up to 68 or 69 (the Blatt dropped); the result
    stands when the dropped Blatt cannot change it."""
    assert one(tri((15, 30, 12, 12)))["scores"] == sc(3, -9, 3, 3)


# -- cup points ----------------------------------------------------------------------------
def test_cup_points_only_the_seeds_places():
    """"erster Platz 223 Fixpunkte, zweiter 198, dritter 180 ... 50. Platz 1 Fixpunkt" and
    "Für den Gesamtturniersieg werden die sechs besten Ergebnisse plus das Final-Ergebnis
    gewertet.": the registry's cup series is this ruleset's."""
    from scoring import rules
    cup = rules.cup_points()
    assert cup is get(RULESET).cup_points
    assert dict(cup.places) == {1: 223, 2: 198, 3: 180, 50: 1} and not cup.complete
    assert cup.best_results == 6 and cup.plus_final
    assert cup.rounds_per_tournament == 3


def test_describe_states_the_payout_unit():
    """"1 Punkt = 10 Cent": the payout is in cents."""
    d = get(RULESET).describe()
    assert d["payout_unit"] == "cent" and d["cents_per_point"] == 10
    assert d["cup_points"]["seed_places"] == {"1": 223, "2": 198, "3": 180, "50": 1}
    assert d["hand_schema"]["properties"]["contras"]["items"]["properties"]["level"] == \
        {"enum": [1, 2, 3]}


def test_totals_and_payout_totals():
    """The engine adds the Schrift ("Für das Turnierergebnis ist nur die Schrift
    ausschlaggebend") and the payout over the hands."""
    r = run([{"game": "dreier", "declarer": "A", "won": True,
              "contras": [{"on": "game", "by": "B", "level": 1}]},
             tri((15, 30, 13, 12))])
    assert r["totals"] == sc(18, -14, -2, -2)
    assert r["payout_totals"] == sc(330, -190, -70, -70)


def test_individual_sub_chain_with_the_re_target_inferred():
    """"bei negativen Spielen wird individuell kontriert": Kontra by B, Re by A (answering the
    only open Kontra), Sub by B: eightfold between A and B only."""
    h = one({"game": "piccolo", "declarer": "A", "won": False,
             "contras": [{"on": "game", "by": "B", "level": 1},
                         {"on": "game", "by": "A", "level": 2},
                         {"on": "game", "by": "B", "level": 3}]})
    assert h["scores"] == sc(-6, 2, 2, 2)
    assert h["payout"] == sc(-160 - 20 - 20, 160, 20, 20)


def test_hidden_partner_contra_on_the_game_does_not_count():
    """"Stellt sich am Ende heraus, dass sich Partner kontriert haben, zählt dies nicht.":
    the partner C said Kontra on his declarer's game."""
    h = one({"game": "rufer", "declarer": "A", "partner": "C", "won": False,
             "contras": [{"on": "game", "by": "C", "level": 1},
                         {"on": "game", "by": "A", "level": 2}]})
    assert h["payout"] == sc(-10, 10, -10, 10)
