# Accounts use django.contrib.auth's User; profile data lives with the apps that own it.
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class UsernameSkeleton(models.Model):
    """What a username looks like (accounts.names.skeleton), unique: the database refuses a
    second account whose name looks like the first's, whatever the race."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="username_skeleton",
        verbose_name=_("user"),
    )
    skeleton = models.CharField(_("skeleton"), max_length=1000, unique=True)

    class Meta:
        verbose_name = _("username skeleton")
        verbose_name_plural = _("username skeletons")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.skeleton}"


class LanguagePreference(models.Model):
    """The language a player chose in the switcher: it wins over the cookie and the browser
    once they sign in, on any device."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="language_preference",
        verbose_name=_("user"),
    )
    language = models.CharField(_("language"), max_length=16, choices=settings.LANGUAGES)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("language preference")
        verbose_name_plural = _("language preferences")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.language}"
