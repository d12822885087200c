"""The player registry's pages under /manage/players/, for those who enter players
(`tournaments.domain.rights.can_manage_players`): the registry with a forgiving search (each sees the
players `rights.visible_players_q` gives him), correcting a record and merging two records of
one person (`tournaments.services.player_registry`; who may is `rights.can_edit_player`), and the
registry's managers, named by a manager. Views only parse, call selectors or services and
render."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournaments import hooks, selectors
from tournaments.domain import rights
from tournaments.errors import ServiceError
from tournaments.forms import (
    PlayerEditForm,
    PlayerMergeForm,
    RegistryManagerForm,
    add_service_errors,
)
from tournaments.models import Player
from tournaments.pages.common import login_redirect
from tournaments.services import player_registry

REGISTRY_PAGE_SIZE = 50


def _refuse_unless_manager(request: HttpRequest) -> HttpResponse | None:
    if not request.user.is_authenticated:
        return login_redirect(request)
    if not rights.can_manage_players(request.user):
        raise PermissionDenied(_("Only event organisers use the player registry."))
    return None


def _player_or_404(request: HttpRequest, player_id: int) -> Player:
    """The player, if he exists for this user (a player of another organiser's private events
    does not), with what a merge moves."""
    player = selectors.players_for_merge(request.user).filter(pk=player_id).first()
    if player is None:
        raise Http404(_("No such player."))
    return player


def _refuse_unless_editable(request: HttpRequest, player: Player) -> None:
    refusal = rights.registry_refusal(request.user, player)
    if refusal is not None:
        if refusal.hidden:
            raise Http404(refusal.message)
        raise PermissionDenied(refusal.message)


def registry(request: HttpRequest) -> HttpResponse:
    """The players of the registry this user may see, found by words of a name or club (case,
    diacritics and order free) or a federation id."""
    refused = _refuse_unless_manager(request)
    if refused:
        return refused
    query = request.GET.get("q", "").strip()
    page = Paginator(selectors.players_with_event_counts(query, request.user),
                     REGISTRY_PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "tournaments/manage/registry.html", {
        "query": query, "page": page,
        "registry_manager": rights.is_registry_manager(request.user)})


def _records(player: Player) -> dict:
    """What a record holds, shown side by side before merging."""
    return {"player": player, "events": [r.event for r in player.registrations.all()],
            "elsewhere": [label for records in hooks.player_records()
                          for label in records.describe(player)]}


def player_merge(request: HttpRequest, player_id: int) -> HttpResponse:
    """Merge another record of the same person into this player: find the other record,
    compare both, merge. Both records must be the user's to correct."""
    refused = _refuse_unless_manager(request)
    if refused:
        return refused
    keep = _player_or_404(request, player_id)
    _refuse_unless_editable(request, keep)
    posted = request.method == "POST"
    form = PlayerMergeForm(request.POST if posted else request.GET or None, required=posted)
    duplicate = None
    problems: list[str] = []
    status = 200
    if form.is_bound and form.is_valid() and form.cleaned_data["duplicate"]:
        duplicate = (selectors.players_for_merge(request.user)
                     .filter(pk=form.cleaned_data["duplicate"]).first())
        if duplicate is None:
            form.add_error("duplicate", _("That player is no longer in the registry."))
            status = 400 if posted else 404
        elif rights.registry_refusal(request.user, duplicate) is not None:
            # Refused before anything of the other record is shown: his events and leagues
            # may be other organisers' private ones.
            _refuse_unless_editable(request, duplicate)
        elif posted:
            try:
                player_registry.player_merge(keep=keep, duplicate=duplicate, actor=request.user,
                                              reason=form.cleaned_data["reason"])
            except ServiceError as exc:
                problems = [e["message"] for e in exc.errors]
                status = exc.status
            else:
                messages.success(request, _("%(duplicate)s was merged into %(player)s.") % {
                    "duplicate": duplicate, "player": keep})
                return redirect("player-detail", keep.pk)
        else:
            problems = [e["message"] for e in player_registry.merge_problems(keep, duplicate)]
    elif form.is_bound and not form.is_valid():
        status = 400
    query = request.GET.get("q", keep.last_name).strip()
    candidates = [] if duplicate else list(
        selectors.players_with_event_counts(query, request.user)
        .exclude(pk=keep.pk)[:REGISTRY_PAGE_SIZE])
    return render(request, "tournaments/manage/player_merge.html", {
        "keep": _records(keep), "duplicate": _records(duplicate) if duplicate else None,
        "problems": problems, "form": form, "query": query, "candidates": candidates,
    }, status=status)


def player_edit(request: HttpRequest, player_id: int) -> HttpResponse:
    """Correct a record: its names, club, country and federation id, with a reason."""
    refused = _refuse_unless_manager(request)
    if refused:
        return refused
    player = _player_or_404(request, player_id)
    _refuse_unless_editable(request, player)
    status = 200
    if request.method == "POST":
        form = PlayerEditForm(request.POST)
        if form.is_valid():
            fields = {name: form.cleaned_data[name] for name in PlayerEditForm.FIELDS}
            try:
                player_registry.player_update(player=player, actor=request.user,
                                               reason=form.cleaned_data["reason"], **fields)
            except ServiceError as exc:
                add_service_errors(form, exc.errors)
            else:
                messages.success(request, _("The record of %(player)s is corrected.")
                                 % {"player": Player.objects.get(pk=player.pk)})
                return redirect("player-detail", player.pk)
        status = 400
    else:
        form = PlayerEditForm(initial={name: getattr(player, name) for name in PlayerEditForm.FIELDS})
    return render(request, "tournaments/manage/player_edit.html", {
        "player": player, "form": form, "events": [r.event for r in player.registrations.all()],
    }, status=status)


def registry_managers(request: HttpRequest) -> HttpResponse:
    """Who manages the registry (staff always; users given the right here), for its managers:
    grant the right to a user by his username, or take it back."""
    if not request.user.is_authenticated:
        return login_redirect(request)
    if not rights.is_registry_manager(request.user):
        raise PermissionDenied(_("Only the managers of the player registry name its managers."))
    form = RegistryManagerForm(request.POST if request.method == "POST" else None)
    status = 200
    if form.is_bound:
        status = 400
        if form.is_valid():
            user = get_user_model().objects.filter(
                username__iexact=form.cleaned_data["username"].strip()).first()
            grant = request.POST.get("grant") != "0"
            if user is None:
                form.add_error("username", _("There is no user %(name)s.")
                               % {"name": form.cleaned_data["username"]})
            else:
                try:
                    player_registry.registry_manager_set(
                        user=user, manager=grant, actor=request.user,
                        reason=form.cleaned_data["reason"])
                except ServiceError as exc:
                    add_service_errors(form, exc.errors)
                else:
                    messages.success(request, (_("%(user)s now manages the player registry.")
                                               if grant else
                                               _("%(user)s no longer manages the player registry."))
                                     % {"user": user.get_username()})
                    return redirect("manage-registry-managers")
    managers = (get_user_model().objects
                .filter(Q(is_staff=True) | Q(is_superuser=True)
                        | Q(user_permissions__codename="manage_registry",
                            user_permissions__content_type__app_label="tournaments")
                        | Q(groups__permissions__codename="manage_registry",
                            groups__permissions__content_type__app_label="tournaments"))
                .distinct().order_by("username"))
    return render(request, "tournaments/manage/registry_managers.html", {
        "form": form, "managers": managers}, status=status)
