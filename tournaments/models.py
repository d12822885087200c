"""The tournament domain: players, events, registrations, rounds, tables, seats, scorecards,
hands, money sheets, penalties, disputes, standings adjustments, background jobs, the audit
trail, and the day's calls for the referee and notices to the hall.

Identity rules (one start number per event, one round per number, one seat per player per
round, ...) are database constraints, so they hold whatever writes them. Writes go through
`tournaments.services`; reads through `tournaments.selectors`.

Why one module of over 1,000 lines: an app's models are read together by Django (migrations, the
admin, relations by name), and the file is field declarations with their constraints and
choices, no logic; the rules about them live in lifecycle, rights and the services.
"""

from __future__ import annotations

import functools
import zoneinfo
from fractions import Fraction

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_countries import countries

from tournaments.domain import search
from tournaments.domain.exact_points import ExactPointsField, parse_points, points_text
from tournaments.domain.limits import MAX_HANDS_PER_ROUND, multi_line_text, one_line_text
from tournaments.domain.rulesets import ruleset_config_errors


@functools.cache
def _time_zones() -> frozenset[str]:
    # Read from the system's time zone files at each call (25 ms, seen in a venue push's
    # profile): once per process.
    return frozenset(zoneinfo.available_timezones())


def validate_time_zone(value: str) -> None:
    if value not in _time_zones():
        raise ValidationError(_("%(tz)s is not a known time zone"), params={"tz": value})


def validate_round_numbers(value: object) -> None:
    """A registration's absences: a list of distinct round numbers from 1."""
    if (not isinstance(value, list)
            or any(not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 32_767
                   for n in value)
            or len(set(value)) != len(value)):
        raise ValidationError(_("Give the rounds as a list of distinct round numbers."),
                              code="invalid_rounds")


def validate_country(value: str) -> None:
    """A country is the two-letter ISO 3166 code of a real country (SI, AT, CZ, ...)."""
    if value and value not in countries:
        raise ValidationError(_("%(code)s is not a country code (ISO 3166, two letters such as "
                                "SI, AT or CZ)"), params={"code": value}, code="invalid_country")


class SeatingSystem(models.TextChoices):
    RANDOM = "random", _("Random draw (avoid repeat meetings)")
    POINTS = "points", _("Points system")
    KNOCKOUT = "knockout", _("Knock-out")
    LEAGUE = "league", _("League schedule")
    FIXED = "fixed", _("Organiser's own list")


