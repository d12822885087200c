"""The organisers' page of an event's officials (/manage/e/<slug>/officials/): who organises
and who referees it; add an existing account by username, or create one on the spot and hand
over the one-time link that sets its password; take an official off. Every change goes
through `tournaments.services.officials` and is audited."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from tournaments.domain import rights
from tournaments.errors import ServiceError
from tournaments.forms import add_service_errors
from tournaments.models import Event
from tournaments.pages.common import event_role_required, raise_refusal
from tournaments.services import officials

organiser_required = event_role_required(rights.is_organiser)

ROLE_CHOICES = [("referee", _("Referee")), ("organiser", _("Organiser"))]


class AddOfficialForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=ROLE_CHOICES, initial="referee")


class NewOfficialForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150,
                               help_text=_("What he types to log in."))
    first_name = forms.CharField(label=_("First name"), max_length=150, required=False)
    last_name = forms.CharField(label=_("Last name"), max_length=150, required=False)
    role = forms.ChoiceField(label=_("Role"), choices=ROLE_CHOICES, initial="referee")


def _page(request: HttpRequest, event: Event, *, add_form: AddOfficialForm | None = None,
          new_form: NewOfficialForm | None = None, new_account=None, status: int = 200) -> HttpResponse:
    return render(request, "tournaments/manage/officials.html", {
        "event": event,
        "organisers": list(event.organisers.order_by("username")),
        "referees": list(event.referees.order_by("username")),
        "add_form": add_form or AddOfficialForm(prefix="add"),
        "new_form": new_form or NewOfficialForm(prefix="new"),
        "new_account": new_account,
        "set_password_url": (request.build_absolute_uri(officials.set_password_path(new_account))
                             if new_account else ""),
    }, status=status)


@organiser_required
def officials_page(request: HttpRequest, event: Event) -> HttpResponse:
    return _page(request, event)


@require_POST
@organiser_required
def official_add(request: HttpRequest, event: Event) -> HttpResponse:
    form = AddOfficialForm(request.POST, prefix="add")
    if form.is_valid():
        try:
            user = officials.user_by_username(form.cleaned_data["username"])
            officials.event_official_add(event=event, user=user, role=form.cleaned_data["role"],
                                         actor=request.user)
        except ServiceError as exc:
            if exc.status == 403:
                raise_refusal(exc)
            add_service_errors(form, exc.errors)
        else:
            messages.success(request, _("%(user)s added.") % {"user": user.get_username()})
            return redirect("manage-officials", event.slug)
    return _page(request, event, add_form=form, status=400)


@require_POST
@organiser_required
def official_create(request: HttpRequest, event: Event) -> HttpResponse:
    form = NewOfficialForm(request.POST, prefix="new")
    if form.is_valid():
        try:
            user = officials.official_account_create(
                event=event, actor=request.user, username=form.cleaned_data["username"],
                role=form.cleaned_data["role"], first_name=form.cleaned_data["first_name"],
                last_name=form.cleaned_data["last_name"])
        except ServiceError as exc:
            if exc.status == 403:
                raise_refusal(exc)
            add_service_errors(form, exc.errors)
        else:
            # The link is shown once, here: it is not stored, and it dies with its first use.
            return _page(request, event, new_account=user)
    return _page(request, event, new_form=form, status=400)


@require_POST
@organiser_required
def official_remove(request: HttpRequest, event: Event) -> HttpResponse:
    try:
        user = officials.user_by_username(request.POST.get("username", ""))
        officials.event_official_remove(event=event, user=user, role=request.POST.get("role", ""),
                                        actor=request.user)
    except ServiceError as exc:
        if exc.status == 403:
            raise_refusal(exc)
        messages.error(request, str(exc))
    else:
        messages.success(request, _("%(user)s removed.") % {"user": user.get_username()})
    return redirect("manage-officials", event.slug)
