"""Referee pages under /referee/: record a renons or another penalty on a hand (the engine
scores it), open and decide disputes with a written reason and the correction that carried
the decision out, annul a table's round, correct any hand with a reason, adjust a standing,
and read the audit history of a table or of the whole event.

Open to the referees of the event, its organisers and staff. Every write goes through a
service, which leaves the audit entry the history pages show.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import selectors, services
from tournaments.domain import limits, rights
from tournaments.domain.rulesets import penalty_points
from tournaments.errors import ServiceError
from tournaments.forms import (
    AdjustmentForm,
    AnnulForm,
    DecisionForm,
    DisputeForm,
    HallNoticeForm,
    PenaltyForm,
    add_service_errors,
    penalty_choices,
    ruleset_description,
    score_label,
)
from tournaments.models import Announcement, AuditEntry, Dispute, Event, Registration, Table
from tournaments.pages import hand_entry as hand_entry
from tournaments.pages.common import (
    back_or,
    event_role_required,
    login_redirect,
    raise_refusal,
    seat_labels,
    sheet_context,
    table_or_404,
)
from tournaments.pages.referee_calls import queue_context
from tournaments.pages.table import hand_edit_page, save_hand
from tournaments.services import referee_calls
from tournaments.text import audit_text, ruleset_text

referee_required = event_role_required(rights.is_official)
organiser_required = event_role_required(rights.is_organiser)


def dashboard(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return login_redirect(request)
    return render(request, "tournaments/referee/dashboard.html", {
        "events": selectors.events_refereed_by(request.user),
    })


def _adjust_form(event: Event, data: Any = None) -> AdjustmentForm:
    players = [(r.pk, f"{r.start_number} · {r.player}") for r in selectors.registrations_of(event)]
    return AdjustmentForm(data, players=players)


@referee_required
def event_referee(request: HttpRequest, event: Event) -> HttpResponse:
    return _event_page(request, event, adjust_form=_adjust_form_after_penalty(request, event))


def _adjust_form_after_penalty(request: HttpRequest, event: Event) -> AdjustmentForm | None:
    """After a penalty recorded for the whole table (a note, scoring nothing), the adjustment
    form comes filled in for that player and penalty, so the referee only adds the amount."""
    penalty_id = limits.whole_number(request.GET.get("penalty"), low=1)
    if penalty_id is None:
        return None
    penalty = event.penalties.select_related("table__round").filter(pk=penalty_id).first()
    if penalty is None:
        return None
    form = _adjust_form(event)
    form.initial = {"registration": penalty.registration_id,
                    "score_delta": penalty_points(event.ruleset_code, penalty.kind), "reason": _(
        "%(penalty)s, round %(round)s, table %(table)s") % {
        "penalty": ruleset_text.penalty_name(event.ruleset_code, penalty.kind), "round": penalty.table.round.number,
        "table": penalty.table.number}}
    return form


def _event_page(request: HttpRequest, event: Event, *, adjust_form: AdjustmentForm | None = None,
                notice_form: HallNoticeForm | None = None, status: int = 200) -> HttpResponse:
    current = selectors.current_round(event)
    return render(request, "tournaments/referee/event.html", {
        **queue_context(request.user, event, notice_form),
        "event": event, "round": current,
        "tables": selectors.round_tables_status(current) if current else [],
        "rounds": list(selectors.rounds_of(event)),
        "open_disputes": [d for d in selectors.disputes_of(event) if d.status == Dispute.Status.OPEN],
        "penalties": list(event.penalties.select_related("registration__player", "table__round", "hand")[:50]),
        "adjust_form": adjust_form or _adjust_form(event),
        "adjustments": list(event.standings_adjustments.select_related("registration__player", "created_by")),
    }, status=status)


def _table_context(user: Any, event: Event, table: Table, *, hand: int | None = None,
                   call_id: int | None = None) -> dict[str, Any]:
    sheet = sheet_context(table, event=event)
    # Come from a call of the desk's queue: its forms carry the call, which what they record
    # resolves (tournaments.services.referee_calls.link_outcome).
    call = (table.referee_calls.filter(pk=call_id, resolved_at__isnull=True).first()
            if call_id else None)
    desc = ruleset_description(table.scorecard.ruleset_code) or {}
    hands = [h.number for h in sheet["hands"]]
    return {
        "event": event, "round": table.round, "table": table, **sheet,
        "score_label": score_label(event),
        "penalty_form": PenaltyForm(kinds=penalty_choices(desc),
                                    players=seat_labels(table), hands=hands,
                                    initial={"hand_number": hand} if hand else None),
        "referee_call": call,
        "annul_form": AnnulForm(),
        # A dispute opened from a hand's row comes with that hand chosen.
        "dispute_form": DisputeForm(hands=hands, initial={"hand_number": hand} if hand else None),
        "penalties": list(selectors.penalties_of_table(table)),
        "disputes": [d for d in selectors.disputes_of(event) if d.table_id == table.pk],
        "history": list(selectors.audit_of_table(table).select_related("table__round")[:30]),
        **hand_entry.card_actions(user, table, sheet),
    }


def _render_table(request: HttpRequest, event: Event, table: Table, *, status: int = 200,
                  **forms: Any) -> HttpResponse:
    hand = limits.whole_number(request.GET.get("hand"), low=1, high=limits.SMALL_MAX)
    call_id = limits.whole_number(request.GET.get("call") or request.POST.get("call"), low=1)
    context = _table_context(request.user, event, table, hand=hand, call_id=call_id)
    context.update(forms)
    return render(request, "tournaments/referee/table.html", context, status=status)


@referee_required
def table_referee(request: HttpRequest, event: Event, number: int, table_number: int) -> HttpResponse:
    return _render_table(request, event, table_or_404(event, number, table_number))


@require_POST
@referee_required
def penalty_record(request: HttpRequest, event: Event, number: int, table_number: int) -> HttpResponse:
    """Record a renons (or another penalty kind of the ruleset) on a hand or the table."""
    table = table_or_404(event, number, table_number)
    desc = ruleset_description(table.scorecard.ruleset_code) or {}
    form = PenaltyForm(request.POST, kinds=penalty_choices(desc),
                       players=seat_labels(table), hands=[h.number for h in table.scorecard.hands.all()])
    if form.is_valid():
        reg = Registration.objects.filter(event=event, start_number=int(form.cleaned_data["player"])).first()
        if reg is None:
            form.add_error("player", _("No such player at this table."))
        else:
            try:
                penalty = services.penalty_record(table=table, registration=reg, kind=form.cleaned_data["kind"],
                                        actor=request.user, hand_number=form.cleaned_data["hand_number"],
                                        description=form.cleaned_data["description"],
                                        call_id=_call_id(request))
            except ServiceError as exc:
                add_service_errors(form, exc.errors, {"hand": "hand_number", "penalties": "kind"})
            else:
                _call_resolved(request, penalty.referee_calls.exists())
                hand_number = form.cleaned_data["hand_number"]
                if hand_number is not None:
                    messages.success(request, _(
                        "Penalty recorded and scored in hand %(n)s: the scores of the card "
                        "changed.") % {"n": hand_number} + " " + _next_step(table))
                    return redirect("referee-table", event.slug, number, table_number)
                # The engine scores penalties in the hand they happened in; one for the whole
                # table changes nothing by itself, and the page must not pretend it did.
                messages.warning(request, _(
                    "Penalty recorded as a note: it changes no score. To make it count, record "
                    "it on the hand it happened in, or add a standings adjustment below."))
                return redirect(reverse("referee-event", args=[event.slug])
                                + f"?penalty={penalty.pk}#adjust")
    table = table_or_404(event, number, table_number)
    return _render_table(request, event, table, status=400, penalty_form=form)


def _call_id(request: HttpRequest) -> int | None:
    """The referee call a form of the table's page carries (it came from the desk's queue)."""
    return limits.whole_number(request.POST.get("call"), low=1)


def _call_resolved(request: HttpRequest, resolved: bool) -> None:
    if resolved:
        messages.info(request, _("The table's call for the referee is resolved and linked to it."))


def _next_step(table: Table) -> str:
    """What comes next for a card an official just changed, in words."""
    card = table.scorecard
    card.refresh_from_db(fields=["status"])
    if card.status == card.Status.SUBMITTED:
        return _("The card stays submitted: confirm it below (with a reason if it is short of "
                 "hands), or let a player of the table confirm it.")
    if card.status == card.Status.OPEN:
        return _("The card is still open: the table enters its other hands and submits it.")
    return _("The card counts as corrected in the standings.")


@require_POST
@referee_required
def table_annul(request: HttpRequest, event: Event, number: int, table_number: int) -> HttpResponse:
    table = table_or_404(event, number, table_number)
    form = AnnulForm(request.POST)
    if form.is_valid():
        try:
            services.scorecard_annul(scorecard=table.scorecard, actor=request.user,
                                     reason=form.cleaned_data["reason"])
        except ServiceError as exc:
            add_service_errors(form, exc.errors)
        else:
            messages.success(request, _("The table's round is annulled: it counts nothing."))
            return redirect("referee-table", event.slug, number, table_number)
    return _render_table(request, event, table, status=400, annul_form=form)


@require_POST
@referee_required
def table_verify(request: HttpRequest, event: Event, number: int, table_number: int) -> HttpResponse:
    """An official has checked the table's confirmed card against its paper sheet."""
    table = table_or_404(event, number, table_number)
    try:
        services.scorecard_verify(scorecard=table.scorecard, actor=request.user)
    except ServiceError as exc:
        raise_refusal(exc)
        messages.error(request, str(exc))
    else:
        messages.success(request, _("The table's card is verified."))
    # Back to the page that asked (the round page).
    return back_or(request, reverse("referee-table", args=[event.slug, number, table_number]))