class Player(models.Model):
    """A person in the global registry; the same player plays many events, leagues and cups."""

    first_name = models.CharField(_("first name"), max_length=100, validators=[one_line_text])
    last_name = models.CharField(_("last name"), max_length=100, validators=[one_line_text])
    club = models.CharField(_("club"), max_length=200, blank=True, validators=[one_line_text])
    country = models.CharField(_("country"), max_length=2, blank=True, help_text="ISO 3166 code",
                               validators=[validate_country])
    federation_id = models.CharField(_("federation id"), max_length=50, blank=True,
                                     validators=[one_line_text])
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="player",
    )
    # Issue #19, privacy: the player (or an organiser on his behalf) may hide his career page,
    # his events, leagues, ratings and statistics, from visitors (tournaments.domain.rights.can_view_career).
    # His name stays in the standings of the events he played: those are the events' results.
    career_hidden = models.BooleanField(_("career page hidden"), default=False)
    # Who entered the record into the registry (issue #29): a record that plays in no event
    # yet is his to see and correct (tournaments.domain.rights.can_edit_player).
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+", editable=False,
    )
    # The name and the club as searches compare them (tournaments.domain.search.fold): derived, kept
    # by save() whatever writes the names, and never written by anyone else.
    search_name = models.CharField(max_length=search.SEARCH_NAME_LENGTH, blank=True,
                                   editable=False)
    search_club = models.CharField(max_length=search.SEARCH_CLUB_LENGTH, blank=True,
                                   editable=False)
    # Creation times default to now rather than auto_now_add, which overwrites any value given:
    # an archive's import inserts rows with their archived times in one bulk insert.
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["last_name", "first_name", "id"]
        # The registry's managers correct and merge any record (tournaments.domain.rights); staff
        # are managers without it, and a manager grants it on /manage/players/managers/.
        permissions = [("manage_registry", "Can correct and merge every record of the player registry")]
        constraints = [
            models.UniqueConstraint(
                fields=["federation_id"], condition=~Q(federation_id=""),
                name="player_federation_id_unique",
            ),
            models.CheckConstraint(
                condition=~Q(first_name="") | ~Q(last_name=""), name="player_has_a_name"
            ),
        ]
        indexes = [
            models.Index(fields=["last_name", "first_name"]),
            # Serves the look-up of the same player by name and club (and by name alone).
            models.Index(fields=["search_name", "search_club"], name="player_search_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    def save(self, *args, **kwargs) -> None:
        self.fill_search_columns()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and {"first_name", "last_name", "club"} & set(update_fields):
            kwargs["update_fields"] = {*update_fields, "search_name", "search_club"}
        super().save(*args, **kwargs)

    @property
    def short_name(self) -> str:
        """"Oblak R.": where a screen across the hall has room for little (the projector)."""
        if not self.last_name or not self.first_name:
            return str(self)
        return f"{self.last_name} {self.first_name[:1]}."

    def fill_search_columns(self) -> None:
        self.search_name, self.search_club = search.player_key(self.first_name, self.last_name,
                                                               self.club)

    @property
    def full_name(self) -> str:
        return str(self)

    @property
    def country_name(self) -> str:
        """The country's name in the page's language (people see words, not codes)."""
        return str(countries.name(self.country)) if self.country else ""


class Event(models.Model):
    """A tournament day or a league matchday, played under one ruleset and seating system."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class Language(models.TextChoices):
        EN = "en", "English"
        SL = "sl", "Slovenščina"
        CS = "cs", "Čeština"
        DE = "de", "Deutsch"

    name = models.CharField(_("name"), max_length=200, validators=[one_line_text])
    slug = models.SlugField(_("slug"), max_length=100, unique=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True, validators=[one_line_text])
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"))
    time_zone = models.CharField(
        _("time zone"), max_length=64, default="Europe/Ljubljana", validators=[validate_time_zone]
    )
    language = models.CharField(
        _("language of printed sheets"), max_length=5, choices=Language.choices,
        default=Language.EN,
    )
    ruleset_code = models.CharField(_("ruleset"), max_length=64)
    ruleset_mode = models.CharField(_("mode"), max_length=16, blank=True)
    ruleset_options = models.JSONField(_("ruleset options"), default=dict, blank=True)
    seating_system = models.CharField(
        _("seating system"), max_length=16, choices=SeatingSystem.choices,
        default=SeatingSystem.RANDOM,
    )
    # Options of the seating system, e.g. the points system's extra points for the difference.
    seating_options = models.JSONField(_("seating options"), default=dict, blank=True)
    planned_rounds = models.PositiveSmallIntegerField(_("planned rounds"), default=3)
    # Bounded: a sheet is printed with a line per hand (tournaments.domain.limits).
    hands_per_round = models.PositiveSmallIntegerField(
        _("hands per round"), default=24, validators=[MaxValueValidator(MAX_HANDS_PER_ROUND)])
    round_duration_minutes = models.PositiveSmallIntegerField(
        _("round duration (minutes)"), null=True, blank=True
    )
    table_size = models.PositiveSmallIntegerField(_("table size"), default=4)
    min_table_size = models.PositiveSmallIntegerField(_("smallest table"), default=3)
    stake_haler = models.PositiveIntegerField(
        _("stake (haléř)"), null=True, blank=True,
        help_text=_("Money rulesets only: each player's stake per round, 2000 = 20 Kč."),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.DRAFT
    )
    is_public = models.BooleanField(_("public"), default=True)
    # Whether the event's confirmed tables count in the players' ratings across events (the
    # rankings app); only public events are ever rated, whatever this says.
    rated = models.BooleanField(
        _("rated"), default=True,
        help_text=_("Its confirmed tables count in the players' ratings and ranking lists "
                    "(public events only)."))

    class CardConfirmation(models.TextChoices):
        TABLE = "table", _("A second player of the table (through the table link)")
        OFFICIAL = "official", _("An official alone, after comparing with the signed paper sheet")

    card_confirmation = models.CharField(
        _("who confirms a card"), max_length=16, choices=CardConfirmation.choices,
        default=CardConfirmation.TABLE,
        help_text=_("For a small club event an organiser may confirm a card he entered himself, "
                    "once he has compared it with the paper sheet the table signed."),
    )
    # A card is confirmed by a second person, and through the table link that means a second
    # phone (tournaments.domain.rights): the seat chosen on a phone is only what its holder says.
    # Where tables play with one phone, the organiser allows the confirmation on the phone
    # that submitted the card; such cards are marked for the officials.
    one_phone_per_table = models.BooleanField(
        _("one phone per table"), default=False,
        help_text=_("A card may then be confirmed on the phone that submitted it. Such cards are "
                    "marked for the referees and listed first for their check."))
    # Each kind of message can be turned off per event (issue #31); a player gets one only
    # when he asked for it on his personal page, and only where the server has a mail server.
    round_messages = models.BooleanField(
        _("e-mail each player who asks for it his table when a round is published"), default=True)
    correction_messages = models.BooleanField(
        _("e-mail the players who ask for it when a referee corrects a card they played"),
        default=True)
    # Online entry (issue #31): off by default; the rule of when it takes entries is
    # tournaments.domain.lifecycle.online_entry_state, who may enter is rights.
    online_entry = models.BooleanField(
        _("take entries online"), default=False,
        help_text=_("The event page then shows “Enter this event” to anyone; no account is needed."))
    entry_deadline = models.DateTimeField(
        _("entries close at"), null=True, blank=True,
        help_text=_("Empty: until the first round is drawn."))
    entry_cap = models.PositiveIntegerField(
        _("places"), null=True, blank=True,
        help_text=_("The most players the event takes; further entries wait on a list and move "
                    "up, in their order, when a place becomes free. Empty: no limit."))
    entry_approval = models.BooleanField(
        _("the organiser approves each entry"), default=True,
        help_text=_("Otherwise an entry whose e-mail address is confirmed takes a place at once. "
                    "Without a mail server every entry waits for approval."))
    entry_federation_id = models.BooleanField(
        _("an entry must give a federation id"), default=False)
    entry_messages = models.BooleanField(
        _("e-mail the entrants when their entry is received, accepted or moves up"), default=True)
    players_may_withdraw = models.BooleanField(
        _("players may withdraw on their personal page"), default=False,
        help_text=_("Before the first round: the place goes to the first of the waiting list."))
    class SeatingPool(models.TextChoices):
        ACTIVE = "active", _("Every registration that has not withdrawn")
        CHECKED_IN = "checked_in", _("Only the players checked in (and late entries)")

    seating_pool = models.CharField(
        _("who is seated"), max_length=16, choices=SeatingPool.choices,
        default=SeatingPool.ACTIVE,
        help_text=_("With check-in, players who have not checked in sit out the next round; "
                    "the event page lists them before the round is seated."),
    )
    # Bumped with every audited change of the event (results, seating, registrations...):
    # the public pages' cache keys include it, so a change is visible at once.
    results_version = models.PositiveIntegerField(default=1, editable=False)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organised_events", blank=True
    )
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="refereed_events", blank=True
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-starts_on", "name"]
        constraints = [
            models.CheckConstraint(condition=Q(ends_on__gte=F("starts_on")), name="event_dates_ordered"),
            models.CheckConstraint(
                condition=Q(table_size__gte=2) & Q(table_size__lte=5), name="event_table_size_2_to_5"
            ),
            models.CheckConstraint(
                condition=Q(min_table_size__gte=1) & Q(min_table_size__lte=F("table_size")),
                name="event_min_table_size_valid",
            ),
            models.CheckConstraint(condition=Q(hands_per_round__gte=1), name="event_hands_positive"),
            models.CheckConstraint(condition=Q(planned_rounds__gte=1), name="event_rounds_positive"),
        ]
        indexes = [
            models.Index(fields=["is_public", "-starts_on"]),
            models.Index(fields=["status"]),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        problems = ruleset_config_errors(self.ruleset_code, self.ruleset_mode, self.ruleset_options)
        if problems:
            raise ValidationError(problems)

    @property
    def tz(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.time_zone)


class Registration(models.Model):
    """A player's entry in one event, with what the event's format carries for him."""

    class Status(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        CHECKED_IN = "checked_in", _("Checked in")
        LATE_ENTRY = "late_entry", _("Late entry")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    start_number = models.PositiveIntegerField(_("start number"))
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.REGISTERED
    )
    # Carried by the format: points system table points (exact: thirds stay thirds), and game
    # score. A copy of what the standings compute from the cards, kept for the archive.
    tournament_points = ExactPointsField(_("tournament points"), default=Fraction)
    score = models.IntegerField(_("score"), default=0)
    # The rounds the player misses while staying in the event (seed 000 §4.1 b: "eni odidejo
    # predčasno, eni pridejo naknadno"): he sits them out, and the next round seats him after
    # those who played ("nato ... tisti, ki v zadnjem krogu niso tekmovali"). The rule is
    # tournaments.domain.lifecycle.sits_out_reason.
    absent_rounds = models.JSONField(_("absent in rounds"), default=list, blank=True,
                                     validators=[validate_round_numbers])
    registered_at = models.DateTimeField(default=timezone.now, editable=False)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    # The player's own choice on his personal page: an address for the messages he asked for,
    # never shown on a public page, CSV, PDF or in the archive, and the language he chose it
    # in (the messages are written in it).
    email = models.EmailField(_("e-mail address"), blank=True)
    round_messages = models.BooleanField(_("e-mail me my table when a round is published"),
                                         default=False)
    correction_messages = models.BooleanField(
        _("e-mail me when a referee corrects a card I played"), default=False)
    message_language = models.CharField(_("language of the messages"), max_length=8, blank=True,
                                        choices=settings.LANGUAGES)

    class Meta:
        ordering = ["event", "start_number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "start_number"], name="registration_start_number_unique"),
            models.UniqueConstraint(fields=["event", "player"], name="registration_player_once_per_event"),
            models.CheckConstraint(condition=Q(start_number__gte=1), name="registration_start_number_positive"),
        ]
        indexes = [models.Index(fields=["event", "status"])]

    def __str__(self) -> str:
        return f"{self.start_number}. {self.player}"

    @property
    def is_active(self) -> bool:
        return self.status != self.Status.WITHDRAWN


class Round(models.Model):
    """A round of an event. Its (event, number) identity is what makes generation idempotent:
    a retried or doubled generation finds the round already there and changes nothing."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published")
        PLAYING = "playing", _("Playing")
        CLOSED = "closed", _("Closed")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.DRAFT)
    seating_system = models.CharField(_("seating system"), max_length=16, choices=SeatingSystem.choices)
    seed = models.BigIntegerField(_("seed"))
    # Fingerprint of the seating request the round was generated from; a generation with the
    # same key is a retry and returns the stored round.
    generation_key = models.CharField(max_length=64, blank=True)
    # Bumped on every change of the seating, so cached printouts know they are stale.
    seating_version = models.PositiveIntegerField(default=1)
    # Bumped when a card of the round changes state without changing the standings (a table
    # hands in its card, or changes it again): the round's public page shows the cards'
    # states and is cached by this (tournaments.runtime.page_cache).
    cards_version = models.PositiveIntegerField(default=1, editable=False)
    repeat_pairs = models.PositiveIntegerField(default=0)
    notes = models.JSONField(default=list, blank=True)
    byes = models.JSONField(default=list, blank=True)
    eliminated = models.JSONField(default=list, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    clock_started_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="round_number_unique_in_event"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.event} – round {self.number}"


