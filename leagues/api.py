"""HTTP API of leagues and cup series (under /api/v1/): reads for everybody (what is public),
writes for the league's or cup's organisers and staff. Thin: each view parses the request,
checks the role, calls a service or a selector and answers; refusals of the services become
4xx answers with the contract-shaped errors ({"errors": [{hand, field, code, message}]}).

Why one module of 630 lines: it is the leagues' API in the older hand-parsing style; the
next step of #17 moves it to typed serializers in leagues/api/ like tournaments/api/, which
will split it by resource.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from leagues import careers, cup_totals, league_standings, next_season, roles, selectors, services
from leagues.models import CupSeries, Division, League, Matchday, Season
from tournaments import limits, rights
from tournaments.errors import Forbidden, NotFound, ServiceError
from tournaments.models import Event, Player

# ---------------------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------------------


def _body(request: Request) -> dict[str, Any]:
    if not isinstance(request.data, dict):
        raise ServiceError("the body must be a JSON object", field="body", code="not_an_object")
    return request.data


def _int(data: dict, name: str, *, required: bool = False, default: Any = None) -> Any:
    value = data.get(name, default)
    if value is None or value == "":
        if required:
            raise ServiceError(f"{name} is required", field=name, code="required")
        return default
    if isinstance(value, bool):
        raise ServiceError(f"{name} must be a whole number", field=name, code="invalid")
    try:
        number = int(value)
    except (TypeError, ValueError) as exc:
        raise ServiceError(f"{name} must be a whole number", field=name, code="invalid") from exc
    # Whatever the number is for, it must fit the database's whole-number columns.
    if not limits.INT_MIN <= number <= limits.INT_MAX:
        raise ServiceError(_("%(field)s must be a whole number from %(min)s to %(max)s") % {
            "field": name, "min": limits.INT_MIN, "max": limits.INT_MAX},
            field=name, code="out_of_range")
    return number


def _date(data: dict, name: str, *, required: bool = False) -> dt.date | None:
    value = data.get(name)
    if not value:
        if required:
            raise ServiceError(f"{name} is required", field=name, code="required")
        return None
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError as exc:
        raise ServiceError(f"{name} must be a date (YYYY-MM-DD)", field=name, code="invalid") from exc


def _player(value: Any, field_name: str) -> Player:
    try:
        pk = int(value)
    except (TypeError, ValueError) as exc:
        raise ServiceError(f"{field_name}: {value!r} is not a player id", field=field_name,
                           code="invalid") from exc
    player = Player.objects.filter(pk=pk).first()
    if player is None:
        raise ServiceError(f"{field_name}: no player {pk}", field=field_name, code="unknown_player")
    return player


def _players(data: dict, name: str) -> list[Player]:
    value = data.get(name) or []
    if isinstance(value, str):
        value = [v for v in value.split(",") if v.strip()]
    if not isinstance(value, list):
        raise ServiceError(f"{name} must be a list of player ids", field=name, code="not_a_list")
    found = {p.pk: p for p in Player.objects.filter(pk__in=[v for v in value if str(v).isdigit()])}
    out = []
    for i, v in enumerate(value):
        player = found.get(int(v)) if str(v).isdigit() else None
        if player is None:
            raise ServiceError(f"{name}[{i}]: no player {v!r}", field=f"{name}[{i}]", code="unknown_player")
        out.append(player)
    return out


def _event(data: dict, name: str, user: Any) -> Event | None:
    """The event a request names, as the user may see it: a private event he may not see is
    answered exactly like one that does not exist."""
    slug = data.get(name)
    if not slug:
        return None
    event = Event.objects.filter(slug=str(slug)).first()
    if event is None or not rights.can_view_event(user, event):
        raise ServiceError(f"{name}: no event {slug!r}", field=name, code="unknown_event")
    return event


def _division(season: Season, data: dict) -> Division:
    level = _int(data, "division", required=True)
    division = season.divisions.filter(level=level).first()
    if division is None:
        raise ServiceError(f"the season has no division {level}", field="division", code="unknown_division")
    return division


def _only(data: dict, allowed: set[str]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k in allowed}


# ---------------------------------------------------------------------------------------
# Answers
# ---------------------------------------------------------------------------------------


def _player_dict(player: Player) -> dict[str, Any]:
    return {"id": player.pk, "name": str(player), "club": player.club, "country": player.country}


def league_dict(league: League) -> dict[str, Any]:
    return {
        "slug": league.slug, "name": league.name, "description": league.description,
        "division_size": league.division_size, "movement_count": league.movement_count,
        "division_count": league.division_count, "qualification_group": league.qualification_group,
        "ruleset_code": league.ruleset_code, "ruleset_mode": league.ruleset_mode,
        "ruleset_options": league.ruleset_options, "hands_per_matchday": league.hands_per_matchday,
        "table_size": league.table_size, "min_table_size": league.min_table_size,
        "is_public": league.is_public,
        "seasons": [{"slug": s.slug, "name": s.name, "status": s.status} for s in selectors.seasons_of(league)],
    }


def season_dict(season: Season) -> dict[str, Any]:
    divisions = selectors.divisions_of(season)
    return {
        "league": season.league.slug, "slug": season.slug, "name": season.name, "status": season.status,
        "starts_on": season.starts_on, "ends_on": season.ends_on,
        "planned_matchdays": season.planned_matchdays, "seed": season.seed,
        "previous": season.previous.slug if season.previous else None,
        "formation": season.formation,
        "divisions": [{
            "level": d.level, "name": d.name, "size": d.size, "is_qualification": d.is_qualification,
            "plays_matchdays": d.plays_matchdays,
            "members": [{"seed_position": m.seed_position, "origin": m.origin, "final_rank": m.final_rank,
                         "player": _player_dict(m.player)} for m in d.memberships.all()],
        } for d in divisions],
        "matchdays": [{"number": m.number, "date": m.date, "event": m.event.slug,
                       "played": selectors.matchday_is_played(m)} for m in selectors.matchdays_of(season)],
        "schedule": {"version": (season.schedule or {}).get("version"),
                     "repeat_pairs": {level: d.get("repeat_pairs")
                                      for level, d in (season.schedule or {}).get("divisions", {}).items()}},
    }


def standings_dict(standings: league_standings.SeasonStandings) -> dict[str, Any]:
    return {
        "after_matchday": standings.after, "final": standings.final,
        "pending_tables": [{"matchday": m, "table": t} for m, t in standings.pending],
        "tie_breaks": ["score", *league_standings.TIE_BREAKS],
        "divisions": [{
            "level": ds.division.level, "name": ds.division.name, "ranked": ds.ranked,
            "rows": [{
                "rank": r.rank if ds.ranked else None, "player": _player_dict(r.player),
                "seed_position": r.seed_position, "origin": r.membership.origin,
                "score": r.score, "table_points": str(r.table_points),
                "matchdays_played": r.matchdays_played, "best_matchday": r.best_matchday,
                "per_matchday": {str(k): v for k, v in sorted(r.per_matchday.items())},
                "tie_break": r.tie_break or None, "zone": r.zone or None, "adjusted": r.adjusted,
            } for r in ds.rows],
        } for ds in standings.divisions],
    }


def plan_dict(plan: next_season.NextSeasonPlan) -> dict[str, Any]:
    return {
        "divisions": [{
            "level": d.level, "name": d.name, "size": d.size, "is_qualification": d.is_qualification,
            "vacant_positions": d.vacant_positions(),
            "placements": [{"seed_position": p.seed_position, "origin": p.origin, "player": _player_dict(p.player),
                            "from_division": p.from_division, "from_rank": p.from_rank, "note": p.note}
                           for p in d.placements],
        } for d in plan.divisions],
        "dropped_out": [{"player": _player_dict(p.player), "from_division": p.from_division,
                         "from_rank": p.from_rank} for p in plan.dropped_out],
        "not_admitted": [_player_dict(p) for p in plan.not_admitted],
        "applicants_ranked": [{"player": _player_dict(p), "why": why} for p, why in plan.applicants_ranked],
        "criterion": plan.criterion, "notes": plan.notes, "errors": plan.errors,
    }


def cup_dict(series: CupSeries) -> dict[str, Any]:
    return {
        "slug": series.slug, "name": series.name, "season_label": series.season_label,
        "best_results_counted": series.best_results_counted, "final_counts_extra": series.final_counts_extra,
        "is_public": series.is_public,
        "points_table": {str(k): v for k, v in selectors.cup_points_table(series).items()},
        "events": [{"event": se.event.slug, "name": se.event.name, "order": se.order, "is_final": se.is_final,
                    "finished": se.event.status == Event.Status.FINISHED} for se in selectors.cup_events(series)],
    }


def ranking_dict(ranking: cup_totals.CupRanking) -> dict[str, Any]:
    return {
        "table_incomplete": ranking.table_incomplete, "missing_places": ranking.missing_places,
        "places_beyond_table": ranking.beyond_table,
        "counted_events": [se.event.slug for se in ranking.counted_events],
        "rows": [{
            "rank": r.rank, "player": _player_dict(r.player), "total": r.total,
            "qualified_for_final": r.qualified_for_final, "tournaments_played": r.tournaments_played,
            "results": [{"event": x.event.slug, "is_final": x.is_final, "place": x.place, "points": x.points,
                         "has_entry": x.has_entry, "counted": x.counted} for x in r.results],
        } for r in ranking.rows],
    }


# ---------------------------------------------------------------------------------------
# Views
# ---------------------------------------------------------------------------------------

OBJ = {"request": OpenApiTypes.OBJECT, "responses": {200: OpenApiTypes.OBJECT, 201: OpenApiTypes.OBJECT,
                                                     400: OpenApiTypes.OBJECT, 403: OpenApiTypes.OBJECT,
                                                     404: OpenApiTypes.OBJECT}}
# A removal answers 204 without a body.
REMOVAL = {"request": OpenApiTypes.OBJECT, "responses": {204: None, 400: OpenApiTypes.OBJECT,
                                                         403: OpenApiTypes.OBJECT,
                                                         404: OpenApiTypes.OBJECT}}


class _Base(APIView):
    permission_classes = [AllowAny]

    def handle_exception(self, exc):
        if isinstance(exc, ServiceError):
            return Response({"errors": exc.errors}, status=exc.status)
        return super().handle_exception(exc)

    # -- lookups and roles ---------------------------------------------------------------
    def league(self, request: Request, slug: str, *, write: bool = False) -> League:
        league = selectors.league_by_slug(slug)
        if league is None or not roles.can_view_league(request.user, league):
            raise NotFound(f"no league {slug!r}", field="league", code="not_found")
        if write and not roles.can_organise_league(request.user, league):
            raise Forbidden("only the league's organisers may change it", field="league", code="forbidden")
        return league

    def season(self, request: Request, slug: str, season: str, *, write: bool = False) -> Season:
        league = self.league(request, slug, write=write)
        found = selectors.season_by_slug(league, season)
        if found is None:
            raise NotFound(f"no season {season!r}", field="season", code="not_found")
        return found

    def matchday(self, season: Season, number: int) -> Matchday:
        found = season.matchdays.select_related("event").filter(number=number).first()
        if found is None:
            raise NotFound(f"no matchday {number}", field="matchday", code="not_found")
        return found

    def cup(self, request: Request, slug: str, *, write: bool = False) -> CupSeries:
        series = selectors.cup_by_slug(slug)
        if series is None or not roles.can_view_cup(request.user, series):
            raise NotFound(f"no cup series {slug!r}", field="cup", code="not_found")
        if write and not roles.can_organise_cup(request.user, series):
            raise Forbidden("only the cup's organisers may change it", field="cup", code="forbidden")
        return series

    def staff(self, request: Request) -> None:
        if not roles.can_create(request.user):
            raise Forbidden("only who may create events creates leagues and cup series", field="user",
                            code="forbidden")


class LeagueListView(_Base):
    @extend_schema(operation_id="leagues_list", **OBJ)
    def get(self, request: Request) -> Response:
        return Response({"leagues": [league_dict(x) for x in selectors.public_leagues()]})

    @extend_schema(operation_id="leagues_create", **OBJ)
    def post(self, request: Request) -> Response:
        self.staff(request)
        data = _body(request)
        league = services.league_create(actor=request.user, organisers=[request.user],
                                        **_only(data, services.LEAGUE_FIELDS))
        return Response(league_dict(league), status=201)


class LeagueDetailView(_Base):
    @extend_schema(operation_id="league_retrieve", **OBJ)
    def get(self, request: Request, slug: str) -> Response:
        return Response(league_dict(self.league(request, slug)))

    @extend_schema(operation_id="league_update", **OBJ)
    def patch(self, request: Request, slug: str) -> Response:
        league = self.league(request, slug, write=True)
        data = _only(_body(request), services.LEAGUE_FIELDS - {"slug"})
        return Response(league_dict(services.league_update(league=league, actor=request.user, **data)))


class SeasonListView(_Base):
    @extend_schema(operation_id="league_seasons_list", **OBJ)
    def get(self, request: Request, slug: str) -> Response:
        league = self.league(request, slug)
        return Response({"seasons": [season_dict(s) for s in selectors.seasons_of(league)]})

    @extend_schema(operation_id="league_season_create", **OBJ)
    def post(self, request: Request, slug: str) -> Response:
        league = self.league(request, slug, write=True)
        data = _body(request)
        season = services.season_create(
            league=league, actor=request.user, name=str(data.get("name", "")), slug=str(data.get("slug", "")),
            starts_on=_date(data, "starts_on"), ends_on=_date(data, "ends_on"),
            planned_matchdays=_int(data, "planned_matchdays", default=9), seed=_int(data, "seed"),
            divisions=data.get("divisions"))
        return Response(season_dict(season), status=201)


class SeasonDetailView(_Base):
    @extend_schema(operation_id="league_season_retrieve", **OBJ)
    def get(self, request: Request, slug: str, season: str) -> Response:
        return Response(season_dict(self.season(request, slug, season)))

    @extend_schema(operation_id="league_season_update", **OBJ)
    def patch(self, request: Request, slug: str, season: str) -> Response:
        obj = self.season(request, slug, season, write=True)
        data = _body(request)
        fields: dict[str, Any] = {}
        if "name" in data:
            fields["name"] = str(data["name"])
        for name in ("starts_on", "ends_on"):
            if name in data:
                fields[name] = _date(data, name)
        if "planned_matchdays" in data:
            fields["planned_matchdays"] = _int(data, "planned_matchdays", required=True)
        return Response(season_dict(services.season_update(season=obj, actor=request.user, **fields)))


class StandingsView(_Base):
    @extend_schema(operation_id="league_season_standings", **OBJ)
    def get(self, request: Request, slug: str, season: str) -> Response:
        obj = self.season(request, slug, season)
        after = _int(request.query_params, "after")
        return Response(standings_dict(league_standings.season_standings(obj, after=after)))


def _job_dict(job: Any) -> dict[str, Any] | None:
    """A schedule job's progress (large divisions are drawn in the background)."""
    if job is None:
        return None
    return {"id": job.pk, "status": job.status, "progress": job.progress, "total": job.total,
            "message": job.message}


