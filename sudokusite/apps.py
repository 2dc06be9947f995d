from django.apps import AppConfig
from django.db.backends.signals import connection_created


class SudokusiteConfig(AppConfig):
    name = "sudokusite"
    verbose_name = "Site"

    def ready(self) -> None:
        from .timestamps import use_iso_timestamps

        connection_created.connect(use_iso_timestamps, dispatch_uid="iso_timestamps")
