"""League organiser pages for a season's players in their divisions: find players in the
registry (the forgiving search) and put them into a division, import them from a CSV file
(all or nothing, each problem under its row), move a player to another seed position or
division, and take him out, until the schedule is fixed.

Who may do what is leagues.roles, through `league_organiser_required`; every write is a
service of leagues.services or leagues.services.members_import.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from leagues import selectors, services
from leagues.forms import MemberAddForm, MemberMoveForm
from leagues.models import Season, SeasonMembership
from leagues.services.members_import import memberships_import_csv
from leagues.views_manage import (
    SEARCH_RESULTS,
    division_of,
    league_organiser_required,
    season_url,
    show_refusal,
)
from tournaments import selectors as tournament_selectors
from tournaments.domain import rights
from tournaments.errors import ServiceError
from tournaments.forms import CsvImportForm


def _members_page(request: HttpRequest, season: Season, *, status: int = 200,
                  add_form: MemberAddForm | None = None, import_form: CsvImportForm | None = None,
                  import_errors: list[dict[str, Any]] | None = None) -> HttpResponse:
    divisions = selectors.divisions_of(season)
    members = {m.player_id for d in divisions for m in d.memberships.all()}
    query = request.GET.get("q", "").strip()
    found = []
    if query:
        found = [p for p in tournament_selectors.players_matching(query, request.user)[:SEARCH_RESULTS + len(members)]
                 if p.pk not in members][:SEARCH_RESULTS]
    return render(request, "leagues/manage/members.html", {
        "league": season.league, "season": season, "divisions": divisions, "query": query,
        "found": found, "fixed": selectors.any_matchday_seated(season) or season.status == Season.Status.FINISHED,
        "add_form": add_form, "tab": "players",
        "import_form": import_form or CsvImportForm(), "import_errors": import_errors or [],
        "can_manage_players": rights.can_manage_players(request.user),
    }, status=status)


@league_organiser_required
def season_players(request: HttpRequest, season: Season) -> HttpResponse:
    return _members_page(request, season)


@require_POST
@league_organiser_required
def member_add(request: HttpRequest, season: Season) -> HttpResponse:
    form = MemberAddForm(request.POST)
    back = season_url(season, "manage-season-players") + (
        f"?q={request.POST.get('q', '')}" if request.POST.get("q") else "")
    if not form.is_valid():
        messages.error(request, _("Choose a player and a division."))
        return redirect(back)
    d = form.cleaned_data
    division = division_of(season, d["division"])
    # A player he may not see in the registry does not exist for him (tournaments.domain.rights).
    player = tournament_selectors.players_visible_to(request.user).filter(pk=d["player"]).first()
    if division is None or player is None:
        messages.error(request, _("That player or division is no longer there."))
        return redirect(back)
    try:
        membership = services.membership_add(division=division, player=player, actor=request.user,
                                             seed_position=d.get("seed_position"))
    except ServiceError as exc:
        show_refusal(request, exc)
    else:
        messages.success(request, _("%(player)s is in %(division)s at seed position %(n)s.") % {
            "player": player, "division": division.name, "n": membership.seed_position})
    return redirect(back)


@require_POST
@league_organiser_required
def members_import(request: HttpRequest, season: Season) -> HttpResponse:
    """A CSV file of players straight into the divisions: all or nothing, each problem listed
    under its row (leagues.services.members_import)."""
    form = CsvImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return _members_page(request, season, import_form=form,
                             status=413 if form.too_large() else 400)
    try:
        created = memberships_import_csv(season=season, text=form.cleaned_data["csv"],
                                                         actor=request.user,
                                                         field=form.cleaned_data["source"])
    except ServiceError as exc:
        return _members_page(request, season, import_form=form, status=exc.status,
                             import_errors=form.show_service_errors(exc.errors))
    messages.success(request, ngettext("%(n)s player put into the divisions.",
                                       "%(n)s players put into the divisions.", len(created)) % {"n": len(created)})
    if created.reused:
        messages.info(request, ngettext(
            "%(players)s was already in the registry: placed, not created again.",
            "%(players)s were already in the registry: placed, not created again.",
            len(created.reused)) % {"players": ", ".join(str(p) for p in created.reused)})
    return redirect(season_url(season, "manage-season-players"))


def _membership_or_404(season: Season, membership_id: int) -> SeasonMembership:
    membership = season.memberships.select_related("player", "division").filter(pk=membership_id).first()
    if membership is None:
        raise Http404(_("No such player in this season."))
    return membership


@require_POST
@league_organiser_required
def member_move(request: HttpRequest, season: Season, membership_id: int) -> HttpResponse:
    membership = _membership_or_404(season, membership_id)
    form = MemberMoveForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give a seed position of 1 or more."))
        return redirect(season_url(season, "manage-season-players"))
    division = division_of(season, form.cleaned_data["division"]) or membership.division
    try:
        services.membership_move(membership=membership, actor=request.user, division=division,
                                 seed_position=form.cleaned_data["seed_position"])
    except ServiceError as exc:
        show_refusal(request, exc)
    else:
        messages.success(request, _("%(player)s is now %(n)s. in %(division)s.") % {
            "player": membership.player, "n": form.cleaned_data["seed_position"], "division": division.name})
    return redirect(season_url(season, "manage-season-players"))


@require_POST
@league_organiser_required
def member_remove(request: HttpRequest, season: Season, membership_id: int) -> HttpResponse:
    membership = _membership_or_404(season, membership_id)
    try:
        services.membership_remove(membership=membership, actor=request.user,
                                   reason=request.POST.get("reason", "")[:500])
    except ServiceError as exc:
        show_refusal(request, exc)
    else:
        messages.success(request, _("%(player)s was taken out of the season.") % {"player": membership.player})
    return redirect(season_url(season, "manage-season-players"))
