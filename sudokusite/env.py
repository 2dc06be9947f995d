"""Settings from the environment, each checked as it is read: Django's settings and
gunicorn.conf.py read them alike. Nothing here loads Django's settings."""

from __future__ import annotations

import os
import re

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def env_value(name: str) -> str | None:
    """The stripped value of ``name``, or None when unset or blank."""
    value = os.environ.get(name, "").strip()
    return value or None


def env_str(name: str, default: str = "") -> str:
    return env_value(name) or default


def env_bool(name: str, default: bool) -> bool:
    raw = env_value(name)
    if raw is None:
        return default
    if raw.lower() in _TRUE:
        return True
    if raw.lower() in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={raw!r} is not a boolean: use 1/0, true/false, yes/no or on/off."
    )


def env_int(
    name: str, default: int, *, minimum: int | None = None, maximum: int | None = None
) -> int:
    raw = env_value(name)
    if raw is None:
        return default
    if not re.fullmatch(r"-?[0-9]{1,18}", raw):
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number.")
    value = int(raw)
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name}={value} is too small: the minimum is {minimum}.")
    if maximum is not None and value > maximum:
        raise ImproperlyConfigured(f"{name}={value} is too large: the maximum is {maximum}.")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    """A comma-separated list; blank items are dropped."""
    raw = env_value(name)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]
