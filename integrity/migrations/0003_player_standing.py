"""Provisional players: a player is established once the evidence has judged enough of
their games. Players with a game that already counts are established by this migration
("before"): their games were on the boards already, and taking them off would punish
nobody but them (docs/integrity.md)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.models import Min
from django.utils import timezone


def establish_counted(apps, schema_editor):
    Game = apps.get_model("play", "Game")
    PlayerStanding = apps.get_model("integrity", "PlayerStanding")
    rows = (
        Game.objects.filter(counts=True, user__isnull=False)
        .values("user_id")
        .annotate(first=Min("finished"))
        .order_by("user_id")
    )
    batch, now = [], timezone.now()
    for row in rows.iterator(2000):
        batch.append(
            PlayerStanding(user_id=row["user_id"], established=row["first"] or now, by="before")
        )
        if len(batch) >= 2000:
            PlayerStanding.objects.bulk_create(batch, ignore_conflicts=True)
            batch = []
    PlayerStanding.objects.bulk_create(batch, ignore_conflicts=True)


class Migration(migrations.Migration):
    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("integrity", "0002_player_review_and_game_trace"),
        ("play", "0007_game_race"),
    ]

    operations = [
        migrations.CreateModel(
            name="PlayerStanding",
            fields=[
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="integrity_standing",
                        serialize=False,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                ("established", models.DateTimeField()),
                ("by", models.CharField(max_length=10)),
            ],
        ),
        migrations.RunPython(establish_counted, migrations.RunPython.noop),
    ]