@referee_required
def hand_correct(request: HttpRequest, event: Event, number: int, table_number: int,
                 hand_number: int) -> HttpResponse:
    """Correct any hand, also of a verified card, with a reason."""
    table = table_or_404(event, number, table_number)
    card = table.scorecard
    hand = card.hands.filter(number=hand_number).first()
    if hand is None:
        raise Http404(_("No such hand."))
    template = "tournaments/referee/hand_correct.html"
    if request.method == "POST":
        form = hand_entry.hand_form(table, card, data=request.POST, number=hand_number, record=hand.record)
        if form.is_valid() and not form.cleaned_data.get("reason", "").strip():
            form.add_error("reason", _("A correction needs a reason."))
        if not form.is_valid():
            return hand_edit_page(request, table, form, hand_number, status=400, template=template)
        return save_hand(request, table, form, hand_number, edit=True, template=template)
    form = hand_entry.hand_form(table, card, number=hand_number, record=hand.record)
    return hand_edit_page(request, table, form, hand_number, template=template)


@require_POST
@referee_required
def dispute_open(request: HttpRequest, event: Event, number: int, table_number: int) -> HttpResponse:
    table = table_or_404(event, number, table_number)
    form = DisputeForm(request.POST, hands=[h.number for h in table.scorecard.hands.all()])
    if form.is_valid():
        hand = None
        if form.cleaned_data["hand_number"]:
            hand = table.scorecard.hands.filter(number=form.cleaned_data["hand_number"]).first()
        try:
            dispute = services.dispute_open(event=event, table=table, hand=hand, actor=request.user,
                                            description=form.cleaned_data["description"],
                                            raised_by_name=form.cleaned_data["raised_by_name"],
                                            call_id=_call_id(request))
        except ServiceError as exc:
            add_service_errors(form, exc.errors)
        else:
            messages.success(request, _("Dispute opened."))
            _call_resolved(request, dispute.referee_calls.exists())
            return redirect("referee-dispute", event.slug, dispute.pk)
    return _render_table(request, event, table, status=400, dispute_form=form)


