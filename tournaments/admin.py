"""Admin pages for every tournament model, with the searches, filters and inlines an
organiser looks for, to look at and not to write: results, seating, the registry, the
officials and the trail change through the services only, which check the change, keep the
carried totals and the public pages in step and write the audit entry (the organiser's and
the referee's pages, the API). An event may still be deleted here, one at a time and not
while it is run at a venue, before an archive of it is imported again (docs/backups.md)."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tournaments.domain import lifecycle
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


class ViewOnly:
    """An admin page or inline that shows and never writes (the services write: module
    docstring)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class DeletedWhole:
    """An admin page whose object the site's superuser may delete with what belongs to it
    (an event with its registrations, a season with its divisions), before its archive is
    imported again (docs/backups.md, "Restoring from archives"). What goes with it is listed,
    not asked for one by one: the pages of its parts are view-only. What protects itself
    still refuses (a seat its registration)."""

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> tuple:
        deleted, counts, _parts_not_deletable_alone, protected = super().get_deleted_objects(  # type: ignore[misc]
            objs, request)
        return deleted, counts, set(), protected


@admin.register(Player)
class PlayerAdmin(ViewOnly, admin.ModelAdmin):
    list_display = ("last_name", "first_name", "club", "country", "federation_id")
    search_fields = ("last_name", "first_name", "club", "federation_id")
    list_filter = ("country",)


class RegistrationInline(ViewOnly, admin.TabularInline):
    model = Registration
    extra = 0
    autocomplete_fields = ("player",)
    fields = ("start_number", "player", "status", "tournament_points", "score")


@admin.register(Event)
class EventAdmin(DeletedWhole, ViewOnly, admin.ModelAdmin):
    list_display = ("name", "slug", "starts_on", "ruleset_code", "ruleset_mode", "seating_system",
                    "status", "is_public")
    list_filter = ("status", "ruleset_code", "seating_system", "is_public")
    search_fields = ("name", "slug", "venue")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("organisers", "referees")
    inlines = [RegistrationInline]
    date_hierarchy = "starts_on"

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Not an event run at a venue now (lifecycle.deletable_here).
        return super().has_delete_permission(request, obj) and (
            obj is None or lifecycle.deletable_here(lifecycle.hold_of(obj.pk)))

    def get_actions(self, request: HttpRequest) -> dict:
        # One event at a time, on its own page, where the check above sees which one.
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions


@admin.register(Registration)
class RegistrationAdmin(ViewOnly, admin.ModelAdmin):
    list_display = ("event", "start_number", "player", "status", "tournament_points", "score")
    list_filter = ("status", "event")
    search_fields = ("player__last_name", "player__first_name", "event__name")
    autocomplete_fields = ("player", "event")
    # The player's address and his messages are his own choice on his personal page, shown to
    # nobody (issue #31): not to the site's staff either.
    exclude = ("email", "round_messages", "correction_messages", "message_language")


class TableInline(ViewOnly, admin.TabularInline):
    model = Table
    extra = 0
    show_change_link = True


@admin.register(Round)
class RoundAdmin(ViewOnly, admin.ModelAdmin):
    list_display = ("event", "number", "status", "seating_system", "seed", "repeat_pairs")
    list_filter = ("status", "seating_system", "event")
    search_fields = ("event__name",)
    inlines = [TableInline]


class SeatInline(ViewOnly, admin.TabularInline):
    model = Seat
    extra = 0
    autocomplete_fields = ("registration",)
    fields = ("position", "registration")


@admin.register(Table)
class TableAdmin(ViewOnly, admin.ModelAdmin):
    list_display = ("round", "number", "section")
    list_filter = ("round__event",)
    inlines = [SeatInline]


class HandInline(ViewOnly, admin.TabularInline):
    model = Hand
    extra = 0
    fields = ("number", "record", "value", "scores", "running_totals", "entered_by", "confirmed_by")
    readonly_fields = ("value", "scores", "running_totals")


class MoneySheetRowInline(ViewOnly, admin.TabularInline):
    model = MoneySheetRow
    extra = 0


@admin.register(Scorecard)
class ScorecardAdmin(ViewOnly, admin.ModelAdmin):
    list_display = ("table", "ruleset_code", "ruleset_mode", "status", "version")
    list_filter = ("status", "ruleset_code", "table__round__event")
    inlines = [HandInline, MoneySheetRowInline]
    readonly_fields = ("version", "totals", "state")


@admin.register(Hand)
class HandAdmin(ViewOnly, admin.ModelAdmin):
    list_display = ("scorecard", "number", "value", "entered_by", "confirmed_by")
    list_filter = ("scorecard__table__round__event",)


@admin.register(Penalty)
class PenaltyAdmin(ViewOnly, admin.ModelAdmin):
    list_display = ("event", "table", "registration", "kind", "recorded_by", "created_at")
    list_filter = ("kind", "event")
    search_fields = ("registration__player__last_name", "description")


@admin.register(Dispute)
class DisputeAdmin(ViewOnly, admin.ModelAdmin):
    list_display = ("event", "table", "status", "raised_at", "decided_by")
    list_filter = ("status", "event")
    search_fields = ("description", "decision")


@admin.register(StandingsAdjustment)
class StandingsAdjustmentAdmin(ViewOnly, admin.ModelAdmin):
    list_display = ("event", "registration", "points_delta", "score_delta", "created_by", "created_at")
    list_filter = ("event",)


@admin.register(Job)
class JobAdmin(ViewOnly, admin.ModelAdmin):
    list_display = ("kind", "key", "event", "status", "progress", "total", "updated_at")
    list_filter = ("kind", "status")
    readonly_fields = ("key", "kind", "event", "status", "progress", "total", "message", "result")


@admin.register(AuditEntry)
class AuditEntryAdmin(ViewOnly, admin.ModelAdmin):
    list_display = ("created_at", "actor_label", "action", "object_repr", "event", "reason")
    list_filter = ("action", "event")
    search_fields = ("object_repr", "reason", "actor_label")
    date_hierarchy = "created_at"
