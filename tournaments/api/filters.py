"""Query-string filters of the API's lists (django-filter): events by status, ruleset and
date; registrations by status and a search; players by a search (both forgiving case,
diacritics and word order: tournaments.domain.search); penalties, disputes and audit entries by what
a referee looks for."""

from __future__ import annotations

import django_filters
from django.db.models import QuerySet

from tournaments.domain import search
from tournaments.models import AuditEntry, Dispute, Event, Penalty, Player, Registration


class EventFilter(django_filters.FilterSet):
    starts_after = django_filters.DateFilter(field_name="starts_on", lookup_expr="gte")
    starts_before = django_filters.DateFilter(field_name="starts_on", lookup_expr="lte")
    name = django_filters.CharFilter(field_name="name", lookup_expr="icontains")

    class Meta:
        model = Event
        fields = ["status", "ruleset_code", "seating_system", "starts_after", "starts_before", "name"]


class RegistrationFilter(django_filters.FilterSet):
    search = django_filters.CharFilter(
        method="filter_search",
        label="a start number, or words of the player's name (case, diacritics and order free)")

    class Meta:
        model = Registration
        fields = ["status", "search"]

    def filter_search(self, queryset: QuerySet[Registration], name: str, value: str
                      ) -> QuerySet[Registration]:
        return queryset.filter(search.registration_q(value)) if value.strip() else queryset


class PlayerFilter(django_filters.FilterSet):
    search = django_filters.CharFilter(
        method="filter_search",
        label="words of a name or a club (case, diacritics and order free), or a federation id")

    class Meta:
        model = Player
        fields = ["search", "country", "club"]

    def filter_search(self, queryset: QuerySet[Player], name: str, value: str) -> QuerySet[Player]:
        if not value.strip():
            return queryset
        return queryset.filter(search.player_q(value, clubs=True, federation_id=True))


class PenaltyFilter(django_filters.FilterSet):
    round = django_filters.NumberFilter(field_name="table__round__number")

    class Meta:
        model = Penalty
        fields = ["kind", "round"]


class DisputeFilter(django_filters.FilterSet):
    class Meta:
        model = Dispute
        fields = ["status"]


class AuditFilter(django_filters.FilterSet):
    action = django_filters.CharFilter(field_name="action")
    round = django_filters.NumberFilter(field_name="table__round__number")
    table = django_filters.NumberFilter(field_name="table__number")

    class Meta:
        model = AuditEntry
        fields = ["action", "round", "table"]
