from __future__ import annotations

from django.contrib.auth import get_user_model
from rest_framework import serializers

from sudokusite.fields import StrictCharField
from sudokusite.serializers import InputSerializer


class UserSerializer(serializers.ModelSerializer):
    # Not an EmailField: the schema would promise an address, and it is "" when none was
    # given at sign-up.
    email = serializers.CharField(read_only=True, help_text="Empty when none was given.")

    class Meta:
        model = get_user_model()
        fields = ("id", "username", "email", "date_joined")
        read_only_fields = fields


class RegisterInputSerializer(InputSerializer):
    username = StrictCharField(max_length=150)
    password = StrictCharField(
        max_length=128, trim_whitespace=False, write_only=True, visible=False
    )
    email = serializers.EmailField(required=False, allow_blank=True, default="")


class TokenInputSerializer(InputSerializer):
    username = StrictCharField(max_length=150)
    password = StrictCharField(
        max_length=128, trim_whitespace=False, write_only=True, visible=False
    )


class PasswordChangeInputSerializer(InputSerializer):
    old_password = StrictCharField(
        max_length=128, trim_whitespace=False, write_only=True, visible=False
    )
    new_password = StrictCharField(
        max_length=128, trim_whitespace=False, write_only=True, visible=False
    )


class AccountDeleteInputSerializer(InputSerializer):
    password = StrictCharField(
        max_length=128, trim_whitespace=False, write_only=True, visible=False
    )


class PasswordResetInputSerializer(InputSerializer):
    email = serializers.EmailField(help_text="The address the account was registered with.")


class DetailSerializer(serializers.Serializer):
    detail = serializers.CharField()


class TokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send as 'Authorization: Token <token>'.")
    expiry = serializers.DateTimeField(allow_null=True)
    user = UserSerializer()
