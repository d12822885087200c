"""Admin pages for leagues, seasons, divisions, memberships, matchdays and cup series."""

from django.contrib import admin

from leagues.models import (
    CupPoints,
    CupSeries,
    CupSeriesEvent,
    Division,
    League,
    Matchday,
    Season,
    SeasonMembership,
)


class SeasonInline(admin.TabularInline):
    model = Season
    extra = 0
    fields = ("name", "slug", "status", "starts_on", "ends_on")
    show_change_link = True


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "division_size", "movement_count", "ruleset_code")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("organisers",)
    inlines = [SeasonInline]


class DivisionInline(admin.TabularInline):
    model = Division
    extra = 0


class MatchdayInline(admin.TabularInline):
    model = Matchday
    extra = 0
    autocomplete_fields = ("event",)


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("league", "name", "status", "starts_on", "planned_matchdays")
    list_filter = ("status", "league")
    search_fields = ("name", "league__name")
    inlines = [DivisionInline, MatchdayInline]


class MembershipInline(admin.TabularInline):
    model = SeasonMembership
    extra = 0
    autocomplete_fields = ("player",)
    fields = ("seed_position", "player", "origin", "final_rank", "season")


@admin.register(Division)
class DivisionAdmin(admin.ModelAdmin):
    list_display = ("season", "level", "name", "is_qualification", "size")
    list_filter = ("season__league", "is_qualification")
    inlines = [MembershipInline]


@admin.register(SeasonMembership)
class SeasonMembershipAdmin(admin.ModelAdmin):
    list_display = ("division", "seed_position", "player", "origin", "final_rank")
    list_filter = ("season", "origin")
    search_fields = ("player__last_name", "player__first_name")
    autocomplete_fields = ("player",)


@admin.register(Matchday)
class MatchdayAdmin(admin.ModelAdmin):
    list_display = ("season", "number", "date", "event")
    list_filter = ("season",)


class CupSeriesEventInline(admin.TabularInline):
    model = CupSeriesEvent
    extra = 0
    autocomplete_fields = ("event",)


class CupPointsInline(admin.TabularInline):
    model = CupPoints
    extra = 0


@admin.register(CupSeries)
class CupSeriesAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "season_label", "best_results_counted", "final_counts_extra")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("organisers",)
    inlines = [CupSeriesEventInline, CupPointsInline]
