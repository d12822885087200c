"""The date and the season a ranking list is asked for, checked once for the pages and the API:
a date is YYYY-MM-DD, a season one of the family's seasons with rated events ("2025/26"), and
a list is of a date or of a season, not both."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from rankings import lists

DATE_FORMAT = "%Y-%m-%d"


class ListDateForm(forms.Form):
    on = forms.DateField(
        label=_("As of"), required=False, input_formats=[DATE_FORMAT],
        widget=forms.DateInput(attrs={"type": "date"}, format=DATE_FORMAT),
        error_messages={"invalid": _("Enter a date as year-month-day, e.g. 2026-03-07.")})
    season = forms.ChoiceField(
        label=_("Season"), required=False,
        error_messages={"invalid_choice": _("No rated event was played in the season %(value)s.")})

    def __init__(self, data, *, seasons: list[lists.Season] | None = None, with_season=True):
        super().__init__(data)
        self.seasons = {s.label: s for s in seasons or []}
        if with_season:
            self.fields["season"].choices = [("", _("every season")),
                                             *((label, label) for label in self.seasons)]
        else:
            del self.fields["season"]

    def clean(self):
        data = super().clean()
        if data.get("on") and data.get("season"):
            self.add_error("season", _("Choose a date or a season, not both."))
        return data

    @property
    def chosen_season(self) -> lists.Season | None:
        return self.seasons.get(self.cleaned_data.get("season") or "")


def api_errors(form: ListDateForm) -> list[dict]:
    """The form's errors in the API's error shape, each naming its field."""
    return [{"hand": None, "field": name, "code": error.code or "invalid",
             "message": str(error.message % error.params if error.params else error.message)}
            for name, errors in form.errors.as_data().items() for error in errors]