class Table(models.Model):
    """A table of a round. `section` groups tables inside a round (a league division)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table number"))
    section = models.CharField(_("section"), max_length=50, blank=True, validators=[one_line_text])

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique_in_round"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.round} – table {self.number}"


class Seat(models.Model):
    """A registration's place at a table. `round` repeats the table's round so the database
    itself can refuse a second seat for the same player in one round."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    registration = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField(_("seat position"))

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "registration"], name="seat_once_per_round"),
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique_at_table"),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.position}: {self.registration}"


class IssuedLink(models.Model):
    """What a link opened with no account has: its unguessable token, who issued it when, and
    when it was revoked. An object has one live link at a time; revoking it keeps the old row
    with its `revoked_at` and issues a new one."""

    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True


class TableLink(IssuedLink):
    """A table's link for the players' phones: an unguessable token (the QR code of the printed
    sheet) and a short code to type, both leading to the table's own page with no account.

    Revoking it (a lost sheet) issues a new one, so a reprinted sheet carries the new token.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="links")
    code = models.CharField(max_length=16)

    class Meta:
        ordering = ["table", "-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["table"], condition=Q(revoked_at__isnull=True),
                                    name="table_link_one_live_per_table"),
            models.UniqueConstraint(fields=["code"], condition=Q(revoked_at__isnull=True),
                                    name="table_link_code_unique_while_live"),
        ]

    def __str__(self) -> str:
        return f"link of {self.table}"


class PlayerLink(IssuedLink):
    """A player's personal link for one event: an unguessable token that opens his own page
    (his table and seat in the round being played, his rounds and his place) with no account.

    Reissuing it (a link seen by the wrong people) issues a new one, as a table's link does.
    """

    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="links")

    class Meta:
        ordering = ["registration", "-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["registration"], condition=Q(revoked_at__isnull=True),
                                    name="player_link_one_live_per_registration"),
        ]

    def __str__(self) -> str:
        return f"personal link of {self.registration}"


class Entry(models.Model):
    """An entry made online by the player himself (issue #31), before it is a registration:
    what he typed, his address and its confirmation, the registry's player it was matched to,
    and where it stands (waiting for the address to be confirmed, for the organiser, on the
    waiting list, or with a place: then `registration` is his). The rules of its states are
    tournaments.services.entries; the address is never shown (docs/entries.md)."""

    class Status(models.TextChoices):
        UNCONFIRMED = "unconfirmed", _("Waiting for the e-mail address to be confirmed")
        PENDING = "pending", _("Waiting for the organiser's approval")
        WAITING = "waiting", _("On the waiting list")
        ACCEPTED = "accepted", _("Has a place")
        REFUSED = "refused", _("Refused")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        EXPIRED = "expired", _("Not confirmed in time")

    class Match(models.TextChoices):
        NEW = "new", _("A new player")
        FEDERATION_ID = "federation_id", _("Found in the registry by the federation id")
        NAME = "name", _("Found in the registry by name and club")
        UNCERTAIN = "uncertain", _("Uncertain: the organiser decides who it is")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    first_name = models.CharField(_("first name"), max_length=100, validators=[one_line_text])
    last_name = models.CharField(_("last name"), max_length=100, validators=[one_line_text])
    club = models.CharField(_("club"), max_length=200, blank=True, validators=[one_line_text])
    country = models.CharField(_("country"), max_length=2, blank=True)
    federation_id = models.CharField(_("federation id"), max_length=50, blank=True,
                                     validators=[one_line_text])
    email = models.EmailField(_("e-mail address"), blank=True)
    language = models.CharField(_("language of the messages"), max_length=8, blank=True,
                                choices=settings.LANGUAGES)
    round_messages = models.BooleanField(_("e-mail me my table when a round is published"),
                                         default=False)
    consent = models.BooleanField(_("my name and club may be shown in the public entry list "
                                    "and results"), default=False)
    # The key of the entry's own page (its status, the confirmation of the address, withdrawing
    # while it waits); sent by e-mail, or shown at once where no mail server confirms it.
    token = models.CharField(max_length=64, unique=True)
    # Scheme and host of the server the entry was made on: the links its e-mails carry, sent
    # later by a job that has no request to ask.
    base_url = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.UNCONFIRMED)
    match = models.CharField(max_length=16, choices=Match.choices, default=Match.NEW)
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    registration = models.OneToOneField(Registration, null=True, blank=True,
                                        on_delete=models.SET_NULL, related_name="entry")
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    confirm_by = models.DateTimeField(null=True, blank=True)
    # When the entry began to count (its address confirmed, or made without a mail server):
    # the waiting list's order.
    counted_at = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["event", "created_at", "pk"]
        verbose_name_plural = "entries"
        indexes = [models.Index(fields=["event", "status"])]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


class VenueHold(models.Model):
    """Which installation writes an event while it is run at a venue (issue #32,
    docs/venue.md). On the federation's server a `LENT` hold says the event is run on a venue's
    laptop: the server refuses every write to it but the laptop's pushes, which bring it to
    the laptop's state. On the laptop a `HELD` hold says where the event came from and goes
    back to. The rules are tournaments.venue; the hold's changes are in the audit trail."""

    class Side(models.TextChoices):
        LENT = "lent", _("Run at a venue")
        HELD = "held", _("Taken from the federation's server")

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="venue_hold")
    side = models.CharField(max_length=8, choices=Side.choices)
    # The laptop's key for its pushes: on the server its SHA-256, on the laptop itself.
    key = models.CharField(max_length=128)
    # The laptop: the server it pushes to (scheme and host); the server: who took the event.
    server_url = models.CharField(max_length=200, blank=True)
    holder = models.CharField(max_length=200, blank=True)
    # The laptop's results_version the server holds (server: the last applied; laptop: the
    # last the server acknowledged). A push of an older or equal version changes nothing.
    version = models.PositiveIntegerField(default=0)
    taken_at = models.DateTimeField(default=timezone.now)
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    last_push_at = models.DateTimeField(null=True, blank=True)
    # The laptop: why the last push did not go through ("" when it did).
    last_error = models.CharField(max_length=300, blank=True)
    # The laptop: the server took the event back (its staff, a laptop lost): pushes stop.
    revoked_at = models.DateTimeField(null=True, blank=True)
    # The event's archive at `version` (the laptop's, kept in parts: tournaments.archive.parts),
    # on both sides: what the next push's delta is made against and applied to (docs/venue.md).
    # Empty until the first push went through. Compressed already, so PostgreSQL stores it as
    # it is (migration 0024).
    state = models.BinaryField(blank=True, default=b"")

    def __str__(self) -> str:
        return f"{self.get_side_display()}: {self.event}"


