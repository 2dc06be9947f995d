"""No two accounts share a username in any case: a unique index on LOWER(username).

The forms and the API already refuse a name taken in another case, but two sign-ups at
the same moment both passed that check; the index makes the database the judge. (On
SQLite, LOWER folds ASCII letters only; on PostgreSQL it folds by the database's locale.)
Names that already clash stop the migration with a list to resolve by hand first.
"""

from django.db import migrations, models
from django.db.models.functions import Lower

CONSTRAINT = models.UniqueConstraint(
    Lower("username"), name="accounts_user_username_lower_unique"
)


def _refuse_clashing_names(apps, schema_editor):
    user = apps.get_model("auth", "User")
    clashes = (
        user.objects.using(schema_editor.connection.alias)
        .values(folded=Lower("username"))
        .annotate(count=models.Count("id"))
        .filter(count__gt=1)
        .order_by("folded")
    )
    found = [row["folded"] for row in clashes[:20]]
    if found:
        raise RuntimeError(
            "Usernames must differ by more than case, but these are shared by several "
            f"accounts: {', '.join(found)}. Rename or merge those accounts (e.g. in the "
            "admin), then run the migration again."
        )


def _add(apps, schema_editor):
    _refuse_clashing_names(apps, schema_editor)
    schema_editor.add_constraint(apps.get_model("auth", "User"), CONSTRAINT)


def _remove(apps, schema_editor):
    schema_editor.remove_constraint(apps.get_model("auth", "User"), CONSTRAINT)


class Migration(migrations.Migration):
    dependencies = [("auth", "0012_alter_user_first_name_max_length")]

    operations = [migrations.RunPython(_add, _remove, elidable=False)]
