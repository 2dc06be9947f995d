"""Default API pagination: ``?page=2&page_size=50``; page_size is capped at 100."""

from rest_framework import pagination


class PageNumberPagination(pagination.PageNumberPagination):
    page_size_query_param = "page_size"
    # A larger or malformed page_size falls back to the cap or the default (DRF's
    # rule), so a huge value can never make the database return everything.
    max_page_size = 100
