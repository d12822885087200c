"""Forms of the round and the referee: swapping two players, a reason, a penalty, a dispute
and its decision, a standings adjustment, and a money sheet's amounts in Kč."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.domain import limits
from tournaments.domain.exact_points import POINTS_RANGE_MESSAGE, ExactPointsFormField
from tournaments.engine_text import error_text
from tournaments.forms.common import BLANK, kc_to_haler


class SwapForm(forms.Form):
    first = forms.ChoiceField(label=_("Player"))
    second = forms.ChoiceField(label=_("swap with"))

    def __init__(self, *args: Any, players: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["first"].choices = BLANK + players
        self.fields["second"].choices = BLANK + players


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2}))


class AnnulForm(ReasonForm):
    pass


class PenaltyForm(forms.Form):
    kind = forms.ChoiceField(label=_("Penalty"))
    player = forms.ChoiceField(label=_("Player"))
    hand_number = forms.TypedChoiceField(
        label=_("Hand"), coerce=int, required=False, empty_value=None,
        help_text=_("On a hand the engine scores the penalty. For the whole table it is a note "
                    "that changes no score; a standings adjustment makes it count."))
    description = forms.CharField(label=_("Description"), required=False,
                                  widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, kinds: list[str], players: list[tuple[str, str]],
                 hands: list[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = kinds
        self.fields["player"].choices = BLANK + players
        self.fields["hand_number"].choices = [("", _("the whole table"))] + [
            (str(n), str(n)) for n in hands]


class DisputeForm(forms.Form):
    description = forms.CharField(label=_("What is disputed"), widget=forms.Textarea(attrs={"rows": 3}))
    hand_number = forms.TypedChoiceField(label=_("Hand"), coerce=int, required=False,
                                         empty_value=None)
    raised_by_name = forms.CharField(label=_("Raised by"), max_length=200, required=False)

    def __init__(self, *args: Any, hands: list[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["hand_number"].choices = [("", _("the whole table"))] + [
            (str(n), str(n)) for n in hands]


class DecisionForm(forms.Form):
    decision = forms.CharField(label=_("Decision and its reason"), widget=forms.Textarea(attrs={"rows": 3}))
    correction = forms.TypedChoiceField(label=_("The change that carries it out"), coerce=int,
                                        required=False, empty_value=None)

    def __init__(self, *args: Any, corrections: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["correction"].choices = [("", _("none"))] + [(str(k), v) for k, v in corrections]


class AdjustmentForm(forms.Form):
    registration = forms.TypedChoiceField(label=_("Player"), coerce=int)
    points_delta = ExactPointsFormField(
        label=_("Table points"), initial="0",
        help_text=_("A whole or decimal number, or an exact fraction such as -1/3."))

    def clean_points_delta(self):
        points = self.cleaned_data["points_delta"]
        if points is not None and abs(points) > limits.MAX_POINTS_ADJUSTMENT:
            raise forms.ValidationError(POINTS_RANGE_MESSAGE % {"max": limits.MAX_POINTS_ADJUSTMENT})
        return points
    score_delta = forms.IntegerField(label=_("Score"), initial=0,
                                     min_value=-limits.MAX_SCORE_ADJUSTMENT,
                                     max_value=limits.MAX_SCORE_ADJUSTMENT)
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, players: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["registration"].choices = [(str(k), v) for k, v in players]


class MoneySheetForm(forms.Form):
    """A money ruleset's round result: per player what he bought and what he ended with, in
    Kč as the sheet writes them; the service takes haléř."""

    def __init__(self, *args: Any, players: list[tuple[str, str]],
                 rows: dict[str, tuple[int, int]] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = players
        for pid, label in players:
            bought, money = (rows or {}).get(pid, (0, None))
            self.fields[f"bought-{pid}"] = forms.DecimalField(
                label=label, min_value=0, max_digits=9, decimal_places=2, required=False,
                initial=Decimal(bought) / 100 if bought else Decimal(0))
            self.fields[f"money-{pid}"] = forms.DecimalField(
                label=label, min_value=0, max_digits=9, decimal_places=2,
                initial=Decimal(money) / 100 if money is not None else None)

    def player_rows(self) -> list[tuple[str, str, forms.BoundField, forms.BoundField]]:
        return [(pid, label, self[f"bought-{pid}"], self[f"money-{pid}"]) for pid, label in self.players]

    def rows(self) -> dict[str, dict[str, int]]:
        out = {}
        for pid, _label in self.players:
            try:
                bought = kc_to_haler(self.cleaned_data.get(f"bought-{pid}") or Decimal(0))
                money = kc_to_haler(self.cleaned_data.get(f"money-{pid}"))
            except forms.ValidationError as exc:
                self.add_error(f"money-{pid}", exc)
                continue
            out[pid] = {"bought": bought or 0, "money": money}
        return out

    def add_engine_errors(self, errors: list[dict[str, Any]]) -> None:
        pids = [pid for pid, _label in self.players]
        for error in errors:
            name = str(error.get("field") or "")
            match = re.match(r"(?:sheet\.)?players\[(\d+)\]\.(bought|money)", name)
            if match and int(match.group(1)) < len(pids):
                self.add_error(f"{match.group(2)}-{pids[int(match.group(1))]}", error_text(error))
            else:
                self.add_error(None, error_text(error))


class RefereeCallForm(forms.Form):
    """A table calling its referee: the hand it is about and a short note, both optional."""

    hand_number = forms.TypedChoiceField(label=_("Hand"), coerce=int, required=False,
                                         empty_value=None)
    note = forms.CharField(label=_("What happened (optional)"), required=False, max_length=200,
                           widget=forms.TextInput(attrs={"autocomplete": "off"}))

    def __init__(self, *args: Any, hands: int, **kwargs: Any) -> None:
        # Its own names: the table's page also holds the hand form.
        kwargs.setdefault("prefix", "call")
        super().__init__(*args, **kwargs)
        self.fields["hand_number"].choices = [("", _("not about one hand"))] + [
            (str(n), str(n)) for n in range(1, hands + 1)]


class CallResolveForm(forms.Form):
    """What a referee call led to: one of the table's penalties, disputes or corrections
    since the call, or nothing to record."""

    outcome = forms.ChoiceField(label=_("What the call led to"), required=False)

    def __init__(self, *args: Any, outcomes: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["outcome"].choices = [("", _("nothing to record"))] + outcomes


class HallNoticeForm(forms.Form):
    text = forms.CharField(label=_("Notice to the hall"), max_length=280,
                           widget=forms.TextInput(attrs={"autocomplete": "off"}))
