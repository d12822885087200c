"""Public, read-only pages. Thin: they call selectors and render."""

from django.http import Http404
from django.shortcuts import render

from tournaments import selectors


def event_list(request):
    return render(request, "tournaments/event_list.html", {"events": selectors.public_events()})


def event_detail(request, slug: str):
    event = selectors.event_by_slug(slug)
    if event is None or not event.is_public:
        raise Http404("no such event")
    return render(request, "tournaments/event_detail.html", {
        "event": event,
        "registrations": selectors.registrations_of(event),
        "rounds": selectors.rounds_of(event),
    })
