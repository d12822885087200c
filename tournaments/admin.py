"""Admin pages for every tournament model, with the searches, filters and inlines an
organiser looks for. Audit entries are read-only: the trail is written by services only."""

from django.contrib import admin

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
    StandingsAdjustment,
    Table,
)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("last_name", "first_name", "club", "country", "federation_id")
    search_fields = ("last_name", "first_name", "club", "federation_id")
    list_filter = ("country",)


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    autocomplete_fields = ("player",)
    fields = ("start_number", "player", "status", "tournament_points", "score")


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "starts_on", "ruleset_code", "ruleset_mode", "seating_system",
                    "status", "is_public")
    list_filter = ("status", "ruleset_code", "seating_system", "is_public")
    search_fields = ("name", "slug", "venue")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("organisers", "referees")
    inlines = [RegistrationInline]
    date_hierarchy = "starts_on"


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ("event", "start_number", "player", "status", "tournament_points", "score")
    list_filter = ("status", "event")
    search_fields = ("player__last_name", "player__first_name", "event__name")
    autocomplete_fields = ("player", "event")
    # The player's address and his messages are his own choice on his personal page, shown to
    # nobody (issue #31): not to the site's staff either.
    exclude = ("email", "round_messages", "correction_messages", "message_language")


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    show_change_link = True


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("event", "number", "status", "seating_system", "seed", "repeat_pairs")
    list_filter = ("status", "seating_system", "event")
    search_fields = ("event__name",)
    inlines = [TableInline]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    autocomplete_fields = ("registration",)
    fields = ("position", "registration")


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("round", "number", "section")
    list_filter = ("round__event",)
    inlines = [SeatInline]


class HandInline(admin.TabularInline):
    model = Hand
    extra = 0
    fields = ("number", "record", "value", "scores", "running_totals", "entered_by", "confirmed_by")
    readonly_fields = ("value", "scores", "running_totals")


class MoneySheetRowInline(admin.TabularInline):
    model = MoneySheetRow
    extra = 0


@admin.register(Scorecard)
class ScorecardAdmin(admin.ModelAdmin):
    list_display = ("table", "ruleset_code", "ruleset_mode", "status", "version")
    list_filter = ("status", "ruleset_code", "table__round__event")
    inlines = [HandInline, MoneySheetRowInline]
    readonly_fields = ("version", "totals", "state")


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ("scorecard", "number", "value", "entered_by", "confirmed_by")
    list_filter = ("scorecard__table__round__event",)


@admin.register(Penalty)
class PenaltyAdmin(admin.ModelAdmin):
    list_display = ("event", "table", "registration", "kind", "recorded_by", "created_at")
    list_filter = ("kind", "event")
    search_fields = ("registration__player__last_name", "description")


@admin.register(Dispute)
class DisputeAdmin(admin.ModelAdmin):
    list_display = ("event", "table", "status", "raised_at", "decided_by")
    list_filter = ("status", "event")
    search_fields = ("description", "decision")


@admin.register(StandingsAdjustment)
class StandingsAdjustmentAdmin(admin.ModelAdmin):
    list_display = ("event", "registration", "points_delta", "score_delta", "created_by", "created_at")
    list_filter = ("event",)


@admin.register(Job)
class JobAdmin(admin.ModelAdmin):
    list_display = ("kind", "key", "event", "status", "progress", "total", "updated_at")
    list_filter = ("kind", "status")
    readonly_fields = ("key", "kind", "event", "status", "progress", "total", "message", "result")


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("created_at", "actor_label", "action", "object_repr", "event", "reason")
    list_filter = ("action", "event")
    search_fields = ("object_repr", "reason", "actor_label")
    date_hierarchy = "created_at"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
