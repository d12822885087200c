"""Checking an archive before anything is written: the `Checker` that collects every problem at
its path (`event.rounds[0].tables[2].seats[1].start_number`) and converts values by the model
fields, the document's header, and the players and user accounts an archive names."""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournaments import services
from tournaments.archive.format import FORMAT, PLAYER_FIELDS, VERSION
from tournaments.domain.exact_points import ExactPointsField
from tournaments.models import (
    Player,
)

INVALID = object()


def _json_type(value: Any) -> str:
    """What a JSON value is, in the active language ("null" and "true/false" are JSON's own
    words, the same in every language)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return pgettext("archive value", "a whole number")
    if isinstance(value, float):
        return pgettext("archive value", "a number")
    if isinstance(value, str):
        return pgettext("archive value", "text")
    if isinstance(value, list):
        return pgettext("archive value", "a list")
    return pgettext("archive value", "an object")


def _expected_words(f: models.Field) -> str:
    """What the archive holds for a model field, in the active language (asked only for a
    refusal: translating it for every value of a large archive cost a second at 256 players)."""
    if isinstance(f, models.JSONField):
        return pgettext("archive value", "any JSON value")
    if isinstance(f, models.BooleanField):
        return pgettext("archive value", "true or false")
    if isinstance(f, models.DateTimeField):
        return pgettext("archive value", "a UTC time as text (ISO 8601)")
    if isinstance(f, models.DateField):
        return pgettext("archive value", "a date as text (YYYY-MM-DD)")
    if isinstance(f, models.DecimalField):
        return pgettext("archive value", "a decimal number as text")
    if isinstance(f, ExactPointsField):
        return pgettext("archive value", 'a number as text ("4", "-0.333") or an exact fraction '
                                         '("22/3")')
    if isinstance(f, models.IntegerField):
        return pgettext("archive value", "a whole number")
    return pgettext("archive value", "text")


def _type_check(f: models.Field) -> Any:
    """The check of a JSON value for a model field (the same field kinds as `_expected_words`)."""
    if isinstance(f, models.JSONField):
        return lambda v: True
    if isinstance(f, models.BooleanField):
        return lambda v: isinstance(v, bool)
    if isinstance(f, (models.DateTimeField, models.DateField, models.DecimalField, ExactPointsField)):
        return lambda v: isinstance(v, str)
    if isinstance(f, models.IntegerField):
        return lambda v: isinstance(v, int) and not isinstance(v, bool)
    return lambda v: isinstance(v, str)


@functools.cache
def _field_rule(model: type[models.Model], name: str) -> tuple[models.Field, Any, frozenset | None]:
    """A model field, the check of its JSON type and its choices: looked up once per field,
    not once per value (an archive of 1,024 players holds millions of values)."""
    f = model._meta.get_field(name)
    choices = frozenset(c for c, _label in f.flatchoices) if f.choices else None
    return f, _type_check(f), choices


@dataclass
class Checker:
    """Collects every problem of a document, each at its path, in the errors' contract shape.

    A message is words in the active language (gettext when the problem is found): the
    checker runs inside the request or the management command that reads the archive, so the
    refusal is built in the reader's language; the path and the code stay as they are."""

    errors: list[dict[str, Any]] = field(default_factory=list)
    valid_usernames: dict[str, str] = field(default_factory=dict)

    def add(self, path: str, code: str, message: str, hand: int | None = None) -> None:
        self.errors.append({"hand": hand, "field": path, "code": code,
                            "message": f"{path}: {message}" if path else message})

    def obj(self, value: Any, path: str, keys: tuple[str, ...] | set[str], *,
            optional: tuple[str, ...] = ()) -> dict[str, Any] | None:
        """An object with exactly these keys (missing and unknown keys are both problems: an
        unknown key is data this version would lose), but for the `optional` ones a later
        version of the format added, which an older archive lacks."""
        if not isinstance(value, dict):
            self.add(path, "not_an_object", _("must be an object, got %(type)s") % {"type": _json_type(value)})
            return None
        for key in sorted(set(keys) - set(value) - set(optional)):
            self.add(f"{path}.{key}", "missing", _("is required"))
        for key in sorted(set(value) - set(keys)):
            self.add(f"{path}.{key}", "unknown_key",
                     _("is not part of this archive format version"))
        return value

    def items(self, value: Any, path: str) -> list[Any]:
        if not isinstance(value, list):
            self.add(path, "not_a_list", _("must be a list, got %(type)s") % {"type": _json_type(value)})
            return []
        return value

    def value(self, model: type[models.Model], name: str, value: Any, path: str) -> Any:
        """A model field's value from the archive, converted and checked with the field's own
        validators (length, choices, ranges, time zones), or INVALID."""
        f, type_check, choices = _field_rule(model, name)
        if value is None:
            if f.null:
                return None
            self.add(path, "null", _("may not be null"))
            return INVALID
        if not type_check(value):
            self.add(path, "wrong_type", _("must be %(expected)s, got %(type)s") % {
                "expected": _expected_words(f), "type": _json_type(value)})
            return INVALID
        if isinstance(f, models.DateTimeField):
            parsed = _parse_time(value)
            if parsed is None:
                self.add(path, "invalid_time",
                         _("must be a time with its UTC offset (2026-11-14T09:00:00Z), got "
                           "%(value)s") % {"value": repr(value)})
                return INVALID
            return parsed
        if isinstance(f, models.DateField) and parse_date_safe(value) is None:
            self.add(path, "invalid_date", _("must be a date (YYYY-MM-DD), got %(value)s") % {
                "value": repr(value)})
            return INVALID
        try:
            converted = f.to_python(value)
            if choices is not None and converted not in choices:
                self.add(path, "invalid_choice", _("must be one of %(choices)s, got %(value)s") % {
                    "choices": ", ".join(str(c) for c, _label in f.flatchoices), "value": repr(value)})
                return INVALID
            if f.validators:
                f.run_validators(converted)
        except ValidationError as exc:
            for message in exc.messages:
                self.add(path, "invalid", message)
            return INVALID
        return converted

    def fields(self, model: type[models.Model], names: tuple[str, ...], data: dict[str, Any],
               path: str, *, optional: tuple[str, ...] = ()) -> dict[str, Any] | None:
        """The named fields of an object, converted; None when any is invalid or missing. An
        `optional` field (one a later version of the format added) may be missing: the model's
        default stands for it."""
        out = {}
        ok = True
        for name in names:
            if name not in data:
                ok = ok and name in optional
                continue
            value = self.value(model, name, data[name], f"{path}.{name}")
            if value is INVALID:
                ok = False
            out[name] = value
        return out if ok else None

    def number(self, value: Any, path: str, *, minimum: int = 1, nullable: bool = False) -> int | None:
        if value is None and nullable:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
            self.add(path, "invalid_number", _("must be a whole number from %(minimum)s, got "
                                                "%(value)s") % {"minimum": minimum, "value": repr(value)})
            return None
        return value

    def username(self, value: Any, path: str, *, nullable: bool = True) -> str | None:
        if value is None and nullable:
            return None
        # The same few officials name thousands of hands and entries: a name is checked once.
        if isinstance(value, str) and value in self.valid_usernames:
            return self.valid_usernames[value]
        user_model = get_user_model()
        cleaned = self.value(user_model, user_model.USERNAME_FIELD, value, path)
        if cleaned is INVALID:
            return None
        if isinstance(value, str):
            self.valid_usernames[value] = cleaned
        return cleaned

    def check_constraints(self, instance: models.Model, path: str) -> None:
        """The model's own check constraints on an unsaved instance (rules such as "the last
        day is not before the first" that no single field can say)."""
        for constraint in type(instance)._meta.constraints:
            if not isinstance(constraint, models.CheckConstraint):
                continue
            try:
                constraint.validate(type(instance), instance)
            except ValidationError:
                self.add(path, "constraint", _("breaks the rule %(rule)s") % {"rule": constraint.name})


