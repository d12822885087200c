"""Serializers of the tournaments API: the output shape of each resource, and the parsing of
each request body into the arguments of a service. They validate types and shapes only; the
rules of the domain (ruleset registry, seating, versions, who confirms) are the services'.

Why one module of some 600 lines: it is declarations (fields, help texts for the schema) with
no logic, read beside `tournaments.api.views*` resource by resource; the next resource to come
should start `serializers_<resource>.py` rather than grow it."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.domain import limits, rights
from tournaments.domain.exact_points import ExactPointsSerializerField, parse_points
from tournaments.domain.limits import INT_MAX, MAX_POINTS_ADJUSTMENT, MAX_SCORE_ADJUSTMENT
from tournaments.domain.standings import to_decimal
from tournaments.errors import TooLarge
from tournaments.models import (
    AuditEntry,
    Dispute,
    Event,
    Hand,
    Job,
    MoneySheetRow,
    Penalty,
    Player,
    Registration,
    Round,
    Scorecard,
    Seat,
    Table,
    validate_country,
)
from tournaments.runtime import jobs
from tournaments.services import EVENT_FIELDS

# ---------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------


class ApiErrorItemSerializer(serializers.Serializer):
    hand = serializers.IntegerField(allow_null=True, help_text="0-based hand index, or null")
    field = serializers.CharField(help_text="path of the refused value, e.g. rows[2].start_number")
    code = serializers.CharField(help_text="stable machine code; a scorecard's codes are listed in "
                                           "docs/contracts/scorecard.md (Error codes)")
    message = serializers.CharField(help_text="the refusal in words, in the language asked for")


class ApiErrorSerializer(serializers.Serializer):
    errors = ApiErrorItemSerializer(many=True)


# ---------------------------------------------------------------------------------------
# Events, players, registrations
# ---------------------------------------------------------------------------------------


class EventSerializer(serializers.ModelSerializer):
    class Meta:
        model = Event
        fields = ["slug", *sorted(EVENT_FIELDS - {"slug"}), "created_at", "updated_at"]
        read_only_fields = fields


class EventWriteSerializer(serializers.ModelSerializer):
    """The fields an organiser sets; the ruleset, mode and options are checked against the
    registry by the service."""

    class Meta:
        model = Event
        fields = sorted(EVENT_FIELDS)


class PlayerPublicSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "first_name", "last_name", "club", "country"]
        read_only_fields = fields


class PlayerSerializer(serializers.ModelSerializer):
    # Read in either case ("si" is SI), then held to the real ISO 3166 codes.
    country = serializers.CharField(max_length=2, required=False, allow_blank=True, default="",
                                    help_text="ISO 3166 alpha-2 code, e.g. SI, AT, CZ")

    def validate_country(self, value: str) -> str:
        code = value.strip().upper()
        try:
            validate_country(code)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(exc.messages, code="invalid_country") from exc
        return code

    class Meta:
        model = Player
        fields = ["id", "first_name", "last_name", "club", "country", "federation_id"]
        read_only_fields = ["id"]
        # The service checks the federation id's uniqueness and the name together.
        validators: list = []
        # A missing name reaches the service as blank, which refuses it at the field.
        extra_kwargs = {"first_name": {"required": False, "allow_blank": True, "default": ""},
                        "last_name": {"required": False, "allow_blank": True, "default": ""},
                        "federation_id": {"validators": []}}


@extend_schema_field(OpenApiTypes.INT)
class VisiblePlayerField(serializers.PrimaryKeyRelatedField):
    """A player's id, found among the players the caller may see (tournaments.domain.rights): one he
    may not see is answered exactly as one that does not exist."""

    def get_queryset(self):
        request = self.context.get("request")
        return Player.objects.filter(rights.visible_players_q(getattr(request, "user", None)))


class PlayerMergeSerializer(serializers.Serializer):
    duplicate = VisiblePlayerField(
        help_text="the id of the other record of the same person, merged into this player and "
                  "deleted")
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000,
                                   help_text="why (kept in the audit trail)")


class PlayerUpdateSerializer(serializers.Serializer):
    """A correction of a player's record: the fields to change, and why."""

    first_name = serializers.CharField(required=False, allow_blank=True, max_length=100)
    last_name = serializers.CharField(required=False, allow_blank=True, max_length=100)
    club = serializers.CharField(required=False, allow_blank=True, max_length=200)
    country = serializers.CharField(required=False, allow_blank=True, max_length=2,
                                    help_text="ISO 3166 alpha-2 code, e.g. SI, AT, CZ")
    federation_id = serializers.CharField(required=False, allow_blank=True, max_length=50)
    reason = serializers.CharField(max_length=2000, help_text="why the record is corrected (kept "
                                                              "in the audit trail)")

    def validate_country(self, value: str) -> str:
        code = value.strip().upper()
        try:
            validate_country(code)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(exc.messages, code="invalid_country") from exc
        return code


