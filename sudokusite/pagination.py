"""Default API pagination: ``?page=2&page_size=50``, at most 100 to a page.

Both numbers are read strictly, like every number a client sends: ASCII digits only,
given once, ``page`` from 1 (or ``last``) and ``page_size`` from 1 to 100. Anything else
is a 400 naming the parameter, rather than DRF's silent fallback to the default size
(``page_size=1000000000`` or ``page_size=５`` would otherwise look like it worked). A page
past the end stays a 404, as in DRF.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import pagination
from rest_framework.exceptions import ValidationError

_DIGITS = re.compile(r"[0-9]{1,9}")


def _query_int(request: Any, name: str, *, maximum: int | None, message: str) -> int | None:
    """The one ASCII whole number >= 1 given for ``name``, None when absent, else a 400."""
    values = request.query_params.getlist(name)
    if not values:
        return None
    if len(values) > 1:
        raise ValidationError({name: [_("Give %(name)s once.") % {"name": name}]})
    raw = values[0]
    if not _DIGITS.fullmatch(raw) or int(raw) < 1 or (maximum is not None and int(raw) > maximum):
        raise ValidationError({name: [message]})
    return int(raw)


class PageNumberPagination(pagination.PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 100

    def get_page_size(self, request: Any) -> int:
        size = _query_int(
            request,
            self.page_size_query_param,
            maximum=self.max_page_size,
            message=_("Choose a page size from 1 to %(maximum)s.")
            % {"maximum": self.max_page_size},
        )
        return size if size is not None else self.page_size

    def get_page_number(self, request: Any, paginator: Any) -> Any:
        values = request.query_params.getlist(self.page_query_param)
        if len(values) == 1 and values[0] in self.last_page_strings:
            return paginator.num_pages
        number = _query_int(
            request,
            self.page_query_param,
            maximum=None,
            message=_("Choose a page number from 1 (or last)."),
        )
        return number if number is not None else 1

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"].update(minimum=1, maximum=self.max_page_size)
            elif parameter["name"] == self.page_query_param:
                parameter["schema"].update(minimum=1)
        return parameters