def _parse_time(value: str) -> dt.datetime | None:
    try:
        parsed = parse_datetime(value)
    except ValueError:
        return None
    if parsed is None or parsed.tzinfo is None:
        return None
    return parsed.astimezone(dt.UTC)


def parse_date_safe(value: str) -> dt.date | None:
    try:
        return parse_date(value)
    except ValueError:
        return None


def check_header(doc: Any, kind: str, checker: Checker, body_keys: tuple[str, ...]) -> dict | None:
    """Format, version and kind first: a file of another format or version is not read
    further, since its paths would mean something else."""
    if not isinstance(doc, dict):
        checker.add("archive", "not_an_object", _("the archive must be a JSON object"))
        return None
    if doc.get("format") != FORMAT:
        checker.add("format", "wrong_format",
                    _("this is not a %(format)s file (format is %(found)s)") % {
                        "format": FORMAT, "found": repr(doc.get("format"))})
        return None
    if doc.get("version") != VERSION:
        checker.add("version", "unsupported_version",
                    _("archive format version %(found)s is not supported; this application "
                      "reads version %(version)s") % {"found": repr(doc.get("version")),
                                                      "version": VERSION})
        return None
    if doc.get("kind") != kind:
        checker.add("kind", "wrong_kind",
                    _("this is an archive of a %(found)s, not of a %(kind)s") % {
                        "found": repr(doc.get("kind")), "kind": repr(kind)})
        return None
    doc = checker.obj(doc, "", ("format", "version", "kind", "exported_with", *body_keys))
    if doc is not None and not isinstance(doc.get("exported_with"), dict | None):
        checker.add("exported_with", "not_an_object", _("must be an object"))
    return doc



