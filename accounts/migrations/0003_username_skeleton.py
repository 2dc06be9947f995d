"""What each username looks like, unique (accounts.names): look-alike names cannot both
register, whatever the race.

Existing accounts get their skeleton here. Accounts that already look alike keep their
names: the oldest gets the plain skeleton (so a new look-alike of it is refused) and each
later one the skeleton with ``#<id>`` after it, so none of them blocks the migration.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def _fill(apps, schema_editor):
    from accounts.names import skeleton

    db = schema_editor.connection.alias
    user = apps.get_model("auth", "User")
    row = apps.get_model("accounts", "UsernameSkeleton")
    taken: set[str] = set()
    batch = []
    for pk, username in user.objects.using(db).order_by("pk").values_list("pk", "username"):
        shape = skeleton(username)
        if shape in taken:
            shape = f"{shape}#{pk}"
        taken.add(shape)
        batch.append(row(user_id=pk, skeleton=shape))
        if len(batch) >= 1000:
            row.objects.using(db).bulk_create(batch)
            batch = []
    row.objects.using(db).bulk_create(batch)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_language_preference"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="UsernameSkeleton",
            fields=[
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="username_skeleton",
                        serialize=False,
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="user",
                    ),
                ),
                (
                    "skeleton",
                    models.CharField(max_length=1000, unique=True, verbose_name="skeleton"),
                ),
            ],
            options={
                "verbose_name": "username skeleton",
                "verbose_name_plural": "username skeletons",
            },
        ),
        migrations.RunPython(_fill, migrations.RunPython.noop, elidable=False),
    ]
