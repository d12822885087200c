"""The answers of the leagues and cups API: one serializer per shape a client reads (a league,
a season, its standings, its schedule, the plan of the next season, a cup series, its
ranking, a player's leagues and cups, what an archive import made), each reading the model or the selector's result
directly, so the OpenAPI schema describes every field. Read-only: the request bodies are
parsed in leagues.api.serializers_requests."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from leagues import league_standings, next_season, selectors
from leagues.models import CupSeries, Division, League, Matchday, Season, SeasonMembership
from tournaments.api.serializers import ApiErrorItemSerializer
from tournaments.models import Event, Job, Player
from tournaments.runtime import jobs


class PlayerSummarySerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="__str__", read_only=True, help_text="first and last name")

    class Meta:
        model = Player
        fields = ["id", "name", "club", "country"]
        read_only_fields = fields


class NoteSerializer(serializers.Serializer):
    """A note of the seating engine: a code, its parameters and the English text."""

    code = serializers.CharField()
    params = serializers.DictField(child=serializers.JSONField())
    text = serializers.CharField()


class JobProgressSerializer(serializers.ModelSerializer):
    """A background draw of a large division's schedule, and how far it is."""

    message = serializers.SerializerMethodField(help_text="what the job says, in the request's language")

    def get_message(self, job: Job) -> str:
        return jobs.job_message(job)

    class Meta:
        model = Job
        fields = ["id", "status", "progress", "total", "message"]
        read_only_fields = fields


# ---------------------------------------------------------------------------------------
# Leagues and seasons
# ---------------------------------------------------------------------------------------


class SeasonSummarySerializer(serializers.ModelSerializer):
    class Meta:
        model = Season
        fields = ["slug", "name", "status"]
        read_only_fields = fields


class LeagueSerializer(serializers.ModelSerializer):
    seasons = serializers.SerializerMethodField(help_text="newest first")

    class Meta:
        model = League
        fields = ["slug", "name", "description", "division_size", "movement_count", "division_count",
                  "qualification_group", "ruleset_code", "ruleset_mode", "ruleset_options",
                  "hands_per_matchday", "table_size", "min_table_size", "is_public", "language", "seasons"]
        read_only_fields = fields

    @extend_schema_field(SeasonSummarySerializer(many=True))
    def get_seasons(self, league: League) -> list[dict[str, Any]]:
        return SeasonSummarySerializer(selectors.seasons_of(league), many=True).data


class LeagueListSerializer(serializers.Serializer):
    leagues = LeagueSerializer(many=True)


class MemberSerializer(serializers.ModelSerializer):
    player = PlayerSummarySerializer()

    class Meta:
        model = SeasonMembership
        fields = ["seed_position", "origin", "final_rank", "player"]
        read_only_fields = fields


class DivisionSerializer(serializers.ModelSerializer):
    members = MemberSerializer(many=True, source="memberships.all")

    class Meta:
        model = Division
        fields = ["level", "name", "size", "is_qualification", "plays_matchdays", "members"]
        read_only_fields = fields


class MatchdaySerializer(serializers.ModelSerializer):
    event = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = Matchday
        fields = ["number", "date", "event"]
        read_only_fields = fields


class MatchdayListedSerializer(MatchdaySerializer):
    played = serializers.SerializerMethodField(help_text="every round of its event is closed")

    class Meta(MatchdaySerializer.Meta):
        fields = [*MatchdaySerializer.Meta.fields, "played"]
        read_only_fields = fields

    def get_played(self, matchday: Matchday) -> bool:
        return selectors.matchday_is_played(matchday)


class MatchdayChangedSerializer(MatchdaySerializer):
    venue = serializers.CharField(source="event.venue", read_only=True)

    class Meta(MatchdaySerializer.Meta):
        fields = [*MatchdaySerializer.Meta.fields, "venue"]
        read_only_fields = fields


class ScheduleSummarySerializer(serializers.Serializer):
    version = serializers.IntegerField(allow_null=True, help_text="null before the first draw")
    repeat_pairs = serializers.DictField(
        child=serializers.IntegerField(allow_null=True),
        help_text="per division level: the pairs that meet more than once")