@dataclass
class NewPlayer:
    """A player the import will create (none in the database matches)."""

    values: dict[str, Any]
    user: str | None
    created: Player | None = None


@dataclass
class PlayerResolver:
    """Finds the database player an archived player is, shared by everything one import
    reads so that the same person in two matchdays is one player.

    An archived player is matched by federation id when he has one; else by the user linked to
    him; else by first name, last name and club (the k-th player of the same name and club in
    one event is the k-th such player of the database, so namesakes stay apart). Matched
    players are reused unchanged; the others are created.
    """

    cache: dict[tuple, Player | NewPlayer] = field(default_factory=dict)
    claimed: set[int] = field(default_factory=set)
    # The registry's candidates read ahead for a whole file (`prefetch`): by federation id, by
    # username, and the namesakes by (first name, last name, club) in id order. A key read
    # ahead and not found is None (or []); a key never read ahead is looked up on its own.
    by_federation_id: dict[str, Player | None] = field(default_factory=dict)
    by_user: dict[str, Player | None] = field(default_factory=dict)
    namesakes: dict[tuple[str, str, str], list[Player]] = field(default_factory=dict)
    # The players this import creates, by the username linked to them.
    new_by_user: dict[str, NewPlayer] = field(default_factory=dict)

    @staticmethod
    def identity(values: dict[str, Any], user: str | None, occurrence: int) -> tuple:
        if values["federation_id"]:
            return ("federation_id", values["federation_id"])
        if user:
            return ("user", user)
        return ("name", values["first_name"], values["last_name"], values["club"], occurrence)

    def prefetch(self, players: list[tuple[dict[str, Any], str | None]]) -> None:
        """Read the registry's candidates of every archived (values, username) at once: three
        queries for a file instead of up to three a player. Nothing is written between this
        and the resolving (the whole file is checked first), so the answers are the same."""
        feds = {v["federation_id"] for v, _user in players if v["federation_id"]} - set(self.by_federation_id)
        if feds:
            self.by_federation_id.update(dict.fromkeys(feds))
            self.by_federation_id.update(
                {p.federation_id: p for p in Player.objects.filter(federation_id__in=sorted(feds))})
        names = {u for _values, u in players if u} - set(self.by_user)
        if names:
            field_name = get_user_model().USERNAME_FIELD
            self.by_user.update(dict.fromkeys(names))
            self.by_user.update({p.user.get_username(): p for p in Player.objects.filter(
                **{f"user__{field_name}__in": sorted(names)}).select_related("user")})
        triples = {(v["first_name"], v["last_name"], v["club"]) for v, _user in players} - set(self.namesakes)
        if triples:
            for triple in triples:
                self.namesakes[triple] = []
            for p in Player.objects.filter(last_name__in=sorted({t[1] for t in triples})).order_by("pk"):
                key = (p.first_name, p.last_name, p.club)
                if key in triples:
                    self.namesakes[key].append(p)

    def _by_federation_id(self, federation_id: str) -> Player | None:
        if federation_id in self.by_federation_id:
            return self.by_federation_id[federation_id]
        return Player.objects.filter(federation_id=federation_id).first()

    def _by_username(self, user: str) -> Player | None:
        if user in self.by_user:
            return self.by_user[user]
        return Player.objects.filter(user__username=user).first()

    def _namesake(self, values: dict[str, Any]) -> Player | None:
        """The first namesake by id not yet claimed (with no federation id of his own when the
        archived player has one: a namesake with another federation id is somebody else)."""
        triple = (values["first_name"], values["last_name"], values["club"])
        if triple not in self.namesakes:
            namesakes = Player.objects.filter(
                first_name=values["first_name"], last_name=values["last_name"],
                club=values["club"]).exclude(pk__in=self.claimed).order_by("pk")
            if values["federation_id"]:
                namesakes = namesakes.filter(federation_id="")
            return namesakes.first()
        return next((p for p in self.namesakes[triple] if p.pk not in self.claimed
                     and not (values["federation_id"] and p.federation_id)), None)

    def resolve(self, values: dict[str, Any], user: str | None, occurrence: int) -> Player | NewPlayer:
        ident = self.identity(values, user, occurrence)
        if ident in self.cache:
            return self.cache[ident]
        found: Player | NewPlayer | None = None
        if values["federation_id"]:
            found = self._by_federation_id(values["federation_id"])
        if found is None and user:
            found = self._by_username(user)
            if found is None:
                found = self.new_by_user.get(user)
        if found is None:
            found = self._namesake(values)
        if found is None:
            found = NewPlayer(values=values, user=user)
            if user:
                self.new_by_user.setdefault(user, found)
        if isinstance(found, Player):
            self.claimed.add(found.pk)
        self.cache[ident] = found
        return found

    def materialise(self, found: Player | NewPlayer, users: dict[str, Any]) -> Player:
        if isinstance(found, Player):
            return found
        if found.created is None:
            self.materialise_all([found], users)
        return found.created

    def materialise_all(self, founds: list[Player | NewPlayer], users: dict[str, Any]) -> None:
        """Create every new player among `founds` at once (one insert, not one per player)."""
        new = list({id(f): f for f in founds
                    if isinstance(f, NewPlayer) and f.created is None}.values())
        if not new:
            return
        created = services.players_create_many(players=[
            {**f.values, "user": users[f.user] if f.user else None} for f in new])
        for found, player in zip(new, created, strict=True):
            found.created = player


def check_player(checker: Checker, data: Any, path: str, usernames: set[str]
                 ) -> tuple[dict[str, Any], str | None] | None:
    data = checker.obj(data, path, (*PLAYER_FIELDS, "user"))
    if data is None:
        return None
    values = checker.fields(Player, PLAYER_FIELDS, data, path)
    user = checker.username(data.get("user"), f"{path}.user")
    if values is None:
        return None
    if not values["first_name"] and not values["last_name"]:
        checker.add(f"{path}.last_name", "required", _("a player needs a first or a last name"))
        return None
    if user:
        usernames.add(user)
    return values, user


def ensure_users(usernames: set[str]) -> dict[str, Any]:
    """{username: user}, creating the missing ones inactive and without a usable password:
    they keep the names on the record, and nobody can log in as them until staff say so."""
    user_model = get_user_model()
    field_name = user_model.USERNAME_FIELD
    users = {u.get_username(): u
             for u in user_model.objects.filter(**{f"{field_name}__in": sorted(usernames)})}
    for name in sorted(usernames - set(users)):
        user = user_model(**{field_name: name}, is_active=False)
        user.set_unusable_password()
        user.save()
        users[name] = user
    return users