class RegistrationSerializer(serializers.ModelSerializer):
    player = PlayerPublicSerializer(read_only=True)
    tournament_points = serializers.SerializerMethodField(
        help_text="table points carried after the last closed round, rounded to three places "
                  "for display; compare by tournament_points_exact")
    tournament_points_exact = ExactPointsSerializerField(
        source="tournament_points", read_only=True,
        help_text='the same points exactly: a decimal ("4", "-0.5") or a fraction ("22/3")')

    class Meta:
        model = Registration
        fields = ["start_number", "status", "player", "tournament_points",
                  "tournament_points_exact", "score", "registered_at", "checked_in_at"]
        read_only_fields = fields

    def get_tournament_points(self, registration: Registration) -> str:
        return str(to_decimal(parse_points(registration.tournament_points)))


class RegistrationCreateSerializer(serializers.Serializer):
    player = VisiblePlayerField(required=False, allow_null=True,
                                help_text="an existing player's id (one you may see in the "
                                          "registry); or give new_player")
    new_player = PlayerSerializer(required=False, help_text="a player to create and register")
    start_number = serializers.IntegerField(min_value=1, max_value=INT_MAX, required=False, allow_null=True,
                                            help_text="the next free number when left out")
    status = serializers.ChoiceField(choices=Registration.Status.choices,
                                     default=Registration.Status.REGISTERED,
                                     help_text="late_entry for a player joining after round 1")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if bool(attrs.get("player")) == bool(attrs.get("new_player")):
            raise serializers.ValidationError(
                {"player": _("give either player (an id) or new_player, not both")},
                code="player_or_new_player")
        return attrs


class RegistrationStatusSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Registration.Status.choices,
                                     help_text="checked_in, late_entry, withdrawn or registered")


def _refuse_too_large(size: int, field: str) -> None:
    problem = limits.csv_too_large(size, field)
    if problem is not None:
        raise TooLarge([problem])


class RegistrationImportSerializer(serializers.Serializer):
    """The CSV of an import as text or as a file. Over CSV_IMPORT_MAX_BYTES either is refused
    by its size before it is read: 413, code `too_large`, at its field. `field` in the
    validated data names the field the CSV came in, for the service's refusals of the whole
    file (too many rows)."""

    csv = serializers.CharField(required=False, trim_whitespace=False,
                                help_text="the CSV text (JSON bodies); at most CSV_IMPORT_MAX_BYTES "
                                          "bytes (1 MiB by default) and CSV_IMPORT_MAX_ROWS rows "
                                          "(5,000)")
    file = serializers.FileField(required=False, help_text="the CSV file (multipart bodies); the "
                                                           "same limits")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        upload = attrs.get("file")
        if upload is not None:
            attrs["field"] = "file"
            # By the size the upload arrived with: a file over the limit is never read.
            _refuse_too_large(upload.size, "file")
            try:
                attrs["text"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError as exc:
                raise serializers.ValidationError(
                    {"file": _("the file must be UTF-8 text")}, code="not_utf8") from exc
        elif attrs.get("csv") is not None:
            attrs["field"] = "csv"
            _refuse_too_large(len(attrs["csv"].encode("utf-8", "surrogatepass")), "csv")
            attrs["text"] = attrs["csv"]
        else:
            raise serializers.ValidationError({"csv": _("send the CSV as csv (JSON) or file (upload)")},
                                              code="required")
        return attrs


class RegistrationImportResultSerializer(serializers.Serializer):
    imported = serializers.IntegerField()
    registrations = RegistrationSerializer(many=True)
    reused_players = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="ids of the registry's players the file named by name and club (whatever "
                  "the case and diacritics), registered rather than created again")


# ---------------------------------------------------------------------------------------
# Jobs and rounds
# ---------------------------------------------------------------------------------------


