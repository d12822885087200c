"""The values of the Tarok.net rules as data, each with the clause it comes from: seed 000
(`tarok-net-2007`, rules v1.06 of 5 May 2007) and seed 002 (`tarok-net-revised`, the later
revision); the sections are the same in both unless a value says otherwise."""

from __future__ import annotations

from scoring.rules.base import NO_YES, YES_NO, Choice, Option, Penalty

SEED_2007 = "000_fa81ee5593b5d5a5.txt"
SEED_REVISED = "002_a6ef6ef54e4fc343.txt"

TRI1 = "tri+1"
THREE = "three"
FOUR = "four"
# §2.2 "Tarok v dveh" (Napoleon): its own game, without announcements, contras or radelci, so
# it is not one of ALL_MODES (the modes the announcements and the three- and four-handed
# games are offered in).
TWO = "two"
ALL_MODES = (TRI1, THREE, FOUR)

POINTS = "points"
TRICKS = "tricks"
KLOP = "klop"
# §2.2: "odigrata navadno igro, v kateri zmaga tisti, ki je zbral nad 35 točk": both players
# count their points, as in klop.
ORDINARY = "ordinary"

# Card points needed to win: "Igra je dobljena, če igralec zbere 36 točk ali več" (§3.7).
WIN_AT = 36
HALF = 35
# "ne sme zbrati več kot 1/4 vseh možnih točk (torej največ 17 ali manj)" (2007 §3.8)
KLOP_CONTRA_LIMIT_2007 = 17
# "ne sme zbrati več kot 15 točk" (revision §3.8), penalties 35 (kontra) and 70 (rekontra)
KLOP_CONTRA_LIMIT_REVISED = 15
KLOP_PENALTY_REVISED = {1: 35, 2: 70}
# "igralec je poln, če zbere 35 točk ali več" (§3.8)
KLOP_FULL_AT = 35
KLOP_FULL_SCORE = 70
# "Točkovanje renonsov: -vrednost igre + -35 + -napovedane posebne napovedi" (§3.9)
RENONS_BASE = 35
MOND_PENALTY = 21
MISDEAL_STEP = 20
# Tricks of a deal: "vsakemu igralcu v dveh krogih po 8 kart" (§2.3: 3 x 16 = 48 cards, 16
# tricks), "po 6 kart" (§2.4: 4 x 12, 12 tricks).
TRICKS_THREE = 16
TRICKS_FOUR = 12

# -- game tables ------------------------------------------------------------------------

# (code, name, value, decided_by); §2.3 and §3.5 give the same table in both versions.
THREE_HANDED_GAMES = (
    ("trojka", "trojka", 10, POINTS),
    ("dvojka", "dvojka", 30, POINTS),
    ("enka", "enka", 50, POINTS),
    ("berac", "berač (brez talona)", 70, TRICKS),
    ("solo_brez", "solo brez talona", 80, POINTS),
    ("barvni_valat_tri", "tri – napovedani barvni valat", 125, TRICKS),
    ("barvni_valat_dva", "dva – napovedani barvni valat", 150, TRICKS),
    ("barvni_valat_ena", "ena – napovedani barvni valat", 175, TRICKS),
    ("barvni_valat_brez", "brez – napovedani barvni valat", 250, TRICKS),
    ("valat_tri", "tri – napovedani valat", 250, TRICKS),
    ("valat_dva", "dva – napovedani valat", 300, TRICKS),
    ("valat_ena", "ena – napovedani valat", 350, TRICKS),
    ("valat_brez", "brez talona – napovedani valat", 500, TRICKS),
    ("klop", "klop", None, KLOP),
)

