"""The Django admin shows the tournaments' and the leagues' data and writes none of it: a
change there would pass the services' checks, the carried totals and the audit trail
(tournaments.admin). The one write left is deleting an event or a season whole, by the site's
superuser, before its archive is imported again (docs/backups.md)."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client, RequestFactory
from django.urls import reverse

from sample_data import printouts
from tournaments.models import AuditEntry, Event, Hand, Registration

pytestmark = pytest.mark.django_db

APPS = ("tournaments", "leagues")


@pytest.fixture
def superuser():
    return get_user_model().objects.create_superuser("boss", "boss@example.org", "x")


@pytest.fixture
def boss(superuser) -> Client:
    client = Client()
    client.force_login(superuser)
    return client


@pytest.fixture
def played():
    """An event with round 1 seated and one table's card played and confirmed."""
    event = printouts.slovenian_event(slug="admin-looks", tables=2)
    rnd = printouts.seat(event, 1)
    printouts.play_tri1_table(rnd.tables.get(number=1))
    return event


def _registered():
    return [(model, model_admin) for model, model_admin in admin.site._registry.items()
            if model._meta.app_label in APPS]


def test_every_page_of_the_tournaments_and_leagues_is_view_only(boss, superuser, played):
    request = RequestFactory().get("/admin/")
    request.user = superuser
    registered = _registered()
    assert len(registered) >= 18
    for model, model_admin in registered:
        opts = model._meta
        assert boss.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_add")).status_code == 403, model
        obj = model._default_manager.first()
        if obj is not None:
            change = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk])
            assert boss.get(change).status_code == 200, model  # shown
            assert boss.post(change, {}).status_code == 403, model  # not written
        for inline in model_admin.get_inline_instances(request, obj):
            assert not inline.has_change_permission(request, obj), inline


def test_a_hand_and_a_carried_total_cannot_be_changed_in_the_admin(boss, played):
    hand = Hand.objects.filter(scorecard__table__round__event=played).first()
    registration = Registration.objects.get(event=played, start_number=1)
    entries = AuditEntry.objects.count()
    answer = boss.post(reverse("admin:tournaments_hand_change", args=[hand.pk]),
                       {"number": hand.number, "record": '{"game": "klop"}', "scorecard": hand.scorecard_id})
    assert answer.status_code == 403
    answer = boss.post(reverse("admin:tournaments_registration_change", args=[registration.pk]),
                       {"tournament_points": "99", "score": "999", "status": "withdrawn"})
    assert answer.status_code == 403
    hand_after = Hand.objects.get(pk=hand.pk)
    registration_after = Registration.objects.get(pk=registration.pk)
    assert hand_after.record == hand.record
    assert (registration_after.tournament_points, registration_after.score, registration_after.status) == (
        registration.tournament_points, registration.score, registration.status)
    assert AuditEntry.objects.count() == entries


def test_the_superuser_deletes_an_event_whole_with_its_registrations(boss):
    """Its registrations go with it, though their own pages delete nothing. (A seated event
    is refused, as before: a seat protects its registration.)"""
    event = printouts.slovenian_event(slug="admin-deletes", tables=2)
    delete = reverse("admin:tournaments_event_delete", args=[event.pk])
    assert boss.get(delete).status_code == 200
    assert boss.post(delete, {"post": "yes"}).status_code == 302
    assert not Event.objects.filter(pk=event.pk).exists()
    assert not Registration.objects.filter(event_id=event.pk).exists()


def test_staff_who_is_not_superuser_deletes_nothing(played):
    staff = get_user_model().objects.create_user("staff", "staff@example.org", "x", is_staff=True)
    staff.user_permissions.add(*Permission.objects.filter(content_type__app_label="tournaments"))
    client = Client()
    client.force_login(staff)
    delete = reverse("admin:tournaments_event_delete", args=[played.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    assert Event.objects.filter(pk=played.pk).exists()


@pytest.mark.parametrize(("side", "revoked", "deletable"), [
    ("lent", False, False),   # the server that lent it: the laptop's pushes would find nothing
    ("held", False, False),   # the laptop that writes it: the server waits for its pushes
    ("held", True, True),     # the laptop's copy of an event that went back to the server
])
def test_an_event_run_at_a_venue_is_not_deleted_in_the_admin(boss, side, revoked, deletable):
    from django.utils import timezone

    from tournaments.models import VenueHold

    event = printouts.slovenian_event(slug=f"admin-venue-{side}-{revoked}", tables=2)
    VenueHold.objects.create(event=event, side=side, key="k" * 64,
                             revoked_at=timezone.now() if revoked else None)
    delete = reverse("admin:tournaments_event_delete", args=[event.pk])
    assert boss.get(delete).status_code == (200 if deletable else 403)
    assert boss.post(delete, {"post": "yes"}).status_code == (302 if deletable else 403)
    assert Event.objects.filter(pk=event.pk).exists() is not deletable


def test_events_are_not_deleted_in_bulk_in_the_admin(boss):
    """The list's bulk delete would pass the check of each event's own page."""
    printouts.slovenian_event(slug="admin-bulk", tables=2)
    page = boss.get(reverse("admin:tournaments_event_changelist"))
    assert page.status_code == 200
    assert b"delete_selected" not in page.content
