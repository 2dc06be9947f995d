from celery import shared_task

from . import services


@shared_task(name="accounts.token_purge_expired")
def token_purge_expired() -> int:
    return services.token_purge_expired()


@shared_task(name="accounts.password_reset_email")
def password_reset_email(*, email: str, domain: str, use_https: bool, language: str = "en") -> None:
    services.password_reset_email_send(
        email=email, domain=domain, use_https=use_https, language=language
    )
