"""The values of the Czech taroky tournament rules of the GP Vysočiny and GP Povodí Křetínky a
Svitavy (seed 004, Bystré, 31 Oct 2004) as data, each with the words of the seed it comes from:
rates per eye, renonc fines, hlášky, flek levels, the 20 Kč cap, the stake bag; the options
and the penalties. Every amount is in haléř (1 Kč = 100 haléř)."""

from __future__ import annotations

from scoring.rules.base import YES_NO, Choice, Coin, Money, Option, Penalty

SEED = "004_9497e23b33a39f39.txt"

MODE = "four"
SEATS = 4

TOTAL_EYES = 70
HALF_OF_EYES = 35  # "rozdíl do 35 očí"
TRICKS_IN_DEAL = 12  # 54 cards, 6 in the talon, 12 per player
# The bag holds no coin smaller than 10 haléř and the seed rounds 85 hal up to 90 hal.
ROUNDING_STEP = 10
GAME_CAP = 2000  # "Herní strop: 20,- Kč"
TOP_UP_STEP = 1000  # "Dokup: násobky 10,-Kč"

# The bag every player gets at the start of a round, as printed under the money sheet:
# "5,- Kč 2x / 1,- Kč 6x / 50 hal 6x / 10 hal 10x".
MONEY = Money(
    currency="Kč",
    subunit="haléř",
    subunits_per_unit=100,
    smallest_coin=ROUNDING_STEP,
    stake_bag=(Coin(500, 2), Coin(100, 6), Coin(50, 6), Coin(10, 10)),
    top_up_step=TOP_UP_STEP,
    game_cap=GAME_CAP,
    clause=f"{SEED}: \"Herní strop: 20,- Kč\", \"Dokup: násobky 10,-Kč\", \"Osobní finance "
           "zůstávají po celou hru na stole!\" and the bag under the sheet",
)
DEFAULT_STAKE = MONEY.stake

CALLED_TAROKS = ("XIX", "XVIII", "XVII", "XVI")

# haléř per eye without flek; each flek level doubles it (the povinnost table: 5/10/20/40).
RATE_PER_EYE = {
    "povinnost": 5,
    "druha_povinnost": 5,
    "preferanc_1": 5,
    "preferanc_2": 10,
    "preferanc_3": 20,
    "solo": 40,
}
# Renonc that ends the game, without flek, before "+ všechny ohlášené hlášky".
RENONS_BASE = {
    "povinnost": 100,
    "druha_povinnost": 100,
    "preferanc_1": 100,
    "preferanc_2": 200,
    "preferanc_3": 300,
    "solo": 400,
}
PARTNER_GAMES = ("povinnost", "druha_povinnost")
PREFERANC_GAMES = ("preferanc_1", "preferanc_2", "preferanc_3")
ONE_AGAINST_THREE_GAMES = (*PREFERANC_GAMES, "solo")
VARSAVA = "varsava"

MINOR_RENONS_FINE = 100  # "platí 1,-Kč ostatním hráčům u stolu. ... se hra dohrává"
MISDEAL_FINE = 100  # wrong card count noticed after the talon, before the lead
VARSAVA_RENONS_FINE = 200  # "platí provinivší se hráč ostatním hráčům 2,- Kč a hra končí"
VARSAVA_PAY_NO_TRICK = 400
VARSAVA_PAY_OTHER = 200
VARSAVA_FOREHAND_PAY_NO_TRICK = 600
VARSAVA_FOREHAND_PAY_OTHER = 400

# Hlášky held in the hand: announced at the start, worth a flat amount in every game.
HELD_HLASKY = {
    "barvicky": ("barvičky", 20),
    "tarocky": ("taročky", 20),
    "barvy": ("barvy", 40),
    "trul": ("trul", 20),
    "taroky": ("taroky", 40),
    "kralovske_honery": ("královské honery", 40),
    "honery": ("honery", 20),
    "trulhonery": ("trulhonéry", 40),
}
# Hlášky decided by the play: (name, announced value, silent value).
PLAYED_HLASKY = {
    "pagat": ("pagát", 200, 100),
    "valat": ("valát", 400, 200),
}