class ScheduleView(_Base):
    @extend_schema(operation_id="league_season_schedule", **OBJ)
    def get(self, request: Request, slug: str, season: str) -> Response:
        obj = self.season(request, slug, season)
        return Response({
            "version": (obj.schedule or {}).get("version"), "seed": (obj.schedule or {}).get("seed"),
            "divisions": [{
                "level": item["division"].level, "name": item["division"].name,
                "repeat_pairs": item["repeat_pairs"], "notes": item["notes"],
                "bound": item["bound"], "distance": item["distance"],
                "matchdays": [{"number": md["number"],
                               "tables": [[p.pk for p in table if p] for table in md["tables"]]}
                              for md in item["matchdays"]],
            } for item in selectors.schedule_view(obj, selectors.divisions_of(obj))],
            "job": _job_dict(services.schedule_job_of(obj)),
        })

    @extend_schema(operation_id="league_season_schedule_generate", **OBJ)
    def post(self, request: Request, slug: str, season: str) -> Response:
        obj = self.season(request, slug, season, write=True)
        data = _body(request)
        if services.schedule_needs_job(obj):
            job = services.schedule_job_queue(season=obj, actor=request.user, seed=_int(data, "seed"))
            return Response(_job_dict(job), status=202)
        services.schedule_generate(season=obj, actor=request.user, seed=_int(data, "seed"))
        return self.get(request, slug, season)


