"""A signed-in player's board aids (highlight the same digits, highlight the peers of the
selected cell, take a placed digit out of its peers' notes): read for the game page,
written from it through ``/api/v1/me/aids/``."""

from __future__ import annotations

from typing import Any

from .models import AidSettings

AIDS = ("highlight_same", "highlight_peers", "clear_peer_notes")
DEFAULTS = dict.fromkeys(AIDS, True)


def aid_settings_of(*, user: Any) -> dict[str, bool]:
    """The player's aids; every aid on until they turn one off."""
    row = AidSettings.objects.filter(user=user).values(*AIDS).first()
    return {**DEFAULTS, **(row or {})}


def aid_settings_set(*, user: Any, **changes: bool) -> dict[str, bool]:
    """Turn the named aids on or off (the others stay as they were); the aids after it.
    Two devices writing at once each set their own fields: the row is created once."""
    unknown = set(changes) - set(AIDS)
    if unknown:
        raise ValueError(f"unknown aids: {sorted(unknown)}")
    if changes:
        AidSettings.objects.update_or_create(user=user, defaults=changes)
    return aid_settings_of(user=user)
