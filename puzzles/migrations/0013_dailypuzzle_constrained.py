"""The daily puzzle with constraints (``DailyPuzzle.constrained``): one a day, beside the
variant dailies. The variant dailies stay unique per date, variant and size among
themselves; the one with constraints is unique per date.
"""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('puzzles', '0012_constrained_keys_under_symmetries'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='dailypuzzle',
            name='daily_puzzle_unique_per_day',
        ),
        migrations.AddField(
            model_name='dailypuzzle',
            name='constrained',
            field=models.BooleanField(db_default=False, default=False, help_text="The day's puzzle with constraints (a 9x9 with constraints, never rated)."),
        ),
        migrations.AddConstraint(
            model_name='dailypuzzle',
            constraint=models.UniqueConstraint(condition=models.Q(('constrained', False)), fields=('date', 'variant', 'size'), name='daily_puzzle_unique_per_day'),
        ),
        migrations.AddConstraint(
            model_name='dailypuzzle',
            constraint=models.UniqueConstraint(condition=models.Q(('constrained', True)), fields=('date',), name='daily_constrained_unique_per_day'),
        ),
    ]
