from celery import shared_task

from . import services


@shared_task(name="accounts.token_purge_expired")
def token_purge_expired() -> int:
    return services.token_purge_expired()
