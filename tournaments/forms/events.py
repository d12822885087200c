"""The event form: the ruleset, its mode and options offered from the registry's description,
the seating system and its options, the day's numbers, and the presets that fill it."""

from __future__ import annotations

import zoneinfo
from decimal import Decimal
from typing import Any
from urllib.parse import urlsplit

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from tournaments.domain import limits
from tournaments.domain.presets import for_ruleset
from tournaments.domain.web_address import address_part
from tournaments.forms.common import kc_to_haler, ruleset_choices, ruleset_description
from tournaments.models import Event, SeatingSystem
from tournaments.text import ruleset_text


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
    # No ruleset is chosen for the organiser: the first one alphabetically (the Czech money
    # rules) was a default nobody meant (issue #33). A preset chooses one.
    ruleset_code = forms.ChoiceField(
        label=_("Ruleset"),
        error_messages={"required": _("Choose the rules the games are played by.")})
    ruleset_mode = forms.ChoiceField(label=_("Mode"), required=False)
    seating_system = forms.ChoiceField(label=_("Seating system"), choices=SeatingSystem.choices)
    planned_rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=50, initial=3)
    hands_per_round = forms.IntegerField(label=_("Hands per round"), min_value=1,
                                         max_value=limits.MAX_HANDS_PER_ROUND,
                                         initial=24)
    round_duration_minutes = forms.IntegerField(
        label=_("Round duration (minutes)"), min_value=1, max_value=600, required=False,
        help_text=_("The round clock counts it down; empty: no round clock."))
    table_size = forms.IntegerField(label=_("Players at a table"), min_value=2, max_value=5, initial=4)
    min_table_size = forms.IntegerField(
        label=_("Smallest table"), min_value=1, max_value=5, initial=3,
        help_text=_("1 seats a lone player at the last table in the points system (Tarok.net "
                    "rules §4.1 b: 41 players are ten fours and one lone player)."))
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
    one_phone_per_table = forms.BooleanField(
        label=_("One phone per table (a card may be confirmed on the phone that submitted it)"),
        required=False, initial=False,
        help_text=Event._meta.get_field("one_phone_per_table").help_text)
    round_messages = forms.BooleanField(
        label=_("E-mail each player who asks for it his table when a round is published"),
        required=False, initial=True)
    correction_messages = forms.BooleanField(
        label=_("E-mail the players who ask for it when a referee corrects a card they played"),
        required=False, initial=True)
    online_entry = forms.BooleanField(
        label=_("Take entries online"), required=False, initial=False,
        help_text=Event._meta.get_field("online_entry").help_text)
    entry_deadline = forms.DateTimeField(
        label=_("Entries close at"), required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("In the event's time zone. Empty: until the first round is drawn."))
    entry_cap = forms.IntegerField(label=_("Places"), required=False, min_value=1, max_value=100000,
                                   help_text=Event._meta.get_field("entry_cap").help_text)
    entry_approval = forms.BooleanField(
        label=_("I approve each entry"), required=False, initial=True,
        help_text=Event._meta.get_field("entry_approval").help_text)
    entry_federation_id = forms.BooleanField(label=_("An entry must give a federation id"),
                                             required=False, initial=False)
    entry_messages = forms.BooleanField(
        label=_("E-mail the entrants when their entry is received, accepted or moves up"),
        required=False, initial=True)
    players_may_withdraw = forms.BooleanField(
        label=_("Players may withdraw, or sit out the next round, on their personal page"),
        required=False, initial=False,
        help_text=Event._meta.get_field("players_may_withdraw").help_text)
    seating_pool = forms.ChoiceField(label=_("Who is seated in each round"),
                                     choices=Event.SeatingPool.choices, required=False,
                                     initial=Event.SeatingPool.ACTIVE, widget=forms.RadioSelect,
                                     help_text=Event._meta.get_field("seating_pool").help_text)

    SERVICE_FIELD_MAP = {"stake_haler": "stake_kc", "ruleset_options": "ruleset_code"}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ruleset_code"].choices = [("", _("Choose the rules…")), *ruleset_choices()]
        if not self.initial.get("language"):
            # A new event's sheets are printed in the organiser's language until he says otherwise.
            current = (get_language() or "en").split("-")[0]
            if current in Event.Language.values:
                self.fields["language"].initial = current
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
        """The ruleset the form is for: the posted one, else the initial one (an event's, a
        preset's), else none until the organiser chooses."""
        if self.is_bound:
            return self.data.get(self.add_prefix("ruleset_code"), "") or ""
        return self.initial.get("ruleset_code") or ""

    # The page a preset link opens (with ?preset=<code>).
    preset_url_name = "manage-event-create"

    @property
    def presets(self) -> list[Any]:
        """The named days of the chosen ruleset (tournaments.domain.presets), offered on a new
        event's form."""
        return for_ruleset(self._chosen_code())

    @property
    def ruleset_info(self) -> dict[str, Any] | None:
        """The chosen ruleset's description for the templates: `form.description` there is a
        field of the league form (leagues.forms.LeagueForm), which a template looks up first."""
        return self.description

    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.option_names]

    @property
    def money(self) -> bool:
        return bool(self.description and self.description.get("unit") == "haler")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("slug") and data.get("name"):
            data["slug"] = address_part(data["name"])
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
            data["stake_haler"] = kc_to_haler(data.get("stake_kc"))
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
            "one_phone_per_table": d.get("one_phone_per_table", False),
            "round_messages": d.get("round_messages", False),
            "correction_messages": d.get("correction_messages", False),
            "seating_pool": d.get("seating_pool") or Event.SeatingPool.ACTIVE,
            "online_entry": d.get("online_entry", False),
            "entry_deadline": _in_zone(d.get("entry_deadline"), d["time_zone"]),
            "entry_cap": d.get("entry_cap"), "entry_approval": d.get("entry_approval", False),
            "entry_federation_id": d.get("entry_federation_id", False),
            "entry_messages": d.get("entry_messages", False),
            "players_may_withdraw": d.get("players_may_withdraw", False),
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
            "one_phone_per_table": event.one_phone_per_table,
            "round_messages": event.round_messages,
            "correction_messages": event.correction_messages,
            "seating_pool": event.seating_pool,
            "online_entry": event.online_entry,
            "entry_deadline": (event.entry_deadline.astimezone(event.tz).replace(tzinfo=None)
                               if event.entry_deadline else None),
            "entry_cap": event.entry_cap, "entry_approval": event.entry_approval,
            "entry_federation_id": event.entry_federation_id,
            "entry_messages": event.entry_messages,
            "players_may_withdraw": event.players_may_withdraw,
        }