# (code, name, value, partner value or None for solo games, decided_by); §2.4 of both.
FOUR_HANDED_GAMES = (
    ("trojka", "trojka", 10, 5, POINTS),
    ("dvojka", "dvojka", 20, 10, POINTS),
    ("enka", "enka", 30, 15, POINTS),
    ("solo_tri", "solo tri", 40, None, POINTS),
    ("solo_dva", "solo dva", 50, None, POINTS),
    ("solo_ena", "solo ena", 60, None, POINTS),
    ("berac", "berač (brez talona)", 70, None, TRICKS),
    ("solo_brez", "solo brez talona", 80, None, POINTS),
    ("barvni_valat_tri", "tri – napovedani barvni valat", 100, 50, TRICKS),
    ("barvni_valat_dva", "dva – napovedani barvni valat", 110, 55, TRICKS),
    ("barvni_valat_ena", "ena – napovedani barvni valat", 120, 60, TRICKS),
    ("barvni_valat_solo_tri", "solo tri – napovedani barvni valat", 125, None, TRICKS),
    ("barvni_valat_solo_dva", "solo dva – napovedani barvni valat", 150, None, TRICKS),
    ("barvni_valat_solo_ena", "solo ena – napovedani barvni valat", 175, None, TRICKS),
    ("barvni_valat_brez", "solo brez – napovedani barvni valat", 250, None, TRICKS),
    ("valat_tri", "tri – napovedani valat", 200, 100, TRICKS),
    ("valat_dva", "dva – napovedani valat", 220, 110, TRICKS),
    ("valat_ena", "ena – napovedani valat", 240, 120, TRICKS),
    ("valat_solo_tri", "solo tri – napovedani valat", 250, None, TRICKS),
    ("valat_solo_dva", "solo dva – napovedani valat", 300, None, TRICKS),
    ("valat_solo_ena", "solo ena – napovedani valat", 350, None, TRICKS),
    ("valat_brez", "solo brez – napovedani valat", 500, None, TRICKS),
    ("klop", "klop", None, None, KLOP),
)

# (code, name, decided_by) of §2.2 "Tarok v dveh": "lahko izjavi: 'Igram'. To pomeni obvezo,
# da bo na koncu igre imel v svojih vzetkih najmanj 36 točk" (the first player, or the dealer
# when he passes: "lahko delilec prevzame igro pod istimi pogoji"); "Samo ko oba izjavita, da
# pasirata, odigrata navadno igro".
TWO_HANDED_GAMES = (
    ("igram", "igram", POINTS),
    ("navadna", "navadna igra", ORDINARY),
)
# §2.2: "Če zmaga, se vrednost dobljenih točk podvoji (dobljene točke so 'razlika' nad 35), v
# izgubljeni igri pa se vrednost točk potroji in se beležijo za negativne točke", and in the
# ordinary game "je vrednost teh točk enojna".
TWO_WON_FACTOR = 2
TWO_LOST_FACTOR = 3
TWO_ORDINARY_FACTOR = 1
# All 54 cards are dealt in two (3 x 5 in hand, 6 piles of 4): the two players' points add up
# to the whole deck's 70.
TWO_TOTAL = 70

# Talon cards the declarer takes in a game decided by points (what a valat leaves to the
# other side): "Trojka pomeni, da bo igralec ... lahko vzel iz talona tri karte", "Dvojka ...
# samo dve karti", "Enka pomeni, da lahko zamenja samo eno karto" (§2.3, §2.4), "Solo tri /
# dva / ena" likewise (§2.4), "Brez talona ... Talon se v tem primeru ne odkrije in pripade
# nasprotnikoma" (§2.3).
TALON_TAKEN = {"trojka": 3, "dvojka": 2, "enka": 1, "solo_tri": 3, "solo_dva": 2,
               "solo_ena": 1, "solo_brez": 0}

# Games with a called king in four (a partner may hold it): "Preden igralec pogleda talon,
# mora klicati kralja" (§2.4, trojka/dvojka/enka; the "x / y" rows of the table).
CALLED_KING_GAMES = frozenset({"trojka", "dvojka", "enka"})

# §3.4: "Radelc pridobijo vsi igralci pri visokih igrah (berač, solo brez, barvni valat in
# valat) in klopu" (2007); the revision drops solo brez.
# Four's own solo valat games are among them for the option `high_game_radelci`.
RADELC_GAMES_2007 = frozenset(
    {"berac", "solo_brez"}
    | {c for c, _, _, d in THREE_HANDED_GAMES if c.startswith(("barvni_valat", "valat"))}
    | {c for c, *_ in FOUR_HANDED_GAMES if c.startswith(("barvni_valat", "valat"))}
)
RADELC_GAMES_REVISED = RADELC_GAMES_2007 - {"solo_brez"}

# -- announcements ------------------------------------------------------------------------

