"""The request bodies and query strings of the leagues and cups API, parsed into the arguments
of a service: typed fields, so a bad value is refused with its field named in the API's one
error shape (tournaments.api.errors), and the schema describes every body. They check types
and that what is named exists for the caller (a player, a division of the season, an event
he may see); the rules of leagues and cups stay the services'."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.fields import empty

from leagues import next_season
from leagues.models import CupSeries, Division, League, SeasonMembership
from leagues.services import CUP_FIELDS, LEAGUE_FIELDS
from tournaments.domain import rights
from tournaments.domain.limits import INT_MAX, INT_MIN, SMALL_MAX
from tournaments.models import Event, Player

# ---------------------------------------------------------------------------------------
# Fields
# ---------------------------------------------------------------------------------------


class _BlankIsAbsent:
    """An empty text or a null reads as a value not given (its default, or "required"), as
    the API always accepted from forms and older clients."""

    def validate_empty_values(self, data: Any) -> tuple[bool, Any]:
        if data is None or data == "":
            data = empty
        return super().validate_empty_values(data)  # type: ignore[misc]


class OptionalIntegerField(_BlankIsAbsent, serializers.IntegerField):
    def __init__(self, **kwargs: Any):
        kwargs.setdefault("min_value", INT_MIN)
        kwargs.setdefault("max_value", INT_MAX)
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_null", True)
        super().__init__(**kwargs)


class OptionalDateField(_BlankIsAbsent, serializers.DateField):
    def __init__(self, **kwargs: Any):
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_null", True)
        super().__init__(**kwargs)


class ClearableDateField(serializers.DateField):
    """A date a change may clear: null or an empty text clear it."""

    def __init__(self, **kwargs: Any):
        super().__init__(required=False, allow_null=True, **kwargs)

    def validate_empty_values(self, data: Any) -> tuple[bool, Any]:
        return super().validate_empty_values(None if data == "" else data)


class OptionalChoiceField(_BlankIsAbsent, serializers.ChoiceField):
    def __init__(self, choices: Any, **kwargs: Any):
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_null", True)
        super().__init__(choices, **kwargs)


def _visible_players(field: serializers.Field):
    """The registry's players the caller may see: one he may not see is refused exactly like
    one that does not exist (tournaments.domain.rights)."""
    request = field.context.get("request")
    return Player.objects.filter(rights.visible_players_q(getattr(request, "user", None)))


class PlayerField(serializers.IntegerField):
    """A player's id, read as the player (one the caller may see)."""

    def __init__(self, **kwargs: Any):
        super().__init__(min_value=1, max_value=INT_MAX, help_text=kwargs.pop("help_text", "a player's id"),
                         **kwargs)

    def run_validation(self, data: Any = empty) -> Player:
        # After the range check of the number: the validators compare numbers, not players.
        pk = super().run_validation(data)
        player = _visible_players(self).filter(pk=pk).first()
        if player is None:
            raise serializers.ValidationError(_("there is no player %(id)s") % {"id": pk}, code="unknown_player")
        return player


class PlayerListField(_BlankIsAbsent, serializers.ListField):
    """Players' ids in order (a JSON list; a query string may also give them separated by
    commas), read as the players; an unknown id is refused at its index (`players[2]`)."""

    child = serializers.IntegerField(min_value=1, max_value=INT_MAX)

    def __init__(self, **kwargs: Any):
        kwargs.setdefault("help_text", "players' ids")
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> list[Player]:
        if isinstance(data, str):
            data = [data]
        if isinstance(data, list) and all(isinstance(item, str) for item in data):
            data = [part.strip() for item in data for part in item.split(",") if part.strip()]
        ids = super().to_internal_value(data)
        found = _visible_players(self).in_bulk(ids)
        unknown = {i: [serializers.ErrorDetail(_("there is no player %(id)s") % {"id": pk}, code="unknown_player")]
                   for i, pk in enumerate(ids) if pk not in found}
        if unknown:
            raise serializers.ValidationError(unknown)
        return [found[pk] for pk in ids]