class SeasonSerializer(serializers.ModelSerializer):
    league = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    previous = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)
    formation = serializers.DictField(child=serializers.JSONField(), read_only=True,
                                      help_text="how the season was formed from the previous one")
    divisions = serializers.SerializerMethodField()
    matchdays = serializers.SerializerMethodField()
    schedule = serializers.SerializerMethodField()

    class Meta:
        model = Season
        fields = ["league", "slug", "name", "status", "starts_on", "ends_on", "planned_matchdays", "seed",
                  "previous", "formation", "divisions", "matchdays", "schedule"]
        read_only_fields = fields

    @extend_schema_field(DivisionSerializer(many=True))
    def get_divisions(self, season: Season) -> list[dict[str, Any]]:
        return DivisionSerializer(selectors.divisions_of(season), many=True).data

    @extend_schema_field(MatchdayListedSerializer(many=True))
    def get_matchdays(self, season: Season) -> list[dict[str, Any]]:
        return MatchdayListedSerializer(selectors.matchdays_of(season), many=True).data

    @extend_schema_field(ScheduleSummarySerializer)
    def get_schedule(self, season: Season) -> dict[str, Any]:
        stored = season.schedule or {}
        return ScheduleSummarySerializer({
            "version": stored.get("version"),
            "repeat_pairs": {level: d.get("repeat_pairs") for level, d in stored.get("divisions", {}).items()},
        }).data


class SeasonListSerializer(serializers.Serializer):
    seasons = SeasonSerializer(many=True)


# ---------------------------------------------------------------------------------------
# Standings
# ---------------------------------------------------------------------------------------


class LeagueStandingsRowSerializer(serializers.Serializer):
    rank = serializers.SerializerMethodField(help_text="null while the division is not ranked yet")
    player = PlayerSummarySerializer()
    seed_position = serializers.IntegerField()
    origin = serializers.CharField(source="membership.origin")
    score = serializers.IntegerField()
    table_points = serializers.CharField(help_text="a decimal number, as text")
    matchdays_played = serializers.IntegerField()
    best_matchday = serializers.IntegerField(allow_null=True)
    per_matchday = serializers.SerializerMethodField(help_text="score per matchday number")
    tie_break = serializers.SerializerMethodField(help_text="the tie-break that decided the rank")
    zone = serializers.SerializerMethodField(help_text="up, down or null")
    adjusted = serializers.BooleanField()

    def get_rank(self, row: league_standings.LeagueRow) -> int | None:
        return row.rank if self.context.get("ranked", True) else None

    @extend_schema_field(serializers.DictField(child=serializers.IntegerField()))
    def get_per_matchday(self, row: league_standings.LeagueRow) -> dict[str, int]:
        return {str(k): v for k, v in sorted(row.per_matchday.items())}

    def get_tie_break(self, row: league_standings.LeagueRow) -> str | None:
        return row.tie_break or None

    def get_zone(self, row: league_standings.LeagueRow) -> str | None:
        return row.zone or None


class DivisionStandingsSerializer(serializers.Serializer):
    level = serializers.IntegerField(source="division.level")
    name = serializers.CharField(source="division.name")
    ranked = serializers.BooleanField()
    rows = serializers.SerializerMethodField()

    @extend_schema_field(LeagueStandingsRowSerializer(many=True))
    def get_rows(self, standings: league_standings.DivisionStandings) -> list[dict[str, Any]]:
        return LeagueStandingsRowSerializer(standings.rows, many=True, context={"ranked": standings.ranked}).data


class LeaguePendingTableSerializer(serializers.Serializer):
    matchday = serializers.IntegerField()
    table = serializers.IntegerField()


class LeagueStandingsSerializer(serializers.Serializer):
    after_matchday = serializers.IntegerField(source="after", allow_null=True)
    final = serializers.BooleanField()
    pending_tables = serializers.SerializerMethodField(help_text="tables whose scorecards are not confirmed yet")
    tie_breaks = serializers.SerializerMethodField(help_text="what decides the order, first to last")
    divisions = DivisionStandingsSerializer(many=True)

    @extend_schema_field(LeaguePendingTableSerializer(many=True))
    def get_pending_tables(self, standings: league_standings.SeasonStandings) -> list[dict[str, int]]:
        return [{"matchday": m, "table": t} for m, t in standings.pending]

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_tie_breaks(self, standings: league_standings.SeasonStandings) -> list[str]:
        return ["score", *league_standings.TIE_BREAKS]


# ---------------------------------------------------------------------------------------
# Schedule
# ---------------------------------------------------------------------------------------


class ScheduledMatchdaySerializer(serializers.Serializer):
    number = serializers.IntegerField()
    tables = serializers.SerializerMethodField(help_text="the player ids at each table")

    @extend_schema_field(serializers.ListField(child=serializers.ListField(child=serializers.IntegerField())))
    def get_tables(self, matchday: dict[str, Any]) -> list[list[int]]:
        return [[p.pk for p in table if p] for table in matchday["tables"]]


class DivisionScheduleSerializer(serializers.Serializer):
    level = serializers.IntegerField(source="division.level")
    name = serializers.CharField(source="division.name")
    repeat_pairs = serializers.IntegerField()
    notes = serializers.ListField(child=serializers.JSONField(), help_text="the seating engine's notes")
    bound = NoteSerializer(help_text="how many matchdays this field can play without a repeat meeting")
    distance = NoteSerializer(help_text="how far the schedule is from that bound")
    matchdays = ScheduledMatchdaySerializer(many=True)