CONTRA_NAMES = {1: "flek", 2: "re", 3: "sup"}

PENALTY_RENONS = "renons"
PENALTY_RENONS_PLAY_CONTINUES = "renons_play_continues"
PENALTY_MISDEAL = "misdeal"


OPTION_PARTNER_PAYMENT = "partner_payment"
OPTION_CAP = "cap_applies_to"
OPTION_SILENT_LOST = "silent_lost_pays"
OPTION_EQUAL_EYES_RATE = "equal_eyes_rate"
OPTION_EQUAL_EYES_ROUNDED = "equal_eyes_rounded_up"
OPTION_PREFERANC_RENONC_FLEK = "preferanc_renonc_multiplied_by_flek"
OPTION_CAP_ON_RENONC = "cap_applies_to_renonc"
OPTION_VARSAVA_TIE = "varsava_tie_with_forehand"


def round_up(amount: int) -> int:
    """'zaokrouhluje se nahoru': up to the next multiple of the smallest coin."""
    return -(-amount // ROUNDING_STEP) * ROUNDING_STEP


OPTIONS = (
    Option(
        OPTION_PARTNER_PAYMENT, "Two against two: who pays whom", "each_pays_one",
        (Choice("each_pays_one", "each loser pays one winner"),
         Choice("each_pays_each", "every loser pays every winner")),
        "Two against two (povinnost with a partner): either every player of the losing "
        "side pays the game once, to one player of the winning side, or every loser pays "
        "every winner.",
        f"seed {SEED}, Renonc, po kterém hra končí: 'Při základní i "
        "druhé povinnosti dostane licitující hráč jednonásobek a zbývající dva hráči "
        "také jednonásobek.'",
    ),
    Option(
        OPTION_CAP, "The 20 Kč cap applies to", "payment",
        (Choice("payment", "each payment between two players"),
         Choice("receiver", "all a player receives in one game")),
        "The 20 Kč 'herní strop': 'payment' = no player pays another more than 20 Kč in "
        "one game; 'receiver' = no player receives more than 20 Kč in one game in all, "
        "his payers sharing the 20 Kč in proportion to what they owed.",
        f"seed {SEED}: 'Herní strop - maximální. částka zaplacená "
        "jednomu hráči v jedné hře.'",
    ),
    Option(
        OPTION_SILENT_LOST, "A lost silent pagát or valát is paid", True, YES_NO,
        "A silent pagát or valát that is lost (achieved false) costs its silent value "
        "(true), or costs nothing because only a realised silent hláška exists (false).",
        f"seed {SEED}, Hlášky: 'pagát tichý 1,- Kč', 'valát tichý "
        "2,- Kč'; game tables: '+ - hlášky'",
    ),
    Option(
        OPTION_EQUAL_EYES_RATE, "Equal eyes: one eye at", "flek_level",
        (Choice("flek_level", "the rate of the hand's flek level"),
         Choice("base", "the rate without flek")),
        "Equal eyes (35:35): the one eye that is paid is worth the game's rate at the "
        "hand's flek level (10 hal in a povinnost with flek), or the rate without flek "
        "whatever was fleked (5 hal).",
        f"seed {SEED}: 'Při rovnosti očí ve všech hrách dražitel hry platí za hru částku, "
        "která odpovídá hodnotě jednoho oka. V případě, že protihráči dají flek, platí oni "
        "dražiteli hry hodnotu jednoho oka.'",
    ),
    Option(
        OPTION_EQUAL_EYES_ROUNDED, "Equal eyes: one eye rounded up to 10 haléř", True,
        YES_NO,
        "Equal eyes: whether the one eye paid for the game is rounded up to whole 10 haléř "
        "like every game amount (5 hal is paid as 10 hal), or paid as it is (5 hal).",
        f"seed {SEED}: 'dražitel hry platí za hru částku, která odpovídá hodnotě jednoho "
        "oka'; 'Hra se počítá následovně: rozdíl do 35 očí se vynásobí hrou a "
        "zaokrouhluje se nahoru.'",
    ),
    Option(
        OPTION_PREFERANC_RENONC_FLEK, "Preferanc: the renonc is multiplied by flek", True,
        YES_NO,
        "Whether a renonc that ends a preferanc is multiplied by flek, re and sup like the "
        "povinnost's and the sólo's (true), or stays at the preferanc table's 1, 2 or 3 Kč "
        "because the seed prints 'se renonc násobí' under the sólo only (false).",
        f"seed {SEED}, Sólo: 'při fleku či re atd. se renonc násobí'; Preferanc: 'první "
        "zdvih ... 1,- Kč (+všechny ohlášené hlášky) druhý zdvih ... 2,- Kč třetí zdvih ... "
        "3,- Kč'",
    ),
    Option(
        OPTION_CAP_ON_RENONC, "The 20 Kč cap applies to renonc payments", True, YES_NO,
        "Whether the 20 Kč herní strop also holds the renonc payments (the seed makes no "
        "exception), or a renonc is paid in full (true: capped; false: paid in full).",
        f"seed {SEED}: 'Herní strop - maximální. částka zaplacená jednomu hráči v jedné "
        "hře.'; Renonc: 'Při sólu nebo preferanci platí provinilec licitujícímu hráči "
        "trojnásobek tohoto renoncu'",
    ),
    Option(
        OPTION_VARSAVA_TIE, "Varšava: the forehand tied for the most eyes pays", "own_scale",
        (Choice("own_scale", "by the forehand's scale (4 and 6 Kč)"),
         Choice("same_scale", "like the other tied player (2 and 4 Kč)")),
        "Varšava, the forehand tied with another player for the most eyes: by his own "
        "scale, the forehand pays by it (4 Kč, 6 Kč to a player without a trick) since he "
        "took the most eyes; by the same scale, both tied players pay alike (2 Kč, 4 Kč).",
        f"seed {SEED}, Varšava: 'V případě, že nejvíce očí mají dva hráči, platí oba "
        "stejným způsobem ostatním hráčům. Pokud nejvíce očí uhraje forhont platí hráčům, "
        "kteří uhrají méně očí 4,-Kč a hráči , který nemá zdvih, zaplatí 6,-Kč.'",
    ),
)

PENALTIES = (
    Penalty(PENALTY_RENONS, "renonc, po kterém hra končí", None,
            "the game's renonc tariff at its flek level + every announced hláška, to each "
            "other player (three times to the declarer of a sólo or preferanc); in Varšava "
            "2 Kč to each other player",
            f"{SEED}, Renonc, po kterém hra končí: \"platí hráč, který se provinil výši hry + "
            "všechny ohlášené hlášky\"; Varšava: \"Při renoncu u hry Varšava platí provinivší "
            "se hráč ostatním hráčům 2,- Kč a hra končí.\""),
    Penalty(PENALTY_RENONS_PLAY_CONTINUES, "renonc, po kterém hra pokračuje",
            MINOR_RENONS_FINE, "1 Kč to each other player; the game is scored as usual",
            f"{SEED}: \"Hráč, který se provinil platí 1,-Kč ostatním hráčům u stolu. Po "
            "zaplacení této pokuty se hra dohrává.\""),
    Penalty(PENALTY_MISDEAL, "nesprávný počet karet", MISDEAL_FINE,
            "1 Kč from each such player to each other player; dealt again",
            f"{SEED}, Zadání karet: \"zaplatí hráči, kteří měli nesprávný počet karet "
            "ostatním hráčům renonc ve výši 1,- Kč a rozdává se znovu\""),
)