class EventField(serializers.CharField):
    """An event's slug, read as the event the caller may see: one he may not see is refused
    exactly like one that does not exist (tournaments.domain.rights)."""

    def __init__(self, **kwargs: Any):
        kwargs.setdefault("help_text", "an event's slug")
        super().__init__(max_length=100, **kwargs)

    def run_validation(self, data: Any = empty) -> Event | None:
        # After the length check of the text: the validators measure text, not events.
        slug = super().run_validation(data)
        if slug is None:
            return None
        event = Event.objects.filter(slug=slug).first()
        if event is None or not rights.can_view_event(self.context["request"].user, event):
            raise serializers.ValidationError(_("there is no event %(slug)s") % {"slug": slug}, code="unknown_event")
        return event


class OptionalEventField(_BlankIsAbsent, EventField):
    def __init__(self, **kwargs: Any):
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_null", True)
        super().__init__(**kwargs)


def reason_field() -> serializers.CharField:
    return serializers.CharField(required=False, allow_blank=True, default="", max_length=2000,
                                 help_text="why, for the audit log")


class SeasonBodySerializer(serializers.Serializer):
    """A body naming a division of the season in the context (`season`) by its level."""

    division = serializers.IntegerField(min_value=INT_MIN, max_value=INT_MAX,
                                        help_text="the division's level: 1 for the I. league")

    def validate_division(self, level: int) -> Division:
        division = self.context["season"].divisions.filter(level=level).first()
        if division is None:
            raise serializers.ValidationError(_("the season has no division %(level)s") % {"level": level},
                                              code="unknown_division")
        return division


# ---------------------------------------------------------------------------------------
# Leagues and seasons
# ---------------------------------------------------------------------------------------


class LeagueWriteSerializer(serializers.ModelSerializer):
    """A league's settings; the ruleset, mode and options are checked against the registry,
    and the movement against the division size, by the service."""

    ruleset_options = serializers.DictField(child=serializers.JSONField(), required=False)

    class Meta:
        model = League
        fields = sorted(LEAGUE_FIELDS)


class LeagueChangeSerializer(LeagueWriteSerializer):
    class Meta(LeagueWriteSerializer.Meta):
        fields = sorted(LEAGUE_FIELDS - {"slug"})


class DivisionSpecSerializer(serializers.Serializer):
    """A division of a new season; what is left out the service fills in from the league."""

    name = serializers.CharField(required=False, allow_blank=True, max_length=100)
    size = serializers.IntegerField(required=False, min_value=0, max_value=SMALL_MAX, help_text="0: no limit")
    is_qualification = serializers.BooleanField(required=False)
    plays_matchdays = serializers.BooleanField(required=False)


class SeasonCreateSerializer(serializers.Serializer):
    name = serializers.CharField(required=False, allow_blank=True, default="", max_length=100)
    slug = serializers.SlugField(required=False, allow_blank=True, default="", max_length=100,
                                 help_text="made from the name when left out")
    starts_on = OptionalDateField()
    ends_on = OptionalDateField()
    planned_matchdays = OptionalIntegerField(default=9)
    seed = OptionalIntegerField(help_text="seed of the schedule draw; random when left out")
    divisions = serializers.ListField(child=DivisionSpecSerializer(), required=False, allow_null=True,
                                      help_text="the league's divisions when left out")


class SeasonChangeSerializer(serializers.Serializer):
    name = serializers.CharField(required=False, max_length=100)
    starts_on = ClearableDateField()
    ends_on = ClearableDateField()
    planned_matchdays = serializers.IntegerField(required=False, min_value=INT_MIN, max_value=INT_MAX)


class StandingsQuerySerializer(serializers.Serializer):
    after = OptionalIntegerField(help_text="the standings after this matchday")


class ScheduleDrawSerializer(serializers.Serializer):
    seed = OptionalIntegerField(help_text="seed of the draw; a new one when left out")


class ScheduleSwapSerializer(SeasonBodySerializer):
    matchday = serializers.IntegerField(min_value=INT_MIN, max_value=INT_MAX)
    players = PlayerListField(help_text="the two players' ids")
    reason = reason_field()

    def validate_players(self, players: list[Player]) -> list[Player]:
        if len(players) != 2:
            raise serializers.ValidationError(_("name the two players to swap"), code="two_players")
        return players