class ScheduleSerializer(serializers.Serializer):
    """Reads {"season", "job"}: the season's stored schedule, and its background draw if any."""

    version = serializers.SerializerMethodField()
    seed = serializers.SerializerMethodField()
    divisions = serializers.SerializerMethodField()
    job = JobProgressSerializer(allow_null=True, help_text="the background draw, null if none")

    def get_version(self, value: dict[str, Any]) -> int | None:
        return (value["season"].schedule or {}).get("version")

    def get_seed(self, value: dict[str, Any]) -> int | None:
        return (value["season"].schedule or {}).get("seed")

    @extend_schema_field(DivisionScheduleSerializer(many=True))
    def get_divisions(self, value: dict[str, Any]) -> list[dict[str, Any]]:
        season = value["season"]
        return DivisionScheduleSerializer(selectors.schedule_view(season, selectors.divisions_of(season)),
                                          many=True).data


class ScheduleSwapResultSerializer(serializers.Serializer):
    repeat_pairs = serializers.IntegerField()
    repeat_pairs_before = serializers.IntegerField()
    remarks = serializers.ListField(child=serializers.CharField(), help_text="what the seating checker says")


# ---------------------------------------------------------------------------------------
# Members, applicants, matchday steps
# ---------------------------------------------------------------------------------------


class PlacedMemberSerializer(serializers.ModelSerializer):
    division = serializers.IntegerField(source="division.level", help_text="the division's level")
    player = PlayerSummarySerializer()

    class Meta:
        model = SeasonMembership
        fields = ["division", "seed_position", "player"]
        read_only_fields = fields


class MembershipSerializer(PlacedMemberSerializer):
    class Meta(PlacedMemberSerializer.Meta):
        fields = [*PlacedMemberSerializer.Meta.fields, "origin"]
        read_only_fields = fields


class ApplicantsResultSerializer(serializers.Serializer):
    """Reads the result of leagues.services.applicants_select."""

    placed = PlacedMemberSerializer(many=True)
    qualification_group = serializers.SerializerMethodField()
    not_admitted = PlayerSummarySerializer(many=True)

    @extend_schema_field(PlayerSummarySerializer(many=True))
    def get_qualification_group(self, value: dict[str, Any]) -> list[dict[str, Any]]:
        return PlayerSummarySerializer([m.player for m in value["qualification"]], many=True).data


class MatchdayStepSerializer(serializers.Serializer):
    """Reads {"matchday", "round"}: the matchday's round after a step (seat, publish, close)."""

    matchday = serializers.IntegerField(source="matchday.number")
    event = serializers.CharField(source="matchday.event.slug")
    round = serializers.IntegerField(source="round.number")
    status = serializers.CharField(source="round.status")
    tables = serializers.SerializerMethodField()

    def get_tables(self, value: dict[str, Any]) -> int:
        return value["round"].tables.count()


# ---------------------------------------------------------------------------------------
# The next season
# ---------------------------------------------------------------------------------------


class PlacementSerializer(serializers.Serializer):
    seed_position = serializers.IntegerField()
    origin = serializers.CharField()
    player = PlayerSummarySerializer()
    from_division = serializers.CharField()
    from_rank = serializers.IntegerField(allow_null=True)
    note = serializers.CharField()


class PlannedDivisionSerializer(serializers.Serializer):
    level = serializers.IntegerField()
    name = serializers.CharField()
    size = serializers.IntegerField()
    is_qualification = serializers.BooleanField()
    vacant_positions = serializers.ListField(child=serializers.IntegerField())
    placements = PlacementSerializer(many=True)


class DroppedOutSerializer(serializers.Serializer):
    player = PlayerSummarySerializer()
    from_division = serializers.CharField()
    from_rank = serializers.IntegerField(allow_null=True)


class RankedApplicantSerializer(serializers.Serializer):
    player = PlayerSummarySerializer()
    why = serializers.CharField()


class NextSeasonPlanSerializer(serializers.Serializer):
    divisions = PlannedDivisionSerializer(many=True)
    dropped_out = DroppedOutSerializer(many=True)
    not_admitted = PlayerSummarySerializer(many=True)
    applicants_ranked = serializers.SerializerMethodField()
    criterion = serializers.CharField(allow_null=True)
    notes = serializers.SerializerMethodField(help_text="what the organiser should know, in words")
    errors = ApiErrorItemSerializer(many=True, help_text="why the plan cannot be carried out yet")
    provisional = serializers.BooleanField(
        help_text="true while the season runs: the plan as if it ended today (it cannot be applied yet)")
    after = serializers.IntegerField(
        allow_null=True, help_text="while the season runs: the last matchday its standings count")

    @extend_schema_field(RankedApplicantSerializer(many=True))
    def get_applicants_ranked(self, plan: Any) -> list[dict[str, Any]]:
        return RankedApplicantSerializer([{"player": p, "why": why} for p, why in plan.applicants_ranked],
                                         many=True).data

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_notes(self, plan: Any) -> list[str]:
        return [next_season.note_text(note) for note in plan.notes]