class Message(models.Model):
    """One e-mail to one player, kept so that it is sent once (`key` names what it tells, e.g.
    the round and its seating version) and so that a failed send is known and tried again."""

    class Kind(models.TextChoices):
        ROUND_TABLE = "round_table", _("Your table in the new round")
        CARD_CORRECTED = "card_corrected", _("A card you played was corrected")
        ENTRY_CONFIRM = "entry_confirm", _("Confirm your e-mail address")
        ENTRY_RECEIVED = "entry_received", _("Your entry is received")
        ENTRY_ACCEPTED = "entry_accepted", _("You have a place")
        ENTRY_WAITING = "entry_waiting", _("You are on the waiting list")
        ENTRY_MOVED_UP = "entry_moved_up", _("You moved up from the waiting list")
        ENTRY_REFUSED = "entry_refused", _("Your entry was not accepted")

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting")
        SENDING = "sending", _("Being sent")
        SENT = "sent", _("Sent")
        FAILED = "failed", _("Failed")
        WITHDRAWN = "withdrawn", _("No longer asked for")

    # To a registered player, or (an entry's messages) to the address of an online entry.
    registration = models.ForeignKey(Registration, null=True, blank=True, on_delete=models.CASCADE,
                                     related_name="messages")
    entry = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="messages")
    kind = models.CharField(max_length=32, choices=Kind.choices)
    key = models.CharField(max_length=100)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["registration", "kind", "key"], name="message_once"),
            models.UniqueConstraint(fields=["entry", "kind", "key"], name="entry_message_once"),
            models.CheckConstraint(condition=Q(registration__isnull=False) | Q(entry__isnull=False),
                                   name="message_has_recipient"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.registration or self.entry}"