@referee_required
def disputes(request: HttpRequest, event: Event) -> HttpResponse:
    return render(request, "tournaments/referee/disputes.html", {
        "event": event, "disputes": list(selectors.disputes_of(event)),
    })


def _corrections(event: Event, dispute: Dispute) -> list[tuple[int, str]]:
    """Changes that may carry a decision out: those of the disputed table (or of the event)
    since the dispute was raised."""
    entries = (selectors.audit_of_table(dispute.table) if dispute.table
               else selectors.audit_of_event(event))
    entries = entries.filter(created_at__gte=dispute.raised_at).exclude(
        action__startswith="dispute.")[:50]
    tz = event.tz
    return [(e.pk, f"{timezone.localtime(e.created_at, tz):%H:%M} {audit_text.who(e)}: "
                   f"{audit_text.action_label(e.action)}" + (f" — {e.reason}" if e.reason else ""))
            for e in entries]


@referee_required
def dispute_detail(request: HttpRequest, event: Event, dispute_id: int) -> HttpResponse:
    dispute = get_object_or_404(selectors.disputes_of(event), pk=dispute_id)
    form = DecisionForm(request.POST or None, corrections=_corrections(event, dispute))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            correction = None
            if form.cleaned_data["correction"]:
                correction = AuditEntry.objects.filter(pk=form.cleaned_data["correction"], event=event).first()
            try:
                services.dispute_decide(dispute=dispute, decision=form.cleaned_data["decision"],
                                        actor=request.user, correction=correction)
            except ServiceError as exc:
                add_service_errors(form, exc.errors)
            else:
                messages.success(request, _("Dispute decided."))
                return redirect("referee-dispute", event.slug, dispute.pk)
        status = 400
    return render(request, "tournaments/referee/dispute.html", {
        "event": event, "dispute": dispute, "form": form,
    }, status=status)