class ScheduleSwapView(_Base):
    @extend_schema(operation_id="league_season_schedule_swap", **OBJ)
    def post(self, request: Request, slug: str, season: str) -> Response:
        obj = self.season(request, slug, season, write=True)
        data = _body(request)
        players = _players(data, "players")
        if len(players) != 2:
            raise ServiceError("name the two players to swap", field="players", code="two_players")
        result = services.schedule_swap(season=obj, division=_division(obj, data),
                                        matchday_number=_int(data, "matchday", required=True),
                                        first=players[0], second=players[1], actor=request.user,
                                        reason=str(data.get("reason", "")))
        return Response(result)


class MembersView(_Base):
    @extend_schema(operation_id="league_season_member_add", **OBJ)
    def post(self, request: Request, slug: str, season: str) -> Response:
        obj = self.season(request, slug, season, write=True)
        data = _body(request)
        membership = services.membership_add(
            division=_division(obj, data), player=_player(data.get("player"), "player"), actor=request.user,
            seed_position=_int(data, "seed_position"), origin=str(data.get("origin") or "new"))
        return Response({"division": membership.division.level, "seed_position": membership.seed_position,
                         "player": _player_dict(membership.player), "origin": membership.origin}, status=201)


class MemberDetailView(_Base):
    @extend_schema(operation_id="league_season_member_remove", **REMOVAL)
    def delete(self, request: Request, slug: str, season: str, player: int) -> Response:
        obj = self.season(request, slug, season, write=True)
        membership = obj.memberships.filter(player_id=player).select_related("division").first()
        if membership is None:
            raise NotFound(f"player {player} is not in the season", field="player", code="not_found")
        reason = str(request.query_params.get("reason") or (request.data.get("reason") if isinstance(request.data, dict) else "") or "")
        services.membership_remove(membership=membership, actor=request.user, reason=reason)
        return Response(status=204)


