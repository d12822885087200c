"""Public pages: the event list and each event's page."""

from django.urls import path

from tournaments import views_public

urlpatterns = [
    path("", views_public.event_list, name="event-list"),
    path("e/<slug:slug>/", views_public.event_detail, name="event-detail"),
]