class JobSerializer(serializers.ModelSerializer):
    event = serializers.SlugRelatedField(
        slug_field="slug", read_only=True, allow_null=True,
        help_text="the event the job works on; null for a job of no one event (the ratings' rebuild)")
    message = serializers.SerializerMethodField(
        help_text="what the job says, in the request's language (its result keeps the stage's code and params)")

    def get_message(self, job: Job) -> str:
        return jobs.job_message(job)

    class Meta:
        model = Job
        fields = ["id", "key", "kind", "event", "status", "progress", "total", "message", "result",
                  "attempts", "created_at", "updated_at"]
        read_only_fields = fields


class ScorecardSummarySerializer(serializers.ModelSerializer):
    class Meta:
        model = Scorecard
        fields = ["status", "version", "totals"]
        read_only_fields = fields


class SeatSerializer(serializers.ModelSerializer):
    start_number = serializers.IntegerField(source="registration.start_number", read_only=True)
    player = PlayerPublicSerializer(source="registration.player", read_only=True)

    class Meta:
        model = Seat
        fields = ["position", "start_number", "player"]
        read_only_fields = fields


class TableSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round.number", read_only=True)
    seats = SeatSerializer(many=True, read_only=True)
    scorecard = ScorecardSummarySerializer(read_only=True)

    class Meta:
        model = Table
        fields = ["round", "number", "section", "seats", "scorecard"]
        read_only_fields = fields


class RoundSerializer(serializers.ModelSerializer):
    clock_ends_at = serializers.SerializerMethodField(
        help_text="when the round's time is up: clock start plus the event's round duration")

    class Meta:
        model = Round
        fields = ["number", "status", "seating_system", "seating_version", "repeat_pairs",
                  "published_at", "clock_started_at", "clock_ends_at", "closed_at"]
        read_only_fields = fields

    def get_clock_ends_at(self, rnd: Round) -> dt.datetime | None:
        minutes = rnd.event.round_duration_minutes
        if rnd.clock_started_at is None or not minutes:
            return None
        return rnd.clock_started_at + dt.timedelta(minutes=minutes)


class RoundDetailSerializer(RoundSerializer):
    tables = TableSerializer(many=True, read_only=True)

    class Meta(RoundSerializer.Meta):
        fields = [*RoundSerializer.Meta.fields, "seed", "notes", "byes", "eliminated", "tables"]
        read_only_fields = fields


class SwapSerializer(serializers.Serializer):
    first = serializers.CharField(help_text="start number of one player")
    second = serializers.CharField(help_text="start number of the other player")


# ---------------------------------------------------------------------------------------
# Scorecards, hands, money sheets
# ---------------------------------------------------------------------------------------


class HandSerializer(serializers.ModelSerializer):
    confirmed = serializers.SerializerMethodField()

    class Meta:
        model = Hand
        fields = ["number", "record", "value", "scores", "running_totals", "state", "lines",
                  "payout", "entered_at", "confirmed", "confirmed_at"]
        read_only_fields = fields

    def get_confirmed(self, hand: Hand) -> bool:
        return hand.confirmed_by_id is not None


class MoneyRowSerializer(serializers.ModelSerializer):
    start_number = serializers.IntegerField(source="registration.start_number", read_only=True)

    class Meta:
        model = MoneySheetRow
        fields = ["start_number", "bought_haler", "money_haler", "result_haler"]
        read_only_fields = fields


class ScorecardSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="table.round.number", read_only=True)
    table = serializers.IntegerField(source="table.number", read_only=True)
    hands = HandSerializer(many=True, read_only=True)
    money_rows = MoneyRowSerializer(many=True, read_only=True)

    class Meta:
        model = Scorecard
        fields = ["round", "table", "ruleset_code", "ruleset_mode", "ruleset_options", "player_ids",
                  "status", "version", "totals", "annulled_reason", "updated_at", "hands",
                  "money_rows", "confirmed_on_submitting_phone"]
        read_only_fields = fields


class HandWriteSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        min_value=1, max_value=INT_MAX, help_text="the scorecard version you read; a stale one is refused with 409")
    record = serializers.JSONField(help_text="the hand as the scorecard contract defines it")
    reason = serializers.CharField(required=False, allow_blank=True, default="",
                                   help_text="why: needed for a correction of a verified card")

    def validate_record(self, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise serializers.ValidationError(_("the hand must be a JSON object"), code="not_an_object")
        return value


class HandDeleteSerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=1, max_value=INT_MAX, help_text="the scorecard version you read")
    reason = serializers.CharField(required=False, allow_blank=True, default="")


class VersionSerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=1, max_value=INT_MAX, required=False, allow_null=True, default=None,
                                       help_text="the scorecard version you read (optional)")


class ConfirmSerializer(serializers.Serializer):
    reason = serializers.CharField(
        required=False, allow_blank=True, default="",
        help_text="why a card with fewer or more hands than the round plays is right: needed "
                  "then, kept in the audit trail")


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(help_text="written reason, kept in the audit trail")


class UndoReasonSerializer(serializers.Serializer):
    # A blank or missing reason is refused by the service (validation.required_reason), in
    # the same words as on the round's page.
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000,
                                   help_text="why the round is undone: needed, kept in the audit trail")


class MoneyEntrySerializer(serializers.Serializer):
    bought = serializers.IntegerField(min_value=0, max_value=INT_MAX, default=0, help_text="haléř bought during the round")
    money = serializers.IntegerField(min_value=0, max_value=INT_MAX, help_text="haléř on the table at the end")


class MoneySheetWriteSerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=1, max_value=INT_MAX)
    rows = serializers.DictField(child=MoneyEntrySerializer(),
                                 help_text="{start number: {bought, money}} of every player")
    reason = serializers.CharField(required=False, allow_blank=True, default="")


class MoneySheetSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    status = serializers.CharField()
    stake_haler = serializers.IntegerField(allow_null=True)
    rows = MoneyRowSerializer(many=True)
    totals = serializers.DictField(child=serializers.IntegerField())


# ---------------------------------------------------------------------------------------
# Penalties, disputes, audit
# ---------------------------------------------------------------------------------------


class PenaltySerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="table.round.number", read_only=True)
    table = serializers.IntegerField(source="table.number", read_only=True)
    hand = serializers.IntegerField(source="hand.number", read_only=True, allow_null=True)
    start_number = serializers.IntegerField(source="registration.start_number", read_only=True)
    player = PlayerPublicSerializer(source="registration.player", read_only=True)
    scored = serializers.SerializerMethodField(
        help_text="true when the engine scores it (recorded on a hand); a penalty for the whole "
                  "table is a note that changes no score")

    class Meta:
        model = Penalty
        fields = ["id", "round", "table", "hand", "start_number", "player", "kind", "scored",
                  "description", "created_at"]
        read_only_fields = fields

    def get_scored(self, penalty: Penalty) -> bool:
        return penalty.hand_id is not None


class PenaltyCreateSerializer(serializers.Serializer):
    start_number = serializers.IntegerField(min_value=1, max_value=INT_MAX, help_text="the penalised player")
    kind = serializers.CharField(max_length=32, help_text="renons, mond, misdeal or the ruleset's own")
    hand = serializers.IntegerField(min_value=1, max_value=INT_MAX, required=False, allow_null=True, default=None,
                                    help_text="the hand number; the penalty is then scored in it")
    description = serializers.CharField(required=False, allow_blank=True, default="")


class DisputeSerializer(serializers.ModelSerializer):
    round = serializers.SerializerMethodField()
    table = serializers.IntegerField(source="table.number", read_only=True, allow_null=True)
    hand = serializers.IntegerField(source="hand.number", read_only=True, allow_null=True)
    correction = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)

    class Meta:
        model = Dispute
        fields = ["id", "round", "table", "hand", "raised_by_name", "description", "status",
                  "decision", "correction", "raised_at", "decided_at"]
        read_only_fields = fields

    def get_round(self, dispute: Dispute) -> int | None:
        return dispute.table.round.number if dispute.table_id else None


class DisputeOpenSerializer(serializers.Serializer):
    round = serializers.IntegerField(min_value=1, max_value=INT_MAX, required=False, allow_null=True, default=None)
    table = serializers.IntegerField(min_value=1, max_value=INT_MAX, required=False, allow_null=True, default=None)
    hand = serializers.IntegerField(min_value=1, max_value=INT_MAX, required=False, allow_null=True, default=None)
    description = serializers.CharField()
    raised_by_name = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if (attrs["round"] is None) != (attrs["table"] is None):
            raise serializers.ValidationError({"table": _("name both the round and the table")},
                                              code="round_and_table")
        if attrs["hand"] is not None and attrs["table"] is None:
            raise serializers.ValidationError({"hand": _("a hand is named with its table")},
                                              code="hand_needs_table")
        return attrs


class DisputeDecideSerializer(serializers.Serializer):
    decision = serializers.CharField(help_text="the written reason of the decision")
    correction = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=1, max_value=INT_MAX,
        help_text="id of the audit entry of the change that carried out the decision")


