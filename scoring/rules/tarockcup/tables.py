"""The values of the Steirischer Tarockcup 2017/2018 (seed 001, Austrian Königrufen) as
data, each with the words of the seed it comes from: the tariff ("Die Spiele und ihre
Bewertung"), the premiums ("Die Prämien angesagt/still"), the contras, Trischaken, the cup
points of the series, the options and the penalty."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.rules.base import NO_YES, YES_NO, Choice, CupPoints, Option, Penalty

SEED = "001_7e38f3a78edb814f.txt"
FOUR = "four"

# "Es wird plus und minus geschrieben (1 Punkt = 10 Cent)."
CENTS_PER_POINT = 10

# -- cup series ------------------------------------------------------------------------------
# "erster Platz 223 Fixpunkte, zweiter 198, dritter 180 ... 50. Platz 1 Fixpunkt": the seed
# names only these four places; the organiser supplies the rest of the table. Nothing here
# may guess the places in between.
CUP_POINTS = CupPoints(
    places={1: 223, 2: 198, 3: 180, 50: 1},
    complete=False,
    # "Für den Gesamtturniersieg werden die sechs besten Ergebnisse plus das Final-Ergebnis
    # gewertet."
    best_results=6,
    plus_final=True,
    # "Wer an mindestens einem Einzelturnier teilgenommen hat, ist für das Finale
    # qualifiziert."
    tournaments_to_qualify_for_final=1,
    # "Es werden 3 Runden gespielt." (per tournament day)
    rounds_per_tournament=3,
    clause=f"{SEED}: \"Die Ergebnisse der Einzelturniere werden in fixe Cuppunkte umgerechnet "
           "(erster Platz 223 Fixpunkte, zweiter 198, dritter 180 ... 50. Platz 1 Fixpunkt)\"",
)

# -- the tariff ------------------------------------------------------------------------------
RUFER, DREIER, FARBEN, NEGATIV, TRISCHAKEN = "rufer", "dreier", "farben", "negativ", "trischaken"


@dataclass(frozen=True)
class GameRule:
    code: str
    name: str
    value: int
    family: str  # RUFER (a king is called), DREIER, FARBEN (1 against 3), NEGATIV, TRISCHAKEN
    lost_value: int | None = None  # Sechserdreier: "4/–8"
    premium_factor: int = 1  # "Im Solorufer, Solodreier und Farbensolo gelten alle Prämien doppelt"
    vogerl: str | None = None  # the Vogerl a Vogerl-Rufer names when it is bid
    forehand_only: bool = False


GAME_RULES: tuple[GameRule, ...] = (
    GameRule("rufer", "Rufer", 1, RUFER),
    GameRule("trischaken", "Trischaken", 3, TRISCHAKEN),
    GameRule("piccolo", "Piccolo", 2, NEGATIV),
    GameRule("zwiccolo", "Zwiccolo", 2, NEGATIV),
    GameRule("solorufer", "Solorufer", 2, RUFER, premium_factor=2),
    GameRule("pagatrufer", "Pagatrufer", 3, RUFER, vogerl="pagat"),
    GameRule("bettler", "Bettler", 4, NEGATIV),
    GameRule("sechserdreier", "Sechserdreier", 4, DREIER, lost_value=8, forehand_only=True),
    GameRule("uhurufer", "Uhurufer", 5, RUFER, vogerl="uhu"),
    GameRule("farbendreier", "Farbendreier", 5, FARBEN),
    GameRule("dreier", "Dreier", 5, DREIER),
    GameRule("piccolo_ouvert", "Piccolo ouvert", 6, NEGATIV),
    GameRule("zwiccolo_ouvert", "Zwiccolo ouvert", 6, NEGATIV),
    GameRule("kakadurufer", "Kakadurufer", 7, RUFER, vogerl="kakadu"),
    GameRule("bettler_ouvert", "Bettler ouvert", 8, NEGATIV),
    GameRule("quapilrufer", "Quapilrufer", 9, RUFER, vogerl="quapil"),
    GameRule("farbensolo", "Farbensolo", 10, FARBEN, premium_factor=2),
    GameRule("solodreier", "Solodreier", 10, DREIER, premium_factor=2),
)
GAME_BY_CODE = {g.code: g for g in GAME_RULES}

# premium -> (announced, silent) from the table "Die Prämien angesagt/still".
PREMIUM_VALUES: dict[str, tuple[int, int]] = {
    "koenig_ultimo": (2, 1),
    "trull": (2, 1),
    "vier_koenige": (2, 1),
    "pagat": (2, 1),
    "uhu": (4, 2),
    "kakadu": (6, 3),
    "quapil": (8, 4),
}
PREMIUM_NAMES = {
    "koenig_ultimo": "König ultimo", "trull": "Trull", "vier_koenige": "4 Könige",
    "pagat": "Pagat", "uhu": "Uhu", "kakadu": "Kakadu", "quapil": "Quapil", "valat": "Valat",
}
# "Valat 8-fach/4-fach": a multiple of the game, announced / silent.
VALAT_MULTIPLIER = {True: 8, False: 4}
VOGERLN = ("pagat", "uhu", "kakadu", "quapil")
# "Im angesagten und stillen Valat zählen alle Vogerln und der König ultimo"
COUNT_IN_ANY_VALAT = set(VOGERLN) | {"koenig_ultimo"}
# a premium that is a collection, not a last-trick feat, cannot be "lost" silently
CANNOT_FAIL_SILENTLY = {"trull", "vier_koenige", "valat"}

PREMIUMS_BY_FAMILY: dict[str, tuple[str, ...]] = {
    RUFER: ("koenig_ultimo", "trull", "vier_koenige", "pagat", "uhu", "kakadu", "quapil",
            "valat"),
    # König ultimo needs the called king ("wenn er die jeweilige Karte im Blatt hat")
    DREIER: ("trull", "vier_koenige", "pagat", "uhu", "kakadu", "quapil", "valat"),
    # "Farbspiele ... Nur die Ansagen 4 Könige und Valat sind möglich."
    FARBEN: ("vier_koenige", "valat"),
    NEGATIV: (),
    TRISCHAKEN: (),
}

CONTRA_FACTORS = {1: 2, 2: 4, 3: 8}  # "Kontra (doppelt), Re (vierfach) und Sub (achtfach)"
CONTRA_NAMES = {1: "Kontra", 2: "Re", 3: "Sub"}

# Trischaken tariff ("Trischaken"-section of the seed), in points of the Schrift
TRISCHAKEN_BASE = 3
TRISCHAKEN_JUNGFRAU = 9
TRISCHAKEN_ALL_TRICKS = 12
TRISCHAKEN_RENONCE = 9
# "mindestens 35 Punkte und 2 Blatt": 35 2/3 points, counted in thirds (Blatt)
BUERGERMEISTER_THIRDS = 35 * 3 + 2
TOTAL_THIRDS = 70 * 3

OPTION_FOREHAND_JUNGFRAU = "trischaken_forehand_doubles_jungfrau"
OPTION_SILENT_LOST = "silent_premium_lost_pays"
OPTION_LOST_VALAT_GAME = "lost_valat_keeps_game"
OPTION_MONDFANG = "mondfang"
OPTION_RENONCE_PREMIUMS = "renonce_pays_premiums"
OPTIONS = (
    Option(
        OPTION_FOREHAND_JUNGFRAU, "Trischaken: the Vorhand pays a Jungfrau double", False,
        NO_YES,
        "Trischaken: whether the Vorhand as loser also pays a Jungfrau double. Default: "
        "no, the Jungfrau clause names its amounts (9, 18 from the Bürgermeister) without "
        "the Vorhand doubling.",
        f"{SEED}, Trischaken: \"Hat ein Spieler keinen Stich (Jungfrau), erhält er vom "
        "Verlierer 9 Punkte\" / \"Hat der Vorhandspieler die meisten Punkte, zahlt er "
        "doppelt, also je 6 Punkte\"",
    ),
    Option(
        OPTION_SILENT_LOST, "A lost silent Vogerl or König ultimo is paid", True, YES_NO,
        "Whether a silent Vogerl or König ultimo that is lost (achieved false) costs its "
        "silent value, as the announced one costs its announced value (true), or counts "
        "nothing because a silent premium only counts when made (false).",
        f"{SEED}, Die Prämien angesagt/still: \"Pagat (I) 2/1\", \"Uhu (II) 4/2\", "
        "\"Kakadu (III) 6/3\", \"Quapil 8/4\", \"König ultimo 2/1\"",
    ),
    Option(
        OPTION_LOST_VALAT_GAME, "A failed announced Valat: the game counts too", False,
        NO_YES,
        "An announced Valat that fails costs the eightfold game. false: it replaces the "
        "game's own win or loss; true: the game is also scored as won or lost on its own.",
        f"{SEED}, Valat: \"Sobald ein Valat angesagt oder still erzielt wird, ist ein "
        "Kontra auf das Spiel hinfällig\"; Die Prämien: \"Valat 8-fach/4-fach\"",
    ),
    Option(
        OPTION_MONDFANG, "Mondfang", "refused",
        (Choice("refused", "not written: a Mondfang entry is refused"),
         Choice("zero", "written with 0 points")),
        "Mondfang wird nicht honoriert: either there is no Mondfang to write and an entry "
        "of it is refused, or the table may write it and it scores 0 points.",
        f"{SEED}, Die Prämien: \"Mondfang wird nicht honoriert.\"",
    ),
    Option(
        OPTION_RENONCE_PREMIUMS, "Renonce: the announced premiums paid", "all",
        (Choice("all", "every announced premium, the other side's as failed"),
         Choice("own_side", "only those of the paid player's side")),
        "Renonce: each other player is paid as if he had won the game and the announced "
        "premiums: every announced premium, his side's as made and the other side's as "
        "failed, or only the premiums his own side announced.",
        f"{SEED}, Renonce: \"Begeht ein Spieler Renonce, erhalten die anderen Spieler so "
        "viele Punkte, als hätten sie das Spiel und die angesagten Prämien gewonnen\"",
    ),
)

PENALTIES = (
    Penalty("renons", "Renonce", None,
            "the others are paid as if they had won the game and the announced premiums; "
            "in Trischaken 9 to each other player",
            f"{SEED}, Renonce: \"Begeht ein Spieler Renonce, erhalten die anderen Spieler so "
            "viele Punkte, als hätten sie das Spiel und die angesagten Prämien gewonnen\"; "
            "Trischaken: \"Bei Renonce zahlt der Renoncespieler den 3 regulären Spielern je 9 "
            "Punkte\""),
)
