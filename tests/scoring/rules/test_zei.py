"""Worked examples of seed 003 (Lada Zei, Kratka pravila za igranje taroka) for the ruleset
`slovenski-tarok-zei`, each citing the clause it checks. Every expected number is written
out by hand."""

from __future__ import annotations

import pytest

from scoring import evaluate
from scoring.rules import get

RULESET = "slovenski-tarok-zei"
FOUR = ["A", "B", "C", "D"]
THREE = ["A", "B", "C"]


def run(hands, mode="four", options=None):
    card = {"ruleset": RULESET, "mode": mode, "players": FOUR if mode == "four" else THREE,
            "hands": hands}
    if options is not None:
        card["options"] = options
    return evaluate(card)


def one(hand, mode="four", options=None):
    return run([hand], mode, options)["hands"][0]


def ann(name, by="A", announced=True, achieved=True):
    return {"name": name, "by": by, "announced": announced, "achieved": achieved}


def sc(a, b, c, d=None):
    out = {"A": a, "B": b, "C": c}
    if d is not None:
        out["D"] = d
    return out


def test_game_table_is_the_seeds():
    """IGRE PO VREDNOSTI: tri 10, dva 20, ena 30, solo tro 20, solo dva 30, solo ena 40, solo
    brez talona 50, pikolo 60, berač 70, odprti berač 80."""
    values = {g["code"]: g["value"] for g in get(RULESET).describe()["games"]}
    assert values == {"tri": 10, "dva": 20, "ena": 30, "solo_tri": 20, "solo_dva": 30,
                      "solo_ena": 40, "solo_brez": 50, "pikolo": 60, "berac": 70,
                      "odprti_berac": 80, "klop": 0}


def test_announcement_table_is_the_seeds():
    """VREDNOST NAPOVEDI (tiho / napovedano): trula 10/20, kralji 10/20, pagat 25/50,
    trulapagat -/70, valat 250/500; kralj 10/20; solo +10."""
    values = {a["code"]: (a["silent_value"], a["announced_value"])
              for a in get(RULESET).describe()["announcements"]}
    assert values == {"trula": (10, 20), "kralji": (10, 20), "pagat_ultimo": (25, 50),
                      "trulapagat": (35, 70), "kralj": (10, 20), "solo": (None, 10),
                      "valat": (250, 500)}


def test_tri_won_adds_the_points_over_35():
    """TAROK ZA TRI: tri "ki mu bo na koncu, če bo igro dobil, prinesla 10 pik, ki jih doda k
    pikam, višjim od 35": 40 points -> 10 + 5."""
    h = one({"game": "tri", "declarer": "A", "points": 40}, mode="three")
    assert h["value"] == 15 and h["scores"] == sc(15, 0, 0)


def test_lost_game_example_32_points():
    """IZGUBA: "priigral samo 32 pik. Do polovice, 35 pik, mu manjkajo tri pike. K temu je
    treba dodati vrednost igre ... in vrednost vsega, kar je napovedal. Seštevek vsega tega
    se mu šteje v minus." -> tri: -(3 + 10); with an announced trula made: -(3 + 10 + 20)."""
    h = one({"game": "tri", "declarer": "A", "points": 32}, mode="three")
    assert h["value"] == 13 and h["scores"] == sc(-13, 0, 0)
    h = one({"game": "tri", "declarer": "A", "points": 32,
             "announcements": [ann("trula")]}, mode="three")
    assert h["scores"] == sc(-33, 0, 0)


def test_lost_game_announcements_option():
    """Option lost_game_loses_announcements=false: the trula made still counts +20."""
    h = one({"game": "tri", "declarer": "A", "points": 32, "announcements": [ann("trula")]},
            mode="three", options={"lost_game_loses_announcements": False})
    assert h["scores"] == sc(7, 0, 0)


