"""Forms of the server-rendered pages. They parse what a browser posts into the arguments of
the services and map the services' and the engine's contract-shaped errors back to the field
they concern.

The hand form is built from the ruleset's own description (`Ruleset.describe()`): only the
games, announcements, contra levels and penalty kinds of the event's ruleset and mode are
offered, and which fields a game needs follows from how the game is decided. The same form
checks a hand against the engine while it is typed (`hand_feedback`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from typing import Any

from django import forms
from django.utils.html import format_html, format_html_join
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

import scoring
from scoring import rules
from tournaments import limits, ruleset_text
from tournaments.countries import choices as country_choices
from tournaments.countries import country_code
from tournaments.engine_text import error_text
from tournaments.models import Event, Registration, SeatingSystem
from tournaments.seating import SeatingInvalid
from tournaments.seating.rotation import rest_rotation

ANNOUNCEMENT_ROWS = 4
CONTRA_ROWS = 3
PENALTY_ROWS = 2
BLANK = [("", "—")]


@lru_cache(maxsize=32)
def _describe(code: str) -> dict[str, Any] | None:
    ruleset = rules.get(code)
    return ruleset.describe() if ruleset is not None else None


def ruleset_description(code: str) -> dict[str, Any] | None:
    """The registry's description of a ruleset (cached: rulesets are data and never change
    while the process runs)."""
    return _describe(code)


def ruleset_choices() -> list[tuple[str, str]]:
    return [(r.code, f"{r.title or r.code} ({r.code})") for r in rules.all_rulesets()]


def is_money(code: str) -> bool:
    desc = ruleset_description(code)
    return bool(desc and desc.get("unit") == "haler")


def score_label(event: Event) -> str:
    """What the score column is called where the players know it by their own word (the
    ruleset's `score_label`: "Kč", "Schrift"), else the translated "Score"."""
    ruleset = rules.get(event.ruleset_code)
    if ruleset is not None and ruleset.score_label:
        return ruleset.score_label
    return str(_("Score"))


def add_service_errors(form: forms.Form, errors: list[dict[str, Any]],
                       field_map: dict[str, str] | None = None) -> None:
    """Put a service's contract errors on the form's fields (unknown fields: the form)."""
    field_map = field_map or {}
    for error in errors:
        name = str(error.get("field") or "")
        name = field_map.get(name, name)
        root = name.split(".", 1)[0].split("[", 1)[0]
        target = name if name in form.fields else field_map.get(root, root)
        if target in form.fields:
            form.add_error(target, error["message"])
        else:
            form.add_error(None, error["message"])


def _kc_to_haler(value: Decimal | None) -> int | None:
    if value is None:
        return None
    haler = value * 100
    if haler != haler.to_integral_value():
        raise forms.ValidationError(_("Give whole haléř (at most two decimals)."))
    return int(haler)


# ---------------------------------------------------------------------------------------
# Events
# ---------------------------------------------------------------------------------------

def _option_value(option: dict[str, Any], raw: str) -> Any:
    """The typed choice of a ruleset option whose text the browser posted."""
    for choice in option["choices"]:
        if str(choice) == raw:
            return choice
    raise forms.ValidationError(_("Choose one of the offered values."))


class EventForm(forms.Form):
    """Create or edit an event: its ruleset (code, mode, options from the registry), seating
    system and format. The ruleset's modes and options are fields built for the chosen code."""

    name = forms.CharField(label=_("Name"), max_length=200)
    slug = forms.SlugField(label=_("Web address"), max_length=100, required=False,
                           help_text=_("Part of the event's address; made from the name when left empty."))
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    starts_on = forms.DateField(label=_("First day"), widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(label=_("Last day"), required=False,
                              widget=forms.DateInput(attrs={"type": "date"}))
    time_zone = forms.CharField(label=_("Time zone"), max_length=64, initial="Europe/Ljubljana")
    language = forms.ChoiceField(label=_("Language of printed sheets"), choices=Event.Language.choices)
    ruleset_code = forms.ChoiceField(label=_("Ruleset"))
    ruleset_mode = forms.ChoiceField(label=_("Mode"), required=False)
    seating_system = forms.ChoiceField(label=_("Seating system"), choices=SeatingSystem.choices)
    planned_rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=50, initial=3)
    hands_per_round = forms.IntegerField(label=_("Hands per round"), min_value=1,
                                         max_value=limits.MAX_HANDS_PER_ROUND,
                                         initial=24)
    round_duration_minutes = forms.IntegerField(label=_("Round duration (minutes)"), min_value=1,
                                                max_value=600, required=False)
    table_size = forms.IntegerField(label=_("Players at a table"), min_value=2, max_value=5, initial=4)
    min_table_size = forms.IntegerField(
        label=_("Smallest table"), min_value=1, max_value=5, initial=3,
        help_text=_("1 seats a lone player at the last table in the points system (seed 000 "
                    "§4.1 b: 41 players are ten fours and one lone player)."))
    stake_kc = forms.DecimalField(label=_("Stake per player and round (Kč)"), required=False,
                                  min_value=0, max_digits=9, decimal_places=2,
                                  help_text=_("Money rulesets only."))
    status = forms.ChoiceField(label=_("Status"), choices=Event.Status.choices,
                               initial=Event.Status.REGISTRATION)
    is_public = forms.BooleanField(label=_("Public (listed, standings visible to everybody)"),
                                   required=False, initial=True)
    rated = forms.BooleanField(label=_("Rated (its tables count in the players' ratings)"),
                               required=False, initial=True,
                               help_text=Event._meta.get_field("rated").help_text)
    card_confirmation = forms.ChoiceField(label=_("Who confirms a table's card"),
                                          choices=Event.CardConfirmation.choices, required=False,
                                          initial=Event.CardConfirmation.TABLE,
                                          widget=forms.RadioSelect)
    seating_pool = forms.ChoiceField(label=_("Who is seated in each round"),
                                     choices=Event.SeatingPool.choices, required=False,
                                     initial=Event.SeatingPool.ACTIVE, widget=forms.RadioSelect,
                                     help_text=Event._meta.get_field("seating_pool").help_text)

    SERVICE_FIELD_MAP = {"stake_haler": "stake_kc", "ruleset_options": "ruleset_code"}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ruleset_code"].choices = ruleset_choices()
        code = self._chosen_code()
        self.description = ruleset_description(code) if code else None
        desc = self.description
        modes = [(m["code"], ruleset_text.mode_label(m)) for m in (desc or {}).get("modes", [])]
        self.fields["ruleset_mode"].choices = modes
        if desc and desc.get("default_mode"):
            self.fields["ruleset_mode"].initial = desc["default_mode"]
        self.option_names: list[str] = []
        current = (self.initial.get("ruleset_options") or {}) if code == self.initial.get("ruleset_code") else {}
        for option in (desc or {}).get("options", []):
            name = f"opt-{option['name']}"
            self.option_names.append(name)
            # Not required: an option left out keeps the ruleset's default.
            labels = {str(c["value"]): c["label"] for c in option.get("choice_labels", [])}
            self.fields[name] = forms.ChoiceField(
                label=ruleset_text.text(option.get("label") or option["name"]), required=False,
                choices=[(str(c), ruleset_text.text(labels.get(str(c), str(c))))
                         for c in option["choices"]],
                initial=str(current.get(option["name"], option["default"])),
                help_text=ruleset_text.text(option.get("description", "")),
            )

    def _chosen_code(self) -> str:
        if self.is_bound:
            return self.data.get(self.add_prefix("ruleset_code"), "") or ""
        code = self.initial.get("ruleset_code")
        if code:
            return code
        choices = ruleset_choices()
        return choices[0][0] if choices else ""

    @property
    def presets(self) -> list[Any]:
        """The named days of the chosen ruleset (tournaments.presets), offered on a new
        event's form."""
        from tournaments.presets import for_ruleset

        return for_ruleset(self._chosen_code())

    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.option_names]

    @property
    def money(self) -> bool:
        return bool(self.description and self.description.get("unit") == "haler")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("slug") and data.get("name"):
            data["slug"] = slugify(data["name"])[:100]
        if data.get("starts_on") and not data.get("ends_on"):
            data["ends_on"] = data["starts_on"]
        options = {}
        for option in (self.description or {}).get("options", []):
            raw = data.get(f"opt-{option['name']}")
            if raw in (None, ""):
                continue
            try:
                value = _option_value(option, raw)
            except forms.ValidationError as exc:
                self.add_error(f"opt-{option['name']}", exc)
                continue
            # Store only what differs from the ruleset's default: the card says less.
            if value != option["default"]:
                options[option["name"]] = value
        data["ruleset_options"] = options
        try:
            data["stake_haler"] = _kc_to_haler(data.get("stake_kc"))
        except forms.ValidationError as exc:
            self.add_error("stake_kc", exc)
        return data

    def service_fields(self) -> dict[str, Any]:
        d = self.cleaned_data
        return {
            "name": d["name"], "slug": d["slug"], "venue": d.get("venue", ""),
            "starts_on": d["starts_on"], "ends_on": d["ends_on"], "time_zone": d["time_zone"],
            "language": d["language"], "ruleset_code": d["ruleset_code"],
            "ruleset_mode": d.get("ruleset_mode") or "", "ruleset_options": d["ruleset_options"],
            "seating_system": d["seating_system"], "planned_rounds": d["planned_rounds"],
            "hands_per_round": d["hands_per_round"],
            "round_duration_minutes": d.get("round_duration_minutes"),
            "table_size": d["table_size"], "min_table_size": d["min_table_size"],
            "stake_haler": d.get("stake_haler") if self.money else None,
            "status": d["status"], "is_public": d.get("is_public", False),
            "rated": d.get("rated", False),
            "card_confirmation": d.get("card_confirmation") or Event.CardConfirmation.TABLE,
            "seating_pool": d.get("seating_pool") or Event.SeatingPool.ACTIVE,
        }

    @classmethod
    def initial_from(cls, event: Event) -> dict[str, Any]:
        return {
            "name": event.name, "slug": event.slug, "venue": event.venue,
            "starts_on": event.starts_on, "ends_on": event.ends_on, "time_zone": event.time_zone,
            "language": event.language, "ruleset_code": event.ruleset_code,
            "ruleset_mode": event.ruleset_mode, "ruleset_options": event.ruleset_options,
            "seating_system": event.seating_system, "planned_rounds": event.planned_rounds,
            "hands_per_round": event.hands_per_round,
            "round_duration_minutes": event.round_duration_minutes,
            "table_size": event.table_size, "min_table_size": event.min_table_size,
            "stake_kc": (Decimal(event.stake_haler) / 100) if event.stake_haler else None,
            "status": event.status, "is_public": event.is_public, "rated": event.rated,
            "card_confirmation": event.card_confirmation,
            "seating_pool": event.seating_pool,
        }