@require_POST
@referee_required
def standings_adjust(request: HttpRequest, event: Event) -> HttpResponse:
    form = _adjust_form(event, request.POST)
    if form.is_valid():
        reg = get_object_or_404(Registration, pk=form.cleaned_data["registration"], event=event)
        try:
            services.standings_adjust(registration=reg, actor=request.user,
                                      reason=form.cleaned_data["reason"],
                                      points_delta=form.cleaned_data["points_delta"],
                                      score_delta=form.cleaned_data["score_delta"])
        except ServiceError as exc:
            add_service_errors(form, exc.errors)
        else:
            messages.success(request, _("Standings adjusted."))
            return redirect("referee-event", event.slug)
    return _event_page(request, event, adjust_form=form, status=400)


@referee_required
def history_event(request: HttpRequest, event: Event) -> HttpResponse:
    return render(request, "tournaments/referee/history.html", {
        "event": event, "table": None, "entries": list(selectors.audit_of_event(event)[:500]),
    })


@referee_required
def history_table(request: HttpRequest, event: Event, number: int, table_number: int) -> HttpResponse:
    table = table_or_404(event, number, table_number)
    return render(request, "tournaments/referee/history.html", {
        "event": event, "table": table,
        "entries": list(selectors.audit_of_table(table).select_related("table__round")),
    })


@require_POST
@organiser_required
def notice_post(request: HttpRequest, event: Event) -> HttpResponse:
    form = HallNoticeForm(request.POST)
    if form.is_valid():
        try:
            referee_calls.announcement_post(event=event, actor=request.user,
                                            text=form.cleaned_data["text"])
        except ServiceError as exc:
            raise_refusal(exc)
            add_service_errors(form, exc.errors)
        else:
            messages.success(request, _("The notice is on the projector and the table links."))
            return redirect(reverse("referee-event", args=[event.slug]) + "#notices")
    # The desk again, with the form's errors.
    return _event_page(request, event, notice_form=form, status=400)


@require_POST
@organiser_required
def notice_withdraw(request: HttpRequest, event: Event, notice_id: int) -> HttpResponse:
    notice = get_object_or_404(Announcement, pk=notice_id, event=event)
    try:
        referee_calls.announcement_withdraw(announcement=notice, actor=request.user)
    except ServiceError as exc:
        raise_refusal(exc)
        messages.error(request, str(exc))
    else:
        messages.success(request, _("The notice is withdrawn."))
    return redirect(reverse("referee-event", args=[event.slug]) + "#notices")