@pytest.mark.parametrize("game,value", [("dva", 20), ("ena", 30)])
def test_dva_ena_lost(game, value):
    """"se mu štejejo manjkajoče pike do 35, k tem pa še 10 pik za trojko, 20 za dvojko oz. 30
    za enko"."""
    h = one({"game": game, "declarer": "B", "points": 30}, mode="three")
    assert h["scores"] == sc(0, -(5 + value), 0)


def test_35_points_lose():
    """"Zmago prinaša seštevek priigranih kart, ki je višji od 35 pik": 35 loses, missing 0."""
    assert one({"game": "tri", "declarer": "A", "points": 35}, mode="three")["scores"] == \
        sc(-10, 0, 0)
    assert one({"game": "tri", "declarer": "A", "points": 36}, mode="three")["scores"] == \
        sc(11, 0, 0)


def test_four_partner_writes_the_same():
    """TAROK ZA ŠTIRI: the called king's holder is the declarer's "soigralec"."""
    h = one({"game": "dva", "declarer": "A", "partner": "C", "points": 50})
    assert h["scores"] == sc(35, 0, 35, 0)
    h = one({"game": "dva", "declarer": "A", "partner": "C", "points": 50},
            options={"partner_scores": False})
    assert h["scores"] == sc(35, 0, 0, 0)


def test_king_in_talon_declarer_plays_alone_without_solo_bonus():
    """"Zgodi se, da licitator pokliče kralja, ki se pojavi v talonu. ... igro bo namreč
    igral sam.": partner null, no solo bonus unless announced."""
    assert one({"game": "tri", "declarer": "A", "partner": None, "points": 40})["scores"] \
        == sc(15, 0, 0, 0)


def test_solo_announcement_adds_10():
    """Solo: "bo igral sam proti trem nasprotnikom, za ta pogum bo dobil dodatnih 10 pik";
    lost, it counts in minus with the rest."""
    h = one({"game": "tri", "declarer": "A", "partner": None, "points": 40,
             "announcements": [{"name": "solo", "by": "A", "announced": True}]})
    assert h["scores"] == sc(25, 0, 0, 0)
    h = one({"game": "tri", "declarer": "A", "partner": None, "points": 30,
             "announcements": [{"name": "solo", "by": "A", "announced": True}]})
    assert h["scores"] == sc(-25, 0, 0, 0)


@pytest.mark.parametrize("game,value", [("solo_tri", 20), ("solo_dva", 30), ("solo_ena", 40),
                                        ("solo_brez", 50)])
def test_solo_games(game, value):
    """IGRE PO VREDNOSTI, Alternativa: solo tro 20, solo dva 30, solo ena 40; solo brez
    talona 50."""
    h = one({"game": game, "declarer": "D", "points": 38})
    assert h["scores"] == sc(0, 0, 0, value + 3)


@pytest.mark.parametrize("game,value", [("pikolo", 60), ("berac", 70), ("odprti_berac", 80)])
def test_games_without_talon(game, value):
    """pikolo 60, berač 70, odprti berač 80; won or lost as a whole."""
    assert one({"game": game, "declarer": "B", "won": True}, mode="three")["scores"] == \
        sc(0, value, 0)
    assert one({"game": game, "declarer": "B", "won": False}, mode="three")["scores"] == \
        sc(0, -value, 0)


@pytest.mark.parametrize("name,announced,value", [
    ("pagat_ultimo", True, 50), ("pagat_ultimo", False, 25),
    ("trula", True, 20), ("trula", False, 10),
    ("kralji", True, 20), ("kralji", False, 10),
    ("trulapagat", True, 70), ("trulapagat", False, 35),
])
def test_announcement_values_made(name, announced, value):
    """NAPOVEDI: "Napovedani pagat ultimo mu bo prinesel 50 pik ... tihi pagat šteje pol
    manj, torej 25"; trula 20/10; kralji 20/10; "Napovedan trulpagat je vreden 70 pik, tiha
    izvedba pol manj, torej 35 pik"."""
    h = one({"game": "tri", "declarer": "A", "points": 40,
             "announcements": [ann(name, announced=announced)]}, mode="three")
    assert h["scores"] == sc(15 + value, 0, 0)


