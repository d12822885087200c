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
ONE_AGAINST_THREE_GAMES = ("preferanc_1", "preferanc_2", "preferanc_3", "solo")
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
