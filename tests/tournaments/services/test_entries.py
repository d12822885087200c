"""Online entry (issue #31): a player enters an event himself, with no account. Read as the
mail server gets the e-mails (a real SMTP server in the test process, `smtp`), and as the
database holds the entries, registrations and players.

An unconfirmed address never takes a place; a cap holds, and the waiting list moves up, in its
order, when a place becomes free (and its first is told); a returning player is recognised,
never duplicated, and an uncertain match is left to the organiser; robots, repeats and floods
are refused with nothing kept; without a mail server every entry waits for the organiser."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from tests.tournaments.pages.support import make_event, make_user
from tournaments import services
from tournaments.errors import Forbidden, ServiceError, TooManyAttempts
from tournaments.models import AuditEntry, Entry, Event, Player, PlayerLink, Registration
from tournaments.services import entries

pytestmark = pytest.mark.django_db

E = Entry.Status
BASE = "http://turnir.example.org"


@pytest.fixture
def boss():
    return make_user("boss")


def _event(boss, **entry_settings) -> Event:
    event = make_event(boss, slug="open", players=0, status=Event.Status.REGISTRATION)
    settings = {"online_entry": True, "entry_approval": False, **entry_settings}
    return services.event_update(event=event, actor=boss, **settings)


def _values(first: str, last: str, **more) -> dict:
    return {"first_name": first, "last_name": last, "club": more.pop("club", "TK Ljubljana"),
            "country": "SI", "email": more.pop("email", f"{first.lower()}@example.org"),
            "language": more.pop("language", "en"), "consent": True, **more}


def _enter(event, first: str, last: str, client: str = "10.0.0.1", **more) -> Entry:
    return entries.entry_submit(event=event, values=_values(first, last, **more), client=client,
                                base_url=BASE, actor=AnonymousUser())


def _confirm(entry: Entry, capture) -> Entry:
    with capture(execute=True):
        return entries.entry_confirm(token=entry.token)


def _body(mail) -> str:
    return mail.get_body(preferencelist=("plain",)).get_content()


def _link_in(mail) -> str:
    return re.search(r"http://turnir\.example\.org/\S+", _body(mail))[0]


def test_the_address_is_confirmed_by_the_mailed_link_and_only_then_the_entry_counts(
        smtp, boss, django_capture_on_commit_callbacks):
    event = _event(boss, entry_cap=1)
    with django_capture_on_commit_callbacks(execute=True):
        ana = _enter(event, "Ana", "Novak", language="sl")
        bor = _enter(event, "Bor", "Kranjc")
    assert ana.status == bor.status == E.UNCONFIRMED
    assert not event.registrations.exists()
    # The link went to the address only, in the language chosen.
    mail = smtp.to("ana@example.org")[0]
    assert "potrdite" in mail["Subject"].lower()
    assert _link_in(mail) == f"{BASE}/e/open/entry/{ana.token}/"
    # Bor confirms first and takes the only place; Ana's unconfirmed entry took none.
    _confirm(bor, django_capture_on_commit_callbacks)
    assert Entry.objects.get(pk=bor.pk).status == E.ACCEPTED
    _confirm(ana, django_capture_on_commit_callbacks)
    assert Entry.objects.get(pk=ana.pk).status == E.WAITING
    assert list(event.registrations.values_list("player__last_name", flat=True)) == ["Kranjc"]
    # Bor's message carries his personal link (the address is his, he confirmed it).
    placed = [m for m in smtp.to("bor@example.org") if "place" in m["Subject"]][0]
    token = PlayerLink.objects.get(registration__player__last_name="Kranjc").token
    assert f"{BASE}/p/{token}/" in _body(placed)
    waiting = [m for m in smtp.to("ana@example.org") if m is not mail][0]
    assert "na čakalnem seznamu ste 1." in _body(waiting)


def test_a_confirmed_entry_twice_is_nothing_and_an_expired_link_is_refused(
        smtp, boss, django_capture_on_commit_callbacks):
    event = _event(boss)
    ana = _enter(event, "Ana", "Novak")
    _confirm(ana, django_capture_on_commit_callbacks)
    _confirm(ana, django_capture_on_commit_callbacks)  # a second click
    assert event.registrations.count() == 1
    old = _enter(event, "Bor", "Kranjc")
    Entry.objects.filter(pk=old.pk).update(confirm_by=timezone.now() - dt.timedelta(minutes=1))
    with pytest.raises(ServiceError) as refused:
        entries.entry_confirm(token=old.token)
    assert refused.value.errors[0]["code"] == "link_expired"
    assert event.registrations.count() == 1
    # He enters again; the new link works.
    again = _enter(event, "Bor", "Kranjc")
    _confirm(again, django_capture_on_commit_callbacks)
    assert event.registrations.count() == 2


def test_entering_again_before_confirming_replaces_the_first_entry(smtp, boss):
    event = _event(boss)
    first = _enter(event, "Ana", "Novak")
    second = _enter(event, "Ana", "Novak")
    assert Entry.objects.get(pk=first.pk).status == E.EXPIRED
    assert Entry.objects.get(pk=second.pk).status == E.UNCONFIRMED


def test_with_approval_the_entry_waits_for_the_organiser_who_approves_or_refuses(
        smtp, boss, django_capture_on_commit_callbacks):
    event = _event(boss, entry_approval=True, entry_cap=1)
    ana, bor, cene = (_enter(event, n, "Novak" + n) for n in ("Ana", "Bor", "Cene"))
    for entry in (ana, bor, cene):
        _confirm(entry, django_capture_on_commit_callbacks)
    assert set(event.entries.values_list("status", flat=True)) == {E.PENDING}
    assert "received" in smtp.to("ana@example.org")[-1]["Subject"]
    with django_capture_on_commit_callbacks(execute=True):
        entries.entry_approve(entry=ana, actor=boss)
        entries.entry_approve(entry=bor, actor=boss)  # full: the waiting list
        entries.entry_refuse(entry=cene, actor=boss)
    assert Entry.objects.get(pk=ana.pk).status == E.ACCEPTED
    assert Entry.objects.get(pk=bor.pk).status == E.WAITING
    assert "not accepted" in smtp.to("cene@example.org")[-1]["Subject"]
    actions = set(AuditEntry.objects.filter(event=event).values_list("action", flat=True))
    assert {"entry.create", "entry.confirm", "entry.approve", "entry.refuse"} <= actions
    # Nobody else decides.
    with pytest.raises(Forbidden):
        entries.entry_refuse(entry=Entry.objects.get(pk=bor.pk), actor=make_user("stranger"))


def test_a_withdrawal_moves_the_first_of_the_waiting_list_up_and_tells_him(
        smtp, boss, django_capture_on_commit_callbacks):
    event = _event(boss, entry_cap=2)
    placed = [_enter(event, n, "Novak") for n in ("Ana", "Bor")]
    waiting = [_enter(event, n, "Novak") for n in ("Cene", "Dana")]
    for entry in (*placed, *waiting):
        _confirm(entry, django_capture_on_commit_callbacks)
    assert [e.status for e in Entry.objects.filter(pk__in=[w.pk for w in waiting])] == [E.WAITING] * 2
    ana = Registration.objects.get(event=event, player__first_name="Ana")
    with django_capture_on_commit_callbacks(execute=True):
        services.registration_set_status(registration=ana, status=Registration.Status.WITHDRAWN,
                                         actor=boss)
    cene, dana = (Entry.objects.get(pk=w.pk) for w in waiting)
    assert cene.status == E.ACCEPTED and dana.status == E.WAITING
    moved = smtp.to("cene@example.org")[-1]
    assert "yours" in moved["Subject"] and f"/p/{PlayerLink.objects.get(registration=cene.registration).token}/" in _body(moved)
    # A larger cap gives its place to the next.
    with django_capture_on_commit_callbacks(execute=True):
        services.event_update(event=event, actor=boss, entry_cap=3)
    assert Entry.objects.get(pk=dana.pk).status == E.ACCEPTED


def test_the_waiting_list_stops_moving_once_the_first_round_is_drawn(
        smtp, boss, django_capture_on_commit_callbacks):
    event = _event(boss, entry_cap=4)
    people = [_enter(event, n, "Novak") for n in ("Ana", "Bor", "Cene", "Dana", "Ema")]
    for entry in people:
        _confirm(entry, django_capture_on_commit_callbacks)
    services.round_store(event=event, number=1, seating_system="points", seed=1,
                         tables=[["1", "2", "3", "4"]], actor=boss)
    reg = Registration.objects.get(event=event, start_number=1)
    services.registration_set_status(registration=reg, status=Registration.Status.WITHDRAWN, actor=boss)
    assert Entry.objects.get(pk=people[4].pk).status == E.WAITING
    with pytest.raises(ServiceError) as refused:
        _enter(event, "Fran", "Novak")
    assert refused.value.errors[0]["code"] == "entries_closed"


def test_a_returning_player_is_recognised_by_his_federation_id_never_duplicated(
        smtp, boss, django_capture_on_commit_callbacks):
    event = _event(boss)
    known = services.player_create(first_name="Ana", last_name="Novak", club="TK Celje",
                                   federation_id="SLO-7", actor=boss)
    entry = _enter(event, "ana", "novak", club="Celje", federation_id="SLO-7")
    assert entry.match == Entry.Match.FEDERATION_ID and entry.player == known
    _confirm(entry, django_capture_on_commit_callbacks)
    assert event.registrations.get().player == known
    assert Player.objects.filter(last_name__iexact="novak").count() == 1
    # And the same player entering again is recognised.
    with pytest.raises(ServiceError) as twice:
        _enter(event, "Ana", "Novak", club="TK Celje", email="other@example.org")
    assert twice.value.errors[0]["code"] == "already_entered"


def test_an_uncertain_match_is_left_to_the_organiser(smtp, boss, django_capture_on_commit_callbacks):
    event = _event(boss)  # accepting at once, yet this one waits
    services.player_create(first_name="Ana", last_name="Novak", federation_id="SLO-7", actor=boss)
    entry = _enter(event, "Bor", "Kranjc", federation_id="SLO-7")
    assert entry.match == Entry.Match.UNCERTAIN and entry.player is None
    _confirm(entry, django_capture_on_commit_callbacks)
    entry.refresh_from_db()
    assert entry.status == E.PENDING
    with pytest.raises(ServiceError) as unsure:
        entries.entry_approve(entry=entry, actor=boss)
    assert unsure.value.errors[0]["code"] == "uncertain_player"
    # The id is another player's: a new player is refused by the registry at that field.
    with pytest.raises(ServiceError) as taken:
        entries.entry_approve(entry=entry, actor=boss, new_player=True)
    assert taken.value.errors[0]["field"] == "federation_id"
    assert not event.registrations.exists()


def test_two_namesakes_in_the_registry_are_the_organisers_choice(
        smtp, boss, django_capture_on_commit_callbacks):
    event = _event(boss)
    first = services.player_create(first_name="Ana", last_name="Novak", club="TK Celje", actor=boss)
    services.player_create(first_name="Ana", last_name="Novak", club="TK Celje", actor=boss)
    entry = _enter(event, "Ana", "Novak", club="TK Celje")
    _confirm(entry, django_capture_on_commit_callbacks)
    entry.refresh_from_db()
    assert entry.status == E.PENDING and entry.match == Entry.Match.UNCERTAIN
    entries.entry_approve(entry=entry, actor=boss, use_player=first)
    assert event.registrations.get().player == first


def test_robots_floods_and_bad_fields_are_refused_with_nothing_kept(smtp, boss, settings):
    event = _event(boss)
    with pytest.raises(ServiceError) as robot:
        entries.entry_submit(event=event, values=_values("Spam", "Bot"), client="10.0.0.9",
                             base_url=BASE, honeypot="http://spam.example",
                             actor=AnonymousUser())
    assert robot.value.errors[0]["code"] == "refused"
    with pytest.raises(ServiceError) as bad:
        entries.entry_submit(event=event, values={**_values("", "Novak"), "email": "nope",
                                                  "consent": False, "country": "Atlantis"},
                             client="10.0.0.2", base_url=BASE, actor=AnonymousUser())
    fields = {e["field"] for e in bad.value.errors}
    assert {"first_name", "email", "consent", "country"} <= fields
    assert not Entry.objects.exists() and not smtp.mails
    settings.ENTRY_ADDRESS_LIMIT = 2
    _enter(event, "Ana", "Novak", client="10.0.0.3")
    _enter(event, "Bor", "Novak", client="10.0.0.3")
    with pytest.raises(TooManyAttempts):
        _enter(event, "Cene", "Novak", client="10.0.0.3")
    settings.ENTRY_EMAIL_LIMIT = 1
    _enter(event, "Dana", "Novak", client="10.0.0.4", email="same@example.org")
    with pytest.raises(TooManyAttempts):
        _enter(event, "Ema", "Novak", client="10.0.0.5", email="SAME@example.org")
    assert Entry.objects.count() == 3


def test_without_a_mail_server_every_entry_waits_for_the_organiser(settings, boss):
    settings.EMAIL_CONFIGURED = False
    event = _event(boss)  # "accept at once" needs a confirmed address
    entry = entries.entry_submit(event=event, values={**_values("Ana", "Novak"), "email": ""},
                                 client="10.0.0.1", base_url=BASE, actor=AnonymousUser())
    assert entry.status == E.PENDING and entry.counted_at is not None
    entries.entry_approve(entry=entry, actor=boss)
    reg = event.registrations.get()
    assert reg.player.last_name == "Novak" and PlayerLink.objects.filter(registration=reg).exists()
    # The new player is entered for the registry's owners by the organiser who approved him.
    assert reg.player.created_by == boss


def test_entries_follow_the_events_settings(smtp, boss):
    event = _event(boss, online_entry=False)
    with pytest.raises(ServiceError) as off:
        _enter(event, "Ana", "Novak")
    assert off.value.errors[0]["code"] == "entries_not_online"
    services.event_update(event=event, actor=boss, online_entry=True,
                          entry_deadline=timezone.now() - dt.timedelta(hours=1))
    with pytest.raises(ServiceError) as late:
        _enter(event, "Ana", "Novak")
    assert late.value.errors[0]["code"] == "deadline_passed"
    services.event_update(event=event, actor=boss, entry_deadline=None, entry_federation_id=True)
    with pytest.raises(ServiceError) as no_id:
        _enter(event, "Ana", "Novak")
    assert no_id.value.errors[0]["field"] == "federation_id"
    services.event_update(event=event, actor=boss, is_public=False)
    with pytest.raises(ServiceError) as private:
        _enter(event, "Ana", "Novak", federation_id="1")
    assert private.value.status == 404


def test_the_player_withdraws_or_sits_out_himself_only_where_the_event_allows_it(
        smtp, boss, django_capture_on_commit_callbacks):
    event = _event(boss, entry_cap=1)
    ana, bor = _enter(event, "Ana", "Novak"), _enter(event, "Bor", "Novak")
    _confirm(ana, django_capture_on_commit_callbacks)
    _confirm(bor, django_capture_on_commit_callbacks)
    link = PlayerLink.objects.get(registration__entry__pk=ana.pk)
    with pytest.raises(Forbidden):
        entries.withdraw_self(link=link)
    services.event_update(event=event, actor=boss, players_may_withdraw=True)
    entries.absent_self(link=link, number=1, absent=True)
    assert Registration.objects.get(pk=link.registration_id).absent_rounds == [1]
    with django_capture_on_commit_callbacks(execute=True):
        entries.withdraw_self(link=link)
    assert Registration.objects.get(pk=link.registration_id).status == Registration.Status.WITHDRAWN
    assert Entry.objects.get(pk=bor.pk).status == E.ACCEPTED
    entry = AuditEntry.objects.filter(action="registration.status").latest("pk")
    assert entry.actor is None and entry.actor_label == "#1 Ana Novak"
    # An entry that waits is withdrawn through its own page.
    cene = _enter(event, "Cene", "Novak")
    entries.entry_withdraw(token=cene.token)
    assert Entry.objects.get(pk=cene.pk).status == E.WITHDRAWN


def test_the_trail_never_holds_the_address(smtp, boss, django_capture_on_commit_callbacks):
    event = _event(boss)
    entry = _enter(event, "Ana", "Novak", email="secret-ana@example.org")
    _confirm(entry, django_capture_on_commit_callbacks)
    for row in AuditEntry.objects.all():
        assert "secret-ana" not in f"{row.before} {row.after} {row.actor_label} {row.object_repr}"