class ApplicantsView(_Base):
    @extend_schema(operation_id="league_season_applicants_select", **OBJ)
    def post(self, request: Request, slug: str, season: str) -> Response:
        obj = self.season(request, slug, season, write=True)
        data = _body(request)
        out = services.applicants_select(season=obj, applicants=_players(data, "players"), actor=request.user,
                                         criterion=data.get("criterion") or None,
                                         criterion_event=_event(data, "criterion_event", request.user))
        return Response({
            "placed": [{"division": m.division.level, "seed_position": m.seed_position,
                        "player": _player_dict(m.player)} for m in out["placed"]],
            "qualification_group": [_player_dict(m.player) for m in out["qualification"]],
            "not_admitted": [_player_dict(p) for p in out["not_admitted"]],
        })


class MatchdayListView(_Base):
    @extend_schema(operation_id="league_season_matchday_create", **OBJ)
    def post(self, request: Request, slug: str, season: str) -> Response:
        obj = self.season(request, slug, season, write=True)
        data = _body(request)
        matchday = services.matchday_create(season=obj, actor=request.user, date=_date(data, "date", required=True),
                                            venue=str(data.get("venue", "")), number=_int(data, "number"))
        return Response({"number": matchday.number, "date": matchday.date, "event": matchday.event.slug}, status=201)


