from django.apps import AppConfig


class ReplaysConfig(AppConfig):
    name = "replays"
    default_auto_field = "django.db.models.BigAutoField"