class AuditEntrySerializer(serializers.ModelSerializer):
    round = serializers.SerializerMethodField()
    table = serializers.IntegerField(source="table.number", read_only=True, allow_null=True)
    actor = serializers.CharField(source="actor_label", read_only=True)

    class Meta:
        model = AuditEntry
        fields = ["id", "created_at", "actor", "action", "object_repr", "round", "table", "before",
                  "after", "reason"]
        read_only_fields = fields

    def get_round(self, entry: AuditEntry) -> int | None:
        return entry.table.round.number if entry.table_id else None


# ---------------------------------------------------------------------------------------
# Standings
# ---------------------------------------------------------------------------------------


class StandingsRoundSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    points = serializers.DecimalField(max_digits=9, decimal_places=3)
    points_exact = serializers.CharField(help_text="the round's table points as an exact fraction")
    score = serializers.IntegerField()


class StandingsRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    start_number = serializers.IntegerField()
    player = PlayerPublicSerializer()
    points = serializers.DecimalField(
        max_digits=9, decimal_places=3,
        help_text="table points rounded to three places, for display; rank by points_exact")
    points_exact = serializers.SerializerMethodField(
        help_text="table points as an exact fraction, e.g. \"22/3\" or \"7\" (thirds stay thirds)")
    score = serializers.IntegerField()
    rounds_played = serializers.IntegerField()
    adjusted = serializers.BooleanField()
    per_round = serializers.SerializerMethodField()

    @extend_schema_field(StandingsRoundSerializer(many=True))
    def get_per_round(self, row: Any) -> list[dict[str, Any]]:
        return [{"round": n, "points": str(to_decimal(p)), "points_exact": str(p), "score": s}
                for n, (p, s) in sorted(row.exact_per_round.items())]

    def get_points_exact(self, row: Any) -> str:
        return str(row.exact_points)


class PendingTableSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField()


class StandingsSerializer(serializers.Serializer):
    event = serializers.CharField(source="event.slug", help_text="the event's slug")
    uses_points = serializers.BooleanField(help_text="ranked by table points first (points system)")
    unit = serializers.CharField(help_text="points, or haler for money rulesets")
    after_round = serializers.IntegerField(allow_null=True,
                                           help_text="the last round with a counted table")
    pending_tables = serializers.SerializerMethodField()
    rows = StandingsRowSerializer(many=True)

    @extend_schema_field(PendingTableSerializer(many=True))
    def get_pending_tables(self, standings: Any) -> list[dict[str, int]]:
        return [{"round": r, "table": t} for r, t in standings.pending_tables]


class StandingsAdjustSerializer(serializers.Serializer):
    start_number = serializers.IntegerField(min_value=1, max_value=INT_MAX)
    points_delta = ExactPointsSerializerField(
        default=Fraction(0),
        help_text=f'table points to add (negative to take): "-1", "0.5" or an exact fraction '
                  f'such as "-1/3"; at most {MAX_POINTS_ADJUSTMENT} either way')
    score_delta = serializers.IntegerField(default=0, min_value=-MAX_SCORE_ADJUSTMENT,
                                           max_value=MAX_SCORE_ADJUSTMENT)
    reason = serializers.CharField()


class StandingsAdjustmentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    start_number = serializers.IntegerField(source="registration.start_number")
    points_delta = ExactPointsSerializerField(
        help_text='exact table points: a decimal ("-1", "0.5") or a fraction ("-1/3")')
    score_delta = serializers.IntegerField()
    reason = serializers.CharField()
    created_at = serializers.DateTimeField()


# ---------------------------------------------------------------------------------------
# The signed-in user
# ---------------------------------------------------------------------------------------


class MyRegistrationSerializer(serializers.ModelSerializer):
    event = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = Registration
        fields = ["event", "start_number", "status"]
        read_only_fields = fields


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    is_staff = serializers.BooleanField()
    can_create_events = serializers.BooleanField()
    player = PlayerPublicSerializer(allow_null=True)
    registrations = MyRegistrationSerializer(many=True)
    organiser_of = serializers.ListField(child=serializers.SlugField())
    referee_of = serializers.ListField(child=serializers.SlugField())


class TokenRequestSerializer(serializers.Serializer):
    username = serializers.CharField()
    password = serializers.CharField(style={"input_type": "password"})


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text='send as the header "Authorization: Token <token>"')

