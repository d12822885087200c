"""The values of Lada Zei's short rules of Slovenian tarok (seed 003) as data, each with the
heading of the seed it comes from (ŠTETJE, TAROK ZA TRI, TAROK ZA ŠTIRI, NASPROTOVANJE,
IZGUBA, NAPOVEDI, VREDNOST NAPOVEDI, IGRE PO VREDNOSTI, KLOPECKI (KLOP))."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.rules.base import YES_NO, Choice, Option, Penalty

SEED = "003_e9ec0a09b3c02de4.txt"

THREE, FOUR = "three", "four"
BOTH = (THREE, FOUR)
TALON, SOLO, PIKOLO, BERAC, KLOP = "talon", "solo", "pikolo", "berac", "klop"


@dataclass(frozen=True)
class GameRule:
    code: str
    name: str
    value: int
    family: str
    talon_cards: int  # cards the declarer takes from the talon


# "IGRE PO VREDNOSTI": tri 10 / solo tro 20 (3 cards), dva 20 / solo dva 30 (2), ena 30 /
# solo ena 40 (1), solo brez talona 50, pikolo 60, berač 70, odprti berač 80.
GAME_RULES: tuple[GameRule, ...] = (
    GameRule("tri", "tri", 10, TALON, 3),
    GameRule("dva", "dva", 20, TALON, 2),
    GameRule("ena", "ena", 30, TALON, 1),
    GameRule("solo_tri", "solo tri", 20, SOLO, 3),
    GameRule("solo_dva", "solo dva", 30, SOLO, 2),
    GameRule("solo_ena", "solo ena", 40, SOLO, 1),
    GameRule("solo_brez", "solo brez talona", 50, SOLO, 0),
    GameRule("pikolo", "pikolo", 60, PIKOLO, 0),
    GameRule("berac", "berač", 70, BERAC, 0),
    GameRule("odprti_berac", "odprti berač", 80, BERAC, 0),
    GameRule("klop", "klop", 0, KLOP, 0),
)
GAME_BY_CODE = {g.code: g for g in GAME_RULES}
SOLO_WITH_TALON = ("solo_tri", "solo_dva", "solo_ena")
DECIDED_BY = {TALON: "points", SOLO: "points", PIKOLO: "tricks", BERAC: "tricks",
              KLOP: "individual"}

# "VREDNOST NAPOVEDI": (silent, announced); kralj and solo from their paragraphs
ANNOUNCEMENT_VALUES: dict[str, tuple[int | None, int]] = {
    "trula": (10, 20),
    "kralji": (10, 20),
    "pagat_ultimo": (25, 50),
    "trulapagat": (35, 70),  # silent value: option trulapagat_silent_value
    "kralj": (10, 20),
    "solo": (None, 10),
    "valat": (250, 500),
}
ANNOUNCEMENT_NAMES = {
    "trula": "trula", "kralji": "kralji", "pagat_ultimo": "pagat ultimo",
    "trulapagat": "trulapagat", "kralj": "kralj", "solo": "solo", "valat": "valat",
}
FOUR_ONLY = ("kralj", "solo")
ANN_BY_FAMILY = {
    TALON: ("trula", "kralji", "pagat_ultimo", "trulapagat", "kralj", "solo", "valat"),
    SOLO: ("trula", "kralji", "pagat_ultimo", "trulapagat", "valat"),
    PIKOLO: (), BERAC: (), KLOP: (),
}
CONTRA_FACTORS = {1: 2, 2: 4, 3: 8}
CONTRA_NAMES = {1: "kontra", 2: "re", 3: "sub"}
MOND_PENALTY = 21  # "mu takoj ... pišejo 21 točk minusa"
KLOP_NO_TRICK_BONUS = 10  # "Kdor je ostal brez vzetka, si piše 10 pik v dobro."
KLOP_LIMIT = 35  # "več kot 35 pik ... si piše kar 35 pik minusa"
HALF = 35
# Tricks of a deal: "Vsak od igralce tako prejme po 16 kart" (TAROK ZA TRI); by four "po
# šest kart" twice, 12.
TRICKS_OF_MODE = {THREE: 16, FOUR: 12}

PENALTIES = (
    Penalty("renons", "renons", 0, "the game is annulled: nothing is written for it",
            f"{SEED}, NAPOVEDI: \"Sporazumevanje z znaki me partnerji je namreč kaznivo in "
            "lahko izzove renons, razveljavljeno igro.\""),
    Penalty("mond", "mondfang", MOND_PENALTY, "-21 at once, in any game",
            f"{SEED}, SPLOŠNO: \"Če mu ga kdo od soigralcev odvzame s škisom, mu takoj, še "
            "preden se igra konča, pišejo 21 točk minusa.\""),
)
PENALTY_KINDS = tuple(p.kind for p in PENALTIES)

OPT_RADELCI = "radelci"
OPT_PARTNER_SCORES = "partner_scores"
OPT_RADELC_PARTNER = "radelc_for_partner"
OPT_LOST_ANNOUNCEMENTS = "lost_game_loses_announcements"
OPT_TRULAPAGAT_SILENT = "trulapagat_silent_value"
OPT_KLOP_OVER_35 = "klop_over_35"
OPT_CONTRA_DOUBLES = "contra_doubles"
OPT_SOLO_IN_THREE = "solo_games_in_three"
OPT_SILENT_VALAT = "silent_valat"
OPT_LOST_VALAT = "lost_valat"

OPTIONS = (
    Option(OPT_RADELCI, "Radelci", "personal",
           (Choice("personal", "personal, by each player's name"),
            Choice("collective", "collective, on top of the sheet (the Styrian way)")),
           "personal: after a klop every player gets a radelc that doubles his next game "
           "and is struck off when he wins; collective (the Styrian way): as many radelci "
           "as players go on top of the sheet, every game counts double while any is "
           "left, and each won game strikes one off, whoever played it.",
           f"{SEED}, KLOPECKI: \"Vsakemu igralcu se po odigranem klopu ... piše radelc\" / "
           "\"Štajerci so si izmisli kolektivne radelce.\""),
    Option(OPT_PARTNER_SCORES, "The partner writes the declarer's result", True, YES_NO,
           "Four players: the called partner writes the same result as the declarer. "
           "The seed scores 'the player' and calls the partner his co-player "
           "(soigralec) whose tricks count with his.",
           f"{SEED}, TAROK ZA ŠTIRI: \"S tem si je izbral soigralca\""),
    Option(OPT_RADELC_PARTNER, "A partner's own radelc counts", True, YES_NO,
           "Personal radelci: a partner's own radelc doubles (and is struck off by) a "
           "game he wins as partner, since it is his next won game too.",
           f"{SEED}: \"Radelc zagotavlja podvojeno število pik za naslednjo dobljeno "
           "igro.\""),
    Option(OPT_LOST_ANNOUNCEMENTS, "A lost game loses every announcement", True, YES_NO,
           "A lost game writes everything the player announced in minus, made or not "
           "(the seed's example of 32 points); false scores each announcement on its own.",
           f"{SEED}, IZGUBA: \"Če igralec ne uresniči napovedi, se mu vse kar je "
           "napovedal, šteje v minus.\""),
    Option(OPT_TRULAPAGAT_SILENT, "Silent trulapagat", 35,
           (Choice(35, "35 (the text: half of 70)"), Choice(50, "50 (the table)")),
           "Silent trulapagat: 35 from the text (half of 70) or 50 from the table.",
           f"{SEED}, NAPOVEDI: \"tiha izvedba pol manj, torej 35 pik\" / VREDNOST "
           "NAPOVEDI: \"trulapagat 50 70\""),
    Option(OPT_KLOP_OVER_35, "Klop, more than 35 points", "added",
           (Choice("added", "35 more in minus on top of his points"),
            Choice("instead", "−35 in place of his points")),
           "Klop, a player with more than 35 points: added: he writes his points and 35 "
           "more in minus (the punishment the clause names); instead: he writes -35 in "
           "place of his points.",
           f"{SEED}, KLOPECKI: \"si zato za kazen piše kar 35 pik minusa\""),
    Option(OPT_CONTRA_DOUBLES, "What a kontra multiplies", "game",
           (Choice("game", "the game's value"),
            Choice("whole_hand", "the whole result with the announcements")),
           "What kontra, re and sub multiply: game: the game's value with the "
           "difference (and the solo bonus, a valat in place of the game); whole_hand: "
           "the whole result with the announcements.",
           f"{SEED}, NASPROTOVANJE: \"Kontra je prva stopnja nasprotovanje, oz. "
           "podvajanja vrednosti igre.\""),
    Option(OPT_SOLO_IN_THREE, "Solo tri, dva and ena by three", True, YES_NO,
           "Whether solo tri, solo dva and solo ena may be played by three; the seed says "
           "the table of games is the same for three and four.",
           f"{SEED}, TAROK ZA TRI: \"(Glej razpredelnico iger oz. licitacijo in "
           "napovedi, ki so enake pri igri za tri in štiri.)\""),
    Option(OPT_SILENT_VALAT, "A silent valat made", "instead",
           (Choice("instead", "250 in place of the game"),
            Choice("added", "250 added to the game and the announcements")),
           "A silent valat made: instead: it is worth 250 in place of the game, its "
           "difference and the other announcements, as the announced valat's 500 is; "
           "added: 250 is added like an announcement to the game's own result.",
           f"{SEED}, NAPOVEDI: \"Tako napovedana igra šteje 500 pik, nenapovedan valat pa "
           "je vreden pol manj.\" / IGRE PO VREDNOSTI: \"nenapovedanega valata, ki ima "
           "bolj vrednost napovedi kot igre\""),
    Option(OPT_LOST_VALAT, "An announced valat that fails", "added",
           (Choice("added", "−500 besides the game's own result"),
            Choice("instead", "−500 in place of the game")),
           "An announced valat that fails: added: it is a failed announcement, -500 beside "
           "the game's own result and the other announcements; instead: the announced "
           "valat was the game, so -500 is written in place of all of it.",
           f"{SEED}, NAPOVEDI: \"Tako napovedana igra šteje 500 pik\" / IZGUBA: \"Če "
           "igralec ne uresniči napovedi, se mu vse kar je napovedal, šteje v minus.\""),
)
