"""Take the finished games of puzzles with constraints off the boards (integrity.gate's
``constrained``): before the gate knew them, a staff-imported thermometer puzzle's games
counted as games of its variant. A game held for an earlier reason of the gate (``guest``,
``typed_in``) keeps it; an unsettled one is left to ``games_settle``. Ratings these games
already moved stay as they are: a rating is a sequence in time."""

from django.db import migrations

EARLIER = ("", "guest", "typed_in", "constrained")


def uncount(apps, schema_editor):
    Game = apps.get_model("play", "Game")
    Game.objects.filter(
        puzzle__constrained=True, status__in=("completed", "abandoned", "lost")
    ).exclude(standing__in=EARLIER).update(counts=False, standing="constrained")


class Migration(migrations.Migration):
    dependencies = [("play", "0011_game_cell_colours"), ("puzzles", "0011_puzzle_constrained")]

    operations = [migrations.RunPython(uncount, migrations.RunPython.noop)]