# ---------------------------------------------------------------------------------------
# Players
# ---------------------------------------------------------------------------------------

class CountryInput(forms.TextInput):
    """A text box with the list of countries (named in the page's language) to pick from:
    whoever types "Slovenija", "Slovenia" or "SI" gets SI (tournaments.countries)."""

    def render(self, name: str, value: Any, attrs: dict[str, Any] | None = None,
               renderer: Any = None) -> str:
        list_id = f"{(attrs or {}).get('id') or self.attrs.get('id') or name}-choices"
        box = super().render(name, value, {**(attrs or {}), "list": list_id, "autocomplete": "off"},
                             renderer)
        options = format_html_join("", '<option value="{}">{}</option>', country_choices())
        return box + format_html('<datalist id="{}">{}</datalist>', list_id, options)


class CountryField(forms.CharField):
    """A country by its name in any of the site's languages or by its ISO 3166 code; the
    cleaned value is the code ("" for none)."""

    widget = CountryInput

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 100)
        super().__init__(**kwargs)

    def clean(self, value: Any) -> str:
        text = super().clean(value)
        code = country_code(text)
        if code is None:
            raise forms.ValidationError(
                _("“%(value)s” is not a country: pick one from the list, or type its name or its "
                  "two-letter code (SI, AT, CZ)."), code="invalid_country", params={"value": text})
        return code