ANNOUNCEMENT_NAMES = {
    "kralji": "kralji",
    "trula": "trula",
    "pagat_ultimo": "pagat ultimo",
    "kralj_ultimo": "kralj ultimo",
    "valat": "valat",
}
# (silent x, silent y, announced x, announced y): x is written by the player who plays the
# item (declarer, or the defender who announced/realised it), y by his partner or fellow
# defender(s): the "x / y" columns of §2.4 and the Brani1-N / Brani2 columns of §3.6 b).
ANNOUNCEMENT_VALUES = {
    "kralji": (10, 10, 20, 10),
    "trula": (10, 10, 20, 10),
    "pagat_ultimo": (25, 10, 50, 25),
    "valat": (50, 50, None, None),
}
# §2.4: "kralj ultimo (vleče soigralec) 10 / 10 (napovedani 20 / 10)",
#       "kralj ultimo (vleče sam) 25 / 10 (napovedani 50 / 25)"
KRALJ_ULTIMO_WITH_PARTNER = (10, 10, 20, 10)
KRALJ_ULTIMO_ALONE = (25, 10, 50, 25)
# Revision "Posebnosti": held trula: "realizirana trula piše le +5 točk, napovedana pa -/+10
# točk in realiziran pagat ultimo -/+5 točk, napovedani -/+10 točk".
HELD_SILENT = 5
HELD_ANNOUNCED = 10
HELD_NAMES = frozenset({"trula", "pagat_ultimo"})

CONTRA_NAMES = {1: "kontra", 2: "rekontra"}

# Revision: what a partner / fellow defender writes under a failed item, as a multiple of
# his uncontra'd share y (= T/2): "-T / 2", "-T * 2/ 3", "-T" (§2.4 b, §3.6 b.2).
REVISED_ASSOCIATE_LOSS = {0: (1, 1), 1: (4, 3), 2: (2, 1)}

# -- penalties (§3.9) -----------------------------------------------------------------------

PENALTY_KINDS = ("renons", "mond", "misdeal", "no_tarok")
RENONS_CLAUSES = ("a", "b", "c", "d", "e", "f")
VOID_KINDS = frozenset({"misdeal", "no_tarok"})


def penalties(seed: str) -> tuple[Penalty, ...]:
    return (
        Penalty("renons", "renons", None,
                "-(game value + 35 + every announced item), with radelci and contras",
                f'{seed} §3.9: "Točkovanje renonsov: -vrednost igre + -35 + -napovedane '
                'posebne napovedi. Upoštevajo se tudi radelci in kontre (kontre ne veljajo le '
                'pri nepravilni založitvi)."'),
        Penalty("mond", "izgubljeni mond", MOND_PENALTY,
                "-21, not under contras or radelci",
                f'{seed} §3.9 i: "izgubljeni mond: -21 točk igralcu, ki je izgubil monda"'),
        Penalty("misdeal", "nepravilna razdelitev kart", MISDEAL_STEP,
                "-20 times the number of the misdeal (1st -20, 2nd -40, ...)",
                f'{seed} §3.9 g: "nepravilna razdelitev kart, (v vsakem primeru: 1. -20, '
                '2. -40, 3. -60 itd.)"'),
        Penalty("no_tarok", "brez taroka", 0,
                "the hand is annulled and dealt again",
                f'{seed} §3.9 h: "vsaj en igralec nima taroka => brez taroka ni taroka - igra '
                'se razveljavi"'),
    )


# -- options (defaults are the literal reading) ---------------------------------------------

def _round_sixths_away(v6: int) -> int:
    q = (abs(v6) + 3) // 6
    return q if v6 >= 0 else -q


def _round_sixths_toward(v6: int) -> int:
    q = (abs(v6) + 2) // 6
    return q if v6 >= 0 else -q


def _round_sixths_even(v6: int) -> int:
    a = abs(v6)
    q, r = divmod(a, 6)
    if r > 3 or (r == 3 and q % 2 == 1):
        q += 1
    return q if v6 >= 0 else -q


# Amounts are kept in sixths of a point, so that the halves and thirds of the contra tables
# stay exact; each written amount is rounded once, by the option `rounding`.
ROUNDERS = {
    "half_away_from_zero": _round_sixths_away,
    "half_toward_zero": _round_sixths_toward,
    "half_to_even": _round_sixths_even,
}
ROUNDINGS = (
    Choice("half_away_from_zero", "halves away from zero (7.5 → 8, −7.5 → −8)"),
    Choice("half_toward_zero", "halves toward zero (7.5 → 7)"),
    Choice("half_to_even", "halves to the even number (7.5 → 8, 6.5 → 6)"),
)