class Scorecard(models.Model):
    """The scorecard of one table in one round, scored under a snapshot of the ruleset.

    `version` is the optimistic lock: every write states the version it read, and a stale
    write is refused (409 in the API).
    """

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        SUBMITTED = "submitted", _("Submitted")
        CONFIRMED = "confirmed", _("Confirmed")
        VERIFIED = "verified", _("Verified")
        ANNULLED = "annulled", _("Annulled")

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="scorecard")
    ruleset_code = models.CharField(max_length=64)
    ruleset_mode = models.CharField(max_length=16, blank=True)
    ruleset_options = models.JSONField(default=dict, blank=True)
    # Player ids on the card in seat order (the registrations' start numbers as strings).
    player_ids = models.JSONField(default=list)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    version = models.PositiveIntegerField(default=1)
    totals = models.JSONField(default=dict, blank=True)
    state = models.JSONField(default=dict, blank=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    verified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Who submitted and confirmed through the table link: the start number of the seat chosen
    # on the phone (no account behind it).
    submitted_by_seat = models.PositiveIntegerField(null=True, blank=True)
    confirmed_by_seat = models.PositiveIntegerField(null=True, blank=True)
    # The phone the card was submitted on (its opaque id, as in the audit trail), and whether
    # it was also confirmed on that phone (only where the event plays one phone per table).
    submitted_by_device = models.CharField(max_length=32, blank=True)
    confirmed_on_submitting_phone = models.BooleanField(default=False)
    # An official of an event whose officials confirm alone confirmed the card he entered
    # himself, after comparing it with the paper sheet the table signed.
    confirmed_against_paper = models.BooleanField(default=False)
    annulled_reason = models.TextField(blank=True, validators=[multi_line_text])
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(version__gte=1), name="scorecard_version_positive"),
            models.CheckConstraint(
                condition=Q(confirmed_by__isnull=True) | ~Q(confirmed_by=F("submitted_by"))
                | Q(confirmed_against_paper=True),
                name="scorecard_confirmed_by_another_person",
            ),
            models.CheckConstraint(
                condition=Q(confirmed_by_seat__isnull=True) | ~Q(confirmed_by_seat=F("submitted_by_seat")),
                name="scorecard_confirmed_by_another_seat",
            ),
            models.CheckConstraint(
                condition=~Q(status="annulled") | ~Q(annulled_reason=""),
                name="scorecard_annulled_with_reason",
            ),
        ]
        indexes = [models.Index(fields=["status"])]

    def __str__(self) -> str:
        return f"scorecard of {self.table}"