def test_announced_but_failed_counts_in_minus():
    """"Če igralec ne uresniči napovedi, se mu vse kar je napovedal, šteje v minus."""
    h = one({"game": "tri", "declarer": "A", "points": 40,
             "announcements": [ann("pagat_ultimo", achieved=False)]}, mode="three")
    assert h["scores"] == sc(15 - 50, 0, 0)


def test_trulapagat_silent_option_50():
    """Option trulapagat_silent_value=50, the table's figure "trulapagat 50 70"."""
    h = one({"game": "tri", "declarer": "A", "points": 40,
             "announcements": [ann("trulapagat", announced=False)]}, mode="three",
            options={"trulapagat_silent_value": 50})
    assert h["scores"] == sc(65, 0, 0)


def test_kralj_by_the_partner_and_lost_kralj():
    """"Tak napovedani kralj prinaša 20 pik, tihi, pridobljen v zadnjem krogu, pa 10 pik.
    Izgubljeni kralj v zadnjem krogu šteje enako."""
    h = one({"game": "tri", "declarer": "A", "partner": "B", "points": 40,
             "announcements": [ann("kralj", by="B")]})
    assert h["scores"] == sc(35, 35, 0, 0)
    h = one({"game": "tri", "declarer": "A", "partner": "B", "points": 40,
             "announcements": [ann("kralj", by="B", announced=False, achieved=False)]})
    assert h["scores"] == sc(5, 5, 0, 0)


def test_valat_replaces_the_game():
    """"Tako napovedana igra šteje 500 pik, nenapovedan valat pa je vreden pol manj."""
    h = one({"game": "tri", "declarer": "A", "partner": "B", "points": 70,
             "announcements": [ann("valat"), ann("trula")]})
    assert h["value"] == 500 and h["scores"] == sc(500, 500, 0, 0)
    h = one({"game": "ena", "declarer": "A", "points": 70,
             "announcements": [ann("valat", announced=False)]}, mode="three")
    assert h["scores"] == sc(250, 0, 0)


def test_kontra_re_sub():
    """NASPROTOVANJE: "Kontra je prva stopnja ... podvajanja vrednosti igre. Licitator lahko
    odvrne z Re ... štirikratni dobiček ... Sub ... poosmeri dobiček oz. izgubo."; the
    announcements are not multiplied (option contra_doubles=game)."""
    calls = [{"on": "game", "by": "B", "level": 1}, {"on": "game", "by": "A", "level": 2},
             {"on": "game", "by": "C", "level": 3}]
    for n, factor in [(1, 2), (2, 4), (3, 8)]:
        h = one({"game": "tri", "declarer": "A", "points": 40, "contras": calls[:n],
                 "announcements": [ann("trula")]}, mode="three")
        assert h["scores"] == sc(15 * factor + 20, 0, 0)
        h = one({"game": "tri", "declarer": "A", "points": 40, "contras": calls[:n],
                 "announcements": [ann("trula")]}, mode="three",
                options={"contra_doubles": "whole_hand"})
        assert h["scores"] == sc(35 * factor, 0, 0)


def test_klop():
    """KLOPECKI: "se vse, kar je kdo priigral, šteje njemu v minus"; "Kdor je ostal brez
    vzetka, si piše 10 pik v dobro"; "Če pa je kateri od igralcev sam nabral več kot 35 pik
    ... si zato za kazen piše kar 35 pik minusa"."""
    h = one({"game": "klop", "points_by_player": sc(40, 20, 10, 0)})
    assert h["value"] == 0
    assert h["scores"] == sc(-75, -20, -10, 10)
    h = one({"game": "klop", "points_by_player": sc(40, 20, 10, 0)},
            options={"klop_over_35": "instead"})
    assert h["scores"] == sc(-35, -20, -10, 10)
    h = one({"game": "klop", "points_by_player": sc(30, 25, 15)}, mode="three")
    assert h["scores"] == sc(-30, -25, -15)


