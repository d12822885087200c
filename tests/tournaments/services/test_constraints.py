"""The database itself refuses what breaks an identity rule, whatever code writes it."""

import pytest
from django.db import IntegrityError, transaction

from sample_data.factories import EventFactory, PlayerFactory, RegistrationFactory
from tournaments.models import Round, Seat, Table

pytestmark = pytest.mark.django_db


def _round(event, number=1):
    return Round.objects.create(event=event, number=number, seating_system="random", seed=1)


def test_duplicate_start_number_is_refused():
    event = EventFactory()
    RegistrationFactory(event=event, start_number=7)
    with pytest.raises(IntegrityError), transaction.atomic():
        RegistrationFactory(event=event, start_number=7)


def test_same_player_registered_twice_is_refused():
    event = EventFactory()
    player = PlayerFactory()
    RegistrationFactory(event=event, player=player, start_number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        RegistrationFactory(event=event, player=player, start_number=2)


def test_second_round_with_the_same_number_is_refused():
    event = EventFactory()
    _round(event, 1)
    with pytest.raises(IntegrityError), transaction.atomic():
        _round(event, 1)


def test_a_player_sits_at_most_once_per_round():
    event = EventFactory()
    reg = RegistrationFactory(event=event)
    rnd = _round(event)
    t1 = Table.objects.create(round=rnd, number=1)
    t2 = Table.objects.create(round=rnd, number=2)
    Seat.objects.create(round=rnd, table=t1, registration=reg, position=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(round=rnd, table=t2, registration=reg, position=0)


def test_two_players_cannot_share_a_seat():
    event = EventFactory()
    a, b = RegistrationFactory(event=event), RegistrationFactory(event=event)
    rnd = _round(event)
    table = Table.objects.create(round=rnd, number=1)
    Seat.objects.create(round=rnd, table=table, registration=a, position=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(round=rnd, table=table, registration=b, position=0)


def test_duplicate_table_number_in_a_round_is_refused():
    rnd = _round(EventFactory())
    Table.objects.create(round=rnd, number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.create(round=rnd, number=1)


def test_event_dates_must_be_ordered():
    import datetime as dt

    with pytest.raises(IntegrityError), transaction.atomic():
        EventFactory(starts_on=dt.date(2026, 5, 2), ends_on=dt.date(2026, 5, 1))


def test_a_round_number_is_positive():
    with pytest.raises(IntegrityError), transaction.atomic():
        _round(EventFactory(), 0)
