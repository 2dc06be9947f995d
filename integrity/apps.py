from django.apps import AppConfig


class IntegrityConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "integrity"
    verbose_name = "Plausible play"

    def ready(self) -> None:
        # The worker's tasks, registered in every process: the gate enqueues them by name.
        from . import tasks  # noqa: F401
