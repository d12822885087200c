"""Absentees: a player who misses a round and stays in the event (issue #21, finding 10).

Seed 000 §4.1 b: "Ta sistem je primeren kadar udeležba igralcev ni predvidljiva (eni odidejo
predčasno, eni pridejo naknadno) ... Naslednji krogi se formirajo avtomatsko in sicer tako, da
se za 1. mizo zberajo tisti, ki imajo zbranih največ točk in so tekmovali v predhodnem krogu,
za 2. mizo naslednji štirje, itd. Nato sledijo novo prijavljeni in nato glede na zbrane skupne
točke tisti, ki v zadnjem krogu niso tekmovali."
"""

from __future__ import annotations

import pytest

from tests.tournaments.formats.support import new_event, run_round, seated
from tests.tournaments.pages.support import client_for
from tournaments import selectors
from tournaments.domain.lifecycle import SitsOut
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Registration
from tournaments.services import checkin


def _by_start_number(table_number, players):
    return sorted(players, key=int)


def test_an_absent_player_sits_out_his_round_and_is_seated_after_those_who_played(db, django_capture_on_commit_callbacks):
    event, organiser, referee = new_event("absent", 8, planned_rounds=3)
    run_round(event, organiser, referee, django_capture_on_commit_callbacks, _by_start_number)
    # After round 1: 1 and 5 have 4 points, 2 and 6 three, 3 and 7 two, 4 and 8 one.
    three = event.registrations.get(start_number=3)
    checkin.registration_set_absent(registration=three, number=2, absent=True,
                                             actor=organiser)
    seated_next, sitting_out = selectors.seating_pool(event)
    assert (three.pk, SitsOut.ABSENT) in [(reg.pk, why) for reg, why in sitting_out]
    assert three.pk not in [reg.pk for reg in seated_next]
    entry = AuditEntry.objects.get(action="registration.absent")
    assert entry.after == {"absent_rounds": [2]}

    round2 = run_round(event, organiser, referee, django_capture_on_commit_callbacks, _by_start_number)
    assert "3" not in sum(seated(round2), [])
    three.refresh_from_db()
    assert three.status != Registration.Status.WITHDRAWN  # still in the event

    # Round 3: those who played round 2 by their points, then he who missed it, whose two
    # points would put him ahead of the last of round 2 by points alone.
    round3 = seated(run_round(event, organiser, referee, django_capture_on_commit_callbacks, _by_start_number))
    order = sum(round3, [])
    assert order[-1] == "3", round3


def test_absence_is_refused_where_it_cannot_work(db):
    event, organiser, referee = new_event("absent-no", 8, planned_rounds=2)
    reg = event.registrations.get(start_number=1)
    with pytest.raises(ServiceError) as refused:
        checkin.registration_set_absent(registration=reg, number=3, absent=True,
                                                 actor=organiser)
    assert refused.value.errors[0]["code"] == "round_not_ahead"
    with pytest.raises(ServiceError):
        checkin.registration_set_absent(registration=reg, number=1, absent=True,
                                                 actor=referee)
    knockout, organiser2, _referee2 = new_event("absent-ko", 16, seating_system="knockout",
                                                planned_rounds=3)
    with pytest.raises(ServiceError) as refused:
        checkin.registration_set_absent(
            registration=knockout.registrations.get(start_number=1), number=1, absent=True,
            actor=organiser2)
    assert refused.value.errors[0]["code"] == "absent_in_knockout"
    reg.refresh_from_db()
    assert reg.absent_rounds == []


def test_the_pages_mark_a_player_absent_and_show_him_sitting_out(db):
    event, organiser, referee = new_event("absent-pages", 8, planned_rounds=2)
    reg = event.registrations.get(start_number=6)
    client = client_for(organiser)
    players = client.get(f"/manage/e/{event.slug}/players/").content.decode()
    assert f"/manage/e/{event.slug}/players/{reg.pk}/absent/" in players
    assert "Misses round 1" in players
    answer = client.post(f"/manage/e/{event.slug}/players/{reg.pk}/absent/",
                         {"round": "1", "absent": "1"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    assert "Plays round 1" in answer.content.decode()
    reg.refresh_from_db()
    assert reg.absent_rounds == [1]
    page = client.get(f"/manage/e/{event.slug}/").content.decode()
    assert "misses round 1, stays in the event" in page
    assert client.post(f"/manage/e/{event.slug}/players/{reg.pk}/absent/",
                       {"round": "x"}).status_code == 302
    reg.refresh_from_db()
    assert reg.absent_rounds == [1]
    client.post(f"/manage/e/{event.slug}/players/{reg.pk}/absent/", {"round": "1", "absent": "0"})
    reg.refresh_from_db()
    assert reg.absent_rounds == []
    assert client_for(referee).post(f"/manage/e/{event.slug}/players/{reg.pk}/absent/",
                                    {"round": "1", "absent": "1"}).status_code == 403