class MemberAddSerializer(SeasonBodySerializer):
    player = PlayerField()
    seed_position = OptionalIntegerField(help_text="the next free one when left out")
    origin = OptionalChoiceField(SeasonMembership.Origin.choices, default=SeasonMembership.Origin.NEW)


class RemovalReasonSerializer(serializers.Serializer):
    reason = reason_field()


class ApplicantsSerializer(serializers.Serializer):
    players = PlayerListField(required=False, default=list, help_text="the applicants' ids")
    criterion = OptionalChoiceField(next_season.CRITERIA, default=None,
                                    help_text="how applicants are ranked when more apply than there are places")
    criterion_event = OptionalEventField(default=None, help_text="the tournament whose result ranks them")


class FinalOrderSerializer(SeasonBodySerializer):
    players = PlayerListField(required=False, default=list, help_text="the division's players, first to last")
    reason = reason_field()


class NextPlanSerializer(serializers.Serializer):
    """Who leaves and who applies: the next season's plan is drawn from these."""

    leaving = PlayerListField(required=False, default=list, help_text="ids of members who do not play on")
    applicants = PlayerListField(required=False, default=list, help_text="ids of new players who apply")
    criterion = OptionalChoiceField(next_season.CRITERIA, default=None,
                                    help_text="how applicants are ranked when more apply than there are places")
    criterion_event = OptionalEventField(default=None, help_text="the tournament whose result ranks them")
    qualification_event = OptionalEventField(default=None,
                                             help_text="the qualification tournament whose best go up")


class SeasonAdvanceSerializer(NextPlanSerializer):
    name = serializers.CharField(required=False, allow_blank=True, default="", max_length=100)
    slug = serializers.SlugField(required=False, allow_blank=True, default="", max_length=100)
    starts_on = OptionalDateField(default=None)
    ends_on = OptionalDateField(default=None)
    planned_matchdays = OptionalIntegerField(default=None)
    seed = OptionalIntegerField(default=None)


# ---------------------------------------------------------------------------------------
# Matchdays
# ---------------------------------------------------------------------------------------


class MatchdayCreateSerializer(serializers.Serializer):
    date = OptionalDateField(required=True, allow_null=False)
    venue = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)
    number = OptionalIntegerField(help_text="the next number when left out")


class MatchdayChangeSerializer(serializers.Serializer):
    date = OptionalDateField(default=None, help_text="unchanged when left out")
    venue = serializers.CharField(required=False, allow_blank=True, max_length=200)


# ---------------------------------------------------------------------------------------
# Cup series
# ---------------------------------------------------------------------------------------


class CupWriteSerializer(serializers.ModelSerializer):
    seed_points = serializers.BooleanField(
        required=False, default=False, write_only=True,
        help_text="start from the registry's cup points (seed 001) instead of an empty table")

    class Meta:
        model = CupSeries
        fields = [*sorted(CUP_FIELDS), "seed_points"]


class CupChangeSerializer(serializers.ModelSerializer):
    class Meta:
        model = CupSeries
        fields = sorted(CUP_FIELDS - {"slug"})


class CupPointsSerializer(serializers.Serializer):
    points = serializers.DictField(child=serializers.IntegerField(min_value=0, max_value=INT_MAX),
                                   help_text="cup points per final place, e.g. {\"1\": 223, \"2\": 198}")
    reason = reason_field()


class EventInPathSerializer(serializers.Serializer):
    """The event of a cup address (…/events/<slug>/), as the caller may see it."""

    event = EventField()


class CupEventAddSerializer(serializers.Serializer):
    event = EventField()
    is_final = serializers.BooleanField(required=False, default=False)
    order = OptionalIntegerField(min_value=0, max_value=SMALL_MAX, default=None,
                                 help_text="after the last one when left out")


def parsed(serializer_class: type[serializers.Serializer], data: Any, request: Any,
           **context: Any) -> dict[str, Any]:
    """The validated values of a body or query string; a bad one raises the API's 400."""
    serializer = serializer_class(data=data, context={"request": request, **context})
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)
