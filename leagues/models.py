"""Leagues and cup series, built on events.

A league (seed 000 §4.2, seed 002 §4.2) runs seasons; a season has divisions (I., II., III.
league and a qualification group by default) whose members carry a seed position, and
matchdays (kola), each played as an Event. A cup series (seed 001) groups single tournaments
and converts each final ranking to cup points by a table the organiser completes.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from scoring import rules
from tournaments.domain.limits import multi_line_text, one_line_text
from tournaments.models import Event, Player


def default_ruleset_code() -> str:
    """A new league plays the registry's default ruleset (the Tarok.net rules of seed 000,
    whose §4.2 the leagues follow)."""
    return rules.default().code


def default_ruleset_mode() -> str:
    """... in the mode its rulebook names for leagues (§4.2: "Tarok se igra po sistemu tri +
    1")."""
    return rules.default().league_mode or ""


class League(models.Model):
    name = models.CharField(_("name"), max_length=200, validators=[one_line_text])
    slug = models.SlugField(max_length=100, unique=True)
    description = models.TextField(blank=True, validators=[multi_line_text])
    # Defaults for new seasons; seed 000 §4.2: "Ligo praviloma igra 32 igralcev", 24 games,
    # TRI + 1 unless the organiser announces otherwise.
    division_size = models.PositiveSmallIntegerField(_("players per division"), default=32)
    movement_count = models.PositiveSmallIntegerField(
        _("players promoted and relegated"), default=10,
        help_text=_("Tarok.net rules §4.2: 10 go down from each league and 10 go up."),
    )
    ruleset_code = models.CharField(max_length=64, default=default_ruleset_code)
    ruleset_mode = models.CharField(max_length=16, default=default_ruleset_mode)
    ruleset_options = models.JSONField(default=dict, blank=True)
    hands_per_matchday = models.PositiveSmallIntegerField(default=24)
    # The language the league's stored names are composed in (its divisions, "I. liga", and
    # its matchdays' events, "3. krog"), and its matchdays' printed sheets.
    language = models.CharField(_("language of the league"), max_length=5, choices=Event.Language.choices,
                                default=Event.Language.EN)
    # Seed 000 §4.2: "Število lig določi organizator. Praviloma se igrajo tri lige (I. II. in
    # III. liga) in kvalifikacijska skupina."
    division_count = models.PositiveSmallIntegerField(
        _("number of leagues"), default=3,
        help_text=_("Leagues (I., II., III. ...) of a new season, the qualification group not counted."),
    )
    qualification_group = models.BooleanField(
        _("qualification group"), default=True,
        help_text=_("Tarok.net rules §4.2: whoever drops out of the lowest league goes to the qualification group."),
    )
    # The table form of a matchday: TRI+1 seats four (one rests each game); "three" seats three.
    table_size = models.PositiveSmallIntegerField(_("table size"), default=4)
    min_table_size = models.PositiveSmallIntegerField(_("smallest table"), default=3)
    organisers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="organised_leagues", blank=True)
    is_public = models.BooleanField(default=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=Q(division_size__gte=4), name="league_division_size_min"),
            models.CheckConstraint(condition=Q(division_count__gte=1), name="league_division_count_min"),
            models.CheckConstraint(
                condition=Q(table_size__gte=2) & Q(table_size__lte=5) & Q(min_table_size__gte=2)
                & Q(min_table_size__lte=F("table_size")),
                name="league_table_sizes_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    class Status(models.TextChoices):
        PLANNING = "planning", _("Planning")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=100, validators=[one_line_text])
    slug = models.SlugField(max_length=100)
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    planned_matchdays = models.PositiveSmallIntegerField(default=9)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PLANNING)
    previous = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="next_season"
    )
    seed = models.BigIntegerField(default=0, help_text=_("Seed of the schedule draw."))
    schedule = models.JSONField(default=dict, blank=True, help_text=_("Generated schedule per division."))
    # How the season was formed from the previous one (promotions, relegations, selection
    # criterion, applicants), kept so the season page can say where each place came from.
    formation = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["league", "-starts_on", "slug"]
        constraints = [
            models.UniqueConstraint(fields=["league", "slug"], name="season_slug_unique_in_league"),
        ]

    def __str__(self) -> str:
        return f"{self.league} {self.name}"


