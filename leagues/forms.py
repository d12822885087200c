"""The forms of the league and cup organiser pages: they parse what the organiser typed into
the values the services in leagues.services take; the services validate and refuse, and
their refusals come back at the form's fields (tournaments.forms.add_service_errors)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from leagues import presets as league_presets
from leagues.models import CupSeries, League
from tournaments.domain import limits
from tournaments.domain.web_address import address_part
from tournaments.forms import EventForm
from tournaments.models import Event


def page_language() -> str:
    """The page's language if a league can have it, else English."""
    code = (get_language() or "en")[:2]
    return code if code in Event.Language.values else Event.Language.EN


class LeagueForm(EventForm):
    """A league: its name, its ruleset (code, mode and options, chosen as for an event: the
    same fields and the same htmx refresh of the mode and options) and the defaults of its
    seasons (seed 000 §4.2: leagues of 32, 10 up and 10 down, a qualification group, 24 games
    per matchday)."""

    # The event's fields a league does not have.
    NOT_A_LEAGUE = ("venue", "starts_on", "ends_on", "time_zone", "seating_system",
                    "planned_rounds", "hands_per_round", "round_duration_minutes", "stake_kc",
                    "status", "card_confirmation", "one_phone_per_table", "seating_pool")

    description = forms.CharField(label=_("Description"), required=False,
                                  max_length=5000,
                                  widget=forms.Textarea(attrs={"rows": 3}))
    division_count = forms.IntegerField(label=_("Number of leagues"), min_value=1, max_value=10, initial=3,
                                        help_text=League._meta.get_field("division_count").help_text)
    division_size = forms.IntegerField(label=_("Players per league"), min_value=4, max_value=200, initial=32)
    movement_count = forms.IntegerField(label=_("Players promoted and relegated"), min_value=0, max_value=100,
                                        initial=10, help_text=League._meta.get_field("movement_count").help_text)
    qualification_group = forms.BooleanField(label=_("Qualification group after the leagues"), required=False,
                                             initial=True,
                                             help_text=League._meta.get_field("qualification_group").help_text)
    hands_per_matchday = forms.IntegerField(label=_("Games per matchday"), min_value=1,
                                            max_value=limits.MAX_HANDS_PER_ROUND, initial=24)

    preset_url_name = "manage-league-create"

    @property
    def presets(self) -> list[Any]:
        """The leagues the chosen ruleset's rulebook describes (leagues.presets)."""
        return league_presets.for_ruleset(self._chosen_code())

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in self.NOT_A_LEAGUE:
            self.fields.pop(name, None)
        self.fields["slug"].help_text = _("Part of the league's address; made from the name when left empty.")
        self.fields["is_public"].label = _("Public (listed, standings visible to everybody)")
        # Optional for forms posted without it (the API and older clients): a new league then
        # takes the page's language, a changed one keeps its own.
        self.fields["language"].required = False
        self.fields["language"].initial = page_language()
        self.fields["language"].label = _("Language of the league")
        self.fields["language"].help_text = _(
            "The names of new divisions and matchdays are written in it, and the matchdays' printed sheets.")

    def service_fields(self) -> dict[str, Any]:
        d = self.cleaned_data
        return {
            "name": d["name"], "slug": d["slug"], "description": d.get("description", ""),
            "ruleset_code": d["ruleset_code"], "ruleset_mode": d.get("ruleset_mode") or "",
            "ruleset_options": d["ruleset_options"], "division_count": d["division_count"],
            "division_size": d["division_size"], "movement_count": d["movement_count"],
            "qualification_group": d.get("qualification_group", False),
            "hands_per_matchday": d["hands_per_matchday"], "table_size": d["table_size"],
            "min_table_size": d["min_table_size"], "is_public": d.get("is_public", False),
            **({"language": d["language"]} if d.get("language") else {}),
        }

    @classmethod
    def initial_from(cls, league: League) -> dict[str, Any]:  # type: ignore[override]
        return {name: getattr(league, name) for name in (
            "name", "slug", "description", "ruleset_code", "ruleset_mode", "ruleset_options",
            "division_count", "division_size", "movement_count", "qualification_group",
            "hands_per_matchday", "table_size", "min_table_size", "is_public", "language")}


