"""The base of every request-body serializer.

DRF drops fields a serializer does not declare without a word, so a client that sends
``{"cell": 4, "value": 7, "score": 99999}`` cannot tell whether the server took its
score. ``InputSerializer`` refuses such a body with a 400 naming each unknown field and
listing the fields the endpoint takes; ``sudokusite.schema.AutoSchema`` marks its
schema ``additionalProperties: false`` so /api/v1/schema/ says the same. Query-string
serializers stay plain ``Serializer``: unknown query parameters are harmless.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers


class InputSerializer(serializers.Serializer):
    @classmethod
    def validated(cls, data: Any) -> Any:
        """What ``cls(data=data).is_valid(raise_exception=True)`` accepts, or its 400.

        The checks run on one instance per class, made on first use: a serializer deep-copies
        its fields each time one is made, which cost a move more CPU than checking its body.
        Checking keeps no state on the instance (``run_validation`` returns or raises), so
        threads can share it. A body that fails is checked again the ordinary way, so the
        error is exactly DRF's.
        """
        shared = _SHARED.get(cls)
        if shared is None:
            shared = _SHARED.setdefault(cls, cls())
        try:
            return shared.run_validation(data)
        except serializers.ValidationError:
            checked = cls(data=data)
            checked.is_valid(raise_exception=True)
            return checked.validated_data

    def accepted_fields(self) -> list[str]:
        return [name for name, field in self.fields.items() if not field.read_only]

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            accepted = self.accepted_fields()
            # The first few are enough to act on, and keep the answer small.
            unknown = [key for key in data if key not in accepted][:20]
            if unknown:
                if accepted:
                    message = _("Unknown field: this endpoint takes %(fields)s.") % {
                        "fields": ", ".join(accepted)
                    }
                else:
                    message = _("Unknown field: this endpoint takes no fields.")
                raise serializers.ValidationError({str(key): [message] for key in unknown})
        return super().to_internal_value(data)


_SHARED: dict[type[InputSerializer], InputSerializer] = {}


class NoInputSerializer(InputSerializer):
    """The body of a write that takes no fields (sign out, cancel): none, or ``{}``.

    ``NoInputSerializer.validated(request.data)`` refuses any field with a 400 naming it,
    so a client that sends ``{"everywhere": true}`` to sign out learns it was not taken.
    """