class Hand(models.Model):
    """One hand of a scorecard: the record as the scorecard contract defines it, and what the
    engine computed for it (each player's score, the running totals, the breakdown)."""

    scorecard = models.ForeignKey(Scorecard, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField(_("hand number"))
    record = models.JSONField()
    value = models.IntegerField(default=0)
    scores = models.JSONField(default=dict)
    running_totals = models.JSONField(default=dict)
    state = models.JSONField(default=dict, blank=True)
    lines = models.JSONField(default=list, blank=True)
    payout = models.JSONField(null=True, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_at = models.DateTimeField(default=timezone.now, editable=False)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    # Entered and confirmed through the table link: the seat's start number.
    entered_by_seat = models.PositiveIntegerField(null=True, blank=True)
    confirmed_by_seat = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["scorecard", "number"]
        constraints = [
            models.UniqueConstraint(fields=["scorecard", "number"], name="hand_number_unique_in_card"),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_positive"),
            models.CheckConstraint(
                condition=Q(confirmed_by__isnull=True) | ~Q(confirmed_by=F("entered_by")),
                name="hand_confirmed_by_another_person",
            ),
            models.CheckConstraint(
                condition=Q(confirmed_by_seat__isnull=True) | ~Q(confirmed_by_seat=F("entered_by_seat")),
                name="hand_confirmed_by_another_seat",
            ),
        ]

    def __str__(self) -> str:
        return f"hand {self.number} of {self.scorecard}"


class MoneySheetRow(models.Model):
    """A player's line of a money sheet (money rulesets): what he bought and what he ended with,
    in haléř."""

    scorecard = models.ForeignKey(Scorecard, on_delete=models.CASCADE, related_name="money_rows")
    registration = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="+")
    bought_haler = models.PositiveIntegerField(_("money bought (haléř)"), default=0)
    money_haler = models.PositiveIntegerField(_("money (haléř)"), default=0)
    result_haler = models.IntegerField(_("result (haléř)"), default=0)

    class Meta:
        ordering = ["scorecard", "registration__start_number"]
        constraints = [
            models.UniqueConstraint(fields=["scorecard", "registration"], name="money_row_once_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.registration}: {self.money_haler} h"


class Penalty(models.Model):
    """A renons or another penalty of the ruleset, recorded by a referee on a hand or a table."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="penalties")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="penalties")
    hand = models.ForeignKey(Hand, null=True, blank=True, on_delete=models.SET_NULL, related_name="penalties")
    registration = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="penalties")
    kind = models.CharField(_("kind"), max_length=32, validators=[one_line_text])
    description = models.TextField(_("description"), blank=True, validators=[multi_line_text])
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["event", "kind"])]

    def __str__(self) -> str:
        return f"{self.kind} – {self.registration}"


class Dispute(models.Model):
    """A dispute raised about a table or a hand, decided by a referee with a written reason."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        DECIDED = "decided", _("Decided")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="disputes")
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.CASCADE, related_name="disputes")
    hand = models.ForeignKey(Hand, null=True, blank=True, on_delete=models.SET_NULL, related_name="disputes")
    raised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    raised_by_name = models.CharField(_("raised by"), max_length=200, blank=True,
                                      validators=[one_line_text])
    description = models.TextField(_("description"), validators=[multi_line_text])
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    decision = models.TextField(_("decision"), blank=True, validators=[multi_line_text])
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    correction = models.ForeignKey(
        "AuditEntry", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        help_text=_("The change that carried out the decision."),
    )
    raised_at = models.DateTimeField(default=timezone.now, editable=False)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-raised_at"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(status="decided") | (~Q(decision="") & Q(decided_at__isnull=False)),
                name="dispute_decided_with_reason",
            ),
            models.CheckConstraint(
                condition=Q(table__isnull=False) | Q(hand__isnull=True),
                name="dispute_hand_needs_table",
            ),
        ]
        indexes = [models.Index(fields=["event", "status"])]

    def __str__(self) -> str:
        return f"dispute #{self.pk} ({self.status})"