def _in_zone(value: Any, time_zone: str) -> Any:
    """A time typed as the event's wall clock (the form reads it in the server's zone)."""
    if value is None:
        return None
    try:
        zone = zoneinfo.ZoneInfo(time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return value  # the event's checks refuse the zone itself
    return value.replace(tzinfo=None).replace(tzinfo=zone)


class VenueTakeForm(forms.Form):
    """Taking an event from the federation's server to this laptop (docs/venue.md)."""

    server = forms.URLField(label=_("The federation's server"), max_length=200,
                            help_text=_("Its address, e.g. https://turnirji.tarok.si"),
                            assume_scheme="https")
    slug = forms.SlugField(label=_("The event's web address there"), max_length=100,
                           help_text=_("The part after /e/ in the event's address."))
    token = forms.CharField(label=_("Your API token there"), max_length=100,
                            widget=forms.PasswordInput(render_value=True),
                            help_text=_("The token of an organiser of the event on the server "
                                        "(its API gives it at /api/v1/auth/token/)."))
    holder = forms.CharField(label=_("A name for this laptop"), max_length=200, required=False,
                             help_text=_("Shown on the server while the laptop holds the event."))

    def clean_server(self) -> str:
        """Scheme and host only: the endpoints' paths are the app's own."""
        parts = urlsplit(self.cleaned_data["server"])
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment \
                or parts.path not in ("", "/") or parts.username or parts.password:
            raise forms.ValidationError(_("Give the server's address only, like https://turnirji.tarok.si"))
        return f"{parts.scheme}://{parts.netloc}"
