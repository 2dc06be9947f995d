from django.db import migrations, models

import puzzles.models


class Migration(migrations.Migration):
    dependencies = [
        ("puzzles", "0003_packchunk_queued"),
    ]

    operations = [
        # the rows stored so far were graded by the grader before versions were kept
        migrations.AddField(
            model_name="puzzle",
            name="grader_version",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AlterField(
            model_name="puzzle",
            name="grader_version",
            field=models.PositiveSmallIntegerField(default=puzzles.models.current_grader_version),
        ),
    ]