class StandingsAdjustment(models.Model):
    """An organiser's or referee's correction of a registration's standing, with its reason."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="standings_adjustments")
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="adjustments")
    points_delta = ExactPointsField(_("table points"), default=Fraction)
    score_delta = models.IntegerField(default=0)
    reason = models.TextField(validators=[multi_line_text])
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="adjustment_has_reason"),
        ]

    def __str__(self) -> str:
        points = parse_points(self.points_delta)
        sign = "+" if points >= 0 else ""
        return f"{self.registration}: {sign}{points_text(points)} points, {self.score_delta:+} score"


class Job(models.Model):
    """A background job (seating a round, rendering sheets) with its progress for the pages.

    `key` is unique: queueing the same work twice finds the existing job instead of a second.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    key = models.CharField(max_length=200, unique=True)
    kind = models.CharField(max_length=32)
    event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.CASCADE, related_name="jobs")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    message = models.TextField(blank=True)
    result = models.JSONField(default=dict, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["event", "kind", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.key} ({self.status})"


class AuditEntry(models.Model):
    """Who changed what, when and why: written by the services for every change of results,
    seating, penalties, disputes and standings."""

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor_label = models.CharField(max_length=200, blank=True)

    class Via(models.TextChoices):
        PAGES = "", _("the pages or the API")
        TABLE_LINK = "table_link", _("the table link")

    # How a change reached us: a player's phone through the table link (with the opaque id of
    # that phone) or a signed-in person's page or API call.
    via = models.CharField(max_length=16, choices=Via.choices, blank=True, default="")
    device = models.CharField(max_length=32, blank=True)
    action = models.CharField(max_length=64)
    content_type = models.ForeignKey(ContentType, on_delete=models.PROTECT)
    object_id = models.CharField(max_length=64)
    target = GenericForeignKey("content_type", "object_id")
    object_repr = models.CharField(max_length=300)
    event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.CASCADE, related_name="audit_entries")
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="audit_entries")
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True, validators=[multi_line_text])
    created_at = models.DateTimeField(default=timezone.now, editable=False, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "audit entries"
        indexes = [
            models.Index(fields=["event", "-created_at"]),
            models.Index(fields=["table", "-created_at"]),
            models.Index(fields=["content_type", "object_id"]),
        ]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor_label or 'system'}: {self.action} {self.object_repr}"