class SeasonForm(forms.Form):
    """A new season: its name, dates and matchdays, and its divisions (by default the
    league's: its number of leagues of its size, and its qualification group)."""

    name = forms.CharField(label=_("Name"), max_length=100)
    slug = forms.SlugField(label=_("Web address"), max_length=100, required=False,
                           help_text=_("Part of the season's address; made from the name when left empty."))
    starts_on = forms.DateField(label=_("First day"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(label=_("Last day"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    planned_matchdays = forms.IntegerField(label=_("Matchdays"), min_value=1, max_value=60, initial=9)
    division_count = forms.IntegerField(label=_("Number of leagues"), min_value=1, max_value=10)
    division_size = forms.IntegerField(label=_("Players per league"), min_value=4, max_value=200)
    qualification_group = forms.BooleanField(label=_("Qualification group after the leagues"), required=False)
    qualification_plays = forms.BooleanField(
        label=_("The qualification group plays the matchdays too"), required=False,
        help_text=_("Normally it plays a qualification tournament instead."))

    SERVICE_FIELD_MAP = {"divisions": "division_size"}

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("slug") and data.get("name"):
            data["slug"] = address_part(data["name"])
        return data

    def divisions(self) -> list[dict[str, Any]]:
        d = self.cleaned_data
        specs: list[dict[str, Any]] = [{"size": d["division_size"]} for _n in range(d["division_count"])]
        if d.get("qualification_group"):
            specs.append({"is_qualification": True, "size": 0,
                          "plays_matchdays": bool(d.get("qualification_plays"))})
        return specs


class SeasonEditForm(forms.Form):
    """A season's name, dates and number of matchdays, changed after it was created (its
    address and divisions stay)."""

    name = forms.CharField(label=_("Name"), max_length=100)
    starts_on = forms.DateField(label=_("First day"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(label=_("Last day"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    planned_matchdays = forms.IntegerField(label=_("Matchdays"), min_value=1, max_value=60)

    FIELDS = ("name", "starts_on", "ends_on", "planned_matchdays")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("starts_on") and data.get("ends_on") and data["ends_on"] < data["starts_on"]:
            self.add_error("ends_on", _("The last day is before the first."))
        return data


class MemberAddForm(forms.Form):
    player = forms.IntegerField(widget=forms.HiddenInput)
    division = forms.IntegerField(label=_("Division"))
    seed_position = forms.IntegerField(label=_("Seed position"), min_value=1, max_value=1000, required=False)


class MemberMoveForm(forms.Form):
    division = forms.IntegerField(label=_("Division"))
    seed_position = forms.IntegerField(label=_("Seed position"), min_value=1, max_value=1000)


class ScheduleSwapForm(forms.Form):
    division = forms.IntegerField(label=_("Division"))
    matchday = forms.IntegerField(label=_("Matchday"), min_value=1, max_value=60)
    first = forms.IntegerField(label=_("First player"))
    second = forms.IntegerField(label=_("Second player"))
    reason = forms.CharField(label=_("Reason"), max_length=500, required=False)


class MatchdayForm(forms.Form):
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)


class NextSeasonForm(forms.Form):
    """The next season's name and dates, and what the rules of seed 000 §4.2 leave to the
    organiser: who leaves, who applies, the selection criterion and the qualification."""

    name = forms.CharField(label=_("Name of the next season"), max_length=100)
    slug = forms.SlugField(label=_("Web address"), max_length=100, required=False)
    starts_on = forms.DateField(label=_("First day"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(label=_("Last day"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    planned_matchdays = forms.IntegerField(label=_("Matchdays"), min_value=1, max_value=60, required=False)
    leaving = forms.TypedMultipleChoiceField(label=_("Leaving the league"), coerce=int, required=False,
                                             widget=forms.CheckboxSelectMultiple)
    applicants = forms.TypedMultipleChoiceField(label=_("Applicants"), coerce=int, required=False,
                                                widget=forms.CheckboxSelectMultiple)
    criterion = forms.ChoiceField(label=_("Selection criterion"), required=False)
    criterion_event = forms.CharField(label=_("Tournament of the criterion (web address)"), max_length=100,
                                      required=False)
    qualification_event = forms.CharField(label=_("Qualification tournament (web address)"), max_length=100,
                                          required=False)

    def __init__(self, *args: Any, members: list[tuple[int, str]], applicants: list[tuple[int, str]],
                 criteria: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["leaving"].choices = members
        self.fields["applicants"].choices = applicants
        self.fields["criterion"].choices = [("", _("none (fewer applicants than places)")), *criteria]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("slug") and data.get("name"):
            data["slug"] = address_part(data["name"])
        return data


class CupForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    slug = forms.SlugField(label=_("Web address"), max_length=100, required=False,
                           help_text=_("Part of the cup's address; made from the name when left empty."))
    season_label = forms.CharField(label=_("Season"), max_length=50, required=False)
    best_results_counted = forms.IntegerField(label=_("Best results counted"), min_value=1, max_value=100,
                                              initial=6, help_text=_("Tarockcup rules: the six best results."))
    final_counts_extra = forms.BooleanField(
        label=_("The final counts on top of the best results"), required=False, initial=True,
        help_text=CupSeries._meta.get_field("final_counts_extra").help_text)
    is_public = forms.BooleanField(label=_("Public (listed, ranking visible to everybody)"), required=False,
                                   initial=True)
    seed_points = forms.BooleanField(
        label=_("Start from the points table of the Steirischer Tarockcup's rules"), required=False, initial=True,
        help_text=_("Only the places the rules name are filled (1st–3rd and 50th); you complete the rest."))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("slug") and data.get("name"):
            data["slug"] = address_part(data["name"])
        return data

    def service_fields(self) -> dict[str, Any]:
        d = self.cleaned_data
        return {"name": d["name"], "slug": d["slug"], "season_label": d.get("season_label", ""),
                "best_results_counted": d["best_results_counted"],
                "final_counts_extra": d.get("final_counts_extra", False), "is_public": d.get("is_public", False)}


class CupPointsForm(forms.Form):
    """The points table as lines of "place points" (e.g. "4 165"), one place a line."""

    table = forms.CharField(label=_("Points per place"), required=False, max_length=20000,
                            widget=forms.Textarea(attrs={"rows": 12}),
                            help_text=_('One place a line: the place, a space, its points (e.g. "4 165").'))
    reason = forms.CharField(label=_("Reason"), max_length=500, required=False)

    def clean_table(self) -> dict[str, int]:
        table: dict[str, int] = {}
        for number, line in enumerate(self.cleaned_data["table"].splitlines(), start=1):
            words = line.replace(".", " ").replace(":", " ").split()
            if not words:
                continue
            place = limits.whole_number(words[0], high=limits.SMALL_MAX)
            points = limits.whole_number(words[-1])
            if len(words) != 2 or place is None or points is None:
                raise forms.ValidationError(
                    _('Line %(n)s: write the place and its points, e.g. "4 165".') % {"n": number})
            if str(place) in table:
                raise forms.ValidationError(_("Line %(n)s: place %(p)s twice.") % {"n": number, "p": place})
            table[str(place)] = points
        return table

    @staticmethod
    def text_of(table: dict[int, int]) -> str:
        return "\n".join(f"{place} {points}" for place, points in sorted(table.items()))


class CupEventForm(forms.Form):
    event = forms.ChoiceField(label=_("Tournament"))
    is_final = forms.BooleanField(label=_("This is the final"), required=False)

    def __init__(self, *args: Any, events: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["event"].choices = events
