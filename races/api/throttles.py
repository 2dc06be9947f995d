from __future__ import annotations

from solving.api.throttles import ClientRateThrottle


class RaceCreateThrottle(ClientRateThrottle):
    """RACE_CREATE_RATE races made per player."""

    scope = "race_create"