class Division(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="divisions")
    level = models.PositiveSmallIntegerField(help_text=_("1 for the I. league; the qualification group is last."))
    name = models.CharField(max_length=100, validators=[one_line_text])
    is_qualification = models.BooleanField(default=False)
    size = models.PositiveSmallIntegerField(default=32, help_text=_("0: no limit (the qualification group)."))
    plays_matchdays = models.BooleanField(
        default=True,
        help_text=_("The leagues play the matchdays; the qualification group normally plays a qualification tournament instead."),
    )

    class Meta:
        ordering = ["season", "level"]
        constraints = [
            models.UniqueConstraint(fields=["season", "level"], name="division_level_unique_in_season"),
            models.UniqueConstraint(
                fields=["season"], condition=Q(is_qualification=True),
                name="one_qualification_group_per_season",
            ),
            models.CheckConstraint(condition=Q(level__gte=1), name="division_level_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.season} – {self.name}"


class SeasonMembership(models.Model):
    """A player in a season's division with his seed position (seed 000 §4.2: relegated
    players take positions 1–10 of the lower league, promoted ones 23–32 of the higher)."""

    class Origin(models.TextChoices):
        STAYED = "stayed", _("Stayed")
        PROMOTED = "promoted", _("Promoted")
        RELEGATED = "relegated", _("Relegated")
        QUALIFIED = "qualified", _("Qualified")
        NEW = "new", _("New")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="memberships")
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="season_memberships")
    seed_position = models.PositiveSmallIntegerField()
    origin = models.CharField(max_length=16, choices=Origin.choices, default=Origin.NEW)
    final_rank = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["division", "seed_position"]
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="membership_once_per_season"),
            models.UniqueConstraint(fields=["division", "seed_position"], name="membership_seed_unique"),
            models.CheckConstraint(condition=Q(seed_position__gte=1), name="membership_seed_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.division}: {self.seed_position}. {self.player}"


class Matchday(models.Model):
    """A kolo of a season, played as one Event at which every division plays its tables."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="matchdays")
    number = models.PositiveSmallIntegerField()
    date = models.DateField(null=True, blank=True)
    event = models.OneToOneField(Event, on_delete=models.PROTECT, related_name="matchday")

    class Meta:
        ordering = ["season", "number"]
        constraints = [
            models.UniqueConstraint(fields=["season", "number"], name="matchday_number_unique_in_season"),
            models.CheckConstraint(condition=Q(number__gte=1), name="matchday_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.season} – kolo {self.number}"


class CupSeries(models.Model):
    """A series of single tournaments ranked by cup points (seed 001: best six results plus
    the final)."""

    name = models.CharField(max_length=200, validators=[one_line_text])
    slug = models.SlugField(max_length=100, unique=True)
    season_label = models.CharField(max_length=50, blank=True, validators=[one_line_text])
    best_results_counted = models.PositiveSmallIntegerField(default=6)
    final_counts_extra = models.BooleanField(
        default=True, help_text=_("Tarockcup rules: the final's result counts on top of the best results.")
    )
    events = models.ManyToManyField(Event, through="CupSeriesEvent", related_name="cup_series")
    organisers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="organised_cups", blank=True)
    is_public = models.BooleanField(default=True)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "cup series"
        constraints = [
            models.CheckConstraint(condition=Q(best_results_counted__gte=1), name="cup_counts_at_least_one"),
        ]

    def __str__(self) -> str:
        return self.name


class CupSeriesEvent(models.Model):
    series = models.ForeignKey(CupSeries, on_delete=models.CASCADE, related_name="series_events")
    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="+")
    order = models.PositiveSmallIntegerField(default=1)
    is_final = models.BooleanField(default=False)

    class Meta:
        ordering = ["series", "order"]
        constraints = [
            models.UniqueConstraint(fields=["series", "event"], name="cup_event_once"),
            models.UniqueConstraint(fields=["series"], condition=Q(is_final=True), name="cup_one_final"),
        ]

    def __str__(self) -> str:
        return f"{self.series}: {self.event}{' (final)' if self.is_final else ''}"


class CupPoints(models.Model):
    """One row of a series' cup-points table: the points for a final place. The organiser
    completes the table; seed 001 gives only 223, 198, 180 for places 1–3 and 1 for place 50."""

    series = models.ForeignKey(CupSeries, on_delete=models.CASCADE, related_name="points_table")
    place = models.PositiveSmallIntegerField()
    points = models.PositiveIntegerField()

    class Meta:
        ordering = ["series", "place"]
        verbose_name_plural = "cup points"
        constraints = [
            models.UniqueConstraint(fields=["series", "place"], name="cup_points_place_unique"),
            models.CheckConstraint(condition=Q(place__gte=1), name="cup_points_place_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.place}. → {self.points}"
