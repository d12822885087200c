"""What a write to a table's card posts besides its hand or its money sheet, read one way on
both table pages (the officials' and the phones'): the card's version the writer read (the
optimistic lock), the reason of a correction, and an official's word that he compared the
card with the signed paper sheet."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.domain import limits


class CardWriteForm(forms.Form):
    version = forms.CharField(required=False)
    reason = forms.CharField(required=False, max_length=2000, strip=False)
    paper_checked = forms.BooleanField(required=False)

    def clean_version(self) -> int | None:
        raw = self.cleaned_data["version"]
        if raw == "":
            return None  # nothing to check against: the service writes on the card as it is
        value = limits.whole_number(raw, low=1, high=limits.INT_MAX)
        if value is None:
            raise forms.ValidationError(_("The version of the scorecard must be a whole number."),
                                        code="invalid")
        return value

    def first_error(self) -> str:
        return next((str(m) for errors in self.errors.values() for m in errors), "")

    @property
    def values(self) -> dict[str, Any]:
        """version, reason and paper_checked, each as the services take it."""
        data = self.cleaned_data
        return {"version": data.get("version"), "reason": data.get("reason") or "",
                "paper_checked": bool(data.get("paper_checked"))}
