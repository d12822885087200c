"""Routes of a venue hold's endpoints (tournaments.venue.api), included under /api/v1/."""

from django.urls import path

from tournaments.venue import api

V = "events/<slug:slug>/venue/"

urlpatterns = [
    path(V + "take/", api.VenueTakeView.as_view(), name="venue-take"),
    path(V + "push/", api.VenuePushView.as_view(), name="venue-push"),
    path(V + "return/", api.VenueReturnView.as_view(), name="venue-return"),
    path(V + "take-back/", api.VenueTakeBackView.as_view(), name="venue-take-back"),
]