def options(revised: bool) -> tuple[Option, ...]:
    seed = SEED_REVISED if revised else SEED_2007
    opts = [*_radelc_options(seed), *_other_options(seed, revised)]
    if revised:
        opts.append(Option(
            "held_trula_second_share", "A held trula: the partner's share", "same",
            (Choice("same", "the same value"), Choice("half", "half of it")),
            "Posebnosti (held trula): whether the partner or fellow defender writes the "
            "same reduced value (+5 / -+10) as the player, or half of it.",
            f'{seed} §3.5 Posebnosti: "V kolikor ima igralec (oz. branilca) v listu (ob '
            'začetku igre) trulo, se realizirana trula piše le +5 točk"'))
        opts.append(Option(
            "solo_other_defenders_share", "Four-handed solo: the other defenders' share",
            "each",
            (Choice("each", "each writes the Brani2 share"),
             Choice("split", "they share it")),
            "four, solo game: when a kontra on the declarer's item was wrong, whether each "
            "of the two defenders who did not say it writes the Brani2 share (T / 2, "
            "T * 3 / 2) or the two share it.",
            f'{seed} §2.4: "Če gre za solo igro, soigralca ni in nastopa tretji '
            'branitelj, ki se točkuje enako kot ostala branitelja"; a) "Kontra formula: '
            'T * 2 T T / 2"'))
    return tuple(opts)


def _radelc_options(seed: str) -> tuple[Option, ...]:
    """Rounding and the radelci (§3.3, §3.4, §2.3, §2.4)."""
    return (
        Option("rounding", "Rounding of fractions", "half_away_from_zero", ROUNDINGS,
               "How a written amount with a fraction (a partner's half of 15, a contra "
               "share of T/2 or T*2/3) is rounded to a whole point.",
               f'{seed} §3.3: "zaokrožuje se na 1"'),
        Option("radelc_doubles_defenders", "The declarer's radelc doubles the others too",
               False, NO_YES,
               "Whether the declarer's radelc also doubles what the other players write "
               "in his game (contra shares, the defenders' announcements).",
               f'{seed} §3.4: "Radelc podvoji celoten seštevek točk igre"; §2.3: "Če ima '
               'igralec refe, se mu točke pri igri podvojijo"'),
        Option("partner_radelc", "Whose radelc doubles the partner", "declarer",
               (Choice("declarer", "the declarer's"), Choice("own", "the partner's own"),
                Choice("either", "the declarer's or the partner's own")),
               "four: whose radelc doubles the partner's points: the declarer's "
               "('tudi soigralcu'), the partner's own, or either of them.",
               f'{seed} §2.4: "Če ima igralec refe, se mu točke pri igri podvojijo '
               '(tudi soigralcu)"'),
        Option("partner_radelc_erased", "A won game erases the partner's radelc",
               "if_counted",
               (Choice("if_counted", "when it doubled his points"),
                Choice("always", "always"), Choice("never", "never")),
               "four: whether a won game also erases one of the partner's own radelci: "
               "when his own radelc doubled his points (option 'Whose radelc doubles the "
               "partner'), always, or never (only the declarer's).",
               f'{seed} §2.4: "Ob uspešno končani igri se igralcu refe briše"; §3.4: '
               '"se briše igralcu, ki igra, v primeru dobljene igre"'),
        Option("several_radelci", "Several radelci of one player double", "once",
               (Choice("once", "once (×2)"), Choice("each", "once for each (×2, ×4, ...)")),
               "Whether a player with two or more radelci has his next game doubled once "
               "or once for each radelc he holds.",
               f'{seed} §3.4: "Radelc podvoji celoten seštevek točk igre"'),
        Option("radelci_erased", "A won game erases", "one",
               (Choice("one", "one radelc"), Choice("all", "all his radelci")),
               "Whether a won game erases one radelc of the player who played it, or all "
               "of them.",
               f'{seed} §3.4: "Radelc ... se briše igralcu, ki igra, v primeru dobljene '
               'igre"'),
        Option("defenders_own_radelc", "A defender's own radelc doubles his points", False,
               NO_YES,
               "Whether a defender who holds a radelc has what he writes in another "
               "player's game doubled (his contra share, his own announcements).",
               f'{seed} §2.3: "Če ima igralec refe, se mu točke pri igri podvojijo"; §3.4: '
               '"Pri renonsu se radelc upošteva le, če ga ima igralec, ki igro igra"'),
        Option("radelci_for_resting_player", "The resting player gains radelci too", True,
               YES_NO,
               "tri+1: whether the resting player also gains a radelc from a high game.",
               f'{seed} §3.4: "Radelc pridobijo vsi igralci pri visokih igrah"'),
        Option("high_game_radelci", "High games give radelci", "tri+1",
               (Choice("tri+1", "in TRI + 1 only"), Choice("every_mode", "in three and four too")),
               "Whether a high game (berač, solo brez, barvni valat, valat) gives every player "
               "a radelc only in TRI + 1 (§3.4, the competition's rules), or in three and four "
               "too, where §2.3 and §2.4 name only klop.",
               f'{seed} §3.4: "Radelc pridobijo vsi igralci pri visokih igrah (berač, solo '
               'brez, barvni valat in valat) in klopu"; §2.3: "Po končanem klopu se igra '
               'nadaljuje, vendar beleži vsak od igralcev refe (radelc)"'),
        Option("radelci_after_renons", "A hand ended by a renons gives radelci", True, YES_NO,
               "Whether a klop or high game ended by a renons still gives radelci.",
               f'{seed} §3.4: "Radelc pridobijo vsi igralci pri visokih igrah ... in '
               'klopu"'),
    )


