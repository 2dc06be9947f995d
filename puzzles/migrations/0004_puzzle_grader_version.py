from django.db import migrations, models

import puzzles.models


class Migration(migrations.Migration):
    dependencies = [
        ("puzzles", "0003_packchunk_queued"),
    ]

    operations = [
        # the column's database default (0) marks the rows stored so far as graded by no
        # known grader version, so the regrade finds them
        migrations.AddField(
            model_name="puzzle",
            name="grader_version",
            field=models.PositiveSmallIntegerField(
                db_default=0, default=puzzles.models.current_grader_version
            ),
        ),
    ]
