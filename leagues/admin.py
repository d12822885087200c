"""Admin pages for leagues, seasons, divisions, memberships, matchdays and cup series, to look
at: they change through the services (the league organiser's pages, the API), as the
tournaments' do (tournaments.admin)."""

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
from tournaments.admin import DeletedWhole, ViewOnly


class SeasonInline(ViewOnly, admin.TabularInline):
    model = Season
    extra = 0
    fields = ("name", "slug", "status", "starts_on", "ends_on")
    show_change_link = True


@admin.register(League)
class LeagueAdmin(ViewOnly, admin.ModelAdmin):
    list_display = ("name", "slug", "division_size", "movement_count", "ruleset_code")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("organisers",)
    inlines = [SeasonInline]


class DivisionInline(ViewOnly, admin.TabularInline):
    model = Division
    extra = 0


class MatchdayInline(ViewOnly, admin.TabularInline):
    model = Matchday
    extra = 0
    autocomplete_fields = ("event",)


@admin.register(Season)
class SeasonAdmin(DeletedWhole, ViewOnly, admin.ModelAdmin):
    list_display = ("league", "name", "status", "starts_on", "planned_matchdays")
    list_filter = ("status", "league")
    search_fields = ("name", "league__name")
    inlines = [DivisionInline, MatchdayInline]


class MembershipInline(ViewOnly, admin.TabularInline):
    model = SeasonMembership
    extra = 0
    autocomplete_fields = ("player",)
    fields = ("seed_position", "player", "origin", "final_rank", "season")


@admin.register(Division)
class DivisionAdmin(ViewOnly, admin.ModelAdmin):
    list_display = ("season", "level", "name", "is_qualification", "size")
    list_filter = ("season__league", "is_qualification")
    inlines = [MembershipInline]


@admin.register(SeasonMembership)
class SeasonMembershipAdmin(ViewOnly, admin.ModelAdmin):
    list_display = ("division", "seed_position", "player", "origin", "final_rank")
    list_filter = ("season", "origin")
    search_fields = ("player__last_name", "player__first_name")
    autocomplete_fields = ("player",)


@admin.register(Matchday)
class MatchdayAdmin(ViewOnly, admin.ModelAdmin):
    list_display = ("season", "number", "date", "event")
    list_filter = ("season",)


class CupSeriesEventInline(ViewOnly, admin.TabularInline):
    model = CupSeriesEvent
    extra = 0
    autocomplete_fields = ("event",)


class CupPointsInline(ViewOnly, admin.TabularInline):
    model = CupPoints
    extra = 0


@admin.register(CupSeries)
class CupSeriesAdmin(ViewOnly, admin.ModelAdmin):
    list_display = ("name", "slug", "season_label", "best_results_counted", "final_counts_extra")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("organisers",)
    inlines = [CupSeriesEventInline, CupPointsInline]