def _other_options(seed: str, revised: bool) -> tuple[Option, ...]:
    """Klop (§2.1, §3.8), penalties (§3.9), kralj ultimo (§2.4), high games (§3.5), two
    players (§2.2)."""
    return (
        Option("klop_points_tolerance", "Klop points may be off 70 by", 1,
               (Choice(0, "0 points"), Choice(1, "1 point")),
               "How far the klop points of the players may be from 70: counting every "
               "pile by threes can gain or lose one point.",
               f'{seed} §2.1: "Sešteva se vedno vrednost treh kart in odšteje 2"'),
        Option("klop_contra_on_full_and_no_trick",
               "A kontra on klop doubles the ±70 too", False, NO_YES,
               "tri+1 klop: whether a kontra on klop also doubles the -70 of a full "
               "player and the +70 of a player without a trick.",
               f'{seed} §3.8: "piše le ta +70 točk, ostali 0 točk"'),
        Option("misdeal_count", "Misdeals are counted", "player",
               (Choice("player", "per player"), Choice("table", "for the whole table")),
               "Whether the 1st, 2nd, 3rd misdeal (-20, -40, -60) is counted per player "
               "or for the whole table.",
               f'{seed} §3.9 g: "nepravilna razdelitev kart, (v vsakem primeru: 1. -20, '
               '2. -40, 3. -60 itd.)"'),
        Option("renons_contra", "A contra on the game doubles in a renons", "value_and_35",
               (Choice("value_and_35", "the game value and the 35"),
                Choice("value_only", "the game value only")),
               "Whether a kontra or rekontra on the game multiplies the whole renons "
               "-(game value + 35) or only the game value.",
               f'{seed} §3.9: "Točkovanje renonsov: -vrednost igre + -35 + -napovedane '
               'posebne napovedi. Upoštevajo se tudi radelci in kontre"'),
        Option("renons_announcements", "The announcements a renons counts", "all",
               (Choice("all", "every announced item of the hand"),
                Choice("offenders_side", "those of the offender's side")),
               "Whether the renons counts every announced item of the hand, whichever side "
               "announced it, or only those of the offender's side.",
               f'{seed} §3.9: "Točkovanje renonsov: -vrednost igre + -35 + -napovedane '
               'posebne napovedi"'),
        Option("kralj_ultimo_row", "Kralj ultimo: the 'vleče soigralec' row", "partner",
               (Choice("partner", "when the declarer has a partner"),
                Choice("taker", "when the partner takes the last trick")),
               "four: when kralj ultimo is scored by the 'vleče soigralec' row (10 / 10, "
               "announced 20 / 10) instead of 'vleče sam' (25 / 10, announced 50 / 25): "
               "whenever the declarer has a partner, or only when the partner takes the "
               "last trick.",
               f'{seed} §2.4: "kralj ultimo (vleče soigralec) 10 / 10 (napovedani 20 / '
               '10), kralj ultimo (vleče sam) 25 / 10 (napovedani 50 / 25)"'),
        Option("announcements_in_high_games", "Announcements in berač and valat",
               "refused",
               (Choice("refused", "refused as an error"),
                Choice("not_scored", "kept and not scored")),
               "Whether announcements listed in a berač, barvni valat or valat are refused "
               "or accepted and scored nothing.",
               f'{seed} §3.5: "Pri visokih igrah (berač, barvni valat in '
               + ("napovedani valat" if revised else "valat")
               + ') se upoštevajo le točke, ki veljajo za to igro"'),
        Option("two_lost_difference", "Two players: a lost igram counts the points",
               "under_35",
               (Choice("under_35", "under 35 (the difference the rule names)"),
                Choice("under_36", "under 36 (short of the promised 36)")),
               "two: what is tripled when the player who said igram loses: the points he "
               "fell short of 35 (the 'razlika' the same sentence counts a won game by), or "
               "short of the 36 he promised.",
               f'{seed} §2.2: "Če zmaga, se vrednost dobljenih točk podvoji (dobljene točke so '
               '\'razlika\' nad 35), v izgubljeni igri pa se vrednost točk potroji"'),
    )
