"""Mark the puzzles whose rules carry constraints (``Puzzle.constrained``).

A stored generated column, computed by PostgreSQL from ``rules``: the rows stored before it
get theirs as the column is added (one rewrite of the table), and every later writer gets
it right without setting it.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("puzzles", "0010_practice_source")]

    operations = [
        migrations.AddField(
            model_name="puzzle",
            name="constrained",
            field=models.GeneratedField(
                db_persist=True,
                expression=models.Q(("rules__has_key", "constraints")),
                output_field=models.BooleanField(),
            ),
        ),
    ]