class RefereeCall(models.Model):
    """A table calling the referee from its link (issue #33): the hand and a short note the
    phone gave, which official took the call and when, and what it led to (a penalty, a
    dispute or a correction in the audit trail), so the desk's queue reads as a log too."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="referee_calls")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="referee_calls")
    hand_number = models.PositiveSmallIntegerField(
        _("hand"), null=True, blank=True, validators=[MaxValueValidator(MAX_HANDS_PER_ROUND)])
    note = models.CharField(_("note"), max_length=200, blank=True, validators=[one_line_text])
    # Who called: the seat of the phone (a table link holder has no account).
    called_by = models.CharField(max_length=200, blank=True)
    device = models.CharField(max_length=32, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    taken_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    penalty = models.ForeignKey(Penalty, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="referee_calls")
    dispute = models.ForeignKey(Dispute, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="referee_calls")
    correction = models.ForeignKey(AuditEntry, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(penalty__isnull=True) & Q(dispute__isnull=True)
                           & Q(correction__isnull=True)) | Q(resolved_at__isnull=False),
                name="referee_call_outcome_when_resolved",
            ),
        ]
        indexes = [models.Index(fields=["event", "resolved_at"])]

    def __str__(self) -> str:
        return f"referee call #{self.pk} (table {self.table_id})"

    @property
    def is_open(self) -> bool:
        return self.resolved_at is None


class Announcement(models.Model):
    """A short announcement an organiser posts for the hall (issue #33): the projector and
    every table link of the event show it until it is withdrawn."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="announcements")
    text = models.CharField(_("notice"), max_length=280, validators=[one_line_text])
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["event", "withdrawn_at"])]

    def __str__(self) -> str:
        return self.text[:60]