def test_personal_radelci():
    """"Vsakemu igralcu se po odigranem klopu ... piše radelc ... Radelc zagotavlja
    podvojeno število pik za naslednjo dobljeno igro. Takrat se mu radelc tudi uniči. Če pa
    naslednjo igro izgubi, se mu prav tako piše dvojna izguba, vendar ga radelc čaka do
    naslednje zmage."""
    r = run([
        {"game": "klop", "points_by_player": sc(30, 25, 15)},
        {"game": "tri", "declarer": "A", "points": 30},  # lost: -15 doubled, radelc stays
        {"game": "tri", "declarer": "A", "points": 40},  # won: 15 doubled, radelc struck
        {"game": "tri", "declarer": "A", "points": 40},  # no radelc left
    ], mode="three")
    hs = r["hands"]
    assert hs[0]["state"] == {"radelci": sc(1, 1, 1)}
    assert hs[1]["scores"] == sc(-30, 0, 0) and hs[1]["state"] == {"radelci": sc(1, 1, 1)}
    assert hs[2]["scores"] == sc(30, 0, 0) and hs[2]["state"] == {"radelci": sc(0, 1, 1)}
    assert hs[3]["scores"] == sc(15, 0, 0)
    assert r["totals"] == sc(-30 - 30 + 30 + 15, -25, -15)


def test_klop_itself_is_not_doubled_by_radelci():
    """The radelc doubles "naslednjo dobljeno igro" (or a lost one); klop is neither."""
    r = run([{"game": "klop", "points_by_player": sc(30, 25, 15)},
             {"game": "klop", "points_by_player": sc(30, 25, 15)}], mode="three")
    assert r["hands"][1]["scores"] == sc(-30, -25, -15)
    assert r["hands"][1]["state"] == {"radelci": sc(2, 2, 2)}


def test_partner_radelc():
    """A partner's own radelc doubles his won game (option radelc_for_partner)."""
    hands = [{"game": "klop", "points_by_player": sc(30, 20, 10, 10)},
             {"game": "tri", "declarer": "A", "partner": "B", "points": 40}]
    r = run(hands)
    assert r["hands"][1]["scores"] == sc(30, 30, 0, 0)
    assert r["hands"][1]["state"] == {"radelci": sc(0, 0, 1, 1)}
    r = run(hands, options={"radelc_for_partner": False})
    assert r["hands"][1]["scores"] == sc(30, 15, 0, 0)
    assert r["hands"][1]["state"] == {"radelci": sc(0, 1, 1, 1)}


def test_collective_radelci():
    """"Štajerci so si izmisli kolektivne radelce. ... narišejo na vrhu lista toliko
    krogcev, kolikor je igralcev. Vsaka naslednja dobljena igra se šteje dvojno, radelc pa
    se briše, ne glede na to, kdo je igral. Tudi izguba šteje dvojno število pik, le da
    radelca ne brišejo."""
    hands = [{"game": "klop", "points_by_player": sc(30, 25, 15)},
             {"game": "tri", "declarer": "A", "points": 40},
             {"game": "tri", "declarer": "B", "points": 30},
             {"game": "tri", "declarer": "C", "points": 40},
             {"game": "tri", "declarer": "B", "points": 40},
             {"game": "tri", "declarer": "B", "points": 40}]
    r = run(hands, mode="three", options={"radelci": "collective"})
    hs = r["hands"]
    assert [h["state"]["collective_radelci"] for h in hs] == [3, 2, 2, 1, 0, 0]
    assert [h["scores"] for h in hs[1:]] == [sc(30, 0, 0), sc(0, -30, 0), sc(0, 0, 30),
                                             sc(0, 30, 0), sc(0, 15, 0)]


