"""factory_boy factories for the domain models (users, players, events, registrations), used
by the tests and by the benchmarks of bench/."""

from __future__ import annotations

import datetime as dt

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from tournaments.models import Event, Player, Registration


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("secret-pass-123")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    first_name = factory.Faker("first_name")
    last_name = factory.Sequence(lambda n: f"Player{n:03d}")
    club = "TK Test"
    country = "SI"


class EventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Event

    name = factory.Sequence(lambda n: f"Test event {n}")
    slug = factory.Sequence(lambda n: f"test-event-{n}")
    venue = "Ljubljana"
    starts_on = dt.date(2026, 11, 21)
    ends_on = dt.date(2026, 11, 21)
    ruleset_code = "tarok-net-2007"
    ruleset_mode = "tri+1"
    seating_system = "points"
    planned_rounds = 3
    hands_per_round = 24


class RegistrationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Registration

    event = factory.SubFactory(EventFactory)
    player = factory.SubFactory(PlayerFactory)
    start_number = factory.Sequence(lambda n: n + 1)


def allow_event_creation(user):
    """Give `user` the right to create events (as an administrator does in the admin)."""
    if user is not None:
        user.user_permissions.add(Permission.objects.get(codename="add_event",
                                                         content_type__app_label="tournaments"))
        # Django caches a user's permissions on the object.
        for cache in ("_perm_cache", "_user_perm_cache"):
            user.__dict__.pop(cache, None)
    return user