class MatchdayDetailView(_Base):
    @extend_schema(operation_id="league_season_matchday_update", **OBJ)
    def patch(self, request: Request, slug: str, season: str, number: int) -> Response:
        obj = self.season(request, slug, season, write=True)
        data = _body(request)
        matchday = services.matchday_update(matchday=self.matchday(obj, number), actor=request.user,
                                            date=_date(data, "date"),
                                            venue=str(data["venue"]) if "venue" in data else None)
        return Response({"number": matchday.number, "date": matchday.date, "event": matchday.event.slug,
                         "venue": matchday.event.venue})


class _MatchdayActionView(_Base):
    """POST .../matchdays/<n>/seat|publish|close/: one step of a matchday's round."""

    action_name = ""

    def act(self, request: Request, slug: str, season: str, number: int) -> Response:
        obj = self.season(request, slug, season, write=True)
        matchday = self.matchday(obj, number)
        action = {"seat": services.matchday_seat, "publish": services.matchday_publish,
                  "close": services.matchday_close}[self.action_name]
        rnd = action(matchday=matchday, actor=request.user)
        return Response({"matchday": matchday.number, "event": matchday.event.slug, "round": rnd.number,
                         "status": rnd.status, "tables": rnd.tables.count()})


class MatchdaySeatView(_MatchdayActionView):
    action_name = "seat"

    @extend_schema(operation_id="league_season_matchday_seat", **OBJ)
    def post(self, request: Request, slug: str, season: str, number: int) -> Response:
        return self.act(request, slug, season, number)


