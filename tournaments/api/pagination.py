"""Pagination of the API's lists: `limit` and `offset` as DRF's LimitOffsetPagination reads
them, but held to bounds (1 to `MAX_PAGE_SIZE`; 0 to `MAX_OFFSET`) and refused with a 400
naming the parameter when they are not whole numbers within them, where DRF would silently
fall back to a default or pass a number to the database that no column holds."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.pagination import LimitOffsetPagination

from tournaments.domain import limits
from tournaments.errors import ServiceError


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    max_limit = limits.MAX_PAGE_SIZE

    def _read(self, request: Any, name: str, minimum: int, maximum: int, default: int) -> int:
        raw = request.query_params.get(name)
        if raw is None or raw == "":
            return default
        value = limits.whole_number(raw, low=minimum, high=maximum)
        if value is None:
            raise ServiceError(
                _("%(field)s must be a whole number from %(min)s to %(max)s") % {
                    "field": name, "min": minimum, "max": maximum},
                field=name, code="out_of_range")
        return value

    def get_limit(self, request: Any) -> int:
        return self._read(request, self.limit_query_param, 1, self.max_limit, self.default_limit)

    def get_offset(self, request: Any) -> int:
        return self._read(request, self.offset_query_param, 0, limits.MAX_OFFSET, 0)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        bounds = {self.limit_query_param: (1, self.max_limit),
                  self.offset_query_param: (0, limits.MAX_OFFSET)}
        for parameter in parameters:
            if parameter["name"] in bounds:
                low, high = bounds[parameter["name"]]
                parameter["schema"] = {**parameter["schema"], "minimum": low, "maximum": high}
        return parameters
