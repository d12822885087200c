"""Liveness check for load balancers and process supervisors: answers without touching the
database or the broker, so it says only that this web process serves requests. It is also
the bare Django view that bench/http.py compares the public pages against."""

from django.http import HttpResponse
from django.views.decorators.cache import never_cache


@never_cache
def healthz(request):
    return HttpResponse("ok\n", content_type="text/plain")