class MatchdayPublishView(_MatchdayActionView):
    action_name = "publish"

    @extend_schema(operation_id="league_season_matchday_publish", **OBJ)
    def post(self, request: Request, slug: str, season: str, number: int) -> Response:
        return self.act(request, slug, season, number)


class MatchdayCloseView(_MatchdayActionView):
    action_name = "close"

    @extend_schema(operation_id="league_season_matchday_close", **OBJ)
    def post(self, request: Request, slug: str, season: str, number: int) -> Response:
        return self.act(request, slug, season, number)


class SeasonFinishView(_Base):
    @extend_schema(operation_id="league_season_finish", **OBJ)
    def post(self, request: Request, slug: str, season: str) -> Response:
        obj = self.season(request, slug, season, write=True)
        services.season_finish(season=obj, actor=request.user)
        return Response(standings_dict(league_standings.season_standings(obj)))


class FinalOrderView(_Base):
    @extend_schema(operation_id="league_season_final_order", **OBJ)
    def post(self, request: Request, slug: str, season: str) -> Response:
        obj = self.season(request, slug, season, write=True)
        data = _body(request)
        services.division_set_final_order(division=_division(obj, data), players=_players(data, "players"),
                                          actor=request.user, reason=str(data.get("reason", "")))
        return Response(standings_dict(league_standings.season_standings(obj)))


def _plan_args(data: Any, request: Request) -> dict[str, Any]:
    return {"leaving": _players(data, "leaving"), "applicants": _players(data, "applicants"),
            "criterion": data.get("criterion") or None, "criterion_event": _event(data, "criterion_event", request.user),
            "qualification_event": _event(data, "qualification_event", request.user)}


class NextPlanView(_Base):
    @extend_schema(operation_id="league_season_next_plan", **OBJ)
    def get(self, request: Request, slug: str, season: str) -> Response:
        obj = self.season(request, slug, season)
        return Response(plan_dict(next_season.next_season_plan(obj, **_plan_args(request.query_params, request))))