@pytest.mark.parametrize("options", [None, {"radelci": "collective"}])
def test_a_card_continued_with_its_radelci_scores_like_the_whole_card(options):
    """The radelci a klop leaves carry to the next hands ("Radelc zagotavlja podvojeno število
    pik za naslednjo dobljeno igro"), also across scorecards: a card continued with the state
    of the one before (`initial_state`) scores its hands as the whole card does."""
    hands = [{"game": "klop", "points_by_player": sc(30, 25, 15)},
             {"game": "tri", "declarer": "A", "points": 30},
             {"game": "tri", "declarer": "B", "points": 40},
             {"game": "klop", "points_by_player": sc(20, 25, 25)},
             {"game": "dva", "declarer": "C", "points": 50}]
    whole = run(hands, mode="three", options=options)["hands"]
    for cut in range(1, len(hands)):
        card = {"ruleset": RULESET, "mode": "three", "players": THREE, "hands": hands[cut:],
                "initial_state": whole[cut - 1]["state"]}
        if options is not None:
            card["options"] = options
        assert evaluate(card)["hands"] == whole[cut:]


def test_initial_state_names_the_fields_of_the_chosen_radelci():
    """Personal radelci are counted by name, collective ones for the sheet: an initial state
    of the other kind is refused, naming the field."""
    from scoring import ScorecardInvalid
    card = {"ruleset": RULESET, "mode": "three", "players": THREE, "hands": [],
            "options": {"radelci": "collective"},
            "initial_state": {"radelci": {"A": 1}, "collective_radelci": -1}}
    with pytest.raises(ScorecardInvalid) as exc:
        evaluate(card)
    assert {(e["field"], e["code"]) for e in exc.value.errors} == {
        ("initial_state.radelci", "unknown_field"),
        ("initial_state.collective_radelci", "invalid_count")}
    r = evaluate(dict(card, initial_state={"collective_radelci": 2},
                      hands=[{"game": "tri", "declarer": "A", "points": 40}]))
    assert r["hands"][0]["scores"] == sc(30, 0, 0)
    assert r["hands"][0]["state"] == {"collective_radelci": 1}


def test_mondfang():
    """"Če mu ga kdo od soigralcev odvzame s škisom, mu takoj ... pišejo 21 točk minusa."""
    h = one({"game": "tri", "declarer": "A", "points": 40,
             "penalties": [{"kind": "mond", "player": "B"}]}, mode="three")
    assert h["scores"] == sc(15, -21, 0)


def test_renons_annuls_the_game():
    """"... lahko izzove renons, razveljavljeno igro": the game is annulled."""
    h = one({"game": "tri", "declarer": "A", "penalties": [{"kind": "renons", "player": "B"}]},
            mode="three")
    assert h["scores"] == sc(0, 0, 0)


def test_solo_games_in_three_option():
    """"(Glej razpredelnico iger oz. licitacijo in napovedi, ki so enake pri igri za tri in
    štiri.)": solo tri is playable by three unless the option says no."""
    assert one({"game": "solo_tri", "declarer": "A", "points": 40}, mode="three"
               )["scores"] == sc(25, 0, 0)
    from scoring import ScorecardInvalid
    with pytest.raises(ScorecardInvalid):
        one({"game": "solo_tri", "declarer": "A", "points": 40}, mode="three",
            options={"solo_games_in_three": False})


def test_describe_has_the_refined_schema():
    d = get(RULESET).describe()
    assert d["hand_schema"]["properties"]["contras"]["items"]["properties"]["on"] == \
        {"enum": ["game"]}
    assert [m["code"] for m in d["modes"]] == ["three", "four"]


def test_zei_klop_over_35_punishes_by_default():
    """Issue 15, finding 4. 003 KLOPECKI: "Če pa je kateri od igralcev sam nabral več kot 35 pik
    ... si zato za kazen piše kar 35 pik minusa" — a punishment ("za kazen") adds to what he
    took: 50 points write −85, not −35 (which would reward him)."""
    r = run([{"game": "klop", "points_by_player": {"A": 50, "B": 20, "C": 0}}], mode="three")
    assert r["hands"][0]["scores"] == {"A": -85, "B": -20, "C": 10}
    assert r["options"]["klop_over_35"] == "added"
