from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("puzzles", "0002_chunk_claimed_by"),
    ]

    operations = [
        migrations.AddField(
            model_name="packchunk",
            name="queued",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