class SeasonAdvanceView(_Base):
    @extend_schema(operation_id="league_season_advance", **OBJ)
    def post(self, request: Request, slug: str, season: str) -> Response:
        obj = self.season(request, slug, season, write=True)
        data = _body(request)
        new = services.season_advance(
            season=obj, actor=request.user, name=str(data.get("name", "")), slug=str(data.get("slug", "")),
            starts_on=_date(data, "starts_on"), ends_on=_date(data, "ends_on"),
            planned_matchdays=_int(data, "planned_matchdays"), seed=_int(data, "seed"), **_plan_args(data, request))
        return Response(season_dict(new), status=201)


class CupListView(_Base):
    @extend_schema(operation_id="cups_list", **OBJ)
    def get(self, request: Request) -> Response:
        return Response({"cups": [cup_dict(c) for c in selectors.public_cups()]})

    @extend_schema(operation_id="cups_create", **OBJ)
    def post(self, request: Request) -> Response:
        self.staff(request)
        data = _body(request)
        series = services.cup_create(actor=request.user, organisers=[request.user],
                                     seed_points=bool(data.get("seed_points", False)),
                                     **_only(data, services.CUP_FIELDS))
        return Response(cup_dict(series), status=201)


class CupDetailView(_Base):
    @extend_schema(operation_id="cup_retrieve", **OBJ)
    def get(self, request: Request, slug: str) -> Response:
        return Response(cup_dict(self.cup(request, slug)))

    @extend_schema(operation_id="cup_update", **OBJ)
    def patch(self, request: Request, slug: str) -> Response:
        series = self.cup(request, slug, write=True)
        data = _only(_body(request), services.CUP_FIELDS - {"slug"})
        return Response(cup_dict(services.cup_update(series=series, actor=request.user, **data)))


class CupRankingView(_Base):
    @extend_schema(operation_id="cup_ranking", **OBJ)
    def get(self, request: Request, slug: str) -> Response:
        return Response(ranking_dict(cup_totals.cup_ranking(self.cup(request, slug))))


class CupPointsView(_Base):
    @extend_schema(operation_id="cup_points_set", **OBJ)
    def put(self, request: Request, slug: str) -> Response:
        series = self.cup(request, slug, write=True)
        data = _body(request)
        services.cup_points_set(series=series, table=data.get("points"), actor=request.user,
                                reason=str(data.get("reason", "")))
        return Response(cup_dict(series))


class CupEventsView(_Base):
    @extend_schema(operation_id="cup_event_add", **OBJ)
    def post(self, request: Request, slug: str) -> Response:
        series = self.cup(request, slug, write=True)
        data = _body(request)
        event = _event(data, "event", request.user)
        if event is None:
            raise ServiceError("event is required", field="event", code="required")
        services.cup_event_add(series=series, event=event, actor=request.user,
                               is_final=bool(data.get("is_final", False)), order=_int(data, "order"))
        return Response(cup_dict(series), status=201)


class CupEventDetailView(_Base):
    @extend_schema(operation_id="cup_event_remove", **REMOVAL)
    def delete(self, request: Request, slug: str, event: str) -> Response:
        series = self.cup(request, slug, write=True)
        found = _event({"event": event}, "event", request.user)
        services.cup_event_remove(series=series, event=found, actor=request.user,
                                  reason=str(request.query_params.get("reason", "")))
        return Response(status=204)


class PlayerCareerView(_Base):
    @extend_schema(operation_id="player_leagues_and_cups", **OBJ)
    def get(self, request: Request, pk: int) -> Response:
        player = Player.objects.filter(pk=pk).first()
        if player is None:
            raise NotFound(f"no player {pk}", field="player", code="not_found")
        career = careers.player_career(player)
        return Response({
            "player": _player_dict(player),
            "leagues": [{"league": e.league.slug, "season": e.season.slug, "division": e.division.name,
                         "seed_position": e.seed_position, "origin": e.origin, "rank": e.rank,
                         "final": e.final, "score": e.score, "matchdays_played": e.matchdays_played}
                        for e in career["leagues"]],
            "cups": [{"cup": e.series.slug, "rank": e.rank, "total": e.total,
                      "tournaments_played": e.tournaments_played, "counted": e.counted, "players": e.players}
                     for e in career["cups"]],
        })
