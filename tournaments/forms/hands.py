"""The hand form, built from the ruleset's own description (`Ruleset.describe()`): only the
games, announcements, contra levels and penalty kinds of the event's ruleset and mode are
offered, and which fields a game needs follows from how the game is decided. The same form
checks a hand against the engine while it is typed (`hand_feedback`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

import scoring
from tournaments.domain import limits
from tournaments.engine_text import error_text
from tournaments.forms.common import (
    ANNOUNCEMENT_ROWS,
    BLANK,
    CONTRA_ROWS,
    PENALTY_ROWS,
    ruleset_description,
)
from tournaments.seating import SeatingInvalid
from tournaments.seating.rotation import rest_rotation
from tournaments.text import ruleset_text


def penalty_choices(description: dict[str, Any] | None) -> list[tuple[str, str]]:
    """(kind, name in the reader's language) of a ruleset's penalties."""
    names = {p["kind"]: p.get("name") or p["kind"] for p in (description or {}).get("penalties", [])}
    return [(kind, ruleset_text.text(names.get(kind, kind)))
            for kind in (description or {}).get("penalty_kinds", [])]


@dataclass
class EntryContext:
    """What a table's hand form needs to know: the ruleset's offer for the card's mode, the
    players at the table in seat order and the rotation of dealer, resting player and
    forehand hand by hand."""

    description: dict[str, Any]
    mode: str
    players: list[tuple[str, str]]  # (start number, "7 · Name")
    hands_per_round: int
    games: list[dict[str, Any]] = field(default_factory=list)
    announcements: list[dict[str, Any]] = field(default_factory=list)
    contra_on: list[str] = field(default_factory=list)
    contra_levels: list[dict[str, Any]] = field(default_factory=list)
    penalty_kinds: list[str] = field(default_factory=list)
    props: dict[str, Any] = field(default_factory=dict)
    announcement_props: set[str] = field(default_factory=set)
    contra_props: set[str] = field(default_factory=set)
    uses_resting: bool = False
    rotation: list[dict[str, Any]] = field(default_factory=list)

    @property
    def pids(self) -> list[str]:
        return [pid for pid, _label in self.players]

    def penalty_choices(self) -> list[tuple[str, str]]:
        """(kind, name in the reader's language) of the ruleset's penalties."""
        return penalty_choices(self.description)

    def game(self, code: str) -> dict[str, Any] | None:
        for game in self.games:
            if game["code"] == code:
                return game
        return None

    def rotation_of(self, number: int) -> dict[str, Any] | None:
        if 1 <= number <= len(self.rotation):
            return self.rotation[number - 1]
        if self.rotation:
            # Past the planned hands the deal keeps passing round the table.
            return self.rotation[(number - 1) % len(self.rotation)]
        return None

    @property
    def used_fields(self) -> set[str]:
        return {name for game in self.games for name in game["fields"]}

    def game_fields_json(self) -> dict[str, list[str]]:
        return {g["code"]: g["fields"] for g in self.games}


# A game's mark (in its fields) that every seated player plays it, the talon too.
ALL_PLAY = "all_play"


def game_fields(game: dict[str, Any], players_in_hand: int, props: dict[str, Any],
                has_announcements: bool) -> list[str]:
    """The fields a game needs, from how the ruleset decides it: games of a declarer name him
    and give his points or whether he won; games every player plays for himself (klop,
    Trischaken, Varšava) give each player's points."""
    decided = game.get("decided_by")
    out: list[str] = []
    if decided in ("points", "tricks"):
        out.append("declarer")
        partnered = (game.get("partner_value") is not None or game.get("calls_king")
                     or game.get("calls_king_in_four") or "called" in game)
        if "partner" in props and players_in_hand >= 4 and partnered:
            out.append("partner")
        if "called" in game and "called" in props:
            out.append("called")
        if "conceded" in props and game.get("calls_king"):
            out.append("conceded")
        if "points" in props and (decided == "points" or game.get("points_optional")):
            out.append("points")
        if decided == "tricks" and "won" in props:
            out.append("won")
        if has_announcements:
            out.append("announcements")
    else:
        # a game may name the per-player numbers it reads (two-player tarok's ordinary game
        # counts points only)
        for name in game.get("per_player") or ("points_by_player", "tricks_by_player",
                                                "blatt_by_player"):
            if name in props:
                out.append(name)
    return out


def _contra_targets(contra_items: dict[str, Any], desc: dict[str, Any], mode: str) -> list[str]:
    """What a contra may be on at this table: the game, a game the schema names (klop) and the
    announcements of this table form; an announcement of another form (kralj ultimo, only in
    four) is refused by the engine, so it is not offered."""
    other_forms = {a["code"] for a in desc.get("announcements", []) if mode not in a.get("modes", [mode])}
    return [on for on in contra_items.get("on", {}).get("enum", []) if on not in other_forms]


def entry_context(*, code: str, mode: str, players: list[tuple[str, str]],
                  hands_per_round: int) -> EntryContext:
    desc = ruleset_description(code) or {}
    props = desc.get("hand_schema", {}).get("properties", {})
    mode_info = next((m for m in desc.get("modes", []) if m["code"] == mode), None) or {}
    in_hand = mode_info.get("players_in_hand", len(players))
    announcements = [a for a in desc.get("announcements", []) if mode in a.get("modes", [mode])]
    games: list[dict[str, Any]] = []
    seen: set[str] = set()
    for game in desc.get("games", []):
        if mode not in game.get("modes", [mode]) or game["code"] in seen:
            continue
        seen.add(game["code"])
        games.append({**game, "fields": game_fields(game, in_hand, props, bool(announcements))})
    contra_items = props.get("contras", {}).get("items", {}).get("properties", {})
    ann_items = props.get("announcements", {}).get("items", {}).get("properties", {})
    uses_resting = ("resting" in props and mode_info.get("seats", 0) > in_hand
                    and len(players) > in_hand)
    if uses_resting:
        # Seed 000 §3: "trije igrajo, talon počiva (razen v primeru klopa, ko igrajo vsi štirje
        # igralci)". In a game every player plays for himself nobody rests: the form names
        # the talon (who gives no kontra, §3.8) instead of a resting player (ALL_PLAY is no
        # field, only what the page says).
        for game in games:
            if "declarer" not in game["fields"]:
                game["fields"].append(ALL_PLAY)
    try:
        rotation = rest_rotation([pid for pid, _label in players], max(hands_per_round, 1))
    except SeatingInvalid:
        rotation = []
    return EntryContext(
        description=desc, mode=mode, players=players, hands_per_round=hands_per_round,
        games=games, announcements=announcements,
        contra_on=_contra_targets(contra_items, desc, mode),
        # A table form may have no contras or its own penalty kinds (two-player tarok has
        # neither: Tarok.net §2.2).
        contra_levels=list(desc.get("contra_levels", [])) if mode_info.get("contras", True) else [],
        penalty_kinds=list(mode_info.get("penalty_kinds", desc.get("penalty_kinds", []))),
        props=props, announcement_props=set(ann_items), contra_props=set(contra_items),
        uses_resting=uses_resting, rotation=rotation,
    )


PER_PLAYER = {"points_by_player": "pbp", "tricks_by_player": "tbp", "blatt_by_player": "bbp"}


ROWS = {"announcements": ("ann", "name"), "contras": ("con", "on"), "penalties": ("pen", "kind")}


ALONE = "-"


class HandForm(forms.Form):
    """One hand as a table writes it. Field names are flat so a plain HTML form posts them:
    `pbp-<player>` for points per player, `ann-<row>-name` for announcements and so on.
    `record` (after `is_valid()`) is the hand in the scorecard contract's shape, holding only
    what the chosen game needs."""

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=limits.SMALL_MAX)
    # Required: the optimistic lock of the scorecard (a form without it would overwrite a
    # change made since the page was loaded).
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=limits.INT_MAX)
    game = forms.ChoiceField(label=_("Game"))
    reason = forms.CharField(label=_("Reason for the change"), required=False,
                             widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, ctx: EntryContext, record: dict[str, Any] | None = None,
                 **kwargs: Any) -> None:
        initial = kwargs.pop("initial", {}) or {}
        if record:
            initial.update(self.initial_from_record(record, ctx))
        super().__init__(*args, initial=initial, **kwargs)
        self.ctx = ctx
        self.record: dict[str, Any] = {}
        self.row_of: dict[tuple[str, int], int] = {}
        self.fields["game"].choices = BLANK + [(g["code"], g["name"]) for g in ctx.games]
        self._add_hand_fields()
        self._add_per_player_fields()
        self._add_announcement_rows()
        self._add_contra_rows()
        self._add_penalty_rows()
        self._drop_unused_fields()
        for name, fld in self.fields.items():
            if name[:4] in ("ann-", "con-", "pen-"):
                # Row fields are laid out under one header; the label stays for screen readers.
                fld.widget.attrs["aria-label"] = f"{fld.label} {int(name.split('-')[1]) + 1}"

    def _player_choice(self, name: str, label: Any, extra: list[tuple[str, Any]] | None = None) -> None:
        """A field that names a player of the table (blank, then `extra`, then the players)."""
        self.fields[name] = forms.ChoiceField(label=label, required=False,
                                              choices=BLANK + (extra or []) + list(self.ctx.players))

    def _add_hand_fields(self) -> None:
        """The fields of the hand as a whole that the ruleset describes: declarer, partner,
        called tarok, resting player, forehand, points, result, concession."""
        ctx, props = self.ctx, self.ctx.props
        if "declarer" in props:
            self._player_choice("declarer", _("Declarer"))
        if "partner" in props:
            self._player_choice("partner", _("Partner"), [(ALONE, _("alone"))])
        if "called" in props:
            called = props["called"].get("enum", [])
            self.fields["called"] = forms.ChoiceField(label=_("Called tarok"), required=False,
                                                      choices=BLANK + [(c, c) for c in called])
        if ctx.uses_resting:
            self._player_choice("resting", _("Resting"))
        if "forehand" in props:
            self._player_choice("forehand", _("Forehand"))
        if "points" in props:
            self.fields["points"] = forms.IntegerField(label=_("Points"), required=False,
                                                       min_value=0, max_value=70)
        if "won" in props:
            self.fields["won"] = forms.ChoiceField(label=_("Result"), required=False, choices=BLANK + [
                ("1", _("won")), ("0", _("lost"))])
        if "conceded" in props:
            self.fields["conceded"] = forms.BooleanField(label=_("Conceded"), required=False)

    def _add_per_player_fields(self) -> None:
        """A number of each player for every per-player group the ruleset describes (points,
        tricks, blatt), up to the group's maximum."""
        props = self.ctx.props
        for name, prefix in PER_PLAYER.items():
            if name in props:
                for pid, label in self.ctx.players:
                    maximum = props[name].get("additionalProperties", {}).get("maximum", 70)
                    self.fields[f"{prefix}-{pid}"] = forms.IntegerField(
                        label=label, required=False, min_value=0, max_value=maximum)

    def _add_announcement_rows(self) -> None:
        """ANNOUNCEMENT_ROWS rows of name, by, announced, outcome (and held where the ruleset
        knows it), when the ruleset has announcements in this mode."""
        ctx = self.ctx
        ann_names = BLANK + [(a["code"], a["name"]) for a in ctx.announcements]
        for row in range(ANNOUNCEMENT_ROWS if ctx.announcements else 0):
            self.fields[f"ann-{row}-name"] = forms.ChoiceField(label=_("Announcement"),
                                                               required=False, choices=ann_names)
            self._player_choice(f"ann-{row}-by", _("by"))
            self.fields[f"ann-{row}-announced"] = forms.BooleanField(label=_("announced"),
                                                                     required=False)
            self.fields[f"ann-{row}-achieved"] = forms.ChoiceField(
                label=_("outcome"), required=False,
                choices=BLANK + [("1", _("achieved")), ("0", _("failed"))])
            if "held" in ctx.announcement_props:
                self.fields[f"ann-{row}-held"] = forms.BooleanField(label=_("held"), required=False)

    def _add_contra_rows(self) -> None:
        """CONTRA_ROWS rows of on, by, level (and against where the ruleset knows it), when
        the ruleset has contra levels."""
        ctx = self.ctx
        level_names = BLANK + [(str(c["level"]), c["name"]) for c in ctx.contra_levels]
        on_names = BLANK + [(on, self._contra_on_label(on)) for on in ctx.contra_on]
        for row in range(CONTRA_ROWS if ctx.contra_levels else 0):
            self.fields[f"con-{row}-on"] = forms.ChoiceField(label=_("on"), required=False,
                                                             choices=on_names)
            self._player_choice(f"con-{row}-by", _("by"))
            self.fields[f"con-{row}-level"] = forms.ChoiceField(label=_("level"), required=False,
                                                                choices=level_names)
            if "against" in ctx.contra_props:
                self._player_choice(f"con-{row}-against", _("against"))

    def _add_penalty_rows(self) -> None:
        """PENALTY_ROWS rows of kind and player, when the ruleset has penalties."""
        ctx = self.ctx
        for row in range(PENALTY_ROWS if ctx.penalty_kinds else 0):
            self.fields[f"pen-{row}-kind"] = forms.ChoiceField(
                label=_("Penalty"), required=False,
                choices=BLANK + ctx.penalty_choices())
            self._player_choice(f"pen-{row}-player", _("player"))

    def _drop_unused_fields(self) -> None:
        """Fields no game of this ruleset and mode needs (a partner in TRI+1) are not offered."""
        used = self.ctx.used_fields
        for name in ("declarer", "partner", "called", "points", "won", "conceded"):
            if name in self.fields and name not in used:
                del self.fields[name]
        for group, prefix in [*PER_PLAYER.items(), ("announcements", "ann")]:
            if group not in used:
                for name in [n for n in self.fields if n.startswith(f"{prefix}-")]:
                    del self.fields[name]

    def _contra_on_label(self, on: str) -> str:
        if on == "game":
            return str(_("the game"))
        for item in [*self.ctx.announcements, *self.ctx.games]:
            if item["code"] == on:
                return item["name"]
        return on.replace("_", " ")

    # -- what the template lays out -------------------------------------------------------
    @property
    def all_play(self) -> bool:
        """Whether the chosen game is played by every seated player (klop in TRI + 1): then
        the player of the rotation's rest is the talon, who plays too (the page says so
        before its script does)."""
        game = self.ctx.game(str(self["game"].value() or ""))
        return bool(game and ALL_PLAY in game["fields"])

    def per_player(self, name: str) -> list[forms.BoundField]:
        prefix = PER_PLAYER[name]
        return [self[f"{prefix}-{pid}"] for pid in self.ctx.pids if f"{prefix}-{pid}" in self.fields]

    def per_player_groups(self) -> list[tuple[str, Any, list[forms.BoundField]]]:
        titles = {"points_by_player": _("Points of each player"),
                  "tricks_by_player": _("Tricks of each player (where the rules need them)"),
                  "blatt_by_player": _("Blatt of each player")}
        return [(name, titles[name], self.per_player(name)) for name in PER_PLAYER
                if self.per_player(name)]

    @property
    def has_penalties(self) -> bool:
        return any(self[f"pen-{row}-kind"].value() for row in range(PENALTY_ROWS)
                   if f"pen-{row}-kind" in self.fields)

    def rows(self, kind: str, count: int) -> list[list[forms.BoundField]]:
        prefix = ROWS[kind][0]
        out = []
        for row in range(count):
            names = [n for n in self.fields if n.startswith(f"{prefix}-{row}-")]
            if names:
                out.append([self[n] for n in names])
        return out

    def announcement_rows(self) -> list[list[forms.BoundField]]:
        return self.rows("announcements", ANNOUNCEMENT_ROWS)

    def contra_rows(self) -> list[list[forms.BoundField]]:
        return self.rows("contras", CONTRA_ROWS)

    def penalty_rows(self) -> list[list[forms.BoundField]]:
        return self.rows("penalties", PENALTY_ROWS)

    def error_slots(self) -> list[str]:
        """Every place an error can be shown: the fields and the per-player groups."""
        groups = [name for name in (*PER_PLAYER, *ROWS) if self._has_group(name)]
        return [n for n in self.fields if n not in ("number", "version", "reason")] + groups

    def _has_group(self, name: str) -> bool:
        prefix = PER_PLAYER.get(name) or ROWS.get(name, ("",))[0]
        return any(n.startswith(f"{prefix}-") for n in self.fields)

    # -- parsing ---------------------------------------------------------------------------
    @staticmethod
    def initial_from_record(record: dict[str, Any], ctx: EntryContext) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key in ("game", "declarer", "called", "resting", "forehand", "points"):
            if record.get(key) is not None:
                out[key] = record[key]
        if "partner" in record:
            out["partner"] = ALONE if record["partner"] is None else record["partner"]
        if "won" in record:
            out["won"] = "1" if record["won"] else "0"
        if record.get("conceded"):
            out["conceded"] = True
        for name, prefix in PER_PLAYER.items():
            for pid, value in (record.get(name) or {}).items():
                out[f"{prefix}-{pid}"] = value
        for row, ann in enumerate((record.get("announcements") or [])[:ANNOUNCEMENT_ROWS]):
            out[f"ann-{row}-name"] = ann.get("name")
            out[f"ann-{row}-by"] = ann.get("by")
            out[f"ann-{row}-announced"] = bool(ann.get("announced"))
            if "achieved" in ann:
                out[f"ann-{row}-achieved"] = "1" if ann["achieved"] else "0"
            out[f"ann-{row}-held"] = bool(ann.get("held"))
        for row, con in enumerate((record.get("contras") or [])[:CONTRA_ROWS]):
            out[f"con-{row}-on"] = con.get("on")
            out[f"con-{row}-by"] = con.get("by")
            out[f"con-{row}-level"] = str(con.get("level", ""))
            if con.get("against"):
                out[f"con-{row}-against"] = con["against"]
        for row, pen in enumerate((record.get("penalties") or [])[:PENALTY_ROWS]):
            out[f"pen-{row}-kind"] = pen.get("kind")
            out[f"pen-{row}-player"] = pen.get("player")
        return out

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        game = self.ctx.game(data.get("game") or "")
        if game is None:
            return data
        wanted = set(game["fields"])
        record: dict[str, Any] = {"game": game["code"]}
        self._read_hand_fields(data, wanted, record)
        anns = self._read_announcements(data) if "announcements" in wanted else []
        if anns:
            record["announcements"] = anns
        cons = self._read_contras(data)
        if cons:
            record["contras"] = cons
        pens = self._read_penalties(data)
        if pens:
            record["penalties"] = pens
        self.record = record
        return data

    def _read_hand_fields(self, data: dict[str, Any], wanted: set[str], record: dict[str, Any]) -> None:
        """Into `record`, the fields of the hand as a whole that the game needs (the others
        may hold what was typed for another game), the players' numbers that were written,
        and the resting player and forehand."""
        for key in ("declarer", "called"):
            if key in wanted and data.get(key):
                record[key] = data[key]
        if "partner" in wanted and data.get("partner"):
            record["partner"] = None if data["partner"] == ALONE else data["partner"]
        if "points" in wanted and data.get("points") is not None:
            record["points"] = data["points"]
        if "won" in wanted and data.get("won") in ("0", "1"):
            record["won"] = data["won"] == "1"
        if "conceded" in wanted and data.get("conceded"):
            record["conceded"] = True
        for name, prefix in PER_PLAYER.items():
            if name not in wanted:
                continue
            values = {pid: data.get(f"{prefix}-{pid}") for pid in self.ctx.pids}
            given = {pid: v for pid, v in values.items() if v is not None}
            if given:
                record[name] = given
        if self.ctx.uses_resting and data.get("resting"):
            record["resting"] = data["resting"]
        if data.get("forehand"):
            record["forehand"] = data["forehand"]

    def _read_announcements(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        """The announcement rows that name an announcement, in order; `row_of` keeps the row
        each came from, to show the engine's errors there."""
        anns = []
        for row in range(ANNOUNCEMENT_ROWS):
            name = data.get(f"ann-{row}-name")
            if not name:
                continue
            ann: dict[str, Any] = {"name": name, "announced": bool(data.get(f"ann-{row}-announced"))}
            if data.get(f"ann-{row}-by"):
                ann["by"] = data[f"ann-{row}-by"]
            if data.get(f"ann-{row}-achieved") in ("0", "1"):
                ann["achieved"] = data[f"ann-{row}-achieved"] == "1"
            if data.get(f"ann-{row}-held"):
                ann["held"] = True
            self.row_of[("announcements", len(anns))] = row
            anns.append(ann)
        return anns

    def _read_contras(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        """The contra rows with an object or a level (on the game and at level 1 unless
        written), in order, with their rows in `row_of`."""
        cons = []
        for row in range(CONTRA_ROWS):
            on, level = data.get(f"con-{row}-on"), data.get(f"con-{row}-level")
            if not on and not level:
                continue
            con: dict[str, Any] = {"on": on or "game"}
            if data.get(f"con-{row}-by"):
                con["by"] = data[f"con-{row}-by"]
            con["level"] = int(level) if level else 1
            if data.get(f"con-{row}-against"):
                con["against"] = data[f"con-{row}-against"]
            self.row_of[("contras", len(cons))] = row
            cons.append(con)
        return cons

    def _read_penalties(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        """The penalty rows that name a kind, in order, with their rows in `row_of`."""
        pens = []
        for row in range(PENALTY_ROWS):
            kind = data.get(f"pen-{row}-kind")
            if not kind:
                continue
            pen = {"kind": kind}
            if data.get(f"pen-{row}-player"):
                pen["player"] = data[f"pen-{row}-player"]
            self.row_of[("penalties", len(pens))] = row
            pens.append(pen)
        return pens

    # -- engine errors back to the fields ----------------------------------------------------
    def field_for(self, engine_field: str) -> str | None:
        """The form field (or field group) an engine error names, None for the whole hand."""
        name = engine_field or ""
        match = re.match(r"^(announcements|contras|penalties)\[(\d+)\](?:\.(\w+))?", name)
        if match:
            kind, idx, attr = match.group(1), int(match.group(2)), match.group(3)
            prefix, first = ROWS[kind]
            row = self.row_of.get((kind, idx))
            if row is None:
                return kind if self._has_group(kind) else None
            candidate = f"{prefix}-{row}-{attr or first}"
            return candidate if candidate in self.fields else f"{prefix}-{row}-{first}"
        match = re.match(r"^(points_by_player|tricks_by_player|blatt_by_player)(?:\.(.+))?$", name)
        if match:
            candidate = f"{PER_PLAYER[match.group(1)]}-{match.group(2)}"
            if match.group(2) and candidate in self.fields:
                return candidate
            return match.group(1) if self._has_group(match.group(1)) else None
        if name in ("announcements", "contras", "penalties"):
            return name if self._has_group(name) else None
        root = name.split(".", 1)[0]
        return root if root in self.fields else None

    def errors_by_slot(self, errors: list[dict[str, Any]], number: int) -> tuple[dict[str, list[str]], list[str]]:
        """Split contract errors of hand `number` (1-based) into per-field and general ones.
        Errors of other hands are not this form's business; errors of the card as a whole are
        general."""
        by_slot: dict[str, list[str]] = {}
        general: list[str] = []
        for error in errors:
            hand = error.get("hand")
            if hand is not None and hand != number - 1:
                # Another hand of the card is wrong (the card is scored as a whole): say which.
                general.append(str(_("Hand %(n)s: %(message)s") % {"n": hand + 1,
                                                                  "message": error_text(error)}))
                continue
            slot = self.field_for(str(error.get("field") or ""))
            if slot is None:
                general.append(error_text(error))
            else:
                by_slot.setdefault(slot, []).append(error_text(error))
        return by_slot, general

    def add_engine_errors(self, errors: list[dict[str, Any]], number: int) -> None:
        by_slot, general = self.errors_by_slot(errors, number)
        for slot, messages in by_slot.items():
            target = slot if slot in self.fields else None
            for message in messages:
                self.add_error(target, message)
        for message in general:
            self.add_error(None, message)


def card_for_engine(*, code: str, mode: str, options: dict[str, Any], players: list[str],
                    records: list[dict[str, Any]]) -> dict[str, Any]:
    card: dict[str, Any] = {"ruleset": code, "players": list(players), "hands": records}
    if mode:
        card["mode"] = mode
    if options:
        card["options"] = options
    return card


def hand_feedback(form: HandForm, *, code: str, mode: str, options: dict[str, Any],
                  records: list[dict[str, Any]], number: int) -> dict[str, Any]:
    """Check the hand being typed against the engine, in the card as it stands: the hand
    replaces hand `number` (or is appended), and the whole card is evaluated because radelci
    and other state carry from hand to hand. Only what concerns this hand is returned:
    errors at the fields, or the scores it would give."""
    records = list(records)
    if number <= len(records):
        records[number - 1] = form.record
    else:
        records.append(form.record)
    try:
        result = scoring.evaluate(card_for_engine(code=code, mode=mode, options=options,
                                                  players=form.ctx.pids, records=records))
    except scoring.ScorecardInvalid as exc:
        by_slot, general = form.errors_by_slot(exc.errors, number)
        return {"ok": False, "by_slot": by_slot, "general": general, "scores": None}
    scored = result["hands"][number - 1]
    return {"ok": True, "by_slot": {}, "general": [], "scores": scored.get("scores", {}),
            "lines": scored.get("lines", []), "state": scored.get("state", {}), "ruleset": code}