class PlayerAddForm(forms.Form):
    first_name = forms.CharField(label=_("First name"), max_length=100)
    last_name = forms.CharField(label=_("Last name"), max_length=100)
    club = forms.CharField(label=_("Club"), max_length=200, required=False)
    country = CountryField(label=_("Country"), required=False)
    federation_id = forms.CharField(label=_("Federation id"), max_length=50, required=False)
    start_number = forms.IntegerField(label=_("Start number"), min_value=1, required=False,
                                      max_value=limits.INT_MAX,
                                      help_text=_("Left empty: the next free number."))
    status = forms.ChoiceField(label=_("Status"), choices=[
        (Registration.Status.REGISTERED, _("Registered")),
        (Registration.Status.CHECKED_IN, _("Checked in")),
        (Registration.Status.LATE_ENTRY, _("Late entry")),
    ])
    # The organiser's answer when the registry already has a player of this name and club:
    # that player's id, or "new" for a namesake. Posted by the buttons of that question.
    use_player = forms.RegexField(regex=r"^(new|[0-9]{1,9})$", required=False)


class PlayerMergeForm(forms.Form):
    """The other record of the same person, merged into the player of the page."""

    duplicate = forms.IntegerField(label=_("The other record"), min_value=1,
                                   max_value=limits.INT_MAX, required=False,
                                   widget=forms.HiddenInput)

    def __init__(self, *args: Any, required: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["duplicate"].required = required


class CsvImportForm(forms.Form):
    file = forms.FileField(label=_("CSV file"), required=False)
    text = forms.CharField(label=_("…or paste the rows"), required=False,
                           widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        upload = data.get("file")
        if upload:
            raw = upload.read()
            try:
                data["csv"] = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                self.add_error("file", _("The file is not UTF-8 text."))
        else:
            data["csv"] = data.get("text") or ""
        if not self.errors and not data["csv"].strip():
            self.add_error(None, _("Choose a file or paste the rows."))
        return data


class StatusForm(forms.Form):
    status = forms.ChoiceField(choices=Registration.Status.choices)


# ---------------------------------------------------------------------------------------
# Rounds
# ---------------------------------------------------------------------------------------

class SwapForm(forms.Form):
    first = forms.ChoiceField(label=_("Player"))
    second = forms.ChoiceField(label=_("swap with"))

    def __init__(self, *args: Any, players: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["first"].choices = BLANK + players
        self.fields["second"].choices = BLANK + players


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2}))


class AnnulForm(ReasonForm):
    pass


