"""Forms of the players page and the registry: a player typed in (country by name, ISO
3166), a record corrected, two records merged, the registry's managers named, a CSV file
imported, a registration's status."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.conf import settings
from django.template.defaultfilters import filesizeformat
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from tournaments.domain import limits
from tournaments.domain.countries import choices as country_choices
from tournaments.domain.countries import country_code
from tournaments.models import Registration


class CountryInput(forms.TextInput):
    """A text box with the list of countries (named in the page's language) to pick from:
    whoever types "Slovenija", "Slovenia" or "SI" gets SI (tournaments.domain.countries)."""

    def render(self, name: str, value: Any, attrs: dict[str, Any] | None = None,
               renderer: Any = None) -> str:
        list_id = f"{(attrs or {}).get('id') or self.attrs.get('id') or name}-choices"
        box = super().render(name, value, {**(attrs or {}), "list": list_id, "autocomplete": "off"},
                             renderer)
        options = format_html_join("", '<option value="{}">{}</option>', country_choices())
        return box + format_html('<datalist id="{}">{}</datalist>', list_id, options)


class CountryField(forms.CharField):
    """A country by its name in any of the site's languages or by its ISO 3166 code; the
    cleaned value is the code ("" for none)."""

    widget = CountryInput

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 100)
        super().__init__(**kwargs)

    def clean(self, value: Any) -> str:
        text = super().clean(value)
        code = country_code(text)
        if code is None:
            raise forms.ValidationError(
                _("“%(value)s” is not a country: pick one from the list, or type its name or its "
                  "two-letter code (SI, AT, CZ)."), code="invalid_country", params={"value": text})
        return code


class PlayerAddForm(forms.Form):
    first_name = forms.CharField(label=_("First name"), max_length=100)
    last_name = forms.CharField(label=_("Last name"), max_length=100)
    club = forms.CharField(label=_("Club"), max_length=200, required=False)
    country = CountryField(label=_("Country"), required=False)
    federation_id = forms.CharField(label=_("Federation id"), max_length=50, required=False)
    start_number = forms.IntegerField(label=_("Start number"), min_value=1, required=False,
                                      max_value=limits.INT_MAX,
                                      help_text=_("Left empty: the next free number."))
    status = forms.ChoiceField(label=_("Status"), choices=[
        (Registration.Status.REGISTERED, _("Registered")),
        (Registration.Status.CHECKED_IN, _("Checked in")),
        (Registration.Status.LATE_ENTRY, _("Late entry")),
    ])
    # The organiser's answer when the registry already has a player of this name and club:
    # that player's id, or "new" for a namesake. Posted by the buttons of that question.
    use_player = forms.RegexField(regex=r"^(new|[0-9]{1,9})$", required=False)


class PlayerEditForm(forms.Form):
    """A correction of a record of the registry, with the reason kept in the audit trail."""

    first_name = forms.CharField(label=_("First name"), max_length=100, required=False)
    last_name = forms.CharField(label=_("Last name"), max_length=100, required=False)
    club = forms.CharField(label=_("Club"), max_length=200, required=False)
    country = CountryField(label=_("Country"), required=False)
    federation_id = forms.CharField(label=_("Federation id"), max_length=50, required=False)
    reason = forms.CharField(label=_("Why"), max_length=2000,
                             help_text=_("Kept in the history of every event he plays in."))

    FIELDS = ("first_name", "last_name", "club", "country", "federation_id")


class RegistryManagerForm(forms.Form):
    """A user to grant the management of the player registry, by his username."""

    username = forms.CharField(label=_("Username"), max_length=150)
    reason = forms.CharField(label=_("Why"), max_length=2000, required=False)


class PlayerMergeForm(forms.Form):
    """The other record of the same person, merged into the player of the page."""

    duplicate = forms.IntegerField(label=_("The other record"), min_value=1,
                                   max_value=limits.INT_MAX, required=False,
                                   widget=forms.HiddenInput)
    reason = forms.CharField(label=_("Why"), max_length=2000, required=False,
                             help_text=_("Kept in the audit trail."))

    def __init__(self, *args: Any, required: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["duplicate"].required = required


class CsvImportForm(forms.Form):
    """A CSV file or pasted rows, for the import pages of an event's players and of a league
    season's divisions. A file or text over CSV_IMPORT_MAX_BYTES is refused at its field by
    its size, before it is read (`too_large`: the views answer 413); `source` in the cleaned
    data names the field the rows came in, for the service's refusals of the whole file."""

    file = forms.FileField(label=_("CSV file"), required=False)
    text = forms.CharField(label=_("…or paste the rows"), required=False,
                           widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["file"].help_text = _(
            "At most %(size)s and %(rows)s rows; a longer list in several files.") % {
            "size": filesizeformat(settings.CSV_IMPORT_MAX_BYTES),
            "rows": settings.CSV_IMPORT_MAX_ROWS}

    def _refuse_if_too_large(self, field: str, size: int) -> bool:
        problem = limits.csv_too_large(size, field)
        if problem is not None:
            # The words the services and the API use for the same refusal.
            self.add_error(field, forms.ValidationError(problem["message"], code="too_large"))
        return problem is not None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        upload = data.get("file")
        data["csv"] = ""
        if upload:
            data["source"] = "file"
            # By the size the upload arrived with: a file over the limit is never read.
            if self._refuse_if_too_large("file", upload.size):
                return data
            raw = upload.read()
            try:
                data["csv"] = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                self.add_error("file", _("The file is not UTF-8 text."))
        else:
            data["source"] = "text"
            text = data.get("text") or ""
            if self._refuse_if_too_large("text", len(text.encode("utf-8", "surrogatepass"))):
                return data
            data["csv"] = text
        if not self.errors and not data["csv"].strip():
            self.add_error(None, _("Choose a file or paste the rows."))
        return data

    def too_large(self) -> bool:
        """Whether the file or the text was refused for its size (answered 413)."""
        return self.has_error("file", "too_large") or self.has_error("text", "too_large")

    def show_service_errors(self, errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """A refused import's errors: those about the whole file (its size, its number of
        rows) go to the field it came in; the rest, grouped by row, for the page's list."""
        rest = []
        for error in errors:
            if error.get("field") in self.fields:
                self.add_error(error["field"], error["message"])
            else:
                rest.append(error)
        return import_errors_by_row(rest)


# The services begin a row's message with the line of the file it is on (the line a person
# finds in his editor or spreadsheet, the header being line 1).
_FILE_LINE = re.compile(r"line (\d+): ")


def import_errors_by_row(errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A refused CSV import's errors grouped under the line of the file they name, said once
    ("line 4", the message after it; issue #33 read "row 3: line 4: …"), else under the row
    (field `rows[<i>]...`, shown as row i+1) or under the file, for the import pages of an
    event's players and of a league season's divisions."""
    rows: dict[str, list[str]] = {}
    for error in errors:
        message = str(error["message"])
        found = _FILE_LINE.match(message)
        if found:
            label = _("line %(n)s") % {"n": found.group(1)}
            message = message[found.end():]
        else:
            field = str(error.get("field") or "")
            index = field.removeprefix("rows[").split("]", 1)[0] if field.startswith("rows[") else ""
            row = limits.whole_number(index)
            label = _("row %(n)s") % {"n": row + 1} if row is not None else _("file")
        rows.setdefault(str(label), []).append(message)
    return [{"row": label, "messages": messages} for label, messages in rows.items()]


class StatusForm(forms.Form):
    status = forms.ChoiceField(choices=Registration.Status.choices)


class MessagesForm(forms.Form):
    """A player's choice of messages on his personal page: the address, the round message,
    and the language to write them in (the page's own, unless he picks another). A saved
    address is never shown back (whoever opens the page, the organiser too, sees it masked):
    left empty, it stays; `forget` removes it."""

    email = forms.EmailField(label=_("E-mail address"), required=False, max_length=254)
    round_messages = forms.BooleanField(label=_("E-mail me my table when a round is published"),
                                        required=False)
    correction_messages = forms.BooleanField(
        label=_("E-mail me when a referee corrects a card I played"), required=False)
    language = forms.ChoiceField(label=_("Language of the messages"), choices=settings.LANGUAGES)
    forget = forms.BooleanField(label=_("Forget my address"), required=False)


class EntryForm(forms.Form):
    """A player's own entry into an event (tournaments.services.entries): what the registry
    needs, his address (where a mail server confirms it), the messages he wants and their
    language, his consent to the public list; and a field no person sees (`website`), filled
    only by robots. The form only carries the text: every check is the service's, so that all
    refusals come together, each at its field."""

    first_name = forms.CharField(label=_("First name"), max_length=100, required=False)
    last_name = forms.CharField(label=_("Last name"), max_length=100, required=False)
    club = forms.CharField(label=_("Club"), max_length=200, required=False)
    country = forms.CharField(label=_("Country"), max_length=100, required=False,
                              widget=CountryInput)
    federation_id = forms.CharField(label=_("Federation id"), max_length=50, required=False)
    email = forms.CharField(label=_("E-mail address"), required=False, max_length=254,
                            widget=forms.EmailInput)
    language = forms.ChoiceField(label=_("Language of the messages"), choices=settings.LANGUAGES)
    round_messages = forms.BooleanField(label=_("E-mail me my table when a round is published"),
                                        required=False)
    consent = forms.BooleanField(
        label=_("My name and club may be shown in the public entry list and in the results"),
        required=False)
    website = forms.CharField(label=_("Leave this empty"), required=False, max_length=200)

    def __init__(self, *args: Any, federation_id_required: bool = False,
                 email_required: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        attrs = {"first_name": {"autocomplete": "given-name", "required": True},
                 "last_name": {"autocomplete": "family-name", "required": True},
                 "email": {"autocomplete": "email", "required": email_required or None},
                 "federation_id": {"required": federation_id_required or None},
                 "consent": {"required": True},
                 "website": {"tabindex": "-1", "autocomplete": "off"}}
        for name, values in attrs.items():
            self.fields[name].widget.attrs.update({k: v for k, v in values.items() if v})
