"""The officials of an event: its organisers and referees. The organisers add and remove them
on the event's settings page; a newcomer gets an account on the spot, with a one-time link to
set his password (no mail server is assumed), so nobody needs the Django admin on the day."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from tournaments.domain import rights
from tournaments.errors import NotFound, ServiceError
from tournaments.models import Event
from tournaments.services import audit

OFFICIAL_ROLES = ("organiser", "referee")
ROLE_LABELS = {"organiser": pgettext_lazy("role", "organiser"),
               "referee": pgettext_lazy("role", "referee")}


def _official_set(event: Event, role: str):
    if role not in OFFICIAL_ROLES:
        raise ServiceError(_("unknown role %(role)s") % {"role": role}, field="role",
                           code="invalid_choice")
    return event.organisers if role == "organiser" else event.referees


@transaction.atomic
def event_official_add(*, event: Event, user: Any, role: str, actor: Any) -> None:
    """Make `user` an organiser or a referee of the event (the organisers decide)."""
    rights.require_organiser(actor, event)
    officials = _official_set(event, role)
    if officials.filter(pk=user.pk).exists():
        raise ServiceError(_("%(user)s is already a %(role)s of this event")
                           % {"user": user.get_username(), "role": ROLE_LABELS[role]}, field="username",
                           code="already_official")
    officials.add(user)
    audit.record(actor=actor, action=f"event.{role}.add", target=event, event=event,
                 after={"username": user.get_username()})


@transaction.atomic
def event_official_remove(*, event: Event, user: Any, role: str, actor: Any) -> None:
    """Take `user` off the event's organisers or referees; the last organiser stays."""
    rights.require_organiser(actor, event)
    officials = _official_set(event, role)
    if not officials.filter(pk=user.pk).exists():
        raise NotFound(_("%(user)s is not a %(role)s of this event")
                       % {"user": user.get_username(), "role": ROLE_LABELS[role]}, field="username",
                       code="not_official")
    if role == "organiser" and event.organisers.count() == 1:
        raise ServiceError(_("an event keeps at least one organiser"), field="username",
                           code="last_organiser")
    officials.remove(user)
    audit.record(actor=actor, action=f"event.{role}.remove", target=event, event=event,
                 before={"username": user.get_username()})


@transaction.atomic
def official_account_create(*, event: Event, username: str, role: str, actor: Any,
                            first_name: str = "", last_name: str = "") -> Any:
    """Create an account for a new official of the event (it has no password yet: he sets it
    with `set_password_path`) and give it its role."""
    rights.require_organiser(actor, event)
    _official_set(event, role)
    user_model = get_user_model()
    username = username.strip()
    field = user_model._meta.get_field(user_model.USERNAME_FIELD)
    try:
        field.run_validators(username)
        if not username:
            raise ValidationError(_("a username is needed"))
    except ValidationError as exc:
        raise ServiceError("; ".join(exc.messages), field="username", code="invalid") from exc
    if len(username) > field.max_length:
        raise ServiceError(_("a username has at most %(n)s characters") % {"n": field.max_length},
                           field="username", code="too_long")
    if user_model.objects.filter(**{f"{user_model.USERNAME_FIELD}__iexact": username}).exists():
        raise ServiceError(_("the username %(u)s is taken: add that account instead")
                           % {"u": username}, field="username", code="username_taken")
    user = user_model.objects.create_user(username=username, first_name=first_name.strip()[:150],
                                          last_name=last_name.strip()[:150])
    user.set_unusable_password()
    user.save(update_fields=["password"])
    audit.record(actor=actor, action="account.create", target=event, event=event,
                 after={"username": username, "role": role})
    event_official_add(event=event, user=user, role=role, actor=actor)
    return user


def set_password_path(user: Any) -> str:
    """A one-time link to set the account's password: Django's password reset link, valid
    until the password is set (or PASSWORD_RESET_TIMEOUT passes)."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return reverse("password_reset_confirm", kwargs={"uidb64": uid, "token": token})


def user_by_username(username: str) -> Any:
    user_model = get_user_model()
    user = user_model.objects.filter(**{f"{user_model.USERNAME_FIELD}__iexact": username.strip()}).first()
    if user is None:
        raise NotFound(_("there is no account %(u)s") % {"u": username.strip()}, field="username",
                       code="no_such_user")
    return user
