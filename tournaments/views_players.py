"""The player registry's pages under /manage/players/, for those who manage players
(`tournaments.rights.can_manage_players`): the registry with a forgiving search, and merging
two records of one person (`tournaments.services_players`). Views only parse, call selectors
or services and render."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from tournaments import hooks, rights, selectors, services_players
from tournaments.errors import ServiceError
from tournaments.forms import PlayerMergeForm
from tournaments.models import Player
from tournaments.views_public import login_redirect

REGISTRY_PAGE_SIZE = 50


def _refuse_unless_manager(request: HttpRequest) -> HttpResponse | None:
    if not request.user.is_authenticated:
        return login_redirect(request)
    if not rights.can_manage_players(request.user):
        raise PermissionDenied(_("Only event organisers use the player registry."))
    return None


def registry(request: HttpRequest) -> HttpResponse:
    """Every player of the registry, found by words of a name or club (case, diacritics and
    order free) or a federation id."""
    refused = _refuse_unless_manager(request)
    if refused:
        return refused
    query = request.GET.get("q", "").strip()
    page = Paginator(selectors.players_with_event_counts(query), REGISTRY_PAGE_SIZE).get_page(
        request.GET.get("page"))
    return render(request, "tournaments/manage/registry.html", {"query": query, "page": page})


def _records(player: Player) -> dict:
    """What a record holds, shown side by side before merging."""
    return {"player": player, "events": [r.event for r in player.registrations.all()],
            "elsewhere": [label for records in hooks.player_records()
                          for label in records.describe(player)]}


def player_merge(request: HttpRequest, player_id: int) -> HttpResponse:
    """Merge another record of the same person into this player: find the other record,
    compare both, merge."""
    refused = _refuse_unless_manager(request)
    if refused:
        return refused
    keep = get_object_or_404(selectors.players_for_merge(), pk=player_id)
    posted = request.method == "POST"
    form = PlayerMergeForm(request.POST if posted else request.GET or None, required=posted)
    duplicate = None
    problems: list[str] = []
    status = 200
    if form.is_bound and form.is_valid() and form.cleaned_data["duplicate"]:
        duplicate = selectors.players_for_merge().filter(pk=form.cleaned_data["duplicate"]).first()
        if duplicate is None:
            form.add_error("duplicate", _("That player is no longer in the registry."))
            status = 400 if posted else 404
        elif posted:
            try:
                services_players.player_merge(keep=keep, duplicate=duplicate, actor=request.user)
            except ServiceError as exc:
                problems = [e["message"] for e in exc.errors]
                status = 400
            else:
                messages.success(request, _("%(duplicate)s was merged into %(player)s.") % {
                    "duplicate": duplicate, "player": keep})
                return redirect("player-detail", keep.pk)
        else:
            problems = [e["message"] for e in services_players.merge_problems(keep, duplicate)]
    elif form.is_bound and not form.is_valid():
        status = 400
    query = request.GET.get("q", keep.last_name).strip()
    candidates = [] if duplicate else list(
        selectors.players_with_event_counts(query).exclude(pk=keep.pk)[:REGISTRY_PAGE_SIZE])
    return render(request, "tournaments/manage/player_merge.html", {
        "keep": _records(keep), "duplicate": _records(duplicate) if duplicate else None,
        "problems": problems, "form": form, "query": query, "candidates": candidates,
    }, status=status)