class PenaltyForm(forms.Form):
    kind = forms.ChoiceField(label=_("Penalty"))
    player = forms.ChoiceField(label=_("Player"))
    hand_number = forms.TypedChoiceField(
        label=_("Hand"), coerce=int, required=False, empty_value=None,
        help_text=_("On a hand the engine scores the penalty. For the whole table it is a note "
                    "that changes no score; a standings adjustment makes it count."))
    description = forms.CharField(label=_("Description"), required=False,
                                  widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, kinds: list[str], players: list[tuple[str, str]],
                 hands: list[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = kinds
        self.fields["player"].choices = BLANK + players
        self.fields["hand_number"].choices = [("", _("the whole table"))] + [
            (str(n), str(n)) for n in hands]


class DisputeForm(forms.Form):
    description = forms.CharField(label=_("What is disputed"), widget=forms.Textarea(attrs={"rows": 3}))
    hand_number = forms.TypedChoiceField(label=_("Hand"), coerce=int, required=False,
                                         empty_value=None)
    raised_by_name = forms.CharField(label=_("Raised by"), max_length=200, required=False)

    def __init__(self, *args: Any, hands: list[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["hand_number"].choices = [("", _("the whole table"))] + [
            (str(n), str(n)) for n in hands]


class DecisionForm(forms.Form):
    decision = forms.CharField(label=_("Decision and its reason"), widget=forms.Textarea(attrs={"rows": 3}))
    correction = forms.TypedChoiceField(label=_("The change that carries it out"), coerce=int,
                                        required=False, empty_value=None)

    def __init__(self, *args: Any, corrections: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["correction"].choices = [("", _("none"))] + [(str(k), v) for k, v in corrections]


class AdjustmentForm(forms.Form):
    registration = forms.TypedChoiceField(label=_("Player"), coerce=int)
    points_delta = forms.DecimalField(label=_("Table points"), max_digits=9, decimal_places=3,
                                      initial=0, min_value=-limits.MAX_POINTS_ADJUSTMENT,
                                      max_value=limits.MAX_POINTS_ADJUSTMENT)
    score_delta = forms.IntegerField(label=_("Score"), initial=0,
                                     min_value=-limits.MAX_SCORE_ADJUSTMENT,
                                     max_value=limits.MAX_SCORE_ADJUSTMENT)
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, players: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["registration"].choices = [(str(k), v) for k, v in players]


class MoneySheetForm(forms.Form):
    """A money ruleset's round result: per player what he bought and what he ended with, in
    Kč as the sheet writes them; the service takes haléř."""

    def __init__(self, *args: Any, players: list[tuple[str, str]],
                 rows: dict[str, tuple[int, int]] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = players
        for pid, label in players:
            bought, money = (rows or {}).get(pid, (0, None))
            self.fields[f"bought-{pid}"] = forms.DecimalField(
                label=label, min_value=0, max_digits=9, decimal_places=2, required=False,
                initial=Decimal(bought) / 100 if bought else Decimal(0))
            self.fields[f"money-{pid}"] = forms.DecimalField(
                label=label, min_value=0, max_digits=9, decimal_places=2,
                initial=Decimal(money) / 100 if money is not None else None)

    def player_rows(self) -> list[tuple[str, str, forms.BoundField, forms.BoundField]]:
        return [(pid, label, self[f"bought-{pid}"], self[f"money-{pid}"]) for pid, label in self.players]

    def rows(self) -> dict[str, dict[str, int]]:
        out = {}
        for pid, _label in self.players:
            try:
                bought = _kc_to_haler(self.cleaned_data.get(f"bought-{pid}") or Decimal(0))
                money = _kc_to_haler(self.cleaned_data.get(f"money-{pid}"))
            except forms.ValidationError as exc:
                self.add_error(f"money-{pid}", exc)
                continue
            out[pid] = {"bought": bought or 0, "money": money}
        return out

    def add_engine_errors(self, errors: list[dict[str, Any]]) -> None:
        pids = [pid for pid, _label in self.players]
        for error in errors:
            name = str(error.get("field") or "")
            match = re.match(r"(?:sheet\.)?players\[(\d+)\]\.(bought|money)", name)
            if match and int(match.group(1)) < len(pids):
                self.add_error(f"{match.group(2)}-{pids[int(match.group(1))]}", error_text(error))
            else:
                self.add_error(None, error_text(error))


# ---------------------------------------------------------------------------------------
# Hands
# ---------------------------------------------------------------------------------------

def penalty_choices(description: dict[str, Any] | None) -> list[tuple[str, str]]:
    """(kind, name in the reader's language) of a ruleset's penalties."""
    names = {p["kind"]: p.get("name") or p["kind"] for p in (description or {}).get("penalties", [])}
    return [(kind, ruleset_text.text(names.get(kind, kind)))
            for kind in (description or {}).get("penalty_kinds", [])]


@dataclass
class EntryContext:
    """What a table's hand form needs to know: the ruleset's offer for the card's mode, the
    players at the table in seat order and the rotation of dealer, resting player and
    forehand hand by hand."""

    description: dict[str, Any]
    mode: str
    players: list[tuple[str, str]]  # (start number, "7 · Name")
    hands_per_round: int
    games: list[dict[str, Any]] = field(default_factory=list)
    announcements: list[dict[str, Any]] = field(default_factory=list)
    contra_on: list[str] = field(default_factory=list)
    contra_levels: list[dict[str, Any]] = field(default_factory=list)
    penalty_kinds: list[str] = field(default_factory=list)
    props: dict[str, Any] = field(default_factory=dict)
    announcement_props: set[str] = field(default_factory=set)
    contra_props: set[str] = field(default_factory=set)
    uses_resting: bool = False
    rotation: list[dict[str, Any]] = field(default_factory=list)

    @property
    def pids(self) -> list[str]:
        return [pid for pid, _label in self.players]

    def penalty_choices(self) -> list[tuple[str, str]]:
        """(kind, name in the reader's language) of the ruleset's penalties."""
        return penalty_choices(self.description)

    def game(self, code: str) -> dict[str, Any] | None:
        for game in self.games:
            if game["code"] == code:
                return game
        return None

    def rotation_of(self, number: int) -> dict[str, Any] | None:
        if 1 <= number <= len(self.rotation):
            return self.rotation[number - 1]
        if self.rotation:
            # Past the planned hands the deal keeps passing round the table.
            return self.rotation[(number - 1) % len(self.rotation)]
        return None

    @property
    def used_fields(self) -> set[str]:
        return {name for game in self.games for name in game["fields"]}

    def game_fields_json(self) -> dict[str, list[str]]:
        return {g["code"]: g["fields"] for g in self.games}


def game_fields(game: dict[str, Any], players_in_hand: int, props: dict[str, Any],
                has_announcements: bool) -> list[str]:
    """The fields a game needs, from how the ruleset decides it: games of a declarer name him
    and give his points or whether he won; games every player plays for himself (klop,
    Trischaken, Varšava) give each player's points."""
    decided = game.get("decided_by")
    out: list[str] = []
    if decided in ("points", "tricks"):
        out.append("declarer")
        partnered = (game.get("partner_value") is not None or game.get("calls_king")
                     or game.get("calls_king_in_four") or "called" in game)
        if "partner" in props and players_in_hand >= 4 and partnered:
            out.append("partner")
        if "called" in game and "called" in props:
            out.append("called")
        if "conceded" in props and game.get("calls_king"):
            out.append("conceded")
        if "points" in props and (decided == "points" or game.get("points_optional")):
            out.append("points")
        if decided == "tricks" and "won" in props:
            out.append("won")
        if has_announcements:
            out.append("announcements")
    else:
        for name in ("points_by_player", "tricks_by_player", "blatt_by_player"):
            if name in props:
                out.append(name)
    return out


def entry_context(*, code: str, mode: str, players: list[tuple[str, str]],
                  hands_per_round: int) -> EntryContext:
    desc = ruleset_description(code) or {}
    props = desc.get("hand_schema", {}).get("properties", {})
    mode_info = next((m for m in desc.get("modes", []) if m["code"] == mode), None) or {}
    in_hand = mode_info.get("players_in_hand", len(players))
    announcements = [a for a in desc.get("announcements", []) if mode in a.get("modes", [mode])]
    games: list[dict[str, Any]] = []
    seen: set[str] = set()
    for game in desc.get("games", []):
        if mode not in game.get("modes", [mode]) or game["code"] in seen:
            continue
        seen.add(game["code"])
        games.append({**game, "fields": game_fields(game, in_hand, props, bool(announcements))})
    contra_items = props.get("contras", {}).get("items", {}).get("properties", {})
    ann_items = props.get("announcements", {}).get("items", {}).get("properties", {})
    uses_resting = ("resting" in props and mode_info.get("seats", 0) > in_hand
                    and len(players) > in_hand)
    try:
        rotation = rest_rotation([pid for pid, _label in players], max(hands_per_round, 1))
    except SeatingInvalid:
        rotation = []
    return EntryContext(
        description=desc, mode=mode, players=players, hands_per_round=hands_per_round,
        games=games, announcements=announcements,
        contra_on=list(contra_items.get("on", {}).get("enum", [])),
        contra_levels=list(desc.get("contra_levels", [])),
        penalty_kinds=list(desc.get("penalty_kinds", [])),
        props=props, announcement_props=set(ann_items), contra_props=set(contra_items),
        uses_resting=uses_resting, rotation=rotation,
    )


PER_PLAYER = {"points_by_player": "pbp", "tricks_by_player": "tbp", "blatt_by_player": "bbp"}
ROWS = {"announcements": ("ann", "name"), "contras": ("con", "on"), "penalties": ("pen", "kind")}
ALONE = "-"


class HandForm(forms.Form):
    """One hand as a table writes it. Field names are flat so a plain HTML form posts them:
    `pbp-<player>` for points per player, `ann-<row>-name` for announcements and so on.
    `record` (after `is_valid()`) is the hand in the scorecard contract's shape, holding only
    what the chosen game needs."""

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=limits.SMALL_MAX)
    # Required: the optimistic lock of the scorecard (a form without it would overwrite a
    # change made since the page was loaded).
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=limits.INT_MAX)
    game = forms.ChoiceField(label=_("Game"))
    reason = forms.CharField(label=_("Reason for the change"), required=False,
                             widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, ctx: EntryContext, record: dict[str, Any] | None = None,
                 **kwargs: Any) -> None:
        initial = kwargs.pop("initial", {}) or {}
        if record:
            initial.update(self.initial_from_record(record, ctx))
        super().__init__(*args, initial=initial, **kwargs)
        self.ctx = ctx
        self.record: dict[str, Any] = {}
        self.row_of: dict[tuple[str, int], int] = {}
        players = list(ctx.players)
        props = ctx.props
        self.fields["game"].choices = BLANK + [(g["code"], g["name"]) for g in ctx.games]

        def player_choice(name: str, label: Any, extra: list[tuple[str, Any]] | None = None) -> None:
            self.fields[name] = forms.ChoiceField(label=label, required=False,
                                                  choices=BLANK + (extra or []) + players)

        if "declarer" in props:
            player_choice("declarer", _("Declarer"))
        if "partner" in props:
            player_choice("partner", _("Partner"), [(ALONE, _("alone"))])
        if "called" in props:
            called = props["called"].get("enum", [])
            self.fields["called"] = forms.ChoiceField(label=_("Called tarok"), required=False,
                                                      choices=BLANK + [(c, c) for c in called])
        if ctx.uses_resting:
            player_choice("resting", _("Resting"))
        if "forehand" in props:
            player_choice("forehand", _("Forehand"))
        if "points" in props:
            self.fields["points"] = forms.IntegerField(label=_("Points"), required=False,
                                                       min_value=0, max_value=70)
        if "won" in props:
            self.fields["won"] = forms.ChoiceField(label=_("Result"), required=False, choices=BLANK + [
                ("1", _("won")), ("0", _("lost"))])
        if "conceded" in props:
            self.fields["conceded"] = forms.BooleanField(label=_("Conceded"), required=False)
        for name, prefix in PER_PLAYER.items():
            if name in props:
                for pid, label in players:
                    maximum = props[name].get("additionalProperties", {}).get("maximum", 70)
                    self.fields[f"{prefix}-{pid}"] = forms.IntegerField(
                        label=label, required=False, min_value=0, max_value=maximum)
        ann_names = BLANK + [(a["code"], a["name"]) for a in ctx.announcements]
        for row in range(ANNOUNCEMENT_ROWS if ctx.announcements else 0):
            self.fields[f"ann-{row}-name"] = forms.ChoiceField(label=_("Announcement"),
                                                               required=False, choices=ann_names)
            player_choice(f"ann-{row}-by", _("by"))
            self.fields[f"ann-{row}-announced"] = forms.BooleanField(label=_("announced"),
                                                                     required=False)
            self.fields[f"ann-{row}-achieved"] = forms.ChoiceField(
                label=_("outcome"), required=False,
                choices=BLANK + [("1", _("achieved")), ("0", _("failed"))])
            if "held" in ctx.announcement_props:
                self.fields[f"ann-{row}-held"] = forms.BooleanField(label=_("held"), required=False)
        level_names = BLANK + [(str(c["level"]), c["name"]) for c in ctx.contra_levels]
        on_names = BLANK + [(on, self._contra_on_label(on)) for on in ctx.contra_on]
        for row in range(CONTRA_ROWS if ctx.contra_levels else 0):
            self.fields[f"con-{row}-on"] = forms.ChoiceField(label=_("on"), required=False,
                                                             choices=on_names)
            player_choice(f"con-{row}-by", _("by"))
            self.fields[f"con-{row}-level"] = forms.ChoiceField(label=_("level"), required=False,
                                                                choices=level_names)
            if "against" in ctx.contra_props:
                player_choice(f"con-{row}-against", _("against"))
        for row in range(PENALTY_ROWS if ctx.penalty_kinds else 0):
            self.fields[f"pen-{row}-kind"] = forms.ChoiceField(
                label=_("Penalty"), required=False,
                choices=BLANK + ctx.penalty_choices())
            player_choice(f"pen-{row}-player", _("player"))
        # Fields no game of this ruleset and mode needs (a partner in TRI+1) are not offered.
        used = ctx.used_fields
        for name in ("declarer", "partner", "called", "points", "won", "conceded"):
            if name in self.fields and name not in used:
                del self.fields[name]
        for group, prefix in [*PER_PLAYER.items(), ("announcements", "ann")]:
            if group not in used:
                for name in [n for n in self.fields if n.startswith(f"{prefix}-")]:
                    del self.fields[name]
        for name, fld in self.fields.items():
            if name[:4] in ("ann-", "con-", "pen-"):
                # Row fields are laid out under one header; the label stays for screen readers.
                fld.widget.attrs["aria-label"] = f"{fld.label} {int(name.split('-')[1]) + 1}"

    def _contra_on_label(self, on: str) -> str:
        if on == "game":
            return str(_("the game"))
        for ann in self.ctx.announcements:
            if ann["code"] == on:
                return ann["name"]
        return on

    # -- what the template lays out -------------------------------------------------------
    def per_player(self, name: str) -> list[forms.BoundField]:
        prefix = PER_PLAYER[name]
        return [self[f"{prefix}-{pid}"] for pid in self.ctx.pids if f"{prefix}-{pid}" in self.fields]

    def per_player_groups(self) -> list[tuple[str, Any, list[forms.BoundField]]]:
        titles = {"points_by_player": _("Points of each player"),
                  "tricks_by_player": _("Tricks of each player (where the rules need them)"),
                  "blatt_by_player": _("Blatt of each player")}
        return [(name, titles[name], self.per_player(name)) for name in PER_PLAYER
                if self.per_player(name)]

    @property
    def has_penalties(self) -> bool:
        return any(self[f"pen-{row}-kind"].value() for row in range(PENALTY_ROWS)
                   if f"pen-{row}-kind" in self.fields)

    def rows(self, kind: str, count: int) -> list[list[forms.BoundField]]:
        prefix = ROWS[kind][0]
        out = []
        for row in range(count):
            names = [n for n in self.fields if n.startswith(f"{prefix}-{row}-")]
            if names:
                out.append([self[n] for n in names])
        return out

    def announcement_rows(self) -> list[list[forms.BoundField]]:
        return self.rows("announcements", ANNOUNCEMENT_ROWS)

    def contra_rows(self) -> list[list[forms.BoundField]]:
        return self.rows("contras", CONTRA_ROWS)

    def penalty_rows(self) -> list[list[forms.BoundField]]:
        return self.rows("penalties", PENALTY_ROWS)

    def error_slots(self) -> list[str]:
        """Every place an error can be shown: the fields and the per-player groups."""
        groups = [name for name in (*PER_PLAYER, *ROWS) if self._has_group(name)]
        return [n for n in self.fields if n not in ("number", "version", "reason")] + groups

    def _has_group(self, name: str) -> bool:
        prefix = PER_PLAYER.get(name) or ROWS.get(name, ("",))[0]
        return any(n.startswith(f"{prefix}-") for n in self.fields)

    # -- parsing ---------------------------------------------------------------------------
    @staticmethod
    def initial_from_record(record: dict[str, Any], ctx: EntryContext) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key in ("game", "declarer", "called", "resting", "forehand", "points"):
            if record.get(key) is not None:
                out[key] = record[key]
        if "partner" in record:
            out["partner"] = ALONE if record["partner"] is None else record["partner"]
        if "won" in record:
            out["won"] = "1" if record["won"] else "0"
        if record.get("conceded"):
            out["conceded"] = True
        for name, prefix in PER_PLAYER.items():
            for pid, value in (record.get(name) or {}).items():
                out[f"{prefix}-{pid}"] = value
        for row, ann in enumerate((record.get("announcements") or [])[:ANNOUNCEMENT_ROWS]):
            out[f"ann-{row}-name"] = ann.get("name")
            out[f"ann-{row}-by"] = ann.get("by")
            out[f"ann-{row}-announced"] = bool(ann.get("announced"))
            if "achieved" in ann:
                out[f"ann-{row}-achieved"] = "1" if ann["achieved"] else "0"
            out[f"ann-{row}-held"] = bool(ann.get("held"))
        for row, con in enumerate((record.get("contras") or [])[:CONTRA_ROWS]):
            out[f"con-{row}-on"] = con.get("on")
            out[f"con-{row}-by"] = con.get("by")
            out[f"con-{row}-level"] = str(con.get("level", ""))
            if con.get("against"):
                out[f"con-{row}-against"] = con["against"]
        for row, pen in enumerate((record.get("penalties") or [])[:PENALTY_ROWS]):
            out[f"pen-{row}-kind"] = pen.get("kind")
            out[f"pen-{row}-player"] = pen.get("player")
        return out

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        game = self.ctx.game(data.get("game") or "")
        if game is None:
            return data
        wanted = set(game["fields"])
        record: dict[str, Any] = {"game": game["code"]}
        for key in ("declarer", "called"):
            if key in wanted and data.get(key):
                record[key] = data[key]
        if "partner" in wanted and data.get("partner"):
            record["partner"] = None if data["partner"] == ALONE else data["partner"]
        if "points" in wanted and data.get("points") is not None:
            record["points"] = data["points"]
        if "won" in wanted and data.get("won") in ("0", "1"):
            record["won"] = data["won"] == "1"
        if "conceded" in wanted and data.get("conceded"):
            record["conceded"] = True
        for name, prefix in PER_PLAYER.items():
            if name not in wanted:
                continue
            values = {pid: data.get(f"{prefix}-{pid}") for pid in self.ctx.pids}
            given = {pid: v for pid, v in values.items() if v is not None}
            if given:
                record[name] = given
        if self.ctx.uses_resting and data.get("resting"):
            record["resting"] = data["resting"]
        if data.get("forehand"):
            record["forehand"] = data["forehand"]
        anns = []
        if "announcements" in wanted:
            for row in range(ANNOUNCEMENT_ROWS):
                name = data.get(f"ann-{row}-name")
                if not name:
                    continue
                ann: dict[str, Any] = {"name": name, "announced": bool(data.get(f"ann-{row}-announced"))}
                if data.get(f"ann-{row}-by"):
                    ann["by"] = data[f"ann-{row}-by"]
                if data.get(f"ann-{row}-achieved") in ("0", "1"):
                    ann["achieved"] = data[f"ann-{row}-achieved"] == "1"
                if data.get(f"ann-{row}-held"):
                    ann["held"] = True
                self.row_of[("announcements", len(anns))] = row
                anns.append(ann)
        if anns:
            record["announcements"] = anns
        cons = []
        for row in range(CONTRA_ROWS):
            on, level = data.get(f"con-{row}-on"), data.get(f"con-{row}-level")
            if not on and not level:
                continue
            con: dict[str, Any] = {"on": on or "game"}
            if data.get(f"con-{row}-by"):
                con["by"] = data[f"con-{row}-by"]
            con["level"] = int(level) if level else 1
            if data.get(f"con-{row}-against"):
                con["against"] = data[f"con-{row}-against"]
            self.row_of[("contras", len(cons))] = row
            cons.append(con)
        if cons:
            record["contras"] = cons
        pens = []
        for row in range(PENALTY_ROWS):
            kind = data.get(f"pen-{row}-kind")
            if not kind:
                continue
            pen = {"kind": kind}
            if data.get(f"pen-{row}-player"):
                pen["player"] = data[f"pen-{row}-player"]
            self.row_of[("penalties", len(pens))] = row
            pens.append(pen)
        if pens:
            record["penalties"] = pens
        self.record = record
        return data

    # -- engine errors back to the fields ----------------------------------------------------
    def field_for(self, engine_field: str) -> str | None:
        """The form field (or field group) an engine error names, None for the whole hand."""
        name = engine_field or ""
        match = re.match(r"^(announcements|contras|penalties)\[(\d+)\](?:\.(\w+))?", name)
        if match:
            kind, idx, attr = match.group(1), int(match.group(2)), match.group(3)
            prefix, first = ROWS[kind]
            row = self.row_of.get((kind, idx))
            if row is None:
                return kind if self._has_group(kind) else None
            candidate = f"{prefix}-{row}-{attr or first}"
            return candidate if candidate in self.fields else f"{prefix}-{row}-{first}"
        match = re.match(r"^(points_by_player|tricks_by_player|blatt_by_player)(?:\.(.+))?$", name)
        if match:
            candidate = f"{PER_PLAYER[match.group(1)]}-{match.group(2)}"
            if match.group(2) and candidate in self.fields:
                return candidate
            return match.group(1) if self._has_group(match.group(1)) else None
        if name in ("announcements", "contras", "penalties"):
            return name if self._has_group(name) else None
        root = name.split(".", 1)[0]
        return root if root in self.fields else None

    def errors_by_slot(self, errors: list[dict[str, Any]], number: int) -> tuple[dict[str, list[str]], list[str]]:
        """Split contract errors of hand `number` (1-based) into per-field and general ones.
        Errors of other hands are not this form's business; errors of the card as a whole are
        general."""
        by_slot: dict[str, list[str]] = {}
        general: list[str] = []
        for error in errors:
            hand = error.get("hand")
            if hand is not None and hand != number - 1:
                # Another hand of the card is wrong (the card is scored as a whole): say which.
                general.append(str(_("Hand %(n)s: %(message)s") % {"n": hand + 1,
                                                                  "message": error_text(error)}))
                continue
            slot = self.field_for(str(error.get("field") or ""))
            if slot is None:
                general.append(error_text(error))
            else:
                by_slot.setdefault(slot, []).append(error_text(error))
        return by_slot, general

    def add_engine_errors(self, errors: list[dict[str, Any]], number: int) -> None:
        by_slot, general = self.errors_by_slot(errors, number)
        for slot, messages in by_slot.items():
            target = slot if slot in self.fields else None
            for message in messages:
                self.add_error(target, message)
        for message in general:
            self.add_error(None, message)


def card_for_engine(*, code: str, mode: str, options: dict[str, Any], players: list[str],
                    records: list[dict[str, Any]]) -> dict[str, Any]:
    card: dict[str, Any] = {"ruleset": code, "players": list(players), "hands": records}
    if mode:
        card["mode"] = mode
    if options:
        card["options"] = options
    return card


def hand_feedback(form: HandForm, *, code: str, mode: str, options: dict[str, Any],
                  records: list[dict[str, Any]], number: int) -> dict[str, Any]:
    """Check the hand being typed against the engine, in the card as it stands: the hand
    replaces hand `number` (or is appended), and the whole card is evaluated because radelci
    and other state carry from hand to hand. Only what concerns this hand is returned:
    errors at the fields, or the scores it would give."""
    records = list(records)
    if number <= len(records):
        records[number - 1] = form.record
    else:
        records.append(form.record)
    try:
        result = scoring.evaluate(card_for_engine(code=code, mode=mode, options=options,
                                                  players=form.ctx.pids, records=records))
    except scoring.ScorecardInvalid as exc:
        by_slot, general = form.errors_by_slot(exc.errors, number)
        return {"ok": False, "by_slot": by_slot, "general": general, "scores": None}
    scored = result["hands"][number - 1]
    return {"ok": True, "by_slot": {}, "general": [], "scores": scored.get("scores", {}),
            "lines": scored.get("lines", []), "state": scored.get("state", {}), "ruleset": code}