# ---------------------------------------------------------------------------------------
# Cup series
# ---------------------------------------------------------------------------------------


class CupEventSerializer(serializers.Serializer):
    event = serializers.CharField(source="event.slug")
    name = serializers.CharField(source="event.name")
    order = serializers.IntegerField()
    is_final = serializers.BooleanField()
    finished = serializers.SerializerMethodField()

    def get_finished(self, item: Any) -> bool:
        return item.event.status == Event.Status.FINISHED


class CupSerializer(serializers.ModelSerializer):
    points_table = serializers.SerializerMethodField(help_text="cup points per final place")
    events = serializers.SerializerMethodField()

    class Meta:
        model = CupSeries
        fields = ["slug", "name", "season_label", "best_results_counted", "final_counts_extra", "is_public",
                  "points_table", "events"]
        read_only_fields = fields

    @extend_schema_field(serializers.DictField(child=serializers.IntegerField()))
    def get_points_table(self, series: CupSeries) -> dict[str, int]:
        return {str(k): v for k, v in selectors.cup_points_table(series).items()}

    @extend_schema_field(CupEventSerializer(many=True))
    def get_events(self, series: CupSeries) -> list[dict[str, Any]]:
        return CupEventSerializer(selectors.cup_events(series), many=True).data


class CupListSerializer(serializers.Serializer):
    cups = CupSerializer(many=True)


class CupResultSerializer(serializers.Serializer):
    event = serializers.CharField(source="event.slug")
    is_final = serializers.BooleanField()
    place = serializers.IntegerField()
    points = serializers.IntegerField()
    has_entry = serializers.BooleanField(help_text="the points table has an entry for the place")
    counted = serializers.BooleanField()


class CupRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = PlayerSummarySerializer()
    total = serializers.IntegerField()
    qualified_for_final = serializers.BooleanField()
    tournaments_played = serializers.IntegerField()
    results = CupResultSerializer(many=True)


class CupRankingSerializer(serializers.Serializer):
    table_incomplete = serializers.BooleanField()
    missing_places = serializers.ListField(child=serializers.IntegerField())
    places_beyond_table = serializers.ListField(child=serializers.IntegerField(), source="beyond_table")
    counted_events = serializers.SerializerMethodField(help_text="the finished tournaments, by slug")
    rows = CupRowSerializer(many=True)

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_counted_events(self, ranking: Any) -> list[str]:
        return [se.event.slug for se in ranking.counted_events]


# ---------------------------------------------------------------------------------------
# A player's leagues and cups
# ---------------------------------------------------------------------------------------


class LeagueCareerSerializer(serializers.Serializer):
    league = serializers.CharField(source="league.slug")
    season = serializers.CharField(source="season.slug")
    division = serializers.CharField(source="division.name")
    seed_position = serializers.IntegerField()
    origin = serializers.CharField()
    rank = serializers.IntegerField(allow_null=True)
    final = serializers.BooleanField()
    score = serializers.IntegerField()
    matchdays_played = serializers.IntegerField()


class CupCareerSerializer(serializers.Serializer):
    cup = serializers.CharField(source="series.slug")
    rank = serializers.IntegerField()
    total = serializers.IntegerField()
    tournaments_played = serializers.IntegerField()
    counted = serializers.IntegerField()
    players = serializers.IntegerField()


class PlayerCareerSerializer(serializers.Serializer):
    """Reads {"player", "leagues", "cups"} (leagues.careers.player_career with the player)."""

    player = PlayerSummarySerializer()
    leagues = LeagueCareerSerializer(many=True)
    cups = CupCareerSerializer(many=True)


# ---------------------------------------------------------------------------------------
# Archive imports (leagues.archive_api)
# ---------------------------------------------------------------------------------------


class SeasonArchiveImportedSerializer(serializers.Serializer):
    """Reads the imported season."""

    league = serializers.CharField(source="league.slug")
    season = serializers.CharField(source="slug")
    matchdays = serializers.SerializerMethodField(help_text="the slugs of the matchdays' events, in order")

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_matchdays(self, season: Season) -> list[str]:
        return [md.event.slug for md in season.matchdays.select_related("event").order_by("number")]


class CupArchiveImportedSerializer(serializers.Serializer):
    """Reads the imported cup series."""

    cup = serializers.CharField(source="slug")
    events = serializers.SerializerMethodField(help_text="the slugs of the series' tournaments")

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_events(self, series: CupSeries) -> list[str]:
        return [item.event.slug for item in series.series_events.select_related("event")]
