from django.apps import AppConfig


class IntegrityConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "integrity"
    verbose_name = "Plausible play"
